"""The `coldchain` command as a newcomer runs it."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.support.mqtt import Publisher, forget_session, require_mosquitto, unique, wait_until

COLDCHAIN = str(Path(sys.executable).with_name("coldchain"))


def run(*args: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "EDITION", "APP_ENV")}
    environment.update({"VAR_DIR": str(tmp_path / "var"), "PASSWORD_HASH_MEMORY_KIB": "1024",
                        "PASSWORD_HASH_TIME_COST": "1", **env})
    return subprocess.run([COLDCHAIN, *args], capture_output=True, text=True, env=environment, timeout=120,
                          cwd=tmp_path)


def test_migrate_then_seed_twice_on_the_default_sqlite_database(tmp_path):
    assert run("migrate", tmp_path=tmp_path).returncode == 0
    assert (tmp_path / "var" / "coldchain.db").exists()
    first = run("demo-seed", tmp_path=tmp_path)
    assert first.returncode == 0 and "alice" in first.stdout
    second = run("demo-seed", tmp_path=tmp_path)
    assert second.returncode == 0 and "nothing changed" in second.stdout


def test_seeding_before_migrating_says_what_to_do(tmp_path):
    result = run("demo-seed", tmp_path=tmp_path)
    assert result.returncode != 0


@pytest.mark.parametrize("env,words", [
    ({"EDITION": "galactic"}, "EDITION"),
    ({"DATABASE_URL": "mysql://root@localhost/x"}, "DATABASE_URL"),
    ({"MQTT_URL": "tcp://broker"}, "MQTT_URL"),
    ({"APP_ENV": "production"}, "SECRET_KEY"),
    ({"SECRET_KEY": "short"}, "SECRET_KEY"),
    ({"MQTT_EMBEDDED": "perhaps"}, "MQTT_EMBEDDED"),
])
def test_a_bad_setting_stops_with_a_clear_message(tmp_path, env, words):
    result = run("migrate", tmp_path=tmp_path, **env)
    assert result.returncode == 2
    assert result.stderr.startswith("configuration error:") and words in result.stderr
    assert "Traceback" not in result.stderr


def start(*args: str, tmp_path: Path, **env: str) -> subprocess.Popen:
    environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "EDITION", "APP_ENV")}
    environment.update({"VAR_DIR": str(tmp_path / "var"), **env})
    log = open(tmp_path / f"{args[0]}.log", "ab")  # noqa: SIM115 - kept open for the child
    return subprocess.Popen([COLDCHAIN, *args], stdout=log, stderr=log,
                            env=environment, cwd=tmp_path)


def readings_of(tmp_path: Path, guid: str) -> int:
    with closing(sqlite3.connect(tmp_path / "var" / "coldchain.db", timeout=10)) as db:
        return db.execute("SELECT count(*) FROM readings JOIN devices ON devices.id = readings.device_id "
                          "WHERE devices.guid = ?", (guid,)).fetchone()[0]


@pytest.fixture
def seeded(tmp_path):
    assert run("migrate", tmp_path=tmp_path).returncode == 0
    assert run("demo-seed", tmp_path=tmp_path).returncode == 0
    return tmp_path


def test_an_ingest_worker_killed_mid_stream_and_restarted_loses_nothing(seeded):
    """kill -9 leaves committed-but-unacknowledged and delivered-but-uncommitted readings behind;
    the restarted worker's session gets them again and each is stored once. Even with nothing
    stored before the kill, what waits for the session (600 + 300) stays under Mosquitto's
    default queue limit (max_queued_messages 1000), beyond which a broker drops what it holds for
    an absent session; production's generated mosquitto.conf allows 100000."""
    url = require_mosquitto()
    guid, group, client_id = "RCW360A0000001", unique("cli"), unique("ingest-cli-")
    options = ("ingest", "--client-id", client_id, "--share-group", group, "--batch-size", "100", "--topic-prefix", "")
    before = readings_of(seeded, guid)
    worker = start(*options, tmp_path=seeded, MQTT_URL=url)
    publisher = Publisher(url)
    try:
        # A shared subscription drops what is published before its first subscriber: wait for the
        # worker to say it subscribed (its start-up takes seconds on a busy machine).
        wait_until(lambda: "connected (session present" in (seeded / "ingest.log").read_text(), timeout=60,
                   what="the worker's subscription")
        time.sleep(0.5)  # the SUBACK is on its way just after the log line
        # Twenty days back: clear of the seven days of demo history, so none collides with it.
        start_at = datetime.now(UTC).replace(microsecond=0) - timedelta(days=20)
        messages = [(f"devices/{guid}/telemetry",
                     {"ts": (start_at + timedelta(seconds=i)).isoformat(), "t": 4.0 + i % 7 / 10, "h": 55.0})
                    for i in range(1, 901)]
        publisher.send_many(messages[:600])
        wait_until(lambda: readings_of(seeded, guid) > before, timeout=60, what="the first readings")
        worker.kill()
        worker.wait(10)
        publisher.send_many(messages[600:])
        assert readings_of(seeded, guid) < before + 900
        worker = start(*options, tmp_path=seeded, MQTT_URL=url)
        wait_until(lambda: readings_of(seeded, guid) == before + 900, timeout=90, what="900 readings")
        time.sleep(1)
        assert readings_of(seeded, guid) == before + 900
    finally:
        worker.terminate()
        assert worker.wait(30) == 0, "SIGTERM ends the worker cleanly"
        publisher.close()
        forget_session(url, client_id)


