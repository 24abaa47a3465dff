"""`coldchain serve` in development: one worker (a few threads) and beat inside the server's
process, on the SQLAlchemy transport's SQLite file, so `make run` needs no Redis."""

from __future__ import annotations

import fcntl
import logging
import os
import socket
import threading
from typing import IO

from celery import Celery, beat
from celery.worker import WorkController, state

from entrypoints.container import Container
from entrypoints.jobs.app import create_celery_app, send_overdue

log = logging.getLogger("coldchain.jobs")
THREADS = 2


def runs_embedded(broker_url: str) -> bool:
    """Only the SQLAlchemy transport is the server's own; on Redis or RabbitMQ (production, or a
    developer who chose one) `coldchain jobs worker` and `coldchain jobs beat` run apart."""
    return broker_url.startswith("sqla+")


class EmbeddedJobs:
    """Runs in one process of the server only: the first to lock var/jobs.lock. Beat must be one,
    and the SQLite transport is best left to one worker; when that process exits, the lock goes
    with it and the process the server starts in its place takes over."""

    def __init__(self, container: Container, app: Celery | None = None) -> None:
        self._container = container
        self._app = app or create_celery_app(container.settings(), container)
        self._lock_path = container.settings().var_dir / "jobs.lock"
        self._lock: IO[bytes] | None = None
        self._worker: WorkController | None = None
        self._thread: threading.Thread | None = None
        self._beat: beat._Threaded | None = None

    def start(self) -> None:
        if not self._take_lock():
            log.info("another process of this console runs the jobs (%s is locked)", self._lock_path)
            return
        # The threads pool runs a job through Celery's default application (trace_task_ret without
        # an app), as `celery worker` arranges for its own: this process serves one console.
        self._app.set_default()
        self._worker = WorkController(
            app=self._app, pool="threads", concurrency=THREADS, hostname=f"serve-{os.getpid()}@{socket.gethostname()}",
            # Mingle, gossip and heartbeats talk to other workers over broadcast, which the
            # SQLAlchemy transport lacks; a lone worker needs none of them.
            without_mingle=True, without_gossip=True, without_heartbeat=True, ready_callback=None)
        self._thread = threading.Thread(target=self._worker.start, name="jobs-worker", daemon=True)
        self._thread.start()
        self._beat = beat.EmbeddedService(self._app, thread=True)
        self._beat.start()
        log.info("job worker (%s threads) and beat running in this process on %s", THREADS,
                 self._app.conf.broker_url)
        _send_overdue(self._app, self._container)

    def _take_lock(self) -> bool:
        self._lock_path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self._lock_path, "ab")  # noqa: SIM115 - held open until stop()
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._lock = handle
        return True

    def stop(self) -> None:
        if self._beat is not None:
            self._beat.stop()
        if self._thread is not None:
            # How Celery's own embedded test worker stops: the consumer's loop checks the flag.
            state.should_terminate = 0
            self._thread.join(15)
            state.should_terminate = None
        if self._lock is not None:
            self._lock.close()  # and the lock with it


def _send_overdue(app: Celery, container: Container) -> None:
    try:
        overdue = send_overdue(app, container)
    except Exception:  # the schedule goes on; only the catch-up is missed
        log.exception("could not look for overdue jobs")
        return
    if overdue:
        log.info("sent the overdue jobs once at start: %s", ", ".join(overdue))
