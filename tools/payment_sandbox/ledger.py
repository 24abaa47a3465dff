"""The payments a sandbox knows, in memory, shared by its providers and its payer page."""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field, replace
from enum import StrEnum


class Status(StrEnum):
    PENDING = "pending"
    PAID = "paid"
    FAILED = "failed"
    CLOSED = "closed"
    REFUNDED = "refunded"


@dataclass(frozen=True)
class SandboxPayment:
    id: str  # the provider's id of the payment (prepay id, trade no, pi_..., PayPal order id)
    provider: str
    order_code: str  # the merchant's order number (out_trade_no, invoice_id, metadata)
    amount_cents: int
    currency: str
    description: str = ""
    notify_url: str | None = None
    return_url: str | None = None
    cancel_url: str | None = None
    status: Status = Status.PENDING
    refunded_cents: int = 0
    refunds: tuple[str, ...] = ()  # the merchant's refund numbers already paid back
    extra: dict = field(default_factory=dict)


def new_id(prefix: str, size: int = 24) -> str:
    return prefix + secrets.token_hex(size // 2)


class Ledger:
    """Thread-safe: the sandbox serves several requests at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._payments: dict[str, SandboxPayment] = {}

    def add(self, payment: SandboxPayment) -> SandboxPayment:
        with self._lock:
            self._payments[payment.id] = payment
        return payment

    def get(self, payment_id: str) -> SandboxPayment | None:
        with self._lock:
            return self._payments.get(payment_id)

    def existing(self, payment_id: str) -> SandboxPayment:
        """A payment known to exist (KeyError otherwise)."""
        with self._lock:
            return self._payments[payment_id]

    def of_order(self, provider: str, order_code: str) -> list[SandboxPayment]:
        """The payments of the merchant's order with this provider, oldest first."""
        with self._lock:
            return [p for p in self._payments.values() if p.provider == provider and p.order_code == order_code]

    def all(self, provider: str) -> list[SandboxPayment]:
        """The provider's payments, oldest first."""
        with self._lock:
            return [p for p in self._payments.values() if p.provider == provider]

    def by_order(self, provider: str, order_code: str) -> SandboxPayment | None:
        """The newest payment of the merchant's order with this provider."""
        found = self.of_order(provider, order_code)
        return found[-1] if found else None

    def update(self, payment_id: str, **changes) -> SandboxPayment:
        with self._lock:
            payment = replace(self._payments[payment_id], **changes)
            self._payments[payment_id] = payment
            return payment

    def transition(self, payment_id: str, from_status: Status, **changes) -> SandboxPayment | None:
        """Apply the changes only if the payment is still in `from_status` (None otherwise)."""
        with self._lock:
            payment = self._payments.get(payment_id)
            if payment is None or payment.status is not from_status:
                return None
            payment = replace(payment, **changes)
            self._payments[payment_id] = payment
            return payment
