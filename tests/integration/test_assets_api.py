"""Assets over the API (issue 17), SQLite and PostgreSQL with the demo data: alice makes, finds,
changes and deletes assets, binds her devices (five at most, each in one asset), and disabling an
asset disables its devices and switches off their alarm rules, which enabling turns back on; every
call on someone else's asset answers 404, a read-only device 403, and hostile input a 4xx in the
caller's language that changes nothing. The access matrix at the end has a row for every call."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from adapters.persistence.models import AlarmRuleRow, AssetRow, DeviceRow
from entrypoints.api.assets import schemas as s
from entrypoints.api.framework import page_of
from tests.integration.test_device_organization_api import acme_org
from tests.integration.test_devices_api import conforms
from tests.support.alarms import FRIDGE, alarms, device_id, report, sent
from tests.support.api import ApiClient, ok

pytestmark = pytest.mark.usefixtures("demo")

PAGE, GET, INSERT, UPDATE, DELETE, ENABLE, DISABLE, BIND, UNBIND = (f"/device/Asset/{n}" for n in (
    "page", "get", "insert", "update", "delete", "enable", "disable", "bindDevice", "unbindDevice"))
FREEZER, ROOM_A, ROOM_B, TRUCK, DOCK = "FZ1A000000001", "RCW360A0000001", "RCW360A0000002", "LOGET8A0000001", \
    "CR2A000000001"
WAREHOUSE = "CR2B000000001"  # acme's; bob, a member of its organization, only reads it
DEMO = "Pharmacy vaccine store"


def stored(container) -> dict:
    """Every asset (name: state, owner, guids), every device's status, and every rule's switches."""
    with container.session_factory()() as session:
        assets = {a.id: a for a in session.scalars(select(AssetRow))}
        devices = session.execute(select(DeviceRow.id, DeviceRow.guid, DeviceRow.asset_id, DeviceRow.status)).all()
        rules = session.execute(select(AlarmRuleRow.device_id, AlarmRuleRow.probe, AlarmRuleRow.enabled,
                                       AlarmRuleRow.held_by_asset)).all()
    guids = {d.id: d.guid for d in devices}
    return {"assets": {a.name: (a.enabled, a.owner_account_id, a.number, a.attributes,
                                sorted(d.guid for d in devices if d.asset_id == a.id)) for a in assets.values()},
            "status": {d.guid: d.status for d in devices},
            "rules": {(guids[r.device_id], r.probe): (r.enabled, r.held_by_asset) for r in rules}}


def rules_on(container, *guids: str) -> dict[str, bool]:
    rules = stored(container)["rules"]
    return {guid: rules[(guid, "t")][0] for guid in guids}


def demo_id(api, token) -> int:
    [asset] = [a for a in ok(api.call("POST", PAGE, token=token, json={}))["data"] if a["assetName"] == DEMO]
    return asset["id"]


def make(api, token, name="Fridge 2", **fields):
    return api.call("POST", INSERT, token=token, json={"assetName": name, **fields})


def bind(api, token, asset_id, *guids, container):
    return api.call("POST", BIND, token=token, json={"id": asset_id,
                                                      "deviceIds": [device_id(container, g) for g in guids]})


def test_demo_alice_has_an_enabled_asset_with_two_devices(api):
    alice = api.token("alice")
    reply = api.call("POST", PAGE, token=alice, json={})
    conforms(reply, page_of(s.AssetSchema))
    [demo] = ok(reply)["data"]
    assert (demo["assetName"], demo["assetNumber"], demo["deviceCount"], demo["enabled"]) == (DEMO, "PH-001", 2, True)
    detail = ok(api.call("GET", GET, token=alice, query={"id": demo["id"]}))
    assert sorted(d["deviceGuid"] for d in detail["devices"]) == [FREEZER, FRIDGE]
    assert detail["customs"] == [{"key": "Location", "value": "Pharmacy back room"}, {"key": "Compartments",
                                                                                     "value": "2"}]


def test_the_owner_makes_finds_changes_binds_unbinds_and_deletes(api, container):
    alice = api.token("alice")
    reply = make(api, alice, "  Cold room A  ", assetType="Cold room", assetNumber="CR-A7", brand="", volume=" 12 m³ ",
                 customs=[{"key": " Door ", "value": " north "}], remark="  ")
    conforms(reply, s.AssetDetailSchema)
    made = ok(reply)
    assert (made["assetName"], made["assetType"], made["assetNumber"], made["brand"], made["volume"], made["remark"],
            made["customs"], made["enabled"], made["devices"]) == (
        "Cold room A", "Cold room", "CR-A7", None, "12 m³", None, [{"key": "Door", "value": "north"}], True, [])
    bound = ok(bind(api, alice, made["id"], ROOM_A, ROOM_B, ROOM_A, container=container))
    assert sorted(d["deviceGuid"] for d in bound["devices"]) == [ROOM_A, ROOM_B] and bound["deviceCount"] == 2
    by_name = ok(api.call("POST", PAGE, token=alice, json={"keyword": "cOLD"}))
    assert [(a["assetName"], a["deviceCount"]) for a in by_name["data"]] == [("Cold room A", 2)]
    by_number = ok(api.call("POST", PAGE, token=alice, json={"keyword": "ph-0"}))
    assert [a["assetName"] for a in by_number["data"]] == [DEMO]
    assert ok(api.call("POST", PAGE, token=alice, json={"keyword": "%"}))["totalCount"] == 0
    changed = ok(api.call("PUT", UPDATE, token=alice, json={"id": made["id"], "assetName": "Cold room A1",
                                                            "brand": "Carrier", "customs": []}))
    assert (changed["assetName"], changed["assetType"], changed["brand"], changed["customs"],
            changed["deviceCount"]) == ("Cold room A1", None, "Carrier", [], 2)
    after = ok(api.call("POST", UNBIND, token=alice, json={"id": made["id"],
                                                           "deviceIds": [device_id(container, ROOM_A)]}))
    assert [d["deviceGuid"] for d in after["devices"]] == [ROOM_B]
    assert ok(api.call("DELETE", DELETE, token=alice, query={"id": made["id"]})) == {"released": 1}
    assert "Cold room A1" not in stored(container)["assets"]
    assert stored(container)["status"][ROOM_B] == 1


def test_five_devices_at_most_and_a_sixth_changes_nothing(api, container):
    alice = api.token("alice")
    ok(api.call("DELETE", DELETE, token=alice, query={"id": demo_id(api, alice)}))
    made = ok(make(api, alice, "Everything"))
    ok(bind(api, alice, made["id"], ROOM_A, ROOM_B, FRIDGE, container=container))
    ok(bind(api, alice, made["id"], TRUCK, FREEZER, FRIDGE, container=container))  # one already in: four new
    before = stored(container)
    reply = bind(api, alice, made["id"], DOCK, container=container)
    assert (reply.status, reply.code, reply.body["msg"]) == (409, 1821, "Asset limit of five devices")
    russian = bind(ApiClient(api.client, "ru-RU"), alice, made["id"], DOCK, container=container)
    assert russian.code == 1821 and "пят" in russian.body["msg"], russian.body
    assert stored(container) == before
    # all or none: two new ones past the limit in one call bind neither
    ok(api.call("POST", UNBIND, token=alice, json={"id": made["id"], "deviceIds": [device_id(container, TRUCK)]}))
    reply = bind(api, alice, made["id"], DOCK, TRUCK, container=container)
    assert reply.code == 1821
    assert stored(container)["assets"]["Everything"][4] == sorted([ROOM_A, ROOM_B, FRIDGE, FREEZER])


def test_a_device_is_in_one_asset_at_most(api, container):
    alice = api.token("alice")
    other = ok(make(api, alice, "Second fridge"))
    before = stored(container)
    reply = bind(api, alice, other["id"], ROOM_A, FRIDGE, container=container)
    assert (reply.status, reply.code) == (409, 1822)
    assert reply.body["msg"] == (f"The device Vaccine fridge logger is already in the asset {DEMO}: "
                                 "unbind it there first")
    assert stored(container) == before


def test_disabling_switches_the_devices_and_their_alarm_rules_off_and_enabling_restores_them(api, container, clock):
    alice = api.token("alice")
    demo = demo_id(api, alice)
    made = ok(make(api, alice, "Cold rooms"))
    ok(bind(api, alice, made["id"], ROOM_A, container=container))
    with container.session_factory()() as session:  # alice had switched cold room B's rule off herself
        session.execute(update(AlarmRuleRow).where(AlarmRuleRow.device_id == device_id(container, ROOM_B))
                        .values(enabled=False))
        session.commit()
    disabled = ok(api.call("PUT", DISABLE, token=alice, json={"id": made["id"]}))
    assert disabled["enabled"] is False and [d["enabled"] for d in disabled["devices"]] == [False]
    assert rules_on(container, ROOM_A, FRIDGE) == {ROOM_A: False, FRIDGE: True}
    ok(bind(api, alice, made["id"], ROOM_B, container=container))  # bound to a disabled asset: held too
    state = stored(container)
    assert (state["status"][ROOM_A], state["status"][ROOM_B], state["status"][FRIDGE]) == (0, 0, 1)
    again = ok(api.call("PUT", DISABLE, token=alice, json={"id": made["id"]}))  # a second disable: nothing more
    assert again["enabled"] is False and stored(container) == state
    enabled = ok(api.call("PUT", ENABLE, token=alice, json={"id": made["id"]}))
    assert enabled["enabled"] is True and all(d["enabled"] for d in enabled["devices"])
    assert rules_on(container, ROOM_A, ROOM_B) == {ROOM_A: True, ROOM_B: False}  # B stays as alice left it
    assert not any(held for _, held in stored(container)["rules"].values())

    # the demo asset's fridge: disabled, an excursion raises nothing and sends nothing; enabled, it does
    ok(api.call("PUT", DISABLE, token=alice, json={"id": demo}))
    start = clock.now() - timedelta(minutes=10)
    report(container, FRIDGE, start, (0, 9.0), (3, 11.5), (5, 10.0))
    assert alarms(container) == [] and sent(container) == []
    ok(api.call("PUT", ENABLE, token=alice, json={"id": demo}))
    report(container, FRIDGE, start + timedelta(minutes=6), (0, 9.0), (6, 10.0))
    assert len(alarms(container)) == 1 and sent(container)


def test_unbinding_from_or_deleting_a_disabled_asset_gives_the_devices_back_their_alarms(api, container):
    alice = api.token("alice")
    demo = demo_id(api, alice)
    ok(api.call("PUT", DISABLE, token=alice, json={"id": demo}))
    assert rules_on(container, FRIDGE) == {FRIDGE: False}
    ok(api.call("POST", UNBIND, token=alice, json={"id": demo, "deviceIds": [device_id(container, FRIDGE)]}))
    assert rules_on(container, FRIDGE) == {FRIDGE: True} and stored(container)["status"][FRIDGE] == 1
    assert stored(container)["status"][FREEZER] == 0
    assert ok(api.call("DELETE", DELETE, token=alice, query={"id": demo})) == {"released": 1}
    assert stored(container)["status"][FREEZER] == 1


def test_a_rule_the_disabled_asset_holds_off_is_not_switched_on_by_hand(api, container):
    alice = api.token("alice")
    demo = demo_id(api, alice)
    ok(api.call("PUT", DISABLE, token=alice, json={"id": demo}))
    with container.session_factory()() as session:
        rule_id = session.scalar(select(AlarmRuleRow.id).where(
            AlarmRuleRow.device_id == device_id(container, FRIDGE), AlarmRuleRow.probe == "t"))
    before = stored(container)
    switched = api.call("PUT", "/device/DeviceAlarmRule/update", token=alice, json={"id": rule_id, "enabled": True},
                        headers={"Accept-Language": "ru-RU"})
    assert (switched.status, switched.code) == (409, 1016), switched.body
    assert DEMO in switched.body["msg"] and "актив" in switched.body["msg"]  # names the asset, in Russian
    assert stored(container) == before
    ok(api.call("PUT", "/device/DeviceAlarmRule/update", token=alice, json={"id": rule_id, "name": "Fridge top"}))
    assert stored(container)["rules"][(FRIDGE, "t")] == (False, True)  # still held: the asset turns it on
    humidity = {"deviceId": device_id(container, FRIDGE), "probe": "h", "name": "Humidity", "upperLimit": 80}
    added = api.call("POST", "/device/DeviceAlarmRule/insert", token=alice, json=humidity)
    assert (added.status, added.code) == (409, 1016), added.body
    ok(api.call("POST", "/device/DeviceAlarmRule/insert", token=alice, json={**humidity, "enabled": False}))
    ok(api.call("PUT", ENABLE, token=alice, json={"id": demo}))
    assert stored(container)["rules"][(FRIDGE, "t")] == (True, False)
    ok(api.call("PUT", "/device/DeviceAlarmRule/update", token=alice, json={"id": rule_id, "enabled": True}))


def test_only_devices_the_caller_may_change_are_bound(api, container):
    bob, acme = api.token("bob"), api.token("acme")
    mine = ok(make(api, bob, "Bob's box"))
    before = stored(container)
    read_only = bind(api, bob, mine["id"], WAREHOUSE, container=container)
    assert (read_only.status, read_only.code) == (403, 403), read_only.body
    hidden = bind(api, bob, mine["id"], FRIDGE, container=container)  # alice's
    assert (hidden.status, hidden.code) == (404, 404)
    missing = api.call("POST", BIND, token=bob, json={"id": mine["id"], "deviceIds": [2**31 - 1]})
    assert missing.status == 404
    assert stored(container) == before
    theirs = ok(make(api, acme, "Warehouse", organizationId=acme_org(container)))
    ok(bind(api, acme, theirs["id"], WAREHOUSE, container=container))  # the owner may, into its organization's


def test_a_stranger_gets_404_on_every_call_and_changes_nothing(api, container):
    alice, acme = api.token("alice"), api.token("acme")
    demo = demo_id(api, alice)
    before = stored(container)
    fridge = device_id(container, FRIDGE)
    for method, path, kwargs in (
            ("GET", GET, {"query": {"id": demo}}),
            ("PUT", UPDATE, {"json": {"id": demo, "assetName": "Mine"}}),
            ("DELETE", DELETE, {"query": {"id": demo}}),
            ("PUT", ENABLE, {"json": {"id": demo}}),
            ("PUT", DISABLE, {"json": {"id": demo}}),
            ("POST", BIND, {"json": {"id": demo, "deviceIds": [device_id(container, WAREHOUSE)]}}),
            ("POST", UNBIND, {"json": {"id": demo, "deviceIds": [fridge]}})):
        reply = api.call(method, path, token=acme, **kwargs)
        assert (reply.status, reply.code) == (404, 404), (path, reply.body)
    assert ok(api.call("POST", PAGE, token=acme, json={}))["totalCount"] == 0
    assert api.call("GET", GET, token=alice, query={"id": demo + 1000}).status == 404
    # alice unbinding a device of hers that is not in the asset: 404, nothing moves
    assert api.call("POST", UNBIND, token=alice, json={"id": demo, "deviceIds": [fridge, device_id(container, TRUCK)]
                                                       }).status == 404
    assert stored(container) == before


HOSTILE = [
    ({"assetName": "x" * 101}, "assetName"),
    ({"assetName": "   "}, "assetName"),
    ({"assetName": "Ice 🧊"}, "assetName"),
    ({"assetName": "a\ud800b"}, "assetName"),
    ({"assetName": "a\u200db"}, "assetName"),
    ({"assetName": 123}, "assetName"),
    ({"assetName": "x" * 100_000}, "assetName"),
    ({"assetName": "ok", "assetNumber": "9" * 51}, "assetNumber"),
    ({"assetName": "ok", "volume": "1\n2"}, "volume"),
    ({"assetName": "ok", "brand": ["a"]}, "brand"),
    ({"assetName": "ok", "remark": "r" * 201}, "remark"),
    ({"assetName": "ok", "customs": [{"key": "k", "value": "v"}] * 21}, "customs"),
    ({"assetName": "ok", "customs": [{"key": "Door", "value": "1"}, {"key": " door", "value": "2"}]}, "customs"),
    ({"assetName": "ok", "customs": [{"key": "", "value": "1"}]}, "customs"),
    ({"assetName": "ok", "customs": [{"key": "k" * 51, "value": "1"}]}, "customs"),
    ({"assetName": "ok", "customs": [{"key": "k", "value": "v" * 201}]}, "customs"),
    ({"assetName": "ok", "customs": "Door=1"}, "customs"),
    ({"assetName": "ok", "enabled": False}, "enabled"),
]


@pytest.mark.parametrize(("body", "field"), HOSTILE)
def test_hostile_input_is_refused_naming_the_field_and_changes_nothing(api, container, body, field):
    alice = api.token("alice")
    demo = demo_id(api, alice)
    before = stored(container)
    for reply in (make(api, alice, **body) if "assetName" not in body else
                  api.call("POST", INSERT, token=alice, json=body),
                  api.call("PUT", UPDATE, token=alice, json={**body, "id": demo})):
        assert reply.status == 422, (body, reply.body)
        assert field in reply.body["errors"], reply.body
    assert stored(container) == before


def test_hostile_ids_are_refused_in_the_caller_s_language(api, container):
    russian = ApiClient(api.client, "ru-RU")
    alice = api.token("alice")
    demo = demo_id(api, alice)
    before = stored(container)
    for method, path, kwargs in (
            ("GET", GET, {"query": {"id": 2**40}}),
            ("GET", GET, {"query": {"id": "1; drop table assets"}}),
            ("PUT", ENABLE, {"json": {"id": -1}}),
            ("PUT", DISABLE, {"json": {"id": "one"}}),
            ("POST", BIND, {"json": {"id": demo, "deviceIds": []}}),
            ("POST", BIND, {"json": {"id": demo, "deviceIds": [2**40]}}),
            ("POST", BIND, {"json": {"id": demo, "deviceIds": list(range(1, 30))}}),
            ("POST", BIND, {"json": {"id": demo, "deviceIds": "1,2"}}),
            ("POST", PAGE, {"json": {"keyword": "x" * 1000}}),
            ("POST", PAGE, {"json": {"pageSize": 10**9}})):
        reply = russian.call(method, path, token=alice, **kwargs)
        assert reply.status == 422, (path, kwargs, reply.body)
        assert reply.body["msg"] and not reply.body["msg"].isascii(), reply.body  # said in Russian
    russian_refusal = russian.call("POST", INSERT, token=alice, json={"assetName": "x" * 101})
    assert "100" in str(russian_refusal.body["errors"]) and not str(russian_refusal.body["errors"]).isascii()
    assert stored(container) == before


# Access matrix: each call on an asset (alice's demo one), for each caller: the owner (alice),
# a stranger who holds asset.list (acme, enterprise; bob, personal, a member of acme's organization;
# admin, every permission), and those who lack it (operator, calibadmin). A call added to the
# blueprint without a row here fails test_every_call_has_a_row.
CALLS = {
    ("GET", GET): lambda a, d: {"query": {"id": a}},
    ("PUT", UPDATE): lambda a, d: {"json": {"id": a, "assetName": DEMO, "assetNumber": "PH-001"}},
    ("PUT", DISABLE): lambda a, d: {"json": {"id": a}},
    ("PUT", ENABLE): lambda a, d: {"json": {"id": a}},
    ("POST", UNBIND): lambda a, d: {"json": {"id": a, "deviceIds": [d]}},
    ("POST", BIND): lambda a, d: {"json": {"id": a, "deviceIds": [d]}},
    ("DELETE", DELETE): lambda a, d: {"query": {"id": a}},
}
ALLOWED, DENIED, HIDDEN = "allowed", 403, 404
MATRIX = {
    "alice": dict.fromkeys(CALLS, ALLOWED),
    "acme": dict.fromkeys(CALLS, HIDDEN),
    "bob": dict.fromkeys(CALLS, HIDDEN),
    "admin": dict.fromkeys(CALLS, HIDDEN),
    "operator": dict.fromkeys(CALLS, DENIED),
    "calibadmin": dict.fromkeys(CALLS, DENIED),
}


def test_every_call_has_a_row(api):
    routes = {(method, rule.rule.removeprefix("/api")) for rule in api.client.application.url_map.iter_rules()
              if rule.endpoint.startswith("assets.") for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert routes - {("POST", PAGE), ("POST", INSERT)} == set(CALLS)


@pytest.mark.parametrize("caller", list(MATRIX))
def test_access_matrix(api, container, caller):
    alice = api.token("alice")
    demo = demo_id(api, alice)
    fridge = device_id(container, FRIDGE)
    token = api.token(caller)
    for (method, path), build in CALLS.items():
        reply = api.call(method, path, token=token, **build(demo, fridge))
        expected = MATRIX[caller][(method, path)]
        if expected == ALLOWED:
            assert (reply.status, reply.code) == (200, 0), (caller, path, reply.body)
        else:
            assert reply.status == expected, (caller, path, reply.body)
    # the callers that may not, changed nothing: the demo asset is whole
    if caller != "alice":
        assert stored(container)["assets"][DEMO][4] == sorted([FREEZER, FRIDGE])


def test_someone_else_s_asset_answers_exactly_as_an_unknown_one(api, container):
    alice, acme = api.token("alice"), api.token("acme")
    demo = demo_id(api, alice)
    mine = ok(make(api, acme, "Acme's"))
    room = device_id(container, WAREHOUSE)
    before = stored(container)
    for (method, path), build in CALLS.items():
        theirs = api.call(method, path, token=acme, **build(demo, room))
        unknown = api.call(method, path, token=acme, **build(2**31 - 1, room))
        assert (theirs.status, theirs.body) == (unknown.status, unknown.body) == (404, theirs.body), path
    assert stored(container) == before
    assert ok(api.call("GET", GET, token=acme, query={"id": mine["id"]}))["assetName"] == "Acme's"
