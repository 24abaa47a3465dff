"""The tamper-evident audit trail (issue 22, 21 CFR 11.10(e)) on SQLite and PostgreSQL with the demo
data: while FDA mode is on for a subject, every operation-log entry it reads is chained in the
entry's transaction; the verification recomputes the chain and names the first link that an edit
made as a superuser would (triggers off) broke; the application's role may not change the log at
all on PostgreSQL; concurrent writers keep one linear chain; FDA mode keeps the devices' readings."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
from contextlib import contextmanager
from datetime import timedelta
from io import BytesIO
from pathlib import Path

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]
from sqlalchemy import create_engine, event, func, insert, select, text
from sqlalchemy.exc import DBAPIError, ProgrammingError

from adapters.persistence import append_only, fda_trail
from adapters.persistence.audit import KINDS, SKIPPED_TABLES, AuditContext, recording
from adapters.persistence.database import make_engine
from adapters.persistence.migrate import upgrade
from adapters.persistence.models import (
    AccountRow,
    DeviceRow,
    OperationChangeRow,
    OperationLogRow,
    OperationReaderRow,
    OrganizationRow,
    ReadingRow,
)
from adapters.persistence.models_fda_trail import FdaTrailLinkRow
from core.fda.model import Subject
from core.fda.trail import GENESIS
from entrypoints.api.fda.trail_views import TrailRowSchema, TrailVerificationSchema
from entrypoints.api.framework import page_of
from tests.integration.test_device_history_api import store
from tests.integration.test_devices_api import conforms
from tests.support.alarms import device_id
from tests.support.api import ApiClient, ok
from tests.support.fixtures import PG_ADMIN_URL

pytestmark = pytest.mark.usefixtures("demo")

F = "/device/FdaRecord"
VERIFY, TRAIL, EXPORT = f"{F}/verify", f"{F}/trail", f"{F}/trail/export"
UPDATE = "/device/Device/update"
ALICE_ROOM, ACME_ROOM = "RCW360A0000001", "CR2B000000001"


def ids(container) -> dict[str, int]:
    with container.session_factory()() as session:
        accounts = dict(session.execute(select(AccountRow.user_name, AccountRow.id)).all())
        accounts["org"] = session.scalar(select(OrganizationRow.id).where(OrganizationRow.name == "Acme Cold Chain"))
    return accounts


def switch(container, subject: Subject, on: bool, actor: str = "acme") -> None:
    """FDA mode on or off as a recorded call would set it (the enable call is the signing part's)."""
    actor_id = ids(container)[actor]
    audit = AuditContext(at=container.clock().now(), actor_account_id=actor_id, actor_name=actor,
                         client_address="127.0.0.1", action="FdaRecord.enable" if on else "FdaRecord.disable",
                         method="POST")
    with recording(audit), container.uow() as uow:
        uow.fda_switches.set_on(subject, on)
        uow.commit()


def rename(api, token, device: int, name: str):
    return ok(api.call("PUT", UPDATE, token=token, json={"deviceId": device, "deviceName": name}))


def links(container, chain_key: str) -> list[FdaTrailLinkRow]:
    with container.session_factory()() as session:
        return list(session.scalars(select(FdaTrailLinkRow).where(FdaTrailLinkRow.chain_key == chain_key)
                                    .order_by(FdaTrailLinkRow.seq)))


def verify(api, user: str, organization: int | None = None, **headers) -> dict:
    reply = api.call("GET", VERIFY, token=api.token(user), query={"organizationId": organization} if organization
                     else None, headers=headers or None)
    conforms(reply, TrailVerificationSchema)
    return ok(reply)


@pytest.fixture
def org_trail(api, container):
    """Acme's organization with FDA mode on, then two renames of its cold room by acme: three links."""
    known = ids(container)
    switch(container, Subject(organization_id=known["org"]), True)
    acme, room = api.token("acme"), device_id(container, ACME_ROOM)
    rename(api, acme, room, "Room 1")
    rename(api, acme, room, "Room 2")
    return known["org"]


@contextmanager
def as_superuser(container):
    """A connection that edits the log as a superuser would: triggers and foreign keys off."""
    engine = container.engine()
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            connection.execute(text("SET LOCAL session_replication_role = replica"))
            yield connection
    else:
        with engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # outside a transaction, or it does nothing
            connection.commit()
            try:
                with connection.begin(), append_only.lifted(connection):
                    yield connection
            finally:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


# --- what is chained ----------------------------------------------------------------------------------


def test_while_fda_mode_is_on_every_entry_is_chained_from_the_switch_on_and_verifies(api, container, org_trail):
    chain = links(container, f"o:{org_trail}")
    assert [link.seq for link in chain] == [1, 2, 3]
    assert chain[0].previous_hash == GENESIS
    assert [link.previous_hash for link in chain[1:]] == [link.hash for link in chain[:-1]]
    assert verify(api, "acme", org_trail) == {"verified": True, "links": 3, "firstBroken": None,
                                              "checkedAt": verify(api, "acme", org_trail)["checkedAt"]}
    # newest first, each with its entry as the operation log shows it
    reply = api.call("POST", TRAIL, token=api.token("acme"), json={"organizationId": org_trail})
    conforms(reply, page_of(TrailRowSchema))
    rows = ok(reply)["data"]
    assert [r["seq"] for r in rows] == [3, 2, 1] and rows[0]["hash"] == chain[2].hash
    assert rows[0]["previousHash"] == chain[1].hash
    assert [r["operation"]["action"] for r in rows] == ["Device.update", "Device.update", "FdaRecord.enable"]
    assert rows[0]["operation"]["changes"][0]["fields"] == {"device_name": ["Room 1", "Room 2"]}
    assert rows[2]["operation"]["changes"][0]["fields"] == {"enable_fda": [0, 1]}
    # acme's own records are not under FDA mode: its own chain is empty, and verifies
    assert verify(api, "acme")["links"] == 0


def test_the_trail_is_filtered_by_the_entry_s_time(api, container, org_trail, clock):
    clock.advance(days=2)
    rename(api, api.token("acme"), device_id(container, ACME_ROOM), "Room 3")
    since = clock.now().isoformat()
    rows = ok(api.call("POST", TRAIL, token=api.token("acme"), json={"organizationId": org_trail,
                                                                   "startTime": since}))
    assert (rows["totalCount"], [r["seq"] for r in rows["data"]]) == (1, [4])
    older = ok(api.call("POST", TRAIL, token=api.token("acme"), json={"organizationId": org_trail,
                                                                    "endTime": since, "pageSize": 2, "start": 2}))
    assert (older["totalCount"], [r["seq"] for r in older["data"]]) == (3, [1])


def test_switching_off_is_the_last_link_and_later_changes_are_not_chained(api, container, org_trail):
    switch(container, Subject(organization_id=org_trail), False)
    rename(api, api.token("acme"), device_id(container, ACME_ROOM), "Room 3")
    chain = links(container, f"o:{org_trail}")
    assert len(chain) == 4
    [last] = ok(api.call("POST", TRAIL, token=api.token("acme"), json={"organizationId": org_trail,
                                                                     "pageSize": 1}))["data"]
    assert (last["operation"]["action"], last["operation"]["changes"][0]["fields"]) == (
        "FdaRecord.disable", {"enable_fda": [1, 0]})
    assert verify(api, "acme", org_trail)["verified"] is True


def test_an_account_s_own_trail_holds_what_it_does_and_what_it_owns_refused_attempts_too(api, container):
    alice_id, alice = ids(container)["alice"], api.token("alice")
    switch(container, Subject(account_id=alice_id), True, actor="alice")
    rename(api, alice, device_id(container, ALICE_ROOM), "Mine")
    refused = api.call("PUT", UPDATE, token=alice, json={"deviceId": device_id(container, ACME_ROOM),
                                                          "deviceName": "Not mine"})
    assert refused.status == 404
    rows = ok(api.call("POST", TRAIL, token=alice, json={}))["data"]
    assert [(r["operation"]["action"], r["operation"]["outcome"]) for r in rows] == [
        ("Device.update", "refused"), ("Device.update", "succeeded"), ("FdaRecord.enable", "succeeded")]
    assert verify(api, "alice") == {**verify(api, "alice"), "verified": True, "links": 3}
    assert links(container, f"o:{ids(container)['org']}") == []  # acme's organization is not under FDA mode


def test_a_later_batch_of_the_same_call_is_a_link_of_its_own(api, container, org_trail):
    """A call whose work commits twice (here: two transactions under one recording) adds a link
    for the second batch, covering only its changes, under the same entry."""
    room = device_id(container, ACME_ROOM)
    acme_id = ids(container)["acme"]
    audit = AuditContext(at=container.clock().now(), actor_account_id=acme_id, actor_name="acme",
                         client_address="127.0.0.1", action="Device.update", method="PUT")
    with recording(audit):
        for name in ("Batch 1", "Batch 2"):
            with container.uow() as uow:
                uow.device_registry.update(room, {"name": name})
                uow.commit()
    first, second = links(container, f"o:{org_trail}")[-2:]
    assert first.operation_id == second.operation_id and set(first.change_ids).isdisjoint(second.change_ids)
    assert verify(api, "acme", org_trail)["verified"] is True


# --- tampering is found ---------------------------------------------------------------------------------


def test_an_entry_edited_as_a_superuser_is_named_by_the_verification(api, container, org_trail):
    second = links(container, f"o:{org_trail}")[1]
    with as_superuser(container) as connection:
        connection.execute(OperationLogRow.__table__.update().where(OperationLogRow.id == second.operation_id)
                           .values(client_address="10.6.6.6"))
    answer = verify(api, "acme", org_trail, **{"Accept-Language": "de-DE"})
    broken = answer["firstBroken"]
    assert (answer["verified"], answer["links"], broken["seq"], broken["operationId"], broken["reason"]) == (
        False, 3, 2, second.operation_id, "entryChanged")
    assert broken["reasonText"] == container.translator().translate(
        "The entry or its changes differ from what was chained", "de-DE") != \
        "The entry or its changes differ from what was chained"
    # bob, a plain member of the organization, verifies it too
    assert verify(api, "bob", org_trail)["firstBroken"]["seq"] == 2


def test_a_change_edited_or_slipped_into_a_chained_entry_is_named(api, container, org_trail):
    third = links(container, f"o:{org_trail}")[2]
    with as_superuser(container) as connection:
        connection.execute(insert(OperationChangeRow).values(
            operation_id=third.operation_id, object_type="device", object_id="1", kind="update",
            fields={"device_name": ["a", "b"]}))
    assert verify(api, "acme", org_trail)["firstBroken"]["reason"] == "changeAdded"
    with as_superuser(container) as connection:
        connection.execute(OperationChangeRow.__table__.update()
                           .where(OperationChangeRow.id == third.change_ids[0])
                           .values(fields={"device_name": ["Room 1", "Room 9"]}))
    broken = verify(api, "acme", org_trail)["firstBroken"]
    assert (broken["seq"], broken["reason"]) == (3, "entryChanged")


def test_a_deleted_link_is_found(api, container, org_trail):
    with as_superuser(container) as connection:
        connection.execute(FdaTrailLinkRow.__table__.delete().where(
            FdaTrailLinkRow.chain_key == f"o:{org_trail}", FdaTrailLinkRow.seq == 2))
    answer = verify(api, "acme", org_trail)
    assert (answer["verified"], answer["links"], answer["firstBroken"]["seq"], answer["firstBroken"]["reason"]) == (
        False, 2, 3, "linkMissing")


def test_a_deleted_entry_is_found(api, container, org_trail):
    second = links(container, f"o:{org_trail}")[1]
    with as_superuser(container) as connection:
        for table in (OperationChangeRow, OperationReaderRow):
            connection.execute(table.__table__.delete().where(table.operation_id == second.operation_id))
        connection.execute(OperationLogRow.__table__.delete().where(OperationLogRow.id == second.operation_id))
    broken = verify(api, "acme", org_trail)["firstBroken"]
    assert (broken["seq"], broken["operationId"], broken["reason"]) == (2, second.operation_id, "entryMissing")
    [_, row, _] = ok(api.call("POST", TRAIL, token=api.token("acme"), json={"organizationId": org_trail}))["data"]
    assert row["seq"] == 2 and row["operation"] is None


def test_a_link_rewritten_to_match_its_edited_entry_breaks_the_next_link(api, container, org_trail):
    from core.fda.trail import link_hash

    chain = links(container, f"o:{org_trail}")
    second = chain[1]
    with as_superuser(container) as connection:
        connection.execute(OperationLogRow.__table__.update().where(OperationLogRow.id == second.operation_id)
                           .values(actor_name="nobody"))
    with container.uow() as uow:
        [record] = [r for r in uow.fda_trail.linked(f"o:{org_trail}") if r.link.seq == 2]
    forged = link_hash(second.chain_key, 2, second.previous_hash, record.entry, record.changes)
    with as_superuser(container) as connection:
        connection.execute(FdaTrailLinkRow.__table__.update().where(FdaTrailLinkRow.id == second.id)
                           .values(hash=forged))
    broken = verify(api, "acme", org_trail)["firstBroken"]
    assert (broken["seq"], broken["reason"]) == (3, "linkAltered")


def test_the_application_cannot_change_the_trail_the_triggers_refuse(container, org_trail):
    engine = container.engine()
    for statement in (FdaTrailLinkRow.__table__.update().values(hash="0" * 64), FdaTrailLinkRow.__table__.delete()):
        with pytest.raises(DBAPIError, match="append-only"), engine.begin() as connection:
            connection.execute(statement)
    assert len(links(container, f"o:{org_trail}")) == 3


# --- exports and the command line ---------------------------------------------------------------------


def sheet(api, path: str, user: str, method: str = "GET", **kwargs) -> list[tuple]:
    response = api.client.open(f"/api{path}", method=method, headers={
        "Authorization": f"Bearer {api.token(user)}", "Accept-Language": "en-US", "X-Time-Zone": "Asia/Shanghai"},
        **kwargs)
    assert response.status_code == 200 and response.mimetype.endswith("sheet"), response.get_data(as_text=True)
    return list(load_workbook(BytesIO(response.data)).active.iter_rows(values_only=True))


def test_the_trail_export_says_first_whether_it_verified_then_lists_the_links(api, container, org_trail):
    chain = links(container, f"o:{org_trail}")
    rows = sheet(api, EXPORT, "acme", query_string={"organizationId": org_trail})
    assert rows[0][:2] == ("Audit trail", "Acme Cold Chain") and rows[1][:2] == ("Verified", "Yes")
    assert rows[2][:2] == ("Links", 3) and rows[4][:2] == ("First broken link", "None")
    assert rows[3][1].endswith("+08:00") and rows[5][1] == chain[2].hash
    header = rows.index(next(r for r in rows if r and r[0] == "Link"))
    assert [r[0] for r in rows[header + 1:]] == [3, 2, 1]
    assert rows[header + 1][-2:] == (chain[1].hash, chain[2].hash) and rows[header + 1][4] == "Edit device"
    with as_superuser(container) as connection:
        connection.execute(OperationLogRow.__table__.update().where(OperationLogRow.id == chain[0].operation_id)
                           .values(status=201))
    rows = sheet(api, EXPORT, "acme", query_string={"organizationId": org_trail})
    assert rows[1][:2] == ("Verified", "No")
    assert rows[4][1].startswith(f"Link 1, entry {chain[0].operation_id} of ") and rows[4][1].endswith(
        ": The entry or its changes differ from what was chained")


def test_the_operation_log_export_says_whether_the_reader_s_trails_verified(api, container, org_trail):
    rows = sheet(api, "/base/OperationLog/export", "acme", method="POST", json={})
    assert rows[0][:2] == ("Audit trail", "Acme Cold Chain") and rows[1][:2] == ("Verified", "Yes")
    assert rows[7][0] == "Time"  # the log's own header after the trail's lines and a blank line
    # alice has FDA mode on nowhere: her export starts with the header
    assert sheet(api, "/base/OperationLog/export", "alice", method="POST", json={})[0][0] == "Time"


def coldchain(container, tmp_path, *args: str) -> subprocess.CompletedProcess:
    """The `coldchain` command of this source tree (the installed script may be another checkout's)."""
    environment = {k: v for k, v in os.environ.items() if k not in ("APP_ENV", "EDITION")}
    environment.update({"DATABASE_URL": container.settings().database_url, "VAR_DIR": str(tmp_path), "APP_ENV": "test",
                        "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")})
    return subprocess.run([sys.executable, "-m", "entrypoints.cli", *args], capture_output=True, text=True,
                          env=environment, timeout=120)


