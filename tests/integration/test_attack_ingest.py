"""Issue 13, items 4-6: a hostile device against the production MQTT set-up.

Everything is the real thing: Mosquitto configured by `coldchain mqtt-config` from the app's
database, devices that log in with the credentials the API issued them, and the ingest worker of
`coldchain ingest` (as a process where its exit status matters) storing into SQLite and
PostgreSQL. Each attack is judged by one figure: every reading the honest devices sent is stored,
while the rogue device does its worst.
"""

from __future__ import annotations

import re
import signal
import subprocess
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from sqlalchemy import func, select, text

from adapters.persistence.models import DeviceRow, ReadingRow
from core.telemetry.parsing import MAX_PAYLOAD_BYTES
from tests.support.demo_copy import seeded
from tests.support.mosquitto import (
    COLDCHAIN,
    INGEST_PASSWORD,
    Client,
    GeneratedBroker,
    add_device,
    console_environment,
    require_mosquitto_binary,
)
from tests.support.mqtt import wait_until

HONEST = ("HONESTLOGGER01", "HONESTLOGGER02", "HONESTLOGGER03")
ROGUES = ("ROGUELOGGER001", "ROGUELOGGER002", "ROGUELOGGER003", "ROGUELOGGER004")
ROGUE = ROGUES[0]


@dataclass
class Fleet:
    app: object
    broker: GeneratedBroker
    passwords: dict[str, str]
    ids: dict[str, int]

    @property
    def container(self):
        return self.app.container

    def device(self, guid: str, protocol: int = mqtt.MQTTv311, client_id: str | None = None) -> Client:
        """A device connected to the devices' listener with its own credentials."""
        client = Client(self.broker.device_port, guid, self.passwords[guid], client_id or guid, protocol)
        assert client.accepted(), f"{guid} was refused"
        return client

    def stored(self, *guids: str) -> int:
        with self.container.session_factory()() as session:
            return session.scalar(select(func.count()).select_from(ReadingRow)
                                  .where(ReadingRow.device_id.in_([self.ids[g] for g in guids or HONEST])))


@pytest.fixture
def fleet(app, api):
    require_mosquitto_binary()
    seeded(app, history=False)
    passwords = {guid: add_device(api, guid) for guid in HONEST + ROGUES}
    with app.container.session_factory()() as session:
        ids = dict(session.execute(select(DeviceRow.guid, DeviceRow.id).where(DeviceRow.guid.in_(passwords))).all())
    broker = GeneratedBroker(app.container.settings().database_url)
    broker.configure()
    broker.start()
    yield Fleet(app, broker, passwords, ids)
    broker.stop()


