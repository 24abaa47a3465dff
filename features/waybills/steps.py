"""Steps of features/waybills/*.feature, imported by features/conftest.py so that the scenarios
collected by features/test_features.py find them."""

from __future__ import annotations

from datetime import datetime, timedelta

from features.alarms.steps import DEVICES
from pytest_bdd import given, parsers, then, when
from tests.support.alarms import alarms, device_id

from core.telemetry.model import Position, Reading
from core.telemetry.use_cases import StoreReadings

W, Q, FENCE = "/device/Waybill", "/device/QuickSearch", "/device/DeviceFence"
STATES = {"not started": 0, "in progress": 1, "finished": 2}
PRIVATE = ("13800000001", "1 Dock Road", "13900000002", "9 Pharmacy Lane")
VALIDITIES = {"8 hours": "8h", "1 day": "1d", "3 days": "3d", "7 days": "7d"}


def _waybill(api, world, user, number) -> dict:
    page = api.call("POST", f"{W}/page", token=world["tokens"][user], json={"keyword": number})
    assert page.status == 200, page.body
    [found] = [w for w in page.data["data"] if w["orderNum"] == number]
    return found


def _state(api, world, user, number, state) -> object:
    return api.call("POST", f"{W}/updateState", token=world["tokens"][user], json={
        "id": _waybill(api, world, user, number)["id"], "state": STATES[state]})


@given(parsers.parse("{user} has made the waybill {number} for the {name} with limits {low:g} to {high:g} °C"))
def _made(api, container, world, user, number, name, low, high):
    token = world["tokens"][user]
    made = api.call("POST", f"{W}/insert", token=token, json={
        "orderNum": number, "goodsName": "Vaccines", "lowerLimit": low, "upperLimit": high, "senderName": "Ann",
        "senderPhone": PRIVATE[0], "senderAddress": PRIVATE[1], "receiverName": "Clinic",
        "receiverPhone": PRIVATE[2], "receiverAddress": PRIVATE[3]})
    assert made.status == 200, made.body
    bound = api.call("POST", f"{W}/batchBind", token=token, json={
        "id": made.data["id"], "deviceIds": [device_id(container, DEVICES[name])]})
    assert bound.status == 200, bound.body


@given(parsers.parse("{user} has started the waybill {number}"))
@when(parsers.parse("{user} starts the waybill {number}"))
def _starts(api, world, user, number):
    reply = _state(api, world, user, number, "in progress")
    assert reply.status == 200, reply.body


@when(parsers.parse("{user} finishes the waybill {number}"))
def _finishes(api, world, user, number):
    reply = _state(api, world, user, number, "finished")
    assert reply.status == 200, reply.body


@when(parsers.parse("{count:d} minutes pass"))
def _minutes_pass(clock, count):
    clock.advance(minutes=count)


@when(parsers.parse("{count:d} hours pass"))
def _hours_pass(clock, count):
    clock.advance(hours=count)


@when(parsers.parse("{user} shares the waybill {number} for {validity}"))
def _shares(api, world, user, number, validity):
    reply = api.call("POST", f"{W}/share", token=world["tokens"][user], json={
        "id": _waybill(api, world, user, number)["id"], "validity": VALIDITIES[validity]})
    assert reply.status == 200, reply.body
    world["link"] = reply.data


@when(parsers.parse("{user} revokes the link"))
def _revokes(api, world, user):
    reply = api.call("POST", f"{W}/shareRevoke", token=world["tokens"][user],
                     json={"shareId": world["link"]["shareId"]})
    assert reply.status == 200, reply.body


@when(parsers.parse("someone looks up the waybill number {number}"))
def _looks_up(api, world, number):
    world["lookup"] = api.call("GET", f"{Q}/waybill", query={"number": number})


@then(parsers.parse("the waybill {number} is {state}"))
def _is(api, world, number, state):
    assert _waybill(api, world, "alice", number)["state"] == STATES[state]


@then(parsers.parse("{user} cannot start the waybill {number} again"))
def _cannot_start(api, world, user, number):
    reply = _state(api, world, user, number, "in progress")
    assert (reply.status, reply.code) == (409, 2101)


def _shows_trip(reply, number) -> None:
    assert reply.status == 200, reply.body
    assert not any(secret in str(reply.body) for secret in PRIVATE)
    trips = reply.data.get("waybills", [reply.data])
    assert [t["orderNum"] for t in trips] == [number]


@then(parsers.parse("the receiver opening the link sees the trip of {number} without phones or addresses"))
def _receiver_sees(api, world, number):
    _shows_trip(api.call("GET", f"{Q}/share", query={"token": world["link"]["token"]}), number)


@then("the receiver opening the link is told it has expired or been revoked")
def _receiver_refused(api, world):
    reply = api.call("GET", f"{Q}/share", query={"token": world["link"]["token"]})
    assert (reply.status, reply.code) == (404, 2106)