def test_the_command_line_verifies_a_trail_and_names_the_first_broken_link(container, org_trail, tmp_path):
    result = coldchain(container, tmp_path, "fda-verify", "--organization", str(org_trail))
    assert result.returncode == 0 and "verified: 3 links" in result.stdout, result.stderr
    assert coldchain(container, tmp_path, "fda-verify", "--account", "ACME").returncode == 0  # any case
    second = links(container, f"o:{org_trail}")[1]
    with as_superuser(container) as connection:
        connection.execute(OperationLogRow.__table__.update().where(OperationLogRow.id == second.operation_id)
                           .values(action="Device.insert"))
    result = coldchain(container, tmp_path, "fda-verify", "--organization", str(org_trail))
    assert result.returncode == 1 and f"BROKEN at link 2 (operation-log entry {second.operation_id} " in result.stdout
    assert coldchain(container, tmp_path, "fda-verify", "--organization", "999999").returncode == 2


# --- who reads which trail, and hostile input -------------------------------------------------------


def test_members_verify_their_organization_s_trail_managers_read_it_strangers_get_404(api, container, org_trail):
    for user in ("acme", "bob"):
        assert verify(api, user, org_trail)["links"] == 3
    bob = api.token("bob")
    assert api.call("POST", TRAIL, token=bob, json={"organizationId": org_trail}).status == 403
    assert api.call("GET", EXPORT, token=bob, query={"organizationId": org_trail}).status == 403
    alice = api.token("alice")
    for method, path, where in (("GET", VERIFY, "query"), ("POST", TRAIL, "json"), ("GET", EXPORT, "query")):
        for organization in (org_trail, 2_000_000_000):
            reply = api.call(method, path, token=alice, **{where: {"organizationId": organization}})
            assert reply.body == {"code": 404, "msg": "Not found", "data": None}, (path, reply.body)
    operator = api.token("operator")
    assert api.call("GET", VERIFY, token=operator).status == 403  # the back office holds no FDA page