class Readings:
    """Distinct readings per device (one a second, going back from now), so each is stored once."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC).replace(microsecond=0)
        self.sent = 0

    def send(self, devices: list[Client], per_device: int) -> None:
        infos = []
        for _ in range(per_device):
            self.sent += 1
            ts = (self.now - timedelta(seconds=self.sent)).isoformat()
            for device in devices:
                infos.append(device.publish(f"devices/{device.username}/telemetry", f'{{"ts":"{ts}","t":4.5,"h":60}}'))
        for info in infos:
            info.wait_for_publish(30)


def stored_once_all_arrived(fleet: Fleet, expected: int, timeout: float = 90.0) -> int:
    """The honest devices' stored readings once they reach `expected`, or after `timeout` (the
    assertion that follows then shows how many were lost). A worker process just started may take
    half a minute to import and subscribe on a machine busy with the other suites."""
    with suppress(AssertionError):
        wait_until(lambda: fleet.stored() >= expected, timeout, f"{expected} stored readings")
    return fleet.stored()


def close_all(clients) -> None:
    for client in clients:
        client.close()


# --- item 4: one message must not stop ingest --------------------------------------------------------

HOSTILE = [
    b"[" * 5000 + b"]" * 5000,  # the 10 KB: RecursionError in json.loads
    b'{"a":' * 5000 + b"1" + b"}" * 5000,  # as deep, in objects
    b'{"readings":[' + b"[" * 5000 + b"]" * 5000 + b"]}",  # as deep, inside a batch
    b'{"ts":1' + b"0" * 400 + b',"t":4}',  # an integer no float can hold, as a time
    b'{"ts":"2026-01-01T00:00:00Z","t":1' + b"0" * 400 + b"}",  # ... and as a temperature
    b'{"ts":"0001-01-01T00:00:00+01:00","t":4}',  # before year 1 once in UTC
    b'{"ts":"9999-12-31T23:59:59-01:00","t":4}',  # after year 9999 once in UTC
]


def boundary_readings(now: datetime) -> list[str]:
    """Readings at the edges of what is accepted: they are stored like any other."""
    ts = [(now - timedelta(minutes=m)).isoformat() for m in range(1, 6)]
    return [f'{{"ts":"{ts[0]}","t":-200}}', f'{{"ts":"{ts[1]}","t":200}}', f'{{"ts":"{ts[2]}","h":0}}',
            f'{{"ts":"{ts[3]}","h":100}}', f'{{"ts":"{ts[4]}","t":1,"seq":{2**63 - 1}}}']


class IngestProcess:
    """`coldchain ingest` as a supervisor runs it, against the test's database and broker."""

    def __init__(self, fleet: Fleet, client_id: str) -> None:
        self.log_path = Path(fleet.broker.root) / f"{client_id}-{datetime.now(UTC).timestamp()}.log"
        environment = console_environment(fleet.container.settings().database_url, fleet.broker.root / "var",
                                          MQTT_URL=fleet.broker.ingest_url, MQTT_EMBEDDED="0")
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen([COLDCHAIN, "ingest", "--client-id", client_id, "--max-latency-ms", "50"],
                                            stdout=log, stderr=subprocess.STDOUT, env=environment)

    @property
    def log(self) -> str:
        return self.log_path.read_text()

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise

    def rejected(self) -> int:
        """Messages refused in all, from the line the worker logs when it stops."""
        [line] = re.findall(r"stopped: .*rejected: (.*?), store failures", self.log)
        return sum(int(part.rsplit(" ", 1)[1]) for part in line.split(", ") if part != "none")


def ready(fleet: Fleet, device: Client) -> None:
    """The worker is subscribed once a reading sent now is stored (the same reading each time:
    stored once however often it is sent)."""
    ts = (datetime.now(UTC) - timedelta(hours=1)).replace(microsecond=0).isoformat()
    before = fleet.stored()

    def stored() -> bool:
        device.publish(f"devices/{device.username}/telemetry", f'{{"ts":"{ts}","t":3}}').wait_for_publish(10)
        return fleet.stored() > before

    wait_until(stored, 120, "the worker's first reading")  # its start-up: see stored_once_all_arrived


def test_a_hostile_message_is_refused_and_every_honest_reading_is_stored_also_after_a_restart(fleet):
    honest = [fleet.device(guid) for guid in HONEST]
    rogue = fleet.device(ROGUE)
    worker = IngestProcess(fleet, "ingest-attacked")
    restarted = None
    try:
        ready(fleet, honest[0])
        base = fleet.stored()
        for payload in HOSTILE:
            rogue.publish(f"devices/{ROGUE}/telemetry", payload).wait_for_publish(10)
        readings = Readings()
        for payload in boundary_readings(readings.now):
            rogue.publish(f"devices/{ROGUE}/telemetry", payload).wait_for_publish(10)
        readings.send(honest, 50)
        stored = stored_once_all_arrived(fleet, base + readings.sent * len(honest))
        assert stored - base == readings.sent * len(honest) == 150, (
            f"{stored - base} of {readings.sent * len(honest)} honest readings stored after the hostile messages")
        assert fleet.stored(ROGUE) == len(boundary_readings(readings.now))  # valid, however extreme
        assert worker.stop() == 0
        assert worker.rejected() == len(HOSTILE)

        # The hostile messages were acknowledged: a restart under the same session is not hit again.
        restarted = IngestProcess(fleet, "ingest-attacked")
        readings.send(honest, 50)
        stored = stored_once_all_arrived(fleet, base + readings.sent * len(honest))
        assert stored - base == readings.sent * len(honest) == 300, (
            f"{stored - base} of {readings.sent * len(honest)} honest readings stored after the restart")
        assert restarted.stop() == 0
        assert restarted.rejected() == 0
    finally:
        for process in (worker, restarted):
            if process is not None and process.process.poll() is None:
                process.process.kill()
        close_all([*honest, rogue])


