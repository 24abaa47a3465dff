"""A calibration application: what the customer orders for which devices at what price, and the
status ladder it climbs (spec 001 sections 3, 4 and 7; issue 21). Certificates are in
`certificates`, due dates and reminders in `due_dates`, field rules in `rules`."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum, StrEnum

from core.calibration.errors import AlreadyCancelled, AlreadyReceived, AlreadyReturned
from core.shared.identity import Stored
from core.shared.messages import N_


class Service(IntEnum):
    """What the lab does to one device; each is priced per device type (PriceConf)."""

    STANDARD_POINTS = 1  # the type's standard calibration points
    EXTRA_POINTS = 2  # the standard points and those the customer names (ItemRequest.points_note)
    EXPRESS = 3  # the standard points, worked first


SERVICE_NAMES = {Service.STANDARD_POINTS: N_("Standard points"), Service.EXTRA_POINTS: N_("Extra points"),
                 Service.EXPRESS: N_("Express")}


@dataclass(frozen=True)
class PriceConf:
    """The price of a service for one device of a type, in the edition's currency (operators edit it)."""

    device_type_id: int
    service: Service
    currency: str
    price_cents: int


class Status(IntEnum):
    """The ladder of an application (spec 001 section 4: above 6 is cancelled)."""

    SUBMITTED = 1  # not paid yet ("apply later" pays it from the list)
    PAID = 2
    AWAITING_DEVICES = 3  # the customer gave the inbound tracking number, or the lab expects the devices
    RECEIVED = 4
    IN_CALIBRATION = 5
    RETURNED = 6  # every certificate issued and the devices sent back
    CANCELLED_BY_CUSTOMER = 7
    CANCELLED_BY_LAB = 8


def is_cancelled(status: int) -> bool:
    """The spec's own rule, which also holds for a status a later version adds above 8."""
    return status > Status.RETURNED


class Mover(StrEnum):
    """Who moves an application: its customer, the lab, or the provider's word that it is paid."""

    CUSTOMER = "customer"
    LAB = "lab"
    PAYMENT = "payment"


_S, _C, _L, _P = Status, Mover.CUSTOMER, Mover.LAB, Mover.PAYMENT

# Who may move an application from one status to another, and nothing else (adapters follow it).
# A customer cancels until the lab holds the devices; the lab cancels until it has returned them,
# but refunds automatically only what was paid and not received (cancel_check). The lab marks paid
# only its own quick orders, paid at the counter or by transfer (use_cases.ChangeStatus checks it).
TRANSITIONS: dict[tuple[Status, Status], frozenset[Mover]] = {
    (_S.SUBMITTED, _S.PAID): frozenset({_P, _L}),
    (_S.PAID, _S.AWAITING_DEVICES): frozenset({_C, _L}),
    (_S.AWAITING_DEVICES, _S.RECEIVED): frozenset({_L}),
    (_S.RECEIVED, _S.IN_CALIBRATION): frozenset({_L}),
    (_S.IN_CALIBRATION, _S.RETURNED): frozenset({_L}),  # every device's certificate issued
    **{(source, _S.CANCELLED_BY_CUSTOMER): frozenset({_C})
       for source in (_S.SUBMITTED, _S.PAID, _S.AWAITING_DEVICES)},
    **{(source, _S.CANCELLED_BY_LAB): frozenset({_L})
       for source in (_S.SUBMITTED, _S.PAID, _S.AWAITING_DEVICES, _S.RECEIVED, _S.IN_CALIBRATION)},
}

# Paid and the devices not at the lab yet: a cancellation pays everything back.
REFUNDED_ON_CANCEL = frozenset({Status.PAID, Status.AWAITING_DEVICES})


def may_move(current: Status, target: Status, mover: Mover) -> bool:
    return mover in TRANSITIONS.get((current, target), frozenset())


