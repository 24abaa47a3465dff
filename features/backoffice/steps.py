"""Steps of features/backoffice/*.feature: offline purchases with their review
(/payment/PayOfflineDeviceService, /payment/PayOfflineExamine) and automatic renewal (the
agreement's jobs), on the console's development gateway."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from pytest_bdd import given, parsers, then, when
from sqlalchemy import func, select

from adapters.persistence.models import DeviceRow, OfflinePurchaseRow, SystemMessageRow
from core.devices.model import add_months
from core.ordering.model import RENEWAL_CHARGED, RENEWAL_DUE, RENEWAL_ENDED, RENEWAL_FAILED
from core.ordering.payments import PaymentResult
from core.ordering.renewals import RENEW_BEFORE

B, E, P = "/payment/PayOfflineDeviceService", "/payment/PayOfflineExamine", "/payment/PayOrder"
USERS = {"operator": "operator", "administrator": "admin"}


def _ok(reply):
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


def _device(container, guid: str) -> DeviceRow:
    with container.session_factory()() as session:
        return session.scalars(select(DeviceRow).where(DeviceRow.guid == guid)).one()


def _a_year_of(api, container, guid: str, level_name: str = "Basic") -> dict:
    alice = api.token("alice")
    device_id = _device(container, guid).id
    levels = _ok(api.call("GET", f"{P.rsplit('/', 1)[0]}/PayServicePackages/selectLevelList", token=alice,
                          query={"deviceId": device_id}))
    level = next(lv for lv in levels if lv["levelName"] == level_name)
    options = _ok(api.call("GET", "/payment/PayServiceLevelYear/selectListByDomain", token=alice, query={
        "deviceId": device_id, "levelId": level["levelId"], "packageId": level["packageId"]}))["levelYearList"]
    option = next(o for o in options if o["timeLength"] == 12)
    return {"level": level, "option": option, "deviceId": device_id}


# --- offline purchases ------------------------------------------------------------------------------


@when(parsers.parse('the operator records a year of Basic for alice\'s "{first}" and "{second}" paid by bank transfer'))
def _record(api, container, world, first, second):
    year = _a_year_of(api, container, first)
    world["before"] = {g: _device(container, g).service_expires_at for g in (first, second)}
    world["guids"] = (first, second)
    world["purchase"] = _ok(api.call("POST", f"{B}/insert", token=api.token("operator"), json={
        "customer": "alice", "guids": [first, second], "levelId": year["level"]["levelId"],
        "levelYearId": year["option"]["id"], "amount": 2 * 9900, "payType": 61, "remark": "Contract 118"}))


@when(parsers.parse("the {who} approves the purchase"))
def _approve(api, world, who):
    world["review"] = api.call("PUT", f"{E}/updateExamine", token=api.token(USERS[who]),
                               json={"offlineId": world["purchase"]["offlineId"], "approve": True})


@when(parsers.parse('alice deletes her device "{guid}"'))
def _delete(api, container, guid):
    _ok(api.call("DELETE", "/device/Device/delete", token=api.token("alice"),
                 query={"deviceId": _device(container, guid).id}))


@when(parsers.parse('the operator checks a sheet of "{a}", "{b}" and acme\'s "{c}" for alice'))
def _check(api, world, a, b, c):
    world["rows"] = [a, b, c]
    world["check"] = _ok(api.call("POST", f"{B}/addDeviceList", token=api.token("operator"),
                                  json={"customer": "alice", "guids": world["rows"], "smsCount": 100}))


@then("the purchase awaits review and both devices are not recharged")
def _awaits(world):
    assert world["purchase"]["status"] == 1 and {d["state"] for d in world["purchase"]["devices"]} == {0}


@then(parsers.parse("the review is refused with code {code:d}"))
def _review_refused(world, code):
    assert (world["review"].status, world["review"].code) == (409, code)


@then("both devices are recharged, their service running at least a year from now")
def _recharged(container, clock, world):
    approved = _ok(world["review"])
    assert approved["status"] == 2 and {d["state"] for d in approved["devices"]} == {1}
    for guid in world["guids"]:
        assert _device(container, guid).service_expires_at >= add_months(clock.now(), 12)


@then("alice's orders show a paid bank-transfer order for both devices")
def _alice_order(api, world):
    orders = _ok(api.call("POST", f"{P}/selectMyOrderList", token=api.token("alice"), json={}))["data"]
    [order] = [o for o in orders if o["orderId"] == _ok(world["review"])["orderId"]]
    assert (order["payType"], order["payStatus"], order["deviceCount"], order["orderFee"]) == (61, 2, 2, 2 * 9900)


@then(parsers.parse('"{kept}" is recharged and "{gone}" failed because it was deleted'))
def _one_failed(world, kept, gone):
    devices = {d["guid"]: d for d in _ok(world["review"])["devices"]}
    assert devices[kept]["state"] == 1
    assert devices[gone]["state"] == 2 and "deleted" in devices[gone]["reason"]


@then(parsers.parse("row {twice:d} is listed twice and row {foreign:d} is not the customer's"))
def _rows(world, twice, foreign):
    problems = {r["row"] + 1: r["problem"] for r in world["check"]["rows"]}  # the rows after a header
    assert (problems[2], problems[twice], problems[foreign]) == (None, 4, 2)


@then("recording the purchase with those rows is refused and records nothing")
def _refused_whole(api, container, world):
    reply = api.call("POST", f"{B}/insert", token=api.token("operator"), json={
        "customer": "alice", "guids": world["rows"], "smsCount": 100, "amount": 100, "payType": 60})
    assert (reply.status, reply.code) == (422, 422) and len(reply.body["data"]["rows"]) == 2
    with container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(OfflinePurchaseRow)) == 0


# --- automatic renewal ------------------------------------------------------------------------------


@dataclass
class Declining:
    """The development gateway, declining the next charges under one authorisation (the demo's
    freezer renews too: its charges go through)."""

    gateway: object
    mandate: str
    declines: int

    def __getattr__(self, name):
        return getattr(self.gateway, name)

    def charge(self, mandate, request):
        if mandate == self.mandate and self.declines > 0:
            self.declines -= 1
            return PaymentResult(paid=False, error="declined")
        return self.gateway.charge(mandate, request)  # type: ignore[attr-defined]


@given(parsers.parse('alice has paid a year for "{guid}" asking to renew automatically'))
def _renewing(api, container, world, guid):
    year = _a_year_of(api, container, guid)
    level, option = year["level"], year["option"]
    placed = _ok(api.call("POST", f"{P}/createServiceOrder", token=api.token("alice"), json={
        "deviceId": year["deviceId"], "levelId": level["levelId"], "levelYearId": option["id"],
        "servicePackageId": level["packageId"], "payType": 1, "serviceFee": option["serviceFee"],
        "totalFee": option["price"], "autoRenew": True}))
    from urllib.parse import parse_qsl, urlsplit

    link = urlsplit(placed["payQrCode"])
    _ok(api.call("GET", link.path.removeprefix("/api"), query=dict(parse_qsl(link.query))))
    assert container.sign_agreements()() >= 1
    world["guid"] = guid
    world["paid_until"] = _device(container, guid).service_expires_at


@given(parsers.parse("the provider declines the next {count:d} charges"))
def _declines(container, world, count):
    gateways = container.payment_gateways()
    original = gateways.recurring
    with container.uow() as uow:
        agreement = uow.agreements.active(_device(container, world["guid"]).id)
    declining = Declining(original(1), agreement.mandate, count)
    gateways.recurring = lambda pay_type: declining
    world["cleanups"].append(lambda: setattr(gateways, "recurring", original))


def _run_renewals(container, clock, until):
    clock.advance(seconds=max(0.0, (until - clock.now()).total_seconds()))
    container.charge_due_agreements()()


@when("the day before the service runs out comes and the renewal job runs")
def _due(container, clock, world):
    _run_renewals(container, clock, world["paid_until"] - RENEW_BEFORE)


@when("a day passes and the renewal job runs")
def _a_day(container, clock):
    _run_renewals(container, clock, clock.now() + timedelta(days=1))


@when("two days pass and the renewal job runs")
def _two_days(container, clock):
    _run_renewals(container, clock, clock.now() + timedelta(days=2))


@when(parsers.parse('alice turns off the automatic renewal of "{guid}"'))
def _cancel(api, container, guid):
    _ok(api.call("GET", f"{P}/unAgreement", token=api.token("alice"), query={"deviceId": _device(container, guid).id}))


def _told(container, world=None) -> list[str]:
    """alice's messages, those about the scenario's device only when the world names one."""
    device = _device(container, world["guid"]).id if world else None
    with container.session_factory()() as session:
        rows = session.execute(select(SystemMessageRow.template, SystemMessageRow.params)
                               .order_by(SystemMessageRow.id)).all()
    return [template for template, params in rows if device is None or (params or {}).get("device") == device]


@then("the device's service runs a year longer")
def _year_longer(container, world):
    assert _device(container, world["guid"]).service_expires_at == add_months(world["paid_until"], 12)


@then("alice was told of the charge before and after it")
def _told_before_after(container, world):
    told = _told(container, world)
    assert RENEWAL_DUE in told and told.index(RENEWAL_DUE) < told.index(RENEWAL_CHARGED)


@then("alice is told the renewal failed and will be tried again")
def _told_failed(container, world):
    assert _told(container, world)[-1] == RENEWAL_FAILED


@then("the automatic renewal has ended and alice is told")
def _ended(api, container, world):
    assert _told(container, world)[-1] == RENEWAL_ENDED
    current = _ok(api.call("GET", f"{P}/selectCurrentService", token=api.token("alice"),
                           query={"deviceId": _device(container, world["guid"]).id}))
    assert current is None


@then("the device's service is as it was after her payment")
def _as_paid(container, world):
    assert _device(container, world["guid"]).service_expires_at == world["paid_until"]
