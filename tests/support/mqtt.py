"""MQTT helpers for tests: the machine's Mosquitto (skip or fail like PostgreSQL does), a
publisher, and waiting for a condition."""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Callable, Iterable

import paho.mqtt.client as mqtt
import pytest

from adapters.messaging.embedded_broker import broker_answers

MOSQUITTO = ("127.0.0.1", int(os.environ.get("TEST_MQTT_PORT", "1883")))


def require_mosquitto() -> str:
    if not broker_answers(*MOSQUITTO):
        message = f"Mosquitto is not answering on {MOSQUITTO[0]}:{MOSQUITTO[1]}"
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return f"mqtt://{MOSQUITTO[0]}:{MOSQUITTO[1]}"


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
