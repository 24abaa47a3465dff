"""Invoices of paid orders (issue 19; spec seed 001 sections 3, 4, 7 and 9) as they are stored, and
the rules that need no repository: what an order may still be invoiced for, and when a request is
overdue.

A request covers one or more orders of one account and one currency, each for what is still paid
of it (charged less refunded), with the bill as it was when asked for (the customer may edit or
delete the bill later). An order is in at most one request that is waiting or issued; a rejected
request lets its orders go, to be asked for again.

"The invoice is sent to the mailbox within three working days" (spec seed 001 section 9): a
request still waiting three working days after it was made is overdue. Working days are Monday to
Friday in the edition's time zone (Asia/Shanghai domestically, UTC internationally); there is no
holiday calendar, so a public holiday counts as a working day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from enum import IntEnum
from zoneinfo import ZoneInfo

from core.ordering.model import PAID_STATES, Order
from core.shared.identity import Stored
from core.shared.messages import N_

INVOICE_ISSUED = "invoice_issued"  # the customer's system message (core.inbox): the PDF is ready
INVOICE_SENT = "invoice_sent"  # ... issued and sent to the bill's mailbox or address
INVOICE_REJECTED = "invoice_rejected"  # ... not issued, with the operator's reason

MAX_ORDERS_PER_INVOICE = 100
MAX_PDF_BYTES = 5 * 1024 * 1024
PDF_SIGNATURE = b"%PDF-"  # what every PDF file starts with (ISO 32000-1, 7.5.2)
INVOICE_NUMBER_MAX = 40
FILE_NAME_MAX = 120
REASON_MAX = 200
WORKING_DAYS = 3


class InvoiceRequestStatus(IntEnum):
    REQUESTED = 1  # waiting for the back office
    ISSUED = 2  # its PDF uploaded, or sent to the mailbox: its orders are invoiced
    REJECTED = 3  # not issued, with a reason; its orders may be asked for again


class Delivery(IntEnum):
    """How an issued invoice reached the customer."""

    PDF = 1  # uploaded here: the customer downloads it
    MAILBOX = 2  # sent outside the console (the tax system's e-mail, or by post): recorded only


INVOICE_STATUS_NAMES = {InvoiceRequestStatus.REQUESTED: N_("Requested"), InvoiceRequestStatus.ISSUED: N_("Issued"),
                        InvoiceRequestStatus.REJECTED: N_("Rejected")}
DELIVERY_NAMES = {Delivery.PDF: N_("PDF in the console"), Delivery.MAILBOX: N_("Sent to the mailbox")}


@dataclass(frozen=True)
class InvoicedOrder:
    """An order a request covers, for what was still paid of it when asked for."""

    order_id: int
    order_code: str
    amount_cents: int


@dataclass(frozen=True)
class InvoiceFile:
    """An issued invoice's PDF; `content` only where it is read to be served."""

    name: str
    size: int
    sha256: str
    content: bytes | None = None


@dataclass(frozen=True)
class InvoiceRequest(Stored):
    id: int | None
    account_id: int
    currency: str
    amount_cents: int  # the sum of its orders'
    bill: dict[str, object]  # the bill as it was when asked for (Bill.snapshot)
    status: InvoiceRequestStatus
    requested_at: datetime
    orders: tuple[InvoicedOrder, ...]
    requested_by: int | None = None  # None: asked for by an order placed with applyFlag, when it was paid
    decided_by: int | None = None  # the operator who issued or rejected it
    decided_at: datetime | None = None
    decision_note: str | None = None  # why it was rejected
    delivery: Delivery | None = None
    invoice_number: str | None = None  # the invoice's own number, as the operator gave it
    file: InvoiceFile | None = None
    account_name: str | None = None  # read back with it
    decider_name: str | None = None

    @property
    def order_codes(self) -> str:
        return ", ".join(o.order_code for o in self.orders)


@dataclass(frozen=True)
class InvoiceFilter:
    """What the back office's list of requests is narrowed to; None: any. Instants are [from, until)."""

    status: InvoiceRequestStatus | None = None
    account: str | None = None  # part of the account's user name, phone or e-mail
    order_code: str | None = None  # part of the code of one of its orders
    overdue: bool | None = None
    requested_from: datetime | None = None
    requested_until: datetime | None = None


def invoiceable_cents(order: Order) -> int:
    """What an invoice may cover of the order: what is still paid of it (charged less refunded);
    nothing for an order unpaid, closed or refunded whole, or paid nothing (a recharge card)."""
    if order.status not in PAID_STATES:
        return 0
    return max(0, order.charged_cents - order.refunded_cents)


def exact_amount(cents: int) -> str:
    """An invoice's amount to the cent, whatever the currency shows elsewhere."""
    return f"{'-' if cents < 0 else ''}{abs(cents) // 100}.{abs(cents) % 100:02d}"


# --- working days ------------------------------------------------------------------------------------

_DAY = timedelta(days=1)


def _working(day: datetime) -> bool:
    return day.weekday() < 5


def add_working_days(instant: datetime, days: int, zone: ZoneInfo) -> datetime:
    """The earliest instant by which `days` whole days of working time (Monday to Friday, local)
    have passed since `instant`; time at a weekend does not count."""
    local, left = instant.astimezone(zone).replace(tzinfo=None), timedelta(days=days)
    while True:
        midnight = datetime.combine(local.date() + _DAY, time())
        if _working(local):
            if midnight - local >= left:
                return (local + left).replace(tzinfo=zone).astimezone(UTC)
            left -= midnight - local
        local = midnight


def subtract_working_days(instant: datetime, days: int, zone: ZoneInfo) -> datetime:
    """The latest instant from which `days` whole days of working time have passed by `instant`:
    a request made at or before it is overdue at `instant`."""
    local, left = instant.astimezone(zone).replace(tzinfo=None), timedelta(days=days)
    while True:
        midnight = datetime.combine(local.date(), time())
        if midnight == local:  # the day before, whole
            midnight -= _DAY
        if _working(midnight):
            if local - midnight >= left:
                return (local - left).replace(tzinfo=zone).astimezone(UTC)
            left -= local - midnight
        local = midnight


@dataclass(frozen=True)
class InvoicePolicy:
    """When a waiting request is due, and overdue: WORKING_DAYS working days after it was made,
    counted in `time_zone` (the edition's)."""

    time_zone: str = "UTC"
    working_days: int = WORKING_DAYS

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    def due(self, requested_at: datetime) -> datetime:
        return add_working_days(requested_at, self.working_days, self.zone)

    def overdue(self, request: InvoiceRequest, now: datetime) -> bool:
        return request.status is InvoiceRequestStatus.REQUESTED and now >= self.due(request.requested_at)

    def overdue_cutoff(self, now: datetime) -> datetime:
        """A waiting request made at or before this instant is overdue now (the same answer as
        `overdue`, for a query to ask in SQL)."""
        return subtract_working_days(now, self.working_days, self.zone)
