"""Simulated devices for demos: `coldchain simulate` and `coldchain serve --simulate`.

Each device has its own MQTT connection with a retained `online` status and an `offline` last
will, as real devices do, and reports readings that behave like a cold chain: a drift that pulls
back to the device's set point, door openings that warm it for a few minutes, and now and then a
longer excursion (a failing compressor) that breaks its limits and raises alarms.

Each also listens on its `devices/{guid}/commands` and answers every command on
`devices/{guid}/acks` by its id, as api-contract section 7 says a device does: `params` are taken
(ok) and their upload interval becomes the device's own; a command of another type is answered
with an error, as a device that does not support it would.
"""

from __future__ import annotations

import json
import logging
import math
import random
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt

log = logging.getLogger("coldchain.simulator")

# set point (°C), noise, humidity set point, by the device type's scene
PROFILES = {"1": (5.0, 0.15, 55.0), "2": (2.0, 0.1, 80.0), "3": (-20.0, 0.25, 40.0)}
AMBIENT = 24.0
# A cold room's compressor draws about this much, more while it pulls the room back down.
ROOM_KW, ROOM_KW_WORKING = 1.2, 3.5
# Where the loggers ride: a lorry's round near Shanghai, a few hundred metres a minute.
ROUTE_START, ROUTE_STEP_DEG = (31.23, 121.47), 0.002


@dataclass
class DeviceModel:
    """The thermal behaviour of one device, advanced one step at a time (pure, seeded)."""

    set_point: float
    noise: float
    humidity_set_point: float
    rng: random.Random
    door_per_hour: float = 2.0
    excursion_per_hour: float = 0.25
    temperature: float = field(init=False)
    humidity: float = field(init=False)
    door_left_s: float = 0.0
    excursion_left_s: float = 0.0

    def __post_init__(self) -> None:
        self.temperature = self.set_point + self.rng.gauss(0, self.noise)
        self.humidity = self.humidity_set_point + self.rng.gauss(0, 2)

    def step(self, dt_s: float) -> tuple[float, float]:
        hours = dt_s / 3600
        if self.door_left_s <= 0 and self.rng.random() < self.door_per_hour * hours:
            self.door_left_s = self.rng.uniform(60, 300)
        if self.excursion_left_s <= 0 and self.rng.random() < self.excursion_per_hour * hours:
            self.excursion_left_s = self.rng.uniform(600, 1800)
        if self.excursion_left_s > 0 or self.door_left_s > 0:
            # warming toward the room: fast with the door open, slower when the cooling fails
            rate = 0.004 if self.door_left_s > 0 else 0.0015
            self.temperature += (AMBIENT - self.temperature) * min(1.0, rate * dt_s)
            self.humidity += (75 - self.humidity) * min(1.0, 0.002 * dt_s)
            self.door_left_s = max(0.0, self.door_left_s - dt_s)
            self.excursion_left_s = max(0.0, self.excursion_left_s - dt_s)
        else:
            # the cooling pulls back to the set point (an Ornstein-Uhlenbeck drift)
            self.temperature += (self.set_point - self.temperature) * min(1.0, 0.01 * dt_s)
            self.humidity += (self.humidity_set_point - self.humidity) * min(1.0, 0.005 * dt_s)
        self.temperature += self.rng.gauss(0, self.noise) * math.sqrt(min(dt_s, 60) / 60)
        self.humidity = min(100.0, max(0.0, self.humidity + self.rng.gauss(0, 0.5)))
        return round(self.temperature, 2), round(self.humidity, 1)


# A lorry's delivery near Shanghai: out of its depot (31.23, 121.47), north along the road, into the
# customer's yard (31.33, 121.47) and back: a route for fences around the depot and the yard.
DELIVERY_ROUTE = ((31.23, 121.47), (31.26, 121.475), (31.30, 121.47), (31.33, 121.47), (31.23, 121.47))
TRUCK_SPEED_M_S = 12.0  # about 43 km/h, town traffic


@dataclass
class Route:
    """A truck driving a list of waypoints (lat, lon) in order at a steady speed, then standing at the
    last: where it is after each step, for the `route` scenario of the simulator."""

    waypoints: tuple[tuple[float, float], ...]
    speed_m_s: float = TRUCK_SPEED_M_S
    travelled_m: float = 0.0

    def advance(self, dt_s: float) -> tuple[float, float]:
        self.travelled_m += self.speed_m_s * dt_s
        left = self.travelled_m
        for (lat1, lon1), (lat2, lon2) in zip(self.waypoints, self.waypoints[1:], strict=False):
            leg = _distance_m(lat1, lon1, lat2, lon2)
            if left <= leg and leg > 0:
                share = left / leg
                return lat1 + (lat2 - lat1) * share, lon1 + (lon2 - lon1) * share
            left -= leg
        return self.waypoints[-1]


def _distance_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Equirectangular: exact enough between a route's waypoints a few kilometres apart."""
    x = math.radians(lon2 - lon1) * math.cos(math.radians((lat1 + lat2) / 2))
    return math.hypot(x, math.radians(lat2 - lat1)) * 6_371_000


@dataclass(frozen=True)
class SimulatedDevice:
    guid: str
    scene: str  # "1" cold chain, "2" cold storage, "3" freezer
    password: str | None = field(default=None, repr=False)  # its broker password; None: anonymous
    route: tuple[tuple[float, float], ...] | None = None  # a truck driving these waypoints (cold chain)


