"""In-memory fakes of core.calibration's ports, and a worked application to test against."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

from core.calibration.certificates import (
    Certificate,
    CertificateContent,
    CertificateStatus,
    DecisionRule,
    Environment,
    Point,
    Signatory,
)
from core.calibration.due_dates import DueCandidate
from core.calibration.model import (
    Application,
    Caller,
    ConsoleDevice,
    Contact,
    Details,
    ItemRequest,
    PriceConf,
    RefundState,
    Service,
    Status,
)
from core.calibration.ports import (
    ApplicationPayment,
    ApplicationRefund,
    DeviceCalibration,
    PaidAtProvider,
    PaymentStarted,
    RefundAnswer,
)
from core.calibration.use_cases import (
    Apply,
    ChangeStatus,
    IssueCertificate,
    RecordResult,
    SettlePayment,
    SetTrackingNumber,
)
from core.inbox.model import Recipient
from core.shared.edition import Edition, PayType
from core.shared.paging import Page
from tests.unit.fakes import FakeInbox, FakeOutboxRepository

T0 = datetime(2026, 3, 2, 2, 0, tzinfo=UTC)  # 10:00 in Shanghai
ALICE, BOB = 1, 2
LOGGER, FREEZER = 10, 20  # device types
ALICE_DEVICE = ConsoleDevice(100, "RCW360A0000001", "Cold room 1", LOGGER, "RCW-360")
BOB_DEVICE = ConsoleDevice(200, "RCW360A0000002", "Bob's logger", LOGGER, "RCW-360")
PRICES = [PriceConf(LOGGER, Service.STANDARD_POINTS, "CNY", 30000),
          PriceConf(LOGGER, Service.EXTRA_POINTS, "CNY", 45000),
          PriceConf(LOGGER, Service.EXPRESS, "CNY", 60000),
          PriceConf(FREEZER, Service.STANDARD_POINTS, "CNY", 80000),
          PriceConf(LOGGER, Service.STANDARD_POINTS, "USD", 4999)]


def details(**changes: object) -> Details:
    base = Details("Acme Cold Chain Ltd", Contact("Li Lei", "+86 138-0013-8000", "li@acme.example"),
                   "1 Harbour Road, Shanghai")
    return replace(base, **changes)


def console_item(device: ConsoleDevice = ALICE_DEVICE, service: Service = Service.STANDARD_POINTS) -> ItemRequest:
    return ItemRequest(service, device_id=device.id, guid=device.guid)


def typed_item(serial: str = "SN-0001", service: Service = Service.STANDARD_POINTS,
               type_id: int = FREEZER) -> ItemRequest:
    return ItemRequest(service, device_type_id=type_id, model="ULT-86", serial_number=serial)


def content(**changes: object) -> CertificateContent:
    base = CertificateContent(
        lab_name="Elitech Calibration Lab", customer_name="Acme Cold Chain Ltd", item_type="Temperature logger",
        item_model="RCW-360", item_serial="RCW360A0000001", condition_on_receipt="Good, no visible damage",
        received_on=date(2026, 3, 3), calibrated_on=date(2026, 3, 4), method="WI-CAL-07 comparison in a bath",
        environment=Environment(Decimal("22.5"), Decimal("45")), decision_rule=DecisionRule.SIMPLE,
        as_found=(Point(Decimal("-20"), Decimal("-20.3"), Decimal("0.12"), tolerance=Decimal("0.5")),
                  Point(Decimal("25"), Decimal("25.2"), Decimal("0.12"), tolerance=Decimal("0.5"))),
        authorised_by=Signatory("Wang Fang", "Technical manager"))
    return replace(base, **changes)


class FakeApplications:
    def __init__(self) -> None:
        self.rows: dict[int, Application] = {}

    def add(self, application):
        stored = replace(application, id=len(self.rows) + 1)
        assert all(a.number != stored.number for a in self.rows.values())
        self.rows[stored.id] = stored
        return stored

    def get(self, application_id):
        return self.rows.get(application_id)

    def by_number(self, number):
        return next((a for a in self.rows.values() if a.number == number), None)

    def _change(self, application_id, source, **changes):
        current = self.rows[application_id]
        if source is not None and current.status is not source:
            return False
        self.rows[application_id] = replace(current, **changes)
        return True

    def move(self, application_id, source, target, at):
        return self._change(application_id, source, status=target, updated_at=at)

    def mark_paid(self, application_id, paid_cents, pay_type, reference, at):
        return self._change(application_id, Status.SUBMITTED, status=Status.PAID, paid_cents=paid_cents,
                            pay_type=pay_type, paid_at=at, updated_at=at,
                            payment_reference=reference or self.rows[application_id].payment_reference)

    def cancel(self, application_id, source, target, at, refund_cents, refund_state):
        return self._change(application_id, source, status=target, cancelled_at=at, refund_cents=refund_cents,
                            refund_state=refund_state)

    def set_refund_state(self, application_id, state):
        self._change(application_id, None, refund_state=state)

    def set_payment(self, application_id, pay_type, reference):
        self._change(application_id, None, pay_type=pay_type, payment_reference=reference)

    def set_tracking(self, application_id, inbound, outbound, at):
        current = self.rows[application_id]
        self._change(application_id, None, inbound_tracking=inbound or current.inbound_tracking,
                     outbound_tracking=outbound or current.outbound_tracking)

    def update_details(self, application_id, details, handled, at):
        self._change(application_id, None, details=details, handled=handled, updated_at=at)

    def pending_refunds(self, limit):
        return [a for a in self.rows.values() if a.refund_state is RefundState.PENDING][:limit]

    def of_account(self, account_id, where, request):
        mine = [a for a in self.rows.values() if a.applicant_account_id == account_id]
        return Page(request.start, request.page_size, len(mine), mine)

    def page(self, where, request):
        every = [a for a in self.rows.values() if where.quick_order is None or a.quick_order == where.quick_order]
        return Page(request.start, request.page_size, len(every), every)


class FakePrices:
    def __init__(self) -> None:
        self.rows = {(p.device_type_id, p.service, p.currency): p for p in PRICES}

    def of_currency(self, currency):
        return [p for p in self.rows.values() if p.currency == currency]

    def put(self, price):
        self.rows[(price.device_type_id, price.service, price.currency)] = price


class FakeCertificates:
    def __init__(self) -> None:
        self.rows: dict[int, Certificate] = {}

    def add(self, certificate):
        stored = replace(certificate, id=len(self.rows) + 1)
        self.rows[stored.id] = stored
        return stored

    def get(self, certificate_id):
        return self.rows.get(certificate_id)

    def of_application(self, application_id):
        return sorted((c for c in self.rows.values() if c.application_id == application_id),
                      key=lambda c: (c.line_index, c.version))

    def latest(self, application_id, line_index):
        versions = [c for c in self.of_application(application_id) if c.line_index == line_index]
        return versions[-1] if versions else None

    def _change(self, certificate_id, source, **changes):
        if self.rows[certificate_id].status is not source:
            return False
        self.rows[certificate_id] = replace(self.rows[certificate_id], **changes)
        return True

    def update_draft(self, certificate_id, content):
        return self._change(certificate_id, CertificateStatus.DRAFT, content=content)

    def issue(self, certificate_id, number, issued_on, at):
        return self._change(certificate_id, CertificateStatus.DRAFT, status=CertificateStatus.ISSUED, number=number,
                            issued_on=issued_on, issued_at=at)

    def supersede(self, certificate_id, at):
        return self._change(certificate_id, CertificateStatus.ISSUED, status=CertificateStatus.SUPERSEDED,
                            superseded_at=at)


class FakeNumbers:
    def __init__(self) -> None:
        self.last: dict[int, int] = {}

    def next_sequence(self, year):
        self.last[year] = self.last.get(year, 0) + 1
        return self.last[year]


class FakeDevices:
    """alice's and bob's devices, each account changing its own; what each device's calibration is."""

    def __init__(self) -> None:
        self.owners = {ALICE_DEVICE.id: (ALICE, ALICE_DEVICE), BOB_DEVICE.id: (BOB, BOB_DEVICE)}
        self.calibrations = {ALICE_DEVICE.id: DeviceCalibration(type_months=12),
                             BOB_DEVICE.id: DeviceCalibration()}
        self.sharees: dict[int, tuple[int, ...]] = {}  # device id: accounts it is shared with (they see it)

    def changeable(self, account_id, device_ids):
        return {d: self.owners[d][1] for d in device_ids if d in self.owners and self.owners[d][0] == account_id}

    def calibration(self, device_id):
        return self.calibrations.get(device_id)

    def by_guid(self, guid):
        return next((d for d, (_, device) in self.owners.items() if device.guid.upper() == guid.strip().upper()), None)

    def visible(self, account_id, device_id):
        return device_id in self.owners and account_id in (self.owners[device_id][0], *self.sharees.get(device_id, ()))

    def record(self, device_id, calibrated_on, due_on, certificate):
        self.calibrations[device_id] = replace(self.calibrations[device_id], calibrated_on=calibrated_on,
                                               due_on=due_on, certificate=certificate)

    def set_interval(self, device_id, months, due_on):
        self.calibrations[device_id] = replace(self.calibrations[device_id], device_months=months, due_on=due_on)


