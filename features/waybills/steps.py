"""Steps of features/waybills/*.feature, imported by features/conftest.py so that the scenarios
collected by features/test_features.py find them."""

from __future__ import annotations

from features.alarms.steps import DEVICES
from pytest_bdd import given, parsers, then, when
from tests.support.alarms import device_id

W, Q = "/device/Waybill", "/device/QuickSearch"
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
