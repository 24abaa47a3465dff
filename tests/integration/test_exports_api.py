"""Exports to the download centre: a device's readings as CSV, XLSX and a PDF report, the device
list as XLSX; only the owner downloads; strangers and hostile input change nothing; a week later
the purge job deletes file and record, and a report's code still verifies. SQLite and PostgreSQL,
with the demo data (alice's devices have a week of five-minute readings)."""

from __future__ import annotations

import csv
import hashlib
import io
import re
from datetime import datetime, timedelta

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader
from sqlalchemy import func, select, update

from adapters.persistence.models import DeviceRow, ExportCertificateRow, ExportRow, ReadingRow
from entrypoints.api.exports import schemas as s
from entrypoints.api.framework import envelope, page_of
from entrypoints.jobs.catalogue import BY_NAME
from tests.support.alarms import device_id
from tests.support.api import ApiClient, ok

pytestmark = pytest.mark.usefixtures("demo")

CREATE, LIST_EXPORT, PAGE, GET = ("/device/DeviceDataExport/create", "/device/DeviceDataExport/createDeviceList",
                                  "/device/DeviceDataExport/page", "/device/DeviceDataExport/get")
DELETE, READY, VERIFY = ("/device/DeviceDataExport/delete", "/device/DeviceDataExport/readyCount",
                         "/device/DeviceDataExport/verify")
COLD_ROOM_A, WAREHOUSE = "RCW360A0000001", "CR2B000000001"  # alice's; acme's organization's (bob reads it)


def last_reading(container, guid: str) -> datetime:
    with container.session_factory()() as session:
        return session.scalar(select(DeviceRow.last_reading_at).where(DeviceRow.guid == guid))


def readings_between(container, guid: str, since: datetime, until: datetime) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(ReadingRow).where(
            ReadingRow.device_id == device_id(container, guid), ReadingRow.ts >= since, ReadingRow.ts <= until))


def exports(container) -> list[ExportRow]:
    with container.session_factory()() as session:
        return list(session.scalars(select(ExportRow).order_by(ExportRow.created_at)))


def period(container, guid: str = COLD_ROOM_A, days: float = 2) -> tuple[datetime, datetime]:
    end = last_reading(container, guid)
    return end - timedelta(days=days), end


def create(api: ApiClient, token: str, container, fmt: str, guid: str = COLD_ROOM_A, days: float = 2, **extra):
    since, until = period(container, COLD_ROOM_A, days)
    body = {"deviceId": device_id(container, guid), "startTime": since.isoformat(), "endTime": until.isoformat(),
            "format": fmt, **extra}
    return api.call("POST", CREATE, token=token, json=body, headers={"X-Time-Zone": "Asia/Shanghai"})


def download(api: ApiClient, token: str, export_id: str):
    return api.client.get("/api/device/DeviceDataExport/download", query_string={"id": export_id},
                          headers={"Authorization": f"Bearer {token}"})


def test_a_csv_export_holds_every_reading_of_the_period_in_the_callers_zone(api, container):
    token = api.token("alice")
    reply = create(api, token, container, "csv")
    export = ok(reply)
    envelope(s.ExportSchema)().load(reply.body)
    assert (export["status"], export["progress"], export["kind"]) == ("ready", 100, "readings")
    assert export["expiresAt"].endswith("+08:00")
    since, until = period(container)
    response = download(api, token, export["id"])
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/csv")
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment;") and "Cold_room_A_logger" in disposition
    text = response.data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["Time", "Temperature (°C)", "Humidity (%RH)"]
    assert len(rows) - 1 == readings_between(container, COLD_ROOM_A, since, until) == 2 * 24 * 12 + 1
    first = datetime.fromisoformat(rows[1][0] + "+08:00")
    assert first == since  # local wall-clock time of Asia/Shanghai
    assert all(len(r[1].split(".")[1]) == 1 for r in rows[1:])  # display precision 1
    assert export["size"] == len(response.data)


def test_readings_are_written_in_the_devices_unit_and_precision(api, container):
    with container.session_factory()() as session:
        session.execute(update(DeviceRow).where(DeviceRow.guid == COLD_ROOM_A)
                        .values(temperature_unit="F", display_precision=3))
        session.commit()
    token = api.token("alice")
    export = ok(create(api, token, container, "csv", days=0.1))
    rows = list(csv.reader(io.StringIO(download(api, token, export["id"]).data.decode("utf-8-sig"))))
    assert rows[0][1] == "Temperature (°F)"
    since, _ = period(container, days=0.1)
    with container.session_factory()() as session:
        celsius = session.scalar(select(ReadingRow.temperature).where(
            ReadingRow.device_id == device_id(container, COLD_ROOM_A), ReadingRow.ts >= since)
            .order_by(ReadingRow.ts).limit(1))
    assert rows[1][1] == f"{celsius * 9 / 5 + 32:.3f}"


