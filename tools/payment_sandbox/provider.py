"""What every provider of the sandbox offers the payer page."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from flask import Blueprint

from adapters.payments.development_credentials import DevelopmentCredentials
from payment_sandbox.ledger import Ledger, SandboxPayment

log = logging.getLogger("coldchain.payment_sandbox")
NOTIFY_TIMEOUT_S = 10


@dataclass(frozen=True)
class SandboxConfig:
    public_url: str  # where payers reach this sandbox (the payer page links)
    credentials: DevelopmentCredentials  # the console's development credentials and the providers' side
    console_url: str  # the console, for the Stripe webhook endpoint


@dataclass(frozen=True)
class Delivery:
    """What the merchant answered a notification."""

    status: int
    body: str


def deliver(url: str, body: bytes, headers: dict[str, str]) -> Delivery:
    """POST a notification to the merchant, as the provider's servers would."""
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=NOTIFY_TIMEOUT_S) as response:  # noqa: S310 (configured URL)
            return Delivery(response.status, response.read().decode("utf-8", "replace"))
    except urllib.error.HTTPError as error:
        return Delivery(error.code, error.read().decode("utf-8", "replace"))
    except OSError as error:
        log.warning("notification to %s failed: %s", url, error)
        return Delivery(0, str(error))


def deliver_later(url: str, body: bytes, headers: dict[str, str]) -> threading.Thread:
    """deliver() from a thread of its own: a notification of a change the merchant asked for by
    API goes beside the answer, not before it, as the providers' servers send it."""
    thread = threading.Thread(target=deliver, args=(url, body, headers), name="sandbox-notification", daemon=True)
    thread.start()
    return thread


def json_body(data: object) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


class SandboxProvider(Protocol):
    name: str  # wechat, alipay, stripe, paypal: the payer page's path segment

    def blueprint(self) -> Blueprint:
        """The provider's API, mounted under /<name>."""
        ...

    def complete(self, payment: SandboxPayment, paid: bool, notify: bool = True) -> Delivery | None:
        """The payer pressed Pay (paid) or Fail on the payer page: change the payment's state and,
        unless `notify` is off (a lost notification), send the provider's signed notification.
        Returns the merchant's answer, None when nothing was sent."""
        ...

    def finish_refund(self, refund_no: str, succeeded: bool, notify: bool = True) -> Delivery | None:
        """The provider finishes a refund it accepted (the merchant's refund number): paid back, or
        failed (what it reserved is refundable again); then, unless `notify` is off, its refund
        notification where the provider sends one. KeyError for an unknown refund; None when
        nothing was sent (finished already, or no notification)."""
        ...

    def after_payment_url(self, payment: SandboxPayment, paid: bool) -> str | None:
        """Where the payer page sends the payer afterwards (PayPal: the merchant's return or
        cancel URL), or None to show the outcome."""
        ...


@dataclass
class SandboxContext:
    """What providers share: the ledger, and the sandbox's own public URL (for payer page links
    in QR codes and approve links)."""

    ledger: Ledger
    public_url: str
    # When set (the sandbox `coldchain serve` runs), a refund a provider accepts is paid back this
    # many seconds later, as the provider would, with its notification; unset (the tests), it waits
    # for the /refunds control to decide.
    refunds_finish_after: float | None = None
    providers: dict[str, SandboxProvider] = field(default_factory=dict)

    def payer_page(self, provider: str, payment_id: str) -> str:
        return f"{self.public_url.rstrip('/')}/pay/{provider}/{payment_id}"

    def refund_accepted(self, provider: str, refund_no: str) -> None:
        """A provider accepted a refund it finishes later: finished on its own when configured."""
        if self.refunds_finish_after is None or provider not in self.providers:
            return
        finish = self.providers[provider].finish_refund
        timer = threading.Timer(self.refunds_finish_after, _finish_quietly, (finish, refund_no))
        timer.daemon = True
        timer.start()


def _finish_quietly(finish: Callable[[str, bool], object], refund_no: str) -> None:
    with contextlib.suppress(KeyError, ValueError):  # finished meanwhile by the control, or final already
        finish(refund_no, True)
