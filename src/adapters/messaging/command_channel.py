"""CommandChannel over MQTT: the console publishes a command on devices/{guid}/commands (QoS 1)
with the ingest workers' login, which may send on every device's command topic and nowhere else a
device reads. One short connection per command, as with the broker's logins (dynsec.py): a person
changes a device's parameters now and then, and nothing is held open between two changes.

The broker has taken the message once its PUBACK arrives; with the device offline it keeps the
message in the device's session (a logger in the field connects with a persistent one) or drops
it, and the console shows the command as not answered after its time-out either way."""

from __future__ import annotations

import logging
import threading

from adapters.messaging.short_connection import BrokerLogin, ConnectionFailed, short_connection

log = logging.getLogger("coldchain.commands")


class MqttCommandChannel:
    def __init__(self, url: str, username: str | None, password: str | None, topic_prefix: str = "",
                 timeout_s: float = 5.0) -> None:
        self._login = BrokerLogin.of(url, username, password)
        self._prefix, self._timeout = topic_prefix, timeout_s

    def send(self, guid: str, message: str) -> bool:
        refused = threading.Event()

        def on_publish(_c, _u, _mid, reason_code, _props) -> None:
            if reason_code.is_failure:
                refused.set()

        try:
            with short_connection(self._login, "coldchain-commands", self._timeout) as client:
                client.on_publish = on_publish
                info = client.publish(f"{self._prefix}devices/{guid}/commands", message, qos=1)
                info.wait_for_publish(self._timeout)
                # MQTT v5: a PUBACK with a failure reason (not authorised) still completes the publish.
                if not info.is_published() or refused.is_set():
                    log.warning("command for %s not taken by the broker", guid)
                    return False
                return True
        except ConnectionFailed as error:
            log.warning("command for %s not sent: %s", guid, error)
        except (RuntimeError, ValueError) as error:
            log.warning("command for %s not sent: %s", guid, error)
        return False