def test_a_message_larger_than_the_ingest_takes_is_cut_off_at_the_broker(fleet):
    """8 MiB published by a device (Mosquitto's default limit is 256 MiB) would be queued and handed
    whole to a worker, only to be refused there; the broker disconnects the device instead. A
    message just inside the limit still reaches the worker (and is refused as no JSON)."""
    honest = [fleet.device(guid) for guid in HONEST]
    rogue = fleet.device(ROGUE)
    worker = IngestProcess(fleet, "ingest-flooded")
    try:
        ready(fleet, honest[0])
        base = fleet.stored()
        rogue.publish(f"devices/{ROGUE}/telemetry", b" " * MAX_PAYLOAD_BYTES).wait_for_publish(10)
        rogue.publish(f"devices/{ROGUE}/telemetry", b"{" + b" " * (8 << 20) + b"}")
        wait_until(lambda: rogue.disconnections > 0, 30, "the broker to disconnect the rogue device")
        rogue.close()
        readings = Readings()
        readings.send(honest, 50)
        stored = stored_once_all_arrived(fleet, base + readings.sent * len(honest))
        assert stored - base == readings.sent * len(honest) == 150
        assert worker.stop() == 0
        assert worker.rejected() == 1, worker.log[-2000:]  # the one inside the limit
    finally:
        if worker.process.poll() is None:
            worker.process.kill()
        close_all([*honest, rogue])


@pytest.fixture
def refusing_database(fleet):
    """A database that refuses every new reading: a failure the worker cannot get past by retrying."""
    engine = fleet.container.engine()
    postgres = engine.dialect.name == "postgresql"

    def refuse() -> None:
        with engine.begin() as connection:
            if postgres:
                connection.execute(text("CREATE FUNCTION refuse_readings() RETURNS trigger LANGUAGE plpgsql AS "
                                        "$$ BEGIN RAISE EXCEPTION 'readings refused by the test'; END $$"))
                connection.execute(text("CREATE TRIGGER refuse_readings BEFORE INSERT ON readings FOR EACH ROW "
                                        "EXECUTE FUNCTION refuse_readings()"))
            else:
                connection.execute(text("CREATE TRIGGER refuse_readings BEFORE INSERT ON readings "
                                        "BEGIN SELECT RAISE(ABORT, 'readings refused by the test'); END"))

    def accept() -> None:
        with engine.begin() as connection:
            connection.execute(text("DROP TRIGGER IF EXISTS refuse_readings" + (" ON readings" if postgres else "")))
            if postgres:
                connection.execute(text("DROP FUNCTION IF EXISTS refuse_readings()"))

    yield refuse, accept
    accept()


def test_a_worker_whose_flusher_dies_exits_non_zero_and_loses_nothing(fleet, refusing_database):
    refuse, accept = refusing_database
    device = fleet.device(HONEST[0])
    worker = IngestProcess(fleet, "ingest-dying")
    restarted = None
    try:
        ready(fleet, device)
        base = fleet.stored()
        refuse()
        readings = Readings()
        readings.send([device], 3)
        try:
            code = worker.process.wait(30)
        except subprocess.TimeoutExpired:
            code = None
        assert code == 1, f"the worker should have exited with status 1; it is {code}\n{worker.log[-3000:]}"
        assert fleet.stored() == base

        # What a supervisor does: start it again. Nothing was acknowledged, so nothing was lost.
        accept()
        restarted = IngestProcess(fleet, "ingest-dying")
        assert stored_once_all_arrived(fleet, base + 3) == base + 3
        assert restarted.stop() == 0
    finally:
        for process in (worker, restarted):
            if process is not None and process.process.poll() is None:
                process.process.kill()
        device.close()


# --- items 5 and 6: a device's subscriptions and client id --------------------------------------------

