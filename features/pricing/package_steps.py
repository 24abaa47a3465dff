"""Steps of features/pricing/package_editing.feature: an operator's catalogue calls, then what the
customer's drawers read (imported by features/conftest.py)."""

from __future__ import annotations

from pytest_bdd import given, parsers, then, when
from sqlalchemy import select

from adapters.persistence.models import DeviceRow, OrderLineRow

P = "/payment"
TYPES = {"RCW-360": 0x8001}
ROOM_A, NEW_DEVICE = "RCW360A0000001", "RCW360Z0000042"


def _ok(reply):
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


def _device_id(container, guid: str) -> int:
    with container.session_factory()() as session:
        return session.scalars(select(DeviceRow.id).where(DeviceRow.guid == guid)).one()


def _package(api, world, name: str) -> dict:
    found = _ok(api.call("POST", f"{P}/PayServicePackages/selectPackagesList", token=world["tokens"]["operator"],
                         json={"packageName": name}))["data"]
    return found[0]


def _levels(api, world, user, device_id) -> dict[str, dict]:
    return {lv["levelName"]: lv for lv in _ok(api.call(
        "GET", f"{P}/PayServicePackages/selectLevelList", token=world["tokens"][user], query={"deviceId": device_id}))}


def _options(api, world, user, device_id, level) -> list[dict]:
    return _ok(api.call("GET", f"{P}/PayServiceLevelYear/selectListByDomain", token=world["tokens"][user], query={
        "deviceId": device_id, "levelId": level["levelId"], "packageId": level["packageId"]}))["levelYearList"]


@when(parsers.parse('operator creates the package "{name}" coded {code} for the {kind} type'))
def _create(api, world, name, code, kind):
    types = _ok(api.call("GET", f"{P}/PayServiceDeviceTypeRel/selectAllTypeList", token=world["tokens"]["operator"]))
    type_id = next(t["id"] for t in types if t["typeCode"] == TYPES[kind])
    world["type_id"] = type_id
    _ok(api.call("POST", f"{P}/PayServicePackages/insert", token=world["tokens"]["operator"], json={
        "packageCode": code, "names": {"zh-CN": {"name": name}, "en-US": {"name": name}},
        "deviceTypeIds": [type_id]}))


@when(parsers.parse('operator adds the level "{level}" at {yuan} yuan for {months:d} months to "{name}"'))
def _add_level(api, world, level, yuan, months, name):
    cents = round(float(yuan) * 100)
    _ok(api.call("POST", f"{P}/PayServiceLevel/insert", token=world["tokens"]["operator"], json={
        "packageId": _package(api, world, name)["id"], "names": {"zh-CN": {"name": level}, "en-US": {"name": level}},
        "itemCodes": ["DATA_QUERY_EXPORT"],
        "options": [{"timeLength": months, "serviceFee": cents, "currency": "CNY"}]}))


@when(parsers.parse('operator enables "{name}"'))
def _enable(api, world, name):
    world["replies"].append(api.call("POST", f"{P}/PayServicePackages/enableServicePackage",
                                     token=world["tokens"]["operator"], json={"id": _package(api, world, name)["id"]}))


@then(parsers.parse('the operator is told the type already has the enabled package "{other}"'))
def _told(world, other):
    reply = world["replies"][-1]
    assert (reply.status, reply.code) == (409, 2001) and other in reply.body["msg"], reply.body


@when("operator stops the standard plan")
def _stop(api, world):
    [demo] = _ok(api.call("POST", f"{P}/PayServicePackages/selectPackagesList", token=world["tokens"]["operator"],
                          json={"packageCode": "10000001"}))["data"]
    _ok(api.call("POST", f"{P}/PayServicePackages/stopServicePackage", token=world["tokens"]["operator"],
                 json={"id": demo["id"]}))


@then(parsers.parse('alice\'s cold room A shows the levels "{names}"'))
def _shows(api, world, container, names):
    assert world["replies"][-1].status == 200, world["replies"][-1].body
    assert list(_levels(api, world, "alice", _device_id(container, ROOM_A))) == names.split(", ")


@then(parsers.parse('a year of "{level}" for alice\'s new device is quoted at {cents:d} cents'))
def _quoted(api, world, container, level, cents):
    _ok(api.call("POST", "/device/Device/insert", token=world["tokens"]["alice"], json={
        "deviceGuid": NEW_DEVICE, "deviceName": "New door", "typeId": world["type_id"]}))
    device_id = _device_id(container, NEW_DEVICE)
    chosen = _levels(api, world, "alice", device_id)[level]
    quote = _ok(api.call("POST", f"{P}/PayOrder/selectBatchQuote", token=world["tokens"]["alice"], json={
        "deviceIdList": [device_id], "levelId": chosen["levelId"], "levelYearId": chosen["levelYearId"],
        "servicePackageId": chosen["packageId"]}))
    assert quote[0]["totalFee"] == cents


@given(parsers.parse('alice has ordered a year of "{level}" for her cold room A'))
def _ordered(api, world, container, level):
    device_id = _device_id(container, ROOM_A)
    chosen = _levels(api, world, "alice", device_id)[level]
    year = _options(api, world, "alice", device_id, chosen)[0]
    world["order"] = _ok(api.call("POST", f"{P}/PayOrder/createServiceOrder", token=world["tokens"]["alice"], json={
        "deviceId": device_id, "levelId": chosen["levelId"], "levelYearId": year["id"],
        "servicePackageId": chosen["packageId"], "payType": 1, "serviceFee": year["serviceFee"],
        "totalFee": year["price"]}))["orderId"]
    world["level"] = chosen


@when(parsers.parse('operator sets the "{level}" year to {yuan} yuan'))
def _reprice(api, world, level, yuan):
    op = world["tokens"]["operator"]
    levels = _ok(api.call("GET", f"{P}/PayServiceLevel/selectServiceLevels", token=op,
                          query={"packageId": world["level"]["packageId"]}))
    found = next(lv for lv in levels if lv["levelId"] == world["level"]["levelId"])
    rows = [{k: o[k] for k in ("id", "timeLength", "serviceFee", "dataFee", "currency", "discount", "topStatus")}
            for o in found["options"]]
    year = next(r for r in rows if r["timeLength"] == 12 and r["currency"] == "CNY")
    year["serviceFee"] = round(float(yuan) * 100)
    _ok(api.call("PUT", f"{P}/PayServiceLevel/update", token=op, json={
        "levelId": found["levelId"], "names": found["names"], "itemCodes": found["itemCodes"], "options": rows}))


@then(parsers.parse('alice\'s cold room A is offered a year of "{level}" at {cents:d} cents'))
def _offered(api, world, container, level, cents):
    device_id = _device_id(container, ROOM_A)
    chosen = _levels(api, world, "alice", device_id)[level]
    assert _options(api, world, "alice", device_id, chosen)[0]["serviceFee"] == cents


@then(parsers.parse("alice's order still costs {cents:d} cents for {months:d} months"))
def _order_kept(world, container, cents, months):
    with container.session_factory()() as session:
        line = session.scalars(select(OrderLineRow).where(OrderLineRow.order_id == world["order"])).one()
        assert (line.fee_cents, line.months) == (cents, months)
