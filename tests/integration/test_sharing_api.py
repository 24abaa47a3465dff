"""Device sharing and transfer over the API (issue 17), SQLite and PostgreSQL with the demo data:
alice shares her cold room and fridge with bob under a template; bob reads what it grants and
nothing else, on every endpoint, and writes nothing it does not grant; alice revokes, a share
ends, a template is changed under a share; alice transfers a device to bob with its history.
Hostile input gets a 4xx in the caller's language and changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from adapters.persistence.models import (
    AlarmRecipientRow,
    AlarmRuleRow,
    AutoRenewAgreementRow,
    DeviceRow,
    DeviceShareRow,
    ReadingRow,
)
from core.devices.grants import Element
from entrypoints.api.sharing import schemas as s
from tests.integration.test_alarm_push_api import setting
from tests.integration.test_attack_access import (
    NOT_FOUND,
    READ_ONLY,
    RULES,
    A,
    D,
    account_id,
    catalogue,
    device_id,
    member_writes,
    snapshot,
    warehouse_rule,
)
from tests.integration.test_device_tabs_api import RECORD
from tests.integration.test_devices_api import conforms
from tests.support.alarms import report
from tests.support.api import ApiClient, ok
from tests.support.demo_copy import seeded

pytestmark = pytest.mark.usefixtures("recharge_demo")

T = "/device/DevicePermissionModel"
SHARE, SHARES, REVOKE, CHANGE = "/device/Device/share", "/device/DeviceShare/page", "/device/DeviceShare/revoke", \
    "/device/DeviceShare/update"
TRANSFER, PREVIEW = "/device/Device/transfer", "/device/Device/transferPreview"
DOCK, FRIDGE = "CR2A000000001", "RCW360A0000003"  # alice's cold room and fridge
HISTORY = {"startTime": "2026-01-01T00:00:00+00:00", "endTime": "2026-12-31T00:00:00+00:00"}
NOT_GRANTED = "Your permissions on this device do not include this"


def entries(**elements: tuple[int, int]) -> list[dict]:
    return [{"code": code, "viewStatus": v, "setStatus": o} for code, (v, o) in elements.items()]


def builtin(api: ApiClient, token: str, name: str) -> int:
    return next(t["id"] for t in ok(api.call("POST", f"{T}/list", token=token, json={}))["list"]
                if t["builtIn"] and t["name"] == name)


def share(api, token, devices, account="bob", template=None, end=None):
    return api.call("POST", SHARE, token=token, json={
        "deviceIds": devices, "account": account, "templateId": template or builtin(api, token, "View only"),
        "endTime": end})


@pytest.fixture
def alice(api):
    return api.token("alice")


@pytest.fixture
def bob(api):
    return api.token("bob")


@pytest.fixture
def shared(api, container, clock, alice):
    """alice's cold room (with an alarm rule that raised an alarm, and an auto-renewal) and fridge,
    as test_attack_access's organization, not yet shared."""
    room, door = device_id(container, DOCK), device_id(container, FRIDGE)
    [existing] = [r for r in ok(api.call("POST", f"{RULES}/page", token=alice, json={"deviceId": room}))["data"]
                  if r["probe"] == "t"]
    body = {k: v for k, v in warehouse_rule(room).items() if k not in ("deviceId", "probe")}
    rule = ok(api.call("PUT", f"{RULES}/update", token=alice, json={**body, "id": existing["id"]}))
    report(container, DOCK, clock.now() - timedelta(minutes=5), (0, 12.0))
    alarm = ok(api.call("POST", f"{A}/page", token=alice, json={"deviceId": room}))["data"][0]
    with container.session_factory()() as session:
        row = session.get(DeviceRow, room)
        session.add(AutoRenewAgreementRow(device_id=room, level_id=row.level_id, level_year_id=1, pay_type=1,
                                          total_fee_cents=100, status=1, next_execution_at=row.service_expires_at,
                                          created_at=clock.now()))
        session.commit()
    return {"room": room, "door": door, "rule": rule, "alarm": alarm}


