"""Alarm rules and the message centre over the API (spec seed 001 sections 3-5, 8), each call
scoped to the caller's devices."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from adapters.persistence.models import DeviceRow
from core.alarms.commands import AddAlarmRule
from tests.support.alarms import COLD_ROOM_A, FRIDGE, TRUCK, WAREHOUSE, alarms, device_id, report

pytestmark = pytest.mark.usefixtures("demo")

RULES = "/device/DeviceAlarmRule"
ALARMS = "/device/DeviceAlarm"


def humidity_rule(device: int, **changes) -> dict:
    body = {"deviceId": device, "probe": "h", "name": "Truck humidity", "upperLimit": 80.0, "lowerLimit": 20.0,
            "delaySeconds": 600, "level1Minutes": 0, "level2Minutes": 10, "level3Minutes": 20, "enabled": True,
            "recipients": [{"level": 1, "name": "Alice", "phone": "13800000001", "email": "alice@example.com"},
                           {"level": 3, "name": "Boss", "email": "boss@example.com", "voice": False}]}
    body.update(changes)
    return body


def ok(reply):
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


@pytest.fixture
def alice(api):
    return api.token("alice")


@pytest.fixture
def raised(container, clock):
    """Alarms on alice's fridge and on acme's warehouse cold room (2-8 °C added for it)."""
    start = clock.now() - timedelta(minutes=10)
    report(container, FRIDGE, start, (0, 9.0), (5, 9.5))
    container.create_alarm_rule()(AddAlarmRule(
        account_id=_owner(container, WAREHOUSE), device_id=device_id(container, WAREHOUSE), probe="t",
        name="Warehouse", upper_limit=8.0, lower_limit=2.0))
    report(container, WAREHOUSE, start, (0, 12.0))
    return {a.device_id: a.id for a in alarms(container)}


def _owner(container, guid):
    with container.session_factory()() as session:
        return session.scalar(select(DeviceRow.owner_account_id).where(DeviceRow.guid == guid))


# --- rules -------------------------------------------------------------------------------------


def test_a_customer_adds_reads_changes_and_deletes_a_rule_of_her_device(api, container, alice):
    truck = device_id(container, TRUCK)
    created = ok(api.call("POST", f"{RULES}/insert", token=alice, json=humidity_rule(truck)))
    assert created["id"] > 0 and created["deviceGuid"] == TRUCK and created["deviceName"] == "Truck 12 tracker"
    assert [r["level"] for r in created["recipients"]] == [1, 3]
    assert created["recipients"][1] == {"level": 3, "name": "Boss", "phone": None, "email": "boss@example.com",
                                        "voice": False, "language": None}
    got = ok(api.call("GET", f"{RULES}/get", token=alice, query={"id": created["id"]}))
    assert got == created
    page = ok(api.call("POST", f"{RULES}/page", token=alice, json={"deviceId": truck}))
    assert page["totalCount"] == 1 and page["data"][0]["id"] == created["id"]
    everything = ok(api.call("POST", f"{RULES}/page", token=alice, json={"pageSize": 50}))
    assert everything["totalCount"] == 5  # four demo rules and this one
    assert ok(api.call("POST", f"{RULES}/page", token=alice, json={"probe": "h"}))["totalCount"] == 1
    changed = ok(api.call("PUT", f"{RULES}/update", token=alice, json={
        **humidity_rule(truck, upperLimit=75.0, level3Minutes=None, recipients=[
            {"level": 2, "name": "Alice", "phone": "13800000001", "voice": True}]),
        "id": created["id"]}))
    assert (changed["upperLimit"], changed["level3Minutes"]) == (75.0, None)
    assert changed["recipients"] == [{"level": 2, "name": "Alice", "phone": "13800000001", "email": None,
                                      "voice": True, "language": None}]
    assert ok(api.call("DELETE", f"{RULES}/delete", token=alice, query={"id": created["id"]})) is None
    gone = api.call("GET", f"{RULES}/get", token=alice, query={"id": created["id"]})
    assert (gone.status, gone.code) == (404, 404)


@pytest.mark.parametrize("changes,field,message", [
    ({"level2Minutes": 0}, "level2Minutes", "Graded alarm times wrongly set"),
    ({"level3Minutes": 10}, "level3Minutes", "Graded alarm times wrongly set"),
    ({"level2Minutes": None}, "level3Minutes", "Graded alarm times wrongly set"),
    ({"name": "n" * 101}, "name", None),
    ({"upperLimit": 10.0, "lowerLimit": 30.0}, "upperLimit", "The upper limit must be above the lower limit"),
    ({"upperLimit": None, "lowerLimit": None}, "upperLimit", "Set an upper limit, a lower limit or both"),
    ({"recipients": [{"level": 1, "name": "", "phone": "13800000001"}]}, "recipients", None),
    ({"recipients": [{"level": 1, "name": "A", "phone": "12345"}]}, "recipients", None),
    ({"recipients": [{"level": 1, "name": "A"}]}, "recipients.0.phone", "Enter a phone number or an e-mail address"),
    ({"recipients": [{"level": 1, "name": "A", "email": "a@x.com"}, {"level": 2, "name": "B", "email": "A@x.com"}]},
     "recipients.1.email", "This e-mail address is already a recipient of the rule"),
    ({"recipients": [{"level": 1, "name": "A", "phone": "13800000001"},
                     {"level": 2, "name": "B", "phone": "13800000001"}]},
     "recipients.1.phone", "This phone number is already a recipient of the rule"),
    ({"probe": "x"}, "probe", None),
    ({"unknown": 1}, "unknown", None),
])
def test_rules_are_validated_as_the_spec_says(api, container, alice, changes, field, message):
    reply = api.call("POST", f"{RULES}/insert", token=alice, json=humidity_rule(device_id(container, TRUCK),
                                                                                 **changes))
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert field in reply.body["errors"]
    if message:
        assert reply.body["errors"][field] == [message]


def test_the_graded_times_message_is_translated(api, container, alice):
    api.language = "zh-CN"
    reply = api.call("POST", f"{RULES}/insert", token=alice,
                     json=humidity_rule(device_id(container, TRUCK), level2Minutes=0))
    assert reply.status == 422 and reply.body["errors"]["level2Minutes"] != ["Graded alarm times wrongly set"]


def test_one_rule_per_probe_of_a_device(api, container, alice):
    reply = api.call("POST", f"{RULES}/insert", token=alice,
                     json=humidity_rule(device_id(container, FRIDGE), probe="t", upperLimit=8.0, lowerLimit=2.0))
    assert (reply.status, reply.code) == (409, 1010)


def test_the_device_and_probe_of_a_rule_stay(api, container, alice):
    created = ok(api.call("POST", f"{RULES}/insert", token=alice, json=humidity_rule(device_id(container, TRUCK))))
    reply = api.call("PUT", f"{RULES}/update", token=alice,
                     json={**humidity_rule(device_id(container, TRUCK), probe="t"), "id": created["id"]})
    assert reply.status == 422 and "probe" in reply.body["errors"]


def test_another_customer_s_device_and_rules_are_answered_as_unknown_ones(api, container, alice):
    acme = api.token("acme")
    fridge = device_id(container, FRIDGE)
    reply = api.call("POST", f"{RULES}/insert", token=acme, json=humidity_rule(fridge))
    assert (reply.status, reply.code) == (404, 404)
    rule_id = ok(api.call("POST", f"{RULES}/page", token=alice, json={"deviceId": fridge}))["data"][0]["id"]
    for method, path, kwargs in (
            ("GET", "get", {"query": {"id": rule_id}}),
            ("DELETE", "delete", {"query": {"id": rule_id}}),
            ("PUT", "update", {"json": {**humidity_rule(fridge, probe="t"), "id": rule_id}}),
            ("POST", "page", {"json": {"deviceId": fridge}})):
        reply = api.call(method, f"{RULES}/{path}", token=acme, **kwargs)
        assert (reply.status, reply.body) == (404, {"code": 404, "msg": "Not found", "data": None}), path
    assert ok(api.call("POST", f"{RULES}/page", token=acme, json={}))["totalCount"] == 0
    missing = api.call("POST", f"{RULES}/insert", token=alice, json=humidity_rule(999_999))
    assert (missing.status, missing.code) == (404, 404)
    assert api.call("GET", f"{RULES}/get", token=alice, query={"id": rule_id}).status == 200


def test_organization_members_only_read_the_organization_s_rules(api, container):
    bob = api.token("bob")
    refused = api.call("POST", f"{RULES}/insert", token=bob, json=humidity_rule(device_id(container, WAREHOUSE)))
    assert (refused.status, refused.code, refused.body["msg"]) == (403, 403, "You have read-only access to this device")
    created = api.call("POST", f"{RULES}/insert", token=api.token("acme"),
                       json=humidity_rule(device_id(container, WAREHOUSE)))
    assert ok(api.call("GET", f"{RULES}/get", token=bob, query={"id": ok(created)["id"]}))["deviceGuid"] == WAREHOUSE
    operator = api.token("operator")
    assert api.call("POST", f"{RULES}/page", token=operator, json={}).status == 403  # no device permissions


# --- the message centre ------------------------------------------------------------------------


def test_the_alarm_list_shows_the_caller_s_alarms_newest_first(api, container, alice, raised, clock):
    data = ok(api.call("POST", f"{ALARMS}/page", token=alice, json={}))
    assert data["totalCount"] == 1
    [row] = data["data"]
    assert (row["deviceName"], row["deviceGuid"], row["probe"], row["kind"]) == (
        "Vaccine fridge logger", FRIDGE, "t", 1)
    assert (row["limitValue"], row["value"], row["extremeValue"], row["level"], row["state"]) == (8.0, 9.5, 9.5, 1, 0)
    assert row["handling"] is None and row["result"] is None and row["endedAt"] is None
    assert row["raisedAt"].endswith("+08:00")  # Asia/Shanghai, the domestic edition's zone
    utc = api.call("POST", f"{ALARMS}/page", token=alice, json={}, headers={"X-Time-Zone": "UTC"}).data
    assert utc["data"][0]["raisedAt"].endswith("+00:00")
    acme = ok(api.call("POST", f"{ALARMS}/page", token=api.token("acme"), json={}))
    bob = ok(api.call("POST", f"{ALARMS}/page", token=api.token("bob"), json={}))
    assert [r["deviceGuid"] for r in acme["data"]] == [r["deviceGuid"] for r in bob["data"]] == [WAREHOUSE]


def test_each_alarm_says_whether_the_caller_may_handle_it(api, container, alice, raised):
    """bob, a member of acme's organization, reads its alarms but may not handle them (access 1),
    so the message centre does not offer him Deal; the owner and the organization's creator may."""
    access = lambda token: {r["deviceGuid"]: r["access"]  # noqa: E731
                            for r in ok(api.call("POST", f"{ALARMS}/page", token=token, json={}))["data"]}
    assert access(alice) == {FRIDGE: 2}
    assert access(api.token("acme")) == {WAREHOUSE: 2}
    assert access(api.token("bob")) == {WAREHOUSE: 1}
    handled = ok(api.call("POST", f"{ALARMS}/deal", token=alice, json={"id": raised[device_id(container, FRIDGE)],
                                                                         "handling": 1}))
    assert handled["access"] == 2


