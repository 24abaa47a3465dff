"""The operation log over the API (issue 17), SQLite and PostgreSQL with the demo data: every
change made through the API is an entry written with it (who, when, from where, old and new
values), refused and failed attempts are entries without changes, reading calls leave none,
secrets never show, the database refuses to change or remove an entry, and each reader sees only
their own part of the log (an operator all of it)."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select, text, update
from sqlalchemy.exc import DBAPIError

from adapters.persistence.models import DeviceRow, OperationChangeRow, OperationLogRow
from entrypoints.api.audit import schemas as s
from entrypoints.api.framework import page_of
from tests.integration.test_devices_api import conforms
from tests.support.alarms import device_id
from tests.support.api import ok

pytestmark = pytest.mark.usefixtures("demo")

LOG, EXPORT, DEVICE_LOG = "/base/OperationLog/page", "/base/OperationLog/export", "/device/DeviceOperationLog/changes"
LABELS = "/base/OperationLog/labels"
UPDATE, ROTATE = "/device/Device/update", "/device/Device/credentials/rotate"
ALICE_ROOM, ACME_ROOM = "RCW360A0000001", "CR2B000000001"


def entries(container) -> list[dict]:
    """Every stored entry, oldest first, with its changes."""
    with container.session_factory()() as session:
        operations = list(session.scalars(select(OperationLogRow).order_by(OperationLogRow.id)))
        changes = list(session.scalars(select(OperationChangeRow).order_by(OperationChangeRow.id)))
    return [{"action": o.action, "actor": o.actor_name, "address": o.client_address, "outcome": o.outcome,
             "status": o.status,
             "changes": [(c.object_type, c.label, c.fields) for c in changes if c.operation_id == o.id]}
            for o in operations]


def rename(api, token, device, name, address="127.0.0.1"):
    return api.call("PUT", UPDATE, token=token, json={"deviceId": device, "deviceName": name}, address=address)


def test_a_rename_through_the_api_is_one_entry_with_the_old_and_new_name(api, container):
    alice, target = api.token("alice"), device_id(container, ALICE_ROOM)
    before = len(entries(container))
    ok(rename(api, alice, target, "Cold room A2", address="10.1.2.3"))
    [entry] = entries(container)[before:]
    assert (entry["action"], entry["actor"], entry["address"], entry["outcome"], entry["status"]) == (
        "Device.update", "alice", "10.1.2.3", "succeeded", 200)
    [(kind, label, fields)] = entry["changes"]
    assert (kind, label, fields) == ("device", "Cold room A2", {"device_name": ["Cold room A logger", "Cold room A2"]})
    reply = api.call("POST", LOG, token=alice, json={"objectType": "device", "objectId": str(target)})
    conforms(reply, page_of(s.OperationSchema))
    [shown] = ok(reply)["data"]
    assert shown["userName"] == "alice" and shown["changes"][0]["fields"] == {
        "device_name": ["Cold room A logger", "Cold room A2"]}
    tab = ok(api.call("POST", DEVICE_LOG, token=alice, json={"deviceId": target}))["data"]
    assert [e["id"] for e in tab] == [shown["id"]]


def test_an_alarm_rule_change_records_its_fields(api, container):
    acme, target = api.token("acme"), device_id(container, ACME_ROOM)
    rule = {"deviceId": target, "probe": "h", "name": "Humidity", "upperLimit": 80.0, "lowerLimit": 20.0,
            "level1Minutes": 0, "enabled": True, "recipients": []}
    created = ok(api.call("POST", "/device/DeviceAlarmRule/insert", token=acme, json=rule))
    before = len(entries(container))
    ok(api.call("PUT", "/device/DeviceAlarmRule/update", token=acme,
                json={"id": created["id"], "upperLimit": 75.5, "enabled": False}))
    [entry] = entries(container)[before:]
    rules = [fields for kind, _label, fields in entry["changes"] if kind == "alarmRule"]
    assert rules == [{"upper_limit": [80.0, 75.5], "enabled": [True, False]}]
    tab = ok(api.call("POST", DEVICE_LOG, token=api.token("bob"), json={"deviceId": target}))  # a member reads it
    assert tab["data"][0]["action"] == "DeviceAlarmRule.update"


def test_a_refused_change_is_an_entry_that_changed_nothing(api, container):
    bob, target = api.token("bob"), device_id(container, ALICE_ROOM)
    before = len(entries(container))
    reply = rename(api, bob, target, "Mine now")
    assert reply.status == 404
    [entry] = entries(container)[before:]
    assert (entry["action"], entry["actor"], entry["outcome"], entry["status"], entry["changes"]) == (
        "Device.update", "bob", "refused", 404, [])
    with container.session_factory()() as session:
        assert session.get(DeviceRow, target).device_name == "Cold room A logger"
    mine = ok(api.call("POST", LOG, token=bob, json={"outcome": "refused"}))["data"]
    assert [e["action"] for e in mine] == ["Device.update"]


def test_a_failed_transaction_leaves_no_success_entry(api, container, monkeypatch):
    alice, target = api.token("alice"), device_id(container, ALICE_ROOM)
    from adapters.persistence import devices

    def broken(*_args, **_kwargs):
        raise RuntimeError("the disk is full")

    before = len(entries(container))
    monkeypatch.setattr(devices.SqlAlchemyDeviceRepository, "get_detail", broken, raising=False)
    monkeypatch.setattr(devices.SqlAlchemyDeviceRepository, "visible", broken)
    reply = rename(api, alice, target, "Never stored")
    assert reply.status == 500
    [entry] = entries(container)[before:]
    assert (entry["outcome"], entry["status"], entry["changes"]) == ("failed", 500, [])


def test_a_change_rolled_back_after_its_write_leaves_no_entry_nor_change(api, container, monkeypatch):
    alice, target = api.token("alice"), device_id(container, ALICE_ROOM)
    from sqlalchemy.orm import Session

    real_commit = Session.commit

    def failing_commit(self):
        if any(isinstance(o, DeviceRow) for o in self.dirty) or self.info.get("coldchain.wrote"):
            raise RuntimeError("the connection dropped")
        return real_commit(self)

    before = len(entries(container))
    monkeypatch.setattr(Session, "commit", failing_commit)
    assert rename(api, alice, target, "Half done").status == 500
    monkeypatch.undo()
    assert [e["outcome"] for e in entries(container)[before:]] == ["failed"]
    with container.session_factory()() as session:
        assert session.get(DeviceRow, target).device_name == "Cold room A logger"


def test_post_calls_that_only_read_leave_no_entry(api, container):
    alice = api.token("alice")
    before = len(entries(container))
    ok(api.call("POST", "/device/Device/page", token=alice, json={}))
    ok(api.call("POST", LOG, token=alice, json={}))
    ok(api.call("POST", "/device/DeviceOperationLog/page", token=alice,
                json={"deviceId": device_id(container, ALICE_ROOM)}))
    ok(api.call("POST", "/device/DeviceAlarm/page", token=alice, json={}))
    assert entries(container)[before:] == []


def test_secrets_never_appear(api, container):
    alice, target = api.token("alice"), device_id(container, ALICE_ROOM)
    rotated = ok(api.call("POST", ROTATE, token=alice, query={"deviceId": target}))
    stored = json.dumps(entries(container))
    assert rotated["password"] not in stored
    assert "$argon2" not in stored and "pbkdf2" not in stored and "scrypt" not in stored
    [entry] = [e for e in entries(container) if e["action"] == "Device.credentials.rotate"]
    [(_kind, _label, fields)] = entry["changes"]
    assert fields == {"password_hash": ["***", "***"]}
    page = json.dumps(ok(api.call("POST", LOG, token=alice, json={"action": "rotate"})))
    assert rotated["password"] not in page and "***" in page


def test_the_database_refuses_to_change_or_remove_an_entry(api, container):
    ok(rename(api, api.token("alice"), device_id(container, ALICE_ROOM), "Cold room A3"))
    engine = container.engine()
    for statement in (update(OperationLogRow).values(actor_name="nobody"), OperationLogRow.__table__.delete(),
                      update(OperationChangeRow).values(fields={}), OperationChangeRow.__table__.delete(),
                      text("DELETE FROM operation_log_readers")):
        with pytest.raises(DBAPIError, match="append-only"), engine.begin() as connection:
            connection.execute(statement)
    with engine.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(OperationLogRow)) >= 1


def test_each_reader_sees_their_part_and_an_operator_sees_all(api, container):
    alice, target = api.token("alice"), device_id(container, ALICE_ROOM)
    ok(rename(api, alice, target, "Cold room A4"))
    ok(rename(api, api.token("acme"), device_id(container, ACME_ROOM), "Warehouse 1 room"))
    stranger = api.token("bob")
    seen = ok(api.call("POST", LOG, token=stranger, json={"pageSize": 200}))["data"]
    assert all(e["userName"] != "alice" for e in seen)
    assert all(e["userName"] != "acme" for e in seen)  # bob is a member of acme's organization, not a manager
    assert api.call("POST", DEVICE_LOG, token=stranger, json={"deviceId": target}).status == 404
    everything = ok(api.call("POST", LOG, token=api.token("operator"), json={"pageSize": 200}))["data"]
    assert {"alice", "acme"} <= {e["userName"] for e in everything}
    filtered = ok(api.call("POST", LOG, token=api.token("operator"), json={"userName": "ALI"}))["data"]
    assert {e["userName"] for e in filtered} == {"alice"}
    assert api.call("POST", LOG, token=api.token("calibadmin"), json={}).status == 403


def test_the_operator_holds_the_log_s_page_with_its_actions_and_reads_and_exports_every_account_s(api, container):
    """The menu item /operation/log follows `operation.log` in the permission list: the operator
    has it (with query and export), and what the page shows them is every account's entries."""
    operator = api.token("operator")
    held = set(ok(api.account_info(operator))["permissionRoutes"])
    assert {"operation.log", "operation.log:query", "operation.log:export"} <= held
    ok(rename(api, api.token("alice"), device_id(container, ALICE_ROOM), "Cold room A5"))
    ok(rename(api, api.token("acme"), device_id(container, ACME_ROOM), "Warehouse 2 room"))
    seen = {e["userName"] for e in ok(api.call("POST", LOG, token=operator, json={"pageSize": 200}))["data"]}
    assert {"alice", "acme"} <= seen
    alice_sees = {e["userName"] for e in ok(api.call("POST", LOG, token=api.token("alice"),
                                                     json={"pageSize": 200}))["data"]}
    assert "alice" in alice_sees and not alice_sees & {"acme", "operator"}
    exported = api.client.post("/api" + EXPORT, json={}, headers={"Authorization": f"Bearer {operator}"})
    assert exported.status_code == 200 and exported.mimetype.endswith("sheet")