def test_an_xlsx_export_reads_back_with_its_facts(api, container):
    token = api.token("alice")
    export = ok(create(api, token, container, "xlsx"))
    book = load_workbook(io.BytesIO(download(api, token, export["id"]).data), read_only=True)
    data = list(book.worksheets[0].iter_rows(values_only=True))
    assert data[0] == ("Time", "Temperature (°C)", "Humidity (%RH)")
    assert len(data) - 1 == 2 * 24 * 12 + 1
    assert isinstance(data[1][1], float)
    facts = dict(book.worksheets[1].iter_rows(values_only=True))
    assert facts["GUID"] == COLD_ROOM_A and facts["Account"] == "alice" and facts["Time zone"] == "Asia/Shanghai"


def test_a_pdf_report_has_summary_mkt_and_a_code_that_verifies(api, container):
    token = api.token("alice")
    export = ok(create(api, token, container, "pdf", days=7))
    response = download(api, token, export["id"])
    assert response.headers["Content-Type"] == "application/pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages)
    for expected in ("Device data report", "Cold room A logger", COLD_ROOM_A, "MKT", "Summary", "Excursions",
                     "readings shown"):
        assert expected in text, expected
    code = re.search(r"Verification code\s*([A-Z0-9-]{20,})", text).group(1)
    verdict = ok(api.call("GET", VERIFY, query={"code": code.lower()}))  # no login needed
    assert verdict["genuine"] is True and verdict["deviceGuid"] == COLD_ROOM_A and verdict["accountName"] == "alice"
    assert verdict["readings"] == readings_between(container, COLD_ROOM_A, *period(container, days=7))
    assert verdict["sha256"] == hashlib.sha256(response.data).hexdigest()
    forged = code[:-1] + ("A" if code[-1] != "A" else "B")
    assert ok(api.call("GET", VERIFY, query={"code": forged})) == {"genuine": False}


def test_a_forged_certificate_row_does_not_verify(api, container):
    token = api.token("alice")
    export = ok(create(api, token, container, "pdf", days=0.5))
    with container.session_factory()() as session:
        row = session.scalar(select(ExportCertificateRow).where(ExportCertificateRow.export_id == export["id"]))
        code = row.code
        row.readings += 1  # someone with database access changes what the report is said to hold
        session.commit()
    assert ok(api.call("GET", VERIFY, query={"code": code})) == {"genuine": False}


def test_reports_in_russian_and_chinese_write_their_labels(app, container):
    for language, label in (("ru-RU", "Время"), ("zh-CN", "时间")):
        api = ApiClient(app.flask.test_client(), language)
        token = api.token("alice")
        export = ok(create(api, token, container, "csv", days=0.05))
        header = download(api, token, export["id"]).data.decode("utf-8-sig").splitlines()[0]
        assert header.startswith(label), header
        pdf = ok(create(api, token, container, "pdf", days=0.05))
        reader = PdfReader(io.BytesIO(download(api, token, pdf["id"]).data))
        assert "Cold room A logger" in reader.pages[0].extract_text()


def test_the_device_list_export_holds_every_visible_device_with_the_lists_filters(api, container):
    token = api.token("alice")
    export = ok(api.call("POST", LIST_EXPORT, token=token, json={}))
    assert (export["kind"], export["format"], export["status"]) == ("deviceList", "xlsx", "ready")
    rows = list(load_workbook(io.BytesIO(download(api, token, export["id"]).data)).worksheets[0]
                .iter_rows(values_only=True))
    assert rows[0][:3] == ("Device name", "GUID", "Device type")
    assert len(rows) - 1 == 6
    narrowed = ok(api.call("POST", LIST_EXPORT, token=token, json={"deviceName": "cold room"}))
    rows = list(load_workbook(io.BytesIO(download(api, token, narrowed["id"]).data)).worksheets[0]
                .iter_rows(values_only=True))
    assert sorted(r[0] for r in rows[1:]) == ["Cold room A logger", "Cold room B logger", "Dock cold room"]


def test_the_download_centre_lists_the_callers_exports_and_counts_the_ready_ones(api, container):
    token = api.token("alice")
    first = ok(create(api, token, container, "csv", days=0.1))
    second = ok(create(api, token, container, "xlsx", days=0.1))
    reply = api.call("POST", PAGE, token=token, json={"start": 1, "pageSize": 10})
    page = ok(reply)
    page_of(s.ExportSchema)().load(page)
    assert [row["id"] for row in page["data"]] == [second["id"], first["id"]] or page["totalCount"] == 2
    assert ok(api.call("GET", READY, token=token)) == {"count": 2}
    assert ok(api.call("GET", GET, token=token, query={"id": first["id"]}))["status"] == "ready"
    ok(api.call("DELETE", DELETE, token=token, query={"id": first["id"]}))
    assert download(api, token, first["id"]).status_code == 404
    assert ok(api.call("GET", READY, token=token)) == {"count": 1}


