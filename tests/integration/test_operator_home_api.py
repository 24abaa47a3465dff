"""The operator home (GET /device/Device/operatorHomeCounts): counts across every customer for
the back office, refused to customers. Runs on SQLite and on PostgreSQL with the demo data."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select, update

from adapters.persistence.models import AccountRow, DeviceRow, OrderRow
from entrypoints.api.devices import schemas as s
from entrypoints.api.framework import envelope

pytestmark = pytest.mark.usefixtures("demo")

COUNTS = "/device/Device/operatorHomeCounts"
SHANGHAI = {"X-Time-Zone": "Asia/Shanghai"}


def counts(api, user: str = "operator", headers: dict | None = None) -> dict:
    reply = api.call("GET", COUNTS, token=api.token(user), headers=headers)
    assert (reply.status, reply.code) == (200, 0), reply.body
    envelope(s.OperatorHomeCountsSchema)().load(reply.body)
    return reply.data


def add_order(container, code: str, *, created: datetime, status: int = 1, paid: datetime | None = None,
              fee: int = 9900, currency: str = "CNY") -> None:
    with container.session_factory()() as session:
        account = session.scalar(select(AccountRow.id).where(AccountRow.user_name == "alice"))
        session.add(OrderRow(order_code=code, account_id=account, kind=1, pay_type=1, currency=currency,
                             order_fee_cents=fee, pay_fee_cents=fee if paid else None, status=status,
                             apply_flag=False, description="test", invoice_status=0, created_at=created,
                             paid_at=paid))
        session.commit()


def move_clock_to(clock, instant: datetime) -> None:
    clock.advance(seconds=(instant - clock.now()).total_seconds())


def test_the_operator_sees_every_customer_and_device(api, container):
    with container.session_factory()() as session:
        devices = session.scalar(select(func.count()).select_from(DeviceRow))
        online = session.scalar(select(func.count()).select_from(DeviceRow).where(DeviceRow.online.is_(True)))
    data = counts(api)
    # alice, acme and bob are the demo's customers; admin, operator and calibadmin are system accounts
    assert data["customers"] == 3
    assert (data["devices"], data["online"]) == (devices, online)
    assert data["devices"] == 8  # alice's six and acme's two: more than any one customer sees
    assert counts(api, "admin") == data


def test_alarming_devices_count_across_customers(api, container):
    before = counts(api)["alarm"]
    with container.session_factory()() as session:
        session.execute(update(DeviceRow).where(DeviceRow.guid.in_(["CR2B000000001", "RCW360A0000001"]))
                        .values(alarm_state=1))
        session.commit()
    assert counts(api)["alarm"] == before + 2


def test_todays_orders_and_revenue_are_cents_per_currency_and_leave_other_days_and_refunds_out(
        api, container, clock):
    move_clock_to(clock, datetime(2026, 6, 10, 12, 0, tzinfo=UTC))
    now = clock.now()
    add_order(container, "T1", created=now - timedelta(hours=1), status=2, paid=now - timedelta(minutes=50))
    add_order(container, "T2", created=now - timedelta(hours=2), status=2, paid=now - timedelta(hours=2),
              fee=18800)
    add_order(container, "T3", created=now - timedelta(hours=3), status=2, paid=now - timedelta(hours=3),
              fee=1990, currency="USD")
    add_order(container, "T4", created=now - timedelta(hours=1))  # unpaid: an order, no revenue
    add_order(container, "T5", created=now - timedelta(hours=4), status=3, paid=now - timedelta(hours=4))
    add_order(container, "Y1", created=now - timedelta(days=1), status=2, paid=now - timedelta(days=1))
    data = counts(api, headers={"X-Time-Zone": "UTC"})
    assert (data["ordersToday"], data["paidOrdersToday"]) == (5, 3)
    assert data["revenueToday"] == [{"currency": "CNY", "payFee": 9900 + 18800},
                                    {"currency": "USD", "payFee": 1990}]


def test_today_is_the_day_of_the_operators_time_zone(api, container, clock):
    # 23:30 UTC on 9 June is 07:30 on 10 June in Shanghai
    move_clock_to(clock, datetime(2026, 6, 9, 23, 30, tzinfo=UTC))
    add_order(container, "Z1", created=datetime(2026, 6, 9, 15, 0, tzinfo=UTC), status=2,
              paid=datetime(2026, 6, 9, 15, 0, tzinfo=UTC))  # 23:00 on 9 June in Shanghai
    add_order(container, "Z2", created=datetime(2026, 6, 9, 17, 0, tzinfo=UTC), status=2,
              paid=datetime(2026, 6, 9, 17, 0, tzinfo=UTC))  # 01:00 on 10 June in Shanghai
    assert counts(api, headers=SHANGHAI)["ordersToday"] == 1
    assert counts(api, headers={"X-Time-Zone": "UTC"})["ordersToday"] == 2


def test_an_empty_day_has_no_revenue_rows(api):
    assert counts(api)["revenueToday"] == []


@pytest.mark.parametrize("user", ["alice", "acme", "bob", "calibadmin"])
def test_a_customer_is_refused_and_learns_nothing(api, user):
    reply = api.call("GET", COUNTS, token=api.token(user))
    assert (reply.status, reply.code, reply.data) == (403, 403, None)
    assert "customers" not in str(reply.body)


def test_without_a_token_it_is_a_401(api):
    reply = api.call("GET", COUNTS)
    assert (reply.status, reply.code) == (401, 2010)


def test_the_call_is_in_the_openapi_document(api):
    document = api.client.get("/api/openapi.json").get_json()
    operation = document["paths"]["/api/device/Device/operatorHomeCounts"]["get"]
    assert {"200", "403"} <= set(operation["responses"])
