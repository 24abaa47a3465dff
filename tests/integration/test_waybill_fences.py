"""A waybill's origin and destination geofences: only its owner's, and its devices watched against
them without linking each by hand (the ingest watches a device only against fences of its owner's
kind, so another's fence could never start it; accepting one would only say that it exists)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from adapters.persistence.models import GeofenceLinkRow
from tests.integration.test_device_organization_api import acme_org
from tests.integration.test_geofences_api import DEPOT, YARD, F
from tests.support.alarms import device_id
from tests.support.api import ApiClient, ok
from tests.support.demo_copy import seeded

W = "/device/Waybill"
TRUCK = "LOGET8A0000001"  # alice's logger
NOT_YOURS = "Choose one of the waybill owner's geofences"


@pytest.fixture
def api(app) -> ApiClient:
    seeded(app, history=False, teams=True)
    return ApiClient(app.flask.test_client())


def fence(api, token, name, area=DEPOT, **fields) -> int:
    return ok(api.call("POST", f"{F}/insert", token=token, json={"name": name, "areas": [area], **fields}))["id"]


def links(container) -> dict[tuple[int, int], bool | None]:
    with container.session_factory()() as session:
        return {(r.fence_id, r.device_id): r.inside for r in session.scalars(select(GeofenceLinkRow))}


def test_a_waybill_takes_only_its_owner_s_fences_and_another_s_or_a_missing_one_is_refused_alike(api, container):
    alice, bob, acme = api.token("alice"), api.token("bob"), api.token("acme")
    organization = acme_org(container)
    bobs, acmes_own = fence(api, bob, "Bob's"), fence(api, acme, "Acme own")
    acmes_org = fence(api, acme, "Acme dock", organizationId=organization)
    for field in ("originFenceId", "destinationFenceId"):
        for fence_id in (bobs, acmes_org, 2_000_000_000):
            reply = api.call("POST", f"{W}/insert", token=alice, json={"orderNum": "WB-F", field: fence_id})
            assert reply.status == 422 and reply.body["errors"] == {field: [NOT_YOURS]}, reply.body
    assert ok(api.call("POST", f"{W}/page", token=alice, json={}))["totalCount"] == 0
    # an organization's waybill goes by the organization's fences, not by its creator's own
    refused = api.call("POST", f"{W}/insert", token=acme, json={"organizationId": organization,
                                                                 "originFenceId": acmes_own})
    assert refused.status == 422 and "originFenceId" in refused.body["errors"]
    made = ok(api.call("POST", f"{W}/insert", token=acme, json={"organizationId": organization,
                                                               "originFenceId": acmes_org}))
    assert made["originFenceId"] == acmes_org
    personal = ok(api.call("POST", f"{W}/insert", token=acme, json={"destinationFenceId": acmes_own}))
    refused = api.call("PUT", f"{W}/update", token=acme, json={"id": personal["id"], "destinationFenceId": acmes_org})
    assert refused.status == 422 and "destinationFenceId" in refused.body["errors"]
    assert ok(api.call("GET", f"{W}/get", token=acme, query={"id": personal["id"]}))["destinationFenceId"] == acmes_own


def test_a_template_takes_only_fences_its_maker_reads(api, container):
    bob, carol = api.token("bob"), api.token("carol")
    alices = fence(api, api.token("alice"), "Alice's")
    acmes_org = fence(api, api.token("acme"), "Acme dock", organizationId=acme_org(container))
    refused = api.call("POST", "/device/WaybillTemplate/insert", token=bob, json={
        "templateName": "Run", "originFenceId": alices})
    assert refused.status == 422 and refused.body["errors"] == {"originFenceId": [NOT_YOURS]}
    made = ok(api.call("POST", "/device/WaybillTemplate/insert", token=carol, json={  # a member of Acme
        "templateName": "Run", "originFenceId": acmes_org}))
    assert made["originFenceId"] == acmes_org


def test_binding_devices_or_choosing_fences_watches_the_devices_against_them_keeping_what_is_known(api, container):
    alice = api.token("alice")
    truck = device_id(container, TRUCK)
    depot, yard, dock = fence(api, alice, "Depot"), fence(api, alice, "Yard", YARD), fence(api, alice, "Dock")
    ok(api.call("POST", f"{F}/bindDevices", token=alice, json={"id": depot, "deviceIds": [truck]}))
    with container.session_factory()() as session:  # the ingest has seen the truck in its depot
        session.get(GeofenceLinkRow, (depot, truck)).inside = True
        session.commit()
    waybill = ok(api.call("POST", f"{W}/insert", token=alice, json={
        "orderNum": "WB-F", "originFenceId": depot, "destinationFenceId": yard}))
    assert links(container) == {(depot, truck): True}  # no device on it yet
    ok(api.call("POST", f"{W}/batchBind", token=alice, json={"id": waybill["id"], "deviceIds": [truck]}))
    assert links(container) == {(depot, truck): True, (yard, truck): None}
    ok(api.call("PUT", f"{W}/update", token=alice, json={"id": waybill["id"], "orderNum": "WB-F",
                                                          "originFenceId": depot, "destinationFenceId": dock}))
    assert links(container) == {(depot, truck): True, (yard, truck): None, (dock, truck): None}
    ok(api.call("DELETE", f"{F}/delete", token=alice, query={"id": dock}))
    kept = ok(api.call("GET", f"{W}/get", token=alice, query={"id": waybill["id"]}))
    assert (kept["originFenceId"], kept["destinationFenceId"]) == (depot, None)
