"""The device detail's parameter settings, operation log and maintenance tabs (issue 16), through
the API on SQLite and PostgreSQL with the demo data: acme owns CR2B000000001, bob is a read-only
member of its organization, alice a stranger to it. Commands go to the machine's Mosquitto under
a topic prefix of the test's own, where a listener stands in for the device."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from dependency_injector import providers
from sqlalchemy import func, select

from adapters.messaging.command_channel import MqttCommandChannel
from adapters.persistence.models import DeviceCommandRow, DeviceEventRow, DeviceMaintenanceRow
from core.devices.device_commands import CommandAnswer
from entrypoints.api.devices import detail_schemas as s
from entrypoints.api.framework import envelope, page_of
from tests.support.alarms import device_id
from tests.support.api import ok
from tests.support.mosquitto import free_port
from tests.support.mqtt import require_mosquitto, unique, wait_until

pytestmark = pytest.mark.usefixtures("demo")

PARAMS_GET, PARAMS_SAVE = "/device/DeviceParam/get", "/device/DeviceParam/save"
LOG = "/device/DeviceOperationLog/page"
M_PAGE, M_INSERT, M_UPDATE, M_DELETE = ("/device/DeviceMaintenance/page", "/device/DeviceMaintenance/insert",
                                        "/device/DeviceMaintenance/update", "/device/DeviceMaintenance/delete")
ACME_DEVICE = "CR2B000000001"
PARAMS = {"displayPrecision": 2, "temperatureUnit": "F", "uploadInterval": 600, "recordInterval": 120}
RECORD = {"maintainDate": "2026-01-15", "person": "Li Wei", "approver": "Zhang", "reason": "Door seal worn",
          "content": "Replaced the door seal and checked the compressor", "standard": "GSP 2016",
          "result": "Holds 2-8 °C"}


def count(container, row, **where) -> int:
    with container.session_factory()() as session:
        query = select(func.count()).select_from(row)
        for name, value in where.items():
            query = query.where(getattr(row, name) == value)
        return session.scalar(query)


class DeviceListener:
    """Stands in for devices on the machine's Mosquitto: what is sent on their command topics."""

    def __init__(self, url: str, prefix: str) -> None:
        from tests.support.mqtt import Publisher

        self.prefix = prefix
        self.received: list[tuple[str, dict]] = []
        self._publisher = Publisher(url)
        client = self._publisher.client
        client.on_message = lambda _c, _u, m: self.received.append((m.topic, json.loads(m.payload)))
        subscribed = []
        client.on_subscribe = lambda *_args: subscribed.append(True)
        client.subscribe(f"{prefix}devices/+/commands", qos=1)
        wait_until(lambda: subscribed, 10, "the listener's subscription")

    def close(self) -> None:
        self._publisher.close()


@pytest.fixture
def devices_side(container):
    url = require_mosquitto()
    prefix = unique("test-tabs-") + "/"
    container.command_channel.override(providers.Object(MqttCommandChannel(url, None, None, prefix)))
    listener = DeviceListener(url, prefix)
    yield listener
    listener.close()
    container.command_channel.reset_override()


def test_saved_params_are_kept_sent_as_a_command_and_settled_by_the_device_s_answer(api, container, clock,
                                                                                      devices_side):
    token, target = api.token("acme"), device_id(container, ACME_DEVICE)
    before = ok(api.call("GET", PARAMS_GET, token=token, query={"deviceId": target}))
    assert (before["state"], before["acknowledged"], before["access"]) == (None, None, 2)
    assert before["desired"]["uploadInterval"] == 300

    reply = api.call("POST", PARAMS_SAVE, token=token, json={"deviceId": target, **PARAMS})
    saved = ok(reply)
    envelope(s.ParamsStateSchema)().load(reply.body)
    assert (saved["state"], saved["desired"], saved["acknowledged"]) == ("pending", PARAMS, None)
    wait_until(lambda: devices_side.received, 10, "the command on the device's topic")
    topic, command = devices_side.received[0]
    assert topic == f"{devices_side.prefix}devices/{ACME_DEVICE}/commands"
    assert command == {"id": saved["commandId"], "type": "params", "guid": ACME_DEVICE, **PARAMS}
    # the display settings are the console's at once
    shown = ok(api.call("GET", "/device/Device/get", token=token, query={"deviceId": target}))
    assert (shown["displayPrecision"], shown["temperatureUnit"]) == (2, "F")

    # another device's answer with this id settles nothing; the device's own does
    answers = container.record_command_answers()
    assert answers([CommandAnswer("CR2A000000001", saved["commandId"], True)]) == 0
    assert answers([CommandAnswer(ACME_DEVICE, saved["commandId"], True)]) == 1
    assert answers([CommandAnswer(ACME_DEVICE, saved["commandId"], False, "late")]) == 0  # settled once
    after = ok(api.call("GET", PARAMS_GET, token=token, query={"deviceId": target}))
    assert (after["state"], after["acknowledged"], after["error"]) == ("acknowledged", PARAMS, None)
    assert after["answeredAt"] is not None


