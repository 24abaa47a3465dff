from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from typing import Protocol

from core.calibration.certificates import Certificate, CertificateContent
from core.calibration.due_dates import DueCandidate, ReminderStage
from core.calibration.model import Application, ConsoleDevice, Details, PriceConf, RefundState, Status
from core.inbox.ports import Inbox
from core.notifications.ports import OutboxRepository
from core.shared.edition import PayType
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction


@dataclass(frozen=True)
class ApplicationFilter:
    number: str | None = None  # a part of the application number, any case
    status: Status | None = None
    quick_order: bool | None = None  # page/allQuickOrder: True


class ApplicationRepository(Protocol):
    def add(self, application: Application) -> Application:
        """Stores it with its lines; returns it with its id. A number taken already raises (the
        database's unique index): 40 random bits a day make it a bug, not a case to handle."""
        ...

    def get(self, application_id: int) -> Application | None: ...

    def by_number(self, number: str) -> Application | None: ...

    def move(self, application_id: int, source: Status, target: Status, at: datetime) -> bool:
        """source -> target (a move of model.TRANSITIONS) in one conditional write; False when it
        was no longer in `source` (another transaction moved it)."""
        ...

    def mark_paid(self, application_id: int, paid_cents: int, pay_type: int, reference: str | None,
                  at: datetime) -> bool:
        """Submitted -> paid with what was paid, in one conditional write; False when it was not
        submitted any more (a repeated notification)."""
        ...

    def cancel(self, application_id: int, source: Status, target: Status, at: datetime, refund_cents: int,
               refund_state: RefundState) -> bool:
        """source -> a cancelled status with the refund it owes, in one conditional write."""
        ...

    def set_refund_state(self, application_id: int, state: RefundState) -> None: ...

    def set_payment(self, application_id: int, pay_type: int, reference: str | None) -> None:
        """The provider's id of the payment just started, and how the customer pays."""
        ...

    def set_tracking(self, application_id: int, inbound: str | None, outbound: str | None, at: datetime) -> None:
        """The tracking numbers (None: left as they are)."""
        ...

    def update_details(self, application_id: int, details: Details, handled: bool, at: datetime) -> None: ...

    def pending_refunds(self, limit: int) -> list[Application]:
        """Cancelled applications whose refund is still pending, oldest cancelled first."""
        ...

    def of_account(self, account_id: int, where: ApplicationFilter, request: PageRequest) -> Page[Application]:
        """The account's applications, newest first."""
        ...

    def page(self, where: ApplicationFilter, request: PageRequest) -> Page[Application]:
        """Everyone's, newest first (the lab's lists)."""
        ...


class PriceRepository(Protocol):
    def of_currency(self, currency: str) -> list[PriceConf]: ...

    def put(self, price: PriceConf) -> None:
        """Sets the price of the type's service in the currency (adds it when there was none)."""
        ...


class CertificateRepository(Protocol):
    def add(self, certificate: Certificate) -> Certificate: ...

    def get(self, certificate_id: int) -> Certificate | None: ...

    def of_application(self, application_id: int) -> list[Certificate]:
        """Every version of every device's, by line, then version."""
        ...

    def latest(self, application_id: int, line_index: int) -> Certificate | None:
        """The device's highest version (a draft, or the one issued last)."""
        ...

    def update_draft(self, certificate_id: int, content: CertificateContent) -> bool:
        """The content of a draft in one conditional write; False once it is issued."""
        ...

    def issue(self, certificate_id: int, number: str, issued_on: date, at: datetime) -> bool:
        """Draft -> issued with its number, in one conditional write; False when it was no draft."""
        ...

    def supersede(self, certificate_id: int, at: datetime) -> bool:
        """Issued -> superseded in one conditional write; False when it was not issued (another
        correction came first)."""
        ...


class CertificateNumbers(Protocol):
    def next_sequence(self, year: int) -> int:
        """The year's next certificate sequence, 1 first, never given twice (a database sequence or
        a counter row locked for the transaction)."""
        ...


