"""MQTT helpers for tests: a Mosquitto of the test process's own (skip or fail like PostgreSQL
does), a publisher, and waiting for a condition."""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable

import paho.mqtt.client as mqtt
import pytest

from adapters.messaging.embedded_broker import broker_answers
from tests.support.commands import free_port

MOSQUITTO_BINARY = "/usr/sbin/mosquitto"
_broker_url: str | None = None


def require_mosquitto() -> str:
    """The URL of a Mosquitto only this test process uses, started on a free port the first time.
    The suites run in several processes side by side, and their workers subscribe to the same demo
    devices' topics: on one shared broker each would store the others' readings. TEST_MQTT_PORT
    names a broker already running instead."""
    global _broker_url
    if _broker_url is None:
        if port := os.environ.get("TEST_MQTT_PORT"):
            _broker_url = _answering("127.0.0.1", int(port))
        elif os.access(MOSQUITTO_BINARY, os.X_OK):
            _broker_url = _start_private_broker()
        else:
            _broker_url = _answering("127.0.0.1", 1883, f" and {MOSQUITTO_BINARY} is missing")
    return _broker_url


def _answering(host: str, port: int, why: str = "") -> str:
    if not broker_answers(host, port):
        message = f"Mosquitto is not answering on {host}:{port}{why}"
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return f"mqtt://{host}:{port}"


def _start_private_broker() -> str:
    port = free_port()
    root = tempfile.mkdtemp(prefix="coldchain-test-mqtt-")
    os.chmod(root, 0o755)  # Mosquitto started as root drops to its own user, which reads the file
    conf = os.path.join(root, "mosquitto.conf")
    with open(conf, "w") as out:
        out.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    os.chmod(conf, 0o644)
    process = subprocess.Popen([MOSQUITTO_BINARY, "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    atexit.register(process.terminate)
    deadline = time.monotonic() + 10
    while not broker_answers("127.0.0.1", port):
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"the tests' Mosquitto did not start on port {port}")
        time.sleep(0.05)
    return f"mqtt://127.0.0.1:{port}"


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


class Publisher:
    def __init__(self, url: str, v5: bool = True) -> None:
        host, port = url.removeprefix("mqtt://").split(":")
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=unique("pub-"),
                                  protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311)
        self.client.max_inflight_messages_set(1000)
        self.client.connect(host, int(port))
        self.client.loop_start()

    def send(self, topic: str, payload: bytes | str | dict, qos: int = 1, retain: bool = False) -> None:
        body = json.dumps(payload) if isinstance(payload, dict) else payload
        self.client.publish(topic, body, qos=qos, retain=retain).wait_for_publish(10)

    def send_many(self, messages: Iterable[tuple[str, bytes | str | dict]], qos: int = 1) -> None:
        infos = [self.client.publish(t, json.dumps(p) if isinstance(p, dict) else p, qos=qos) for t, p in messages]
        for info in infos:
            info.wait_for_publish(30)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def wait_until(condition: Callable[[], bool], timeout: float = 20.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def forget_session(url: str, client_id: str) -> None:
    """End a persistent session the broker keeps for a test's worker."""
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    host, port = url.removeprefix("mqtt://").split(":")
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = 0
    try:
        client.connect(host, int(port), clean_start=True, properties=properties)
        client.disconnect()
    except OSError:
        pass
