"""The ingest worker against a real broker (the machine's Mosquitto, or the embedded one) and the
real databases: every reading stored once, bad messages counted without stopping the worker,
two workers sharing the load, nothing lost while the database is away."""

from __future__ import annotations

import logging
import os
import signal
import socket
from datetime import UTC, datetime, timedelta

import paho.mqtt.client as mqtt
import pytest
from sqlalchemy import func, select

from adapters.messaging.embedded_broker import EmbeddedBroker
from adapters.messaging.ingest_worker import IngestConfig, IngestWorker
from adapters.persistence.models import DeviceRow, ReadingRow
from core.telemetry.directory import DeviceDirectory
from core.telemetry.parsing import Reason
from core.telemetry.use_cases import RecordStatus, StoreReadings
from entrypoints.demo_seed import seed
from tests.support.demo_copy import seeded
from tests.support.mqtt import Publisher, forget_session, require_mosquitto, unique, wait_until

NOW = datetime.now(UTC).replace(microsecond=0)


def no_alarms(uow, readings) -> None:
    """The alarm evaluation's own tests live in the alarms suite."""


def count(container, **where) -> int:
    with container.session_factory()() as session:
        query = select(func.count()).select_from(ReadingRow)
        for key, value in where.items():
            query = query.where(getattr(ReadingRow, key) == value)
        return session.scalar(query)


def device(container, guid: str) -> DeviceRow:
    with container.session_factory()() as session:
        return session.scalars(select(DeviceRow).where(DeviceRow.guid == guid)).one()


class Workers:
    """Starts workers on one share group and cleans their broker sessions up."""

    def __init__(self, container, url: str, share_group: str | None) -> None:
        self.container, self.url, self.share_group = container, url, share_group
        self.started: list[IngestWorker] = []

    def start(self, store=None, client_id: str | None = None, **options) -> IngestWorker:
        c = self.container
        worker = IngestWorker(
            IngestConfig(self.url, client_id or unique("ingest-"), share_group=self.share_group,
                         max_latency_s=0.05, **options),
            store=store or StoreReadings(c.uow(), c.clock(), no_alarms),
            record_status=RecordStatus(c.uow(), c.clock()),
            directory=DeviceDirectory(lambda guids: self._ids(guids)),
            now=lambda: datetime.now(UTC),
        )
        worker.start()
        assert worker.wait_connected(10), "the worker did not connect"
        self.started.append(worker)
        return worker

    def _ids(self, guids):
        with self.container.uow() as uow:
            return uow.readings.device_ids(guids)

    def stop_all(self) -> None:
        for worker in self.started:
            worker.stop()
            if worker.config.mqtt_v5:
                forget_session(self.url, worker.config.client_id)


@pytest.fixture
def demo_app(app):
    seeded(app)
    return app


@pytest.fixture
def broker_url():
    return require_mosquitto()


@pytest.fixture
def workers(demo_app, broker_url):
    pool = Workers(demo_app.container, broker_url, unique("ingest"))
    yield pool
    pool.stop_all()


@pytest.fixture
def publisher(broker_url):
    pub = Publisher(broker_url)
    yield pub
    pub.close()


@pytest.fixture(scope="module")
def embedded_url():
    """`make run`'s set-up: the in-process broker (MQTT 3.1.1, no shared subscriptions)."""
    port = free_port()
    broker = EmbeddedBroker("127.0.0.1", port)
    broker.start()
    yield f"mqtt://127.0.0.1:{port}"
    broker.stop()


@pytest.fixture
def embedded(sqlite_app, embedded_url):
    seed(sqlite_app.container)
    pool = Workers(sqlite_app.container, embedded_url, share_group=None)
    publisher = Publisher(embedded_url, v5=False)
    yield sqlite_app, pool, publisher
    publisher.close()
    pool.stop_all()


GUID = "RCW360A0000001"


def reading(minutes_ago: int, t: float = 4.5, **extra) -> dict:
    return {"ts": (NOW - timedelta(minutes=minutes_ago)).isoformat(), "t": t, "h": 60.0, **extra}


def test_a_reading_is_stored_once_however_often_it_is_delivered(demo_app, workers, publisher):
    stored_once_under_redelivery(demo_app.container, workers.start(), publisher)