@then(parsers.parse("they see the trip of {number} without phones or addresses"))
def _they_see(world, number):
    _shows_trip(world["lookup"], number)


@then("they see no trip")
def _no_trip(world):
    assert (world["lookup"].status, world["lookup"].data) == (200, {"waybills": []})


# --- geofences (fences.feature) ---------------------------------------------------------------------

TRUCK = "LOGET8A0000001"
DEPOT, CLINIC, M_PER_DEG = (31.23, 121.47), (31.33, 121.47), 111_195.0


def _fence(api, token, name, place) -> int:
    reply = api.call("POST", f"{FENCE}/insert", token=token, json={"name": name, "areas": [
        {"shape": "circle", "lat": place[0], "lon": place[1], "radius": 500}]})
    assert reply.status == 200, reply.body
    return reply.data["id"]


@given("alice has drawn a depot fence and a clinic fence 11 km north of it")
def _depot_and_clinic(api, world):
    token = world["tokens"]["alice"]
    world["fences"] = {"depot": _fence(api, token, "Depot", DEPOT), "clinic": _fence(api, token, "Clinic", CLINIC)}


@given(parsers.parse("alice has made the waybill {number} for her truck logger from the depot to the clinic "
                     "with limits {low:g} to {high:g} °C"))
def _fenced_waybill(api, container, world, number, low, high):
    token = world["tokens"]["alice"]
    made = api.call("POST", f"{W}/insert", token=token, json={
        "orderNum": number, "lowerLimit": low, "upperLimit": high,
        "originFenceId": world["fences"]["depot"], "destinationFenceId": world["fences"]["clinic"]})
    assert made.status == 200, made.body
    bound = api.call("POST", f"{W}/batchBind", token=token, json={  # watches the truck against both
        "id": made.data["id"], "deviceIds": [device_id(container, TRUCK)]})
    assert bound.status == 200, bound.body


def _drive(container, world, fixes: list[tuple[tuple[float, float], float]]) -> None:
    """The truck logger's readings a minute apart after the last ones: (place, °C) each."""
    truck = device_id(container, TRUCK)
    start = world.get("next_fix") or container.clock().now() + timedelta(minutes=1)
    readings = [Reading(truck, start + timedelta(minutes=i), t, None, position=Position(lat, lon, 5.0))
                for i, ((lat, lon), t) in enumerate(fixes)]
    world.setdefault("fixes", []).extend(r.ts for r in readings)
    world["next_fix"] = start + timedelta(minutes=len(fixes))
    StoreReadings(container.uow(), container.clock(), container.evaluate_alarms(), container.detect_crossings())(
        readings)


@when(parsers.parse("the truck logger reports 3 fixes in the depot, then 3 fixes 2 km north of it at {t:g} °C"))
def _departs(container, world, t):
    north = (DEPOT[0] + 2000 / M_PER_DEG, DEPOT[1])
    _drive(container, world, [(DEPOT, 5.0)] * 3 + [(north, t)] * 3)


@when("the truck logger reports 3 fixes in the clinic")
def _arrives(container, world):
    _drive(container, world, [(CLINIC, 5.0)] * 3)


@then(parsers.parse("the trip of {number} started at the first fix north of the depot"))
def _started_there(api, world, number):
    found = _waybill(api, world, "alice", number)
    assert found["state"] == STATES["in progress"]
    assert datetime.fromisoformat(found["startedAt"]) == world["fixes"][3]


@then(parsers.parse("the trip of {number} finished at the first fix in the clinic"))
def _finished_there(api, world, number):
    found = _waybill(api, world, "alice", number)
    assert found["state"] == STATES["finished"]
    assert datetime.fromisoformat(found["finishedAt"]) == world["fixes"][6]


@then(parsers.parse("the waybill {number} counts 1 alarm, from the first fix north of the depot"))
def _departure_alarm(api, container, world, number):
    found = _waybill(api, world, "alice", number)
    count = api.call("GET", f"{W}/alarmCount", token=world["tokens"]["alice"], query={"id": found["id"]})
    assert count.data["alarmCount"] == 1, count.body
    [alarm] = alarms(container, TRUCK)
    assert alarm.started_at == world["fixes"][3]


@given("bob has drawn a yard fence of his own")
def _bobs_yard(api, world):
    world["tokens"]["bob"] = api.token("bob")
    world["fences"]["yard"] = _fence(api, world["tokens"]["bob"], "Yard", (31.3, 121.5))


@when("alice makes a waybill from bob's yard fence")
def _from_bobs(api, world):
    world["replies"].append(api.call("POST", f"{W}/insert", token=world["tokens"]["alice"], json={
        "orderNum": "WB-X", "originFenceId": world["fences"]["yard"]}))
