"""The FDA periodic report (issue 22) over the API, on SQLite and PostgreSQL: made by the device's owner
or its organization's administrator while FDA mode is on, read by the organization's members and
by nobody else, refused for a bad period, versioned by its readings (a late one changes it) and
printed as a PDF with every signature's manifestation, in the reader's language."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from io import BytesIO

import pytest
from pypdf import PdfReader
from sqlalchemy import func, insert, select

from adapters.persistence.models import AccountRow, OrganizationRow, ReadingRow
from adapters.persistence.models_fda_reports import FdaReportRow
from adapters.persistence.unit_of_work import SqlAlchemyUnitOfWork, _Repository
from core.fda.model import JudgedLimit, Manifestation, Subject
from core.fda.reports import content_hash, content_head
from core.telemetry.downsample import Point
from tests.integration.test_attack_access import warehouse_rule
from tests.support.alarms import device_id, report
from tests.support.api import ApiClient, ok
from tests.support.demo_copy import seeded

R = "/device/FdaReport"
WAREHOUSE = "CR2B000000001"  # Acme's organization's: carol administers it, bob and dave only read it
ROOM_A = "RCW360A0000001"  # alice's own, shared with bob view-only
MAY = datetime(2026, 5, 1, tzinfo=UTC)
JUNE = datetime(2026, 6, 1, tzinfo=UTC)


def iso(instant: datetime) -> str:
    return instant.isoformat()


class Signatures:
    """core.fda.ports.SignatureReader as the signatures' store (the SIGN part) answers: each
    signature applies while the record's hash is the one it was signed on. Stands in for the
    store until it is merged, so that the report shows manifestations this test made."""

    def __init__(self) -> None:
        self.signed: list[tuple[str, str, str, Manifestation]] = []  # record type, id, hash, manifestation

    def sign(self, record_id: int, content_hash: str, manifestation: Manifestation) -> None:
        self.signed.append(("report", str(record_id), content_hash, replace(
            manifestation, record_type="report", record_id=str(record_id), record_label=f"Report {record_id}")))

    def of_record(self, record_type: str, record_id: str, current_hash: str) -> list[Manifestation]:
        return [replace(m, valid=signed == current_hash) for kind, rid, signed, m in self.signed
                if (kind, rid) == (record_type, record_id)]


@pytest.fixture
def teams(app):
    seeded(app, history=False, teams=True)
    app.clock._now = datetime(2026, 6, 15, 9, 0, tzinfo=UTC)
    return app


@pytest.fixture
def api(teams) -> ApiClient:
    return ApiClient(teams.flask.test_client())


@pytest.fixture
def signatures(teams, monkeypatch) -> Signatures:
    fake = Signatures()
    monkeypatch.setattr(SqlAlchemyUnitOfWork, "signature_reader", _Repository(lambda session: fake))
    return fake


def ids(container) -> dict[str, int]:
    with container.session_factory()() as session:
        found = {name: id_ for name, id_ in session.execute(select(AccountRow.user_name, AccountRow.id))}
        found["acme_org"] = session.scalar(select(OrganizationRow.id).where(OrganizationRow.name == "Acme Cold Chain"))
    return found


def fda_on(container, subject: Subject, on: bool = True) -> None:
    with container.uow() as uow:
        uow.fda_switches.set_on(subject, on)
        uow.commit()


def reports_made(container) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(FdaReportRow)) or 0


def may_readings(container, guid: str = WAREHOUSE) -> None:
    """Hourly readings through May: 5 °C, with three hours at 9.5 °C on the 10th."""
    values = [(h * 60, 9.5 if 9 * 24 + 3 <= h < 9 * 24 + 6 else 5.0) for h in range(31 * 24)]
    report(container, guid, MAY, *values)


def download(api: ApiClient, token: str, report_id: int, language: str = "en-US", zone: str = "Europe/Berlin"):
    return api.client.get(f"/api{R}/download", query_string={"id": report_id}, headers={
        "Authorization": f"Bearer {token}", "Accept-Language": language, "X-Time-Zone": zone})


def pdf_text(data: bytes) -> str:
    assert data.startswith(b"%PDF")
    return "\n".join(page.extract_text() for page in PdfReader(BytesIO(data)).pages)


@pytest.fixture
def acme_fda(teams, api) -> dict:
    """FDA on for Acme's organization, its cold room judged 2-8 °C, with May's readings."""
    known = ids(teams.container)
    device = device_id(teams.container, WAREHOUSE)
    # the limits first: once FDA mode is on, setting them takes a signature (test_fda_signing_api)
    ok(api.call("POST", "/device/DeviceAlarmRule/insert", token=api.token("acme"), json=warehouse_rule(device)))
    fda_on(teams.container, Subject(organization_id=known["acme_org"]))
    may_readings(teams.container)
    return {**known, "device": device}


def make(api: ApiClient, token: str, device: int, start: datetime = MAY, end: datetime = JUNE, **body):
    return api.call("POST", f"{R}/insert", token=token, json={
        "deviceId": device, "startTime": iso(start), "endTime": iso(end), **body})


# --- who makes and who reads ----------------------------------------------------------------------------


def test_an_administrator_makes_a_draft_that_the_organization_s_members_read(api, acme_fda):
    carol = api.token("carol")
    made = ok(make(api, carol, acme_fda["device"], title="  May, cold room  "))
    assert made["title"] == "May, cold room"
    assert (made["deviceId"], made["deviceName"], made["status"], made["signatures"]) == (
        acme_fda["device"], "Warehouse 1 cold room", "draft", [])
    assert made["createdBy"] == "carol"
    # in the caller's zone: the domestic edition's, without an X-Time-Zone
    assert made["startTime"] == "2026-05-01T08:00:00+08:00" and made["endTime"] == "2026-06-01T08:00:00+08:00"
    for reader in ("acme", "bob", "dave", "carol"):
        token = api.token(reader)
        assert ok(api.call("GET", f"{R}/get", token=token, query={"id": made["id"]})) == made
        listed = ok(api.call("POST", f"{R}/page", token=token, json={"organizationId": acme_fda["acme_org"]}))
        assert (listed["totalCount"], listed["data"]) == (1, [made])


def test_a_default_title_names_the_device_and_the_period_in_the_caller_s_time_zone(api, acme_fda):
    made = ok(api.call("POST", f"{R}/insert", token=api.token("acme"), headers={"X-Time-Zone": "Asia/Shanghai"},
                       json={"deviceId": acme_fda["device"], "startTime": "2026-05-01T00:00:00+08:00",
                             "endTime": "2026-06-01T00:00:00+08:00", "title": " "}))
    assert made["title"] == "Warehouse 1 cold room 2026-05-01 – 2026-06-01"
    assert made["startTime"] == "2026-05-01T00:00:00+08:00"


def test_a_read_only_member_a_sharee_a_stranger_and_the_operator_make_nothing_and_read_nothing(teams, api, acme_fda):
    carol = api.token("carol")
    made = ok(make(api, carol, acme_fda["device"]))
    fda_on(teams.container, Subject(account_id=acme_fda["alice"]))
    room = device_id(teams.container, ROOM_A)
    may_readings(teams.container, ROOM_A)
    alice_s = ok(make(api, api.token("alice"), room))
    bob, dave, alice, operator = (api.token(n) for n in ("bob", "dave", "alice", "operator"))
    # the organization's read-only members, and bob as the sharee of alice's room: the device is seen, 403
    for token, device in ((bob, acme_fda["device"]), (dave, acme_fda["device"]), (bob, room)):
        refused = make(api, token, device, start=MAY + timedelta(days=1))
        assert refused.status == 403, refused.body
        assert refused.body["msg"] == ("Only the owner of the device or an administrator of its organization may "
                                       "make its reports")
    # a stranger: as a device that does not exist
    assert make(api, alice, acme_fda["device"]).body == make(api, alice, 2_000_000_000).body == {
        "code": 404, "msg": "Not found", "data": None}
    assert make(api, operator, acme_fda["device"]).status == 403  # no FDA pages in the back office
    # reading: a sharee reads none of the owner's reports, a stranger none of the organization's
    for token, report_id in ((bob, alice_s["id"]), (alice, made["id"]), (alice, 2_000_000_000)):
        for path in ("get", "download"):
            answer = api.call("GET", f"{R}/{path}", token=token, query={"id": report_id})
            assert (answer.status, answer.body) == (404, {"code": 404, "msg": "Not found", "data": None})
    assert api.call("GET", f"{R}/get", token=operator, query={"id": made["id"]}).status == 403
    assert ok(api.call("POST", f"{R}/page", token=bob, json={"deviceId": room}))["totalCount"] == 0
    assert ok(api.call("POST", f"{R}/page", token=alice, json={"organizationId": acme_fda["acme_org"]})) == {
        "start": 1, "pageSize": 10, "totalCount": 0, "data": []}
    assert [r["id"] for r in ok(api.call("POST", f"{R}/page", token=alice, json={}))["data"]] == [alice_s["id"]]
    assert reports_made(teams.container) == 2


def test_with_fda_mode_off_no_report_is_made_and_the_caller_reads_why_in_its_language(teams, acme_fda):
    fda_on(teams.container, Subject(organization_id=acme_fda["acme_org"]), on=False)
    api = ApiClient(teams.flask.test_client(), language="zh-CN")
    refused = make(api, api.token("carol"), acme_fda["device"])
    assert (refused.status, refused.code) == (409, 2391), refused.body
    assert "FDA" in refused.body["msg"] and "FDA mode is off" not in refused.body["msg"]
    assert reports_made(teams.container) == 0


# --- the period and hostile input -----------------------------------------------------------------------


@pytest.mark.parametrize(("start", "end", "problem"), [
    (JUNE, MAY, "The end time must be after the start time"),
    (MAY, MAY, "The end time must be after the start time"),
    (MAY - timedelta(days=366), MAY + timedelta(seconds=1), "The time range may span at most 366 days"),
    (MAY, datetime(2026, 6, 15, 9, 0, 1, tzinfo=UTC), "The period must be over: choose an end time that has passed"),
])
def test_a_period_that_ends_first_is_too_long_or_is_not_over_is_refused(teams, api, acme_fda, start, end, problem):
    refused = make(api, api.token("acme"), acme_fda["device"], start, end)
    assert refused.status == 422 and refused.body["errors"] == {"endTime": [problem]}, refused.body
    assert reports_made(teams.container) == 0


def test_a_period_of_366_days_that_is_over_is_taken_once(teams, api, acme_fda):
    acme = api.token("acme")
    end = datetime(2026, 6, 15, 9, 0, tzinfo=UTC)
    ok(make(api, acme, acme_fda["device"], end - timedelta(days=366), end))
    again = make(api, acme, acme_fda["device"], end - timedelta(days=366), end, title="Again")
    assert (again.status, again.code, again.body["msg"]) == (409, 2392, "This device already has a report of "
                                                                         "exactly this period")
    assert reports_made(teams.container) == 1


@pytest.mark.parametrize("body", [
    {"title": "x" * 101}, {"title": "May \u0000"}, {"title": "May 🧊"}, {"title": "May\u202e"}, {"title": 12},
    {"deviceId": 2**31}, {"deviceId": 0}, {"deviceId": "1; DROP TABLE fda_reports"}, {"startTime": "yesterday"},
    {"startTime": "2026-05-01T00:00:00"}, {"endTime": "9" * 50}, {"organizationId": 1}, {"deviceId": None},
])
def test_hostile_input_is_refused_with_422_and_makes_nothing(teams, api, acme_fda, body):
    sent = {"deviceId": acme_fda["device"], "startTime": iso(MAY), "endTime": iso(JUNE), **body}
    refused = api.call("POST", f"{R}/insert", token=api.token("acme"), json=sent)
    assert refused.status == 422, refused.body
    assert reports_made(teams.container) == 0


@pytest.mark.parametrize("query", [{"id": 0}, {"id": 2**31}, {"id": "1 OR 1=1"}, {}, {"id": 1, "extra": 1}])
def test_a_hostile_report_id_is_refused_with_422(api, acme_fda, query):
    for path in ("get", "download"):
        assert api.call("GET", f"{R}/{path}", token=api.token("acme"), query=query).status == 422


@pytest.mark.parametrize("body", [{"pageSize": 201}, {"start": 0}, {"deviceId": 2**31}, {"organizationId": -1},
                                  {"sortField": "title"}, {"keyword": "x"}])
def test_a_hostile_page_query_is_refused_with_422(api, acme_fda, body):
    assert api.call("POST", f"{R}/page", token=api.token("acme"), json=body).status == 422


# --- the version and the signatures -----------------------------------------------------------------------


def version(container, report_id: int | str, reader: int) -> str | None:
    """The report's version as a signing call binds it (the unit of work's record_versions)."""
    with container.uow() as uow:
        found = uow.record_versions["report"].version_of(str(report_id), reader)
    return None if found is None else found.content_hash


def test_a_late_reading_in_the_period_changes_the_version_and_voids_the_signatures(teams, api, acme_fda, signatures):
    carol, acme_id = api.token("carol"), acme_fda["acme"]
    made = ok(make(api, carol, acme_fda["device"]))
    signed_on = version(teams.container, made["id"], acme_id)
    assert signed_on is not None and len(signed_on) == 64
    assert version(teams.container, made["id"], acme_fda["bob"]) == signed_on  # a reader's version is the same
    assert version(teams.container, made["id"], acme_fda["alice"]) is None  # a stranger's: none
    assert version(teams.container, "12abc", acme_id) is None
    signatures.sign(made["id"], signed_on, manifestation("Carol", "carol", "reviewed", "Europe/Berlin"))
    signatures.sign(made["id"], signed_on, manifestation("Acme QA", "acme", "approved", "Asia/Shanghai"))
    assert ok(api.call("GET", f"{R}/get", token=carol, query={"id": made["id"]}))["status"] == "approved"

    report(teams.container, WAREHOUSE, JUNE + timedelta(minutes=1), (0, 30.0))  # after the period: the same
    assert version(teams.container, made["id"], acme_id) == signed_on
    report(teams.container, WAREHOUSE, MAY + timedelta(days=3, seconds=30), (0, 5.0))  # late, in the period
    assert version(teams.container, made["id"], acme_id) not in (None, signed_on)
    now = ok(api.call("GET", f"{R}/get", token=carol, query={"id": made["id"]}))
    assert now["status"] == "draft"
    assert [(s["signerLogin"], s["meaning"], s["valid"]) for s in now["signatures"]] == [
        ("carol", "reviewed", False), ("acme", "approved", False)]


def test_the_database_digests_the_readings_exactly_as_the_core_defines_a_version(teams):
    """PostgreSQL computes the version in SQL, SQLite in Python: both are the core's bytes."""
    device = device_id(teams.container, WAREHOUSE)
    odd = [(MAY + timedelta(microseconds=1), -3.5, None), (MAY + timedelta(minutes=1, microseconds=999_999), None, 0.1),
           (MAY + timedelta(hours=3), 1e-300, -273.15), (MAY + timedelta(days=2), 5.000000000000001, 100.0),
           (MAY + timedelta(days=3), None, None), (JUNE, 123456789.123, 55.5), (JUNE + timedelta(seconds=1), 9.0, 1.0)]
    with teams.container.session_factory()() as session:
        session.execute(insert(ReadingRow), [{"device_id": device, "ts": ts, "temperature": t, "humidity": h,
                                              "received_at": JUNE} for ts, t, h in odd])
        session.commit()
    limits = (JudgedLimit("t", 2.0, 8.0), JudgedLimit("h", None, 90.0))
    head = content_head(device, WAREHOUSE, MAY, JUNE, limits)
    with teams.container.uow() as uow:
        computed = uow.fda_reports.content_hash(device, MAY, JUNE, head)
    expected = content_hash(device, WAREHOUSE, MAY, JUNE, limits,
                            [Point(ts, t, h) for ts, t, h in odd if ts <= JUNE])  # both ends of the period
    assert computed == expected
    with teams.container.uow() as uow:  # a period without readings is its head alone
        assert uow.fda_reports.content_hash(device, JUNE + timedelta(days=1), JUNE + timedelta(days=2), head) == (
            hashlib.sha256(head).hexdigest())