@pytest.mark.parametrize("body,field", [
    ({"organizationId": 2**31}, "organizationId"), ({"organizationId": 0}, "organizationId"),
    ({"organizationId": "1; drop table"}, "organizationId"), ({"pageSize": 10**9}, "pageSize"),
    ({"startTime": "yesterday"}, "startTime"), ({"startTime": "2026-01-01T00:00:00" + "0" * 60}, "startTime"),
    ({"startTime": "2026-01-02T00:00:00+00:00", "endTime": "2026-01-01T00:00:00+00:00"}, "endTime"),
    ({"sortField": "hash"}, "sortField"), ({"chainKey": "o:1"}, "chainKey"),
])
def test_a_bad_trail_query_is_a_422_naming_the_field(api, body, field):
    reply = api.call("POST", TRAIL, token=api.token("acme"), json=body, headers={"Accept-Language": "ru-RU"})
    assert reply.status == 422 and field in reply.body["errors"], reply.body


@pytest.mark.parametrize("query", [{"organizationId": "x"}, {"organizationId": str(2**63)}, {"other": "1"}])
def test_a_bad_verify_query_is_a_422(api, query):
    assert api.call("GET", VERIFY, token=api.token("acme"), query=query).status == 422


# --- FDA mode keeps the readings -----------------------------------------------------------------------


