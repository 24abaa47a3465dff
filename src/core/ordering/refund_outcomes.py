"""How a refund ends (issue 19): the provider's outcome finishes a processing refund exactly once.

A refund is reserved first (core.ordering.refunds: the service taken back, the order moved), then
the provider is asked. Its answer may be final (paid back, or refused) or only an acceptance:
WeChat Pay's refund SUCCESS, Stripe's `pending`, PayPal's PENDING. An accepted refund stays
PROCESSING with the provider's reference until its outcome arrives, from a notification (at the
payment notification endpoints, HandleRefundNotification here) or from the resume job asking the
provider (ResumeRefunds). Whichever comes first finishes it by the conditional write of its
REFUND_TRANSITIONS move; the others find it finished and change nothing:

- succeeded: the customer's "order refunded" message, once;
- failed: the money and the service are given back, as for a refusal at once.

A notification for a refund we do not know, for another provider's refund, or in another amount
or currency changes nothing; every one is recorded with its verdict, as payment notifications are.
"""

from __future__ import annotations

import logging
from datetime import datetime
from enum import StrEnum

from core.inbox.model import MessageKind, SystemMessage
from core.inbox.posting import post
from core.ordering.model import ORDER_REFUNDED, Order, OrderMove
from core.ordering.payments import (
    NotificationRecord,
    Provider,
    RefundNotification,
    RefundOutcome,
    RefundResult,
    provider_of,
    same_currency,
)
from core.ordering.ports import OrderingUnitOfWork
from core.ordering.refund_model import REFUND_TRANSITIONS, Refund, RefundMove, can_move
from core.ordering.take_back import DeviceHolding, TakeBack
from core.shared.clock import Clock
from core.shared.edition import PAYMENT_PAY_TYPES
from core.shared.money import display_amount

log = logging.getLogger("coldchain.payments")

MAX_RECORDED_BODY = 64 * 1024


class RefundVerdict(StrEnum):
    """What a refund notification did, as its record says (20 characters at most: the column)."""

    REFUND_SUCCEEDED = "refundSucceeded"
    REFUND_FAILED = "refundFailed"  # given back
    REFUND_PENDING = "refundPending"  # the provider says it is still under way: nothing to do yet
    REFUND_FINISHED = "refundFinished"  # a repeated or late notification: nothing changes
    UNKNOWN_REFUND = "unknownRefund"
    WRONG_PROVIDER = "wrongProvider"
    WRONG_MERCHANT = "wrongMerchant"  # signed by another platform's merchant account than the order's
    AMOUNT_MISMATCH = "amountMismatch"
    CURRENCY_MISMATCH = "currencyMismatch"

    @property
    def accepted(self) -> bool:
        """Accepted notifications stop the provider's retries; the refused are sent again (and the
        refund, if it is ours, is finished by the resume job meanwhile)."""
        return self in (RefundVerdict.REFUND_SUCCEEDED, RefundVerdict.REFUND_FAILED, RefundVerdict.REFUND_PENDING,
                        RefundVerdict.REFUND_FINISHED)


def finish(uow: OrderingUnitOfWork, refund: Refund, result: RefundResult, now: datetime, language: str) -> bool:
    """In the caller's transaction: the provider's `result` applied to a processing refund. An
    acceptance keeps it processing with the provider's reference; an outcome finishes it. False
    when it was finished already (by another notification, the job, or a request's answer)."""
    if result.pending:
        return uow.refunds.set_reference(refund.stored_id, result.reference) if result.reference else False
    if result.succeeded:
        return succeed(uow, refund, result.reference or refund.reference, now, language)
    return give_back(uow, refund, result.error or "refused", now)


def succeed(uow: OrderingUnitOfWork, refund: Refund, reference: str | None, now: datetime, language: str) -> bool:
    """Processing -> succeeded, and the customer's message, once."""
    if not uow.refunds.finish(refund.stored_id, REFUND_TRANSITIONS[RefundMove.SUCCEED].target, now,
                              reference=reference):
        return False
    order = uow.orders.get(refund.order_id)
    assert order is not None  # an order with refunds is never deleted
    post(uow, SystemMessage(order.account_id, MessageKind.PAYMENT, ORDER_REFUNDED,
                            {"orderCode": order.code, "amount": display_amount(refund.amount_cents, order.currency),
                             "currency": order.currency}, now), language)
    return True