def test_the_embedded_broker_stores_a_reading_once_however_often_it_is_delivered(embedded):
    app, pool, publisher = embedded
    stored_once_under_redelivery(app.container, pool.start(mqtt_v5=False), publisher)


def stored_once_under_redelivery(c, worker: IngestWorker, publisher: Publisher) -> None:
    before = count(c)
    one = reading(1, seq=1)
    for _ in range(3):
        publisher.send(f"devices/{GUID}/telemetry", one)
    publisher.send(f"devices/{GUID}/telemetry", {"readings": [one, reading(2, seq=2)]})
    wait_until(lambda: worker.stats.duplicates >= 3, what="three duplicates")
    assert count(c) == before + 2
    assert worker.stats.duplicates == 3


def test_bad_messages_are_counted_and_the_worker_goes_on(demo_app, workers, publisher):
    bad_messages_do_not_stop_the_worker(demo_app.container, workers.start(), publisher)


def test_the_embedded_broker_s_worker_counts_bad_messages_and_goes_on(embedded):
    app, pool, publisher = embedded
    bad_messages_do_not_stop_the_worker(app.container, pool.start(mqtt_v5=False), publisher)


def bad_messages_do_not_stop_the_worker(c, worker: IngestWorker, publisher: Publisher) -> None:
    before = count(c)
    topic = f"devices/{GUID}/telemetry"
    publisher.send(topic, b"{not json")
    publisher.send(topic, b"x" * (300 * 1024))
    publisher.send("devices/NO_SUCH_DEVICE/telemetry", reading(1))
    publisher.send(topic, reading(1, t=999))
    publisher.send(topic, {"ts": "2026-11-22T12:00:00", "t": 1})
    publisher.send(topic, reading(3, t=5.0))
    # Wait for what the test is about, not a message count: the broker may also hand the new
    # subscriber retained status messages of earlier tests.
    wait_until(lambda: count(c) == before + 1 and sum(worker.stats.rejected.values()) >= 5,
               what="the good reading and five refusals")
    assert worker.stats.rejected == {Reason.MALFORMED: 1, Reason.TOO_LARGE: 1, Reason.UNKNOWN_DEVICE: 1,
                                     Reason.OUT_OF_RANGE: 1, Reason.BAD_TIMESTAMP: 1}


def test_a_message_whose_handling_raises_is_refused_acknowledged_and_not_seen_again(demo_app, workers, publisher,
                                                                                   monkeypatch):
    """Whatever bug a message finds, it is refused like a malformed one and the others go on."""
    from adapters.messaging import ingest_worker

    c = demo_app.container
    parse = ingest_worker.parse_telemetry

    def finds_a_bug(topic, payload, now):
        if payload == b'{"finds": "a bug"}':
            raise RuntimeError("a bug this message finds")
        return parse(topic, payload, now)

    monkeypatch.setattr(ingest_worker, "parse_telemetry", finds_a_bug)
    client_id, topic, before = unique("ingest-"), f"devices/{GUID}/telemetry", count(c)
    worker = workers.start(client_id=client_id)
    publisher.send(topic, b'{"finds": "a bug"}')
    publisher.send(topic, reading(1))
    wait_until(lambda: count(c) == before + 1, what="the reading after it")
    assert worker.stats.rejected == {Reason.UNPROCESSABLE: 1} and worker.failure is None
    worker.stop()
    again = workers.start(client_id=client_id)  # the same session: only what was not acknowledged comes back
    publisher.send(topic, reading(2))
    wait_until(lambda: count(c) == before + 2, what="the next reading")
    assert again.stats.rejected == {}


def test_the_latest_reading_and_online_state_follow_the_device(demo_app, workers, publisher):
    c = demo_app.container
    workers.start()
    publisher.send(f"devices/{GUID}/telemetry", reading(1, t=3.25))
    wait_until(lambda: device(c, GUID).last_temperature == 3.25, what="the live value")
    # an older reading (a history upload) does not replace what is shown
    publisher.send(f"devices/{GUID}/telemetry", reading(30, t=9.0))
    publisher.send(f"devices/{GUID}/status", b"offline")
    wait_until(lambda: not device(c, GUID).online, what="offline")
    row = device(c, GUID)
    assert row.last_temperature == 3.25 and row.activated_at is not None
    publisher.send(f"devices/{GUID}/status", b"online")
    wait_until(lambda: device(c, GUID).online, what="online")