def readings(container, device: int) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(ReadingRow).where(ReadingRow.device_id == device))


def test_while_fda_mode_is_on_a_device_s_readings_are_neither_cleared_nor_deleted(api, container, org_trail):
    acme, room = api.token("acme"), device_id(container, ACME_ROOM)
    store(container, room, [(container.clock().now() - timedelta(minutes=i), 4.0, None) for i in range(5)])
    before = readings(container, room)
    for method, path, kwargs in (("POST", "/device/Device/clearData", {"query": {"deviceId": room}}),
                                 ("DELETE", "/device/Device/delete", {"query": {"deviceId": room}}),
                                 ("POST", "/device/Device/batchDelete", {"json": {"deviceIds": [room]}})):
        reply = api.call(method, path, token=acme, headers={"Accept-Language": "ru-RU"}, **kwargs)
        assert (reply.status, reply.code) == (409, 2351), (path, reply.body)
        assert "FDA" in reply.body["msg"] and "keeps" not in reply.body["msg"]  # in the caller's language
    assert readings(container, room) == before > 0
    switch(container, Subject(organization_id=org_trail), False)
    assert ok(api.call("POST", "/device/Device/clearData", token=acme, query={"deviceId": room}))["readings"] == before


def test_while_fda_mode_is_on_a_device_stays_with_the_organization_that_keeps_its_records(api, container,
                                                                                         org_trail):
    """Taken out, the device's readings would be its owner's again, outside the trail, and deletable."""
    acme, room = api.token("acme"), device_id(container, ACME_ROOM)
    move = {"deviceIds": [room], "organizationId": None}
    reply = api.call("POST", "/device/Device/changeOrganization", token=acme, json=move,
                     headers={"Accept-Language": "ru-RU"})
    assert (reply.status, reply.code) == (409, 2352), reply.body
    assert "FDA" in reply.body["msg"] and "keeps" not in reply.body["msg"]  # in the caller's language
    with container.session_factory()() as session:
        assert session.get(DeviceRow, room).organization_id == org_trail
    switch(container, Subject(organization_id=org_trail), False)
    assert ok(api.call("POST", "/device/Device/changeOrganization", token=acme, json=move))["moved"] == 1