def test_the_alarm_list_filters_by_device_state_and_time(api, container, alice, raised, clock):
    start = clock.now() - timedelta(minutes=10)
    report(container, COLD_ROOM_A, start, (0, 1.0), (6, 1.0))
    everything = ok(api.call("POST", f"{ALARMS}/page", token=alice, json={}))["data"]
    assert [r["deviceGuid"] for r in everything] == [COLD_ROOM_A, FRIDGE]  # raised at minute 6, then 5
    fridge = device_id(container, FRIDGE)
    only = ok(api.call("POST", f"{ALARMS}/page", token=alice, json={"deviceId": fridge}))
    assert [r["deviceGuid"] for r in only["data"]] == [FRIDGE]
    assert ok(api.call("POST", f"{ALARMS}/page", token=alice, json={"state": 1}))["totalCount"] == 0
    raised_fridge = (start + timedelta(minutes=5)).astimezone().isoformat()
    after = ok(api.call("POST", f"{ALARMS}/page", token=alice,
                        json={"startTime": (start + timedelta(minutes=5, seconds=30)).isoformat()}))
    assert [r["deviceGuid"] for r in after["data"]] == [COLD_ROOM_A]
    before = ok(api.call("POST", f"{ALARMS}/page", token=alice, json={"endTime": raised_fridge}))
    assert before["totalCount"] == 0
    local = (start + timedelta(minutes=5, seconds=30)).astimezone(ZoneInfo("Asia/Shanghai"))
    naive = ok(api.call("POST", f"{ALARMS}/page", token=alice,
                        json={"endTime": local.replace(tzinfo=None).isoformat()}))  # read in X-Time-Zone
    assert [r["deviceGuid"] for r in naive["data"]] == [FRIDGE]
    oldest = ok(api.call("POST", f"{ALARMS}/page", token=alice, json={"sortOrder": "asc", "pageSize": 1}))
    assert oldest["totalCount"] == 2 and [r["deviceGuid"] for r in oldest["data"]] == [FRIDGE]
    acme = api.call("POST", f"{ALARMS}/page", token=api.token("acme"), json={"deviceId": fridge})
    assert (acme.status, acme.body["data"]) == (404, None)


