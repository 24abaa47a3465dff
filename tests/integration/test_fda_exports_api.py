"""Signed device-data exports under FDA mode (issue 22, 21 CFR 11.50, 11.70, 11.10(e)) over the API,
on SQLite and PostgreSQL, with the demo teams: acme creates Acme's organization, carol administers
it, bob and dave are plain (read-only) members, alice is a stranger to it and shares her cold room A
with bob view-only.

Where FDA mode is on for the device's subject, asking for a readings export takes the asker's
signature (meaning authored) in the transaction that records it; every file of it states the
signature's manifestation and whether the subject's audit trail verified when it was written, with
the trail's newest hash; a tampered trail is stated as broken. FDA off, or the device list: nothing
asked, files as ever. The existing permissions stay: who may not export a device signs nothing."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]
from pypdf import PdfReader

from adapters.persistence.models import ExportRow, OperationLogRow
from adapters.persistence.models_fda_signatures import FdaSignatureRow
from adapters.persistence.models_fda_trail import FdaTrailLinkRow
from tests.integration.test_fda_signing_api import NEEDS_SIGNATURE, Team, signature
from tests.integration.test_fda_trail_api import as_superuser
from tests.integration.test_sharing_api import entries
from tests.support.alarms import COLD_ROOM_A, device_id

X = "/device/DeviceDataExport"
HASH_LABEL = "Newest link's hash (keep it: a later trail without it lost links)"
COLUMNS = ("Time", "Temperature (°C)", "Humidity (%RH)")


@pytest.fixture
def team(app) -> Team:
    found = Team(app)
    ok_ = found.call("carol", "POST", "/base/BaseAccount/modifyBaseInfo", json={"realName": "Carol Chen"})
    assert ok_.status == 200, ok_.body
    return found


def export(team: Team, caller: str, fmt: str, device: int | None = None, **given):
    """Ask for an export of the last two days of the warehouse cold room (or `device`), with a
    signature when `given` says something of it."""
    until = team.clock.now()
    body = {"deviceId": device or team.device, "startTime": (until - timedelta(days=2)).isoformat(),
            "endTime": until.isoformat(), "format": fmt}
    if given:
        body["signature"] = signature(**given)
    return team.call(caller, "POST", f"{X}/create", json=body, headers={"X-Time-Zone": "Asia/Shanghai"})


def file_of(team: Team, user: str, export_id: str) -> bytes:
    response = team.api.client.get(f"/api{X}/download", query_string={"id": export_id},
                                   headers={"Authorization": f"Bearer {team.tokens[user]}", "Accept-Language": "en-US"})
    assert response.status_code == 200
    return response.data


def sheet_lines(data: bytes) -> tuple[list[tuple], list[tuple]]:
    book = load_workbook(io.BytesIO(data), read_only=True)
    return ([r for r in book.worksheets[0].iter_rows(values_only=True) if any(v is not None for v in r)],
            list(book.worksheets[1].iter_rows(values_only=True)))


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def link_hash(team: Team, seq: int) -> str:
    [link] = team.rows(FdaTrailLinkRow, FdaTrailLinkRow.chain_key == f"o:{team.org}", FdaTrailLinkRow.seq == seq)
    return link.hash


def stated_links(line: str) -> int:
    """The links a file says the trail had when it was written ("Verified: 4 entries, ...")."""
    found = re.match(r"Verified: (\d+) entries, unbroken \(checked \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)$", line)
    assert found, line
    return int(found.group(1))


def counts(team: Team) -> tuple[int, int]:
    return len(team.rows(ExportRow)), len(team.rows(FdaSignatureRow))


def test_an_export_under_fda_mode_is_signed_by_who_asks_and_a_refused_signature_records_nothing(team):
    assert team.enable().status == 200
    unsigned = export(team, "carol", "xlsx")
    assert (unsigned.status, unsigned.code, unsigned.body["msg"]) == (428, 2321, NEEDS_SIGNATURE)
    wrong = export(team, "carol", "xlsx", user="carol", password="Not#ThePassword1")
    assert (wrong.status, wrong.code) == (403, 2323)
    assert counts(team) == (0, 0)

    made = export(team, "carol", "xlsx", user="carol", timeZone="Asia/Shanghai")
    assert (made.status, made.data["status"]) == (200, "ready"), made.body
    assert counts(team) == (1, 1)
    [shown] = team.signatures("carol", "export", made.data["id"])
    assert (shown["signerName"], shown["signerLogin"], shown["meaning"], shown["meaningText"], shown["valid"]) == (
        "Carol Chen", "carol", "authored", "Authored", True)
    assert shown["localTime"].endswith("+08:00") and shown["recordLabel"].endswith("(XLSX)")
    # the organization's signatures list shows it to acme, as valid
    listed = team.call("acme", "POST", "/device/FdaRecord/signatures",
                       json={"organizationId": team.org, "recordType": "export"})
    assert [(s["recordId"], s["signerLogin"], s["valid"]) for s in listed.data["data"]] == [
        (made.data["id"], "carol", True)]

    lines, info = sheet_lines(file_of(team, "carol", made.data["id"]))
    when = shown["localTime"][:19].replace("T", " ")
    assert lines[0] == ("Electronic signature", f"Carol Chen (carol); Authored; {when} UTC+08:00 (Asia/Shanghai)")
    assert lines[1][0] == "Audit trail"
    # the newest link when the file was written: the export's own request is chained after it
    assert lines[2] == (HASH_LABEL, link_hash(team, stated_links(lines[1][1])))
    assert lines[3] == COLUMNS
    assert set(lines[:3]) <= set(info)  # the Info sheet's facts say it too


def test_the_pdf_and_the_csv_state_it_and_a_tampered_trail_is_stated_as_broken(team):
    team.enable()
    pdf = export(team, "carol", "pdf", user="carol")
    text = pdf_text(file_of(team, "carol", pdf.data["id"]))
    assert "Carol Chen (carol); Authored;" in text and "UTC+00:00 (UTC)" in text
    links = stated_links(re.search(r"Verified: .*?\)", text.replace("\n", " ")).group(0))
    assert link_hash(team, links)[:20] in text.replace("\n", "")

    [first] = team.rows(FdaTrailLinkRow, FdaTrailLinkRow.chain_key == f"o:{team.org}", FdaTrailLinkRow.seq == 1)
    with as_superuser(team.container) as connection:
        connection.execute(OperationLogRow.__table__.update().where(OperationLogRow.id == first.operation_id)
                           .values(client_address="10.6.6.6"))
    later = export(team, "carol", "csv", password=signature()["password"])  # within the window: the password alone
    rows = list(csv.reader(io.StringIO(file_of(team, "carol", later.data["id"]).decode("utf-8-sig"))))
    assert rows[0][:2] == ["Electronic signature", rows[0][1]] and rows[0][1].startswith("Carol Chen (carol)")
    assert rows[1][0] == "Audit trail" and rows[1][1].startswith("Broken at entry 1 (checked ")
    assert rows[2][0] == HASH_LABEL and rows[2][1] in {link.hash for link in team.rows(FdaTrailLinkRow)}
    assert rows[3] == [] and tuple(rows[4]) == COLUMNS
    broken = export(team, "carol", "pdf", password=signature()["password"])
    assert "Broken at entry 1" in pdf_text(file_of(team, "carol", broken.data["id"]))


def test_labels_are_in_the_reader_s_language(team):
    team.enable()
    team.api.language = "de-DE"
    made = export(team, "carol", "xlsx", user="carol")
    lines, _ = sheet_lines(file_of(team, "carol", made.data["id"]))
    translate = team.container.translator().translate
    assert lines[0][0] == translate("Electronic signature", "de-DE") != "Electronic signature"
    assert lines[1][0] == translate("Audit trail", "de-DE") and lines[1][1].startswith("Geprüft")


def test_fda_mode_off_asks_nothing_and_the_files_are_as_ever_and_the_device_list_is_never_signed(team):
    made = export(team, "carol", "csv")
    assert made.status == 200 and counts(team) == (1, 0)
    rows = list(csv.reader(io.StringIO(file_of(team, "carol", made.data["id"]).decode("utf-8-sig"))))
    assert tuple(rows[0]) == COLUMNS
    team.enable()
    listed = team.call("carol", "POST", f"{X}/createDeviceList", json={})
    assert listed.status == 200 and counts(team) == (2, 0)


def test_who_may_not_export_the_device_signs_nothing_a_member_who_reads_it_signs_as_author(team):
    team.enable()
    stranger = export(team, "alice", "xlsx", user="alice")
    assert (stranger.status, stranger.body["msg"]) == (404, "Not found")
    assert counts(team) == (0, 0)
    # dave, a read-only member, may export the organization's devices: he signs his own export
    dave = export(team, "dave", "csv", user="dave")
    assert dave.status == 200 and team.signatures("dave", "export", dave.data["id"])[0]["signerLogin"] == "dave"
    # an export is no record another may sign or read the signatures of, beyond its subject's people
    forged = team.sign("alice", "export", dave.data["id"], user="alice", meaning="approved")
    assert forged.status == 404
    assert team.call("alice", "GET", "/device/FdaRecord/recordSignatures",
                     query={"recordType": "export", "recordId": dave.data["id"]}).status == 404
    assert len(team.signatures("acme", "export", dave.data["id"])) == 1


def test_a_sharee_signs_an_export_of_the_owner_s_device_only_where_the_share_grants_the_chart(team):
    alice, room = team.tokens["alice"], device_id(team.container, COLD_ROOM_A)
    assert team.enable("alice", organization=None).status == 200  # alice's own records
    # bob holds room A under "View only": he may export it, and signs it; alice's list shows it
    signed = export(team, "bob", "xlsx", device=room, user="bob")
    assert signed.status == 200, signed.body
    [mine] = team.call("alice", "POST", "/device/FdaRecord/signatures", json={"recordType": "export"}).data["data"]
    assert (mine["signerLogin"], mine["valid"]) == ("bob", True)
    # under a template without the chart, he may not export it: nothing is recorded, signature or not
    realtime = team.api.call("POST", "/device/DevicePermissionModel/insert", token=alice, json={
        "name": "Live only", "permissions": entries(realtime=(1, 0))})
    assert realtime.status == 200, realtime.body
    [share] = team.call("alice", "POST", "/device/DeviceShare/page", json={"direction": "mine"}).data["data"]
    assert team.call("alice", "PUT", "/device/DeviceShare/update",
                     json={"id": share["id"], "templateId": realtime.data["id"]}).status == 200
    before = counts(team)
    refused = export(team, "bob", "xlsx", device=room, password=signature()["password"])
    assert refused.status == 403 and refused.body["msg"] == "Your permissions on this device do not include this"
    assert counts(team) == before


def test_a_failed_export_tried_again_is_signed_again(team):
    team.enable()
    made = export(team, "carol", "csv", user="carol")
    with team.container.session_factory()() as session:
        session.get(ExportRow, made.data["id"]).status = "failed"
        session.commit()
    retry = f"{X}/retry"
    unsigned = team.call("carol", "POST", retry, query={"id": made.data["id"]})
    assert (unsigned.status, unsigned.code) == (428, 2321) and counts(team) == (1, 1)
    again = team.call("carol", "POST", retry, query={"id": made.data["id"]},
                      json={"signature": signature(password=signature()["password"])})
    assert again.status == 200, again.body
    assert [s["valid"] for s in team.signatures("carol", "export", again.data["id"])] == [True]
    assert counts(team) == (1, 2)  # the failed one deleted; its signature stays, as every signature does


# --- the waybill's trip report -------------------------------------------------------------------------


def trip_pdf(team: Team, user: str, waybill: int) -> str:
    response = team.api.client.get("/api/device/Waybill/reportPdf", query_string={"id": waybill},
                                   headers={"Authorization": f"Bearer {team.tokens[user]}",
                                            "X-Time-Zone": "Asia/Shanghai", "Accept-Language": "en-US"})
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    return pdf_text(response.data).replace("\n", " ")


def test_the_trip_report_shows_the_waybill_s_signatures_each_marked_whether_it_still_applies(team):
    waybill = team.call("acme", "POST", "/device/Waybill/insert",
                        json={"orderNum": "WB-7", "organizationId": team.org}).data["id"]
    assert "Electronic signatures" not in trip_pdf(team, "dave", waybill)  # none: no such section
    assert team.sign("carol", "waybill", waybill, user="carol", meaning="reviewed", timeZone="Asia/Shanghai",
                     reason="Seals checked").status == 200
    text = trip_pdf(team, "dave", waybill)
    assert "Electronic signatures" in text and "Carol Chen (carol)" in text and "Reviewed" in text
    assert "UTC+08:00 (Asia/Shanghai)" in text and "Seals checked" in text
    assert "changed after it was signed" not in text
    assert team.call("acme", "PUT", "/device/Waybill/update", json={"id": waybill, "orderNum": "WB-7A"}).status == 200
    assert team.sign("acme", "waybill", waybill, user="acme", meaning="approved").status == 200
    text = trip_pdf(team, "dave", waybill)
    assert text.count("No: the waybill changed after it was signed") == 1 and "acme (acme)" in text
    # a share link's PDF has no reader to check the signatures as: it shows none, and no signer's login
    link = team.call("acme", "POST", "/device/Waybill/share", json={"id": waybill, "validity": "8h"})
    assert link.status == 200, link.body
    shared = team.api.client.get("/api/device/QuickSearch/sharePdf", query_string={"token": link.data["token"]},
                                 headers={"Accept-Language": "en-US"})
    assert shared.status_code == 200 and shared.mimetype == "application/pdf"
    assert "(carol)" not in pdf_text(shared.data) and "Electronic signatures" not in pdf_text(shared.data)
