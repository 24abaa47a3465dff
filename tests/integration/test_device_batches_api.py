"""Adding devices from a sheet, deleting many at once, clearing a device's data and the broker
settings a technician needs (issue 16), with the attacks: a stranger's device, a read-only
member, hostile files. Every test runs on SQLite and on PostgreSQL with the demo data."""

from __future__ import annotations

import io
import zipfile
from datetime import timedelta

import pytest
from openpyxl import Workbook, load_workbook
from sqlalchemy import func, select

from adapters.persistence.models import AlarmMessageRow, DeviceCredentialRow, DeviceEventRow, DeviceRow, ReadingRow
from core.devices.sheets import MAX_SHEET_ROWS
from entrypoints.api.devices import schemas as s
from tests.integration.test_devices_api import conforms, device_id, names, ok, readings_of, type_id
from tests.support.api import ApiClient

pytestmark = pytest.mark.usefixtures("demo")

BATCH_DELETE, CLEAR = "/device/Device/batchDelete", "/device/Device/clearData"
BATCH_INSERT, TEMPLATE, CONNECTION = ("/device/Device/batchInsert", "/device/Device/batchInsert/template",
                                      "/device/Device/connection")
ALICE_A, ALICE_B, ACME_B = "RCW360A0000001", "RCW360A0000002", "CR2B000000001"


def count(container, model, *where) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(model).where(*where))


def events(container) -> list[tuple]:
    with container.session_factory()() as session:
        return [(e.device_guid, e.kind, e.detail) for e in session.scalars(select(DeviceEventRow).order_by(
            DeviceEventRow.id))]


def add_readings(container, clock, device: int, how_many: int) -> None:
    with container.session_factory()() as session:
        session.add_all([ReadingRow(device_id=device, ts=clock.now() + timedelta(minutes=i), temperature=4.0,
                                    humidity=None, received_at=clock.now()) for i in range(how_many)])
        session.commit()


# --- batch delete ----------------------------------------------------------------------------------


def test_the_owner_deletes_a_batch_with_readings_and_logins_and_each_deletion_is_recorded(api, container):
    alice = api.token("alice")
    ids = [device_id(container, ALICE_A), device_id(container, ALICE_B)]
    assert readings_of(container, ids[0]) > 0
    reply = api.call("POST", BATCH_DELETE, token=alice, json={"deviceIds": [*ids, ids[0]]})
    assert ok(reply) == {"deleted": 2}
    conforms(reply, s.BatchDeletedSchema)
    assert all(readings_of(container, i) == 0 for i in ids)
    assert count(container, DeviceCredentialRow, DeviceCredentialRow.device_id.in_(ids)) == 0
    assert "Cold room A logger" not in names(api, alice) and len(names(api, alice)) == 4
    assert events(container) == [(ALICE_A, "deleted", None), (ALICE_B, "deleted", None)]


@pytest.mark.parametrize("user,status", [("alice", 404), ("bob", 403)])
def test_a_batch_holding_a_device_the_caller_may_not_delete_deletes_nothing(api, container, user, status):
    """alice does not see acme's device; bob, a member of acme's organization, only reads it."""
    token = api.token(user)
    own = [device_id(container, ALICE_A)] if user == "alice" else []
    target = device_id(container, ACME_B)
    reply = api.call("POST", BATCH_DELETE, token=token, json={"deviceIds": [*own, target]})
    assert (reply.status, reply.code) == (status, status)
    assert all(count(container, DeviceRow, DeviceRow.id == i) == 1 for i in [*own, target])
    assert all(readings_of(container, i) > 0 for i in own) and events(container) == []


@pytest.mark.parametrize("ids", [[], list(range(1, 202)), ["x"], [0], None])
def test_a_batch_is_1_to_200_device_ids(api, ids):
    reply = api.call("POST", BATCH_DELETE, token=api.token("alice"), json={"deviceIds": ids})
    assert (reply.status, reply.code) == (422, 422)


# --- clear data ------------------------------------------------------------------------------------


