"""What happens between an order and its provider after the payer has the QR code: notifications,
the payer's return from PayPal, reconciliation of lost notifications, closing and refunds."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from core.ordering.model import CloseReason, Order, PaymentFailure, PayStatus, agreement_order_code
from core.ordering.payments import (
    PAYMENT_VALIDITY,
    Acknowledgement,
    InvalidNotification,
    MandateEnded,
    Notification,
    NotificationRecord,
    PaymentGateway,
    PaymentGateways,
    PaymentRequest,
    PaymentResult,
    Provider,
    RefundNotification,
    provider_of,
)
from core.ordering.ports import OrderingUnitOfWork
from core.ordering.refund_outcomes import HandleRefundNotification
from core.ordering.renewals import EndRevokedAgreement
from core.ordering.unpaid_orders import close_with_provider, current_order, payable_until
from core.ordering.use_cases import SettlementOutcome, SettleOrder, payment_request
from core.shared.clock import Clock
from core.shared.edition import PAYMENT_PAY_TYPES
from core.shared.errors import NotFound, PaymentFailed

log = logging.getLogger("coldchain.payments")

# An unpaid order is asked about after RECONCILE_AFTER (its notification may be lost) and closed
# once its payment has expired at the provider (payments.PAYMENT_VALIDITY: the QR codes of WeChat
# Pay and Alipay stop working after ORDER_EXPIRES).
RECONCILE_AFTER = timedelta(minutes=3)
ORDER_EXPIRES = PAYMENT_VALIDITY[Provider.WECHAT]
# A payment the provider took in another amount or currency cannot settle the order, however often
# it is asked about: the order is closed for support to sort out, and recorded once.
_FINAL = {SettlementOutcome.CURRENCY_MISMATCH, SettlementOutcome.AMOUNT_MISMATCH}
RECONCILE_BATCH = 200
MAX_RECORDED_BODY = 64 * 1024


class Verdict(StrEnum):
    SETTLED = "settled"
    ALREADY_SETTLED = "alreadySettled"
    # Paid, then refunded: the provider is telling again of the payment it made; nothing to do.
    ALREADY_REFUNDED = "alreadyRefunded"
    NOT_PAID = "notPaid"  # the provider says the payment failed: nothing to do
    PROVIDER_OFF = "providerOff"  # the provider is switched off: nothing it says is read
    BAD_SIGNATURE = "badSignature"
    UNKNOWN_ORDER = "unknownOrder"
    CURRENCY_MISMATCH = "currencyMismatch"
    AMOUNT_MISMATCH = "amountMismatch"
    SETTLED_CLOSED = "settledClosed"  # paid as it closed: settled, the customer keeps what was paid for
    NOT_PAYABLE = "notPayable"
    WRONG_PROVIDER = "wrongProvider"
    WRONG_MERCHANT = "wrongMerchant"
    # An authorisation of automatic renewals ended at the provider: its agreement ended now, or
    # there was none active under it (ended already by us, or not ours); either way acknowledged.
    MANDATE_ENDED = "mandateEnded"
    MANDATE_GONE = "mandateGone"

    @property
    def accepted(self) -> bool:
        """Accepted notifications stop the provider's retries; refused ones are retried by it
        (and then answered by reconciliation)."""
        return self in (Verdict.SETTLED, Verdict.SETTLED_CLOSED, Verdict.ALREADY_SETTLED, Verdict.ALREADY_REFUNDED,
                        Verdict.NOT_PAID, Verdict.MANDATE_ENDED, Verdict.MANDATE_GONE)


_OUTCOMES = {outcome: Verdict(outcome.value) for outcome in SettlementOutcome}


class HandlePaymentNotification:
    """A provider's notification: checked, recorded for audit whatever its verdict, and settled
    at most once. A switched-off provider, a bad signature, an unknown order, a wrong amount or
    currency or another provider's order changes nothing and gets the provider's failure answer;
    one about an order refunded since is acknowledged, so the provider stops sending it."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, settle: SettleOrder, clock: Clock,
                 refund_outcome: HandleRefundNotification | None = None,
                 revoked: EndRevokedAgreement | None = None) -> None:
        self._uow, self._gateways, self._settle, self._clock = uow, gateways, settle, clock
        self._refund_outcome = refund_outcome or HandleRefundNotification(uow, clock)
        self._revoked = revoked or EndRevokedAgreement(uow, clock)

    def __call__(self, provider: Provider, headers: Mapping[str, str], body: bytes, camp: int = 0) -> Acknowledgement:
        """`camp`: whose merchant account the notification was sent to (its path says): checked
        with that account's keys, and about that camp's orders only."""
        gateways = self._gateways.at(camp)
        gateway = gateways[provider.pay_type]
        order_code = amount = None
        if not gateways.offers(provider.pay_type):
            # Never parsed: a provider without its credentials cannot tell a forgery (an empty
            # WeChat Pay key signs with no secret at all).
            log.warning("%s notification refused: the provider is switched off", provider.value)
            verdict = Verdict.PROVIDER_OFF
        else:
            try:
                note = gateway.parse_notification(headers, body)
            except InvalidNotification as error:
                log.warning("%s notification refused: %s", provider.value, error)
                verdict = Verdict.BAD_SIGNATURE
            else:
                if isinstance(note, RefundNotification):  # a refund's outcome: refund_outcomes records it
                    return gateway.acknowledge(self._refund_outcome(provider, note, body, camp).accepted)
                if isinstance(note, MandateEnded):
                    order_code = agreement_order_code(note.code)  # its record goes with the order that asked
                    verdict = Verdict.MANDATE_ENDED if self._revoked(provider, note, camp) else Verdict.MANDATE_GONE
                else:
                    order_code, amount = note.order_code, note.amount_cents
                    verdict = self._verdict(provider, note, camp)
                if not verdict.accepted:
                    log.warning("%s notification of order %s refused: %s", provider.value, order_code, verdict.value)
        with self._uow as uow:
            uow.payment_notifications.add(NotificationRecord(
                provider.value, self._clock.now(), verdict.value, body[:MAX_RECORDED_BODY].decode("utf-8", "replace"),
                order_code, amount))
            if verdict is Verdict.NOT_PAID and isinstance(note, Notification) and note.failure is not None:
                # The payer's attempt was refused (a card declined on the wallet sheet): the paying
                # drawer, which polls the order, says so instead of waiting.
                order = uow.orders.by_code(note.order_code)  # known: the verdict found it
                if order is not None:
                    uow.orders.record_failure(order.stored_id, note.failure, note.attempt)
            uow.commit()
        return gateway.acknowledge(verdict.accepted)

    def _verdict(self, provider: Provider, note: Notification, camp: int) -> Verdict:
        with self._uow as uow:
            order = uow.orders.by_code(note.order_code)
        if order is None:
            return Verdict.UNKNOWN_ORDER
        if order.pay_type not in PAYMENT_PAY_TYPES or provider_of(order.pay_type) is not provider:
            return Verdict.WRONG_PROVIDER
        if order.camp != camp:  # signed by another platform's merchant key: it says nothing of this order
            return Verdict.WRONG_MERCHANT
        if not note.paid:
            return Verdict.NOT_PAID
        return _OUTCOMES[self._settle(note.order_code, note.amount_cents, note.currency, note.reference)]


