"""The calibration documents (issue 21; spec 001 sections 7 and 8): a device's certificate as PDF,
the application's order as PDF with its QR code, and the lab's report of the application.

A certificate's PDF is made on each download from the content the database keeps, never stored:
- that content cannot change once issued (the repository's conditional writes, CertificateIssued),
  and the renderer is deterministic (no creation time, no random document id), so a version
  prints the same bytes on every download by a release of the console;
- a superseded version has to be printed anew anyway, marked SUPERSEDED with the reference of the
  version that replaced it, which bytes stored at its issue would not say;
- every page prints the fingerprint of what the version states (`fingerprint`), so two printings,
  whatever release of the console made them, can be told to state the same.

A certificate is in the edition's language, whoever downloads it: it is one record of the lab, the
same for the customer, an auditor and the lab. The order is a working paper, in the caller's.

The order's QR code holds the URL of the lab's page of the application, by number (`order_link`):
the lab scans the paper that comes with the devices and opens the application at receipt. The
number, not the id: the paper is also in the hands of a customer without an account, who names
applications by number only (model ACCESS).

Who reads what: whoever may read the application (use_cases.reached, Reach.READ) reads its order,
QR, report and issued certificates; a customer who reads by number and contact gets the order
without the customer's details (as get/applicationInfo answers them); drafts are the lab's."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace

from core.calibration.certificates import Certificate, CertificateStatus
from core.calibration.errors import NoCertificate, ReportNotGenerated, ReportNotNow
from core.calibration.model import Application, Caller, Reach, Status
from core.calibration.ports import (
    CalibrationDocuments,
    CalibrationUnitOfWork,
    CertificateDocument,
    DocumentsUnitOfWork,
    OrderDocument,
    ReportFile,
)
from core.calibration.rules import content_json
from core.calibration.use_cases import ApplicationRef, reached
from core.shared.clock import Clock
from core.shared.edition import Edition
from core.shared.errors import InvalidInput, NotFound
from core.shared.messages import N_

PDF, PNG = "application/pdf", "image/png"
PDF_SIGNATURE = b"%PDF-"  # what every PDF file starts with (ISO 32000-1, 7.5.2)
REPORT_MAX_BYTES = 10 * 1024 * 1024
FILE_NAME_MAX = 120
LAB_ROLE = "admin"  # the lab's pages are under /admin/order/... (web routes calibrationOrders, calibrationOrderDetail)
NOT_A_PDF = N_("Upload the report as a PDF file")
TOO_LARGE = N_("At most {max} MB")
# The lab may upload its report once it holds the devices, and after it has sent them back.
REPORT_STATUSES = frozenset({Status.RECEIVED, Status.IN_CALIBRATION, Status.RETURNED})


@dataclass(frozen=True)
class Download:
    name: str
    content: bytes
    media_type: str = PDF


def fingerprint(certificate: Certificate) -> str:
    """The first 64 bits of the SHA-256 of what the version states, in groups of four: what it
    says, its reference, date of issue and amendment, numbers as the lab wrote them."""
    stated = {"reference": certificate.reference, "version": certificate.version,
              "issuedOn": certificate.issued_on.isoformat() if certificate.issued_on else None,
              "amendment": certificate.amendment, "content": content_json(certificate.content)}
    digest = hashlib.sha256(json.dumps(stated, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
    return " ".join(digest[i:i + 4] for i in range(0, 16, 4))


def order_link(base_url: str, number: str) -> str:
    return f"{base_url.rstrip('/')}/{LAB_ROLE}/order/detail/{number}"


def _pdf_name(text: str) -> str:
    return f"{text}.pdf"


# --- the certificate ----------------------------------------------------------------------------------


def _chosen(versions: list[Certificate], found: Reach, certificate_id: int | None,
            line_index: int | None) -> Certificate:
    """The version asked for: by id (any version, a superseded one too), or the device's current
    one by its line (the lab's newest, a draft included; a customer's newest issued)."""
    lab = found is Reach.LAB
    if certificate_id is not None:
        chosen = next((c for c in versions if c.id == certificate_id), None)
        if chosen is None:
            raise NotFound()  # another application's, or none
    else:
        mine = [c for c in versions if c.line_index == line_index and (lab or c.status is not CertificateStatus.DRAFT)]
        if not mine:
            raise NoCertificate()
        chosen = max(mine, key=lambda c: c.version)
    if chosen.status is CertificateStatus.DRAFT and not lab:
        raise NoCertificate()
    return chosen


class CertificatePdf:
    """ResultInfo/download/certificate: a version of a device's certificate as PDF, marked
    SUPERSEDED (with the reference that replaced it) or, for the lab's look at a draft, DRAFT."""

    def __init__(self, uow: CalibrationUnitOfWork, documents: CalibrationDocuments, edition: Edition) -> None:
        self._uow, self._documents = uow, documents
        self._language = edition.profile.default_language

    def __call__(self, caller: Caller, ref: ApplicationRef, certificate_id: int | None = None,
                 line_index: int | None = None) -> Download:
        with self._uow as uow:
            application, found = reached(uow, caller, ref, Reach.READ)
            if certificate_id is None and not any(line.index == line_index for line in application.lines):
                raise NotFound()
            versions = uow.calibration_certificates.of_application(application.stored_id)
        chosen = _chosen(versions, found, certificate_id, line_index)
        replaced_by = next((c.reference for c in versions if c.line_index == chosen.line_index
                            and c.version == chosen.version + 1 and c.status is not CertificateStatus.DRAFT), None)
        document = CertificateDocument(chosen, application.number, fingerprint(chosen), self._language,
                                       replaced_by if chosen.status is CertificateStatus.SUPERSEDED else None)
        name = chosen.reference or f"{application.number}-{chosen.line_index}-draft"
        return Download(_pdf_name(name), self._documents.certificate_pdf(document))


