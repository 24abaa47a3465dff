"""Steps of features/geofences/*.feature, imported by features/conftest.py so that the scenarios
collected by features/test_features.py find them."""

from __future__ import annotations

from datetime import timedelta

from pytest_bdd import given, parsers, then, when
from sqlalchemy import select
from tests.integration.test_device_organization_api import acme_org
from tests.support.alarms import device_id

from adapters.persistence.models import GeofenceEventRow
from core.telemetry.model import Position, Reading
from core.telemetry.use_cases import StoreReadings

FENCE = "/device/DeviceFence"
TRUCK = "LOGET8A0000001"
DEPOT_LAT, DEPOT_LON, RADIUS_M, M_PER_DEG = 31.23, 121.47, 500.0, 111_195.0


@given("alice has drawn a depot fence watching her truck logger")
def _depot(api, container, world):
    token = world["tokens"]["alice"]
    reply = api.call("POST", f"{FENCE}/insert", token=token, json={"name": "Depot", "areas": [
        {"shape": "circle", "lat": DEPOT_LAT, "lon": DEPOT_LON, "radius": RADIUS_M}]})
    assert reply.status == 200, reply.body
    world["depot"] = reply.data["id"]
    bound = api.call("POST", f"{FENCE}/bindDevices", token=token,
                     json={"id": world["depot"], "deviceIds": [device_id(container, TRUCK)]})
    assert bound.status == 200, bound.body


def _report(container, clock, world, metres_north: list[float]) -> None:
    """Fixes of the truck logger a minute apart, each so many metres north of the depot's centre."""
    truck, start = device_id(container, TRUCK), clock.now() + timedelta(minutes=1)
    world["start"] = start
    readings = [Reading(truck, start + timedelta(minutes=i), 4.0, None,
                        position=Position(DEPOT_LAT + north / M_PER_DEG, DEPOT_LON, 5.0))
                for i, north in enumerate(metres_north)]
    StoreReadings(container.uow(), container.clock(), container.evaluate_alarms(), container.detect_crossings())(
        readings)


@when("the truck logger reports 3 fixes in the depot, then 3 fixes 2 km north of it")
def _leaves(container, clock, world):
    _report(container, clock, world, [0, 10, 20, 2000, 2000, 2000])


@when("the truck logger reports 3 fixes in the depot, then 6 fixes wobbling 20 m either side of its edge")
def _wobbles(container, clock, world):
    _report(container, clock, world, [0, 10, 20, 520, 480, 520, 520, 480, 520])


def _crossings(container) -> list:
    with container.session_factory()() as session:
        return session.execute(select(GeofenceEventRow.entered, GeofenceEventRow.at)).all()


@then("the depot fence shows one crossing: left, at the first fix north of it")
def _one_left(container, world):
    [(entered, at)] = _crossings(container)
    assert entered is False and at == world["start"] + timedelta(minutes=3)


@then("the depot fence shows no crossing")
def _none(container):
    assert _crossings(container) == []


@then("alice's message centre tells that the truck logger left the depot")
def _told(api, world):
    reply = api.call("POST", "/base/BaseMessage/page", token=world["tokens"]["alice"], json={"kind": "geofence"})
    assert reply.status == 200, reply.body
    [message] = reply.data["data"]
    assert "left the fence Depot" in message["content"], message


@given("acme has drawn a yard fence for Acme Cold Chain")
def _yard(api, container, world):
    world["tokens"]["acme"] = api.token("acme")
    reply = api.call("POST", f"{FENCE}/insert", token=world["tokens"]["acme"], json={
        "name": "Yard", "organizationId": acme_org(container),
        "areas": [{"shape": "circle", "lat": 31.3, "lon": 121.5, "radius": 300}]})
    assert reply.status == 200, reply.body
    world["yard"] = reply.data["id"]


@when(parsers.parse("{user} renames the yard fence"))
def _rename(api, world, user):
    world["replies"].append(api.call("PUT", f"{FENCE}/update", token=world["tokens"][user], json={
        "id": world["yard"], "name": "Renamed", "areas": [{"shape": "circle", "lat": 31.3, "lon": 121.5,
                                                            "radius": 300}]}))


