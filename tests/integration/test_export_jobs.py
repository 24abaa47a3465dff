"""An export written by a real Celery worker (the SQLAlchemy transport `make run` uses, over
PostgreSQL): the API records it pending, the worker writes the file with its progress, and the
run is recorded; sent twice, the file is written once; given up after its retries, it fails and
its owner is told."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker  # type: ignore[import-untyped]
from dependency_injector import providers
from sqlalchemy import select

from adapters.persistence.models import DeviceRow, ExportRow, SystemMessageRow
from core.exports.model import GAVE_UP, ExportFormat
from core.exports.use_cases import RequestReadingsExport
from entrypoints.demo_seed import seed
from entrypoints.jobs.app import send_export
from tests.integration.test_export_messages_api import BrokenRenderer
from tests.support.alarms import device_id
from tests.support.fixtures import App, _make_app, _postgres_database
from tests.support.jobs import jobs_app, runs, wait_for

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def _console(tmp_path_factory) -> Iterator[App]:
    databases = _postgres_database()
    app = _make_app(next(databases), tmp_path_factory.mktemp("export-jobs"))
    try:
        yield app
    finally:
        app.container.engine().dispose()
        next(databases, None)


@pytest.fixture
def console(_console: App) -> App:
    _console.reset()
    seed(_console.container)
    return _console


def export_row(console: App, export_id: str) -> ExportRow:
    with console.container.session_factory()() as session:
        return session.scalar(select(ExportRow).where(ExportRow.id == export_id))


def test_a_worker_writes_an_export_with_its_progress_once_however_often_it_is_sent(console, tmp_path):
    container = console.container
    target = device_id(container, "RCW360A0000001")
    with container.session_factory()() as session:
        device = session.get_one(DeviceRow, target)
        until, owner = device.last_reading_at, device.owner_account_id
    export = container.request_export()(RequestReadingsExport(
        owner, target, until - timedelta(days=7), until, ExportFormat.XLSX, "de-DE", "Europe/Berlin"))
    assert export_row(console, export.id).status == "pending"
    app = jobs_app(container, broker_url=f"sqla+sqlite:///{tmp_path / 'broker.db'}", task_always_eager=False,
                   broker_transport_options={})
    seen: list[tuple[str, int]] = []

    def ready() -> bool:
        row = export_row(console, export.id)
        seen.append((row.status, row.progress))
        return row.status == "ready"

    with start_worker(app, pool="threads", concurrency=1, perform_ping_check=False):
        assert send_export(app, export.id)
        wait_for(ready, 60, "the export")
        assert send_export(app, export.id)  # again: nothing more is written
        wait_for(lambda: len([r for r in runs(container, "run_export") if r.outcome == "succeeded"]) == 2, 60,
                 "the second run")
    progress = [p for _, p in seen]
    assert progress == sorted(progress) and seen[-1] == ("ready", 100)
    row = export_row(console, export.id)
    assert row.size == (container.settings().export_dir / f"{export.id}.xlsx").stat().st_size
    assert row.file_name.startswith("Cold_room_A_logger_") and row.file_name.endswith(".xlsx")
    details = [r.detail for r in runs(container, "run_export")]
    assert details == [f"export {export.id}: {7 * 24 * 12 + 1} row(s), {row.size} bytes",
                       f"export {export.id}: nothing to do"]
    leftovers = [p.name for p in container.settings().export_dir.iterdir() if p.name.startswith(".partial-")]
    assert leftovers == []


def test_a_failing_export_is_retried_and_leaves_no_partial_file(console, tmp_path):
    container = console.container
    target = device_id(container, "RCW360A0000001")
    with container.session_factory()() as session:
        device = session.get_one(DeviceRow, target)
        until, owner = device.last_reading_at, device.owner_account_id
    export = container.request_export()(RequestReadingsExport(
        owner, target, until - timedelta(days=1), until, ExportFormat.CSV, "en-US", "UTC"))
    real = container.export_renderer()
    attempts: list[int] = []

    class FlakyRenderer(type(real)):  # type: ignore[misc]
        def readings_csv(self, out, sheet, rows):
            attempts.append(1)
            if len(attempts) == 1:
                next(rows)
                raise OSError("disk hiccup")
            super().readings_csv(out, sheet, rows)

    container.export_renderer.override(providers.Object(FlakyRenderer()))
    try:
        app = jobs_app(container, broker_url=f"sqla+sqlite:///{tmp_path / 'broker.db'}", task_always_eager=False,
                       broker_transport_options={}, task_annotations={"*": {"retry_backoff": 1}})
        with start_worker(app, pool="threads", concurrency=1, perform_ping_check=False):
            assert send_export(app, export.id)
            wait_for(lambda: export_row(console, export.id).status == "ready", 60, "the retried export")
    finally:
        container.export_renderer.reset_override()
    outcomes = [r.outcome for r in runs(container, "run_export")]
    assert outcomes == ["failed", "succeeded"] and len(attempts) == 2
    assert [p.name for p in container.settings().export_dir.iterdir() if p.name.startswith(".partial-")] == []


def test_an_export_whose_job_a_worker_gives_up_ends_failed_and_its_owner_is_told(console, tmp_path):
    container = console.container
    target = device_id(container, "RCW360A0000001")
    with container.session_factory()() as session:
        device = session.get_one(DeviceRow, target)
        until, owner = device.last_reading_at, device.owner_account_id
    export = container.request_export()(RequestReadingsExport(
        owner, target, until - timedelta(days=1), until, ExportFormat.CSV, "en-US", "UTC"))
    container.export_renderer.override(providers.Object(BrokenRenderer()))
    try:
        # One retry instead of six: Celery gives up sooner, in the same way.
        app = jobs_app(container, broker_url=f"sqla+sqlite:///{tmp_path / 'broker.db'}", task_always_eager=False,
                       broker_transport_options={}, task_annotations={"*": {"max_retries": 1}})
        with start_worker(app, pool="threads", concurrency=1, perform_ping_check=False):
            assert send_export(app, export.id)
            wait_for(lambda: export_row(console, export.id).status == "failed", 60, "the export to fail")
    finally:
        container.export_renderer.reset_override()
    assert export_row(console, export.id).error == GAVE_UP
    assert [r.outcome for r in runs(container, "run_export")] == ["failed", "failed"]
    with container.session_factory()() as session:
        told = session.scalars(select(SystemMessageRow).where(SystemMessageRow.kind == "export")).all()
    assert [(m.account_id, m.template) for m in told] == [(owner, "export_failed")]