@dataclass(frozen=True)
class DeviceCalibration:
    """What the console keeps of a device's calibration (core.devices' tables)."""

    device_months: int | None = None  # the interval set for the device itself
    type_months: int | None = None  # its type's
    calibrated_on: date | None = None
    due_on: date | None = None
    certificate: str | None = None  # the reference of the certificate that set them


class CalibratedDevices(Protocol):
    """The console's devices as calibration reads and writes them: the adapter stands on core.devices'
    tables, so the device detail shows the dates and its list filters "calibration due"."""

    def changeable(self, account_id: int, device_ids: Sequence[int]) -> dict[int, ConsoleDevice]:
        """Those of the devices the account may change (its own, and its organizations' it
        administers), by id; the others (another's, a missing one) are left out alike."""
        ...

    def calibration(self, device_id: int) -> DeviceCalibration | None:
        """None when the device no longer exists."""
        ...

    def by_guid(self, guid: str) -> int | None:
        """The console device with this GUID (any case), if one exists."""
        ...

    def visible(self, account_id: int, device_id: int) -> bool:
        """Whether the account may see the device (its own, its organizations', shared with it)."""
        ...

    def record(self, device_id: int, calibrated_on: date, due_on: date, certificate: str) -> None: ...

    def set_interval(self, device_id: int, months: int | None, due_on: date | None) -> None:
        """The device's own interval (None: its type's again), and its due date recomputed."""
        ...


class CalibrationReminders(Protocol):
    def candidates(self, since: date, until: date) -> list[DueCandidate]:
        """Devices due in [since, until], with the stages already sent for that due date."""
        ...

    def record(self, device_id: int, due_on: date, stage: ReminderStage, at: datetime) -> bool:
        """That the stage's reminder of this due date is sent; False when it was already (by this or
        another transaction: a unique key), and then nothing is written."""
        ...


# --- payments --------------------------------------------------------------------------------------


class PayScene(StrEnum):
    """Where the payer pays, which decides how the provider is asked."""

    NATIVE = "native"  # the provider's own start: a QR code on a PC (WeChat, Alipay), Stripe's, PayPal's page
    JSAPI = "jsapi"  # inside WeChat on a phone, with the payer's OpenID (WeChat Pay only)
    WAP = "wap"  # a phone's browser, on the provider's mobile page (Alipay only)


SCENES: dict[PayType, frozenset[PayScene]] = {
    PayType.WECHAT: frozenset({PayScene.NATIVE, PayScene.JSAPI}),
    PayType.ALIPAY: frozenset({PayScene.NATIVE, PayScene.WAP}),
}


def scene_offered(pay_type: PayType, scene: PayScene) -> bool:
    return scene in SCENES.get(pay_type, frozenset({PayScene.NATIVE}))


@dataclass(frozen=True)
class ApplicationPayment:
    number: str  # the provider's order code
    amount_cents: int
    currency: str
    pay_type: PayType
    description: str
    created_at: datetime
    reference: str | None = None  # the provider's id, once started
    scene: PayScene = PayScene.NATIVE
    open_id: str | None = None  # the WeChat payer's, for JSAPI


@dataclass(frozen=True)
class PaymentStarted:
    payer_fields: dict[str, str] = field(default_factory=dict)  # payQrCode, approveUrl, ... as ordering names them
    reference: str | None = None


@dataclass(frozen=True)
class ApplicationRefund:
    number: str
    refund_code: str  # ours, the same when asked again, so the provider pays it once
    amount_cents: int
    total_cents: int
    currency: str
    pay_type: PayType
    reference: str | None


@dataclass(frozen=True)
class PaidAtProvider:
    """What the provider says it took, when asked (a return page's reconciliation)."""

    amount_cents: int
    currency: str | None
    reference: str | None


class RefundAnswer(StrEnum):
    SUCCEEDED = "succeeded"
    PENDING = "pending"  # accepted: the outcome comes later
    FAILED = "failed"