def test_retention_waits_while_fda_mode_keeps_a_device_s_readings(container, clock):
    expired = device_id(container, "RCW360A0000003")  # alice's, expired 15 days ago
    before = readings(container, expired)
    switch(container, Subject(account_id=ids(container)["alice"]), True, actor="alice")
    clock.advance(days=130)
    report = container.purge_readings()()
    assert (report.readings, readings(container, expired)) == (0, before)
    assert report.kept == 2  # and cold room B's, which expired 20 days from the start


# --- cost, concurrency, and the database's own refusal -----------------------------------------------


def test_chaining_costs_one_query_per_committed_call_when_no_reader_has_fda_mode_on(api, container, monkeypatch):
    alice, room = api.token("alice"), device_id(container, ALICE_ROOM)
    statements: list[str] = []

    def count(_connection, _cursor, statement, *_args):
        statements.append(statement)

    event.listen(container.engine(), "before_cursor_execute", count)
    try:
        rename(api, alice, room, "Counted 1")
        with_chain = len(statements)
        statements.clear()
        monkeypatch.setattr("adapters.persistence.audit.chain_entry", lambda *args, **kwargs: None)
        rename(api, alice, room, "Counted 2")
        without = len(statements)
    finally:
        event.remove(container.engine(), "before_cursor_execute", count)
    assert with_chain - without == 1