def test_a_command_the_device_does_not_answer_is_shown_as_not_answered_and_a_refusal_as_failed(
        api, container, clock, devices_side):
    token, target = api.token("acme"), device_id(container, ACME_DEVICE)
    first = ok(api.call("POST", PARAMS_SAVE, token=token, json={"deviceId": target, **PARAMS}))
    clock.advance(seconds=61)
    assert ok(api.call("GET", PARAMS_GET, token=token, query={"deviceId": target}))["state"] == "notAnswered"

    second = ok(api.call("POST", PARAMS_SAVE, token=token, json={"deviceId": target, **PARAMS, "uploadInterval": 900}))
    assert second["state"] == "pending" and second["commandId"] != first["commandId"]
    refusal = CommandAnswer(ACME_DEVICE, second["commandId"], False, "interval not supported")
    container.record_command_answers()([refusal])
    failed = ok(api.call("GET", PARAMS_GET, token=token, query={"deviceId": target}))
    assert (failed["state"], failed["error"], failed["acknowledged"]) == ("failed", "interval not supported", None)
    assert failed["desired"]["uploadInterval"] == 900


def test_a_command_the_broker_cannot_take_is_shown_as_unsent(api, container):
    container.command_channel.override(providers.Object(
        MqttCommandChannel(f"mqtt://127.0.0.1:{free_port()}", None, None, "", timeout_s=1)))
    try:
        target = device_id(container, ACME_DEVICE)
        saved = ok(api.call("POST", PARAMS_SAVE, token=api.token("acme"), json={"deviceId": target, **PARAMS}))
        assert saved["state"] == "unsent"
    finally:
        container.command_channel.reset_override()


def test_read_only_members_read_params_but_may_not_save_and_strangers_see_nothing(api, container, devices_side):
    target = device_id(container, ACME_DEVICE)
    assert ok(api.call("GET", PARAMS_GET, token=api.token("bob"), query={"deviceId": target}))["access"] == 1
    refused = api.call("POST", PARAMS_SAVE, token=api.token("bob"), json={"deviceId": target, **PARAMS})
    assert (refused.status, refused.body["msg"]) == (403, "You have read-only access to this device")
    for method, path, kwargs in (("GET", PARAMS_GET, {"query": {"deviceId": target}}),
                                 ("POST", PARAMS_SAVE, {"json": {"deviceId": target, **PARAMS}})):
        assert api.call(method, path, token=api.token("alice"), **kwargs).status == 404
    assert count(container, DeviceCommandRow) == 0 and devices_side.received == []


@pytest.mark.parametrize("change,field", [
    ({"displayPrecision": 5}, "displayPrecision"), ({"displayPrecision": -1}, "displayPrecision"),
    ({"temperatureUnit": "K"}, "temperatureUnit"), ({"uploadInterval": 59}, "uploadInterval"),
    ({"uploadInterval": 86_401}, "uploadInterval"), ({"uploadInterval": 10**30}, "_schema"),
    ({"recordInterval": 9}, "recordInterval"), ({"recordInterval": 700}, "recordInterval"),
    ({"uploadInterval": "NaN"}, "uploadInterval"), ({"uploadInterval": 1.5}, "uploadInterval"),
])
def test_params_out_of_range_are_refused_in_the_caller_s_language_and_nothing_is_sent(api, container, change,
                                                                                     field, devices_side):
    target = device_id(container, ACME_DEVICE)
    reply = api.call("POST", PARAMS_SAVE, token=api.token("acme"), json={"deviceId": target, **PARAMS, **change},
                     headers={"Accept-Language": "de-DE"})
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert field in reply.body["errors"]
    assert count(container, DeviceCommandRow) == 0