class FakeReminders:
    def __init__(self, candidates: list[DueCandidate] | None = None) -> None:
        self.due = candidates or []
        self.sent: set[tuple[int, date, int]] = set()

    def candidates(self, since, until):
        return [replace(c, sent=frozenset(s for d, due, s in self.sent if d == c.device_id and due == c.due_on))
                for c in self.due if since <= c.due_on <= until]

    def record(self, device_id, due_on, stage, at):
        key = (device_id, due_on, int(stage))
        if key in self.sent:
            return False
        self.sent.add(key)
        return True


class FakeNotices(FakeInbox):
    """The inbox the due reminders are posted to; `posted`: (device id, days before) of each."""

    def __init__(self) -> None:
        super().__init__()
        self.recipients[ALICE] = Recipient(None, None, None)

    @property
    def posted(self) -> list[tuple[int, int]]:
        return [(m.params["deviceId"], m.params["days"]) for m in self.rows]


class FakeUnitOfWork:
    def __init__(self) -> None:
        self.calibration_applications = FakeApplications()
        self.calibration_prices = FakePrices()
        self.calibration_certificates = FakeCertificates()
        self.certificate_numbers = FakeNumbers()
        self.calibrated_devices = FakeDevices()
        self.calibration_reminders = FakeReminders()
        self.inbox = self.calibration_notices = FakeNotices()  # the reminders' tests read it by this name
        self.outbox = FakeOutboxRepository()
        self.commits = 0

    def __enter__(self):
        return self

    def __exit__(self, *args):
        pass

    def commit(self):
        self.commits += 1

    def rollback(self):
        pass


