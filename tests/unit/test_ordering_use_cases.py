"""Ordering's use cases on fakes, in milliseconds: placing, settling once, cancelling and
refunding, each state change along ORDER_TRANSITIONS (the PostgreSQL repositories and their
concurrency are tested in tests/integration)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.devices.model import DeviceType, NewDevice
from core.ordering.commands import CreateServiceOrder
from core.ordering.model import CloseReason, OrderMove, PayStatus
from core.ordering.refund_model import Refund
from core.ordering.refunds import RefundPolicy, RefundRefused, RequestRefund
from core.ordering.unpaid_orders import CancelOrder
from core.ordering.use_cases import OrderPlaced, PlaceServiceOrder, SettlementOutcome, SettleOrder
from core.pricing.model import Level, YearOption
from core.shared.edition import Edition, PayType
from core.shared.errors import OrderNotCancellable, OrderNotRefundable, PriceChanged
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeCatalogueRepository, FakeOrderingUnitOfWork, FakePaymentGateway, FakePaymentGateways

NOW = datetime(2026, 5, 31, 12, 0, tzinfo=UTC)
OWNER, STRANGER, OPERATOR = 1, 2, 3
LOGGER = DeviceType(10, "RCW-360", 0x8001, 0, 2, (1,), ("t", "h"))
YEAR = YearOption(80, 8, 12, 10000, "CNY")
STANDARD = Level(8, 3, "Standard", None, (YEAR,))


class Shop:
    """One customer's device, the catalogue, a provider and the use cases over one fake unit of work."""

    def __init__(self, refunds_succeed: bool = True) -> None:
        self.uow = FakeOrderingUnitOfWork(FakeCatalogueRepository([STANDARD]))
        self.uow.device_registry.types[LOGGER.id] = LOGGER
        self.device_id = self.uow.device_registry.add(NewDevice(
            "RCW360A0000001", "Fridge", LOGGER.id, OWNER, None, None, "86", 1, "C", None, NOW))  # type: ignore[arg-type]
        self.clock = MutableClock(NOW)
        self.gateway = FakePaymentGateway(refunds_succeed)
        gateways = FakePaymentGateways(self.gateway)
        self.place = PlaceServiceOrder(self.uow, gateways, self.clock, Edition.DOMESTIC)
        self.settle = SettleOrder(self.uow, self.clock)
        self.cancel = CancelOrder(self.uow, gateways, self.clock)
        self.request_refund = RequestRefund(self.uow, gateways, self.clock, RefundPolicy(10**9))

    def order(self, total_fee_cents: int = 10000) -> OrderPlaced:
        return self.place(CreateServiceOrder(OWNER, (self.device_id,), STANDARD.id, YEAR.id, STANDARD.package_id,
                                             PayType.WECHAT, YEAR.service_fee_cents, total_fee_cents))

    def status(self, placed: OrderPlaced) -> PayStatus:
        return self.uow.orders.rows[placed.order_id].status

    def refund(self, order_id: int, amount: int | None = None) -> Refund:
        return self.request_refund(OPERATOR, order_id, amount, "Asked by the customer")

    def pay(self, placed: OrderPlaced) -> SettlementOutcome:
        return self.settle(placed.order_code, placed.total_cents, "CNY", "wx-1")


def test_placing_an_order_stores_it_unpaid_as_the_server_priced_it_and_starts_its_payment():
    shop = Shop()
    placed = shop.order()
    order = shop.uow.orders.rows[placed.order_id]
    assert (order.status, order.order_fee_cents, order.currency, order.device_ids) == (
        PayStatus.UNPAID, 10000, "CNY", [shop.device_id])
    assert shop.gateway.started == [order.code] and order.payment_reference == f"ref-{order.code}"
    assert placed.payment.pay_qr_code == f"weixin://pay/{order.code}"


def test_an_order_the_client_priced_otherwise_is_refused_and_nothing_is_stored():
    shop = Shop()
    with pytest.raises(PriceChanged):
        shop.order(total_fee_cents=9900)
    assert shop.uow.orders.rows == {} and shop.gateway.started == []


def test_a_new_order_for_the_same_device_supersedes_the_unpaid_one():
    shop = Shop()
    first, second = shop.order(), shop.order()
    earlier = shop.uow.orders.rows[first.order_id]
    assert (earlier.status, earlier.close_reason) == (PayStatus.CLOSED, CloseReason.SUPERSEDED)
    assert shop.status(second) is PayStatus.UNPAID and shop.gateway.closed == [earlier.code]


def test_settling_an_order_twice_settles_it_once_and_credits_the_device_once():
    shop = Shop()
    placed = shop.order()
    assert shop.pay(placed) is SettlementOutcome.SETTLED
    assert shop.pay(placed) is SettlementOutcome.ALREADY_SETTLED
    assert shop.status(placed) is PayStatus.PAID
    [(device_id, level_id, expires_at)] = shop.uow.device_service.credited
    assert (device_id, level_id, expires_at) == (shop.device_id, STANDARD.id, datetime(2027, 5, 31, 12, tzinfo=UTC))


