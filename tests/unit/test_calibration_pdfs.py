"""The calibration documents' renderer (adapters/exports) in each of the seven languages: a certificate
and an order print with their labels translated, the certificate the same bytes every time, and the
order's QR image holds the same code as its paper."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal
from io import BytesIO

import pytest
from PIL import Image
from pypdf import PdfReader

from adapters.exports import calibration_certificate as cc
from adapters.exports import calibration_order as co
from adapters.exports.calibration_documents import ReportlabCalibrationDocuments
from adapters.i18n import LANGUAGES, Translator
from core.calibration.certificates import Certificate, CertificateStatus
from core.calibration.documents import fingerprint
from core.calibration.model import Application, Line, Service, Status
from core.calibration.ports import CertificateDocument, OrderDocument
from tests.unit.calibration_fakes import content, details

TRANSLATOR = Translator()
DOCUMENTS = ReportlabCalibrationDocuments(TRANSLATOR.translate)
NUMBER = "CAL20260302ABCDEFGH"
LINK = f"https://console.example/admin/order/detail/{NUMBER}"


def flat(text: str) -> str:
    return "".join(text.split())


def pages(pdf: bytes) -> list[str]:
    return [flat(page.extract_text()) for page in PdfReader(BytesIO(pdf)).pages]


def superseded() -> Certificate:
    found = content().as_found
    worse = tuple(replace(p, reading=p.reading + Decimal("0.7")) for p in found)
    stated = content(as_found=worse * 20, as_left=found, remarks="Adjusted at -20 °C")
    return Certificate(1, 1, 1, 1, CertificateStatus.SUPERSEDED, stated, datetime(2026, 3, 4, tzinfo=UTC),
                       number="ECL-2026-000001", issued_on=date(2026, 3, 4))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_certificate_prints_in_each_language_the_same_every_time(language):
    certificate = superseded()
    document = CertificateDocument(certificate, NUMBER, fingerprint(certificate), language, "ECL-2026-000001-V2")
    pdf = DOCUMENTS.certificate_pdf(document)
    assert pdf.startswith(b"%PDF-") and pdf == DOCUMENTS.certificate_pdf(document)
    text = pages(pdf)
    assert len(text) >= 2
    for number, page in enumerate(text, start=1):
        t = TRANSLATOR.translate
        assert "ECL-2026-000001" in page and flat(t(cc.PAGE, language, page=number, pages=len(text))) in page
        assert flat(t(cc.SUPERSEDED_BY, language, reference="ECL-2026-000001-V2")) in page
        assert flat(document.fingerprint) in page
    whole = "".join(text)
    for label in (cc.TITLE, cc.AS_FOUND, cc.AS_LEFT, cc.AUTHORISED, cc.END):
        assert flat(TRANSLATOR.translate(label, language)) in whole


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_order_prints_in_each_language_with_its_total(language):
    lines = (Line(1, Service.STANDARD_POINTS, 10, "RCW-360", "RCW360A0000001", 30000),
             Line(2, Service.EXPRESS, 10, "RCW-360", "SN-0002", 60000))
    application = Application(7, NUMBER, 1, details(), lines, "CNY", 90000, Status.PAID,
                              datetime(2026, 3, 2, 2, tzinfo=UTC), datetime(2026, 3, 2, 2, tzinfo=UTC))
    pdf = DOCUMENTS.order_pdf(OrderDocument(application, LINK, True, language, "Asia/Shanghai"))
    whole = "".join(pages(pdf))
    for item in (NUMBER, "CNY900", "CNY300", "RCW360A0000001", "2026-03-0210:00",
                 flat(TRANSLATOR.translate(co.TITLE, language)), flat(TRANSLATOR.translate(co.TOTAL, language))):
        assert item in whole, item


def test_the_qr_image_holds_the_code_of_the_link():
    image = Image.open(BytesIO(DOCUMENTS.qr_png(LINK))).convert("1")
    modules = co.qr_modules(LINK)
    side = len(modules)
    assert image.size == ((side + 2 * co.QR_BORDER) * co.PNG_MODULE,) * 2
    assert [[image.getpixel(((c + co.QR_BORDER) * co.PNG_MODULE + 3, (r + co.QR_BORDER) * co.PNG_MODULE + 3)) == 0
             for c in range(side)] for r in range(side)] == modules
    assert modules != co.qr_modules(LINK + "X")