def test_an_alarm_is_handled_once(api, container, alice, raised):
    fridge_alarm = raised[device_id(container, FRIDGE)]
    assert ok(api.call("GET", f"{ALARMS}/count", token=alice)) == 1
    row = ok(api.call("POST", f"{ALARMS}/deal", token=alice,
                      json={"id": fridge_alarm, "handling": 1, "result": "Door closed, stock checked"}))
    assert (row["state"], row["handling"], row["result"]) == (1, 1, "Door closed, stock checked")
    assert row["handledAt"] is not None and row["handledBy"] == "alice"
    assert (row["temperatureUnit"], row["displayPrecision"]) == ("C", 1)
    again = api.call("POST", f"{ALARMS}/deal", token=alice, json={"id": fridge_alarm, "handling": 2, "result": "x"})
    assert (again.status, again.code, again.body["msg"]) == (409, 1011, "This alarm has already been handled")
    assert ok(api.call("GET", f"{ALARMS}/count", token=alice)) == 0
    treated = ok(api.call("POST", f"{ALARMS}/page", token=alice, json={"state": 1}))["data"]
    assert [(r["id"], r["handling"], r["handledBy"]) for r in treated] == [(fridge_alarm, 1, "alice")]
    untreated = ok(api.call("POST", f"{ALARMS}/page", token=alice, json={"state": 0}))["data"]
    assert all(r["handledBy"] is None for r in untreated)