def give_back(uow: OrderingUnitOfWork, refund: Refund, error: str, now: datetime) -> bool:
    """Processing -> failed: the order locked, what the refund took is given back and the order
    moves back. False (nothing given back twice) when it was finished already."""
    order = uow.orders.lock(refund.order_id)
    if order is None or not uow.refunds.finish(refund.stored_id, REFUND_TRANSITIONS[RefundMove.FAIL].target, now,
                                               reference=refund.reference, error=error[:200]):
        return False
    holdings = uow.device_service.holdings_for_update([t.device_id for t in refund.take_backs])
    for taken in refund.take_backs:
        if taken.device_id in holdings:
            _restore(uow, taken, holdings[taken.device_id])
    still = order.refunded_cents - refund.amount_cents
    uow.orders.move_refunded(order.stored_id, -refund.amount_cents,
                             OrderMove.PARTIAL_REFUND_REFUSED if still > 0 else OrderMove.REFUND_REFUSED, now)
    return True


def _restore(uow: OrderingUnitOfWork, taken: TakeBack, now: DeviceHolding) -> None:
    """Gives back what a refund took: the time taken is added to the expiry of now (so what happened
    to the device since stands), and the level before, if the refund changed it and it is still so."""
    if taken.changes_service and taken.expires_before is not None and taken.expires_after is not None \
            and now.expires_at is not None and now.level_id is not None:
        level = taken.level_before if taken.restored and now.level_id == taken.level_after else now.level_id
        uow.device_service.set_service(taken.device_id, level or now.level_id,
                                       now.expires_at + (taken.expires_before - taken.expires_after))
    if taken.sms_taken or taken.voice_taken:
        uow.device_service.add_alert_counts(taken.device_id, taken.sms_taken, taken.voice_taken, None)


def check(provider: Provider, note: RefundNotification, refund: Refund | None, order: Order | None,
          camp: int = 0) -> RefundVerdict:
    """The verdict on a notification before anything changes: a refund of ours, at this provider
    and the merchant account of `camp`, of this amount and currency, still processing (else
    finished already, which is fine)."""
    if refund is None or order is None:
        return RefundVerdict.UNKNOWN_REFUND
    if order.pay_type not in PAYMENT_PAY_TYPES or provider_of(order.pay_type) is not provider:
        return RefundVerdict.WRONG_PROVIDER
    if order.camp != camp:
        return RefundVerdict.WRONG_MERCHANT
    if note.reference and refund.reference and note.reference != refund.reference:
        return RefundVerdict.UNKNOWN_REFUND  # another refund of the provider's under our code: not ours
    if not same_currency(note.currency, refund.currency):
        return RefundVerdict.CURRENCY_MISMATCH
    if note.cumulative:
        fits = refund.amount_cents <= note.amount_cents <= order.charged_cents
    else:
        fits = note.amount_cents == refund.amount_cents
    if not fits:
        return RefundVerdict.AMOUNT_MISMATCH
    if not can_move(refund.status, RefundMove.SUCCEED):  # the moves out of processing share their sources
        return RefundVerdict.REFUND_FINISHED
    return {RefundOutcome.SUCCEEDED: RefundVerdict.REFUND_SUCCEEDED, RefundOutcome.FAILED: RefundVerdict.REFUND_FAILED,
            RefundOutcome.PENDING: RefundVerdict.REFUND_PENDING}[note.outcome]


class HandleRefundNotification:
    """A provider's notification of a refund's outcome (HandlePaymentNotification hands it over
    once its signature is checked): checked against the refund, applied at most once, and recorded
    with its verdict whatever that is."""

    def __init__(self, uow: OrderingUnitOfWork, clock: Clock, default_language: str = "en-US") -> None:
        self._uow, self._clock, self._language = uow, clock, default_language

    def __call__(self, provider: Provider, note: RefundNotification, body: bytes, camp: int = 0) -> RefundVerdict:
        now = self._clock.now()
        with self._uow as uow:
            refund = uow.refunds.by_code(note.refund_code)
            order = uow.orders.get(refund.order_id) if refund is not None else None
            verdict = check(provider, note, refund, order, camp)
            if verdict in (RefundVerdict.REFUND_SUCCEEDED, RefundVerdict.REFUND_FAILED, RefundVerdict.REFUND_PENDING):
                assert refund is not None
                result = RefundResult(note.outcome is RefundOutcome.SUCCEEDED, note.reference or refund.reference,
                                      note.error, pending=note.outcome is RefundOutcome.PENDING)
                if not finish(uow, refund, result, now, self._language) and not result.pending:
                    verdict = RefundVerdict.REFUND_FINISHED  # the job (or another notification) was first
            if not verdict.accepted:
                log.warning("%s notification of refund %s refused: %s", provider.value, note.refund_code,
                            verdict.value)
            uow.payment_notifications.add(NotificationRecord(
                provider.value, now, verdict.value, body[:MAX_RECORDED_BODY].decode("utf-8", "replace"),
                order.code if order is not None else note.order_code, note.amount_cents))
            uow.commit()
        return verdict