class FakePayments:
    def __init__(self, answer: RefundAnswer = RefundAnswer.SUCCEEDED, fail: bool = False,
                 taken: PaidAtProvider | None = None) -> None:
        self.answer, self.fail, self.taken = answer, fail, taken  # taken: what paid() answers
        self.started: list[ApplicationPayment] = []
        self.refunds: list[ApplicationRefund] = []
        self.closed: list[ApplicationPayment] = []

    def start(self, payment):
        self.started.append(payment)
        return PaymentStarted({"payQrCode": f"weixin://pay/{payment.number}"}, f"wx-{payment.number}")

    def paid(self, payment, payment_method=None):
        if self.fail:
            raise ConnectionError("provider unreachable")
        return self.taken

    def close(self, payment):
        self.closed.append(payment)

    def refund(self, refund):
        self.refunds.append(refund)
        if self.fail:
            raise ConnectionError("provider unreachable")
        return self.answer


# --- an application brought up the ladder by the use cases -----------------------------------------

AS_ALICE, LAB = Caller(ALICE), Caller(99, lab=True)
DOMESTIC = Edition.DOMESTIC


def apply(uow, clock, caller=AS_ALICE, items=None, **kwargs):
    return Apply(uow, clock, DOMESTIC)(caller, details(), items or (console_item(), typed_item()), **kwargs)


def pay(uow, clock, application):
    assert SettlePayment(uow, clock)(application.number, application.total_cents, "CNY", PayType.ALIPAY, "ali-1")


def at_status(uow, clock, status, caller=AS_ALICE):
    """An application of the caller's (alice's by default) brought up the ladder to `status`, with
    its access token when it has no account."""
    applied = apply(uow, clock, caller, items=(typed_item("SN-A"), typed_item("SN-B")) if caller.anonymous else None)
    application = applied.application
    ref = application.number if caller.anonymous else application.id
    mine = Caller(token=applied.access_token) if caller.anonymous else caller
    if status >= Status.PAID:
        pay(uow, clock, application)
    if status >= Status.AWAITING_DEVICES:
        SetTrackingNumber(uow, clock)(mine, ref, "SF1234567890")
    clock.advance(days=3)  # the devices arrive: the certificates' dates are not in the future
    for target in (Status.RECEIVED, Status.IN_CALIBRATION):
        if status >= target:
            ChangeStatus(uow, clock)(LAB, application.id, target)
    if status >= Status.RETURNED:
        for line in application.lines:
            draft = RecordResult(uow, clock, DOMESTIC)(LAB, application.id, line.index, content())
            IssueCertificate(uow, clock, DOMESTIC, "ECL")(LAB, draft.id)
        ChangeStatus(uow, clock)(LAB, application.id, Status.RETURNED)
    return uow.calibration_applications.get(application.id), applied.access_token
