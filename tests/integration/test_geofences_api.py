"""Geofences over the API (issue 20), SQLite and PostgreSQL with the demo data: alice makes, finds,
changes and deletes fences and links her truck logger to them; another account's fence answers
404, an organization's fence is changed by its administrators only (a read-only member 403), and
hostile input is a 422 in the caller's language that changes nothing."""

from __future__ import annotations

import json
import math

import pytest
from sqlalchemy import func, select

from adapters.persistence.models import GeofenceLinkRow, GeofenceRow
from tests.integration.test_device_organization_api import acme_org
from tests.support.alarms import device_id
from tests.support.api import ApiClient, ok
from tests.support.demo_copy import seeded


@pytest.fixture(autouse=True)
def teams(app):
    """The demo accounts and devices with Acme's organization (carol its administrator, bob a member)."""
    seeded(app, history=False, teams=True)
    return app


F = "/device/DeviceFence"
TRUCK, WAREHOUSE = "LOGET8A0000001", "CR2B000000001"  # alice's logger; acme's organization's cold room
DEPOT = {"shape": "circle", "lat": 31.23, "lon": 121.47, "radius": 500}
YARD = {"shape": "polygon", "points": [{"lat": 31.30, "lon": 121.50}, {"lat": 31.30, "lon": 121.51},
                                       {"lat": 31.31, "lon": 121.51}, {"lat": 31.31, "lon": 121.50}]}


def fences(container) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(GeofenceRow))


def test_alice_makes_a_fence_links_her_truck_and_reads_it_back(api: ApiClient, container):
    alice = api.token("alice")
    made = ok(api.call("POST", f"{F}/insert", token=alice, json={"name": " Depot ", "areas": [DEPOT, YARD]}))
    assert made["name"] == "Depot" and made["changeable"] and made["organizationId"] is None
    assert [a["shape"] for a in made["areas"]] == ["circle", "polygon"] and made["areas"][0]["radius"] == 500
    truck = device_id(container, TRUCK)
    bound = ok(api.call("POST", f"{F}/bindDevices", token=alice, json={"id": made["id"], "deviceIds": [truck, truck]}))
    assert bound["deviceIds"] == [truck] and bound["deviceCount"] == 1
    page = ok(api.call("POST", f"{F}/page", token=alice, json={"keyword": "dep"}))
    assert [f["name"] for f in page["data"]] == ["Depot"] and page["data"][0]["deviceCount"] == 1
    changed = ok(api.call("PUT", f"{F}/update", token=alice, json={"id": made["id"], "name": "Depot 2",
                                                                   "areas": [DEPOT]}))
    assert changed["name"] == "Depot 2" and len(changed["areas"]) == 1 and changed["deviceIds"] == [truck]
    ok(api.call("POST", f"{F}/unbindDevices", token=alice, json={"id": made["id"], "deviceIds": [truck]}))
    assert ok(api.call("DELETE", f"{F}/delete", token=alice, query={"id": made["id"]}))["released"] == 0
    assert fences(container) == 0


def test_another_account_s_fence_is_not_found_and_its_devices_cannot_be_linked(api: ApiClient, container):
    alice, bob = api.token("alice"), api.token("bob")
    made = ok(api.call("POST", f"{F}/insert", token=alice, json={"name": "Depot", "areas": [DEPOT]}))
    for method, path, kw in (("GET", "get", {"query": {"id": made["id"]}}),
                             ("PUT", "update", {"json": {"id": made["id"], "name": "Mine", "areas": [DEPOT]}}),
                             ("DELETE", "delete", {"query": {"id": made["id"]}}),
                             ("POST", "events", {"json": {"fenceId": made["id"]}})):
        reply = api.call(method, f"{F}/{path}", token=bob, **kw)
        assert (reply.status, reply.body) == (404, {"code": 404, "msg": "Not found", "data": None}), path
    # alice may not watch acme's cold room, which she cannot see
    reply = api.call("POST", f"{F}/bindDevices", token=alice,
                     json={"id": made["id"], "deviceIds": [device_id(container, WAREHOUSE)]})
    assert reply.status == 404
    assert ok(api.call("GET", f"{F}/get", token=alice, query={"id": made["id"]}))["name"] == "Depot"