def test_of_two_settlements_that_read_the_order_unpaid_only_the_first_write_credits():
    shop = Shop()
    placed = shop.order()
    unpaid = shop.uow.orders.rows[placed.order_id]
    assert shop.pay(placed) is SettlementOutcome.SETTLED
    shop.uow.orders.by_code = lambda code: unpaid  # type: ignore[method-assign]  # read before the first committed
    assert shop.pay(placed) is SettlementOutcome.ALREADY_SETTLED
    assert len(shop.uow.device_service.credited) == 1


def test_a_wrong_amount_or_currency_settles_nothing():
    shop = Shop()
    placed = shop.order()
    assert shop.settle(placed.order_code, 9999, "CNY") is SettlementOutcome.AMOUNT_MISMATCH
    assert shop.settle(placed.order_code, 10000, "USD") is SettlementOutcome.CURRENCY_MISMATCH
    assert shop.status(placed) is PayStatus.UNPAID and shop.uow.device_service.credited == []


def test_cancelling_closes_the_order_with_its_provider_then_here_and_again_changes_nothing():
    shop = Shop()
    placed = shop.order()
    cancelled = shop.cancel(OWNER, placed.order_id)
    assert (cancelled.status, cancelled.close_reason) == (PayStatus.CLOSED, CloseReason.CANCELLED)
    assert shop.gateway.closed == [placed.order_code]
    assert shop.cancel(OWNER, placed.order_id).status is PayStatus.CLOSED and len(shop.gateway.closed) == 1


def test_a_cancelled_order_the_provider_paid_anyway_is_settled():
    shop = Shop()
    placed = shop.order()
    shop.cancel(OWNER, placed.order_id)
    assert shop.pay(placed) is SettlementOutcome.SETTLED_CLOSED
    assert shop.status(placed) is PayStatus.PAID and len(shop.uow.device_service.credited) == 1


def test_a_paid_order_is_not_cancelled():
    shop = Shop()
    placed = shop.order()
    shop.pay(placed)
    with pytest.raises(OrderNotCancellable):
        shop.cancel(OWNER, placed.order_id)
    assert shop.status(placed) is PayStatus.PAID and shop.gateway.closed == []


def test_an_unpaid_order_is_not_refunded_and_a_paid_one_is_refunded_once():
    shop = Shop()
    placed = shop.order()
    with pytest.raises(OrderNotRefundable):
        shop.refund(placed.order_id)
    assert shop.status(placed) is PayStatus.UNPAID and shop.gateway.refunds == []
    shop.pay(placed)
    shop.refund(placed.order_id)
    assert shop.status(placed) is PayStatus.REFUNDED
    with pytest.raises(OrderNotRefundable):
        shop.refund(placed.order_id)
    [refund] = shop.gateway.refunds
    assert (refund.refund_code, refund.amount_cents, refund.reference) == (f"{placed.order_code}R1", 10000, "wx-1")


def test_a_refund_the_provider_refuses_leaves_the_order_paid():
    shop = Shop(refunds_succeed=False)
    placed = shop.order()
    shop.pay(placed)
    with pytest.raises(RefundRefused):
        shop.refund(placed.order_id)
    assert shop.status(placed) is PayStatus.PAID


def test_a_refunded_order_is_not_paid_again_by_a_late_notification():
    shop = Shop()
    placed = shop.order()
    shop.pay(placed)
    shop.refund(placed.order_id)
    assert shop.pay(placed) is SettlementOutcome.ALREADY_REFUNDED
    # credited once, then taken back to now by the refund; the late notification credits nothing
    assert shop.status(placed) is PayStatus.REFUNDED
    assert [expiry for _, _, expiry in shop.uow.device_service.credited] == [datetime(2027, 5, 31, 12, tzinfo=UTC), NOW]


def test_the_fake_repository_moves_an_order_only_along_the_table():
    shop = Shop()
    placed = shop.order()
    orders = shop.uow.orders
    assert not orders.move_refunded(placed.order_id, 100, OrderMove.REFUND, NOW)  # unpaid -> refunded is no move
    assert not orders.move_refunded(placed.order_id, -100, OrderMove.REFUND_REFUSED, NOW)  # it is not refunded
    assert shop.status(placed) is PayStatus.UNPAID
    assert orders.mark_closed(placed.order_id, NOW, CloseReason.EXPIRED)
    assert not orders.mark_closed(placed.order_id, NOW, CloseReason.CANCELLED)
    assert orders.rows[placed.order_id].close_reason is CloseReason.EXPIRED
