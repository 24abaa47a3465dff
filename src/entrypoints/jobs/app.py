"""The Celery application, built from the settings and the container whose use cases its tasks
run; it connects to nothing until a worker, beat or a sender uses it. The API keeps one to send
with (create_app), a worker or beat builds its own."""

from __future__ import annotations

import logging
from typing import Any

from celery import Celery, Task

from core.jobs.use_cases import RecordedRun
from entrypoints.container import Container
from entrypoints.jobs.catalogue import BY_NAME, JOBS, RUN_EXPORT, Job, run_export
from entrypoints.settings import Settings

log = logging.getLogger("coldchain.jobs")
QUEUE = "coldchain"
# Redis hands an unacknowledged job to another worker this long after it was taken: longer than
# the longest job (a day's retention purge), or a slow job would run twice at once.
VISIBILITY_TIMEOUT_S = 3600
RETRY = {
    "autoretry_for": (Exception,),
    "retry_backoff": 5,  # 5 s, 10 s, 20 s ... with jitter
    "retry_backoff_max": 600,
    "retry_jitter": True,
    "max_retries": 6,
    # Acknowledged once done: a worker that dies mid-job leaves it for another (every job is idempotent).
    "acks_late": True,
    "reject_on_worker_lost": True,
}


def create_celery_app(settings: Settings, container: Container, **overrides: Any) -> Celery:
    """The application whose tasks run the catalogue's jobs with the container's use cases.
    APP_ENV=test runs what is sent at once, in the sender (Celery's task_always_eager), so the
    API's tests need no worker; tests of the engine itself override that."""
    app = Celery("coldchain", set_as_current=False)
    app.conf.update(
        broker_url=settings.jobs_broker_url,
        broker_connection_retry_on_startup=True,
        # The SQLAlchemy transport hands its options to create_engine(), which takes none of these.
        broker_transport_options=({} if settings.jobs_broker_url.startswith("sqla+")
                                  else {"visibility_timeout": VISIBILITY_TIMEOUT_S}),
        task_default_queue=QUEUE,
        task_ignore_result=True,  # each run's record is the job_runs table
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_always_eager=settings.app_env == "test",
        worker_prefetch_multiplier=1,
        worker_hijack_root_logger=False,
        timezone="UTC",
        beat_schedule=beat_schedule(),
        beat_schedule_filename=str(settings.var_dir / "celerybeat-schedule"),
    )
    app.conf.update(overrides)
    for job in JOBS:
        # Not shared: a shared task joins every application created later in the process, which
        # would run this container's use cases for another container's application.
        app.task(name=job.task_name, shared=False, **RETRY)(_task_body(job, container))
    app.task(name=f"coldchain.{RUN_EXPORT}", shared=False, on_failure=_export_given_up(container),
             **RETRY)(_export_body(container))
    return app


def beat_schedule() -> dict[str, dict[str, Any]]:
    # A run that waited in the queue longer than the gap to the next one is dropped: after an
    # outage the workers do not catch up on every missed minute.
    return {job.name: {"task": job.task_name, "schedule": job.every,
                       "options": {"expires": job.every if isinstance(job.every, float) else 3600}}
            for job in JOBS}


def _task_body(job: Job, container: Container):
    def run() -> str | None:
        return RecordedRun(container.uow(), container.clock())(job.name, lambda: job.run(container))

    run.__name__ = run.__qualname__ = job.name
    run.__doc__ = job.run.__doc__
    return run


def _export_body(container: Container):
    def run_export_job(export_id: str) -> str | None:
        """Write one export's file (core.exports.use_cases.RunExport)."""
        return RecordedRun(container.uow(), container.clock())(
            RUN_EXPORT, lambda: run_export(container, export_id))

    return run_export_job


def _export_given_up(container: Container):
    def on_failure(task: Task, exc: BaseException, task_id: str, args: tuple, kwargs: dict, einfo: Any) -> None:
        """Celery calls this once it has given a job up (its retries spent, never on a retry): the
        export ends as failed at once and its owner is told, rather than stay "running". Should
        this fail too (the database being what failed), the sweep fail_abandoned_exports ends it."""
        try:
            container.fail_export()(args[0])
        except Exception:
            log.exception("could not mark export %s failed after its job gave up", args[0])

    return on_failure


def send_export(app: Celery, export_id: str) -> bool:
    """Ask a worker to write the export. False when the broker cannot take it: the export stays
    pending, and the caller says so (it can be asked for again)."""
    try:
        app.tasks[f"coldchain.{RUN_EXPORT}"].apply_async((export_id,), retry=False)
    except Exception as error:
        log.warning("could not send export %s to the broker: %s", export_id, error)
        return False
    return True


def send(app: Celery, name: str) -> None:
    """Ask a worker to run a job now. When the broker cannot take it, log and go on: beat sends
    every job again soon."""
    try:
        app.tasks[BY_NAME[name].task_name].apply_async(retry=False)
    except Exception as error:
        log.warning("could not send job %s to the broker: %s", name, error)


def send_overdue(app: Celery, container: Container) -> list[str]:
    """When beat starts: send once every job whose last run is older than its period (see
    OverdueJobs). Which ones, for the log."""
    overdue = container.overdue_jobs()({job.name: job.period for job in JOBS})
    for name in overdue:
        send(app, name)
    return overdue