def test_clearing_data_deletes_readings_and_alarm_records_keeps_the_device_and_is_recorded(api, container):
    alice = api.token("alice")
    target = device_id(container, ALICE_A)
    alarms = count(container, AlarmMessageRow, AlarmMessageRow.device_id == target)
    readings = readings_of(container, target)
    reply = api.call("POST", CLEAR, token=alice, query={"deviceId": target})
    assert ok(reply) == {"readings": readings, "alarms": alarms}
    conforms(reply, s.DataClearedSchema)
    assert readings_of(container, target) == 0
    assert count(container, AlarmMessageRow, AlarmMessageRow.device_id == target) == 0
    detail = ok(api.call("GET", "/device/Device/get", token=alice, query={"deviceId": target}))
    assert detail["lastReading"] is None and detail["deviceName"] == "Cold room A logger"
    assert events(container) == [(ALICE_A, "data_cleared", f"alarms={alarms}")]
    assert readings_of(container, device_id(container, ALICE_B)) > 0  # her other devices keep theirs


@pytest.mark.parametrize("user,status", [("alice", 404), ("bob", 403)])
def test_only_the_owner_clears_a_device_s_data(api, container, clock, user, status):
    target = device_id(container, ACME_B)
    add_readings(container, clock, target, 5)
    before = readings_of(container, target)
    reply = api.call("POST", CLEAR, token=api.token(user), query={"deviceId": target})
    assert (reply.status, reply.code) == (status, status)
    assert readings_of(container, target) == before > 0 and events(container) == []


# --- batch insert ------------------------------------------------------------------------------------


def xlsx(*rows, header=("GUID", "Device name", "Device type")) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    if header:
        sheet.append(list(header))
    for row in rows:
        sheet.append(list(row))
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def upload(api: ApiClient, token: str, data: bytes, language: str = "en-US", **form):
    response = api.client.post(f"/api{BATCH_INSERT}", data={"file": (io.BytesIO(data), "devices.xlsx"), **form},
                               headers={"Authorization": f"Bearer {token}", "Accept-Language": language},
                               content_type="multipart/form-data")
    return response.status_code, response.get_json()


def test_a_sheet_adds_its_devices_and_reports_every_row(api, container):
    alice = api.token("alice")
    logger = type_id(api, alice, "RCW-360 Wi-Fi Logger")
    status, body = upload(api, alice, xlsx(
        ("NEWLOGGER0001", "Fridge 1", ""), ("NEWLOGGER0002", None, "0x8001"), (ACME_B, "taken", ""),
        ("bad guid!", "x", ""), ("NEWLOGGER0003", "x", "0x7777"), (12345678, "digits", "")),
        typeId=str(logger))
    assert status == 200 and body["code"] == 0, body
    envelope = s.SheetReportSchema()
    envelope.load(body["data"])
    rows = body["data"]["rows"]
    assert [(r["row"], r["deviceGuid"], r["outcome"]) for r in rows] == [
        (2, "NEWLOGGER0001", "added"), (3, "NEWLOGGER0002", "added"), (4, ACME_B, "alreadyAdded"),
        (5, "bad guid!", "invalid"), (6, "NEWLOGGER0003", "unknownType"), (7, "12345678", "added")]
    assert body["data"]["added"] == 3 and rows[3]["message"] == "A device GUID is 8 to 32 letters and digits"
    assert rows[0]["credentials"]["username"] == "NEWLOGGER0001" and len(rows[0]["credentials"]["password"]) >= 24
    assert {"Fridge 1", "NEWLOGGER0002", "digits"} <= set(names(api, alice))
    assert count(container, DeviceCredentialRow, DeviceCredentialRow.username.in_(["NEWLOGGER0001", "12345678"])) == 2


def test_the_template_is_an_xlsx_with_the_header_in_the_caller_s_language_and_the_types(api):
    response = api.client.get(f"/api{TEMPLATE}", headers={"Authorization": f"Bearer {api.token('alice')}",
                                                           "Accept-Language": "de-DE"})
    assert response.status_code == 200 and response.mimetype.endswith("spreadsheetml.sheet")
    workbook = load_workbook(io.BytesIO(response.data))
    header = [c.value for c in workbook.worksheets[0][1]]
    assert header[0] == "GUID" and header[1] == "Gerätename"
    assert ("0x8001", "RCW-360 Wi-Fi Logger") in {(r[0], r[1]) for r in workbook["Types"].iter_rows(values_only=True)}
    status, body = upload(api, api.token("alice"), response.data)
    assert (status, body["errors"]["file"]) == (422, ["The sheet holds no devices"])