def test_concurrent_writers_keep_one_linear_chain(app, container, org_trail):
    if container.engine().dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing runs concurrently to serialise")
    room, other = device_id(container, ACME_ROOM), device_id(container, "RCW360B0000001")
    errors: list[BaseException] = []

    def writer(device: int, prefix: str) -> None:
        try:
            api = ApiClient(app.flask.test_client())
            token = api.token("acme")
            for i in range(10):
                rename(api, token, device, f"{prefix} {i}")
        except BaseException as error:  # noqa: BLE001 - reported by the test's thread
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(d, p)) for d, p in ((room, "A"), (other, "B"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    chain = links(container, f"o:{org_trail}")
    assert [link.seq for link in chain] == list(range(1, 24))
    assert [link.previous_hash for link in chain] == [GENESIS, *(link.hash for link in chain[:-1])]
    assert len({link.operation_id for link in chain}) == 23
    with container.uow() as uow:
        from core.fda.trail import first_broken

        assert first_broken(uow.fda_trail.linked(f"o:{org_trail}")) is None


def test_the_role_that_owns_the_database_and_migrated_it_may_not_change_the_log(app):
    if app.container.engine().dialect.name != "postgresql":
        pytest.skip("roles and grants are PostgreSQL's")
    role, database = f"trail_owner_{uuid.uuid4().hex[:8]}", f"trail_owned_{uuid.uuid4().hex[:8]}"
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE ROLE "{role}" LOGIN NOSUPERUSER'))
        connection.execute(text(f'CREATE DATABASE "{database}" OWNER "{role}"'))
    base = PG_ADMIN_URL.rsplit("/", 1)[0].replace("//postgres@", f"//{role}@")
    engine = make_engine(f"{base}/{database}")
    try:
        upgrade(engine)
        with engine.begin() as connection:  # what the application does: entries, changes, links
            owner = connection.scalar(text("SELECT tableowner FROM pg_tables WHERE tablename = 'fda_trail_links'"))
            assert owner == role and not connection.scalar(text("SELECT rolsuper FROM pg_roles "
                                                                "WHERE rolname = current_user"))
            entry = connection.execute(insert(OperationLogRow).values(
                at=func.now(), action="Device.update", method="PUT", outcome="succeeded", status=200)
            ).inserted_primary_key[0]
            connection.execute(insert(OperationChangeRow).values(operation_id=entry, object_type="device",
                                                                 kind="update", fields={}))
            connection.execute(insert(OperationReaderRow).values(operation_id=entry, account_id=1, at=func.now()))
            connection.execute(insert(FdaTrailLinkRow).values(
                chain_key="a:1", seq=1, operation_id=entry, at=func.now(), change_ids=[], previous_hash=GENESIS,
                hash=GENESIS))
        columns = {"operation_log": "actor_name", "operation_log_changes": "label", "operation_log_readers": "at",
                   "fda_trail_links": "hash", "fda_signatures": "reason"}
        assert columns.keys() == set(append_only.TABLES)  # every append-only table
        for table, column in columns.items():
            for statement in (f"UPDATE {table} SET {column} = {column}", f"DELETE FROM {table}",
                              f"TRUNCATE {table} CASCADE"):
                with pytest.raises(ProgrammingError, match="permission denied"), engine.begin() as connection:
                    connection.execute(text(statement))
        # the key the foreign keys lock (held for their checks) is no way round: the trigger refuses
        with pytest.raises(DBAPIError, match="append-only"), engine.begin() as connection:
            connection.execute(text("UPDATE operation_log SET id = id"))
        with engine.connect() as connection:
            assert [connection.scalar(select(func.count()).select_from(t)) for t in (
                OperationLogRow, OperationChangeRow, OperationReaderRow, FdaTrailLinkRow)] == [1, 1, 1, 1]
    finally:
        engine.dispose()
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
            connection.execute(text(f'DROP ROLE IF EXISTS "{role}"'))
        admin.dispose()


def test_the_trail_s_links_are_no_object_the_log_records_and_it_knows_the_switches_object_types():
    assert "fda_trail_links" in SKIPPED_TABLES
    assert fda_trail.SWITCH_OBJECTS.keys() == {KINDS[t].object_type for t in ("user_profiles", "organizations")}