def test_two_workers_share_the_load_and_store_each_reading_once(demo_app, workers, publisher):
    c = demo_app.container
    before = count(c)
    first, second = workers.start(), workers.start()
    messages = [(f"devices/{GUID}/telemetry", {"ts": (NOW - timedelta(seconds=i)).isoformat(), "t": 4.0})
                for i in range(1, 2001)]
    publisher.send_many(messages)
    wait_until(lambda: count(c) == before + 2000, timeout=60, what="2000 readings")
    assert first.stats.duplicates + second.stats.duplicates == 0
    assert first.stats.stored > 0 and second.stats.stored > 0


def test_nothing_is_lost_while_the_database_is_away(demo_app, workers, publisher):
    c = demo_app.container
    before = count(c)
    real = StoreReadings(c.uow(), c.clock(), no_alarms)
    failures = {"left": 3}

    def flaky(readings):
        if failures["left"]:
            failures["left"] -= 1
            raise ConnectionError("database went away")
        return real(readings)

    worker = workers.start(store=flaky)
    publisher.send_many([(f"devices/{GUID}/telemetry", reading(i)) for i in range(1, 51)])
    wait_until(lambda: count(c) == before + 50, timeout=30, what="50 readings")
    assert worker.stats.store_failures == 3


def test_a_restarted_worker_gets_what_was_left_unacknowledged(demo_app, broker_url, publisher):
    """Readings held by a worker whose store kept failing are delivered again to its session."""
    c = demo_app.container
    pool = Workers(c, broker_url, unique("ingest"))
    client_id = unique("ingest-")
    before = count(c)
    try:
        def down(readings):
            raise ConnectionError("database down")

        stuck = pool.start(store=down, client_id=client_id)
        publisher.send_many([(f"devices/{GUID}/telemetry", reading(i)) for i in range(1, 101)])
        wait_until(lambda: stuck.stats.store_failures >= 1, what="a failed store")
        stuck.stop()  # leaves while the database is down: nothing was acknowledged
        pool.started.remove(stuck)
        assert count(c) == before
        pool.start(client_id=client_id)  # the same session picks up what is still unacknowledged
        wait_until(lambda: count(c) == before + 100, timeout=30, what="100 readings after the restart")
    finally:
        pool.stop_all()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_excursion_published_over_mqtt_raises_an_alarm_through_the_production_worker(demo_app, broker_url,
                                                                                        publisher):
    """The worker `coldchain ingest` builds evaluates alarm rules in the batch's transaction."""
    from entrypoints.ingest import build_worker, worker_config
    from tests.support.alarms import FRIDGE, alarms, device, sent

    c = demo_app.container
    sms_before = device(c, FRIDGE).sms_count
    worker = build_worker(c, worker_config(c, url=broker_url, client_id=unique("ingest-"), topic_prefix="",
                                           share_group=unique("ingest"), max_latency_s=0.05))
    worker.start()
    try:
        assert worker.wait_connected(10)
        start = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=10)
        publisher.send(f"devices/{FRIDGE}/telemetry", {"readings": [
            {"ts": (start + timedelta(minutes=m)).isoformat(), "t": t, "h": 50.0}
            for m, t in ((0, 9.0), (3, 11.5), (5, 10.0))]})
        wait_until(lambda: len(alarms(c, FRIDGE)) == 1, what="the fridge's alarm")
        [alarm] = alarms(c, FRIDGE)
        assert (alarm.probe, alarm.level, alarm.extreme_value) == ("t", 1, 11.5)
        assert device(c, FRIDGE).sms_count == sms_before - 1
        assert ("phone", "13800000001") in sent(c)
    finally:
        worker.stop()
        forget_session(broker_url, worker.config.client_id)


