"""Ingest workers assembled from the container: `coldchain ingest` in production, one in-process
worker and its broker under `coldchain serve` in development: a private Mosquitto set up as in
production, or where none can be had, an in-process broker."""

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
from typing import Any
from urllib.parse import urlsplit

from dependency_injector import providers
from sqlalchemy import select

from adapters.messaging.embedded_broker import EmbeddedBroker, broker_answers
from adapters.messaging.ingest_worker import IngestConfig, IngestWorker
from adapters.messaging.simulator import DELIVERY_ROUTE, SimulatedDevice, Simulator
from adapters.mosquitto.config import DEVICE_MOUNT_POINT, MosquittoInstall, find_mosquitto
from adapters.mosquitto.dynsec import NoBrokerAccess
from adapters.mosquitto.private_broker import PrivateMosquitto
from adapters.persistence.database import unavailable
from adapters.persistence.models import DeviceRow, DeviceTypeRow
from core.devices.credentials import INGEST_USERNAME, claimable_by_a_device, issue_credentials
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
        store=StoreReadings(container.uow(), clock, container.evaluate_alarms(), container.detect_crossings()),
        record_status=RecordStatus(container.uow(), clock),
        directory=DeviceDirectory(device_ids),
        now=lambda: datetime.now(UTC),
        transient=unavailable,
        on_failure=on_failure,
        record_answers=container.record_command_answers(),
    )


def worker_config(container: Container, **overrides: Any) -> IngestConfig:
    """A `coldchain ingest` worker's configuration: on the broker `coldchain mqtt-config` sets up
    unless the overrides say otherwise."""
    settings = container.settings()
    password = settings.mqtt_ingest_password
    values: dict[str, Any] = {"url": settings.mqtt_url, "client_id": default_client_id(),
                              "topic_prefix": DEVICE_MOUNT_POINT, "username": INGEST_USERNAME if password else None,
                              "password": password}
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


def _host_port(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 1883


def simulated_devices(container: Container, limit: int) -> list[SimulatedDevice]:
    """The first `limit` active devices, each with a new broker password of its own (the
    simulator logs in as each device, and the console keeps only hashes). It takes their real
    devices' passwords away, so it is refused in production."""
    settings = container.settings()
    if settings.app_env == "production":
        raise RuntimeError("the simulator gives devices new broker passwords; it does not run in production")
    with container.session_factory()() as session:
        rows = session.execute(select(DeviceRow.id, DeviceRow.guid, DeviceTypeRow.scenes)
                               .join(DeviceTypeRow, DeviceTypeRow.id == DeviceRow.type_id)
                               .where(DeviceRow.status == 1).order_by(DeviceRow.id).limit(limit)).all()
    hasher, clock = container.broker_hasher(), container.clock()
    with container.uow() as uow:
        grants = [issue_credentials(uow, hasher, device_id, guid, clock) for device_id, guid, _ in rows]
        uow.commit()
    container.broker_access().grant(grants)
    return [SimulatedDevice(guid, (scenes or "1").split(",")[0], grant.password)
            for (_, guid, scenes), grant in zip(rows, grants, strict=True)]


class EmbeddedIngest:
    """`coldchain serve` in development: one worker, and its broker.

    With no MQTT_URL given (`make run`), a private Mosquitto with production's set-up under
    var/mosquitto/: each device logs in as itself, the worker as `ingest`, the console changes the
    logins as devices change. Where no Mosquitto can be had, and nothing answers at MQTT_URL, an
    in-process broker (amqtt) instead. A broker that answers at a given MQTT_URL is used as it is."""

    def __init__(self, container: Container, mosquitto: MosquittoInstall | None | bool = True) -> None:
        self._container = container
        # True: look for the machine's Mosquitto; None: there is none (the fallback, in tests).
        self._mosquitto = find_mosquitto() if mosquitto is True else mosquitto or None
        self.private: PrivateMosquitto | None = None
        self.broker: EmbeddedBroker | None = None
        self.worker: IngestWorker | None = None
        self.device_url = container.settings().mqtt_device_url
        self._stopping = threading.Event()

    def start(self) -> None:
        settings = self._container.settings()
        host, port = _host_port(settings.mqtt_url)
        v5, topic_prefix = True, ""
        if settings.mqtt_private_broker and self._mosquitto is not None:
            _, device_port = _host_port(settings.mqtt_device_url)
            self.private = PrivateMosquitto(self._mosquitto, settings.var_dir / "mosquitto", device_port, port, host)
            self._start_private()
            threading.Thread(target=self._watch_private, name="private-mosquitto-watch", daemon=True).start()
            topic_prefix = DEVICE_MOUNT_POINT
        elif not broker_answers(host, port):
            log.warning("no Mosquitto broker here (`apt-get install mosquitto`, or `make run` installs it): using the "
                        "in-process broker on %s:%s, which speaks MQTT 3.1.1 only and checks no device credentials "
                        "(any local process may publish as any device)", host, port)
            self.broker = EmbeddedBroker(host, port)
            self.broker.start()
            self._container.broker_access.override(providers.Object(NoBrokerAccess()))
            self.device_url, v5 = settings.mqtt_url, False
        # A plain subscription: the one in-process worker takes every message, and no absent
        # member of a shared group on a developer's broker can hold a share of them.
        # Stable per console (its session resumes after a restart) yet distinct for two consoles
        # on one host, which would otherwise take the client id from each other in turn.
        console = hashlib.sha256(settings.database_url.encode()).hexdigest()[:8]
        self._container.command_topic_prefix.override(providers.Object(topic_prefix))
        config = replace(worker_config(self._container, client_id=f"{default_client_id()}-serve-{console}"),
                         share_group=None, mqtt_v5=v5, topic_prefix=topic_prefix)
        self.worker = build_worker(self._container, config)
        self.worker.start()

    def _start_private(self) -> None:
        """With its logins written from the database: whatever it missed while down is in them."""
        assert self.private is not None
        settings = self._container.settings()
        self.private.start(self._container.broker_accounts()(settings.mqtt_ingest_password,
                                                             settings.mqtt_admin_password))

    def _watch_private(self, every_s: float = 2.0) -> None:
        while not self._stopping.wait(every_s):
            if self.private is not None and not self.private.running() and not self._stopping.is_set():
                log.warning("the private Mosquitto stopped (see %s): starting it again", self.private.log_file)
                try:
                    self.private.stop()
                    self._start_private()
                except RuntimeError as error:
                    log.error("the private Mosquitto did not start again: %s", error)

    def stop(self) -> None:
        self._stopping.set()
        if self.worker is not None:
            self.worker.stop()
        if self.broker is not None:
            self.broker.stop()
        if self.private is not None:
            self.private.stop()


def start_simulator(container: Container, *, devices: int, interval_s: float, seed: int | None = None,
                    url: str | None = None, truck: str | None = None) -> Simulator:
    """Simulate devices on the devices' listener at `url` (default MQTT_DEVICE_URL), each logged in
    as itself; the device `truck` (a GUID among them) drives the delivery route."""
    simulated = [replace(d, route=DELIVERY_ROUTE) if d.guid == truck else d
                 for d in simulated_devices(container, devices)]
    simulator = Simulator(url or container.settings().mqtt_device_url, simulated, interval_s, seed=seed)
    threading.Thread(target=simulator.run, name="simulator", daemon=True).start()
    return simulator
