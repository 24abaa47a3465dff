"""Recharge statistics (issue 19) through the API, on SQLite and PostgreSQL: payments by the day of
the operator's time zone, refunds deducted in the period they were made, by pay type and level;
device counts; the XLSX export; customers get 403, a reversed or too long range 422."""

from __future__ import annotations

from datetime import timedelta
from io import BytesIO
from zoneinfo import ZoneInfo

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]

from entrypoints.api.orders.statistics import StatisticsSchema
from tests.integration.test_recharge_api import COLD_ROOM_B, ok, pay, refused
from tests.integration.test_refunds_api import refund
from tests.integration.test_unpaid_orders import order_for

pytestmark = pytest.mark.usefixtures("recharge_demo")
P = "/payment/PayOrder"
SHANGHAI = ZoneInfo("Asia/Shanghai")


def stats(api, start, end, granularity="day", user="operator", zone="Asia/Shanghai"):
    return api.call("POST", f"{P}/rechargeStatistics", token=api.token(user),
                    json={"startDate": f"{start}", "endDate": f"{end}", "granularity": granularity},
                    headers={"X-Time-Zone": zone})


def test_payments_and_refunds_add_up_by_day_pay_type_and_level(api, container, clock):
    console = type("Console", (), {"api": api, "container": container})
    first = order_for(console, year=0)
    ok(pay(api, first))
    clock.advance(days=1)
    second = order_for(console, guid=COLD_ROOM_B, year=0)
    ok(pay(api, second))
    ok(refund(api, first["orderId"], 1000))  # made the second day
    today = clock.now().astimezone(SHANGHAI).date()
    yesterday = today - timedelta(days=1)

    result = ok(stats(api, yesterday - timedelta(days=1), today), StatisticsSchema)
    days = [(p["paid"], p["orders"], p["refunded"], p["net"]) for p in result["periods"]]
    assert days == [(0, 0, 0, 0), (first["totalFee"], 1, 0, first["totalFee"]),
                    (second["totalFee"], 1, 1000, second["totalFee"] - 1000)]
    total = first["totalFee"] + second["totalFee"]
    assert (result["total"]["paid"], result["total"]["refunded"], result["total"]["net"]) == (total, 1000, total - 1000)
    assert [(p["payType"], p["paid"], p["refunded"]) for p in result["payTypes"]] == [(1, total, 1000)]
    assert sum(lv["paid"] for lv in result["levels"]) == total and all(lv["levelName"] for lv in result["levels"])
    assert result["devices"]["renewed"] == 2 and result["currency"] == "CNY"

    month = ok(stats(api, today.replace(day=1), today, "month"), StatisticsSchema)
    assert len(month["periods"]) == 1 and month["total"]["net"] in (total - 1000, second["totalFee"] - 1000)

    exported = api.client.post(f"/api{P}/exportRechargeStatistics", json={
        "startDate": f"{yesterday}", "endDate": f"{today}"}, headers={
        "Authorization": f"Bearer {api.token('operator')}", "X-Time-Zone": "Asia/Shanghai", "Accept-Language": "ru-RU"})
    rows = list(load_workbook(BytesIO(exported.data)).active.iter_rows(values_only=True))
    assert rows[0][0] == "Период" and rows[-1][1] == total / 100 and rows[-1][3] == 10.0


def test_the_range_is_checked_and_customers_get_nothing(api, clock):
    today = clock.now().date()
    refused(stats(api, today, today - timedelta(days=1)), 422, 422)
    refused(stats(api, today - timedelta(days=500), today), 422, 422)  # over 400 days
    refused(stats(api, "2026-02-30", today), 422, 422)
    for user in ("alice", "acme", "bob"):
        refused(stats(api, today, today, user=user), 403, 403)
    assert len(ok(stats(api, today - timedelta(days=500), today, "week"))["periods"]) <= 73


class _Through:
    """The API as a browser on a platform's domain calls it (its Host)."""

    def __init__(self, api, host: str) -> None:
        self.api, self.host = api, host

    def call(self, method, path, **kwargs):
        return self.api.call(method, path, headers={"Host": self.host, **kwargs.pop("headers", {})}, **kwargs)

    def token(self, user: str) -> str:
        return self.api.token(user)


def test_revenue_is_split_by_the_platform_the_orders_were_placed_through(api, container, clock):
    on_console = type("Console", (), {"api": api, "container": container})
    on_platform = type("Console", (), {"api": _Through(api, "demo.localhost"), "container": container})
    first = order_for(on_console, year=0)
    ok(pay(api, first))
    second = order_for(on_platform, guid=COLD_ROOM_B, year=0)
    ok(pay(api, second))
    ok(refund(api, second["orderId"], 500))  # deducted from the platform's revenue
    today = clock.now().astimezone(SHANGHAI).date()
    api.language = "ru-RU"
    result = ok(stats(api, today - timedelta(days=1), today), StatisticsSchema)
    assert [(p["camp"], p["platformName"], p["paid"], p["refunded"]) for p in result["platforms"]] == [
        (0, "Основная консоль", first["totalFee"], 0), (1, "Demo Cold Chain Cloud", second["totalFee"], 500)]
