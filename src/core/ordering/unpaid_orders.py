"""What becomes of an unpaid order: a newer order for the same devices supersedes it (the paying
drawer asks again at each change of option), its owner cancels it or pays it again from My
orders, and reconciliation closes it once its payment has expired at the provider. It is always
closed with its provider first, so its QR code or payment page takes no money any more, and only
then here; a payment the provider took all the same is still settled (SettleOrder)."""

from __future__ import annotations

import logging
from datetime import datetime

from core.devices.grants import Element, permit
from core.ordering.model import CloseReason, Order, PayStatus
from core.ordering.payments import (
    PaymentGateway,
    PaymentGateways,
    PaymentStart,
    payment_request,
    payment_validity,
)
from core.ordering.ports import OrderingUnitOfWork
from core.shared.clock import Clock
from core.shared.errors import (
    CancelFailed,
    NotFound,
    OrderExpired,
    OrderNotCancellable,
    OrderNotPayable,
    PaymentFailed,
)
from core.shared.messages import N_

log = logging.getLogger("coldchain.payments")

# The payer needs this long at least to scan and pay; an order with less left is closed and a new
# one is needed, rather than a code that dies in the payer's hand.
_PAY_WINDOW_S = 60


def payable_until(order: Order) -> datetime:
    """When the order's payment stops working at its provider (for an order placed before expiries
    were stored: its provider's validity from its placing)."""
    return order.expires_at or order.created_at + payment_validity(order.pay_type)


def close_with_provider(uow: OrderingUnitOfWork, gateway: PaymentGateway, order: Order, reason: CloseReason,
                        now: datetime) -> bool:
    """Withdraws the order's payment at its provider, then closes the order. False, the order left
    unpaid, when the provider would not (the payer is paying it right now, or it cannot be
    reached): reconciliation then settles or closes it."""
    try:
        gateway.close(payment_request(order))
    except Exception:
        log.warning("order %s not closed (%s): its provider did not withdraw the payment", order.code,
                    reason.value, exc_info=True)
        return False
    with uow:
        closed = uow.orders.mark_closed(order.stored_id, now, reason)
        if closed:
            uow.coupons.release(order.stored_id)  # its coupon, if any, may be used again
        uow.commit()
    return closed


def supersede_earlier(uow: OrderingUnitOfWork, gateways: PaymentGateways, order: Order, now: datetime) -> int:
    """Closes the account's unpaid orders of the order's kind placed before it for exactly its
    devices; how many were closed. Only earlier ones: of two orders asked for at once, the newer
    stands."""
    with uow:
        earlier = uow.orders.unpaid_for_devices(order.account_id, order.kind, order.device_ids,
                                                  order.stored_id)
    return sum(close_with_provider(uow, gateways.at(old.camp)[old.pay_type], old, CloseReason.SUPERSEDED, now)
               for old in earlier)


def current_order(uow: OrderingUnitOfWork, order_id: int) -> Order:
    """The order as it is stored now: another transaction may have paid or closed it since."""
    order = uow.orders.get(order_id)
    if order is None:
        raise NotFound()
    return order


def _own_changeable_order(uow: OrderingUnitOfWork, account_id: int, order_id: int) -> Order:
    """The caller's order (another account's is an unknown one), when the caller may still change
    every device of it that it can see (a member of an organization only reads its devices)."""
    order = uow.orders.get(order_id)
    if order is None or order.account_id != account_id:
        raise NotFound()
    for device in uow.device_registry.visible_many(account_id, list(dict.fromkeys(order.device_ids))):
        permit(device.grant, Element.RECHARGE, operate=True)
    return order


class CancelOrder:
    """The customer withdraws an unpaid order: closed with its provider, then here. Cancelling a
    closed order again changes nothing."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, clock: Clock) -> None:
        self._uow, self._gateways, self._clock = uow, gateways, clock

    def __call__(self, account_id: int, order_id: int) -> Order:
        with self._uow as uow:
            order = _own_changeable_order(uow, account_id, order_id)
        if order.status not in (PayStatus.UNPAID, PayStatus.CLOSED):
            raise OrderNotCancellable()
        if order.status is PayStatus.UNPAID and not close_with_provider(
                self._uow, self._gateways.at(order.camp)[order.pay_type], order, CloseReason.CANCELLED,
                self._clock.now()):
            raise CancelFailed()
        with self._uow as uow:
            order = current_order(uow, order_id)
        if order.status not in (PayStatus.UNPAID, PayStatus.CLOSED):  # paid while it was being cancelled
            raise OrderNotCancellable()
        return order


class ResumePayment:
    """Pay an unpaid order again (from My orders): what the payer needs, as when it was placed, while
    its payment is still valid at the provider; a payment that never started (the provider was
    unreachable then) is started now. Past its validity the order is closed with its provider and
    refused: its price may have changed since, so a new order is placed in the drawer."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, clock: Clock) -> None:
        self._uow, self._gateways, self._clock = uow, gateways, clock

    def __call__(self, account_id: int, order_id: int) -> tuple[Order, PaymentStart]:
        now = self._clock.now()
        with self._uow as uow:
            order = _own_changeable_order(uow, account_id, order_id)
        if order.status is not PayStatus.UNPAID:
            raise OrderNotPayable()
        gateway = self._gateways.at(order.camp)[order.pay_type]
        if (payable_until(order) - now).total_seconds() < _PAY_WINDOW_S:
            close_with_provider(self._uow, gateway, order, CloseReason.EXPIRED, now)
            raise OrderExpired()
        started = PaymentStart.of_fields(order.payment, order.payment_reference)
        if started.payer_fields():
            return order, started
        try:
            start = gateway.start(payment_request(order))
        except Exception as error:
            raise PaymentFailed(N_("Failed to create order, please contact customer service")) from error
        with self._uow as uow:
            uow.orders.set_payment(order.stored_id, start.payer_fields(), start.reference)
            uow.commit()
        return order, start
