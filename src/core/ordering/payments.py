"""The payment port: how an order is put before a payment provider. The provider adapters live
in src/adapters/payments; in development a gateway of our own stands in for them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from core.shared.edition import PayType


@dataclass(frozen=True)
class PaymentRequest:
    order_id: int
    order_code: str
    amount_cents: int
    currency: str
    description: str
    pay_type: PayType
    created_at: datetime


@dataclass(frozen=True)
class PaymentStart:
    """What the payer needs: a QR code to scan (WeChat, Alipay), a client secret for the wallet
    (Stripe) or a page to approve on (PayPal)."""

    pay_qr_code: str | None = None
    client_secret: str | None = None
    approve_url: str | None = None
    reference: str | None = None  # the provider's id of the payment


@dataclass(frozen=True)
class PaymentResult:
    """The provider's verdict on a payment: paid or not, and how much it took."""

    paid: bool
    amount_cents: int = 0
    reference: str | None = None
    error: str | None = None


class PaymentGateway(Protocol):
    def start(self, request: PaymentRequest) -> PaymentStart: ...

    def confirm(self, request: PaymentRequest, payment_method_id: str) -> PaymentResult:
        """Charge a payment method the payer chose in a wallet (Stripe's confirm)."""
        ...


class PaymentGateways(Protocol):
    def __getitem__(self, pay_type: PayType) -> PaymentGateway: ...
