"""The recharge statistics' rollup on PostgreSQL (revenue_rollup, kept by triggers) stays exactly
what a recount of the orders gives, through every write that moves the figures: orders settled
through the sandbox, a partial refund made, a refund the provider refuses (its take-back given
back), an offline purchase approved; and the statistics read from it equal those read from the
orders themselves, in zones an hour, half an hour and three quarters off UTC."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import text

from adapters.persistence.revenue import SqlAlchemyRevenueQueries
from core.ordering.revenue import Granularity
from tests.integration.test_offline_purchases_api import a_year, record, review
from tests.integration.test_recharge_api import COLD_ROOM_A, COLD_ROOM_B, ok, refused
from tests.integration.test_refund_outcomes import finish_at_provider
from tests.integration.test_refunds_api import order_status, refund
from tests.integration.test_unpaid_orders import order_for, press

# each table's columns, and its rows that count (a bucket emptied again holds zeros)
ROLLUP = {"revenue_paid": ("bucket, currency, pay_type, kind, level_id, cents, orders", "cents <> 0 OR orders <> 0"),
          "revenue_refunded": ("bucket, currency, pay_type, cents, refunds", "cents <> 0 OR refunds <> 0"),
          "revenue_renewals": ("bucket, device_id, lines", "lines <> 0")}


def rollup(container) -> dict[str, set[tuple]]:
    with container.engine().connect() as connection:
        return {table: set(map(tuple, connection.execute(text(f"SELECT {columns} FROM {table} WHERE {counting}"))))
                for table, (columns, counting) in ROLLUP.items()}


def recounted(container) -> dict[str, set[tuple]]:
    with container.engine().begin() as connection:
        connection.execute(text("SELECT revenue_rebuild()"))
    return rollup(container)


def test_the_rollup_equals_a_recount_after_settles_refunds_a_refused_refund_and_an_offline_purchase(
        payments, monkeypatch):
    api, container = payments.api, payments.container
    if container.engine().dialect.name != "postgresql":
        pytest.skip("SQLite answers from the orders themselves")
    first = order_for(payments, year=0)
    press(first["payQrCode"])
    payments.app.clock.advance(hours=5, minutes=20)
    second = order_for(payments, guid=COLD_ROOM_B, year=0)
    press(second["payQrCode"])
    assert rollup(container)["revenue_paid"]  # the settles counted as they committed
    payments.app.clock.advance(days=1)
    made = ok(refund(api, first["orderId"], 1000))  # partial, accepted by WeChat, then paid back
    finish_at_provider(payments, "wechat", made["refundCode"])
    assert order_status(api, first["orderId"]) == (5, 1000)
    at_wechat = payments.world.ledger.by_order("wechat", second["orderCode"])
    payments.world.ledger.update(at_wechat.id, refunded_cents=second["totalFee"])  # the provider refuses
    refused(refund(api, second["orderId"], 500), 409, 1137)
    assert order_status(api, second["orderId"]) == (2, 0)
    offline = ok(record(api, [COLD_ROOM_A], a_year(api, container), amount=9900))
    ok(review(api, offline["offlineId"], True))

    counted = rollup(container)
    assert counted == recounted(container)
    assert sum(row[-1] for row in counted["revenue_paid"]) == 3
    assert {row[-2:] for row in counted["revenue_refunded"]} == {(1000, 1)}

    get = container.recharge_statistics()
    today = payments.app.clock.now().date()
    asked = [(today - timedelta(days=3), today + timedelta(days=1), granularity, ZoneInfo(zone))
             for granularity in (Granularity.DAY, Granularity.MONTH)
             for zone in ("Asia/Shanghai", "Asia/Kolkata", "Asia/Kathmandu", "America/New_York")]
    rolled = [get(*question, "CNY") for question in asked]
    paid = first["totalFee"] + second["totalFee"] + 9900
    assert (rolled[0].total.paid_cents, rolled[0].total.orders, rolled[0].total.refunded_cents) == (paid, 3, 1000)
    assert rolled[0].devices.renewed == 2  # cold room A twice (online and offline), B once
    monkeypatch.setattr(SqlAlchemyRevenueQueries, "_rollup_answers", lambda self, *bounds: False)
    assert rolled == [get(*question, "CNY") for question in asked]


def test_an_order_deleted_or_a_table_truncated_leaves_the_rollup_a_recount(payments):
    container = payments.container
    if container.engine().dialect.name != "postgresql":
        pytest.skip("SQLite answers from the orders themselves")
    placed = order_for(payments, year=0)
    press(placed["payQrCode"])
    ok(refund(payments.api, placed["orderId"], 1000))
    kept = order_for(payments, guid=COLD_ROOM_B, year=0)
    press(kept["payQrCode"])
    with container.engine().begin() as connection:
        connection.execute(text("UPDATE order_lines SET level_id = level_id + 1000 WHERE order_id = :id"),
                           {"id": kept["orderId"]})
        connection.execute(text("DELETE FROM invoice_orders WHERE order_id = :id"), {"id": placed["orderId"]})
        connection.execute(text("DELETE FROM orders WHERE id = :id"), {"id": placed["orderId"]})
    counted = rollup(container)
    assert counted == recounted(container)
    assert [row[4] for row in counted["revenue_paid"]][0] > 1000 and not counted["revenue_refunded"]
    with container.engine().begin() as connection:
        connection.execute(text("TRUNCATE order_refunds, order_lines, orders CASCADE"))
    assert rollup(container) == {table: set() for table in ROLLUP}
