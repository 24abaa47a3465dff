"""A shipment from real MQTT messages (the machine's Mosquitto), SQLite and PostgreSQL (issue 20's
"done when", the server's part): alice's truck leaves its depot fence and its waybill starts, an
excursion over the waybill's own limits during the trip is an alarm counted on the waybill, the
truck enters the destination fence and the waybill finishes, each at the reading's own time."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.telemetry.use_cases import StoreReadings
from tests.integration.test_geofence_ingest import DEST, START, TRUCK
from tests.integration.test_geofences_api import DEPOT, F
from tests.integration.test_ingest import Workers, broker_url, publisher  # noqa: F401 (fixtures)
from tests.support.alarms import alarms, device_id
from tests.support.api import ApiClient, ok
from tests.support.demo_copy import seeded
from tests.support.mqtt import unique, wait_until

W = "/device/Waybill"


@pytest.fixture
def shipment(app, broker_url):  # noqa: F811
    """alice's truck watched against her depot and destination fences, on a waybill from the one
    to the other (2-8 °C), with an ingest worker as `coldchain ingest` builds it."""
    seeded(app, history=False)
    c = app.container
    api = ApiClient(app.flask.test_client())
    alice = api.token("alice")
    truck = device_id(c, TRUCK)
    fences = {}
    for name, area in (("Depot", DEPOT), ("Destination", DEST)):
        made = ok(api.call("POST", f"{F}/insert", token=alice, json={"name": name, "areas": [area]}))
        ok(api.call("POST", f"{F}/bindDevices", token=alice, json={"id": made["id"], "deviceIds": [truck]}))
        fences[name] = made["id"]
    waybill = ok(api.call("POST", f"{W}/insert", token=alice, json={
        "orderNum": "WB-TRIP", "goodsName": "Vaccines", "upperLimit": 8.0, "lowerLimit": 2.0,
        "originFenceId": fences["Depot"], "destinationFenceId": fences["Destination"]}))
    ok(api.call("POST", f"{W}/batchBind", token=alice, json={"id": waybill["id"], "deviceIds": [truck]}))
    pool = Workers(c, broker_url, unique("ingest"))
    pool.start(store=StoreReadings(c.uow(), c.clock(), c.evaluate_alarms(), c.detect_crossings()))
    yield api, alice, waybill["id"]
    pool.stop_all()


def point(minute: float, lat: float, t: float = 5.0) -> dict:
    return {"ts": (START + timedelta(minutes=minute)).isoformat(), "t": t, "lat": lat, "lon": 121.47, "acc": 10}


def test_a_truck_leaving_its_depot_starts_its_waybill_and_entering_its_destination_finishes_it(
        shipment, publisher):  # noqa: F811
    api, alice, waybill = shipment

    def trip() -> dict:
        return ok(api.call("GET", f"{W}/get", token=alice, query={"id": waybill}))

    for p in [point(0, 31.23), point(1, 31.23), point(2, 31.23)]:  # in the depot
        publisher.send(f"devices/{TRUCK}/telemetry", p)
    for p in [point(3, 31.26), point(4, 31.27), point(5, 31.28)]:  # out of it: three readings outside flip it
        publisher.send(f"devices/{TRUCK}/telemetry", p)
    wait_until(lambda: trip()["state"] == 1, what="the waybill started on leaving the depot")
    for p in [point(6, 31.29, t=12.0), point(6.5, 31.295, t=12.5), point(7, 31.30)]:  # warm on the way: 12 °C over 8
        publisher.send(f"devices/{TRUCK}/telemetry", p)
    wait_until(lambda: ok(api.call("GET", f"{W}/alarmCount", token=alice, query={"id": waybill}))["alarmCount"] >= 1,
               what="the excursion counted on the waybill")
    for p in [point(8, 31.325), point(9, 31.326), point(10, 31.33), point(11, 31.331)]:  # into the destination
        publisher.send(f"devices/{TRUCK}/telemetry", p)
    wait_until(lambda: trip()["state"] == 2, what="the waybill finished on entering the destination")
    finished = trip()
    assert finished["startedAt"] < finished["finishedAt"]


def test_the_readings_that_confirmed_the_departure_are_judged_by_the_trip_s_limits(
        app, shipment, publisher):  # noqa: F811
    """The truck is warm as it leaves: the three readings outside the depot that confirm it left are
    above the trip's 8 °C, though they arrived before the waybill started. The truck has no alarm
    rule of its own: only the trip's limits, applied to them afterwards, raise the alarm, from the
    first of them."""
    api, alice, waybill = shipment
    for p in [point(0, 31.23), point(1, 31.23), point(2, 31.23)]:
        publisher.send(f"devices/{TRUCK}/telemetry", p)
    for p in [point(3, 31.26, t=11.0), point(4, 31.27, t=11.5), point(5, 31.28, t=11.2)]:
        publisher.send(f"devices/{TRUCK}/telemetry", p)
    wait_until(lambda: ok(api.call("GET", f"{W}/alarmCount", token=alice, query={"id": waybill}))["alarmCount"] == 1,
               what="the departure's excursion counted on the waybill")
    [alarm] = alarms(app.container, TRUCK)
    assert (alarm.started_at, alarm.extreme_value) == (START + timedelta(minutes=3), 11.5)
