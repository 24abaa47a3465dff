"""The payment port: how an order is put before a payment provider. The provider adapters live
in src/adapters/payments; in development a gateway of our own stands in for them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from core.ordering.model import PaymentFailure
from core.shared.edition import Edition, PayType

if TYPE_CHECKING:
    from core.ordering.model import Order


class Provider(StrEnum):
    WECHAT = "wechat"
    ALIPAY = "alipay"
    STRIPE = "stripe"
    PAYPAL = "paypal"

    @property
    def pay_type(self) -> PayType:
        """The pay type whose gateway speaks for the provider."""
        return {Provider.WECHAT: PayType.WECHAT, Provider.ALIPAY: PayType.ALIPAY,
                Provider.STRIPE: PayType.GOOGLE_PAY, Provider.PAYPAL: PayType.PAYPAL}[self]


def provider_of(pay_type: PayType) -> Provider:
    return {PayType.WECHAT: Provider.WECHAT, PayType.ALIPAY: Provider.ALIPAY, PayType.PAYPAL: Provider.PAYPAL,
            PayType.GOOGLE_PAY: Provider.STRIPE, PayType.CARD_PAYMENT_REQUEST: Provider.STRIPE}[PayType(pay_type)]


@dataclass(frozen=True)
class NotificationRecord:
    """A provider's notification as received, with the verdict on it, kept for audit."""

    provider: str
    received_at: datetime
    verdict: str
    body: str
    order_code: str | None = None
    amount_cents: int | None = None


# How long a started payment can be paid at each provider: an unpaid order expires then, and is
# closed with its provider by reconciliation. Paying it again from My orders shows the same code
# until then.
PAYMENT_VALIDITY: dict[Provider, timedelta] = {
    Provider.WECHAT: timedelta(hours=2),  # a native code_url stops working after 2 hours
    Provider.ALIPAY: timedelta(hours=2),  # the precreated QR code's timeout_express (alipay.py sends it)
    Provider.STRIPE: timedelta(hours=2),  # an intent has no expiry of its own: as long as the QR codes
    Provider.PAYPAL: timedelta(hours=3),  # PayPal lets a payer approve a created order for 3 hours
}


def payment_validity(pay_type: PayType) -> timedelta:
    return PAYMENT_VALIDITY[provider_of(pay_type)]


def providers_of(pay_types: Iterable[PayType]) -> tuple[Provider, ...]:
    """The providers behind the pay types, each once, in their order."""
    return tuple(dict.fromkeys(provider_of(p) for p in pay_types))


def same_currency(reported: str | None, expected: str) -> bool:
    """Providers write currencies in either case (Stripe: usd); one that says none is not trusted."""
    if not reported:
        return False
    return reported.upper() == expected.upper()


@dataclass(frozen=True)
class PaymentRequest:
    order_id: int
    order_code: str
    amount_cents: int
    currency: str
    description: str
    pay_type: PayType
    created_at: datetime
    reference: str | None = None  # the provider's id of the payment, once it has started
    # The service time a one-device order pays for (0: none): the period of the authorisation of
    # automatic renewals asked with it, for a provider whose authorisation names it (Alipay).
    months: int = 0


def payment_request(order: Order) -> PaymentRequest:
    months = order.lines[0].months if len(order.lines) == 1 else 0
    return PaymentRequest(order.stored_id, order.code, order.order_fee_cents, order.currency, order.description,
                          order.pay_type, order.created_at, order.payment_reference, months)


@dataclass(frozen=True)
class PaymentStart:
    """What the payer needs: a QR code to scan (WeChat, Alipay), a client secret for the wallet
    (Stripe) or a page to approve on (PayPal)."""

    pay_qr_code: str | None = None
    client_secret: str | None = None
    approve_url: str | None = None
    reference: str | None = None  # the provider's id of the payment

    def payer_fields(self) -> dict[str, str]:
        """What the order keeps of it (and the API shows), under the API's names."""
        fields = {"payQrCode": self.pay_qr_code, "clientSecret": self.client_secret, "approveUrl": self.approve_url}
        return {k: v for k, v in fields.items() if v}

    @classmethod
    def of_fields(cls, fields: Mapping[str, str], reference: str | None) -> PaymentStart:
        return cls(fields.get("payQrCode"), fields.get("clientSecret"), fields.get("approveUrl"), reference)


