"""Ingest throughput: how close the stored rate comes to what the broker can deliver.

    make bench                       # PostgreSQL on 127.0.0.1:5432 (a temporary database)
    BENCH_MESSAGES=50000 make bench  # a shorter run

One run, all on 127.0.0.1, against a private Mosquitto started for the run (in-memory, unlimited
queues, so the whole load can wait in the broker before the consumers start: the figures are the
consumers' capacity, not a Python publisher's speed):

  R  raw broker delivery: a bare stock paho subscriber drains the preloaded messages and does
     nothing (printed beside it: the same reading every waiting packet per wake-up, a stricter
     reference, since the workers read that way);
  E  end to end: 1, then 2 `coldchain ingest` processes (shared subscription) drain the same
     messages into PostgreSQL; timed until the database holds them all;
  N  naive: one ORM insert and commit per message.

The last line reads `ingest: E msg/s end-to-end, R msg/s raw broker, ratio E/R, naive N msg/s`.
Figures are printed, never asserted.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.orm import Session

from adapters.messaging.draining_client import DrainingClient
from adapters.persistence.database import make_engine
from adapters.persistence.migrate import upgrade
from adapters.persistence.models import DeviceRow, ReadingRow

MESSAGES = int(os.environ.get("BENCH_MESSAGES", "200000"))
DEVICES = 1000
NAIVE_MESSAGES = min(5000, MESSAGES)
ROOT = Path(__file__).resolve().parents[1]
COLDCHAIN = str(Path(sys.executable).with_name("coldchain"))
PG_ADMIN = os.environ.get("BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivateBroker:
    def __init__(self, work: Path) -> None:
        self.port = free_port()
        config = work / "mosquitto.conf"
        config.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                          "max_queued_messages 0\nmax_queued_bytes 0\nmax_inflight_messages 0\n")
        self.process = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the private Mosquitto did not start")

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def session_properties() -> Properties:
    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = 3600
    properties.ReceiveMaximum = 10000
    return properties


def client(client_id: str, kind: type[mqtt.Client] = mqtt.Client) -> mqtt.Client:
    return kind(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)


def subscribe_offline(port: int, client_id: str, topic: str) -> None:
    """Create a persistent session with its subscription, then leave: messages queue for it."""
    c = client(client_id)
    c.connect("127.0.0.1", port, clean_start=True, properties=session_properties())
    c.loop_start()
    c.subscribe(topic, 1)
    time.sleep(0.5)
    c.disconnect()
    c.loop_stop()


def messages(guids: list[str], start: datetime, count: int, offset: int = 0) -> list[tuple[str, bytes]]:
    out = []
    for i in range(count):
        guid = guids[i % len(guids)]
        ts = start + timedelta(seconds=(offset + i) // len(guids))
        out.append((f"devices/{guid}/telemetry",
                    json.dumps({"ts": ts.isoformat(), "t": round(4 + (i % 40) / 10, 1), "h": 55.0}).encode()))
    return out


def preload(port: int, load: list[tuple[str, bytes]]) -> float:
    publisher = client(f"bench-pub-{uuid.uuid4().hex[:6]}")
    publisher.max_inflight_messages_set(2000)
    publisher.connect("127.0.0.1", port)
    publisher.loop_start()
    started = time.perf_counter()
    for chunk in range(0, len(load), 20_000):  # paho refuses to queue far more than that at once
        infos = [publisher.publish(topic, payload, qos=1) for topic, payload in load[chunk:chunk + 20_000]]
        for info in infos:
            info.wait_for_publish(120)
    elapsed = time.perf_counter() - started
    publisher.disconnect()
    publisher.loop_stop()
    return elapsed


def raw_rate(broker: PrivateBroker, load: list[tuple[str, bytes]], kind: type[mqtt.Client]) -> float:
    topic = "devices/+/telemetry"
    name = f"bench-raw-{kind.__name__}"
    subscribe_offline(broker.port, name, topic)
    preload(broker.port, load)
    received = 0

    def on_message(c, u, m):
        nonlocal received
        received += 1

    c = client(name, kind)
    c.on_message = on_message
    started = time.perf_counter()
    c.connect("127.0.0.1", broker.port, clean_start=False, properties=session_properties())
    c.loop_start()
    while received < len(load) and time.perf_counter() - started < 600:
        time.sleep(0.01)
    elapsed = time.perf_counter() - started
    c.disconnect()
    c.loop_stop()
    return received / elapsed


def stored(engine) -> int:
    with engine.connect() as connection:
        return connection.scalar(select(func.count()).select_from(ReadingRow))


def ingest_rate(broker: PrivateBroker, engine, env: dict, load: list[tuple[str, bytes]], workers: int) -> float:
    group = f"bench{uuid.uuid4().hex[:6]}"
    ids = [f"bench-ingest-{group}-{n}" for n in range(workers)]
    for client_id in ids:
        subscribe_offline(broker.port, client_id, f"$share/{group}/devices/+/telemetry")
    before = stored(engine)
    preload(broker.port, load)
    # The bench's broker has no devices' mount point, unlike the one `coldchain mqtt-config` writes.
    processes = [subprocess.Popen([COLDCHAIN, "ingest", "--client-id", client_id, "--share-group", group,
                                   "--topic-prefix", ""],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for client_id in ids]
    try:
        # The clock starts at the first commit: a Python process's start-up (about a second of
        # imports and connections) is not ingest throughput, and R has none either.
        deadline = time.perf_counter() + 120
        while (first := stored(engine) - before) == 0 and time.perf_counter() < deadline:
            time.sleep(0.002)
        started = time.perf_counter()
        while stored(engine) - before < len(load) and time.perf_counter() - started < 900:
            time.sleep(0.05)
        elapsed = time.perf_counter() - started
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(30)
    count = stored(engine) - before
    if count != len(load):
        print(f"  !! stored {count} of {len(load)}")
    return (count - first) / elapsed


def naive_rate(broker: PrivateBroker, engine, device_ids: dict[str, int], load: list[tuple[str, bytes]]) -> float:
    """The pipeline this design replaces: decode, then one ORM insert and one commit per message."""
    subscribe_offline(broker.port, "bench-naive", "devices/+/telemetry")
    preload(broker.port, load)
    done = 0
    session = Session(engine)

    def on_message(c, u, m):
        nonlocal done
        body = json.loads(m.payload)
        guid = m.topic.split("/")[1]
        session.add(ReadingRow(device_id=device_ids[guid], ts=datetime.fromisoformat(body["ts"]),
                               temperature=body["t"], humidity=body["h"], received_at=datetime.now(UTC)))
        session.commit()
        done += 1

    c = client("bench-naive")
    c.on_message = on_message
    started = time.perf_counter()
    c.connect("127.0.0.1", broker.port, clean_start=False, properties=session_properties())
    c.loop_start()
    while done < len(load) and time.perf_counter() - started < 600:
        time.sleep(0.01)
    elapsed = time.perf_counter() - started
    c.disconnect()
    c.loop_stop()
    session.close()
    return done / elapsed


def database(work: Path) -> tuple[str, callable]:
    name = f"coldchain_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as error:
        print(f"PostgreSQL unavailable ({error.__class__.__name__}); using SQLite, which has one writer")
        return f"sqlite:///{work / 'bench.db'}", lambda: None

    def drop() -> None:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    return PG_ADMIN.rsplit("/", 1)[0] + f"/{name}", drop


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="coldchain-ingest-bench-"))
    url, drop = database(work)
    broker = PrivateBroker(work)
    engine = make_engine(url)
    try:
        upgrade(engine)
        guids = [f"BENCH{n:06d}" for n in range(DEVICES)]
        now = datetime.now(UTC).replace(microsecond=0)
        with Session(engine) as session:
            type_id = session.execute(text(
                "INSERT INTO device_types (type_name, type_code, add_type, scenes, status, probes) "
                "VALUES ('Bench logger', 36864, 0, '1', 2, 't,h') RETURNING id")).scalar_one()
            account = session.execute(text(
                "INSERT INTO accounts (user_name, user_name_key, password_hash, account_type, status, created_at) "
                "VALUES ('bench_owner', 'bench_owner', 'x', 1, 1, :now) RETURNING id"), {"now": now}).scalar_one()
            session.add_all(DeviceRow(guid=g, device_name=g, type_id=type_id, owner_account_id=account,
                                      created_at=now) for g in guids)
            session.commit()
            device_ids = dict(session.execute(select(DeviceRow.guid, DeviceRow.id)).all())
        env = {**os.environ, "DATABASE_URL": url, "MQTT_URL": broker.url, "MQTT_EMBEDDED": "0",
               "APP_ENV": "test", "SECRET_KEY": "bench-secret-key-that-is-long-enough-0123456789",
               "VAR_DIR": str(work), "LOG_LEVEL": "warning"}
        start = now - timedelta(days=30)
        backend = engine.dialect.name
        print(f"{MESSAGES} messages over {DEVICES} devices; {backend}; private Mosquitto on port {broker.port}")

        # R is the yardstick: a bare stock paho subscriber. The same subscriber reading every
        # waiting packet per wake-up (as the workers do) is printed too, as a stricter reference.
        raw = raw_rate(broker, messages(guids, start, MESSAGES), mqtt.Client)
        print(f"R  raw broker delivery (bare stock paho v5 subscriber): {raw:7.0f} msg/s")
        drained = raw_rate(broker, messages(guids, start, MESSAGES), DrainingClient)
        print(f"   bare draining paho v5 subscriber (reference):     {drained:7.0f} msg/s")
        one = ingest_rate(broker, engine, env, messages(guids, start, MESSAGES, offset=MESSAGES), 1)
        print(f"E1 end to end, 1 ingest worker:                     {one:9.0f} msg/s  (E1/R {one / raw:.2f})")
        two = ingest_rate(broker, engine, env, messages(guids, start, MESSAGES, offset=2 * MESSAGES), 2)
        print(f"E2 end to end, 2 ingest workers:                    {two:9.0f} msg/s  (E2/R {two / raw:.2f}, "
              f"against the draining subscriber {two / drained:.2f})")
        naive = naive_rate(broker, engine, device_ids, messages(guids, start, NAIVE_MESSAGES, offset=3 * MESSAGES))
        print(f"N  naive per-row ORM insert and commit:            {naive:9.0f} msg/s  (E2/N {two / naive:.1f})")
        total = stored(engine)
        with engine.connect() as connection:
            distinct = connection.scalar(text("SELECT count(*) FROM (SELECT DISTINCT device_id, ts FROM readings) d"))
        expected = 2 * MESSAGES + NAIVE_MESSAGES
        print(f"stored {total} of {expected} sent through the ingest paths, {total - distinct} duplicates")
        print(f"ingest: {two:.0f} msg/s end-to-end, {raw:.0f} msg/s raw broker, ratio {two / raw:.2f}, "
              f"naive {naive:.0f} msg/s")
    finally:
        engine.dispose()
        broker.stop()
        drop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
