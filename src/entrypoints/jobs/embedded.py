"""`coldchain serve` in development: one worker (a few threads) and beat inside the server's
process, on the SQLAlchemy transport's SQLite file, so `make run` needs no Redis."""

from __future__ import annotations

import logging
import os
import socket
import threading
from typing import TYPE_CHECKING

from celery import beat
from celery.worker import WorkController, state

if TYPE_CHECKING:
    from entrypoints.container import Container

log = logging.getLogger("coldchain.jobs")
THREADS = 2


def runs_embedded(broker_url: str) -> bool:
    """Only the SQLAlchemy transport is the server's own; on Redis or RabbitMQ (production, or a
    developer who chose one) `coldchain jobs worker` and `coldchain jobs beat` run apart."""
    return broker_url.startswith("sqla+")


class EmbeddedJobs:
    def __init__(self, container: Container) -> None:
        self._app = container.jobs()
        self._worker: WorkController | None = None
        self._thread: threading.Thread | None = None
        self._beat: beat._Threaded | None = None

    def start(self) -> None:
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

    def stop(self) -> None:
        if self._beat is not None:
            self._beat.stop()
        if self._thread is not None:
            # How Celery's own embedded test worker stops: the consumer's loop checks the flag.
            state.should_terminate = 0
            self._thread.join(15)
            state.should_terminate = None
