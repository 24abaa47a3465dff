"""`coldchain serve`'s own job worker and beat (`make run`): on the SQLAlchemy transport's SQLite
file, in one process of the server only."""

from __future__ import annotations

from core.jobs.use_cases import RecordedRun
from entrypoints.jobs.app import send, send_overdue
from entrypoints.jobs.catalogue import BY_NAME
from entrypoints.jobs.embedded import EmbeddedJobs, runs_embedded
from tests.support.jobs import jobs_app, runs, wait_for


def test_the_servers_own_worker_runs_what_is_sent_and_only_one_process_runs_it(sqlite_app, tmp_path):
    container = sqlite_app.container
    # The test settings run jobs eagerly; the server's worker needs them queued.
    app = jobs_app(container, broker_url=f"sqla+sqlite:///{tmp_path / 'celery-broker.db'}", task_always_eager=False)
    # Beat's own schedule would send the hourly jobs (crontab, minute 20) a second time when the
    # test runs across that minute; what is asserted here is the catch-up at start and the lock.
    app.conf.beat_schedule = {}
    first, second = EmbeddedJobs(container, app), EmbeddedJobs(container, app)
    try:
        first.start()  # a fresh console: every job is overdue and sent once
        second.start()  # another process of the same console: var/jobs.lock is taken, it runs nothing
        wait_for(lambda: {r.name for r in runs(container) if r.finished_at} >= set(BY_NAME), 60, "every job's run")
        assert sorted(r.name for r in runs(container)) == sorted(BY_NAME)  # once each, by one process
        assert {r.outcome for r in runs(container)} == {"succeeded"}
        send(app, "send_expiry_reminders")
        wait_for(lambda: len(runs(container, "send_expiry_reminders")) == 2, 30, "the job sent by hand")
    finally:
        second.stop()
        first.stop()
    assert second._thread is None and first._thread is not None and not first._thread.is_alive()


def test_a_restarted_server_sends_only_the_jobs_that_have_become_overdue(sqlite_app, tmp_path):
    container = sqlite_app.container
    app = jobs_app(container, broker_url=f"sqla+sqlite:///{tmp_path / 'celery-broker.db'}", task_always_eager=False)
    assert sorted(send_overdue(app, container)) == sorted(BY_NAME)
    for name in BY_NAME:  # each ran just now (as by the worker), recorded
        RecordedRun(container.uow(), container.clock())(name, lambda: "done")
    assert send_overdue(app, container) == []


def test_only_the_sqlalchemy_transport_runs_inside_the_server():
    assert runs_embedded("sqla+sqlite:///var/celery-broker.db")
    assert not runs_embedded("redis://127.0.0.1:6379/0") and not runs_embedded("amqp://guest@127.0.0.1//")
