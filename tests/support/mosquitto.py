"""The production broker for tests: the machine's Mosquitto binary started on free ports with the
files `coldchain mqtt-config` writes from the app's database, devices that log in with the
credentials the API issued them, and the console's hold on the running broker's logins."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from tests.support.mqtt import MOSQUITTO_BINARY as MOSQUITTO
from tests.support.mqtt import unique

COLDCHAIN = str(Path(sys.executable).with_name("coldchain"))
INGEST_PASSWORD = "ingest-password-for-tests-0123"
ADMIN_PASSWORD = "broker-admin-password-for-tests-0123"


def require_mosquitto_binary() -> None:
    if not os.access(MOSQUITTO, os.X_OK):
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"{MOSQUITTO} is missing")
        pytest.skip(f"{MOSQUITTO} is missing")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def console_environment(database_url: str, var_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of a `coldchain` command run against the test's database."""
    environment = {k: v for k, v in os.environ.items() if k not in ("APP_ENV", "EDITION", "MQTT_URL")}
    environment.update({"DATABASE_URL": database_url, "VAR_DIR": str(var_dir), "APP_ENV": "test",
                        "MQTT_INGEST_PASSWORD": INGEST_PASSWORD, "MQTT_ADMIN_PASSWORD": ADMIN_PASSWORD,
                        "SECRET_KEY": "s" * 40, **extra})
    return environment


class GeneratedBroker:
    """Mosquitto on free ports, configured by `coldchain mqtt-config` from the app's database."""

    def __init__(self, database_url: str) -> None:
        # Mosquitto started as root drops to its own user, which must reach these files.
        self.root = Path(tempfile.mkdtemp(prefix="coldchain-mosquitto-"))
        self.root.chmod(0o755)
        self.data = self.root / "data"
        self.data.mkdir()
        self.data.chmod(0o777)
        self.device_port, self.ingest_port = free_port(), free_port()
        self.database_url = database_url
        self.process: subprocess.Popen | None = None

    @property
    def ingest_url(self) -> str:
        return f"mqtt://127.0.0.1:{self.ingest_port}"

    def configure(self) -> subprocess.CompletedProcess:
        result = subprocess.run(
            [COLDCHAIN, "mqtt-config", "--out", str(self.root / "conf"), "--port", str(self.device_port),
             "--bind", "127.0.0.1", "--ingest-port", str(self.ingest_port), "--ingest-bind", "127.0.0.1",
             "--persistence-dir", str(self.data)],
            capture_output=True, text=True, env=console_environment(self.database_url, self.root / "var"), timeout=120)
        assert result.returncode == 0, result.stderr
        # The plugin rewrites its file on every change, as the user Mosquitto drops root for.
        (self.root / "conf").chmod(0o777)
        (self.root / "conf" / "dynamic-security.json").chmod(0o666)
        return result

    def access(self):
        """The console's hold on this broker's logins, as the container builds it in production."""
        from adapters.mosquitto.dynsec import DynsecBrokerAccess

        return DynsecBrokerAccess(self.ingest_url, ADMIN_PASSWORD)

    def start(self) -> None:
        # A file, not a pipe nobody reads: a long attack's connection log would fill the pipe and stall it.
        with (self.root / "mosquitto.log").open("w") as log:
            self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.root / "conf" / "mosquitto.conf")],
                                            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        for port in (self.device_port, self.ingest_port):
            while True:
                if self.process.poll() is not None:
                    raise AssertionError(f"mosquitto stopped: {(self.root / 'mosquitto.log').read_text()}")
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise AssertionError(f"mosquitto did not start listening on {port}") from None
                    time.sleep(0.05)

    def halt(self) -> None:
        """Stop the broker and keep its files, to start it again."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.root, ignore_errors=True)


class Client:
    """A broker client with a user name and password (a device, or an ingest account)."""

    def __init__(self, port: int, username: str, password: str, client_id: str | None = None,
                 protocol: int = mqtt.MQTTv5, clean_start: bool = True) -> None:
        self.username = username
        self.connected = threading.Event()
        self.reason = None
        self.received: list[tuple[str, bytes]] = []
        self.disconnections = 0  # paho reconnects by itself: this says whether the broker ever cut it off
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or unique("test-"),
                                  protocol=protocol)
        self.client.max_inflight_messages_set(1000)
        self.client.username_pw_set(username, password)
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda _c, _u, message: self.received.append((message.topic, message.payload))
        self.client.on_disconnect = self._on_disconnect
        if protocol == mqtt.MQTTv5:
            self.client.connect("127.0.0.1", port, clean_start=clean_start)
        else:
            self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _on_connect(self, _client, _userdata, _flags, reason_code, _properties) -> None:
        self.reason = reason_code
        self.connected.set()

    def _on_disconnect(self, *_args) -> None:
        self.disconnections += 1

    def accepted(self, timeout: float = 10) -> bool:
        assert self.connected.wait(timeout), "no CONNACK"
        return not self.reason.is_failure

    def subscribe(self, topic: str) -> list:
        """The reason codes of the SUBACK."""
        granted: list = []
        done = threading.Event()

        def on_subscribe(_client, _userdata, _mid, reason_codes, _properties) -> None:
            granted.extend(reason_codes)
            done.set()

        self.client.on_subscribe = on_subscribe
        self.client.subscribe(topic, qos=1)
        assert done.wait(10), f"no SUBACK for {topic}"
        return granted

    def publish(self, topic: str, payload: str | bytes):
        return self.client.publish(topic, payload, qos=1)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def add_device(api, guid: str, owner: str = "alice") -> str:
    """A device added through the API; returns its broker password (shown once)."""
    token = api.token(owner)
    types = api.call("GET", "/device/DeviceType/selectTypeList", token=token).data
    reply = api.call("POST", "/device/Device/insert", token=token, json={
        "deviceGuid": guid, "deviceName": f"Logger {guid}", "typeId": types[0]["typeId"]})
    assert reply.status == 200, reply.body
    return reply.data["credentials"]["password"]
