"""The job engine with real workers over PostgreSQL: on Redis (production's) and on the
SQLAlchemy transport (`make run`'s), the same jobs; failures retried; a worker killed mid-job
loses nothing and its job's effect happens once."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker  # type: ignore[import-untyped]
from dependency_injector import providers
from sqlalchemy import create_engine, func, select, text

from adapters.persistence.models import ExpiryReminderRow, OutboxMessageRow
from core.devices.expiry_reminders import SERVICE_EXPIRING
from entrypoints.demo_seed import seed
from entrypoints.jobs.app import send
from entrypoints.jobs.catalogue import BY_NAME
from tests.support.alarms import device_id
from tests.support.commands import environment
from tests.support.fixtures import App, _make_app, _postgres_database
from tests.support.jobs import REDIS_URL, jobs_app, redis_options, redis_prefix, runs, wait_for

pytestmark = pytest.mark.postgres
# In the demo data alice's cold room B ends in 20 days and acme's door logger in 5: their owners
# are due the 30-day and the 7-day reminder.
COLD_ROOM_B, DOOR_LOGGER = "RCW360A0000002", "RCW360B0000001"
REMINDERS = "send_expiry_reminders"


@pytest.fixture(scope="module")
def _console(tmp_path_factory) -> Iterator[App]:
    databases = _postgres_database()
    app = _make_app(next(databases), tmp_path_factory.mktemp("jobs"))
    try:
        yield app
    finally:
        app.container.engine().dispose()
        next(databases, None)  # drops the database


@pytest.fixture
def console(_console: App) -> App:
    _console.reset()
    seed(_console.container, history=False)
    return _console


@pytest.fixture
def prefix() -> Iterator[str]:
    yield from redis_prefix()


@pytest.fixture(params=["redis", "sqlalchemy"])
def transport(request, tmp_path) -> Iterator[dict[str, Any]]:
    if request.param == "redis":
        prefixes = redis_prefix()
        yield redis_options(next(prefixes))
        next(prefixes, None)
    else:
        yield {"broker_url": f"sqla+sqlite:///{tmp_path / 'celery-broker.db'}", "task_always_eager": False,
               "broker_transport_options": {}}


def reminders_written(console: App) -> int:
    with console.container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(OutboxMessageRow)
                              .where(OutboxMessageRow.template == SERVICE_EXPIRING))


def reminders_recorded(console: App) -> list[tuple[int, int]]:
    with console.container.session_factory()() as session:
        return sorted((r.device_id, r.stage) for r in session.scalars(select(ExpiryReminderRow)))


def due(console: App) -> list[tuple[int, int]]:
    return sorted([(device_id(console.container, COLD_ROOM_B), 30), (device_id(console.container, DOOR_LOGGER), 7)])


def succeeded(console: App, name: str) -> list:
    return [r for r in runs(console.container, name) if r.outcome == "succeeded"]


def test_a_worker_runs_every_job_once_sent_and_each_run_leaves_its_record(console, transport):
    app = jobs_app(console.container, **transport)
    with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False):
        for name in BY_NAME:
            send(app, name)
        wait_for(lambda: all(succeeded(console, name) for name in BY_NAME), 60, "a run of every job")
        send(app, REMINDERS)  # again: it changes nothing more
        wait_for(lambda: len(succeeded(console, REMINDERS)) == 2, 30, "the second run")
    for name in BY_NAME:
        run = runs(console.container, name)[0]
        assert run.started_at <= run.finished_at and run.error is None and run.detail, name
    first, second = (r.detail for r in runs(console.container, REMINDERS))
    assert (first, second) == ("reminded the owners of 2 device(s)", "reminded the owners of 0 device(s)")
    assert reminders_written(console) == 4  # an SMS and an e-mail to each owner, once
    assert reminders_recorded(console) == due(console)


def test_a_failing_job_is_retried_with_backoff_and_each_attempt_is_recorded(console, prefix):
    attempts: list[int] = []
    real = console.container.send_expiry_reminders()

    def flaky() -> int:
        attempts.append(1)
        if len(attempts) == 1:
            raise ConnectionError("the database went away")
        return real()

    console.container.send_expiry_reminders.override(providers.Object(flaky))
    try:
        app = jobs_app(console.container, **redis_options(prefix))
        with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False):
            send(app, REMINDERS)
            wait_for(lambda: succeeded(console, REMINDERS), 30, "the retry")
    finally:
        console.container.send_expiry_reminders.reset_override()
    failed, retried = runs(console.container, REMINDERS)
    assert (failed.outcome, failed.error) == ("failed", "ConnectionError: the database went away")
    assert retried.outcome == "succeeded" and len(attempts) == 2
    assert reminders_written(console) == 4


WORKER = """
import json, sys
from entrypoints.container import build_container
from entrypoints.jobs.app import create_celery_app
from entrypoints.settings import load_settings

