"""How an export ends, told in its owner's message centre (issue 16): ready, with a link to the
download centre; failed, with why in the reader's language, when the job gives up or when the
sweep finds an export that will never be written; a failed export is deleted or tried again.
SQLite and PostgreSQL, with the demo data."""

from __future__ import annotations

from datetime import timedelta

import pytest
from dependency_injector import providers
from sqlalchemy import select

from adapters.persistence.models import JobRunRow, SystemMessageRow
from core.exports.model import ExportFormat
from core.exports.use_cases import GIVE_UP_AFTER, RequestReadingsExport
from entrypoints.jobs.catalogue import BY_NAME
from tests.integration.test_exports_api import COLD_ROOM_A, create, exports, last_reading
from tests.integration.test_inbox_api import account_id
from tests.support.alarms import device_id
from tests.support.api import ok

pytestmark = pytest.mark.usefixtures("demo")

MESSAGES, PAGE, RETRY, DELETE = ("/base/BaseMessage/page", "/device/DeviceDataExport/page",
                                 "/device/DeviceDataExport/retry", "/device/DeviceDataExport/delete")


def export_messages(api, token: str) -> list[dict]:
    return ok(api.call("POST", MESSAGES, token=token, json={"kind": "export"}))["data"]


def stored_messages(container) -> list[SystemMessageRow]:
    with container.session_factory()() as session:
        return list(session.scalars(select(SystemMessageRow).where(SystemMessageRow.kind == "export")))


def pending_export(container) -> str:
    """An export of alice's recorded but never sent to a worker (the broker was down, say)."""
    until = last_reading(container, COLD_ROOM_A)
    return container.request_export()(RequestReadingsExport(
        account_id(container, "alice"), device_id(container, COLD_ROOM_A), until - timedelta(days=1), until,
        ExportFormat.CSV, "en-US", "UTC")).id


class BrokenRenderer:
    """Every write fails, as a full disk would."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise OSError("no space left on device")
        return fail


def test_a_ready_export_tells_its_owner_only_with_a_link_to_the_download_centre(api, container):
    alice = api.token("alice")
    export = ok(create(api, alice, container, "csv"))
    assert export["status"] == "ready"
    [message] = export_messages(api, alice)
    assert (message["kind"], message["target"], message["read"]) == ("export", "downloads", False)
    assert export["fileName"] in message["title"] and export["fileName"] in message["content"]
    assert "download centre" in message["content"]
    api.language = "ru-RU"
    [russian] = export_messages(api, alice)
    assert russian["content"].startswith(f"Ваш экспорт {export['fileName']} готов")
    for stranger in ("bob", "acme"):
        assert ok(api.call("POST", MESSAGES, token=api.token(stranger), json={}))["totalCount"] == 0
    assert len(stored_messages(container)) == 1  # the answer's own reading of the export posted nothing more


def test_an_export_whose_job_gives_up_ends_failed_is_told_once_and_can_be_tried_again(api, container):
    alice = api.token("alice")
    container.export_renderer.override(providers.Object(BrokenRenderer()))
    try:
        export = ok(create(api, alice, container, "csv"))  # the job runs here, retried until Celery gives up
    finally:
        container.export_renderer.reset_override()
    assert (export["status"], export["error"]) == ("failed", "The file could not be written after several attempts")
    with container.session_factory()() as session:
        attempts = session.scalars(select(JobRunRow.outcome).where(JobRunRow.name == "run_export")).all()
    assert attempts == ["failed"] * 7  # the first try and 6 retries
    api.language = "de-DE"
    [message] = export_messages(api, alice)
    assert message["title"] == "Export von Cold room A logger fehlgeschlagen"
    assert message["content"] == ("Ihr Export von Cold room A logger (CSV) konnte nicht erstellt werden: Die Datei "
                                  "konnte auch nach mehreren Versuchen nicht erstellt werden. Löschen Sie ihn oder "
                                  "versuchen Sie es im Download-Center erneut.")
    [listed] = ok(api.call("POST", PAGE, token=alice, json={}))["data"]
    assert (listed["status"], listed["error"]) == ("failed", "Die Datei konnte auch nach mehreren Versuchen nicht "
                                                             "erstellt werden")
    assert api.call("POST", RETRY, token=api.token("bob"), query={"id": export["id"]}).status == 404
    retried = ok(api.call("POST", RETRY, token=alice, query={"id": export["id"]}))
    assert retried["id"] != export["id"] and retried["status"] == "ready"
    assert retried["startTime"] == listed["startTime"]
    assert [e.id for e in exports(container)] == [retried["id"]]  # the failed one is gone
    refused = api.call("POST", RETRY, token=alice, query={"id": retried["id"]})
    assert (refused.status, refused.code, refused.body["msg"]) == (
        409, 1202, "Nur ein fehlgeschlagener Export kann erneut versucht werden")
    assert [m["title"].split()[0] for m in export_messages(api, alice)] == ["Export", "Export"]
    assert len(stored_messages(container)) == 2  # failed, then ready


def test_an_export_that_will_never_be_written_is_failed_by_the_sweep_once(api, container, clock):
    stuck = pending_export(container)
    clock.advance(seconds=GIVE_UP_AFTER.total_seconds() - 60)
    recent = pending_export(container)
    sweep = BY_NAME["fail_abandoned_exports"].run
    assert sweep(container) == "failed 0 export(s) that will never be written"
    clock.advance(seconds=120)
    assert sweep(container) == "failed 1 export(s) that will never be written"
    assert sweep(container) == "failed 0 export(s) that will never be written"
    by_id = {e.id: e for e in exports(container)}
    assert (by_id[stuck].status, by_id[stuck].error) == ("failed", "The export was interrupted and did not finish")
    assert by_id[recent].status == "pending"
    assert container.run_export()(stuck) == f"export {stuck}: nothing to do"  # a job come back late writes nothing
    alice = api.token("alice")
    [message] = export_messages(api, alice)
    assert "The export was interrupted and did not finish" in message["content"] and message["target"] == "downloads"
    ok(api.call("DELETE", DELETE, token=alice, query={"id": stuck}))
    assert [e.id for e in exports(container)] == [recent]