# --- the order ----------------------------------------------------------------------------------------


class OrderPdf:
    """download/order: the application's order as PDF, with its QR code (`order_link`)."""

    def __init__(self, uow: CalibrationUnitOfWork, documents: CalibrationDocuments, base_url: str) -> None:
        self._uow, self._documents, self._base_url = uow, documents, base_url

    def __call__(self, caller: Caller, ref: ApplicationRef, language: str, time_zone: str) -> Download:
        with self._uow as uow:
            application, found = reached(uow, caller, ref, Reach.READ)
        document = OrderDocument(application, order_link(self._base_url, application.number),
                                 found is not Reach.READ, language, time_zone)
        return Download(_pdf_name(application.number), self._documents.order_pdf(document))


class OrderQr:
    """getQR: the order's QR code alone, as PNG."""

    def __init__(self, uow: CalibrationUnitOfWork, documents: CalibrationDocuments, base_url: str) -> None:
        self._uow, self._documents, self._base_url = uow, documents, base_url

    def __call__(self, caller: Caller, ref: ApplicationRef) -> Download:
        with self._uow as uow:
            application: Application = reached(uow, caller, ref, Reach.READ)[0]
        png = self._documents.qr_png(order_link(self._base_url, application.number))
        return Download(f"{application.number}.png", png, PNG)


# --- the lab's report ---------------------------------------------------------------------------------


def checked_report(content: bytes, file_name: str | None) -> bytes:
    """A report's file: a PDF by its name and by its first bytes, of at most REPORT_MAX_BYTES."""
    if len(content) > REPORT_MAX_BYTES:
        raise InvalidInput("file", TOO_LARGE, max=REPORT_MAX_BYTES >> 20)
    if not (file_name or "").strip().lower().endswith(".pdf") or not content.startswith(PDF_SIGNATURE):
        raise InvalidInput("file", NOT_A_PDF)
    return content


def _kept_name(file_name: str | None, number: str) -> str:
    """The uploaded name without its folders or what a file system or a header refuses, ending in .pdf."""
    base = (file_name or "").replace("\\", "/").rsplit("/", 1)[-1]
    cleaned = "".join(c for c in base if c.isprintable() and c not in ':*?"<>|').strip()
    if not cleaned.lower().endswith(".pdf") or cleaned.lower() == ".pdf":
        cleaned = f"{number}-report.pdf"
    return cleaned[-FILE_NAME_MAX:]


class UploadReport:
    """upload/report: the lab's report of an application, a PDF, replacing the one before."""

    def __init__(self, uow: DocumentsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, caller: Caller, ref: ApplicationRef, content: bytes, file_name: str | None) -> ReportFile:
        pdf = checked_report(content, file_name)
        with self._uow as uow:
            application, _ = reached(uow, caller, ref, Reach.LAB)
            if application.status not in REPORT_STATUSES:
                raise ReportNotNow()
            report = ReportFile(_kept_name(file_name, application.number), len(pdf), hashlib.sha256(pdf).hexdigest(),
                                self._clock.now())
            uow.calibration_reports.put(application.stored_id, replace(report, content=pdf), caller.account_id)
            uow.commit()
        return report


class DownloadReport:
    """download/report: the lab's report as uploaded, byte for byte; ReportNotGenerated before."""

    def __init__(self, uow: DocumentsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, caller: Caller, ref: ApplicationRef) -> Download:
        with self._uow as uow:
            application, _ = reached(uow, caller, ref, Reach.READ)
            report = uow.calibration_reports.get(application.stored_id)
        if report is None or report.content is None:
            raise ReportNotGenerated()
        return Download(report.name, report.content)