@dataclass(frozen=True)
class PaymentResult:
    """The provider's verdict on a payment: paid or not, and how much it took, in which currency."""

    paid: bool
    amount_cents: int = 0
    reference: str | None = None
    error: str | None = None
    approved: bool = False  # not paid yet, but the payer approved: confirm() captures it (PayPal)
    currency: str | None = None  # of amount_cents, as the provider wrote it
    failure: PaymentFailure | None = None  # the provider refused the payer's attempt, for this reason
    attempt: str | None = None  # the provider's id of that attempt (Stripe: the declined charge)
    # Not paid yet, not refused either: the provider has accepted the charge and has yet to take it
    # (a WeChat Pay deduction in ACCEPT); asked again later, it answers the same charge's outcome.
    pending: bool = False


@dataclass(frozen=True)
class Notification:
    """A provider's notification, its signature checked: the order it is about and whether, and
    how much and in which currency, the payer paid."""

    order_code: str
    paid: bool
    amount_cents: int
    reference: str | None = None
    currency: str | None = None  # of amount_cents, as the provider wrote it; None settles nothing
    failure: PaymentFailure | None = None  # unpaid because the provider refused an attempt of the payer's
    attempt: str | None = None  # the provider's id of that attempt, so it is counted once


def payable_after_failure(pay_type: PayType) -> bool:
    """Whether the payment a failed attempt leaves can be tried again as it is (Stripe keeps an
    intent payable after a decline), or the payer needs a new order (PayPal voids its order when
    the payer cancels, and an order it refused is not approved again)."""
    return provider_of(pay_type) is not Provider.PAYPAL


@dataclass(frozen=True)
class MandateEnded:
    """The provider tells that a payer's authorisation of later charges has ended (the payer ended it
    in their wallet, or the merchant did): nothing may be charged under it any more."""

    code: str  # ours, as the provider knows the authorisation (core.ordering.model.agreement_code)
    mandate: str | None = None  # the provider's reference of it


class InvalidNotification(Exception):
    """A notification whose signature, format or origin cannot be trusted: it changes nothing."""


@dataclass(frozen=True)
class Acknowledgement:
    """What the provider expects back from a notification endpoint."""

    status: int
    body: bytes
    content_type: str


@dataclass(frozen=True)
class RefundRequest:
    order_code: str
    refund_code: str  # ours, unique per refund, so a retried refund is not paid twice
    amount_cents: int
    total_cents: int  # what the order charged
    currency: str
    pay_type: PayType
    reference: str | None  # the provider's id of the payment


class RefundOutcome(StrEnum):
    SUCCEEDED = "succeeded"  # paid back
    FAILED = "failed"  # refused, or given up by the provider: nothing was paid back
    PENDING = "pending"  # accepted, not finished: the outcome comes later


@dataclass(frozen=True)
class RefundResult:
    """The provider's answer to a refund, or to a question about one (refund_status)."""

    succeeded: bool
    reference: str | None = None  # the provider's id of the refund
    error: str | None = None
    # Accepted, not finished (WeChat Pay's refund SUCCESS, Stripe's pending, PayPal's PENDING): the
    # outcome comes in a notification or from refund_status. `succeeded` is False meanwhile.
    pending: bool = False

    @property
    def outcome(self) -> RefundOutcome:
        if self.pending:
            return RefundOutcome.PENDING
        return RefundOutcome.SUCCEEDED if self.succeeded else RefundOutcome.FAILED


