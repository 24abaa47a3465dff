"""`coldchain mqtt-config` against a real Mosquitto: the machine's broker binary started on a free
port with the generated passwd, acl and mosquitto.conf. A device publishes on its own topics
only, a wrong password cannot connect, and a rotated password replaces the old one once the
broker reloads."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from sqlalchemy import select

from adapters.persistence.models import DeviceRow
from tests.support.mqtt import unique, wait_until

MOSQUITTO = "/usr/sbin/mosquitto"
COLDCHAIN = str(Path(sys.executable).with_name("coldchain"))
INGEST_PASSWORD = "ingest-password-for-tests-0123"

pytestmark = pytest.mark.usefixtures("demo")


def _require_mosquitto() -> None:
    if not os.access(MOSQUITTO, os.X_OK):
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"{MOSQUITTO} is missing")
        pytest.skip(f"{MOSQUITTO} is missing")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Broker:
    """Mosquitto on a free port, configured by `coldchain mqtt-config` from the app's database."""

    def __init__(self, database_url: str) -> None:
        # Mosquitto started as root drops to its own user, which must reach these files.
        self.root = Path(tempfile.mkdtemp(prefix="coldchain-mosquitto-"))
        self.root.chmod(0o755)
        self.data = self.root / "data"
        self.data.mkdir()
        self.data.chmod(0o777)
        self.port = _free_port()
        self.database_url = database_url
        self.process: subprocess.Popen | None = None

    def configure(self) -> subprocess.CompletedProcess:
        environment = {k: v for k, v in os.environ.items() if k not in ("APP_ENV", "EDITION")}
        environment.update({"DATABASE_URL": self.database_url, "VAR_DIR": str(self.root / "var"),
                            "MQTT_INGEST_PASSWORD": INGEST_PASSWORD, "SECRET_KEY": "s" * 40, "APP_ENV": "test"})
        result = subprocess.run([COLDCHAIN, "mqtt-config", "--out", str(self.root / "conf"), "--port",
                                 str(self.port), "--bind", "127.0.0.1", "--persistence-dir", str(self.data)],
                                capture_output=True, text=True, env=environment, timeout=120)
        assert result.returncode == 0, result.stderr
        return result

    def start(self) -> None:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.root / "conf" / "mosquitto.conf")],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"mosquitto stopped: {self.process.stdout.read()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("mosquitto did not start listening")

    def reload(self) -> None:
        self.process.send_signal(signal.SIGHUP)
        time.sleep(0.5)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def broker(app):
    _require_mosquitto()
    running = Broker(app.container.settings().database_url)
    yield running
    running.stop()


class Client:
    def __init__(self, port: int, username: str, password: str) -> None:
        self.connected = threading.Event()
        self.reason = None
        self.received: list[tuple[str, bytes]] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=unique("test-"),
                                  protocol=mqtt.MQTTv5)
        self.client.username_pw_set(username, password)
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda _c, _u, message: self.received.append((message.topic, message.payload))
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _on_connect(self, _client, _userdata, _flags, reason_code, _properties) -> None:
        self.reason = reason_code
        self.connected.set()

    def accepted(self, timeout: float = 10) -> bool:
        assert self.connected.wait(timeout), "no CONNACK"
        return not self.reason.is_failure

    def subscribe(self, topic: str) -> None:
        granted = threading.Event()
        self.client.on_subscribe = lambda *_args: granted.set()
        self.client.subscribe(topic, qos=1)
        assert granted.wait(10)

    def publish(self, topic: str, payload: str):
        return self.client.publish(topic, payload, qos=1)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def add_device(api, guid: str) -> str:
    token = api.token("alice")
    types = api.call("GET", "/device/DeviceType/selectTypeList", token=token).data
    reply = api.call("POST", "/device/Device/insert", token=token, json={
        "deviceGuid": guid, "deviceName": f"Logger {guid}", "typeId": types[0]["typeId"]})
    assert reply.status == 200, reply.body
    return reply.data["credentials"]["password"]