def manifestation(name: str, login: str, meaning: str, zone: str, at: datetime | None = None,
                  reason: str | None = None) -> Manifestation:
    return Manifestation(name, login, meaning, at or datetime(2026, 6, 2, 7, 30, tzinfo=UTC), zone, reason, None,
                         True, id=len(login), endorsement_id=None)


def test_the_status_follows_the_signatures_that_apply(teams, api, acme_fda, signatures):
    carol = api.token("carol")
    made = ok(make(api, carol, acme_fda["device"]))
    current = version(teams.container, made["id"], acme_fda["acme"])
    assert current is not None

    def status() -> str:
        return ok(api.call("GET", f"{R}/get", token=carol, query={"id": made["id"]}))["status"]

    signatures.sign(made["id"], current, manifestation("Acme QA", "acme", "approved", "UTC"))
    assert status() == "draft"  # an approval before any review approves nothing
    signatures.sign(made["id"], current, manifestation("Carol", "carol", "reviewed", "UTC"))
    assert status() == "reviewed"
    signatures.sign(made["id"], current, manifestation("Carol", "carol", "approved", "UTC"))
    assert status() == "reviewed"  # approved by the reviewer herself
    signatures.sign(made["id"], current, manifestation("Acme QA", "acme", "approved", "UTC"))
    assert status() == "approved"
    row = ok(api.call("GET", f"{R}/get", token=carol, query={"id": made["id"]}))["signatures"][-1]
    assert row == {"id": 4, "recordType": "report", "recordId": str(made["id"]),
                   "recordLabel": f"Report {made['id']}", "signerName": "Acme QA",
                   "signerLogin": "acme", "meaning": "approved", "meaningText": "Approved", "reason": None,
                   "signedAt": "2026-06-02T07:30:00+00:00", "timeZone": "UTC",
                   "localTime": "2026-06-02T07:30:00+00:00", "endorsementId": None, "endorsementName": None,
                   "valid": True}