def test_record_interval_longer_than_upload_is_explained_in_russian(api, container):
    target = device_id(container, ACME_DEVICE)
    reply = api.call("POST", PARAMS_SAVE, token=api.token("acme"),
                     json={"deviceId": target, **PARAMS, "recordInterval": 700}, headers={"Accept-Language": "ru-RU"})
    assert reply.status == 422
    [message] = reply.body["errors"]["recordInterval"]
    assert "интервал" in message.lower()


# --- maintenance -------------------------------------------------------------------------------


def test_writers_keep_maintenance_records_and_each_change_is_in_the_operation_log(api, container):
    token, target = api.token("acme"), device_id(container, ACME_DEVICE)
    created = ok(api.call("POST", M_INSERT, token=token, json={"deviceId": target, **RECORD}))
    assert {k: created[k] for k in RECORD} == RECORD
    older = ok(api.call("POST", M_INSERT, token=token, json={"deviceId": target, **RECORD,
                                                             "maintainDate": "2025-06-01", "approver": "",
                                                             "standard": None, "result": "  "}))
    assert (older["approver"], older["standard"], older["result"]) == (None, None, None)
    reply = api.call("POST", M_PAGE, token=api.token("bob"), json={"deviceId": target})
    page = ok(reply)
    envelope(s.MaintenancePageSchema)().load(reply.body)
    assert [r["maintainDate"] for r in page["data"]] == ["2026-01-15", "2025-06-01"] and page["access"] == 1

    changed = ok(api.call("PUT", M_UPDATE, token=token, json={"id": older["id"], **RECORD, "person": "Wang Fang"}))
    assert changed["person"] == "Wang Fang" and changed["createdAt"] == older["createdAt"]
    ok(api.call("DELETE", M_DELETE, token=token, query={"id": created["id"]}))
    assert [r["id"] for r in ok(api.call("POST", M_PAGE, token=token, json={"deviceId": target}))["data"]] == [
        older["id"]]

    log_reply = api.call("POST", LOG, token=api.token("bob"), json={"deviceId": target},
                         headers={"X-Time-Zone": "Asia/Shanghai"})
    log = ok(log_reply)
    page_of(s.DeviceEventSchema)().load(log_reply.body["data"])
    kinds = [e["kind"] for e in log["data"]]
    assert sorted(kinds) == sorted(["maintenance_added", "maintenance_added", "maintenance_changed",
                                    "maintenance_deleted"])
    assert {e["actorName"] for e in log["data"]} == {"acme"}
    assert all(e["at"].endswith("+08:00") for e in log["data"])


def test_the_operation_log_is_newest_first_and_paged(api, container, clock):
    token, target = api.token("acme"), device_id(container, ACME_DEVICE)
    for day in range(1, 4):
        ok(api.call("POST", M_INSERT, token=token, json={"deviceId": target, **RECORD, "person": f"P{day}"}))
        clock.advance(minutes=1)
    ok(api.call("POST", "/device/Device/credentials/rotate", token=token, query={"deviceId": target}))
    first = ok(api.call("POST", LOG, token=token, json={"deviceId": target, "pageSize": 2}))
    second = ok(api.call("POST", LOG, token=token, json={"deviceId": target, "pageSize": 2, "start": 2}))
    assert first["totalCount"] == 4
    assert [e["kind"] for e in first["data"]] == ["credentials_rotated", "maintenance_added"]
    assert [e["detail"].split()[-1] for e in first["data"][1:] + second["data"]] == ["P3", "P2", "P1"]


def test_read_only_members_and_strangers_change_no_maintenance_record(api, container):
    token, target = api.token("acme"), device_id(container, ACME_DEVICE)
    record = ok(api.call("POST", M_INSERT, token=token, json={"deviceId": target, **RECORD}))
    for user, status in (("bob", 403), ("alice", 404)):
        member = api.token(user)
        assert api.call("POST", M_INSERT, token=member, json={"deviceId": target, **RECORD}).status == status
        assert api.call("PUT", M_UPDATE, token=member, json={"id": record["id"], **RECORD,
                                                              "person": "Mallory"}).status == status
        assert api.call("DELETE", M_DELETE, token=member, query={"id": record["id"]}).status == status
    stranger = api.token("alice")
    assert api.call("POST", M_PAGE, token=stranger, json={"deviceId": target}).status == 404
    assert api.call("POST", LOG, token=stranger, json={"deviceId": target}).status == 404
    assert api.call("DELETE", M_DELETE, token=stranger, query={"id": 999_999}).status == 404
    assert count(container, DeviceMaintenanceRow) == 1
    assert count(container, DeviceEventRow, kind="maintenance_added") == 1
    assert ok(api.call("POST", M_PAGE, token=token, json={"deviceId": target}))["data"][0]["person"] == "Li Wei"