def test_the_export_is_an_xlsx_of_the_readers_entries_in_their_language(api, container):
    from io import BytesIO

    from openpyxl import load_workbook

    alice = api.token("alice")
    ok(rename(api, alice, device_id(container, ALICE_ROOM), "=HYPERLINK(1)"))
    response = api.client.post("/api/base/OperationLog/export", json={}, headers={
        "Authorization": f"Bearer {alice}", "Accept-Language": "ru-RU"})
    assert response.status_code == 200 and response.mimetype.endswith("sheet")
    rows = list(load_workbook(BytesIO(response.data)).active.iter_rows(values_only=True))
    assert rows[0][0] == "Время" and len(rows) >= 2
    # the call, the object type and the column under the labels the console shows, not their codes
    labels = ok(api.call("GET", LABELS, token=alice, headers={"Accept-Language": "ru-RU"}))
    assert rows[1][3] == labels["action"]["Device.update"] == "Изменение устройства"
    assert rows[1][4] == f"{labels['object']['device']} =HYPERLINK(1)" and "device" not in rows[1][4]
    assert f"{labels['field']['device_name']}: Cold room A logger -> =HYPERLINK(1)" in rows[1][5]
    assert "device_name" not in rows[1][5]


def test_the_labels_are_the_log_s_words_in_the_callers_language(api, container):
    """One source for the console and the export: the server's catalogues, by message context, so
    the log's "Account" (a column) is not the account menu's word."""
    from entrypoints.api.audit.labels import ACTIONS, FIELDS, OBJECTS

    alice = api.token("alice")
    english = api.call("GET", LABELS, token=alice, headers={"Accept-Language": "en-US"})
    conforms(english, s.OperationLabelsSchema)
    english = ok(english)
    russian = ok(api.call("GET", LABELS, token=alice, headers={"Accept-Language": "ru-RU"}))
    assert {group: set(labels) for group, labels in english.items()} == {
        "action": set(ACTIONS), "object": set(OBJECTS), "field": set(FIELDS)}
    assert (english["action"]["Device.update"], english["object"]["alarmRule"], english["field"]["upper_limit"]) == (
        "Edit device", "Alarm rule", "Upper limit")
    assert (russian["action"]["Device.update"], russian["object"]["alarmRule"], russian["field"]["upper_limit"]) == (
        "Изменение устройства", "Правило тревоги", "Верхний предел")
    assert russian["field"]["account_id"] == "Аккаунт" != container.translator().translate("Account", "ru-RU")
    assert api.call("GET", LABELS).status == 401  # a stranger without a login