def test_a_device_publishes_only_on_its_own_topics_and_a_wrong_password_is_refused(api, broker):
    password = add_device(api, "MQTTDEVICE0001")
    assert "9 device logins and the ingest login" in broker.configure().stdout
    broker.start()
    ingest = Client(broker.port, "ingest", INGEST_PASSWORD)
    device = Client(broker.port, "MQTTDEVICE0001", password)
    try:
        assert ingest.accepted() and device.accepted()
        ingest.subscribe("$share/ingest/devices/+/telemetry")
        ingest.subscribe("devices/+/status")
        device.publish("devices/MQTTDEVICE0001/telemetry", '{"t": 4.5}').wait_for_publish(10)
        device.publish("devices/RCW360A0000001/telemetry", '{"t": 99}').wait_for_publish(10)  # another's
        device.publish("devices/RCW360A0000001/status", "offline").wait_for_publish(10)
        device.publish("devices/MQTTDEVICE0001/status", "online").wait_for_publish(10)
        # Messages of one publisher arrive in order: once the last one is in, the refused ones
        # would have been too.
        wait_until(lambda: ("devices/MQTTDEVICE0001/status", b"online") in ingest.received, 10, "own status")
        assert ingest.received == [("devices/MQTTDEVICE0001/telemetry", b'{"t": 4.5}'),
                                   ("devices/MQTTDEVICE0001/status", b"online")]
        for password_tried in ("wrong-password", ""):
            intruder = Client(broker.port, "MQTTDEVICE0001", password_tried)
            assert not intruder.accepted()
            intruder.close()
        anonymous = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        assert anonymous.connect("127.0.0.1", broker.port) == 0  # TCP; the CONNACK refuses it
        refused = threading.Event()
        anonymous.on_connect = lambda *args: refused.set() if args[3].is_failure else None
        anonymous.loop_start()
        assert refused.wait(10)
        anonymous.loop_stop()
    finally:
        ingest.close()
        device.close()


def test_a_device_cannot_read_another_device_s_telemetry(api, broker):
    spy_password, other_password = add_device(api, "MQTTDEVICE0002"), add_device(api, "MQTTDEVICE0004")
    broker.configure()
    broker.start()
    spy = Client(broker.port, "MQTTDEVICE0002", spy_password)
    other = Client(broker.port, "MQTTDEVICE0004", other_password)
    ingest = Client(broker.port, "ingest", INGEST_PASSWORD)
    try:
        assert spy.accepted() and other.accepted() and ingest.accepted()
        spy.subscribe("devices/+/telemetry")  # granted, but the acl filters what it is sent
        ingest.subscribe("$share/ingest/devices/+/telemetry")
        other.publish("devices/MQTTDEVICE0004/telemetry", '{"t": 1}').wait_for_publish(10)
        wait_until(lambda: len(ingest.received) == 1, 10, "the other device's reading at ingest")
        time.sleep(0.3)
        assert spy.received == []
    finally:
        for client in (spy, other, ingest):
            client.close()


def test_a_rotated_password_replaces_the_old_one_once_the_broker_reloads(api, app, broker):
    old = add_device(api, "MQTTDEVICE0003")
    broker.configure()
    broker.start()
    assert Client(broker.port, "MQTTDEVICE0003", old).accepted()
    with app.container.session_factory()() as session:
        device = session.scalar(select(DeviceRow.id).where(DeviceRow.guid == "MQTTDEVICE0003"))
    new = api.call("POST", "/device/Device/credentials/rotate", token=api.token("alice"),
                   query={"deviceId": device}).data["password"]
    broker.configure()
    broker.reload()
    assert not Client(broker.port, "MQTTDEVICE0003", old).accepted()
    assert Client(broker.port, "MQTTDEVICE0003", new).accepted()


def test_the_command_says_what_is_missing_in_production(tmp_path):
    environment = {k: v for k, v in os.environ.items() if k not in ("MQTT_INGEST_PASSWORD", "DATABASE_URL")}
    environment.update({"APP_ENV": "production", "SECRET_KEY": "s" * 40, "VAR_DIR": str(tmp_path)})
    result = subprocess.run([COLDCHAIN, "mqtt-config", "--out", str(tmp_path / "conf")], capture_output=True,
                            text=True, env=environment, timeout=60)
    assert result.returncode == 2 and "MQTT_INGEST_PASSWORD" in result.stderr
    assert not (tmp_path / "conf").exists()