def owner_writes(org: dict) -> list[tuple[str, str, str, dict]]:
    room = org["room"]
    return [
        ("share it on", "POST", SHARE, {"json": {"deviceIds": [room], "account": "acme", "templateId": 1}}),
        ("transfer it", "POST", TRANSFER, {"json": {"deviceIds": [room], "account": "bob"}}),
        ("preview a transfer", "POST", PREVIEW, {"json": {"deviceIds": [room]}}),
        ("scrap it", "POST", f"{D}/scrap", {"json": {"deviceIds": [room]}}),
        ("clear its data", "POST", f"{D}/clearData", {"query": {"deviceId": room}}),
        ("move it to a project", "POST", f"{D}/changeProject", {"json": {"deviceIds": [room], "projectId": None}}),
        ("send parameters", "POST", "/device/DeviceParam/save", {"json": {
            "deviceId": room, "displayPrecision": 2, "temperatureUnit": "F", "uploadInterval": 600,
            "recordInterval": 120}}),
        ("add a maintenance record", "POST", "/device/DeviceMaintenance/insert", {"json": {
            "deviceId": room, **RECORD}}),
        ("save push settings", "PUT", "/device/DeviceAlarmPushSetting/update", {"json": setting(room)}),
    ]


def test_bob_reads_a_view_only_share_and_every_write_is_refused(api, container, alice, bob, shared):
    assert ok(share(api, alice, [shared["room"], shared["door"]])) == {
        "shared": 2, "account": {"id": account_id(container, "bob"), "userName": "bob"}}
    device = ok(api.call("GET", f"{D}/get", token=bob, query={"deviceId": shared["room"]}))
    assert (device["sharedWithMe"], device["isOwner"], device["access"], device["ownerName"]) == (
        True, False, 1, "alice")
    assert {(p["code"], p["viewStatus"], p["setStatus"]) for p in device["permissions"]} == {
        (e.code, 1, 0) for e in Element}
    listed = {d["deviceGuid"]: d["sharedWithMe"] for d in ok(api.call("POST", f"{D}/page", token=bob, json={}))["data"]}
    assert listed[DOCK] is True and listed[FRIDGE] is True
    assert ok(api.call("POST", f"{D}/history", token=bob, json={"deviceId": shared["room"], **HISTORY}))
    assert [a["id"] for a in ok(api.call("POST", f"{A}/page", token=bob, json={"deviceId": shared["room"]}))[
        "data"]] == [shared["alarm"]["id"]]
    offer = catalogue(api, bob, shared["room"])
    before = snapshot(container)
    answers = {name: (r.status, r.body.get("msg")) for name, method, path, args in member_writes(shared, offer)
               for r in [api.call(method, path, token=bob, **args)]}
    assert answers == {name: (403, READ_ONLY) for name, *_ in member_writes(shared, offer)}
    for name, method, path, args in owner_writes(shared):
        assert api.call(method, path, token=bob, **args).status == 403, name
    assert snapshot(container) == before


def test_a_template_hides_what_it_does_not_grant_on_every_endpoint(api, container, alice, bob, shared):
    chart = ok(api.call("POST", f"{T}/insert", token=alice, json={
        "name": "Chart only", "permissions": entries(chart=(1, 0), info=(0, 0))}))
    conforms(api.call("POST", f"{T}/list", token=alice, json={}), s.TemplateListSchema)
    assert ok(share(api, alice, [shared["room"]], template=chart["id"]))["shared"] == 1
    room = shared["room"]
    device = ok(api.call("GET", f"{D}/get", token=bob, query={"deviceId": room}))
    assert (device["temperature"], device["lastReadingAt"], device["position"], device["simIccid"]) == (
        None, None, None, None)
    assert ok(api.call("POST", f"{D}/history", token=bob, json={"deviceId": room, **HISTORY}))
    hidden = [("GET", f"{RULES}/get", {"query": {"id": shared["rule"]["id"]}}),
              ("POST", f"{A}/page", {"json": {"deviceId": room}}),
              ("GET", "/device/DeviceParam/get", {"query": {"deviceId": room}}),
              ("GET", "/device/DeviceAlarmPushSetting/get", {"query": {"deviceId": room}}),
              ("POST", f"{D}/track", {"json": {"deviceId": room, **HISTORY}}),
              ("POST", "/device/DeviceMaintenance/page", {"json": {"deviceId": room}}),
              ("POST", "/device/DeviceOperationLog/page", {"json": {"deviceId": room}}),
              ("GET", f"{D}/credentials", {"query": {"deviceId": room}})]
    for method, path, args in hidden:
        reply = api.call(method, path, token=bob, **args)
        assert (reply.status, reply.body["msg"]) == (403, NOT_GRANTED), path
    # nor through the lists that gather every device's
    assert shared["alarm"]["id"] not in [a["id"] for a in ok(api.call("POST", f"{A}/page", token=bob, json={}))[
        "data"]]
    assert room not in [r["deviceId"] for r in ok(api.call("POST", f"{RULES}/page", token=bob, json={}))["data"]]
    markers = ok(api.call("POST", f"{D}/markers", token=bob, json={}))
    assert room not in [m["deviceId"] for m in markers["markers"]]
    api.language = "ru-RU"
    assert api.call("POST", f"{A}/page", token=bob, json={"deviceId": room}).body["msg"] != NOT_GRANTED