class ApplicationPayments(Protocol):
    """An application paid and paid back through the console's payment providers.

    Not ordering's PaymentGateways itself: that port is keyed by orders and lives in a module
    ordering keeps private (core.ordering.payments), and calibration needs two of its calls only.
    The adapter wraps the same gateways (the WeChat Pay and Alipay adapters and their sandbox),
    with the application number as the order code and `refund_code` as the refund's."""

    def start(self, payment: ApplicationPayment) -> PaymentStarted: ...

    def paid(self, payment: ApplicationPayment, payment_method: str | None = None) -> PaidAtProvider | None:
        """Asks the provider whether the payment was taken (capturing one the payer approved, as
        PayPal's), or with `payment_method` (a wallet's, Stripe) has it charged now; None while it
        was not taken. Raises when the provider cannot be asked."""
        ...

    def close(self, payment: ApplicationPayment) -> None:
        """Withdraws a started payment, so a cancelled application can no longer be paid."""
        ...

    def refund(self, refund: ApplicationRefund) -> RefundAnswer:
        """Raises when the provider cannot be asked (the refund stays pending, asked again later)."""
        ...


class CalibrationUnitOfWork(Transaction, Protocol):
    @property
    def calibration_applications(self) -> ApplicationRepository: ...
    @property
    def calibration_prices(self) -> PriceRepository: ...
    @property
    def calibration_certificates(self) -> CertificateRepository: ...
    @property
    def certificate_numbers(self) -> CertificateNumbers: ...
    @property
    def calibrated_devices(self) -> CalibratedDevices: ...
    @property
    def calibration_reminders(self) -> CalibrationReminders: ...
    @property
    def inbox(self) -> Inbox: ...  # the due reminders are posted (core.inbox.posting)
    @property
    def outbox(self) -> OutboxRepository: ...


# --- documents (core.calibration.documents) --------------------------------------------------------


@dataclass(frozen=True)
class ReportFile:
    """The lab's report of an application, a PDF; `content` only where it is read to be served."""

    name: str  # as uploaded, ending in .pdf
    size: int
    sha256: str
    uploaded_at: datetime
    content: bytes | None = None


class ReportRepository(Protocol):
    def put(self, application_id: int, report: ReportFile, by_account_id: int | None) -> None:
        """Stores the application's report, replacing the one before (one report an application)."""
        ...

    def get(self, application_id: int) -> ReportFile | None: ...


@dataclass(frozen=True)
class CertificateDocument:
    """What a certificate's PDF prints: the version, and what says where it stands among the others."""

    certificate: Certificate
    application_number: str
    fingerprint: str  # of what the version states (documents.fingerprint), printed on every page
    language: str
    replaced_by: str | None = None  # a superseded version's: the reference of the version that replaced it


@dataclass(frozen=True)
class OrderDocument:
    application: Application
    link: str  # what the QR code holds (documents.order_link)
    full: bool  # with the customer's details: not for a customer who reads by number and contact
    language: str
    time_zone: str


class CalibrationDocuments(Protocol):
    """Renders the documents, every label in the document's language."""

    def certificate_pdf(self, document: CertificateDocument) -> bytes:
        """The same bytes for the same document (no creation time, no random id)."""
        ...

    def order_pdf(self, document: OrderDocument) -> bytes: ...

    def qr_png(self, text: str) -> bytes: ...


class DocumentsUnitOfWork(CalibrationUnitOfWork, Protocol):
    @property
    def calibration_reports(self) -> ReportRepository: ...


__all__ = ["ApplicationFilter", "ApplicationPayment", "ApplicationPayments", "ApplicationRefund",
           "ApplicationRepository", "CalibratedDevices", "CalibrationReminders",
           "CalibrationUnitOfWork", "CertificateNumbers", "CertificateRepository", "DeviceCalibration",
           "PaidAtProvider", "PayScene", "PaymentStarted", "PriceRepository", "RefundAnswer", "SCENES",
           "scene_offered", "CalibrationDocuments", "CertificateDocument", "DocumentsUnitOfWork", "OrderDocument",
           "ReportFile", "ReportRepository"]