settings = load_settings()
app = create_celery_app(settings, build_container(settings), **json.loads(sys.argv[1]))
app.worker_main(["worker", "--pool", "threads", "--concurrency", "2", "--loglevel", "INFO", "--without-mingle",
                 "--without-gossip", "--hostname", sys.argv[2]])
"""


def start_worker_process(console: App, options: dict[str, Any], name: str, log: Path) -> subprocess.Popen:
    settings = console.container.settings()
    env = environment(APP_ENV="test", DATABASE_URL=settings.database_url, VAR_DIR=str(log.parent),
                      SECRET_KEY=settings.secret_key, JOBS_BROKER_URL=REDIS_URL)
    with open(log, "ab") as out:
        return subprocess.Popen([sys.executable, "-c", WORKER, json.dumps(options), f"{name}@test"], env=env,
                                stdout=out, stderr=subprocess.STDOUT)


def test_a_worker_killed_mid_job_loses_nothing_and_the_job_takes_effect_once(console, prefix, tmp_path):
    # A short visibility timeout: the broker hands an unacknowledged job to another worker after 2 s.
    options = redis_options(prefix, visibility_timeout_s=2)
    sender = jobs_app(console.container, **options)
    blocker = create_engine(console.container.settings().database_url)
    workers: list[subprocess.Popen] = []
    try:
        with blocker.connect() as connection:
            # The job stops at its first look at the reminders already sent, for as long as this lock is held.
            connection.execute(text("LOCK TABLE expiry_reminders IN ACCESS EXCLUSIVE MODE"))
            workers.append(start_worker_process(console, options, "doomed", tmp_path / "doomed.log"))
            send(sender, REMINDERS)
            wait_for(lambda: runs(console.container, REMINDERS), 60, "the job to start")
            workers[0].send_signal(signal.SIGKILL)
            workers[0].wait(10)
            connection.rollback()  # the lock goes; the killed worker never acknowledged the job
        assert reminders_written(console) == 0
        workers.append(start_worker_process(console, options, "heir", tmp_path / "heir.log"))
        wait_for(lambda: succeeded(console, REMINDERS), 60, "the job to run again on the other worker")
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.terminate()
                worker.wait(30)
        blocker.dispose()
    records = runs(console.container, REMINDERS)
    assert records[0].outcome == "running" and records[0].finished_at is None  # the run cut short
    assert sum(r.detail == "reminded the owners of 2 device(s)" for r in records) == 1
    assert reminders_written(console) == 4  # one reminder a device, by SMS and e-mail
    assert reminders_recorded(console) == due(console)


def test_every_job_is_acknowledged_when_done_and_retried_with_growing_pauses(console):
    app = jobs_app(console.container)
    for job in BY_NAME.values():
        task = app.tasks[job.task_name]
        assert task.acks_late and task.reject_on_worker_lost
        assert task.autoretry_for == (Exception,) and task.retry_backoff and task.max_retries


def test_the_schedule_sends_every_job_and_none_more_often_than_a_minute_but_the_outbox(console):
    schedule = jobs_app(console.container).conf.beat_schedule
    assert {entry["task"] for entry in schedule.values()} == {job.task_name for job in BY_NAME.values()}
    frequent = {name for name, entry in schedule.items()
                if isinstance(entry["schedule"], float) and entry["schedule"] < 60}
    assert frequent == {"deliver_messages"}
    assert all(entry["options"]["expires"] for entry in schedule.values())
