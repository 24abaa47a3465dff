"""One short MQTT v5 connection with a login, for the console's rare messages to the broker (a
device's login changed over the dynamic-security plugin, a command sent to a device): connect,
wait for the CONNACK, do the one thing, disconnect. Nothing is held open between two of them."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt


class ConnectionFailed(Exception):
    """The broker was unreachable, did not answer, or refused the login; says which."""


@dataclass(frozen=True)
class BrokerLogin:
    host: str
    port: int
    tls: bool
    username: str | None = None
    password: str | None = field(default=None, repr=False)

    @classmethod
    def of(cls, url: str, username: str | None, password: str | None) -> BrokerLogin:
        parts = urlsplit(url)
        return cls(parts.hostname or "127.0.0.1", parts.port or 1883, parts.scheme == "mqtts", username, password)


@contextmanager
def short_connection(login: BrokerLogin, client_prefix: str, timeout_s: float) -> Iterator[mqtt.Client]:
    """A connected client, its network loop running; disconnected on leaving. `client_prefix`
    starts a client id no device can have (a GUID is letters and digits only)."""
    connected, state = threading.Event(), {}
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{client_prefix}-{os.urandom(6).hex()}",
                         protocol=mqtt.MQTTv5)
    if login.username:
        client.username_pw_set(login.username, login.password)
    if login.tls:
        client.tls_set()

    def on_connect(_c, _u, _flags, reason_code, _props) -> None:
        state["connack"] = reason_code
        connected.set()

    client.on_connect = on_connect
    where = f"{login.host}:{login.port}"
    try:
        client.connect(login.host, login.port, keepalive=30)
    except OSError as error:
        raise ConnectionFailed(f"{where}: {error}") from None
    client.loop_start()
    try:
        if not connected.wait(timeout_s):
            raise ConnectionFailed(f"{where} did not answer the connection")
        if state["connack"].is_failure:
            raise ConnectionFailed(f"{where} refused {login.username}: {state['connack']}")
        yield client
    finally:
        client.disconnect()
        client.loop_stop()
