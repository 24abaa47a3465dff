"""CommandChannel over MQTT: the console publishes a command on devices/{guid}/commands (QoS 1)
with the ingest workers' login, which may send on every device's command topic and nowhere else a
device reads. One short connection per command, as with the broker's logins (dynsec.py): a person
changes a device's parameters now and then, and nothing is held open between two changes.

The broker has taken the message once its PUBACK arrives; with the device offline it keeps the
message in the device's session (a logger in the field connects with a persistent one) or drops
it, and the console shows the command as not answered after its time-out either way."""

from __future__ import annotations

import logging
import os
import threading
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt

log = logging.getLogger("coldchain.commands")


class MqttCommandChannel:
    def __init__(self, url: str, username: str | None, password: str | None, topic_prefix: str = "",
                 timeout_s: float = 5.0) -> None:
        parts = urlsplit(url)
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 1883
        self._tls = parts.scheme == "mqtts"
        self._username, self._password = username, password
        self._prefix, self._timeout = topic_prefix, timeout_s

    def send(self, guid: str, message: str) -> bool:
        topic = f"{self._prefix}devices/{guid}/commands"
        connected, state = threading.Event(), {}
        # A client id no device can have (a GUID is letters and digits only).
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"coldchain-commands-{os.urandom(6).hex()}",
                             protocol=mqtt.MQTTv5)
        if self._username:
            client.username_pw_set(self._username, self._password)
        if self._tls:
            client.tls_set()

        def on_connect(_c, _u, _flags, reason_code, _props) -> None:
            state["connack"] = reason_code
            connected.set()

        def on_publish(_c, _u, _mid, reason_code, _props) -> None:
            if reason_code.is_failure:
                state["refused"] = reason_code

        client.on_connect, client.on_publish = on_connect, on_publish
        try:
            client.connect(self._host, self._port, keepalive=30)
        except OSError as error:
            log.warning("command for %s not sent: the broker at %s:%s is unreachable (%s)", guid, self._host,
                        self._port, error)
            return False
        client.loop_start()
        try:
            if not connected.wait(self._timeout) or state["connack"].is_failure:
                log.warning("command for %s not sent: the broker refused or did not answer (%s)", guid,
                            state.get("connack"))
                return False
            info = client.publish(topic, message, qos=1)
            info.wait_for_publish(self._timeout)
            # MQTT v5: a PUBACK with a failure reason (not authorised) still completes the publish.
            if not info.is_published() or state.get("refused"):
                log.warning("command for %s not taken by the broker", guid)
                return False
            return True
        except (RuntimeError, ValueError) as error:
            log.warning("command for %s not sent: %s", guid, error)
            return False
        finally:
            client.disconnect()
            client.loop_stop()