class CompleteProviderReturn:
    """The payer is back from the provider's page (PayPal's return URL, with its order id): the
    payment is captured and the order settled on the provider's answer."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, settle: SettleOrder) -> None:
        self._uow, self._gateways, self._settle = uow, gateways, settle

    def __call__(self, reference: str) -> Order:
        with self._uow as uow:
            order = uow.orders.by_reference(reference)
        if order is None:
            raise NotFound()
        if order.status is PayStatus.UNPAID:
            try:
                result = self._gateways.at(order.camp)[order.pay_type].confirm(payment_request(order), reference)
            except Exception as error:  # the provider did not answer: reconciliation captures later
                raise PaymentFailed() from error
            if not result.paid:
                if result.failure is not None:  # the provider refused it: the paying drawer says so
                    record_failure(self._uow, order, result.failure, result.attempt or reference)
                raise PaymentFailed()
            outcome = self._settle(order.code, result.amount_cents, result.currency, result.reference)
            if not outcome.paid:
                log.warning("PayPal capture of order %s not settled: %s", order.code, outcome.value)
                raise PaymentFailed()
        with self._uow as uow:
            return current_order(uow, order.stored_id)


class RecordPayerCancellation:
    """The payer left the provider's page without paying (PayPal's cancel URL, with its order
    id): nothing was charged, the order stays unpaid and says it was cancelled."""

    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, reference: str) -> None:
        with self._uow as uow:
            order = uow.orders.by_reference(reference)
        if order is not None and order.status is PayStatus.UNPAID:
            record_failure(self._uow, order, PaymentFailure.CANCELLED, reference)


def record_failure(uow: OrderingUnitOfWork, order: Order, failure: PaymentFailure, attempt: str | None) -> None:
    with uow:
        uow.orders.record_failure(order.stored_id, failure, attempt)
        uow.commit()


@dataclass(frozen=True)
class Reconciliation:
    settled: int = 0
    closed: int = 0
    unpaid: int = 0
    failed: int = 0


def ask_provider(gateway: PaymentGateway, request: PaymentRequest) -> PaymentResult:
    """How the provider says a payment stands; one the payer approved and never came back from
    (PayPal) is captured now. Raises what the provider's client raises when it does not answer."""
    result = gateway.query(request)
    if not result.paid and result.approved and request.reference is not None:
        result = gateway.confirm(request, request.reference)
    return result


