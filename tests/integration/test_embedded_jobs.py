"""`coldchain serve`'s own job worker and beat (`make run`): on the SQLAlchemy transport's SQLite
file, in one process of the server only."""

from __future__ import annotations

from entrypoints.jobs.app import send
from entrypoints.jobs.embedded import EmbeddedJobs, runs_embedded
from tests.support.jobs import jobs_app, runs, wait_for


def test_the_servers_own_worker_runs_what_is_sent_and_only_one_process_runs_it(sqlite_app, tmp_path):
    container = sqlite_app.container
    # The test settings run jobs eagerly; the server's worker needs them queued.
    app = jobs_app(container, broker_url=f"sqla+sqlite:///{tmp_path / 'celery-broker.db'}", task_always_eager=False)
    first, second = EmbeddedJobs(container, app), EmbeddedJobs(container, app)
    try:
        first.start()
        second.start()  # another process of the same console: var/jobs.lock is taken, it runs nothing
        send(app, "send_expiry_reminders")
        run = wait_for(lambda: [r for r in runs(container) if r.finished_at], 30, "the job's run")[0]
        assert (run.name, run.outcome) == ("send_expiry_reminders", "succeeded")
    finally:
        second.stop()
        first.stop()
    assert second._thread is None and first._thread is not None and not first._thread.is_alive()


def test_only_the_sqlalchemy_transport_runs_inside_the_server():
    assert runs_embedded("sqla+sqlite:///var/celery-broker.db")
    assert not runs_embedded("redis://127.0.0.1:6379/0") and not runs_embedded("amqp://guest@127.0.0.1//")