def test_simulated_devices_reach_the_database_through_the_broker(seeded):
    url = require_mosquitto()
    group, client_id = unique("cli"), unique("ingest-cli-")
    worker = start("ingest", "--client-id", client_id, "--share-group", group, "--topic-prefix", "", tmp_path=seeded,
                   MQTT_URL=url)
    simulator = None
    try:
        time.sleep(3)
        before = readings_of(seeded, "RCW360A0000001")
        simulator = start("simulate", "--devices", "3", "--interval", "0.2", "--seed", "7", tmp_path=seeded,
                          MQTT_URL=url)
        wait_until(lambda: readings_of(seeded, "RCW360A0000001") >= before + 5, timeout=60,
                   what="simulated readings")
    finally:
        for process in (simulator, worker):
            if process is not None:
                process.terminate()
                assert process.wait(30) == 0
        forget_session(url, client_id)


def test_serve_simulate_stores_the_simulated_readings_through_its_private_mosquitto(seeded):
    """`make run` end to end: `coldchain serve --simulate` in development starts its own Mosquitto
    (production's set-up, under var/mosquitto/), and each simulated device, logged in as itself,
    reaches the SQLite database through it; stopping the server stops the broker."""
    from adapters.messaging.embedded_broker import broker_answers
    from entrypoints.settings import PRIVATE_DEVICE_URL, PRIVATE_INGEST_URL
    from tests.support.mosquitto import free_port, require_mosquitto_binary

    require_mosquitto_binary()
    ports = [int(url.rsplit(":", 1)[1]) for url in (PRIVATE_DEVICE_URL, PRIVATE_INGEST_URL)]
    if any(broker_answers("127.0.0.1", port) for port in ports):
        pytest.skip("a console's private broker already runs on this machine (make run)")

    def recent() -> int:
        since = (datetime.now(UTC) - timedelta(minutes=5)).strftime("%Y-%m-%d %H:%M:%S")
        with closing(sqlite3.connect(seeded / "var" / "coldchain.db", timeout=10)) as db:
            return db.execute("SELECT count(*) FROM readings WHERE ts > ?", (since,)).fetchone()[0]

    before = recent()
    server = start("serve", "--port", str(free_port()), "--simulate", tmp_path=seeded, MQTT_URL="",
                   MQTT_DEVICE_URL="", MQTT_EMBEDDED="1", PAYMENT_SANDBOX_URL=f"http://127.0.0.1:{free_port()}")
    try:
        # The simulator publishes every 10 s: two rounds of its devices.
        wait_until(lambda: recent() >= before + 10, timeout=90, what="simulated readings")
        log = (seeded / "serve.log").read_text()
        assert "private Mosquitto" in log and "in-process broker" not in log
        pid = int((seeded / "var" / "mosquitto" / "mosquitto.pid").read_text())
    finally:
        server.terminate()
        assert server.wait(30) == 0
    assert not Path(f"/proc/{pid}").exists(), "the private broker outlived the server"


@pytest.mark.parametrize("command", ["serve", "migrate", "demo-seed", "ingest", "simulate", "jobs", "jobs worker",
                                     "jobs beat"])
def test_every_command_has_help(tmp_path, command):
    result = run(*command.split(), "--help", tmp_path=tmp_path)
    assert result.returncode == 0 and "Usage:" in result.stdout


def test_a_job_run_by_hand_is_listed_with_its_outcome(tmp_path):
    assert run("migrate", tmp_path=tmp_path).returncode == 0
    assert run("jobs", tmp_path=tmp_path).stdout.strip() == "no job has run yet"
    ran = run("jobs", "run", "send_expiry_reminders", tmp_path=tmp_path)
    assert ran.returncode == 0 and ran.stdout.strip() == "reminded the owners of 0 device(s)"
    header, row = run("jobs", tmp_path=tmp_path).stdout.splitlines()
    assert header.split() == ["job", "started", "finished", "outcome", "detail"]
    assert row.split()[0] == "send_expiry_reminders" and "succeeded reminded the owners of 0 device(s)" in row
    unknown = run("jobs", "run", "mine_bitcoin", tmp_path=tmp_path)
    assert unknown.returncode == 2 and "send_expiry_reminders" in unknown.stderr


def test_the_development_secret_key_is_generated_once_and_kept_private(tmp_path):
    run("migrate", tmp_path=tmp_path)
    key_file = tmp_path / "var" / "secret_key"
    key = key_file.read_text()
    run("migrate", tmp_path=tmp_path)
    assert key_file.read_text() == key and len(key) >= 32
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"


def test_an_idle_keep_alive_connection_outlives_the_clients_own_idle_timeout(tmp_path):
    """Node's fetch reuses a connection idle for up to 4 s, a proxy for 60 s: a server that closed it
    sooner (gunicorn's default, 2 s) lost the request written on it ("other side closed")."""
    import http.client

    from tests.support.mosquitto import free_port

    assert run("migrate", tmp_path=tmp_path).returncode == 0
    port = free_port()
    server = start("serve", "--port", str(port), tmp_path=tmp_path, MQTT_EMBEDDED="0",
                   PAYMENT_SANDBOX_URL=f"http://127.0.0.1:{free_port()}")
    try:
        wait_until(lambda: _answers(port), timeout=60, what="coldchain serve")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for pause in (0, 5):
            time.sleep(pause)
            connection.request("GET", "/api/base/config")
            response = connection.getresponse()
            response.read()
            assert response.status == 200 and not response.will_close
        connection.close()
    finally:
        server.terminate()
        server.wait(30)


def _answers(port: int) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/base/config", timeout=2):
            return True
    except OSError:
        return False
