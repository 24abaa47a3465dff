"""Steps of features/ordering/coupons.feature and cards.feature: the operator issues batches through
the API, alice uses them through the API, paying through the providers' sandboxes."""

from __future__ import annotations

import threading
from datetime import timedelta

from features.ordering.steps import as_written
from features.payments.steps import PAY_TYPES, _device, _ok, current_level_option
from pytest_bdd import given, parsers, then, when
from sqlalchemy import func, select

from adapters.persistence.models import CouponRow, DeviceRow, OrderRow
from core.devices.model import add_months

C, K = "/payment/activity/PayCoupon", "/payment/activity/PayCardSecret"
DEVICE_B = "RCW360A0000002"
ACME_DEVICE = "CR2B000000001"


def _span(console) -> dict:
    now = console.clock.now()
    return {"startTime": (now - timedelta(days=1)).isoformat(), "endTime": (now + timedelta(days=30)).isoformat()}


def _coupon_state(console, code: str) -> tuple[int, int | None]:
    with console.container.session_factory()() as session:
        row = session.scalars(select(CouponRow).where(CouponRow.code == code)).one()
        return row.state, row.order_id


def _device_of(console, guid: str) -> DeviceRow:
    with console.container.session_factory()() as session:
        return session.scalars(select(DeviceRow).where(DeviceRow.guid == guid)).one()


# --- coupons -----------------------------------------------------------------------------------------


@given(parsers.re(r"the operator has issued (?P<count>\d+) coupons? of (?P<yuan>\d+) yuan off"))
def _coupons(world, count, yuan):
    console = world["console"]
    api, token = console.api, console.api.token("operator")
    batch = _ok(api.call("POST", f"{C}/createCoupon", token=token, json={
        "prefix": "CP", "count": int(count), "couponType": 1, "amount": int(yuan) * 100, "remark": "feature",
        **_span(console)}))
    codes = _ok(api.call("POST", f"{C}/selectCouponCodeList", token=token, json={"batchId": batch["id"]}))["data"]
    world["coupon"] = codes[0]["couponCode"]
    world["coupon_fee"] = int(yuan) * 100


def _order_with_coupon(console, user: str, guid: str, code: str, fee: int):
    api, token = console.api, console.api.token(user)
    device = _device_of(console, guid)
    level, year = current_level_option(api, token, device, 12)
    return api.call("POST", "/payment/PayOrder/createServiceOrder", token=token, json={
        "deviceId": device.id, "levelId": level["levelId"], "levelYearId": year["id"],
        "servicePackageId": level["packageId"], "payType": PAY_TYPES["WeChat Pay"], "serviceFee": year["serviceFee"],
        "totalFee": year["price"], "couponCode": code, "couponFee": fee}), year


@when("alice orders 12 months of the device's current level with a coupon, paying by WeChat Pay")
def _order_coupon(world):
    console = world["console"]
    world["expiry"] = _device(console).service_expires_at
    reply, year = _order_with_coupon(console, "alice", "RCW360A0000001", world["coupon"], world["coupon_fee"])
    world["reply"], world["price"] = reply, year["price"]
    if reply.code == 0:
        world["order"] = reply.data


@then("the order charges 20 yuan less than the year option's price")
def _charged(world):
    assert world["order"]["totalFee"] == world["price"] - 2000


@then("the coupon is held by alice's order")
def _held(world):
    assert _coupon_state(world["console"], world["coupon"]) == (2, world["order"]["orderId"])


@then("the coupon is used by alice's order")
def _used(world):
    assert _coupon_state(world["console"], world["coupon"]) == (3, world["order"]["orderId"])


@then("the operator sees the coupon used by alice on that order")
def _operator_sees(world):
    console = world["console"]
    api, token = console.api, console.api.token("operator")
    batch = _ok(api.call("POST", f"{C}/selectCouponList", token=token, json={}))["data"][0]
    assert (batch["usedCount"], batch["reservedCount"]) == (1, 0)
    used = _ok(api.call("POST", f"{C}/selectCouponCodeList", token=token, json={"batchId": batch["id"],
                                                                                 "useStatus": 3}))["data"]
    assert [(c["couponCode"], c["userName"], c["orderCode"]) for c in used] == [
        (world["coupon"], "alice", world["order"]["orderCode"])]


@then("another order with the same coupon is refused: the coupon has already been used")
def _again(world):
    reply, _ = _order_with_coupon(world["console"], "alice", DEVICE_B, world["coupon"], world["coupon_fee"])
    assert (reply.status, reply.code) == (409, 2043), reply.body


@when("alice cancels the order")
def _cancel(world):
    console = world["console"]
    _ok(console.api.call("POST", "/payment/PayOrder/cancelOrder", token=console.api.token("alice"),
                         json={"orderId": world["order"]["orderId"]}))


@then("the coupon is unused again")
def _unused(world):
    assert _coupon_state(world["console"], world["coupon"]) == (1, None)