def start_worker(fleet: Fleet, client_id: str):
    """The worker `coldchain ingest` builds, in this process."""
    from entrypoints.ingest import build_worker, worker_config

    c = fleet.container
    worker = build_worker(c, worker_config(c, url=fleet.broker.ingest_url, client_id=client_id,
                                           password=INGEST_PASSWORD, max_latency_s=0.05))
    worker.start()
    assert worker.wait_connected(10), "the worker did not connect"
    return worker


SPYING = ("$share/ingest/devices/+/telemetry", "$share/ingest/fleet/devices/+/telemetry",
          "$share/ingest/#", "devices/+/telemetry", f"devices/{HONEST[0]}/telemetry", "#")


def test_rogue_devices_subscribing_to_the_ingest_share_take_no_reading(fleet):
    worker = start_worker(fleet, "ingest-shared")
    rogues = [fleet.device(guid, mqtt.MQTTv5) for guid in ROGUES]
    honest = [fleet.device(guid) for guid in HONEST]
    try:
        for rogue in rogues:
            rogue.subscribe(SPYING[0])
        for topic in SPYING[1:]:
            rogues[0].subscribe(topic)
        base = fleet.stored()
        readings = Readings()
        readings.send(honest, 100)
        stored = stored_once_all_arrived(fleet, base + 300)
        assert stored - base == 300, f"{stored - base} of 300 honest readings stored while 4 devices held a share"
        assert [rogue.received for rogue in rogues] == [[], [], [], []]
    finally:
        close_all([*rogues, *honest])
        worker.stop()


def test_a_device_on_the_workers_listener_is_only_itself_there(fleet):
    """Both listeners share the broker's logins, but a device that reaches the workers' listener
    can connect there only under its own GUID and read nothing: it cannot take a worker's
    session or a share of its subscription."""
    worker = start_worker(fleet, "ingest-listener")
    honest = [fleet.device(guid) for guid in HONEST]
    impostor = Client(fleet.broker.ingest_port, ROGUE, fleet.passwords[ROGUE], client_id="ingest-listener")
    rogue = Client(fleet.broker.ingest_port, ROGUE, fleet.passwords[ROGUE], client_id=ROGUE)
    try:
        assert not impostor.accepted()
        assert rogue.accepted()
        assert all(rogue.subscribe(topic)[0].is_failure for topic in SPYING)
        base = fleet.stored()
        readings = Readings()
        readings.send(honest, 30)
        assert stored_once_all_arrived(fleet, base + 90) == base + 90
        assert rogue.received == []
    finally:
        close_all([impostor, rogue, *honest])
        worker.stop()


def test_a_device_using_the_worker_s_client_id_does_not_take_its_session(fleet):
    worker = start_worker(fleet, "ingest-targeted")
    honest = [fleet.device(guid) for guid in HONEST]
    impostor = None
    try:
        base = fleet.stored()
        readings = Readings()
        readings.send(honest, 30)
        assert stored_once_all_arrived(fleet, base + 90) == base + 90
        # A clean start under the worker's id: on the old set-up the broker closed the worker's
        # connection and threw its session (and its share of the subscription) away.
        impostor = Client(fleet.broker.device_port, ROGUE, fleet.passwords[ROGUE], client_id="ingest-targeted",
                          clean_start=True)
        assert impostor.accepted()
        readings.send(honest, 50)
        impostor.close()
        readings.send(honest, 30)
        stored = stored_once_all_arrived(fleet, base + readings.sent * 3)
        assert stored - base == readings.sent * 3 == 330, (
            f"{stored - base} of {readings.sent * 3} honest readings stored while a device used the worker's id")
    finally:
        close_all(honest)
        worker.stop()


def test_a_worker_refuses_a_client_id_a_device_could_have(tmp_path):
    """Device GUIDs are letters and digits, so a worker's id must hold something else: a device
    registered as INGESTWORKER01 would otherwise connect under that id and take the session."""
    environment = console_environment(f"sqlite:///{tmp_path / 'console.db'}", tmp_path / "var")
    try:
        result = subprocess.run([COLDCHAIN, "ingest", "--client-id", "INGESTWORKER01"], capture_output=True,
                                text=True, env=environment, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("`coldchain ingest --client-id INGESTWORKER01` ran as a worker")
    assert result.returncode == 2 and "INGESTWORKER01" in result.stderr