def cancelled_status(mover: Mover) -> Status:
    return Status.CANCELLED_BY_LAB if mover is Mover.LAB else Status.CANCELLED_BY_CUSTOMER


class RefundState(IntEnum):
    NONE = 0  # nothing to pay back
    PENDING = 1  # asked of the provider (or to be asked again): its answer is awaited
    SUCCEEDED = 2
    FAILED = 3  # the provider refused: the operators pay it back by hand


class InvoiceType(IntEnum):
    PERSONAL = 1  # spec 001 section 3's invoiceType
    ENTERPRISE = 2


@dataclass(frozen=True)
class InvoiceDetails:
    invoice_type: InvoiceType
    title: str  # the person's or the company's name on the invoice
    tax_number: str | None = None  # an enterprise invoice's


@dataclass(frozen=True)
class Contact:
    """Whom the lab calls; for a customer without an account, also what identifies them."""

    name: str
    phone: str | None = None
    email: str | None = None


@dataclass(frozen=True)
class Details:
    """The application's base info (update/baseInfo): who the certificates are for, whom to call,
    where the devices go back, and the invoice wanted (None: none)."""

    customer_name: str | None  # the company or person named on the certificates
    contact: Contact
    return_address: str | None  # a quick order may leave it for the lab to complete
    customer_address: str | None = None
    invoice: InvoiceDetails | None = None
    remark: str | None = None


@dataclass(frozen=True)
class ItemRequest:
    """A device the customer asks calibration of: one of theirs in the console (by id and GUID), or
    one the console does not know (its type, model and serial number, typed)."""

    service: Service
    device_id: int | None = None
    guid: str | None = None
    device_type_id: int | None = None
    model: str | None = None
    serial_number: str | None = None
    points_note: str | None = None  # which extra points (Service.EXTRA_POINTS)

    @property
    def in_console(self) -> bool:
        return self.device_id is not None


@dataclass(frozen=True)
class ConsoleDevice:
    """A console device as calibration reads it (ports.CalibratedDevices)."""

    id: int
    guid: str
    name: str
    type_id: int
    type_name: str


@dataclass(frozen=True)
class Line:
    """A device on an application with its service and the price it was applied at: what is
    charged is what was shown, whatever the price configuration says later."""

    index: int  # 1-based, the device's place on the application (certificates refer to it)
    service: Service
    device_type_id: int
    model: str
    serial: str  # the serial number, or the GUID of a console device
    price_cents: int
    device_id: int | None = None  # a console device's
    points_note: str | None = None


@dataclass(frozen=True)
class Quote:
    currency: str
    lines: tuple[Line, ...]

    @property
    def total_cents(self) -> int:
        return sum(line.price_cents for line in self.lines)


@dataclass(frozen=True)
class Application(Stored):
    id: int | None
    number: str
    applicant_account_id: int | None  # None: a customer without an account (ACCESS below)
    details: Details
    lines: tuple[Line, ...]
    currency: str
    total_cents: int
    status: Status
    created_at: datetime
    updated_at: datetime
    quick_order: bool = False  # taken by the lab on the phone or at the counter
    handled: bool = True  # a quick order's details completed by the lab (handleQuickOrder)
    inbound_tracking: str | None = None  # customer -> lab
    outbound_tracking: str | None = None  # lab -> customer
    pay_type: int | None = None
    payment_reference: str | None = None  # the provider's id of the payment
    paid_cents: int = 0
    paid_at: datetime | None = None
    cancelled_at: datetime | None = None
    refund_cents: int = 0
    refund_state: RefundState = RefundState.NONE
    access_digest: str | None = None  # of the access token of an application without an account

    @property
    def cancelled(self) -> bool:
        return is_cancelled(self.status)


@dataclass(frozen=True)
class CancelCheck:
    """cancel/check's answer: whether the mover may cancel now, the code of the refusal if not, and
    what a cancellation would pay back."""

    possible: bool
    reason: int | None = None
    refund_due_cents: int = 0