def test_a_template_that_grants_operating_lets_exactly_that_through(api, container, alice, bob, shared):
    push = ok(api.call("POST", f"{T}/insert", token=alice, json={
        "name": "Alarms", "permissions": entries(push=(0, 1), alarms=(1, 1))}))
    assert push["permissions"][Element.PUSH]["viewStatus"] == 1  # operable implies visible
    ok(share(api, alice, [shared["room"]], template=push["id"]))
    rule = shared["rule"]
    assert ok(api.call("PUT", f"{RULES}/update", token=bob, json={"id": rule["id"], "upperLimit": 9.0}))[
        "upperLimit"] == 9.0
    assert ok(api.call("POST", f"{A}/deal", token=bob, json={"id": shared["alarm"]["id"], "handling": 2}))
    assert api.call("PUT", f"{D}/update", token=bob, json={"deviceId": shared["room"], "remark": "x"}).status == 403
    # the template changes, and the share with it, at once
    ok(api.call("PUT", f"{T}/update", token=alice, json={"id": push["id"], "name": "Alarms",
                                                         "permissions": entries(push=(1, 0))}))
    reply = api.call("PUT", f"{RULES}/update", token=bob, json={"id": rule["id"], "upperLimit": 10.0})
    assert (reply.status, reply.body["msg"]) == (403, READ_ONLY)
    in_use = api.call("DELETE", f"{T}/delete", token=alice, query={"id": push["id"]})
    assert (in_use.status, in_use.code) == (409, 1803)


def test_revoking_leaving_and_the_end_time_take_the_device_away_at_once(api, container, clock, alice, bob, shared):
    room, door = shared["room"], shared["door"]
    ok(share(api, alice, [room, door], end=(clock.now() + timedelta(days=7)).isoformat()))
    mine = ok(api.call("POST", SHARES, token=alice, json={"direction": "mine"}))
    assert {(r["deviceGuid"], r["shareeName"], r["templateName"], r["active"]) for r in mine["data"]} == {
        (DOCK, "bob", "View only", True), (FRIDGE, "bob", "View only", True)}
    with_me = ok(api.call("POST", SHARES, token=bob, json={"direction": "withMe", "keyword": "a0000003"}))
    [fridge] = with_me["data"]
    assert (fridge["ownerName"], fridge["deviceGuid"]) == ("alice", FRIDGE)
    ids = {r["deviceGuid"]: r["id"] for r in mine["data"]}
    assert ok(api.call("POST", REVOKE, token=alice, json={"ids": [ids[DOCK]]})) == {"revoked": 1}
    assert api.call("GET", f"{D}/get", token=bob, query={"deviceId": room}).body == NOT_FOUND
    assert ok(api.call("POST", REVOKE, token=bob, json={"ids": [ids[FRIDGE]]})) == {"revoked": 1}  # bob leaves
    assert {DOCK, FRIDGE} & {d["deviceGuid"] for d in ok(api.call("POST", f"{D}/page", token=bob, json={}))["data"]} \
        == set()
    ok(share(api, alice, [room]))
    with container.session_factory()() as session:  # its end passes
        session.execute(update(DeviceShareRow).values(ends_at=clock.now() - timedelta(minutes=1)))
        session.commit()
    assert api.call("GET", f"{D}/get", token=bob, query={"deviceId": room}).body == NOT_FOUND
    assert ok(api.call("POST", SHARES, token=bob, json={"direction": "withMe"}))["data"] == []
    assert [r["active"] for r in ok(api.call("POST", SHARES, token=alice, json={"direction": "mine"}))["data"]] == [
        False]
    ok(share(api, alice, [room]))  # sharing again renews it
    assert ok(api.call("GET", f"{D}/get", token=bob, query={"deviceId": room}))["sharedWithMe"] is True