@when("alice and acme each order with that coupon at the same moment")
def _race(world):
    console = world["console"]
    replies: dict[str, object] = {}
    start = threading.Barrier(2, timeout=20)

    def order(user, guid):
        start.wait()
        replies[user] = _order_with_coupon(console, user, guid, world["coupon"], world["coupon_fee"])[0]

    threads = [threading.Thread(target=order, args=a) for a in (("alice", "RCW360A0000001"), ("acme", ACME_DEVICE))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    world["replies"] = list(replies.values())


@then("exactly one order holds the coupon and the other is refused: held by another unpaid order")
def _one_wins(world):
    codes = sorted(r.code for r in world["replies"])
    assert codes == [0, 2044], [r.body for r in world["replies"]]
    winner = next(r for r in world["replies"] if r.code == 0)
    assert _coupon_state(world["console"], world["coupon"]) == (2, winner.data["orderId"])


@then("she is told the coupon is worth the whole order or more")
def _too_large(world):
    assert (world["reply"].status, world["reply"].code) == (409, 2046), world["reply"].body
    assert _coupon_state(world["console"], world["coupon"]) == (1, None)


# --- recharge cards ----------------------------------------------------------------------------------


CARDS = r"the operator has issued (?P<count>\d+) recharge cards? of (?P<level>\S+) for (?P<months>\d+) months"


@given(parsers.re(CARDS))
def _cards(world, count, level, months):
    console = world["console"]
    api = console.api
    device = _device(console)
    levels = _ok(api.call("GET", "/payment/PayServicePackages/selectLevelList", token=api.token("alice"),
                          query={"deviceId": device.id}))
    level_id = next(lv["levelId"] for lv in levels if as_written(lv["levelName"], world) == level)
    batch = _ok(api.call("POST", f"{K}/createCardSecret", token=api.token("operator"), json={
        "prefix": "RC", "count": int(count), "levelId": level_id, "timeLength": int(months), "remark": "feature",
        **_span(console)}))
    world["card"], world["card_months"] = batch["cards"][0], int(months)
    world["expiry"] = device.service_expires_at


def _redeem(console, card: dict, guid: str = "RCW360A0000001", secret: str | None = None):
    return console.api.call("POST", f"{K}/redeemCard", token=console.api.token("alice"), json={
        "deviceId": _device_of(console, guid).id, "cardNumber": card["cardNumber"],
        "secret": card["secret"] if secret is None else secret})


@when("alice redeems the first card for the device")
def _redeems(world):
    world["reply"] = _redeem(world["console"], world["card"])


@then("the device's service runs 6 months longer")
def _six_months(world):
    assert world["reply"].code == 0, world["reply"].body
    assert _device(world["console"]).service_expires_at == add_months(world["expiry"], 6)


@then("the device's service still runs 6 months longer, no more")
def _no_more(world):
    assert _device(world["console"]).service_expires_at == add_months(world["expiry"], 6)


@then("alice's orders show a paid recharge-card order of fee 0")
def _card_order(world):
    console = world["console"]
    orders = _ok(console.api.call("POST", "/payment/PayOrder/selectMyOrderList", token=console.api.token("alice"),
                                  json={}))["data"]
    assert [(o["payType"], o["payStatus"], o["orderFee"], o["payFee"]) for o in orders] == [(50, 2, 0, 0)]


@then("the operator sees the card used by alice for the device")
def _operator_card(world):
    console = world["console"]
    api, token = console.api, console.api.token("operator")
    batch = _ok(api.call("POST", f"{K}/selectCardSecretList", token=token, json={}))["data"][0]
    used = _ok(api.call("POST", f"{K}/selectCardList", token=token, json={"batchId": batch["id"],
                                                                           "useStatus": 3}))["data"]
    assert [(c["cardNumber"], c["userName"], c["deviceName"]) for c in used] == [
        (world["card"]["cardNumber"], "alice", _device(console).device_name)]


@then("she is told the card has already been used")
def _card_used(world):
    assert (world["reply"].status, world["reply"].code) == (409, 2053), world["reply"].body


@when(parsers.parse("alice tries the first card with a wrong secret {times:d} times"))
def _wrong(world, times):
    world["replies"] = [_redeem(world["console"], world["card"], secret="WRONGWRONGWRONG1") for _ in range(times)]


@then("she is told the card number is locked")
def _locked(world):
    assert [r.code for r in world["replies"]] == [2051, 2051, 2051, 2051, 2052]


@then("even the right secret is refused while it is locked")
def _still_locked(world):
    world["console"].clock.advance(minutes=14)
    reply = _redeem(world["console"], world["card"])
    assert (reply.status, reply.code) == (409, 2052), reply.body


@when("the 15 minutes of the lock have passed")
def _lock_passed(world):
    world["console"].clock.advance(minutes=15)


@when("alice redeems the first card for two of her devices at the same moment")
def _redeem_race(world):
    console = world["console"]
    start = threading.Barrier(2, timeout=20)
    replies = []
    world["expiries"] = {g: _device_of(console, g).service_expires_at for g in ("RCW360A0000001", DEVICE_B)}

    def redeem(guid):
        start.wait()
        replies.append(_redeem(console, world["card"], guid))

    threads = [threading.Thread(target=redeem, args=(g,)) for g in world["expiries"]]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    world["replies"] = replies


@then("exactly one device got the service and one redemption was refused as used")
def _one_redeemed(world):
    console = world["console"]
    assert sorted(r.code for r in world["replies"]) == [0, 2053], [r.body for r in world["replies"]]
    changed = [g for g, before in world["expiries"].items() if _device_of(console, g).service_expires_at != before]
    assert len(changed) == 1
    with console.container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(OrderRow).where(OrderRow.pay_type == 50)) == 1
