"""Alarm push settings over the API (DeviceAlarmPushSetting), scoped to the caller's devices, and
quiet hours on the alarm notification path; attacked with strangers, read-only members and
hostile values."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from tests.support.alarms import FRIDGE, TRUCK, WAREHOUSE, device_id, report, sent

pytestmark = pytest.mark.usefixtures("demo")

PUSH = "/device/DeviceAlarmPushSetting"
RULES = "/device/DeviceAlarmRule"


def setting(device: int, **changes) -> dict:
    body = {"deviceId": device, "smsKinds": [1, 2], "voiceKinds": [1], "emailKinds": [1, 2],
            "quietStart": "22:00", "quietEnd": "07:00", "timeZone": "Asia/Shanghai"}
    body.update(changes)
    return body


def ok(reply):
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


@pytest.fixture
def alice(api):
    return api.token("alice")


def test_a_device_without_settings_answers_the_defaults_and_alice_replaces_them(api, container, alice):
    fridge = device_id(container, FRIDGE)
    assert ok(api.call("GET", f"{PUSH}/get", token=alice, query={"deviceId": fridge})) == {
        "deviceId": fridge, "smsKinds": [1, 2], "voiceKinds": [1, 2], "emailKinds": [1, 2], "quietStart": None,
        "quietEnd": None, "timeZone": "UTC", "stored": False, "access": 2}
    saved = ok(api.call("PUT", f"{PUSH}/update", token=alice, json=setting(fridge)))
    assert saved == {**setting(fridge), "stored": True, "access": 2}
    assert ok(api.call("GET", f"{PUSH}/get", token=alice, query={"deviceId": fridge})) == saved
    cleared = ok(api.call("PUT", f"{PUSH}/update", token=alice,
                          json=setting(fridge, quietStart=None, quietEnd=None, voiceKinds=[])))
    assert (cleared["quietStart"], cleared["quietEnd"], cleared["voiceKinds"]) == (None, None, [])


def _get(api, token, device):
    return api.call("GET", f"{PUSH}/get", token=token, query={"deviceId": device})


def test_a_stranger_sees_and_changes_nothing(api, container, alice):
    fridge = device_id(container, FRIDGE)
    acme = api.token("acme")
    for reply in (_get(api, acme, fridge), api.call("PUT", f"{PUSH}/update", token=acme, json=setting(fridge)),
                  _get(api, alice, 999_999)):
        assert (reply.status, reply.body) == (404, {"code": 404, "msg": "Not found", "data": None})
    assert ok(_get(api, alice, fridge))["stored"] is False


def test_a_read_only_organization_member_reads_but_may_not_change(api, container):
    warehouse = device_id(container, WAREHOUSE)
    bob = api.token("bob")
    assert ok(_get(api, bob, warehouse))["access"] == 1
    refused = api.call("PUT", f"{PUSH}/update", token=bob, json=setting(warehouse))
    assert (refused.status, refused.code) == (403, 403)
    assert ok(_get(api, api.token("acme"), warehouse))["stored"] is False


@pytest.mark.parametrize(("changes", "field"), [
    ({"quietStart": "22:00", "quietEnd": None}, "quietEnd"),
    ({"quietStart": "07:00", "quietEnd": "07:00"}, "quietEnd"),
    ({"quietStart": "24:00"}, "quietStart"),
    ({"quietStart": "7:00"}, "quietStart"),
    ({"quietStart": "22:00\ud800"}, "quietStart"),
    ({"timeZone": "Mars/Olympus"}, "timeZone"),
    ({"timeZone": "../../../etc/passwd"}, "timeZone"),
    ({"timeZone": "Asia/\ud800"}, "timeZone"),
    ({"timeZone": "x" * 10_000}, "timeZone"),
    ({"smsKinds": [3]}, "smsKinds"),
    ({"smsKinds": [1] * 10_000}, "smsKinds"),
    ({"emailKinds": "1,2"}, "emailKinds"),
    ({"voiceKinds": [float("nan")]}, "_schema"),  # NaN is refused with the body, before any field
    ({"deviceId": 10**30}, "_schema"),  # a number too long to be read at all
    ({"deviceId": 2**40}, "deviceId"),
])
def test_hostile_values_are_refused_by_field_and_nothing_changes(api, container, alice, changes, field):
    fridge = device_id(container, FRIDGE)
    reply = api.call("PUT", f"{PUSH}/update", token=alice, json=setting(fridge, **changes))
    assert 400 <= reply.status < 500 and reply.status != 404, reply.body
    assert field in (reply.body.get("errors") or {}), reply.body
    assert ok(_get(api, alice, fridge))["stored"] is False


def test_the_refusals_are_translated(api, container, alice):
    api.language = "zh-CN"
    reply = api.call("PUT", f"{PUSH}/update", token=alice,
                     json=setting(device_id(container, FRIDGE), quietEnd=None))
    assert reply.status == 422
    assert reply.body["errors"]["quietEnd"] != ["Set both the start and the end of the quiet hours, or neither"]


@pytest.mark.parametrize(("changes", "field"), [
    ({"upperLimit": float("nan")}, "_schema"),
    ({"upperLimit": 1e308 * 10}, "_schema"),  # infinity
    ({"lowerLimit": -1e300}, "lowerLimit"),
    ({"delaySeconds": 2**63}, "delaySeconds"),
    ({"name": "\ud800"}, "name"),
    ({"recipients": [{"level": 1, "name": f"R{i}", "email": f"r{i}@example.com"} for i in range(10_000)]},
     "recipients"),
])
def test_hostile_rule_values_are_refused_and_nothing_is_added(api, container, alice, changes, field):
    truck = device_id(container, TRUCK)
    body = {"deviceId": truck, "probe": "h", "name": "Truck", "upperLimit": 80.0, "lowerLimit": 20.0, **changes}
    reply = api.call("POST", f"{RULES}/insert", token=alice, json=body)
    assert 400 <= reply.status < 500, reply.body
    assert field in (reply.body.get("errors") or {}), reply.body
    assert ok(api.call("POST", f"{RULES}/page", token=alice, json={"deviceId": truck}))["totalCount"] == 0


def test_an_alarm_in_quiet_hours_calls_nobody_and_texts_only_whom_no_e_mail_reaches(api, container, alice, clock):
    """The demo fridge alerts alice (SMS and e-mail) at level 1; in quiet hours she gets the e-mail only."""
    fridge = device_id(container, FRIDGE)
    local = clock.now().astimezone(ZoneInfo("Asia/Shanghai"))
    around_now = setting(fridge, quietStart=(local - timedelta(hours=1)).strftime("%H:%M"),
                         quietEnd=(local + timedelta(hours=1)).strftime("%H:%M"))
    ok(api.call("PUT", f"{PUSH}/update", token=alice, json=around_now))
    report(container, FRIDGE, clock.now() - timedelta(minutes=10), (0, 9.0), (5, 10.0))
    assert sent(container) == [("email", "alice@example.com")]


def test_outside_quiet_hours_the_alarm_goes_out_as_before(api, container, alice, clock):
    fridge = device_id(container, FRIDGE)
    local = clock.now().astimezone(ZoneInfo("Asia/Shanghai"))
    later = setting(fridge, quietStart=(local + timedelta(hours=2)).strftime("%H:%M"),
                    quietEnd=(local + timedelta(hours=3)).strftime("%H:%M"))
    ok(api.call("PUT", f"{PUSH}/update", token=alice, json=later))
    report(container, FRIDGE, clock.now() - timedelta(minutes=10), (0, 9.0), (5, 10.0))
    assert sent(container) == [("phone", "13800000001"), ("email", "alice@example.com")]
