"""The operator's order back office (issue 19, /operation/recharge): every account's orders, listed,
exported and read whole (what was bought, each device's service before and after, the provider's
references and notifications, the history), and manual handling: an order paid at its provider
whose notification never came is settled on the provider's own answer, as a notification would.
Refunds with take-back, invoices and statistics build on the same desk."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

from core.ordering.errors import PaymentDiffers, PaymentNotConfirmed, ProviderNotAnswering
from core.ordering.model import (
    HANDLING_REASON_MAX,
    DeskOrder,
    ManualHandling,
    Order,
    OrderEvent,
    OrderFilter,
    OrderLine,
    PayStatus,
)
from core.ordering.payment_flows import ask_provider
from core.ordering.payments import NotificationRecord, PaymentGateways, PaymentResult, payment_request
from core.ordering.ports import OrderingUnitOfWork
from core.ordering.refund_model import Refund
from core.ordering.refunds import refundable
from core.ordering.unpaid_orders import current_order
from core.ordering.use_cases import SettlementOutcome, SettleOrder
from core.shared.edition import PAYMENT_PAY_TYPES
from core.shared.errors import InvalidInput, NotFound, OrderNotRefundable
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest

log = logging.getLogger("coldchain.payments")
EXPORT_BATCH = 500


def handleable(order: Order) -> bool:
    """Manual handling is offered for an order a provider was to be paid through, not paid here
    (unpaid, or closed while the payer may have paid at the provider)."""
    return order.status in (PayStatus.UNPAID, PayStatus.CLOSED) and order.pay_type in PAYMENT_PAY_TYPES


class ListDeskOrders:
    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, where: OrderFilter, request: PageRequest) -> Page[DeskOrder]:
        with self._uow as uow:
            return uow.order_desk.page(where, request)


class ExportDeskOrders:
    """The whole filtered list, however long, read a batch at a time (each in its own short
    transaction) so that neither memory nor a transaction grows with it."""

    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, where: OrderFilter) -> Iterator[DeskOrder]:
        before: int | None = None
        while True:
            with self._uow as uow:
                batch = uow.order_desk.batch(where, before, EXPORT_BATCH)
            yield from batch
            if len(batch) < EXPORT_BATCH:
                return
            before = batch[-1].order.stored_id


@dataclass(frozen=True)
class LineService:
    """What one device bought, and its service before (as quoted when the order was placed) and
    after (what settlement gave it)."""

    line: OrderLine
    guid: str | None  # None: the device was deleted since
    level_name: str | None
    before_level_name: str | None
    before_expires_at: datetime | None
    after_expires_at: datetime | None


@dataclass(frozen=True)
class OrderDossier:
    entry: DeskOrder
    lines: list[LineService]
    history: list[OrderEvent]
    notifications: list[NotificationRecord]
    refunds: list[Refund]

    @property
    def handleable(self) -> bool:
        return handleable(self.entry.order)

    @property
    def refundable(self) -> bool:
        return refundable(self.entry.order)


class GetOrderDossier:
    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, order_id: int, languages: Sequence[str]) -> OrderDossier:
        with self._uow as uow:
            entry = uow.order_desk.entry(order_id)
            if entry is None:
                raise NotFound()
            order = entry.order
            level_ids = {i for line in order.lines
                         for i in (line.level_id, line.promise.before.level_id if line.promise else None) if i}
            names = uow.catalogue.level_names(sorted(level_ids), languages) if level_ids else {}
            guids = uow.order_desk.device_guids(order.device_ids)
            lines = [LineService(
                line, guids.get(line.device_id), names.get(line.level_id) if line.level_id else None,
                names.get(line.promise.before.level_id) if line.promise and line.promise.before.level_id else None,
                line.promise.before.expires_at if line.promise else None, line.settled_expires_at)
                for line in order.lines]
            return OrderDossier(entry, lines, uow.order_desk.history(order_id),
                                uow.order_desk.notifications(order.code), uow.refunds.of_order(order_id))


def _amount(cents: int, currency: str | None) -> str:
    return f"{cents / 100:.2f} {(currency or '?').upper()}"


def _answer(result: PaymentResult) -> dict[str, object]:
    """The provider's answer as the order's history keeps it."""
    return {"paid": result.paid, "amount": result.amount_cents, "currency": result.currency,
            "reference": result.reference, "error": result.error}


class HandleOrder:
    """Manual handling (spec seed 001 sections 4 and 8): an operator settles an unpaid or closed
    order its provider says is paid, in the order's amount and currency, exactly as the
    notification that never came would have (SettleOrder: once, however often it is asked),
    recording who and why in its history. Nothing is settled on the operator's word: a provider
    that says unpaid, another amount, or does not answer leaves the order as it was."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, settle: SettleOrder) -> None:
        self._uow, self._gateways, self._settle = uow, gateways, settle

    def __call__(self, operator_id: int, order_id: int, reason: str) -> Order:
        reason = reason.strip()
        if not reason:
            raise InvalidInput("reason", N_("Say why the order is handled manually"))
        if len(reason) > HANDLING_REASON_MAX:
            raise InvalidInput("reason", N_("At most {max} characters"), max=HANDLING_REASON_MAX)
        with self._uow as uow:
            order = uow.orders.get(order_id)
        if order is None:
            raise NotFound()
        if not handleable(order):
            raise OrderNotRefundable()
        gateways = self._gateways.at(order.camp)
        if not gateways.offers(order.pay_type):
            raise ProviderNotAnswering(orderCode=order.code)
        try:
            result = ask_provider(gateways[order.pay_type], payment_request(order))
        except Exception as error:  # the provider did not answer: nothing is settled blind
            log.exception("manual handling of order %s: the provider did not answer", order.code)
            raise ProviderNotAnswering(orderCode=order.code) from error
        answer = _answer(result)
        if not result.paid:
            raise PaymentNotConfirmed(order.code, answer)
        outcome = self._settle(order.code, result.amount_cents, result.currency, result.reference,
                               handling=ManualHandling(operator_id, reason, answer))
        if outcome in (SettlementOutcome.CURRENCY_MISMATCH, SettlementOutcome.AMOUNT_MISMATCH):
            raise PaymentDiffers(order.code, _amount(result.amount_cents, result.currency),
                                 _amount(order.order_fee_cents, order.currency), answer)
        if outcome not in (SettlementOutcome.SETTLED, SettlementOutcome.SETTLED_CLOSED):
            raise OrderNotRefundable()  # settled (its notification came meanwhile) or refunded
        log.info("order %s settled by manual handling of account %s", order.code, operator_id)
        with self._uow as uow:
            return current_order(uow, order_id)