@pytest.mark.parametrize("body,field", [
    ({"since": "2026-01-02T00:00:00+00:00", "until": "2026-01-01T00:00:00+00:00"}, "until"),
    ({"since": "yesterday"}, "since"), ({"userName": "x" * 51}, "userName"), ({"userName": "a\u0007b"}, "userName"),
    ({"objectType": "device; drop"}, "objectType"), ({"outcome": "maybe"}, "outcome"),
    ({"pageSize": 10**12}, "pageSize"),
    ({"action": ["Device.update"]}, "action"), ({"since": "2026-01-01T00:00:00" + "0" * 60}, "since"),
])
def test_a_bad_filter_is_a_422_naming_the_field(api, body, field):
    reply = api.call("POST", LOG, token=api.token("alice"), json=body)
    assert reply.status == 422 and field in reply.body["errors"], reply.body


# Access matrix of the log's calls but the page and the export: the device's tab (an object id) and
# the labels (every signed-in caller: the log's and the tab's readers both show them), for the owner
# (acme), a read-only organization member (bob), a stranger (alice), the back office (operator,
# calibadmin). A call added to the log's blueprints with no row here fails test_every_call_has_a_row.
EVERYONE = {"acme": 200, "bob": 200, "alice": 200, "operator": 200, "calibadmin": 200}
MATRIX = {("POST", DEVICE_LOG): {"acme": 200, "bob": 200, "alice": 404, "operator": 403, "calibadmin": 403},
          ("GET", LABELS): EVERYONE}


def test_every_call_has_a_row(api):
    routes = {(method, rule.rule.removeprefix("/api")) for rule in api.client.application.url_map.iter_rules()
              if rule.endpoint.split(".")[0] in ("operation_log", "device_operation_log")
              for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert routes - {("POST", LOG), ("POST", EXPORT)} == set(MATRIX)


@pytest.mark.parametrize("caller", ["acme", "bob", "alice", "operator", "calibadmin"])
def test_access_matrix(api, container, caller):
    for (method, path), expected in MATRIX.items():
        reply = api.call(method, path, token=api.token(caller), json={"deviceId": device_id(container, ACME_ROOM)})
        assert reply.status == expected[caller], (caller, path, reply.body)
