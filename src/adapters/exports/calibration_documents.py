"""core.calibration.ports.CalibrationDocuments: the certificate and the order by reportlab, the
order's QR code as PNG by Pillow, every label through the server's catalogues."""

from __future__ import annotations

from collections.abc import Callable

from adapters.exports import calibration_certificate, calibration_order
from core.calibration.ports import CertificateDocument, OrderDocument

Translate = Callable[..., str]  # (message id, language, **parameters) -> text


class ReportlabCalibrationDocuments:
    def __init__(self, translate: Translate) -> None:
        self._translate = translate

    def _labels(self, language: str) -> Callable[..., str]:
        return lambda msgid, **params: self._translate(msgid, language, **params)

    def certificate_pdf(self, document: CertificateDocument) -> bytes:
        return calibration_certificate.certificate_pdf(document, self._labels(document.language))

    def order_pdf(self, document: OrderDocument) -> bytes:
        return calibration_order.order_pdf(document, self._labels(document.language))

    def qr_png(self, text: str) -> bytes:
        return calibration_order.qr_png(text)
