"""An MQTT broker inside the process, for `make run` and tests without Mosquitto (amqtt).

It has no shared subscriptions, so it suits exactly one in-process ingest worker; production runs
Mosquitto (or any MQTT v5 cluster) and as many `coldchain ingest` workers as the load needs.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading

log = logging.getLogger("coldchain.broker")


def broker_answers(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


class EmbeddedBroker:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broker = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def start(self, timeout: float = 10.0) -> None:
        for name in ("amqtt", "transitions", "passlib"):
            logging.getLogger(name).setLevel(logging.WARNING)
        threading.Thread(target=self._serve, name="embedded-mqtt-broker", daemon=True).start()
        if not self._ready.wait(timeout):
            raise RuntimeError(f"the embedded MQTT broker did not start on {self.host}:{self.port}")
        if self._error is not None:
            raise RuntimeError(f"the embedded MQTT broker could not start: {self._error}") from self._error
        log.info("embedded MQTT broker listening on %s:%s", self.host, self.port)

    def _serve(self) -> None:
        from amqtt.broker import Broker

        self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self._loop)
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
        }
        try:
            self._broker = broker = Broker(config, loop=self._loop)
            self._loop.run_until_complete(broker.start())
        except BaseException as error:  # reported to start()
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        self._loop.run_forever()

    def stop(self) -> None:
        if self._loop is None or self._broker is None:
            return
        future = asyncio.run_coroutine_threadsafe(self._broker.shutdown(), self._loop)
        try:
            future.result(timeout=10)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