@dataclass(frozen=True)
class RefundNotification:
    """A provider's notification of a refund's outcome, its signature checked: which refund (our
    refund code), what became of it, and the amount and currency the provider says."""

    refund_code: str
    outcome: RefundOutcome
    amount_cents: int
    currency: str | None  # as the provider wrote it; None matches no refund
    reference: str | None = None  # the provider's id of the refund
    order_code: str | None = None
    error: str | None = None  # why it failed, in the provider's words
    # The amount is all the payment's refunds so far, not this one's (Alipay's refund_fee).
    cumulative: bool = False


class PaymentGateway(Protocol):
    """One payment provider. Amounts are cents here; each adapter converts at its edge."""

    def start(self, request: PaymentRequest) -> PaymentStart: ...

    def confirm(self, request: PaymentRequest, payment_method_id: str) -> PaymentResult:
        """Complete a payment the payer authorised: charge the payment method chosen in a wallet
        (Stripe), or capture an order the payer approved (PayPal, with its order id)."""
        ...

    def query(self, request: PaymentRequest) -> PaymentResult:
        """Ask the provider how the payment stands (reconciliation of a lost notification)."""
        ...

    def close(self, request: PaymentRequest) -> None:
        """Withdraw an unpaid payment, so it can no longer be paid."""
        ...

    def refund(self, refund: RefundRequest) -> RefundResult: ...

    def refund_status(self, refund: RefundRequest, refund_reference: str | None) -> RefundResult:
        """How a refund the provider accepted stands now (by our refund code, or the provider's
        `refund_reference`): succeeded, failed or still pending. Raises when it does not answer."""
        ...

    def parse_notification(self, headers: Mapping[str, str],
                           body: bytes) -> Notification | RefundNotification | MandateEnded:
        """The notification (of a payment, or of a refund's outcome), its signature checked;
        InvalidNotification otherwise."""
        ...

    def acknowledge(self, accepted: bool) -> Acknowledgement:
        """The answer the provider expects: accepted stops its retries, refused asks for them."""
        ...


class RecurringPayments(Protocol):
    """A provider's own mechanism for charging a payer again without them: WeChat Pay's papay
    contract, Alipay's agreement pay, a Stripe payment method saved for off-session use, a PayPal
    vault. The payer authorises it with the first payment; `code` is ours for the authorisation."""

    def start_with_mandate(self, request: PaymentRequest, code: str) -> PaymentStart:
        """Starts the order's payment asking the payer to authorise later charges as well."""
        ...

    def mandate(self, request: PaymentRequest, code: str) -> str | None:
        """After the payment: the provider's reference of the authorisation; None while (or when)
        the payer has not given it. Raises when the provider does not answer."""
        ...

    def charge(self, mandate: str, request: PaymentRequest) -> PaymentResult:
        """Charges the order's amount under the authorisation, without the payer; asked again for
        the same order it is the same charge (the provider's idempotency), never a second one."""
        ...

    def cancel(self, mandate: str, code: str) -> None:
        """Ends the authorisation at the provider; one ended already is fine."""
        ...


class PaymentGateways(Protocol):
    def __getitem__(self, pay_type: PayType) -> PaymentGateway:
        """The pay type's gateway; one that refuses everything when its provider is switched off."""
        ...

    def recurring(self, pay_type: PayType) -> RecurringPayments | None:
        """The pay type's recurring mechanism, when its provider is switched on and has one."""
        ...

    def offers(self, pay_type: PayType) -> bool:
        """Whether the pay type's provider is switched on: offered, with every credential it needs."""
        ...

    def at(self, camp: int) -> PaymentGateways:
        """The gateways of a white-label platform's camp: its own merchant accounts where it has
        them (core.platform.merchants), the console's otherwise. The bare mapping is camp 0's."""
        ...


def offered_pay_types(edition: Edition, gateways: PaymentGateways) -> tuple[PayType, ...]:
    """What payers may choose: the edition's pay types whose provider is switched on."""
    return tuple(p for p in edition.profile.pay_types if gateways.offers(p))
