"""The providers' notifications about calibration applications. Each provider notifies one URL
(gateways.notify_url) for orders and applications alike; an application number (CAL...) or its
refund code (the number and R) is calibration's, everything else goes on to ordering's handler.

A calibration notification is read with the provider's gateway (its signature checked: a forged
one is ordering's to refuse and record), then settles the application (SettlePayment, which checks
the amount and currency and settles once) or finishes its refund (RecordRefundOutcome). Every one
is recorded with its verdict beside ordering's (the payment notification records), and answered
as the provider expects: accepted when it changed the application or had nothing more to change
(a repeated one), refused otherwise so the provider sends it again."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Protocol

from core.calibration.errors import NotPayable, PaymentDiffers
from core.calibration.model import normalized_number
from core.ordering.payments import (
    Acknowledgement,
    InvalidNotification,
    Notification,
    NotificationRecord,
    PaymentGateways,
    Provider,
    RefundNotification,
    RefundOutcome,
)
from core.ordering.ports import OrderingUnitOfWork
from core.shared.clock import Clock
from core.shared.edition import PayType
from core.shared.errors import NotFound

log = logging.getLogger("coldchain.calibration")
MAX_RECORDED_BODY = 64 * 1024
REFUND_SUFFIX = "R"  # core.calibration.use_cases: an application's refund code is its number and R
# Verdicts as ordering's records spell them (core.ordering.payment_flows.Verdict, refund_outcomes.RefundVerdict).
ACCEPTED = frozenset({"settled", "alreadySettled", "notPaid", "refundSucceeded", "refundFailed", "refundPending",
                      "refundFinished"})


class Settle(Protocol):
    def __call__(self, number: str, amount_cents: int, currency: str | None, pay_type: PayType,
                 reference: str | None) -> bool: ...


class RecordRefund(Protocol):
    def __call__(self, number: str, succeeded: bool, amount_cents: int | None = None,
                 currency: str | None = None) -> bool: ...


NotificationHandler = Callable[[Provider, Mapping[str, str], bytes, int], Acknowledgement]


def application_number(code: str | None, refund: bool = False) -> str | None:
    """The application a notification's order code (or refund code) names; None for an order's."""
    if not code or (refund and not code.endswith(REFUND_SUFFIX)):
        return None
    return normalized_number(code[:-1] if refund else code)


def _ours(note: object) -> str | None:
    if isinstance(note, Notification):
        return application_number(note.order_code)
    if isinstance(note, RefundNotification):
        return application_number(note.refund_code, refund=True)
    return None


class RoutedNotifications:
    """ordering's HandlePaymentNotification, with calibration's notifications taken out first."""

    def __init__(self, orders: NotificationHandler, uow: OrderingUnitOfWork, gateways: PaymentGateways,
                 settle: Settle, record_refund: RecordRefund, clock: Clock) -> None:
        self._orders, self._uow, self._gateways = orders, uow, gateways
        self._settle, self._record_refund, self._clock = settle, record_refund, clock

    def __call__(self, provider: Provider, headers: Mapping[str, str], body: bytes, camp: int = 0) -> Acknowledgement:
        # Applications are paid to the console's own merchant accounts (camp 0) only.
        gateways = self._gateways.at(camp)
        if camp == 0 and gateways.offers(provider.pay_type):
            gateway = gateways[provider.pay_type]
            try:  # an order's is read again by ordering's handler: a signature check costs little
                note = gateway.parse_notification(headers, body)
            except InvalidNotification:
                note = None  # ordering refuses it and records why
            number = _ours(note)
            if number is not None:
                verdict, amount = self._handle(provider, note, number)
                if verdict not in ACCEPTED:
                    log.warning("%s notification of calibration %s refused: %s", provider.value, number, verdict)
                with self._uow as uow:
                    uow.payment_notifications.add(NotificationRecord(
                        provider.value, self._clock.now(), verdict,
                        body[:MAX_RECORDED_BODY].decode("utf-8", "replace"), number, amount))
                    uow.commit()
                return gateway.acknowledge(verdict in ACCEPTED)
        return self._orders(provider, headers, body, camp)

    def _handle(self, provider: Provider, note: object, number: str) -> tuple[str, int | None]:
        try:
            if isinstance(note, RefundNotification):
                if note.outcome is RefundOutcome.PENDING:
                    return "refundPending", note.amount_cents
                changed = self._record_refund(number, note.outcome is RefundOutcome.SUCCEEDED, note.amount_cents,
                                              note.currency)
                if not changed:
                    return "refundFinished", note.amount_cents
                return ("refundSucceeded" if note.outcome is RefundOutcome.SUCCEEDED else "refundFailed"), \
                    note.amount_cents
            assert isinstance(note, Notification)
            if not note.paid:
                return "notPaid", note.amount_cents
            settled = self._settle(number, note.amount_cents, note.currency, provider.pay_type, note.reference)
            return ("settled" if settled else "alreadySettled"), note.amount_cents
        except NotFound:
            return "unknownOrder", None
        except NotPayable:
            return "notPayable", getattr(note, "amount_cents", None)
        except PaymentDiffers:
            return "paymentDiffers", getattr(note, "amount_cents", None)