# --- the PDF ----------------------------------------------------------------------------------------------


def test_the_pdf_shows_the_figures_and_both_manifestations_in_english(teams, api, acme_fda, signatures):
    carol = api.token("carol")
    made = ok(make(api, carol, acme_fda["device"], title="Cold room, May 2026"))
    current = version(teams.container, made["id"], acme_fda["acme"])
    assert current is not None
    signatures.sign(made["id"], current, manifestation("Carol Reviewer", "carol", "reviewed", "Europe/Berlin",
                                                       reason="Checked the excursion of the 10th"))
    signatures.sign(made["id"], current, manifestation("Acme QA", "acme", "approved", "Asia/Shanghai",
                                                       at=datetime(2026, 6, 3, 1, 5, tzinfo=UTC)))
    pdf = download(api, carol, made["id"])
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert "attachment" in pdf.headers["Content-Disposition"]
    text = " ".join(pdf_text(pdf.data).split())
    for expected in ("Cold room, May 2026", "Warehouse 1 cold room", WAREHOUSE,
                     "2026-05-01 02:00:00 – 2026-06-01 02:00:00", "Europe/Berlin", "Readings 744",
                     "Time out of range Temperature 3 h 0 min", "Status Approved", "MKT", "2.0 … 8.0",
                     "Audit trail Verified: ", f"Content (SHA-256): {current}", "Electronic signatures",
                     "Carol Reviewer (carol)", "Reviewed", "2026-06-02 09:30:00 UTC+02:00 (Europe/Berlin)",
                     "Checked the excursion of the 10th", "Acme QA (acme)", "Approved",
                     "2026-06-03 09:05:00 UTC+08:00 (Asia/Shanghai)", "legally binding"):
        assert expected in text, expected
    assert "No: the report changed" not in text
    summary = text[text.index("Summary"):text.index("Chart")]
    assert summary.count("°C") == 1 and summary.count("%RH") == 1  # a row a probe: its energy meter is none

    report(teams.container, WAREHOUSE, MAY + timedelta(days=20, minutes=7), (0, 5.0))  # a late reading
    again = download(api, carol, made["id"])
    text = " ".join(pdf_text(again.data).split())
    assert "Readings 745" in text and "Status Draft" in text
    assert text.count("No: the report changed after it was signed") == 2