@pytest.mark.parametrize("change,field", [
    ({"person": "p" * 51}, "person"), ({"approver": "a" * 21}, "approver"), ({"reason": "r" * 201}, "reason"),
    ({"content": "c" * 1001}, "content"), ({"standard": "s" * 201}, "standard"), ({"result": "r" * 1001}, "result"),
    ({"person": "   "}, "person"), ({"content": ""}, "content"), ({"reason": None}, "reason"),
    ({"maintainDate": "2026-02-30"}, "maintainDate"), ({"maintainDate": "1999-12-31"}, "maintainDate"),
    ({"maintainDate": (date.today() + timedelta(days=3)).isoformat()}, "maintainDate"),
    ({"person": "\ud800x"}, "person"), ({"content": "x\x00y"}, "content"),
])
def test_hostile_maintenance_fields_are_refused_in_the_caller_s_language_and_nothing_is_kept(api, container,
                                                                                           change, field):
    target = device_id(container, ACME_DEVICE)
    reply = api.call("POST", M_INSERT, token=api.token("acme"), json={"deviceId": target, **RECORD, **change},
                     headers={"Accept-Language": "zh-CN"})
    assert reply.status == 422, reply.body
    assert count(container, DeviceMaintenanceRow) == 0


def test_the_longest_fields_the_spec_allows_are_kept_whole(api, container):
    target = device_id(container, ACME_DEVICE)
    longest = {"person": "人" * 50, "approver": "审" * 20, "reason": "因" * 200, "content": "内" * 1000,
               "standard": "标" * 200, "result": "果" * 1000}
    created = ok(api.call("POST", M_INSERT, token=api.token("acme"), json={"deviceId": target, **RECORD, **longest}))
    assert {k: created[k] for k in longest} == longest


def test_maintenance_length_messages_name_the_limit_in_german(api, container):
    target = device_id(container, ACME_DEVICE)
    reply = api.call("POST", M_INSERT, token=api.token("acme"), json={"deviceId": target, **RECORD,
                                                                       "person": "  ", "maintainDate": "2099-01-01"},
                     headers={"Accept-Language": "de-DE"})
    assert reply.status == 422
    assert set(reply.body["errors"]) == {"person", "maintainDate"}
    assert "Zukunft" in reply.body["errors"]["maintainDate"][0]


def test_changes_of_alarm_limits_are_lines_of_the_operation_log(api, container):
    token, target = api.token("acme"), device_id(container, ACME_DEVICE)
    rule = {"deviceId": target, "probe": "t", "name": "Cold room", "upperLimit": 8.0, "lowerLimit": 2.0,
            "level1Minutes": 0, "enabled": True, "recipients": []}
    existing = ok(api.call("POST", "/device/DeviceAlarmRule/page", token=token, json={"deviceId": target}))["data"]
    for old in existing:
        ok(api.call("DELETE", "/device/DeviceAlarmRule/delete", token=token, query={"id": old["id"]}))
    created = ok(api.call("POST", "/device/DeviceAlarmRule/insert", token=token, json=rule))
    ok(api.call("PUT", "/device/DeviceAlarmRule/update", token=token,
                json={"id": created["id"], "upperLimit": 6.5, "enabled": False}))
    assert api.call("PUT", "/device/DeviceAlarmRule/update", token=api.token("bob"),
                    json={"id": created["id"], "upperLimit": 30.0}).status == 403
    ok(api.call("DELETE", "/device/DeviceAlarmRule/delete", token=token, query={"id": created["id"]}))
    log = ok(api.call("POST", LOG, token=token, json={"deviceId": target, "pageSize": 50}))["data"]
    limits = [e["detail"] for e in log if e["kind"] == "limits_changed"]
    assert limits[:3] == ["t: deleted", "t: 2..6.5 off", "t: 2..8 on"]
    assert all(e["actorName"] == "acme" for e in log if e["kind"] == "limits_changed")