def _with_entry(data: bytes, name: str, replace) -> bytes:
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            target.writestr(item.filename, replace(content) if item.filename == name else content)
    return out.getvalue()


def _bomb() -> bytes:
    """A valid workbook with an entry that unpacks to 20 MB from a few KB."""
    data = xlsx(("NEWLOGGER0001", "x", ""))
    return _with_entry(data, "xl/worksheets/sheet1.xml",
                       lambda xml: xml.replace(b"</worksheet>", b"<!--" + b" " * 20_000_000 + b"--></worksheet>"))


def _surrogate() -> bytes:
    """A lone surrogate (U+D800) written as a character reference, which no XML parser accepts:
    the workbook is broken, and said to be so."""
    return _with_entry(xlsx(("NEWLOGGER0001", "PLACEHOLDER", "")), "xl/worksheets/sheet1.xml",
                       lambda xml: xml.replace(b"PLACEHOLDER", b"a&#xD800;b"))


HOSTILE = {
    "not a workbook": (b"GUID\nNEWLOGGER0001\n", "The file is not an Excel workbook (.xlsx)"),
    "a zip, not a workbook": (_with_entry(xlsx(), "xl/workbook.xml", lambda _: b"<nope/>"),
                              "The file is not an Excel workbook (.xlsx)"),
    "formula": (xlsx(("=HYPERLINK(\"http://x\")", "x", "")), "The sheet holds formulas: enter the values themselves"),
    "too many rows": (xlsx(*[(f"NEWLOGGER{i:05d}", "", "0x8001") for i in range(MAX_SHEET_ROWS + 1)]),
                      "The sheet may hold at most 500 devices"),
    "zip bomb": (_bomb(), "The file is too large: at most 512 KB"),
    "surrogate": (_surrogate(), "The file is not an Excel workbook (.xlsx)"),
    "too large": (b"PK" + b"\0" * (600 * 1024), "The file is too large: at most 512 KB"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_file_is_refused_whole_with_why_and_adds_nothing(api, container, case):
    data, message = HOSTILE[case]
    before = count(container, DeviceRow)
    status, body = upload(api, api.token("alice"), data)
    assert (status, body["code"], body["errors"]["file"]) == (422, 422, [message])
    assert count(container, DeviceRow) == before


def test_a_refused_file_says_why_in_the_caller_s_language(api):
    status, body = upload(api, api.token("alice"), b"not a workbook", language="ru-RU")
    assert status == 422 and body["errors"]["file"] != ["The file is not an Excel workbook (.xlsx)"]
    assert "Excel" in body["errors"]["file"][0]


def test_a_read_only_member_has_no_import_permission_or_adds_only_their_own(api, container):
    """bob adds devices of his own like anyone; the sheet cannot touch acme's."""
    status, body = upload(api, api.token("bob"), xlsx((ACME_B, "mine now", "0x8001")))
    assert status in (200, 403)
    if status == 200:
        assert body["data"]["rows"][0]["outcome"] == "alreadyAdded"
    with container.session_factory()() as session:
        assert session.scalar(select(DeviceRow.device_name).where(DeviceRow.guid == ACME_B)) != "mine now"


# --- connection ------------------------------------------------------------------------------------


def test_the_connection_settings_come_from_the_public_broker_url(api, container):
    reply = api.call("GET", CONNECTION, token=api.token("alice"))
    data = ok(reply)
    conforms(reply, s.ConnectionSchema)
    public = container.settings().mqtt_public_url
    assert f"mqtt://{data['host']}:{data['port']}" == public and data["tls"] is False
    assert data["topics"]["telemetry"] == "devices/{guid}/telemetry"
    assert data["topics"]["commands"] == "devices/{guid}/commands" and '"t": 4.5' in data["examplePayload"]
    assert api.call("GET", CONNECTION).status == 401


def test_readings_written_after_a_clear_are_kept(api, container, clock):
    """Clearing is of what was stored, not a ban: the device's next reading is stored as usual."""
    target = device_id(container, ALICE_A)
    ok(api.call("POST", CLEAR, token=api.token("alice"), query={"deviceId": target}))
    add_readings(container, clock, target, 1)
    assert readings_of(container, target) == 1
