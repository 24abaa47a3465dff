"""Refunds (issue 19): an operator pays back all or part of a paid order through the provider it
was paid with, with a reason; the service it gave is taken back in proportion (core.ordering.
take_back), shown before confirming. A refund above the approval amount waits for a second
operator (maker-checker); it reserves its amount meanwhile, so two refunds never pay back more than
was paid.

Money and service move together and once: one transaction locks the order, reserves the amount,
takes the service back and moves the order's state (partially refunded or refunded); only then is
the provider asked, under a refund code of ours that makes a retry the same refund to it. A refusal
gives everything back in one transaction; a refund left in flight (the process stopped while the
provider was asked) is asked again by ResumeRefunds with the same code, so it is paid at most once.
A refund the provider only accepted stays processing until its outcome arrives: how that finishes
it once is core.ordering.refund_outcomes.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from core.ordering.model import (
    HANDLING_REASON_MAX,
    PAID_STATES,
    Order,
    OrderEvent,
    OrderMove,
)
from core.ordering.payments import PaymentGateways, RefundOutcome, RefundRequest, RefundResult
from core.ordering.ports import OrderingUnitOfWork
from core.ordering.refund_model import Refund, RefundStatus
from core.ordering.refund_outcomes import finish
from core.ordering.take_back import TakeBack, share, take_back
from core.shared.clock import Clock
from core.shared.edition import PAYMENT_PAY_TYPES, PayType
from core.shared.errors import InvalidInput, NotFound, OrderNotRefundable, RuleViolation
from core.shared.messages import N_
from core.shared.money import display_amount

log = logging.getLogger("coldchain.payments")

REFUND_REQUESTED = "refundRequested"  # order events beside the moves of ORDER_TRANSITIONS
REFUND_REJECTED = "refundRejected"
RESUME_AFTER = timedelta(minutes=5)  # a refund still in flight this long after it started is asked again


@dataclass(frozen=True)
class RefundPolicy:
    """Refunds of more than `approval_above_cents` (in the order's currency) need a second operator."""

    approval_above_cents: int

    def needs_approval(self, amount_cents: int) -> bool:
        return amount_cents > self.approval_above_cents


class SameOperator(RuleViolation):
    """Maker-checker: the operator who asked for a refund cannot approve it."""

    code = 1134
    message = N_("A refund must be approved by another operator than the one who asked for it")


class RefundTooLarge(RuleViolation):
    code = 1135
    message = N_("At most {left} can be refunded on this order")


class RefundNotPending(RuleViolation):
    code = 1136
    message = N_("This refund has already been decided")


class RefundRefused(RuleViolation):
    """The provider refused the refund: the money and the service were given back."""

    code = 1137
    message = N_("The payment provider refused the refund of order {orderCode}: nothing was changed")


REFUND_ERRORS = (SameOperator, RefundTooLarge, RefundNotPending, RefundRefused)


@dataclass(frozen=True)
class RefundQuote:
    """What a refund of `amount_cents` would do, as the operator confirms it."""

    order: Order
    amount_cents: int
    left_cents: int  # what may still be refunded (paid, less refunded and awaiting approval)
    needs_approval: bool
    take_backs: tuple[TakeBack, ...]


def refundable(order: Order) -> bool:
    """Money was paid through a provider and some of it is still paid."""
    return order.status in PAID_STATES and order.pay_type is not PayType.RECHARGE_CARD and order.charged_cents > 0


def _checked_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise InvalidInput("reason", N_("Say why the order is refunded"))
    if len(reason) > HANDLING_REASON_MAX:
        raise InvalidInput("reason", N_("At most {max} characters"), max=HANDLING_REASON_MAX)
    return reason


def _left(uow: OrderingUnitOfWork, order: Order) -> int:
    return order.charged_cents - order.refunded_cents - uow.refunds.awaiting_cents(order.stored_id)


def _amount(order: Order, amount: int | None, left: int) -> int:
    """The amount asked for, all that is left by default; refused beyond it."""
    amount = left if amount is None else amount
    if amount < 1 or amount > left:
        raise RefundTooLarge(left=display_amount(left, order.currency) + " " + order.currency)
    return amount


def _take_backs(uow: OrderingUnitOfWork, order: Order, amount: int, now: datetime) -> tuple[TakeBack, ...]:
    """What moving the order's refunded share by `amount` takes from each device, their rows locked."""
    holdings = uow.device_service.holdings_for_update(order.device_ids)
    before = share(order.refunded_cents, order.charged_cents)
    after = share(order.refunded_cents + amount, order.charged_cents)
    return tuple(take_back(line, holdings.get(line.device_id), before, after, now) for line in order.lines)


class PreviewRefund:
    def __init__(self, uow: OrderingUnitOfWork, policy: RefundPolicy, clock: Clock) -> None:
        self._uow, self._policy, self._clock = uow, policy, clock

    def __call__(self, order_id: int, amount: int | None) -> RefundQuote:
        with self._uow as uow:
            order = uow.orders.get(order_id)
            if order is None:
                raise NotFound()
            if not refundable(order):
                raise OrderNotRefundable()
            left = _left(uow, order)
            amount = _amount(order, amount, left)
            return RefundQuote(order, amount, left, self._policy.needs_approval(amount),
                               _take_backs(uow, order, amount, self._clock.now()))


class _Refunding:
    """What asking for, approving and resuming a refund share: the reservation with its take-back,
    the provider's answer, and giving everything back when it refuses."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, clock: Clock,
                 default_language: str = "en-US") -> None:
        self._uow, self._gateways, self._clock, self._language = uow, gateways, clock, default_language

    def _reserve(self, uow: OrderingUnitOfWork, order: Order, refund: Refund, now: datetime) -> Refund:
        """In the caller's transaction, the order locked: takes the service back and moves the order."""
        take_backs = _take_backs(uow, order, refund.amount_cents, now)
        for taken in take_backs:
            _apply(uow, taken, order.country_code)
        full = order.refunded_cents + refund.amount_cents >= order.charged_cents
        moved = uow.orders.move_refunded(order.stored_id, refund.amount_cents,
                                         OrderMove.REFUND if full else OrderMove.PARTIAL_REFUND, now,
                                         refund.decided_by or refund.requested_by)
        if not moved:
            raise OrderNotRefundable()
        uow.refunds.set_take_backs(refund.stored_id, take_backs)
        return replace(refund, take_backs=take_backs, status=RefundStatus.PROCESSING)

    def _pay_back(self, order: Order, refund: Refund, ask_status: bool = False) -> Refund:
        """Asks the provider (for the refund, or with `ask_status` how the refund it accepted
        stands) and applies its answer (refund_outcomes.finish): an acceptance stays processing,
        a refusal gives everything back."""
        request = RefundRequest(order.code, refund.code, refund.amount_cents, order.charged_cents, order.currency,
                                order.pay_type, order.settlement_reference or order.payment_reference)
        result: RefundResult
        if order.pay_type not in PAYMENT_PAY_TYPES:  # paid off-line (contract, transfer): paid back so, recorded
            result = RefundResult(succeeded=True)
        else:
            gateway = self._gateways.at(order.camp)[order.pay_type]  # the account the order was paid to
            try:
                result = gateway.refund_status(request, refund.reference) if ask_status else gateway.refund(request)
            except Exception as error:
                log.exception("refund %s of order %s failed", refund.code, order.code)
                if ask_status:  # accepted by the provider: its outcome is asked again later, never guessed
                    return refund
                # the provider did not answer the refund: nothing may stay taken on a guess
                result = RefundResult(succeeded=False, error=str(error)[:200] or type(error).__name__)
        if result.outcome is RefundOutcome.FAILED:
            log.warning("refund %s of order %s refused: %s", refund.code, order.code, result.error)
        with self._uow as uow:
            finish(uow, refund, result, self._clock.now(), self._language)
            uow.commit()
            stored = uow.refunds.get(refund.stored_id)
        assert stored is not None
        if stored.status is RefundStatus.FAILED:
            raise RefundRefused(orderCode=order.code)
        return stored


def _apply(uow: OrderingUnitOfWork, taken: TakeBack, country_code: str | None) -> None:
    if taken.changes_service and taken.level_after is not None and taken.expires_after is not None:
        uow.device_service.set_service(taken.device_id, taken.level_after, taken.expires_after)
    if taken.sms_taken or taken.voice_taken:
        uow.device_service.add_alert_counts(taken.device_id, -taken.sms_taken, -taken.voice_taken, country_code)


class RequestRefund(_Refunding):
    """An operator refunds an order: at once when its amount is within the approval amount, else
    it waits for a second operator (DecideRefund)."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, clock: Clock, policy: RefundPolicy,
                 default_language: str = "en-US") -> None:
        super().__init__(uow, gateways, clock, default_language)
        self._policy = policy

    def __call__(self, operator_id: int, order_id: int, amount: int | None, reason: str) -> Refund:
        reason = _checked_reason(reason)
        now = self._clock.now()
        with self._uow as uow:
            order = uow.orders.lock(order_id)
            if order is None:
                raise NotFound()
            if not refundable(order):
                raise OrderNotRefundable()
            amount = _amount(order, amount, _left(uow, order))
            waits = self._policy.needs_approval(amount)
            refund = uow.refunds.add(Refund(
                None, order.stored_id, f"{order.code}R{uow.refunds.count(order.stored_id) + 1}", amount,
                order.currency, reason, RefundStatus.AWAITING_APPROVAL if waits else RefundStatus.PROCESSING,
                operator_id, now))
            uow.orders.record_event(OrderEvent(order.stored_id, now, REFUND_REQUESTED, order.status, operator_id,
                                               reason, {"refundCode": refund.code, "amount": amount}))
            if not waits:
                refund = self._reserve(uow, order, refund, now)
            uow.commit()
        if waits:
            log.info("refund %s of order %s awaits approval", refund.code, order.code)
            return refund
        return self._pay_back(order, refund)


class DecideRefund(_Refunding):
    """A second operator approves (the refund is made) or rejects (nothing is taken) a refund that
    waits for approval; the one who asked for it cannot decide it."""

    def __call__(self, operator_id: int, refund_id: int, approve: bool, note: str | None) -> Refund:
        note = (note or "").strip()[:HANDLING_REASON_MAX] or None
        now = self._clock.now()
        with self._uow as uow:
            refund = uow.refunds.get(refund_id)
            if refund is None:
                raise NotFound()
            if refund.requested_by == operator_id:
                raise SameOperator()
            order = uow.orders.lock(refund.order_id)
            assert order is not None  # an order with refunds is never deleted
            target = RefundStatus.PROCESSING if approve else RefundStatus.REJECTED
            if not uow.refunds.decide(refund_id, target, operator_id, now, note):
                raise RefundNotPending()
            refund = replace(refund, status=target, decided_by=operator_id, decided_at=now, decision_note=note)
            if approve:
                if order.status not in PAID_STATES:
                    raise OrderNotRefundable()
                refund = self._reserve(uow, order, refund, now)
            else:
                uow.orders.record_event(OrderEvent(order.stored_id, now, REFUND_REJECTED, order.status, operator_id,
                                                   note, {"refundCode": refund.code}))
            uow.commit()
        return self._pay_back(order, refund) if approve else refund


class ResumeRefunds(_Refunding):
    """A job: refunds still in flight well after they started are finished as the provider says.
    One it never answered (the process stopped while it was asked) is asked again under the same
    refund code, so it pays at most once; one it accepted (its reference is known) is asked how it
    stands, in case its notification was lost. Either finishes it once, racing notifications."""

    def __call__(self) -> int:
        with self._uow as uow:
            stuck = uow.refunds.processing_before(self._clock.now() - RESUME_AFTER, 100)
        resumed = 0
        for refund in stuck:
            with self._uow as uow:
                order = uow.orders.get(refund.order_id)
            if order is None:
                continue
            with contextlib.suppress(RefundRefused):  # given back: the refund's record says so
                self._pay_back(order, refund, ask_status=refund.reference is not None)
            resumed += 1
        return resumed


@dataclass(frozen=True)
class RefundEntry:
    refund: Refund
    order: Order  # as it is now


class OrderRefunds:
    """A refund with its order as it is now; and every refund awaiting approval, oldest first."""

    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def entry(self, refund_id: int) -> RefundEntry:
        with self._uow as uow:
            refund = uow.refunds.get(refund_id)
            order = uow.orders.get(refund.order_id) if refund else None
            if refund is None or order is None:
                raise NotFound()
            return RefundEntry(refund, order)

    def awaiting(self) -> list[RefundEntry]:
        with self._uow as uow:
            refunds = uow.refunds.awaiting(200)
            orders = {r.order_id: uow.orders.get(r.order_id) for r in refunds}
            return [RefundEntry(r, order) for r in refunds if (order := orders[r.order_id]) is not None]
