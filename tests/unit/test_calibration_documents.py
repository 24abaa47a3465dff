"""The calibration documents' rules in the core: which certificate version a reader gets and how it
is marked, the fingerprint of what a version states, who reads the order and with which details,
what the QR holds, and the lab's report: a PDF of at most 10 MB, uploaded while the lab holds the
devices, read by whoever reads the application."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from core.calibration.certificates import CertificateStatus
from core.calibration.documents import (
    REPORT_MAX_BYTES,
    CertificatePdf,
    DownloadReport,
    OrderPdf,
    OrderQr,
    UploadReport,
    fingerprint,
    order_link,
)
from core.calibration.errors import NoCertificate, ReportNotGenerated, ReportNotNow
from core.calibration.model import Caller, Status
from core.calibration.use_cases import CorrectCertificate, IssueCertificate, RecordResult
from core.shared.edition import Edition
from core.shared.errors import Forbidden, InvalidInput, NotFound
from tests.support.clock import MutableClock
from tests.unit.calibration_fakes import ALICE, T0, FakeUnitOfWork, at_status, content

LAB, AS_ALICE, AS_BOB = Caller(99, lab=True), Caller(ALICE), Caller(2)
BASE = "https://console.example"
PDF = b"%PDF-1.7\n%%EOF\n"


class FakeReports:
    def __init__(self) -> None:
        self.stored: dict[int, object] = {}

    def put(self, application_id, report, by_account_id):
        self.stored[application_id] = report

    def get(self, application_id):
        return self.stored.get(application_id)


class FakeDocuments:
    """Records what it was asked to print."""

    def __init__(self) -> None:
        self.printed: list[object] = []

    def certificate_pdf(self, document):
        self.printed.append(document)
        return b"%PDF- certificate"

    def order_pdf(self, document):
        self.printed.append(document)
        return b"%PDF- order"

    def qr_png(self, text):
        self.printed.append(text)
        return b"\x89PNG"


@pytest.fixture
def lab():
    uow, clock = FakeUnitOfWork(), MutableClock(T0)
    uow.calibration_reports = FakeReports()
    application, _ = at_status(uow, clock, Status.IN_CALIBRATION)
    return uow, clock, application


def _issue(uow, clock, application, line: int = 1, **changes):
    draft = RecordResult(uow, clock, Edition.DOMESTIC)(LAB, application.id, line, content(**changes))
    return IssueCertificate(uow, clock, Edition.DOMESTIC, "ECL")(LAB, draft.id)


def test_a_customer_gets_the_current_issued_version_and_a_superseded_one_says_what_replaced_it(lab):
    uow, clock, application = lab
    documents = FakeDocuments()
    read = CertificatePdf(uow, documents, Edition.DOMESTIC)
    with pytest.raises(NoCertificate):  # nothing issued yet
        read(AS_ALICE, application.id, line_index=1)
    draft = RecordResult(uow, clock, Edition.DOMESTIC)(LAB, application.id, 1, content())
    with pytest.raises(NoCertificate):  # a draft is the lab's, by line and by id alike
        read(AS_ALICE, application.id, line_index=1)
    with pytest.raises(NoCertificate):
        read(AS_ALICE, application.id, certificate_id=draft.id)
    assert read(LAB, application.id, line_index=1).name == f"{application.number}-1-draft.pdf"

    issued = IssueCertificate(uow, clock, Edition.DOMESTIC, "ECL")(LAB, draft.id)
    corrected = CorrectCertificate(uow, clock, Edition.DOMESTIC)(LAB, issued.id, content(remarks="Fixed"), "Typo")
    current = read(AS_ALICE, application.id, line_index=1)
    assert current.name == "ECL-2026-000001-V2.pdf" and documents.printed[-1].certificate.id == corrected.id
    old = read(AS_ALICE, application.id, certificate_id=issued.id)
    printed = documents.printed[-1]
    assert old.name == "ECL-2026-000001.pdf"
    assert (printed.certificate.status, printed.replaced_by) == (CertificateStatus.SUPERSEDED, "ECL-2026-000001-V2")
    assert printed.language == "zh-CN"  # the edition's, whoever reads it
    assert documents.printed[-2].replaced_by is None


def test_a_certificate_is_read_only_through_its_own_application(lab):
    uow, clock, application = lab
    issued = _issue(uow, clock, application)
    other, _ = at_status(uow, clock, Status.IN_CALIBRATION)
    read = CertificatePdf(uow, FakeDocuments(), Edition.DOMESTIC)
    with pytest.raises(NotFound):  # another application's version, though the lab may read both
        read(LAB, other.id, certificate_id=issued.id)
    with pytest.raises(NotFound):
        read(AS_BOB, application.id, certificate_id=issued.id)
    with pytest.raises(NotFound):  # no third device on it
        read(AS_ALICE, application.id, line_index=3)


def test_the_fingerprint_follows_what_a_version_states_and_nothing_else(lab):
    uow, clock, application = lab
    issued = _issue(uow, clock, application)
    assert fingerprint(issued) == fingerprint(replace(issued, created_at=T0, id=12345))
    assert fingerprint(issued) != fingerprint(replace(issued, content=content(method="Another method")))
    point = issued.content.as_found[0]
    moved = replace(issued.content, as_found=(replace(point, reading=point.reading + Decimal("0.1")),))
    assert fingerprint(issued) != fingerprint(replace(issued, content=moved))
    assert len(fingerprint(issued).replace(" ", "")) == 16


def test_the_order_shows_the_details_to_its_customer_and_the_lab_only_and_its_qr_holds_the_lab_s_page(lab):
    uow, clock, application = lab
    documents = FakeDocuments()
    order = OrderPdf(uow, documents, BASE)
    assert order(AS_ALICE, application.id, "de-DE", "Europe/Berlin").name == f"{application.number}.pdf"
    printed = documents.printed[-1]
    assert (printed.full, printed.language, printed.link) == (True, "de-DE",
                                                              f"{BASE}/admin/order/detail/{application.number}")
    with pytest.raises(NotFound):
        order(AS_BOB, application.id, "en-US", "UTC")
    anonymous, token = at_status(uow, clock, Status.SUBMITTED, caller=Caller())
    order(Caller(contact=anonymous.details.contact.email), anonymous.number, "en-US", "UTC")
    assert documents.printed[-1].full is False  # by number and contact: read without the details
    order(Caller(token=token), anonymous.number, "en-US", "UTC")
    assert documents.printed[-1].full is True
    with pytest.raises(NotFound):  # an anonymous caller never names one by id
        order(Caller(token=token), anonymous.id, "en-US", "UTC")
    qr = OrderQr(uow, documents, BASE + "/")(Caller(token=token), anonymous.number)
    assert (qr.name, qr.media_type) == (f"{anonymous.number}.png", "image/png")
    assert documents.printed[-1] == order_link(BASE, anonymous.number)


def test_the_report_is_a_pdf_of_at_most_10_mb_uploaded_by_the_lab_while_it_holds_the_devices(lab):
    uow, clock, application = lab
    upload, download = UploadReport(uow, clock), DownloadReport(uow)
    with pytest.raises(ReportNotGenerated):
        download(AS_ALICE, application.id)
    for content_, name in ((b"GIF89a", "report.pdf"), (PDF, "report.docx"), (PDF, None),
                           (PDF + b"x" * REPORT_MAX_BYTES, "report.pdf")):
        with pytest.raises(InvalidInput) as refused:
            upload(LAB, application.id, content_, name)
        assert refused.value.field == "file"
    with pytest.raises(Forbidden):
        upload(AS_ALICE, application.id, PDF, "report.pdf")
    assert uow.calibration_reports.stored == {}

    stored = upload(LAB, application.id, PDF, "../../etc/Report:1.PDF")
    assert (stored.name, stored.size, stored.content) == ("Report1.PDF", len(PDF), None)
    got = download(AS_ALICE, application.id)
    assert (got.content, got.name) == (PDF, "Report1.PDF")
    upload(LAB, application.id, PDF + b"v2", "report.pdf")  # a new upload replaces it
    assert download(LAB, application.id).content == PDF + b"v2"
    with pytest.raises(NotFound):
        download(AS_BOB, application.id)

    paid, _ = at_status(uow, clock, Status.PAID)
    with pytest.raises(ReportNotNow):  # the lab does not hold the devices yet
        upload(LAB, paid.id, PDF, "report.pdf")