def test_a_transfer_moves_the_device_with_its_history_and_drops_its_shares(api, container, alice, bob, shared):
    room = shared["room"]
    ok(share(api, alice, [room], account="acme"))
    with container.session_factory()() as session:
        readings = session.scalar(select(func.count()).select_from(ReadingRow).where(ReadingRow.device_id == room))
    assert readings
    assert ok(api.call("POST", PREVIEW, token=alice, json={"deviceIds": [room]})) == {
        "devices": 1, "shares": 1, "projects": 0, "organizations": 0}
    moved = ok(api.call("POST", TRANSFER, token=alice, json={"deviceIds": [room], "account": "BOB"}))
    assert (moved["transferred"], moved["sharesDropped"], moved["account"]["userName"]) == (1, 1, "bob")
    assert api.call("GET", f"{D}/get", token=alice, query={"deviceId": room}).body == NOT_FOUND
    assert api.call("GET", f"{D}/get", token=api.token("acme"), query={"deviceId": room}).body == NOT_FOUND
    device = ok(api.call("GET", f"{D}/get", token=bob, query={"deviceId": room}))
    assert (device["isOwner"], device["access"], device["sharedWithMe"]) == (True, 2, False)
    history = ok(api.call("POST", f"{D}/history", token=bob, json={"deviceId": room, **HISTORY}))
    assert history["total"] == readings
    assert [r["id"] for r in ok(api.call("POST", f"{RULES}/page", token=bob, json={"deviceId": room}))["data"]] == [
        shared["rule"]["id"]]
    with container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(AlarmRecipientRow).join(
            AlarmRuleRow, AlarmRuleRow.id == AlarmRecipientRow.rule_id).where(AlarmRuleRow.device_id == room)) == 0
        assert session.scalar(select(AutoRenewAgreementRow.status).where(AutoRenewAgreementRow.device_id == room)) == 0


@pytest.mark.parametrize("path,body,status,field_or_code", [
    (f"{T}/insert", {"name": "Elevenchars", "permissions": []}, 422, "name"),
    (f"{T}/insert", {"name": "Fridge \U0001f9ca", "permissions": []}, 422, "name"),
    (f"{T}/insert", {"name": "\ud800", "permissions": []}, 422, "name"),
    (f"{T}/insert", {"name": "X", "permissions": entries(root=(1, 1))}, 422, "permissions"),
    (f"{T}/insert", {"name": "view ONLY", "permissions": []}, 409, 1805),
    (f"{T}/insert", {"name": "X", "permissions": [[[[[]]]]]}, 422, "permissions"),
    (SHARE, {"deviceIds": ["room"], "account": "b", "templateId": 1}, 422, "account"),
    (SHARE, {"deviceIds": ["room"], "account": "alice", "templateId": 1}, 409, 1802),
    (SHARE, {"deviceIds": ["room"], "account": "nobody-here", "templateId": 1}, 409, 1801),
    (SHARE, {"deviceIds": ["room"], "account": "bob", "templateId": 1, "endTime": "2001-01-01T00:00:00+00:00"},
     422, "endTime"),
    (SHARE, {"deviceIds": list(range(1, 202)), "account": "bob", "templateId": 1}, 422, "deviceIds"),
    (SHARE, {"deviceIds": ["room"], "account": "bob", "templateId": 10**30}, 422, "_schema"),
    (TRANSFER, {"deviceIds": ["room"], "account": "alice"}, 409, 1802),
])
def test_hostile_input_is_refused_and_changes_nothing(api, container, alice, shared, path, body, status,
                                                      field_or_code):
    body = {**body, "deviceIds": [shared["room"] if i == "room" else i for i in body.get("deviceIds", [])]} \
        if "deviceIds" in body else body
    before = snapshot(container)
    with container.session_factory()() as session:
        shares = session.scalar(select(func.count()).select_from(DeviceShareRow))
    reply = api.call("POST", path, token=alice, json=body)
    assert reply.status == status, reply.body
    if isinstance(field_or_code, str):
        assert field_or_code in (reply.body["data"] or {}).get("errors", reply.body["data"] or {}) or \
            field_or_code in str(reply.body), reply.body
    elif field_or_code:
        assert reply.code == field_or_code
    assert snapshot(container) == before
    with container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(DeviceShareRow)) == shares