def cancel_check(application: Application, mover: Mover) -> CancelCheck:
    status = application.status
    if application.cancelled:
        return CancelCheck(False, AlreadyCancelled.code)
    if not may_move(status, cancelled_status(mover), mover):
        refusal = AlreadyReturned if status is Status.RETURNED else AlreadyReceived
        return CancelCheck(False, refusal.code)
    return CancelCheck(True, None, application.paid_cents if status in REFUNDED_ON_CANCEL else 0)


# CAL, the day, then 8 characters of an alphabet without look-alikes (0/O, 1/I/L): 40 random bits,
# so one number tells nothing of another's, and 19 characters fit every provider's order code.
NUMBER_PREFIX = "CAL"
NUMBER_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
NUMBER_RANDOM = 8
NUMBER_PATTERN = re.compile(rf"^{NUMBER_PREFIX}\d{{8}}[{NUMBER_ALPHABET}]{{{NUMBER_RANDOM}}}$")


def new_application_number(now: datetime) -> str:
    tail = "".join(secrets.choice(NUMBER_ALPHABET) for _ in range(NUMBER_RANDOM))
    return f"{NUMBER_PREFIX}{now:%Y%m%d}{tail}"


def normalized_number(text: str) -> str | None:
    """A number as typed (any case, spaces around): the number, or None when it cannot be one."""
    number = text.strip().upper()
    return number if NUMBER_PATTERN.match(number) else None


# ACCESS. A customer without an account reaches their application two ways:
# - its access token (given once when it is made, in the success page's link and the confirmation
#   sent to the contact; only its digest is kept): the customer's full rights (pay, tracking,
#   details, cancel), like an account's owner;
# - its number with the contact phone or e-mail it was made with: read only (status, tracking,
#   certificates). A number is printed on the order's PDF and its QR code, and a phone is not a
#   secret, so together they do not change or cancel anything.
# Anonymous callers name an application by its number, never by its id (ids are sequential).
TOKEN_BYTES = 24


def new_access_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _phone_key(phone: str) -> str:
    return "".join(ch for ch in phone if ch.isdigit())


def contact_matches(contact: Contact, given: str) -> bool:
    """Whether `given` is the contact's e-mail (any case) or phone (digits compared, so spaces,
    dashes and a leading + do not matter)."""
    given = given.strip()
    if not given:
        return False
    if "@" in given:
        return contact.email is not None and hmac.compare_digest(contact.email.casefold(), given.casefold())
    key = _phone_key(given)
    return bool(key) and contact.phone is not None and hmac.compare_digest(_phone_key(contact.phone), key)


class Reach(IntEnum):
    """What a caller may do with an application."""

    NONE = 0  # answered as if it did not exist
    READ = 1  # an anonymous customer by number and contact
    CUSTOMER = 2  # its account, or its access token
    LAB = 3


@dataclass(frozen=True)
class Caller:
    """Who asks. The entrypoint fills it: the session's account, `lab` when that account holds the
    calibration admin role, and what an anonymous customer gave (token, or contact with a number)."""

    account_id: int | None = None
    lab: bool = False
    token: str | None = None
    contact: str | None = None

    @property
    def anonymous(self) -> bool:
        return self.account_id is None and not self.lab


def reach(application: Application, caller: Caller, by_number: bool) -> Reach:
    """`by_number`: the caller named the application by its number (the only way an anonymous
    customer may)."""
    if caller.lab:
        return Reach.LAB
    if application.applicant_account_id is not None:
        owner = caller.account_id == application.applicant_account_id
        return Reach.CUSTOMER if owner else Reach.NONE
    if not by_number:
        return Reach.NONE
    if caller.token and application.access_digest and hmac.compare_digest(token_digest(caller.token),
                                                                          application.access_digest):
        return Reach.CUSTOMER
    if caller.contact and contact_matches(application.details.contact, caller.contact):
        return Reach.READ
    return Reach.NONE