class ReconcilePayments:
    """So that a lost notification loses no money: orders unpaid for a few minutes are looked up
    at their provider and settled when it says they are paid; orders unpaid past their expiry are
    closed at the provider and here. One the provider says was paid in another amount or currency
    is recorded and closed once (for support to settle with the payer), not asked about again."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, settle: SettleOrder, clock: Clock) -> None:
        self._uow, self._gateways, self._settle, self._clock = uow, gateways, settle, clock

    def __call__(self) -> Reconciliation:
        now = self._clock.now()
        with self._uow as uow:
            orders = uow.orders.unpaid_created_before(now - RECONCILE_AFTER, RECONCILE_BATCH)
        settled = closed = unpaid = failed = 0
        for order in orders:
            gateways = self._gateways.at(order.camp)
            if not gateways.offers(order.pay_type):  # its provider cannot be asked: wait for it
                unpaid += 1
                continue
            gateway = gateways[order.pay_type]
            request = payment_request(order)
            try:
                result = ask_provider(gateway, request)
                if result.paid:
                    outcome = self._settle(order.code, result.amount_cents, result.currency, result.reference)
                    settled += outcome in (SettlementOutcome.SETTLED, SettlementOutcome.SETTLED_CLOSED)
                    if not outcome.paid:
                        log.warning("reconciling order %s: paid at the provider but %s", order.code, outcome.value)
                        failed += 1
                        if outcome in _FINAL:
                            self._give_up(order, result, Verdict(outcome.value), now)
                elif payable_until(order) <= now:
                    if close_with_provider(self._uow, gateway, order, CloseReason.EXPIRED, now):
                        closed += 1
                    else:
                        failed += 1
                else:
                    unpaid += 1
            except Exception:  # one provider's outage must not stop the others' orders
                log.exception("reconciling order %s failed", order.code)
                failed += 1
        return Reconciliation(settled, closed, unpaid, failed)

    def _give_up(self, order: Order, result: PaymentResult, verdict: Verdict, now: datetime) -> None:
        """Records the provider's answer, as a notification would be, and closes the order so it
        is asked about no more (nothing to withdraw at the provider: it was paid there)."""
        answer = {"source": "reconciliation", "paid": result.paid, "amount": result.amount_cents,
                  "currency": result.currency, "reference": result.reference}
        with self._uow as uow:
            uow.payment_notifications.add(NotificationRecord(
                provider_of(order.pay_type).value, now, verdict.value, json.dumps(answer), order.code,
                result.amount_cents))
            if uow.orders.mark_closed(order.stored_id, now, CloseReason.PAYMENT_MISMATCH):
                uow.coupons.release(order.stored_id)
            uow.commit()


