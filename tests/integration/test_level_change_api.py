"""A change of level through the API (issue 14): the quote says before payment what each device
will have, the order promises it, and the device gets exactly that once paid, through the local
payment sandbox (WeChat Pay's payer page and notification, over HTTP) or the development gateway."""

from __future__ import annotations

import urllib.parse
import urllib.request
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from adapters.persistence.models import DeviceRow, OrderLineRow
from core.devices.expiry import LIFELONG_EXPIRY
from core.devices.model import add_months
from entrypoints.api.payment import schemas as s
from tests.integration.test_recharge_api import (
    COLD_ROOM_A,
    FREEZER,
    device,
    levels,
    ok,
    options,
    pay,
    refused,
    service_order,
)

P = "/payment"


def quote(api, token, device_ids, level, option) -> list[dict]:
    return ok(api.call("POST", f"{P}/PayOrder/selectBatchQuote", token=token, json={
        "deviceIdList": device_ids, "levelId": level["levelId"], "levelYearId": option["id"],
        "servicePackageId": level["packageId"]}), s.DeviceQuoteSchema, many=True)


def line_of(container, order_id: int) -> OrderLineRow:
    with container.session_factory()() as session:
        return session.scalars(select(OrderLineRow).where(OrderLineRow.order_id == order_id)).one()


@pytest.fixture(scope="session")
def _every_adapter() -> None:
    for module in ("alipay", "paypal", "stripe_pay", "wechat_pay"):
        pytest.importorskip(f"adapters.payments.{module}")


def test_alice_downgrades_a_professional_device_and_gets_what_the_drawer_said(_every_adapter, payments):
    api, container, clock = payments.api, payments.container, payments.clock
    alice = api.token("alice")
    freezer = device(container, FREEZER)  # 专业版 for 100 more days, renewed automatically
    assert freezer.service_expires_at == clock.now() + timedelta(days=100)
    ok(api.call("GET", f"{P}/PayOrder/unAgreement", token=alice, query={"deviceId": freezer.id}))
    basic = levels(api, alice, freezer.id)["Basic"]
    year = options(api, alice, freezer.id, basic)[0]

    [shown] = quote(api, alice, [freezer.id], basic, year)
    # 100 days of 专业版 (199 yuan a year) are worth 201 days of 基础版 (99 yuan a year), then 12 months
    expected = add_months(clock.now() + timedelta(days=201), 12)
    assert shown == {
        "deviceId": freezer.id, "totalFee": 9900, "currency": "CNY", "currentLevelId": freezer.level_id,
        "currentLevelName": "Professional",  # as an en-US reader sees the levels
        "currentExpiredDate": shown["currentExpiredDate"], "changeKind": "converted", "remainingDays": 100,
        "convertedDays": 201, "timeLength": 12, "presentationMonth": 0, "levelId": basic["levelId"],
        "levelName": "Basic", "serviceExpiredDate": shown["serviceExpiredDate"], "lifelong": False}

    placed = ok(service_order(api, alice, [freezer.id], basic, year), s.OrderPlacedSchema)
    assert placed["levelChanges"] == [shown]
    with urllib.request.urlopen(placed["payQrCode"], data=urllib.parse.urlencode({"outcome": "pay"}).encode(),
                                timeout=10) as page:
        assert "The merchant answered 200" in page.read().decode()

    assert ok(api.call("GET", f"{P}/PayOrder/get", token=alice, query={"pk": placed["orderId"]}))["payStatus"] == 2
    after = device(container, FREEZER)
    assert (after.level_id, after.service_expires_at) == (basic["levelId"], expected)
    info = ok(api.call("GET", f"{P}/PayServicePackages/selectDeviceDepositInfo", token=alice,
                       query={"deviceId": freezer.id}))
    assert (info["levelName"], info["serviceExpiredDate"]) == ("Basic", shown["serviceExpiredDate"])  # en-US
    line = line_of(container, placed["orderId"])
    assert (line.settled_expires_at, line.recomputed) == (expected, False)


def test_a_device_that_got_lifelong_service_before_the_payment_keeps_it(api, container, clock, recharge_demo):
    alice = api.token("alice")
    room = device(container, COLD_ROOM_A)
    pro = levels(api, alice, room.id)["Professional"]
    placed = ok(service_order(api, alice, [room.id], pro, options(api, alice, room.id, pro)[0]))
    with container.session_factory()() as session:  # another order, for life, was paid first
        session.execute(update(DeviceRow).where(DeviceRow.id == room.id).values(service_expires_at=LIFELONG_EXPIRY))
        session.commit()
    ok(pay(api, placed))
    after = device(container, COLD_ROOM_A)
    assert (after.level_id, after.service_expires_at) == (room.level_id, LIFELONG_EXPIRY)
    line = line_of(container, placed["orderId"])
    assert (line.settled_expires_at, line.recomputed) == (LIFELONG_EXPIRY, True)


def test_a_read_only_member_may_see_the_quote_but_not_order(api, container, recharge_demo):
    """bob is a member of acme's organization: he reads its devices and changes none."""
    bob = api.token("bob")
    door = device(container, "RCW360B0000001")
    basic = levels(api, bob, door.id)["Basic"]
    year = options(api, bob, door.id, basic)[0]
    [shown] = quote(api, bob, [door.id], basic, year)
    assert (shown["deviceId"], shown["changeKind"]) == (door.id, "extended")
    refused(service_order(api, bob, [door.id], basic, year), 403, 403)
    refused(api.call("POST", f"{P}/PayOrder/selectBatchQuote", token=api.token("alice"), json={
        "deviceIdList": [door.id], "levelId": basic["levelId"], "levelYearId": year["id"],
        "servicePackageId": basic["packageId"]}), 404, 404)


def test_paying_again_says_what_the_device_gets_if_paid_now(api, container, recharge_demo):
    """Pay in My orders (continuePay): the order's promise while the device is as it was quoted,
    else what the rule gives it as it is now, which is what settlement then gives it."""
    alice = api.token("alice")
    a, b = device(container, COLD_ROOM_A), device(container, "RCW360A0000002")
    pro = levels(api, alice, a.id)["Professional"]
    upgrade = ok(service_order(api, alice, [a.id], pro, options(api, alice, a.id, pro)[0]))

    def again(order_id: int) -> list[dict]:
        return ok(api.call("POST", f"{P}/PayOrder/continuePay", token=alice, json={"orderId": order_id}),
                  s.ResumedPaymentSchema)["levelChanges"]

    assert again(upgrade["orderId"]) == upgrade["levelChanges"]
    basic = levels(api, alice, a.id)["Basic"]
    renewal = ok(service_order(api, alice, [a.id, b.id], basic, options(api, alice, a.id, basic)[0]))
    ok(pay(api, renewal))  # Cold room A is now 基础版 for 12 more months: the upgrade is computed again
    [now] = again(upgrade["orderId"])
    assert (now["currentExpiredDate"], now["changeKind"]) == (renewal["levelChanges"][0]["serviceExpiredDate"],
                                                              "converted")
    assert now["convertedDays"] > upgrade["levelChanges"][0]["convertedDays"]
    ok(pay(api, upgrade))
    info = ok(api.call("GET", f"{P}/PayServicePackages/selectDeviceDepositInfo", token=alice,
                       query={"deviceId": a.id}))
    assert (info["levelName"], info["serviceExpiredDate"]) == ("Professional", now["serviceExpiredDate"])  # en-US
    assert line_of(container, upgrade["orderId"]).recomputed is True
