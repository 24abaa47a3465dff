"""Orders of service levels and of SMS and voice packages (spec seed 000 sections 3-4, seed 001
sections 3-4). An order is priced by the server when it is placed and settled once when paid."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime
from enum import IntEnum, StrEnum

from core.pricing.level_change import LevelChange, ServiceState
from core.shared.edition import PayType
from core.shared.identity import Stored
from core.shared.messages import N_

ORDER_PAID = "order_paid"  # the payer's system message (core.inbox) when an order is paid
ORDER_REFUNDED = "order_refunded"  # ... and when (part of) it is paid back
# ... and of an automatic renewal: before a charge, after it, after a failed one, when it ends
RENEWAL_DUE, RENEWAL_CHARGED = "renewal_due", "renewal_charged"
RENEWAL_FAILED, RENEWAL_ENDED = "renewal_failed", "renewal_ended"
RENEWAL_REVOKED = "renewal_revoked"  # the payer ended the authorisation at the provider


class PayStatus(IntEnum):
    UNPAID = 1
    PAID = 2
    REFUNDED = 3
    CLOSED = 4  # closed unpaid (see CloseReason): its payment was withdrawn at the provider
    PARTIALLY_REFUNDED = 5  # paid, and a part of it paid back (core.ordering.refunds)


# Paid, whatever part of it has been paid back since: what settles, sells and counts as revenue.
PAID_STATES = frozenset({PayStatus.PAID, PayStatus.PARTIALLY_REFUNDED})


class OrderMove(StrEnum):
    """What may happen to an order's state; each is one row of ORDER_TRANSITIONS."""

    PAY = "pay"  # a payment settles it
    CLOSE = "close"  # withdrawn unpaid; why is its CloseReason (superseded, cancelled, expired, ...)
    REFUND = "refund"  # paid back, all that is left of it
    PARTIAL_REFUND = "partialRefund"  # a part of it paid back, some still paid
    REFUND_REFUSED = "refundRefused"  # the provider refused the refund: paid again, nothing paid back
    PARTIAL_REFUND_REFUSED = "partialRefundRefused"  # refused, but an earlier refund stands


@dataclass(frozen=True)
class Transition:
    sources: frozenset[PayStatus]
    target: PayStatus


# How an order's state may change, and nothing else: each repository write of a state is one of
# these moves, conditional on the move's sources (the single source of them; adapters name the
# move only). CLOSED -> PAID: a genuine payment the provider took anyway (the payer paid as the
# order closed) is the customer's money and is honoured; (partially) REFUNDED -> PAID: the provider
# refused the refund, which only the REFUND_REFUSED moves do (a settlement never pays a refunded
# order again).
_REFUNDED = frozenset({PayStatus.REFUNDED, PayStatus.PARTIALLY_REFUNDED})
ORDER_TRANSITIONS: dict[OrderMove, Transition] = {
    OrderMove.PAY: Transition(frozenset({PayStatus.UNPAID, PayStatus.CLOSED}), PayStatus.PAID),
    OrderMove.CLOSE: Transition(frozenset({PayStatus.UNPAID}), PayStatus.CLOSED),
    OrderMove.REFUND: Transition(PAID_STATES, PayStatus.REFUNDED),
    OrderMove.PARTIAL_REFUND: Transition(PAID_STATES, PayStatus.PARTIALLY_REFUNDED),
    OrderMove.REFUND_REFUSED: Transition(_REFUNDED, PayStatus.PAID),
    OrderMove.PARTIAL_REFUND_REFUSED: Transition(_REFUNDED, PayStatus.PARTIALLY_REFUNDED),
}


MANUAL_HANDLING = "manualHandling"  # an order event: an operator settled it on its provider's answer
HANDLING_REASON_MAX = 200


@dataclass(frozen=True)
class OrderEvent:
    """One entry of an order's history: a move of ORDER_TRANSITIONS (recorded by the write that
    makes it) or an operator's manual handling, when, by whom (None: the provider's notification
    or a job) and why."""

    order_id: int
    at: datetime
    kind: str  # an OrderMove's value, or MANUAL_HANDLING
    status: PayStatus  # the order's state after it
    actor_account_id: int | None = None
    reason: str | None = None
    detail: dict[str, object] | None = None  # what the provider answered
    actor_name: str | None = None  # read back with the history


@dataclass(frozen=True)
class ManualHandling:
    """An operator settles an order its provider says is paid, but whose notification never came."""

    operator_id: int
    reason: str
    answer: dict[str, object]

    def event(self, order_id: int, at: datetime) -> OrderEvent:
        return OrderEvent(order_id, at, MANUAL_HANDLING, PayStatus.PAID, self.operator_id, self.reason, self.answer)


def can_move(source: PayStatus, target: PayStatus) -> bool:
    return any(source in t.sources and t.target is target for t in ORDER_TRANSITIONS.values())


class CloseReason(StrEnum):
    """Why an unpaid order was closed; recorded with it, and shown in its details."""

    SUPERSEDED = "superseded"  # a newer order for the same devices replaced it (a change in the paying drawer)
    CANCELLED = "cancelled"  # the customer cancelled it
    EXPIRED = "expired"  # unpaid when its provider's QR code or payment page stopped working
    PAYMENT_MISMATCH = "paymentMismatch"  # the provider took another amount or currency: support settles it


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


