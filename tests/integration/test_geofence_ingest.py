"""Positions and fence crossings from real MQTT messages (the machine's Mosquitto), SQLite and
PostgreSQL: the positions are stored with the readings, a truck leaving its depot and entering its
destination makes exactly one crossing each (jitter at the edge none), a late batch is judged by
its timestamps, and hostile payloads stop nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from adapters.persistence.models import GeofenceEventRow, ReadingRow, SystemMessageRow
from core.geofences.detection import DetectCrossings
from core.geofences.dwell import Dwell
from core.telemetry.use_cases import StoreReadings
from tests.integration.test_geofences_api import DEPOT, F
from tests.integration.test_ingest import Workers, broker_url, no_alarms, publisher  # noqa: F401 (fixtures)
from tests.support.alarms import device, device_id
from tests.support.api import ApiClient, ok
from tests.support.demo_copy import seeded
from tests.support.mqtt import unique, wait_until

TRUCK = "LOGET8A0000001"
# the depot: a 500 m circle at (31.23, 121.47); the destination: a square 10 km north
DEST = {"shape": "polygon", "points": [{"lat": 31.32, "lon": 121.46}, {"lat": 31.32, "lon": 121.48},
                                       {"lat": 31.34, "lon": 121.48}, {"lat": 31.34, "lon": 121.46}]}
START = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)


class FakeListener:
    def __init__(self) -> None:
        self.calls: list[tuple[int, int, bool, datetime]] = []

    def crossed(self, device_id, fence_id, entered, at):
        self.calls.append((device_id, fence_id, entered, at))


@pytest.fixture
def workers(app, broker_url):  # noqa: F811
    """Workers on the demo accounts and devices without their stored history (whose positions would
    share the route's timestamps)."""
    seeded(app, history=False)
    pool = Workers(app.container, broker_url, unique("ingest"))
    yield pool
    pool.stop_all()


@pytest.fixture
def watched(app, workers):
    """alice's truck watched against her depot and destination, and a worker that detects crossings
    (dwell: two readings) telling a fake listener."""
    c = app.container
    api = ApiClient(app.flask.test_client())
    alice = api.token("alice")
    truck = device_id(c, TRUCK)
    fences = {}
    for name, area in (("Depot", DEPOT), ("Destination", DEST)):
        made = ok(api.call("POST", f"{F}/insert", token=alice, json={"name": name, "areas": [area]}))
        ok(api.call("POST", f"{F}/bindDevices", token=alice, json={"id": made["id"], "deviceIds": [truck]}))
        fences[name] = made["id"]
    listener = FakeListener()
    detect = DetectCrossings(c.clock(), c.settings().edition, listener, Dwell(2))
    workers.start(store=StoreReadings(c.uow(), c.clock(), no_alarms, detect))
    return c, truck, fences, listener


def point(minute: int, lat: float, lon: float = 121.47, acc: float = 10, **extra) -> dict:
    return {"ts": (START + timedelta(minutes=minute)).isoformat(), "t": 4.0, "lat": lat, "lon": lon, "acc": acc,
            **extra}


def events(c) -> list[tuple[int, bool, datetime]]:
    with c.session_factory()() as session:
        rows = session.execute(select(GeofenceEventRow.fence_id, GeofenceEventRow.entered, GeofenceEventRow.at)
                               .order_by(GeofenceEventRow.at, GeofenceEventRow.id)).all()
    return [(f, e, at.astimezone(UTC)) for f, e, at in rows]


def positions(c, truck) -> int:
    with c.session_factory()() as session:
        return len(session.scalars(select(ReadingRow.ts).where(ReadingRow.device_id == truck,
                                                                ReadingRow.latitude.is_not(None))).all())


def at(minute: int) -> datetime:
    return START + timedelta(minutes=minute)


# The route: in the depot (its edge at about 31.2345 north), jitter at the edge that flips nothing (a
# fix 11 m out then back in, one 22 m out but 30 m vague, one 33 m out then back in), out and north to
# the destination (from 31.32) and into it.
ROUTE = [point(0, 31.23), point(1, 31.23),
         point(2, 31.2346), point(3, 31.2340), point(4, 31.2347, acc=30), point(5, 31.2348), point(6, 31.2344, acc=5),
         point(7, 31.26), point(8, 31.28), point(9, 31.30),
         point(10, 31.3250), point(11, 31.3260), point(12, 31.33)]


def test_a_truck_leaving_its_depot_and_entering_its_destination_makes_one_crossing_each(watched, publisher):  # noqa: F811
    c, truck, fences, listener = watched
    for p in ROUTE:
        publisher.send(f"devices/{TRUCK}/telemetry", p)
    wait_until(lambda: positions(c, truck) == len(ROUTE), what="every position stored")
    wait_until(lambda: len(events(c)) == 2, what="two crossings")
    assert events(c) == [(fences["Depot"], False, at(7)), (fences["Destination"], True, at(10))]
    wait_until(lambda: len(listener.calls) == 2, what="the listener told")
    assert listener.calls == [(truck, fences["Depot"], False, at(7)), (truck, fences["Destination"], True, at(10))]
    with c.session_factory()() as session:
        told = session.scalars(select(SystemMessageRow.template).where(SystemMessageRow.kind == "geofence")
                               .order_by(SystemMessageRow.id)).all()
    assert told == ["fence_left", "fence_entered"]
    shown = device(c, TRUCK)  # the device's last known position, which its detail shows
    assert (shown.last_latitude, shown.last_longitude, shown.last_accuracy_m) == (31.33, 121.47, 10.0)


def test_a_late_batch_is_judged_by_its_timestamps_in_their_order(watched, publisher):  # noqa: F811
    c, truck, fences, listener = watched
    batch = list(reversed(ROUTE))  # a logger uploading its history, newest first
    publisher.send(f"devices/{TRUCK}/telemetry", {"readings": batch})
    wait_until(lambda: len(events(c)) == 2, what="two crossings")
    assert events(c) == [(fences["Depot"], False, at(7)), (fences["Destination"], True, at(10))]
    # delivered again (QoS 1 may): nothing new
    publisher.send(f"devices/{TRUCK}/telemetry", {"readings": batch})
    publisher.send(f"devices/{TRUCK}/telemetry", point(13, 31.331))
    wait_until(lambda: positions(c, truck) == len(ROUTE) + 1, what="the next position")
    assert len(events(c)) == 2


def test_hostile_positions_never_stop_the_ingest_nor_move_the_truck(watched, publisher):  # noqa: F811
    c, truck, fences, listener = watched
    hostile = [b'{"ts": "%s", "t": 4, "lat": NaN, "lon": 121}' % at(0).isoformat().encode(),
               json.dumps(point(1, 1e308)).encode(), json.dumps(point(2, "31.3")).encode(),
               json.dumps(point(3, 31.33, lon=999)).encode(), json.dumps(point(4, 31.33, acc=-1)).encode(),
               json.dumps({"readings": [point(5, 31.33, lat2=[1] * 10)] * 3000}).encode(), b"{" * 5000,
               json.dumps(point(6, 31.33, lon=[1, 2])).encode()]
    for payload in hostile:
        publisher.send(f"devices/{TRUCK}/telemetry", payload)
    for minute in (15, 16, 20, 21, 22):  # then the truck is seen on the road and drives into its destination
        publisher.send(f"devices/{TRUCK}/telemetry", point(minute, 31.30 if minute < 20 else 31.33))
    wait_until(lambda: len(events(c)) == 1, what="the crossing after the hostile messages")
    assert events(c) == [(fences["Destination"], True, at(20))]
    with c.session_factory()() as session:
        stored = session.execute(select(ReadingRow.ts, ReadingRow.latitude).where(ReadingRow.device_id == truck)
                                 .where(ReadingRow.ts < at(10))).all()
    assert stored and all(lat is None for _, lat in stored)  # the temperatures kept, the positions dropped