def test_the_pdf_is_in_the_reader_s_language_chinese_included(teams, acme_fda, signatures):
    api = ApiClient(teams.flask.test_client(), language="zh-CN")
    carol = api.token("carol")
    made = ok(make(api, carol, acme_fda["device"], title="冷库五月报告"))
    current = version(teams.container, made["id"], acme_fda["acme"])
    assert current is not None
    signatures.sign(made["id"], current, manifestation("王芳", "carol", "reviewed", "Asia/Shanghai"))
    pdf = download(api, carol, made["id"], "zh-CN", "Asia/Shanghai")
    assert pdf.status_code == 200
    text = " ".join(pdf_text(pdf.data).split())
    for expected in ("冷库五月报告", "王芳 (carol)", "2026-06-02 15:30:00 UTC+08:00 (Asia/Shanghai)", "电子签名",
                     "审核", "超限时长"):
        assert expected in text, expected
    assert "Electronic signatures" not in text and "Time out of range" not in text


def test_a_report_without_readings_or_signatures_still_prints(teams, api, acme_fda):
    acme = api.token("acme")
    empty = ok(make(api, acme, acme_fda["device"], JUNE, JUNE + timedelta(days=7)))
    pdf = download(api, acme, empty["id"])
    text = " ".join(pdf_text(pdf.data).split())
    assert "Readings 0" in text and "Not signed yet" in text and "Status Draft" in text


def test_a_report_outlives_its_device_and_says_its_signatures_no_longer_apply(teams, api, acme_fda, signatures):
    acme = api.token("acme")
    made = ok(make(api, acme, acme_fda["device"]))
    current = version(teams.container, made["id"], acme_fda["acme"])
    assert current is not None
    signatures.sign(made["id"], current, manifestation("Carol", "carol", "reviewed", "UTC"))
    fda_on(teams.container, Subject(organization_id=acme_fda["acme_org"]), on=False)  # deleting needs it off
    ok(api.call("DELETE", "/device/Device/delete", token=acme, query={"deviceId": acme_fda["device"]}))
    kept = ok(api.call("GET", f"{R}/get", token=api.token("bob"), query={"id": made["id"]}))
    assert (kept["deviceName"], kept["status"], [s["valid"] for s in kept["signatures"]]) == ("", "draft", [False])
    gone = download(api, acme, made["id"])
    assert gone.status_code == 409 and gone.get_json()["code"] == 2393