def test_a_retired_worker_stores_what_it_held_and_its_share_goes_to_the_others(demo_app, workers, publisher,
                                                                              broker_url):
    c = demo_app.container
    before = count(c)
    stays = workers.start()
    leaving_id = unique("ingest-")
    workers.start(client_id=leaving_id).stop()  # gone for now: its session takes a share while away
    publisher.send_many([(f"devices/{GUID}/telemetry", reading(i)) for i in range(1, 101)])
    wait_until(lambda: stays.stats.handled >= 1, what="the staying worker's first messages")
    assert count(c) < before + 100  # part of the load waits in the absent worker's session
    workers.start(client_id=leaving_id, retire=True).stop()
    wait_until(lambda: count(c) == before + 100, what="all 100 readings once the worker retired")
    publisher.send_many([(f"devices/{GUID}/telemetry", reading(i)) for i in range(101, 151)])
    wait_until(lambda: count(c) == before + 150, what="the next 50, all through the staying worker")
    assert stays.stats.handled >= 50
    probe = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=leaving_id, protocol=mqtt.MQTTv5)
    host, port = broker_url.removeprefix("mqtt://").split(":")
    flags = []
    probe.on_connect = lambda client, userdata, connect_flags, rc, props: flags.append(connect_flags)
    probe.connect(host, int(port), clean_start=False)
    probe.loop_start()
    wait_until(lambda: flags, what="the probe's CONNACK")
    probe.disconnect()
    probe.loop_stop()
    assert flags[0].session_present is False


@pytest.fixture
def serve_settings(sqlite_app, tmp_path):
    """`coldchain serve`'s settings in development, on free ports and a private var/."""
    from dataclasses import replace

    from dependency_injector import providers

    c = sqlite_app.container
    seed(c)
    settings = replace(c.settings(), var_dir=tmp_path, mqtt_private_broker=True, mqtt_admin_password="a" * 24,
                       mqtt_url=f"mqtt://127.0.0.1:{free_port()}", mqtt_device_url=f"mqtt://127.0.0.1:{free_port()}")
    c.settings.override(providers.Object(settings))
    yield c, settings
    c.settings.reset_last_overriding()
    c.broker_access.reset_override()


def test_serve_s_private_mosquitto_takes_the_simulated_devices_each_logged_in_as_itself(serve_settings):
    """`make run`: a private Mosquitto with production's set-up, the worker on v5 under the mount
    point, and the simulator's devices each with a password of its own, stored."""
    from entrypoints.ingest import EmbeddedIngest, start_simulator
    from tests.support.mosquitto import Client, require_mosquitto_binary

    require_mosquitto_binary()
    c, settings = serve_settings
    ingest = EmbeddedIngest(c)
    simulator = None
    before = count(c)
    try:
        ingest.start()
        assert ingest.private is not None and ingest.private.running() and ingest.broker is None
        assert ingest.worker.wait_connected(10)
        assert (ingest.worker.config.mqtt_v5, ingest.worker.config.topic_prefix) == (True, "fleet/")
        assert ingest.device_url == settings.mqtt_device_url
        simulator = start_simulator(c, devices=3, interval_s=0.2, seed=7, url=ingest.device_url)
        wait_until(lambda: count(c) >= before + 6, 30, "simulated readings")
        device_port = int(ingest.device_url.rsplit(":", 1)[1])
        assert not Client(device_port, "", "", protocol=mqtt.MQTTv311).accepted()  # anonymous
        assert not Client(device_port, GUID, "a-guessed-password").accepted()
        # A broker that dies is started again, and the readings go on.
        crashed = ingest.private.pid
        os.kill(crashed, signal.SIGKILL)
        wait_until(lambda: ingest.private.running() and ingest.private.pid != crashed, 30, "the broker back")
        resumed = count(c)
        wait_until(lambda: count(c) >= resumed + 6, 60, "simulated readings after the restart")
    finally:
        if simulator is not None:
            simulator.stop()
        ingest.stop()
    assert ingest.private is not None and not ingest.private.running()


def test_without_mosquitto_serve_falls_back_to_the_in_process_broker_and_says_what_it_lacks(serve_settings, caplog):
    from adapters.mosquitto.dynsec import NoBrokerAccess
    from entrypoints.ingest import EmbeddedIngest

    c, settings = serve_settings
    ingest = EmbeddedIngest(c, mosquitto=None)
    publisher = None
    before = count(c)
    try:
        with caplog.at_level(logging.WARNING, logger="coldchain.ingest"):
            ingest.start()
        assert "MQTT 3.1.1 only" in caplog.text and "checks no device credentials" in caplog.text
        assert ingest.broker is not None and ingest.private is None and ingest.device_url == settings.mqtt_url
        assert isinstance(c.broker_access(), NoBrokerAccess)
        assert ingest.worker.wait_connected(10) and ingest.worker.config.mqtt_v5 is False
        publisher = Publisher(settings.mqtt_url, v5=False)
        publisher.send_many([(f"devices/{GUID}/telemetry", reading(i)) for i in range(1, 11)])
        wait_until(lambda: count(c) == before + 10, what="10 readings")
    finally:
        if publisher is not None:
            publisher.close()
        ingest.stop()