def test_a_stranger_can_neither_export_nor_see_nor_download_nor_delete(api, container):
    alice, acme = api.token("alice"), api.token("acme")
    refused = create(api, acme, container, "csv")
    assert (refused.status, refused.code) == (404, 404)
    export = ok(create(api, alice, container, "csv"))
    before = exports(container)
    assert download(api, acme, export["id"]).status_code == 404
    assert api.call("GET", GET, token=acme, query={"id": export["id"]}).status == 404
    assert api.call("DELETE", DELETE, token=acme, query={"id": export["id"]}).status == 404
    assert ok(api.call("POST", PAGE, token=acme, json={}))["totalCount"] == 0
    assert [(x.id, x.status) for x in exports(container)] == [(x.id, x.status) for x in before]
    assert download(api, alice, export["id"]).status_code == 200
    assert download(api, "not-a-token", export["id"]).status_code == 401


def test_a_member_of_the_organization_exports_the_device_it_may_only_read(api, container):
    bob = api.token("bob")
    target = device_id(container, WAREHOUSE)
    end = datetime.fromisoformat("2026-01-02T00:00:00+00:00")
    reply = api.call("POST", CREATE, token=bob, json={
        "deviceId": target, "startTime": (end - timedelta(days=1)).isoformat(), "endTime": end.isoformat(),
        "format": "xlsx"})
    assert ok(reply)["status"] == "ready"


@pytest.mark.parametrize("change,field", [
    ({"endTime": "start"}, "endTime"),  # not after the start
    ({"span": 367}, "endTime"),
    ({"format": "exe"}, "format"),
    ({"deviceId": 2**40}, "deviceId"),
    ({"startTime": "2026-01-01T00:00:00"}, "startTime"),  # no offset
    ({"startTime": "9" * 5000}, "startTime"),
    ({"startTime": "\ud800"}, "startTime"),
    ({"extra": "x"}, "extra"),
])
def test_hostile_input_is_refused_with_a_clear_422_and_nothing_is_recorded(api, container, change, field):
    token = api.token("alice")
    since, until = period(container)
    body = {"deviceId": device_id(container, COLD_ROOM_A), "startTime": since.isoformat(),
            "endTime": until.isoformat(), "format": "csv"}
    if change.get("endTime") == "start":
        body["endTime"] = body["startTime"]
    elif "span" in change:
        body["endTime"] = (since + timedelta(days=change["span"])).isoformat()
    else:
        body.update(change)
    reply = api.call("POST", CREATE, token=token, json=body)
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert field in reply.body.get("errors", {}), reply.body
    assert exports(container) == []


def test_download_ids_that_try_to_leave_the_directory_are_not_found(api):
    token = api.token("alice")
    for bad in ("../../secret_key", "..", "x.csv", "abc/../../x"):
        response = download(api, token, bad)
        assert response.status_code == 404, bad
    for hostile in ("a" * 300, "\x00"):  # too long, a NUL: refused before any look-up
        assert download(api, token, hostile).status_code == 422


def test_an_account_has_at_most_three_exports_in_progress(app, container):
    api = ApiClient(app.flask.test_client(), "ru-RU")
    token = api.token("alice")
    for _ in range(3):
        ok(create(api, token, container, "csv", days=0.01))
    with container.session_factory()() as session:  # as if their jobs had not run yet
        session.execute(update(ExportRow).values(status="pending", progress=0))
        session.commit()
    refused = create(api, token, container, "csv", days=0.01)
    assert (refused.status, refused.code) == (409, 1201)
    assert "3" in refused.body["msg"] and "экспорт" in refused.body["msg"].lower()
    assert len(exports(container)) == 3
    # One that never reached a worker (the broker was down) stops counting after an hour.
    app.clock.advance(hours=1, seconds=1)
    assert create(api, token, container, "csv", days=0.01).status == 200


def test_an_account_without_the_download_centre_can_neither_export_nor_list(api, container):
    token = api.token("calibadmin")  # a role without device.detail nor consumer.download
    assert create(api, token, container, "csv").status == 403
    assert api.call("POST", PAGE, token=token, json={}).status == 403
    assert api.call("POST", LIST_EXPORT, token=token, json={}).status == 403
    assert exports(container) == []


def test_the_purge_job_deletes_file_and_record_after_a_week_and_the_code_still_verifies(api, container, clock):
    token = api.token("alice")
    csv_export = ok(create(api, token, container, "csv", days=0.1))
    pdf_export = ok(create(api, token, container, "pdf", days=0.1))
    with container.session_factory()() as session:
        code = session.scalar(select(ExportCertificateRow.code))
    directory = container.settings().export_dir
    assert (directory / f"{csv_export['id']}.csv").is_file()
    clock.advance(days=6, hours=23)
    assert BY_NAME["purge_expired_exports"].run(container) == "deleted 0 export(s) older than a week"
    clock.advance(hours=1)
    assert BY_NAME["purge_expired_exports"].run(container) == "deleted 2 export(s) older than a week"
    assert not (directory / f"{csv_export['id']}.csv").exists()
    assert not (directory / f"{pdf_export['id']}.pdf").exists()
    assert exports(container) == []
    assert ok(api.call("GET", VERIFY, query={"code": code}))["genuine"] is True
