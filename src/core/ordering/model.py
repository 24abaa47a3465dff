"""Orders of service levels and of SMS and voice packages (spec seed 000 sections 3-4, seed 001
sections 3-4). An order is priced by the server when it is placed and settled once when paid."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime
from enum import IntEnum, StrEnum

from core.shared.edition import PayType


class PayStatus(IntEnum):
    UNPAID = 1
    PAID = 2
    REFUNDED = 3
    CLOSED = 4  # unpaid past its expiry: can no longer be paid


class PaymentFailure(StrEnum):
    """Why the payer's latest attempt did not pay an order; the order stays unpaid (spec seed 000
    section 8 as issue 14 item 5 amends it: a failed or cancelled payment is said, with a retry)."""

    DECLINED = "declined"  # the card's issuer or the wallet refused it
    CANCELLED = "cancelled"  # the payer left the provider's page without paying
    FAILED = "failed"  # the provider could not complete it


class OrderKind(IntEnum):
    SERVICE = 1  # a service level for one or more devices
    ALERTS = 2  # SMS and/or voice packages for one or more devices


class InvoiceStatus(IntEnum):
    NOT_INVOICED = 0
    INVOICED = 1


MAX_DEVICES_PER_ORDER = 200  # "order has too many products" beyond it
# What the caller's order list may be sorted by (api-contract paging); gmtCreate by default.
ORDER_SORT_FIELDS = ("gmtCreate", "payTime", "orderFee", "orderCode")


def new_order_code(now: datetime) -> str:
    """20 characters (the order code's limit): the placing instant to the second, then six
    random digits, so codes sort by time and cannot be guessed from a neighbour's."""
    return f"{now:%Y%m%d%H%M%S}{secrets.randbelow(10**6):06d}"


@dataclass(frozen=True)
class OrderLine:
    """What one device gets when the order is paid, and what it costs."""

    device_id: int
    fee_cents: int
    level_id: int | None = None
    level_year_id: int | None = None
    months: int = 0
    bonus_months: int = 0
    sms_count: int = 0
    voice_count: int = 0


@dataclass(frozen=True)
class Order:
    id: int | None
    code: str
    account_id: int
    kind: OrderKind
    pay_type: PayType
    currency: str
    order_fee_cents: int
    apply_flag: bool
    description: str
    created_at: datetime
    lines: tuple[OrderLine, ...]
    status: PayStatus = PayStatus.UNPAID
    bill_id: int | None = None
    invoice: dict[str, object] | None = None  # the bill as it was when the order was placed
    activity_id: int | None = None
    country_code: str | None = None  # of an SMS/voice order
    pay_fee_cents: int | None = None
    paid_at: datetime | None = None
    refunded_at: datetime | None = None
    closed_at: datetime | None = None
    payment_reference: str | None = None  # the provider's id of the payment, from its start
    settlement_reference: str | None = None  # the provider's id of the money received (transaction, capture)
    invoice_status: InvoiceStatus = InvoiceStatus.NOT_INVOICED
    payment: dict[str, str] = field(default_factory=dict)  # what the payer needs (QR code, ...)
    last_failure: PaymentFailure | None = None  # why the latest failed attempt failed
    failure_count: int = 0  # failed attempts so far: a client tells a new failure from one it has shown

    @property
    def device_ids(self) -> list[int]:
        return [line.device_id for line in self.lines]


@dataclass(frozen=True)
class Agreement:
    """An automatic renewal: the device's level is charged again at `next_execution_at`."""

    device_id: int
    level_id: int
    level_name: str
    level_year_id: int
    pay_type: int
    total_fee_cents: int
    next_execution_at: datetime