def test_handling_is_checked(api, container, alice, raised):
    fridge_alarm = raised[device_id(container, FRIDGE)]
    too_long = api.call("POST", f"{ALARMS}/deal", token=alice, json={"id": fridge_alarm, "handling": 1,
                                                                      "result": "r" * 51})
    assert too_long.status == 422 and "result" in too_long.body["errors"]
    wrong = api.call("POST", f"{ALARMS}/deal", token=alice, json={"id": fridge_alarm, "handling": 4})
    assert wrong.status == 422 and "handling" in wrong.body["errors"]
    acme = api.call("POST", f"{ALARMS}/deal", token=api.token("acme"), json={"id": fridge_alarm, "handling": 1})
    assert (acme.status, acme.code, acme.body["data"]) == (404, 404, None)
    unknown = api.call("POST", f"{ALARMS}/deal", token=alice, json={"id": 999_999, "handling": 1})
    assert (unknown.status, unknown.code) == (404, 404)
    deferred = ok(api.call("POST", f"{ALARMS}/deal", token=alice, json={"id": fridge_alarm, "handling": 3}))
    assert (deferred["state"], deferred["handling"], deferred["result"], deferred["deferralCount"]) == (
        2, None, None, 1)


def test_the_badge_counts_the_caller_s_untreated_alarms(api, raised):
    assert ok(api.call("GET", f"{ALARMS}/count", token=api.token("alice"))) == 1
    assert ok(api.call("GET", f"{ALARMS}/count", token=api.token("bob"))) == 1
    assert ok(api.call("GET", f"{ALARMS}/count", token=api.token("operator"))) == 0
    assert api.call("GET", f"{ALARMS}/count").status == 401


def test_the_alarm_calls_document_their_refusals(api):
    spec = api.client.get("/api/openapi.json").get_json()
    assert "- 1010:" in spec["info"]["description"] and "- 1011:" in spec["info"]["description"]
    assert "1011" in spec["paths"]["/api/device/DeviceAlarm/deal"]["post"]["responses"]["409"]["description"]
    assert "1010" in spec["paths"]["/api/device/DeviceAlarmRule/insert"]["post"]["responses"]["409"]["description"]
    for path, item in spec["paths"].items():
        if "/DeviceAlarm" in path and not path.endswith("/count"):
            for operation in item.values():
                assert {"403", "404", "422"} <= set(operation["responses"]), path
