"""Assets of an organization over the API (issue 17, "Devices belong to people and teams"), SQLite
and PostgreSQL with the demo teams: acme (Acme's creator) and carol (its administrator) make and
change Acme's assets; dave, a read-only member, reads them and every change he tries is refused
in his language and changes nothing; alice, a stranger, gets 404 and the operator 403; a device
goes only into an asset of its own owner's kind (an organization's device into that
organization's assets, a personal one into personal assets)."""

from __future__ import annotations

import pytest

from tests.integration.test_assets_api import BIND, DELETE, DISABLE, ENABLE, GET, INSERT, PAGE, UNBIND, UPDATE, stored
from tests.integration.test_device_organization_api import acme_org, move, teams  # noqa: F401 (a fixture)
from tests.support.alarms import device_id
from tests.support.api import ApiClient, ok

pytestmark = pytest.mark.usefixtures("demo", "teams")

ROOM, DOOR = "CR2B000000001", "RCW360B0000001"  # acme's, in Acme's organization
ALICE_ROOM = "RCW360A0000001"
ACME = "Acme Cold Chain"


def make(api, token, name, organization_id=None):
    return api.call("POST", INSERT, token=token, json={"assetName": name, "organizationId": organization_id})


def bind(api, token, asset_id, *ids):
    return api.call("POST", BIND, token=token, json={"id": asset_id, "deviceIds": list(ids)})


def test_carol_makes_acme_s_asset_dave_reads_it_and_changes_nothing(api, container):
    carol, dave, acme = api.token("carol"), api.token("dave"), api.token("acme")
    org, room = acme_org(container), device_id(container, ROOM)
    made = ok(make(api, carol, "Warehouse cold room", org))
    assert (made["organizationId"], made["organizationName"], made["changeable"]) == (org, ACME, True)
    ok(bind(api, carol, made["id"], room))
    [listed] = [a for a in ok(api.call("POST", PAGE, token=dave, json={}))["data"] if a["id"] == made["id"]]
    assert (listed["organizationName"], listed["changeable"], listed["deviceCount"]) == (ACME, False, 1)
    detail = ok(api.call("GET", GET, token=dave, query={"id": made["id"]}))
    assert [d["deviceGuid"] for d in detail["devices"]] == [ROOM] and detail["changeable"] is False
    before = stored(container)
    russian = ApiClient(api.client, "ru-RU")
    for method, path, kwargs in (
            ("PUT", UPDATE, {"json": {"id": made["id"], "assetName": "Dave's"}}),
            ("PUT", DISABLE, {"json": {"id": made["id"]}}),
            ("PUT", ENABLE, {"json": {"id": made["id"]}}),
            ("POST", UNBIND, {"json": {"id": made["id"], "deviceIds": [room]}}),
            ("POST", BIND, {"json": {"id": made["id"], "deviceIds": [room]}}),
            ("DELETE", DELETE, {"query": {"id": made["id"]}})):
        reply = russian.call(method, path, token=dave, **kwargs)
        assert (reply.status, reply.code) == (403, 403), (path, reply.body)
        assert "только для просмотра" in reply.body["msg"], reply.body
    refused = make(api, dave, "Dave's own for Acme", org)
    assert (refused.status, refused.body["errors"]) == (422, {"organizationId": [
        "You may not make assets in this organization"]}), refused.body
    assert stored(container) == before
    # acme, its creator, changes what carol made; carol disables it: its device and alarm rules go off
    assert ok(api.call("PUT", UPDATE, token=acme, json={"id": made["id"], "assetName": "Cold room"}))["changeable"]
    off = ok(api.call("PUT", DISABLE, token=carol, json={"id": made["id"]}))
    assert off["enabled"] is False and stored(container)["status"][ROOM] == 0
    assert ok(api.call("DELETE", DELETE, token=carol, query={"id": made["id"]})) == {"released": 1}
    assert stored(container)["status"][ROOM] == 1


def test_a_stranger_and_the_operator_get_nothing(api, container):
    acme, alice, operator = api.token("acme"), api.token("alice"), api.token("operator")
    org = acme_org(container)
    made = ok(make(api, acme, "Acme's box", org))
    before = stored(container)
    assert made["id"] not in {a["id"] for a in ok(api.call("POST", PAGE, token=alice, json={}))["data"]}
    for token, status in ((alice, 404), (operator, 403)):
        for method, path, kwargs in (("GET", GET, {"query": {"id": made["id"]}}),
                                     ("PUT", DISABLE, {"json": {"id": made["id"]}}),
                                     ("DELETE", DELETE, {"query": {"id": made["id"]}})):
            assert api.call(method, path, token=token, **kwargs).status == status, (token, path)
    refused = make(api, alice, "Into Acme", org)  # an organization she is not in
    assert (refused.status, list(refused.body["errors"])) == (422, ["organizationId"])
    assert make(api, operator, "Into Acme", org).status == 403
    assert stored(container) == before


def test_organization_devices_stay_with_organization_assets_and_personal_with_personal(api, container):
    acme = api.token("acme")
    org, room, door = acme_org(container), device_id(container, ROOM), device_id(container, DOOR)
    ok(move(api, acme, [door], None))  # the door logger is acme's own now
    ours, mine = ok(make(api, acme, "Acme's room", org)), ok(make(api, acme, "My box"))
    before = stored(container)
    for asset, ids, message in (
            (mine, [room], "An organization's device goes only into an asset of the same organization"),
            (ours, [door], "A device in no organization goes only into a personal asset"),
            (ours, [room, door], "A device in no organization goes only into a personal asset")):
        reply = bind(api, acme, asset["id"], *ids)
        assert (reply.status, reply.body["errors"]) == (422, {"deviceIds": [message]}), reply.body
    german = bind(ApiClient(api.client, "de-DE"), acme, mine["id"], room)
    assert german.status == 422 and "Organisation" in german.body["errors"]["deviceIds"][0], german.body
    assert stored(container) == before  # all or none
    assert ok(bind(api, acme, ours["id"], room))["deviceCount"] == 1
    assert ok(bind(api, acme, mine["id"], door))["deviceCount"] == 1
    # in an asset, a device does not change organization (the asset would hold another owner's device)
    assert move(api, acme, [door], org).status == 422


def test_carol_sees_a_device_of_acme_s_asset_named_when_she_binds_it_elsewhere(api, container):
    carol = api.token("carol")
    org, room = acme_org(container), device_id(container, ROOM)
    first, second = ok(make(api, carol, "First", org)), ok(make(api, carol, "Second", org))
    ok(bind(api, carol, first["id"], room))
    reply = bind(api, carol, second["id"], room)
    assert (reply.status, reply.code) == (409, 1822), reply.body
    assert reply.body["msg"] == "The device Warehouse 1 cold room is already in the asset First: unbind it there first"