class Simulator:
    def __init__(self, url: str, devices: list[SimulatedDevice], interval_s: float, *, seed: int | None = None) -> None:
        self.url, self.devices, self.interval_s = url, devices, interval_s
        self._passwords = {d.guid: d.password for d in devices}
        rng = random.Random(seed)
        self._models = {d.guid: DeviceModel(*PROFILES.get(d.scene, PROFILES["1"]), rng=random.Random(rng.random()))
                        for d in devices}
        self._clients: dict[str, mqtt.Client] = {}
        self._seq = dict.fromkeys(self._models, 0)
        self.intervals: dict[str, float] = dict.fromkeys(self._models, interval_s)
        self._due: dict[str, float] = {}
        self._scenes = {d.guid: d.scene for d in devices}
        self._kwh = {d.guid: rng.uniform(100, 5000) for d in devices}
        self._positions = {d.guid: (ROUTE_START[0] + rng.uniform(-0.2, 0.2), ROUTE_START[1] + rng.uniform(-0.2, 0.2))
                           for d in devices}
        self._routes = {d.guid: Route(d.route) for d in devices if d.route}
        self._stop = threading.Event()
        self.published = 0
        self.answered = 0

    def _connect(self, guid: str) -> mqtt.Client:
        parts = urlsplit(self.url)
        # MQTT 3.1.1, as the loggers in the field speak it (and the fallback broker does); each
        # logs in as itself, under its GUID as client id, as a real device does.
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=guid, protocol=mqtt.MQTTv311)
        if self._passwords.get(guid) is not None:
            client.username_pw_set(guid, self._passwords[guid])
        status = f"devices/{guid}/status"
        client.will_set(status, "offline", qos=1, retain=True)

        def on_connect(c: mqtt.Client, *_args: object) -> None:
            c.publish(status, "online", qos=1, retain=True)
            c.subscribe(f"devices/{guid}/commands", qos=1)

        client.on_connect = on_connect
        client.on_message = lambda c, _u, message: self._answer(c, guid, message.payload)
        client.connect_async(parts.hostname or "127.0.0.1", parts.port or 1883, keepalive=30)
        client.loop_start()
        return client

    def answer_to(self, guid: str, payload: bytes) -> dict | None:
        """The device's answer to a command (None: not a command it can tell the id of), applying
        what a params command sets."""
        try:
            command = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(command, dict) or not isinstance(command.get("id"), str):
            return None
        if command.get("type") != "params":
            return {"id": command["id"], "ok": False, "error": f"unsupported command {command.get('type')!r}"}
        upload = command.get("uploadInterval")
        if isinstance(upload, int) and not isinstance(upload, bool) and upload > 0:
            self.intervals[guid] = float(upload)
        return {"id": command["id"], "ok": True}

    def _answer(self, client: mqtt.Client, guid: str, payload: bytes) -> None:
        answer = self.answer_to(guid, payload)
        if answer is not None:
            client.publish(f"devices/{guid}/acks", json.dumps(answer), qos=1)
            self.answered += 1

    def run(self) -> None:
        """Publish a reading per device every its interval until stop() is called."""
        self._clients = {guid: self._connect(guid) for guid in self._models}
        log.info("simulating %s devices every %.0f s on %s", len(self._models), self.interval_s, self.url)
        start = time.monotonic()
        self._due = {guid: start for guid in self._models}
        while not self._stop.is_set():
            now = time.monotonic()
            due = [guid for guid, at in self._due.items() if at <= now]
            for guid in due:
                self._publish(guid, self.intervals[guid])
                self._due[guid] = now + self.intervals[guid]
            self._stop.wait(max(0.05, min(self._due.values()) - time.monotonic()))
        for guid, client in self._clients.items():
            try:
                client.publish(f"devices/{guid}/status", "offline", qos=1, retain=True).wait_for_publish(5)
            except RuntimeError:  # not connected: the broker stopped first, or the device was deleted
                log.debug("%s left without saying offline: not connected", guid)
            client.disconnect()
            client.loop_stop()

    def tick(self, dt_s: float) -> None:
        for guid in self._models:
            self._publish(guid, dt_s)

    def _publish(self, guid: str, dt_s: float) -> None:
        temperature, humidity = self._models[guid].step(dt_s)
        self._seq[guid] += 1
        now = datetime.now(UTC).isoformat(timespec="seconds")
        payload = json.dumps({"ts": now, "t": temperature, "h": humidity, "seq": self._seq[guid],
                              **self.extras(guid, self._scenes[guid], dt_s)})
        client = self._clients.get(guid)
        if client is not None and client.is_connected():
            client.publish(f"devices/{guid}/telemetry", payload, qos=1)
            self.published += 1

    def extras(self, guid: str, scene: str, dt_s: float) -> dict[str, float]:
        """What a device sends besides its probes: a cold room its meter's total in kWh, a
        cold-chain logger its GPS position."""
        model = self._models[guid]
        if scene == "2":
            working = model.temperature > model.set_point + 1
            self._kwh[guid] += (ROOM_KW_WORKING if working else ROOM_KW) * dt_s / 3600
            return {"kwh": round(self._kwh[guid], 3)}
        if guid in self._routes:
            lat, lon = self._routes[guid].advance(dt_s)
            return {"lat": round(lat, 6), "lon": round(lon, 6), "acc": round(model.rng.uniform(5, 15))}
        if scene == "1":
            lat, lon = self._positions[guid]
            lat, lon = lat + model.rng.uniform(-1, 1) * ROUTE_STEP_DEG, lon + model.rng.uniform(0, 1) * ROUTE_STEP_DEG
            self._positions[guid] = lat, lon
            return {"lat": round(lat, 6), "lon": round(lon, 6), "acc": round(model.rng.uniform(5, 30))}
        return {}

    def stop(self) -> None:
        self._stop.set()