_AGREEMENT_PREFIX = "AR"


def agreement_code(order_code: str) -> str:
    """Ours for an automatic renewal's authorisation (core.ordering.renewals), as the provider knows it."""
    return f"{_AGREEMENT_PREFIX}{order_code}"


def agreement_order_code(code: str) -> str | None:
    """The code of the order whose payment asked for the authorisation `code` (agreement_code's
    inverse), for a provider's word on it; None when `code` is not one of ours."""
    order_code = code.removeprefix(_AGREEMENT_PREFIX)
    return order_code if order_code and order_code != code else None


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
    device_name: str | None = None  # as it was named when the order was placed
    promise: LevelChange | None = None  # a service line's result, as quoted when the order was placed
    settled_expires_at: datetime | None = None  # what the device got when the order was paid
    recomputed: bool = False  # the device had changed since the quote: its result was computed anew

    def promise_holds(self, service: ServiceState) -> bool:
        """The device is as it was quoted (same level, same expiry), so it gets what was promised."""
        return self.promise is not None and self.promise.before == service


@dataclass(frozen=True)
class Order(Stored):
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
    expires_at: datetime | None = None  # when its payment stops working at the provider
    close_reason: CloseReason | None = None
    last_failure: PaymentFailure | None = None  # why the latest failed attempt failed
    failure_count: int = 0  # failed attempts so far: a client tells a new failure from one it has shown
    coupon_code: str | None = None  # the coupon it carries (core.vouchers): reserved while unpaid, spent when paid
    coupon_discount_cents: int = 0  # what the coupon took off; order_fee_cents is what is charged
    refunded_cents: int = 0  # paid back so far, or being paid back (core.ordering.refunds)
    auto_renew: bool = False  # the payer asked to renew automatically (core.ordering.renewals)
    camp: int = 0  # the white-label platform's camp it was placed through: paid to its merchant accounts

    @property
    def device_ids(self) -> list[int]:
        return [line.device_id for line in self.lines]

    @property
    def charged_cents(self) -> int:
        """What the payer paid: the provider's figure once paid."""
        return self.pay_fee_cents if self.pay_fee_cents is not None else self.order_fee_cents


class AgreementStatus(IntEnum):
    CANCELLED = 0  # by the customer (unAgreement), with the provider too
    ACTIVE = 1
    ENDED = 2  # after its last failed charge


@dataclass(frozen=True)
class Agreement(Stored):
    """An automatic renewal (core.ordering.renewals): the device's level and service time, charged
    again through the provider's own recurring mechanism at `next_execution_at`."""

    device_id: int
    level_id: int
    level_name: str
    level_year_id: int
    pay_type: int
    total_fee_cents: int
    currency: str  # of total_fee_cents
    next_execution_at: datetime
    id: int | None = None
    account_id: int | None = None
    code: str | None = None  # ours, as the provider knows the authorisation (its contract or agreement code)
    mandate: str | None = None  # the provider's reference of the payer's authorisation of later charges
    status: AgreementStatus = AgreementStatus.ACTIVE
    failures: int = 0  # failed charges in a row
    last_error: str | None = None
    charging_order_id: int | None = None  # the renewal order being charged (reused when a run is resumed)
    reminded_for: datetime | None = None  # the charge the customer was told of in advance
    camp: int = 0  # its first order's: the merchant account that holds the authorisation


@dataclass(frozen=True)
class OrderFilter:
    """What the back office's order list is narrowed to (issue 19); None: any. Texts match a part,
    in any case; instants are [from, until)."""

    order_code: str | None = None
    account: str | None = None  # the payer's user name, phone or e-mail
    device: str | None = None  # a device's name (as ordered or now) or GUID
    pay_type: PayType | None = None
    status: PayStatus | None = None
    invoice_status: InvoiceStatus | None = None
    created_from: datetime | None = None
    created_until: datetime | None = None
    paid_from: datetime | None = None
    paid_until: datetime | None = None


@dataclass(frozen=True)
class Payer:
    account_id: int
    user_name: str
    phone: str | None
    email: str | None


@dataclass(frozen=True)
class DeskOrder:
    """An order as the back office lists it: with who placed it."""

    order: Order
    payer: Payer


# How the back office names states and pay types (its lists, exports), translated at the edge.
PAY_STATUS_NAMES = {PayStatus.UNPAID: N_("Unpaid"), PayStatus.PAID: N_("Paid"), PayStatus.REFUNDED: N_("Refunded"),
                    PayStatus.CLOSED: N_("Closed"), PayStatus.PARTIALLY_REFUNDED: N_("Partially refunded")}
INVOICE_STATUS_NAMES = {InvoiceStatus.NOT_INVOICED: N_("Not invoiced"), InvoiceStatus.INVOICED: N_("Invoiced")}
PAY_TYPE_NAMES = {PayType.WECHAT: N_("WeChat Pay"), PayType.ALIPAY: N_("Alipay"), PayType.PAYPAL: N_("PayPal"),
                  PayType.GOOGLE_PAY: N_("Google Pay"), PayType.CARD_PAYMENT_REQUEST: N_("Card"),
                  PayType.RECHARGE_CARD: N_("Recharge card"), PayType.OFFLINE: N_("Offline (contract)"),
                  PayType.BANK_TRANSFER: N_("Bank transfer")}
