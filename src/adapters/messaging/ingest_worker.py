"""The MQTT ingest worker (paho-mqtt, MQTT v5, QoS 1).

At-least-once without loss: messages are acknowledged only after the batch holding them has
committed (paho's manual acknowledgement). A crash or a lost database leaves them unacknowledged,
and the broker delivers them again to the worker's persistent session; the readings table's
(device, ts) key turns those repeats into no-ops.

Why MQTT v5: the broker sends a client at most its in-flight window of unacknowledged QoS 1
messages. Over MQTT 3.1.1 Mosquitto's window is 20, which, with acknowledgements held until a
batch commits, capped ingest at 166 msg/s here; a v5 client sets its own window (Receive
Maximum), so a batch of thousands can be in flight.

Several workers split the load through a shared subscription ($share/<group>/...).

What a device sends cannot stop the worker: a message whose handling raises is refused like a
malformed one (counted, logged, acknowledged). A store that fails because the database is away is
retried with nothing acknowledged; one that fails otherwise would fail the same way forever, so the
flusher stops, still acknowledging nothing, and `on_failure` tells the process to exit for its
supervisor to restart it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from adapters.messaging.draining_client import DrainingClient
from core.devices.device_commands import CommandAnswer, parse_answer
from core.telemetry.directory import DeviceDirectory
from core.telemetry.model import Reading
from core.telemetry.parsing import RawReading, Reason, guid_of, parse_status, parse_telemetry
from core.telemetry.use_cases import StoreOutcome

log = logging.getLogger("coldchain.ingest")
TELEMETRY, STATUS, ACKS = "devices/+/telemetry", "devices/+/status", "devices/+/acks"


@dataclass(frozen=True)
class IngestConfig:
    url: str
    client_id: str
    # None: a plain subscription, for brokers without shared subscriptions (the embedded one)
    share_group: str | None = "ingest"
    username: str | None = None
    password: str | None = None
    batch_size: int = 2000
    max_latency_s: float = 0.2
    receive_maximum: int = 10_000
    session_expiry_s: int = 86_400
    stats_every_s: float = 10.0
    # The embedded broker (amqtt) speaks only MQTT 3.1.1, and has no in-flight window to open.
    mqtt_v5: bool = True
    # Retiring for good: the session ends with the connection, and the worker unsubscribes before
    # its last flush so the share the broker held for it is stored, not left in a dead session.
    retire: bool = False
    # Where the devices' topics sit on this broker: the mount point of the devices' listener
    # (`fleet/` on the Mosquitto of `coldchain mqtt-config`), "" on a broker without one.
    topic_prefix: str = ""

    def topics(self) -> list[str]:
        share = f"$share/{self.share_group}/" if self.share_group else ""
        return [share + self.topic_prefix + topic for topic in (TELEMETRY, STATUS, ACKS)]


@dataclass
class IngestStats:
    received: int = 0
    handled: int = 0  # acknowledged after their batch committed
    stored: int = 0
    duplicates: int = 0
    statuses: int = 0
    answers: int = 0  # devices' answers to commands that settled one
    flushes: int = 0
    store_failures: int = 0
    rejected: Counter[str] = field(default_factory=Counter)

    def line(self, seconds: float, stored_before: int) -> str:
        rate = (self.stored - stored_before) / seconds if seconds else 0.0
        rejected = ", ".join(f"{k} {v}" for k, v in sorted(self.rejected.items())) or "none"
        return (f"received {self.received}, stored {self.stored} ({rate:.0f}/s), duplicates {self.duplicates}, "
                f"statuses {self.statuses}, rejected: {rejected}, store failures {self.store_failures}")


Message = tuple[str, bytes, int, int]  # topic, payload, mid, qos


def unreachable(error: BaseException) -> bool:
    """A failure that may pass by itself: the store could not reach what it writes to."""
    return isinstance(error, OSError)


class IngestWorker:
    def __init__(self, config: IngestConfig, *, store: Callable[[list[Reading]], StoreOutcome],
                 record_status: Callable[[dict[int, bool]], None], directory: DeviceDirectory,
                 now: Callable[[], datetime],
                 transient: Callable[[BaseException], bool] = unreachable,
                 on_failure: Callable[[BaseException], object] = lambda error: None,
                 record_answers: Callable[[list[CommandAnswer]], int] = lambda answers: 0) -> None:
        self.config, self.stats = config, IngestStats()
        self._store, self._record_status, self._directory, self._now = store, record_status, directory, now
        self._record_answers = record_answers
        self._transient, self._on_failure = transient, on_failure
        self.failure: BaseException | None = None  # why the flusher stopped, when it was not asked to
        self._pending: deque[Message] = deque()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._connected = threading.Event()
        self._unsubscribed = threading.Event()
        self._flusher: threading.Thread | None = None
        self._logged_rejections = 0
        self._client = self._make_client()

    # --- connection ----------------------------------------------------------------------------

    def _make_client(self) -> mqtt.Client:
        if self.config.mqtt_v5:
            client = DrainingClient(mqtt.CallbackAPIVersion.VERSION2, client_id=self.config.client_id,
                                    protocol=mqtt.MQTTv5, manual_ack=True)
        else:
            client = DrainingClient(mqtt.CallbackAPIVersion.VERSION2, client_id=self.config.client_id,
                                    protocol=mqtt.MQTTv311, clean_session=False, manual_ack=True)
        if self.config.username:
            client.username_pw_set(self.config.username, self.config.password)
        if urlsplit(self.config.url).scheme == "mqtts":
            client.tls_set()
        client.reconnect_delay_set(min_delay=1, max_delay=30)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_subscribe = self._on_subscribe
        client.on_unsubscribe = lambda *_: self._unsubscribed.set()
        client.on_message = self._on_message
        return client

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.error("broker refused the ingest worker: %s", reason_code)
            return
        client.subscribe([(topic, 1) for topic in self.config.topics()])
        log.info("ingest worker %s connected (session present: %s)", self.config.client_id, flags.session_present)

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties) -> None:
        failed = [code for code in reason_codes if code.is_failure]
        if failed:
            log.error("broker refused the ingest subscriptions: %s", failed)
            return
        self._connected.set()  # ready only once the broker has confirmed the subscriptions

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self._connected.clear()
        if not self._stopping.is_set():
            log.warning("ingest worker lost the broker (%s); reconnecting", reason_code)

    def _on_message(self, client, userdata, message: mqtt.MQTTMessage) -> None:
        # The network thread only queues: decoding and storing happen in the flusher thread.
        self._pending.append((message.topic, message.payload, message.mid, message.qos))
        if len(self._pending) >= self.config.batch_size:
            self._wake.set()

    def start(self) -> None:
        parts = urlsplit(self.config.url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 1883
        if self.config.mqtt_v5:
            properties = Properties(PacketTypes.CONNECT)
            properties.SessionExpiryInterval = 0 if self.config.retire else self.config.session_expiry_s
            properties.ReceiveMaximum = self.config.receive_maximum
            self._client.connect_async(host, port, keepalive=30, clean_start=False, properties=properties)
        else:
            self._client.connect_async(host, port, keepalive=30)
        self._client.loop_start()
        self._flusher = threading.Thread(target=self._run, name=f"ingest-flush-{self.config.client_id}",
                                         daemon=True)
        self._flusher.start()

    def wait_connected(self, timeout: float) -> bool:
        """Connected and subscribed: from now on nothing published is missed."""
        return self._connected.wait(timeout)

    def stop(self, timeout: float = 10.0) -> None:
        """Store what has arrived, acknowledge it, and leave the session for the next start (or,
        retiring, end it once nothing more can arrive: the broker answers an UNSUBSCRIBE after
        every message it sent before, so all of them are queued here by then)."""
        if self.config.retire and self._connected.is_set():
            self._client.unsubscribe(self.config.topics())
            if not self._unsubscribed.wait(timeout):
                log.warning("the broker did not confirm the unsubscription of retiring worker %s",
                            self.config.client_id)
        self._stopping.set()
        self._wake.set()
        if self._flusher is not None:
            self._flusher.join(timeout)
        self._client.disconnect()
        self._client.loop_stop()

    # --- batching --------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._flush_until_stopped()
        except BaseException as error:  # a store failure retrying cannot get past, or a bug
            self.failure = error
            log.critical("ingest worker %s stopped storing; what it holds stays unacknowledged for its next "
                         "start", self.config.client_id, exc_info=error)
            self._on_failure(error)

    def _flush_until_stopped(self) -> None:
        stats_at, stored_at_last_line = time.monotonic(), 0
        while True:
            self._wake.wait(self.config.max_latency_s)
            self._wake.clear()
            while self._pending:
                batch = [self._pending.popleft() for _ in range(min(len(self._pending), self.config.batch_size))]
                if not self._process(batch):
                    break  # stopping while the database is away: leave them unacknowledged
            if self._stopping.is_set():
                return
            now = time.monotonic()
            if now - stats_at >= self.config.stats_every_s:
                if self.stats.received:
                    line = self.stats.line(now - stats_at, stored_at_last_line)
                    log.info("ingest %s: %s", self.config.client_id, line)
                stats_at, stored_at_last_line, self._logged_rejections = now, self.stats.stored, 0

    def _parse(self, batch: list[Message]) -> tuple[list[RawReading], dict[str, bool], list[CommandAnswer]]:
        now, mount = self._now(), len(self.config.topic_prefix)
        raw: list[RawReading] = []
        statuses: dict[str, bool] = {}
        answers: list[CommandAnswer] = []
        for topic, payload, _mid, _qos in batch:
            topic = topic[mount:]
            try:
                if topic.endswith("/acks"):
                    guid = guid_of(topic, "acks")
                    answer = parse_answer(guid, payload) if guid is not None else None
                    if answer is None:
                        self._reject(Reason.MALFORMED, topic)
                    else:
                        answers.append(answer)
                    continue
                if topic.endswith("/status"):
                    status = parse_status(topic, payload)
                    if status is None:
                        self._reject(Reason.BAD_TOPIC, topic)
                    else:
                        statuses[status[0]] = status[1]
                    continue
                parsed = parse_telemetry(topic, payload, now)
            except Exception:
                # Whatever one message does, the others go on: it is refused like a malformed one.
                self._reject(Reason.UNPROCESSABLE, topic, exc_info=True)
                continue
            raw.extend(parsed.readings)
            for reason, count in parsed.rejected.items():
                self._reject(reason, topic, count)
            for reason, count in parsed.dropped.items():
                self._reject(reason, topic, count, kept=True)
        return raw, statuses, answers

    def _resolve(self, raw: list[RawReading], statuses: dict[str, bool]
                 ) -> tuple[list[Reading], dict[int, bool], list[str]]:
        """Readings and states of our devices, and the GUIDs of readings from unknown ones."""
        ids = self._directory.resolve({r.guid for r in raw} | statuses.keys())
        readings, unknown = [], []
        for r in raw:
            device_id = ids.get(r.guid)
            if device_id is None:
                unknown.append(r.guid)
            else:
                readings.append(Reading(device_id, r.ts, r.temperature, r.humidity, r.seq, r.position, r.kwh))
        return readings, {ids[guid]: online for guid, online in statuses.items() if guid in ids}, unknown

    def _reject(self, reason: str, topic: str, count: int = 1, exc_info: bool = False, kept: bool = False) -> None:
        """`kept`: a field was dropped from readings that were stored all the same."""
        self.stats.rejected[reason] += count
        if self._logged_rejections < 20:  # the stats line carries the totals
            self._logged_rejections += 1
            log.warning("%s %s reading(s) on %s: %s", "kept without a bad field" if kept else "refused", count, topic,
                        reason, exc_info=exc_info)

    def _process(self, batch: list[Message]) -> bool:
        self.stats.received += len(batch)
        raw, statuses, answers = self._parse(batch)
        delay = 0.5
        while True:
            try:
                readings, states, unknown = self._resolve(raw, statuses)
                outcome = self._store(readings) if readings else StoreOutcome(0, 0)
                self._record_status(states)
                settled = self._record_answers(answers) if answers else 0
                break
            except Exception as error:
                if not self._transient(error):
                    raise  # retrying would fail the same way: stop, acknowledging nothing
                self.stats.store_failures += 1
                log.exception("storing a batch of %s readings failed; retrying in %.1f s", len(raw), delay)
                if self._stopping.wait(delay):
                    return False
                delay = min(delay * 2, 10.0)
        for guid in unknown:
            self._reject(Reason.UNKNOWN_DEVICE, f"devices/{guid}/telemetry")
        for _topic, _payload, mid, qos in batch:
            if qos > 0:
                self._client.ack(mid, qos)
        self.stats.flushes += 1
        self.stats.handled += len(batch)
        self.stats.stored += outcome.stored
        self.stats.duplicates += outcome.duplicates
        self.stats.statuses += len(states)
        self.stats.answers += settled
        return True