def test_strangers_get_404_for_others_devices_templates_and_shares(api, container, alice, shared):
    acme = api.token("acme")
    mine = ok(api.call("POST", f"{T}/insert", token=alice, json={"name": "Mine", "permissions": []}))
    ok(share(api, alice, [shared["room"]], template=mine["id"]))
    [row] = ok(api.call("POST", SHARES, token=alice, json={"direction": "mine"}))["data"]
    for method, path, args in [
        ("POST", SHARE, {"json": {"deviceIds": [shared["room"]], "account": "bob", "templateId": 1}}),
        ("POST", TRANSFER, {"json": {"deviceIds": [shared["room"]], "account": "bob"}}),
        ("POST", PREVIEW, {"json": {"deviceIds": [shared["room"]]}}),
        ("PUT", f"{T}/update", {"json": {"id": mine["id"], "name": "Taken", "permissions": []}}),
        ("DELETE", f"{T}/delete", {"query": {"id": mine["id"]}}),
        ("POST", REVOKE, {"json": {"ids": [row["id"]]}}),
        ("PUT", CHANGE, {"json": {"id": row["id"], "templateId": 1}}),
    ]:
        assert api.call(method, path, token=acme, **args).body == NOT_FOUND, path
    # nor may acme share its own device under alice's template
    room = device_id(container, "CR2B000000001")
    assert api.call("POST", SHARE, token=acme, json={"deviceIds": [room], "account": "bob",
                                                     "templateId": mine["id"]}).body == NOT_FOUND


def test_the_demo_teams_share_and_an_administrator_may_not_give_the_organization_s_devices_away(api, app, container):
    seeded(app, history=False, teams=True)
    bob, carol = api.token("bob"), api.token("carol")
    cold_room_a = device_id(container, "RCW360A0000001")
    device = ok(api.call("GET", f"{D}/get", token=bob, query={"deviceId": cold_room_a}))
    assert (device["sharedWithMe"], device["ownerName"]) == (True, "alice")
    room = device_id(container, "CR2B000000001")  # acme's, in the organization carol administers
    assert ok(api.call("GET", f"{D}/get", token=carol, query={"deviceId": room}))["access"] == 2
    for path, body in ((SHARE, {"deviceIds": [room], "account": "bob", "templateId": 1}),
                       (TRANSFER, {"deviceIds": [room], "account": "carol0"}),
                       (PREVIEW, {"deviceIds": [room]})):
        reply = api.call("POST", path, token=carol, json=body)
        assert (reply.status, reply.body["msg"]) == (403, "Only the owner of the device may do this"), path


def test_a_transferred_device_leaves_the_old_owner_s_disabled_asset_with_its_alarms_on(api, container, alice, shared):
    room = shared["room"]
    asset = ok(api.call("POST", "/device/Asset/insert", token=alice, json={"assetName": "Dock"}))
    ok(api.call("POST", "/device/Asset/bindDevice", token=alice, json={"id": asset["id"], "deviceIds": [room]}))
    ok(api.call("PUT", "/device/Asset/disable", token=alice, json={"id": asset["id"]}))
    with container.session_factory()() as session:
        assert session.scalar(select(AlarmRuleRow.enabled).where(AlarmRuleRow.id == shared["rule"]["id"])) is False
    ok(api.call("POST", TRANSFER, token=alice, json={"deviceIds": [room], "account": "bob"}))
    with container.session_factory()() as session:
        device = session.get(DeviceRow, room)
        assert (device.asset_id, device.status) == (None, 1)
        assert session.scalar(select(AlarmRuleRow.enabled).where(AlarmRuleRow.id == shared["rule"]["id"])) is True
    assert ok(api.call("GET", "/device/Asset/get", token=alice, query={"id": asset["id"]}))["devices"] == []