def test_serve_s_embedded_ingest_uses_a_broker_that_answers_at_a_given_mqtt_url(sqlite_app):
    """A developer's own broker at MQTT_URL: used as it is, with a plain subscription."""
    from dataclasses import replace

    from dependency_injector import providers

    from entrypoints.ingest import EmbeddedIngest

    c = sqlite_app.container
    seed(c)
    url = require_mosquitto()
    settings = c.settings()
    c.settings.override(providers.Object(replace(settings, mqtt_url=url, mqtt_device_url=url)))
    ingest = EmbeddedIngest(c)
    publisher = None
    before = count(c)
    try:
        ingest.start()
        assert ingest.broker is None and ingest.private is None
        assert ingest.worker.wait_connected(10) and ingest.worker.config.share_group is None
        publisher = Publisher(url)
        publisher.send_many([(f"devices/{GUID}/telemetry", reading(i)) for i in range(1, 11)])
        wait_until(lambda: count(c) == before + 10, what="10 readings")
    finally:
        if publisher is not None:
            publisher.close()
        ingest.stop()
        c.settings.reset_last_overriding()
        forget_session(url, ingest.worker.config.client_id)


def test_positions_and_energy_are_stored_and_a_hostile_position_never_moves_the_device(demo_app, workers, publisher):
    c = demo_app.container
    worker = workers.start()
    topic = f"devices/{GUID}/telemetry"
    # minutes and values no other test (nor the demo history) uses
    publisher.send(topic, reading(91, t=3.51, lat=48.85, lon=2.35, acc=8, kwh=12.5))
    wait_until(lambda: device(c, GUID).last_position_at is not None
               and device(c, GUID).last_latitude == 48.85, what="the position")
    # hostile positions: dropped with their reading kept; an older fix (a history upload) moves nothing
    publisher.send(topic, b'{"ts": "%s", "t": 3.61, "lat": NaN, "lon": 1}' % reading(90)["ts"].encode())
    publisher.send(topic, reading(89, t=3.71, lat=95.0, lon=2.0, kwh=-5))
    publisher.send(topic, reading(99, t=3.81, lat=10.0, lon=10.0))
    wait_until(lambda: count(c, temperature=3.81) == 1 and count(c, temperature=3.61) == 1
               and count(c, temperature=3.71) == 1, what="the three readings")
    row = device(c, GUID)
    assert (row.last_latitude, row.last_longitude, row.last_accuracy_m) == (48.85, 2.35, 8.0)
    assert worker.stats.rejected == {Reason.BAD_POSITION: 2, Reason.BAD_ENERGY: 1}
    with c.session_factory()() as session:
        stored = session.execute(select(ReadingRow.latitude, ReadingRow.kwh)
                                 .where(ReadingRow.temperature == 3.51)).one()
    assert tuple(stored) == (48.85, 12.5)
    assert worker.failure is None


def test_a_scrapped_device_s_readings_are_dropped_as_an_unknown_device_s(demo_app, workers, publisher):
    """Its broker login is disabled; what was already on its way is not stored, so it alarms nobody."""
    c = demo_app.container
    scrapped, other = device(c, GUID), device(c, "RCW360A0000002")
    c.scrap_devices()(scrapped.owner_account_id, [scrapped.id], "lost")
    before = count(c, device_id=scrapped.id), count(c, device_id=other.id)
    worker = workers.start()
    publisher.send(f"devices/{GUID}/telemetry", reading(1, t=30.0))
    publisher.send(f"devices/{other.guid}/telemetry", reading(1))
    wait_until(lambda: count(c, device_id=other.id) == before[1] + 1
               and worker.stats.rejected.get(Reason.UNKNOWN_DEVICE, 0) >= 1, what="the other's reading and a refusal")
    assert count(c, device_id=scrapped.id) == before[0]
    assert device(c, GUID).last_reading_at == scrapped.last_reading_at
