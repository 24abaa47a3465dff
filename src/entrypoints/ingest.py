"""Ingest workers assembled from the container: `coldchain ingest` in production, one in-process
worker (and, when nothing answers at MQTT_URL, an in-process broker) under `coldchain serve`."""

from __future__ import annotations

import hashlib
import logging
import os
import signal
import socket
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from urllib.parse import urlsplit

from sqlalchemy import select

from adapters.messaging.embedded_broker import EmbeddedBroker, broker_answers
from adapters.messaging.ingest_worker import IngestConfig, IngestWorker
from adapters.messaging.simulator import SimulatedDevice, Simulator
from adapters.mosquitto.config import DEVICE_MOUNT_POINT
from adapters.persistence.database import unavailable
from adapters.persistence.models import DeviceRow, DeviceTypeRow
from core.devices.credentials import INGEST_USERNAME, claimable_by_a_device
from core.telemetry.directory import DeviceDirectory
from core.telemetry.use_cases import RecordStatus, StoreReadings
from entrypoints.container import Container

log = logging.getLogger("coldchain.ingest")


def default_client_id() -> str:
    # Stable per host and instance, so a restarted worker resumes its broker session.
    return f"ingest-{socket.gethostname()}-{os.environ.get('INGEST_INSTANCE', '1')}"


def build_worker(container: Container, config: IngestConfig,
                 on_failure: Callable[[BaseException], object] = lambda error: None) -> IngestWorker:
    def device_ids(guids):
        with container.uow() as uow:
            return uow.readings.device_ids(guids)

    clock = container.clock()
    return IngestWorker(
        config,
        store=StoreReadings(container.uow(), clock, container.evaluate_alarms()),
        record_status=RecordStatus(container.uow(), clock),
        directory=DeviceDirectory(device_ids),
        now=lambda: datetime.now(UTC),
        transient=unavailable,
        on_failure=on_failure,
    )


def worker_config(container: Container, **overrides) -> IngestConfig:
    """A `coldchain ingest` worker's configuration: on the broker `coldchain mqtt-config` sets up
    unless the overrides say otherwise."""
    settings = container.settings()
    password = settings.mqtt_ingest_password
    values = {"url": settings.mqtt_url, "client_id": default_client_id(), "topic_prefix": DEVICE_MOUNT_POINT,
              "username": INGEST_USERNAME if password else None, "password": password}
    values.update({k: v for k, v in overrides.items() if v is not None})
    if claimable_by_a_device(values["client_id"]):
        raise ValueError(f"a device could connect as {values['client_id']!r} and take the worker's session")
    return IngestConfig(**values)


def run_forever(container: Container, config: IngestConfig) -> int:
    """Run one worker until SIGTERM or SIGINT, then store what arrived and leave: exit status 0.
    A worker that stops storing by itself returns 1, for its supervisor to start it again."""
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    worker = build_worker(container, config, on_failure=lambda _error: stop.set())
    worker.start()
    log.info("ingest worker %s subscribing to %s on %s", config.client_id, config.topics(), config.url)
    stop.wait()
    worker.stop()
    log.info("ingest worker %s stopped: %s", config.client_id, worker.stats.line(0, worker.stats.stored))
    return 0 if worker.failure is None else 1


def simulated_devices(container: Container, limit: int) -> list[SimulatedDevice]:
    with container.session_factory()() as session:
        rows = session.execute(select(DeviceRow.guid, DeviceTypeRow.scenes)
                               .join(DeviceTypeRow, DeviceTypeRow.id == DeviceRow.type_id)
                               .where(DeviceRow.status == 1).order_by(DeviceRow.id).limit(limit)).all()
    return [SimulatedDevice(guid, (scenes or "1").split(",")[0]) for guid, scenes in rows]


class EmbeddedIngest:
    """`coldchain serve` in development: a broker if none answers at MQTT_URL, and one worker."""

    def __init__(self, container: Container) -> None:
        self._container = container
        self.broker: EmbeddedBroker | None = None
        self.worker: IngestWorker | None = None

    def start(self) -> None:
        settings = self._container.settings()
        parts = urlsplit(settings.mqtt_url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 1883
        embedded = not broker_answers(host, port)
        if embedded:
            self.broker = EmbeddedBroker(host, port)
            self.broker.start()
        # A plain subscription: the one in-process worker takes every message, and no absent
        # member of a shared group on a developer's broker can hold a share of them. The embedded
        # broker speaks only MQTT 3.1.1.
        # Stable per console (its session resumes after a restart) yet distinct for two consoles
        # on one host, which would otherwise take the client id from each other in turn.
        console = hashlib.sha256(settings.database_url.encode()).hexdigest()[:8]
        config = replace(worker_config(self._container, client_id=f"{default_client_id()}-serve-{console}"),
                         share_group=None, mqtt_v5=not embedded, topic_prefix="")
        self.worker = build_worker(self._container, config)
        self.worker.start()

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.stop()
        if self.broker is not None:
            self.broker.stop()


def start_simulator(container: Container, *, devices: int, interval_s: float, seed: int | None = None,
                    username: str | None = None, password: str | None = None) -> Simulator:
    simulator = Simulator(container.settings().mqtt_url, simulated_devices(container, devices), interval_s,
                          seed=seed, username=username, password=password)
    threading.Thread(target=simulator.run, name="simulator", daemon=True).start()
    return simulator