def test_an_organization_s_fence_is_read_by_its_members_and_changed_by_its_administrators(api: ApiClient, container):
    acme, bob, carol = api.token("acme"), api.token("bob"), api.token("carol")
    org = acme_org(container)
    made = ok(api.call("POST", f"{F}/insert", token=acme, json={"name": "Acme yard", "areas": [YARD],
                                                                "organizationId": org}))
    warehouse = device_id(container, WAREHOUSE)
    ok(api.call("POST", f"{F}/bindDevices", token=carol, json={"id": made["id"], "deviceIds": [warehouse]}))
    seen = ok(api.call("GET", f"{F}/get", token=bob, query={"id": made["id"]}))
    assert seen["changeable"] is False and seen["deviceIds"] == [warehouse]
    for path, body in (("update", {"id": made["id"], "name": "Bob's", "areas": [YARD]}),):
        assert api.call("PUT", f"{F}/{path}", token=bob, json=body).status == 403
    assert api.call("POST", f"{F}/unbindDevices", token=bob,
                    json={"id": made["id"], "deviceIds": [warehouse]}).status == 403
    assert api.call("DELETE", f"{F}/delete", token=bob, query={"id": made["id"]}).status == 403
    assert api.call("POST", f"{F}/insert", token=bob, json={"name": "Bob's", "areas": [YARD],
                                                            "organizationId": org}).status == 422
    # a personal fence does not watch an organization's device
    own = ok(api.call("POST", f"{F}/insert", token=carol, json={"name": "Carol", "areas": [DEPOT]}))
    reply = api.call("POST", f"{F}/bindDevices", token=carol, json={"id": own["id"], "deviceIds": [warehouse]})
    assert reply.status == 422 and "deviceIds" in reply.body["errors"]
    ok(api.call("PUT", f"{F}/update", token=carol, json={"id": made["id"], "name": "Yard", "areas": [YARD]}))


def circle_of(n: int) -> list[dict]:
    return [{"lat": 31.0 + 0.001 * math.sin(i * 2 * math.pi / n), "lon": 121.0 + 0.001 * math.cos(i * 2 * math.pi / n)}
            for i in range(n)]


@pytest.mark.parametrize("body, field", [
    ({"name": "Depot", "areas": [DEPOT] * 11}, "areas"),
    ({"name": "Depot", "areas": []}, "areas"),
    ({"name": "Depot", "areas": [{"shape": "polygon", "points": circle_of(101)}]}, "areas"),
    ({"name": "Depot", "areas": [{**DEPOT, "radius": 0}]}, "areas"),
    ({"name": "Depot", "areas": [{**DEPOT, "radius": 1e308}]}, "areas"),
    ({"name": "Depot", "areas": [{**DEPOT, "radius": None}]}, "areas"),
    ({"name": "Depot", "areas": [{**DEPOT, "lat": 91}]}, "areas"),
    ({"name": "Depot", "areas": [{"shape": "polygon", "points": [
        {"lat": 31.0, "lon": 121.0}, {"lat": 31.01, "lon": 121.01}, {"lat": 31.0, "lon": 121.01},
        {"lat": 31.01, "lon": 121.0}]}]}, "areas"),
    ({"name": "x" * 21, "areas": [DEPOT]}, "name"),
    ({"name": "   ", "areas": [DEPOT]}, "name"),
    ({"name": "Depot \U0001F69A", "areas": [DEPOT]}, "name"),
])
def test_hostile_fences_are_refused_in_the_caller_s_language_and_change_nothing(app, container, body, field):
    german = ApiClient(app.flask.test_client(), language="de-DE")
    reply = german.call("POST", f"{F}/insert", token=german.token("alice"), json=body)
    assert reply.status == 422 and field in json.dumps(reply.body["errors"]), reply.body
    assert fences(container) == 0


@pytest.mark.parametrize("raw", [
    '{"name": "Depot", "areas": [{"shape": "circle", "lat": NaN, "lon": 121, "radius": 5}]}',
    '{"name": "Depot", "areas": [{"shape": "circle", "lat": 31, "lon": 121, "radius": Infinity}]}',
    '{"name": "Dep\\ud800ot", "areas": [{"shape": "circle", "lat": 31, "lon": 121, "radius": 5}]}',
])
def test_nan_infinity_and_lone_surrogates_are_refused(app, container, raw):
    client = app.flask.test_client()
    token = ApiClient(client).token("alice")
    response = client.post(f"/api{F}/insert", data=raw, content_type="application/json",
                           headers={"Authorization": f"Bearer {token}", "Accept-Language": "ru-RU"})
    assert response.status_code == 422, response.get_json()
    assert fences(container) == 0


def test_a_device_is_deleted_with_its_links(api: ApiClient, container):
    alice = api.token("alice")
    made = ok(api.call("POST", f"{F}/insert", token=alice, json={"name": "Depot", "areas": [DEPOT]}))
    ok(api.call("POST", f"{F}/bindDevices", token=alice, json={"id": made["id"],
                                                               "deviceIds": [device_id(container, TRUCK)]}))
    ok(api.call("DELETE", "/device/Device/delete", token=alice, query={"deviceId": device_id(container, TRUCK)}))
    with container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(GeofenceLinkRow)) == 0
