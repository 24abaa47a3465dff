"""Steps of features/teams/*.feature: organizations, sharing and transfer through the console's API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pytest_bdd import given, parsers, then, when
from sqlalchemy import func, select, update

from adapters.persistence.models import DeviceRow, DeviceShareRow, ReadingRow

ORGS, MEMBERS = "/base/BaseOrganization/list", "/base/BaseOrganization/members"
INVITE, REMOVE = "/base/BaseAccount/invite", "/base/BaseAccount/deleteInOrganization"
ROLE = "/base/BaseRole/updateRoleInOrganization"
MESSAGES, ANSWER = "/base/BaseMessage/page", "/base/BaseMessage/answer"
DEVICES, DEVICE, UPDATE = "/device/Device/page", "/device/Device/get", "/device/Device/update"
TEMPLATES, SHARE = "/device/DevicePermissionModel", "/device/Device/share"
SHARES, REVOKE = "/device/DeviceShare/page", "/device/DeviceShare/revoke"
TRANSFER, PREVIEW = "/device/Device/transfer", "/device/Device/transferPreview"
ACME_DEVICES = {"CR2B000000001", "RCW360B0000001"}
ACME_ROOM = "CR2B000000001"
NAMED = {"Dock cold room": "CR2A000000001"}
ROLES = {"a member": "org_member", "an administrator": "org_admin"}
HISTORY = {"startTime": "2020-01-01T00:00:00+00:00", "endTime": "2020-12-31T00:00:00+00:00"}


def _ok(reply):
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


def _device_id(container, guid: str) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(DeviceRow.id).where(DeviceRow.guid == guid))


def _guids(api, token) -> set[str]:
    return {d["deviceGuid"] for d in _ok(api.call("POST", DEVICES, token=token, json={"pageSize": 200}))["data"]}


def _org(api, world, name: str) -> int:
    [org] = [o for o in _ok(api.call("GET", ORGS, token=world["tokens"]["acme"])) if o["organizationName"] == name]
    return org["organizationId"]


def _invitation(api, token) -> dict:
    return next(m for m in _ok(api.call("POST", MESSAGES, token=token, json={"kind": "invitation"}))["data"]
                if m["needsDecision"] and m["decision"] is None)


def _template_id(api, token, name: str) -> int:
    return next(t["id"] for t in _ok(api.call("POST", f"{TEMPLATES}/list", token=token, json={}))["list"]
                if t["name"] == name)


def _member_id(api, world, user: str, org: int) -> int:
    listing = _ok(api.call("GET", MEMBERS, token=world["tokens"]["acme"], query={"organizationId": org}))
    return next(m["accountId"] for m in listing["members"] if m["userName"] == user)


# --- organizations -----------------------------------------------------------------------------


@given(parsers.parse("{user} does not see Acme's devices"))
@then(parsers.parse("{user} does not see Acme's devices"))
def _no_acme_devices(api, world, user):
    assert not _guids(api, world["tokens"][user]) & ACME_DEVICES


@when(parsers.parse("{owner} invites {uep} to {name} as {role}"))
def _invites(api, world, owner, uep, name, role):
    _ok(api.call("POST", INVITE, token=world["tokens"][owner], json={
        "organizationId": _org(api, world, name), "uep": uep, "roleCode": ROLES[role]}))


@then(parsers.parse("{user}'s message centre asks her to answer an invitation to {name}"))
def _asked(api, world, user, name):
    message = _invitation(api, world["tokens"][user])
    assert name in message["content"]
    world["invitation"] = message["messageId"]


@when(parsers.parse("{user} {decision} the invitation"))
def _answers(api, world, user, decision):
    token = world["tokens"][user]
    world["invitation"] = world.get("invitation") or _invitation(api, token)["messageId"]
    world["answerer"] = user
    _ok(api.call("POST", ANSWER, token=token, json={
        "messageId": world["invitation"], "decision": {"approves": "approved", "rejects": "rejected"}[decision]}))


@then(parsers.parse("answering the invitation again is refused with code {code:d}"))
def _answered_twice(api, world, code):
    reply = api.call("POST", ANSWER, token=world["tokens"][world["answerer"]],
                     json={"messageId": world["invitation"], "decision": "approved"})
    assert (reply.status, reply.code) == (409, code)


@then(parsers.parse("{user} sees Acme's devices read-only"))
def _sees_read_only(api, world, user):
    listed = _ok(api.call("POST", DEVICES, token=world["tokens"][user], json={"pageSize": 200}))["data"]
    assert {(d["deviceGuid"], d["access"]) for d in listed if d["deviceGuid"] in ACME_DEVICES} == {
        (guid, 1) for guid in ACME_DEVICES}


def _rename_room(api, container, token):
    return api.call("PUT", UPDATE, token=token, json={"deviceId": _device_id(container, ACME_ROOM),
                                                      "remark": "checked"})


@then(parsers.parse("{user} may not change Acme's cold room"))
def _may_not_change(api, container, world, user):
    assert _rename_room(api, container, world["tokens"][user]).status == 403


@then(parsers.parse("{user} may change Acme's cold room"))
def _may_change(api, container, world, user):
    _ok(_rename_room(api, container, world["tokens"][user]))


@when(parsers.parse("{owner} makes {user} {role} of {name}"))
def _re_roles(api, world, owner, user, role, name):
    org = _org(api, world, name)
    _ok(api.call("PUT", ROLE, token=world["tokens"][owner], json={
        "organizationId": org, "accountId": _member_id(api, world, user, org), "roleCode": ROLES[role]}))


@when(parsers.parse("{owner} removes {user} from {name}"))
def _removes(api, world, owner, user, name):
    org = _org(api, world, name)
    _ok(api.call("DELETE", REMOVE, token=world["tokens"][owner],
                 query={"organizationId": org, "accountId": _member_id(api, world, user, org)}))


# --- sharing -----------------------------------------------------------------------------------


def _share(api, container, world, owner, device, sharee, template, end=None):
    token = world["tokens"][owner]
    _ok(api.call("POST", SHARE, token=token, json={
        "deviceIds": [_device_id(container, NAMED[device])], "account": sharee,
        "templateId": _template_id(api, token, template), "endTime": end}))


@given(parsers.parse('{owner} shares her {device} with {sharee} under "{template}" for 1 day'))
def _shares_for_a_day(api, container, clock, world, owner, device, sharee, template):
    _share(api, container, world, owner, device, sharee, template, (clock.now() + timedelta(days=1)).isoformat())


@given(parsers.parse('{owner} shares her {device} with {sharee} under "{template}"'))
@when(parsers.parse('{owner} shares her {device} with {sharee} under "{template}"'))
def _shares(api, container, world, owner, device, sharee, template):
    _share(api, container, world, owner, device, sharee, template)


@then(parsers.parse("{user}'s device list shows the {device} shared by {owner}"))
def _listed_as_shared(api, world, user, device, owner):
    listed = _ok(api.call("POST", DEVICES, token=world["tokens"][user], json={"pageSize": 200}))["data"]
    [row] = [d for d in listed if d["deviceGuid"] == NAMED[device]]
    assert (row["sharedWithMe"], row["ownerName"], row["access"]) == (True, owner, 1)


@then(parsers.parse("{user} can read the {device}'s chart"))
def _reads_chart(api, container, world, user, device):
    _ok(api.call("POST", "/device/Device/history", token=world["tokens"][user],
                 json={"deviceId": _device_id(container, NAMED[device]), **HISTORY}))


@then(parsers.parse("{user} can read the {device}'s parameters"))
def _reads_params(api, container, world, user, device):
    _ok(api.call("GET", "/device/DeviceParam/get", token=world["tokens"][user],
                 query={"deviceId": _device_id(container, NAMED[device])}))


@then(parsers.parse("every change {user} tries on the {device} is refused as read-only"))
def _every_change_refused(api, container, world, user, device):
    token, target = world["tokens"][user], _device_id(container, NAMED[device])
    rules = _ok(api.call("POST", "/device/DeviceAlarmRule/page", token=token, json={"deviceId": target}))["data"]
    tries = [("PUT", UPDATE, {"json": {"deviceId": target, "deviceName": "Mine now"}}),
             ("PUT", "/device/DeviceAlarmRule/update", {"json": {"id": rules[0]["id"], "enabled": False}}),
             ("DELETE", "/device/DeviceAlarmRule/delete", {"query": {"id": rules[0]["id"]}}),
             ("POST", "/device/DeviceParam/save", {"json": {"deviceId": target, "displayPrecision": 2,
                                                            "temperatureUnit": "F", "uploadInterval": 600,
                                                            "recordInterval": 120}}),
             ("DELETE", "/device/Device/delete", {"query": {"deviceId": target}}),
             ("POST", SHARE, {"json": {"deviceIds": [target], "account": "acme", "templateId": 1}}),
             ("POST", TRANSFER, {"json": {"deviceIds": [target], "account": "acme"}})]
    for method, path, arguments in tries:
        assert api.call(method, path, token=token, **arguments).status == 403, path
    assert _ok(api.call("GET", DEVICE, token=token, query={"deviceId": target}))["deviceName"] == "Dock cold room"


@given(parsers.parse('{owner} has a template "{name}" granting the chart visible'))
def _chart_template(api, world, owner, name):
    _ok(api.call("POST", f"{TEMPLATES}/insert", token=world["tokens"][owner], json={
        "name": name, "permissions": [{"code": "chart", "viewStatus": 1, "setStatus": 0}]}))


@when(parsers.parse('{owner} changes "{name}" to grant the parameters operable too'))
def _widen_template(api, world, owner, name):
    token = world["tokens"][owner]
    _ok(api.call("PUT", f"{TEMPLATES}/update", token=token, json={
        "id": _template_id(api, token, name), "name": name,
        "permissions": [{"code": "chart", "viewStatus": 1, "setStatus": 0},
                        {"code": "params", "viewStatus": 1, "setStatus": 1}]}))


@then(parsers.parse("{user} is refused the {device}'s alarm records and parameters"))
def _refused_elements(api, container, world, user, device):
    token, target = world["tokens"][user], _device_id(container, NAMED[device])
    assert api.call("POST", "/device/DeviceAlarm/page", token=token, json={"deviceId": target}).status == 403
    assert api.call("GET", "/device/DeviceParam/get", token=token, query={"deviceId": target}).status == 403


@when(parsers.parse("{owner} revokes her share of the {device} with {sharee}"))
def _revokes(api, world, owner, device, sharee):
    token = world["tokens"][owner]
    rows = _ok(api.call("POST", SHARES, token=token, json={"direction": "mine"}))["data"]
    ids = [r["id"] for r in rows if r["deviceGuid"] == NAMED[device] and r["shareeName"] == sharee]
    assert _ok(api.call("POST", REVOKE, token=token, json={"ids": ids})) == {"revoked": 1}


@then(parsers.parse("{user} does not see the {device}"))
def _does_not_see(api, container, world, user, device):
    token = world["tokens"][user]
    assert NAMED[device] not in _guids(api, token)
    reply = api.call("GET", DEVICE, token=token, query={"deviceId": _device_id(container, NAMED[device])})
    assert reply.status == 404


@when("the day of the share has passed")
def _share_day_passed(container):
    # A share ends by the database's clock (statements kept to run again read it there), which
    # is the real one: the scenario moves the end into the real past, not its own clock.
    with container.session_factory()() as session:
        session.execute(update(DeviceShareRow).where(DeviceShareRow.revoked_at.is_(None))
                        .values(ends_at=datetime.now(UTC) - timedelta(minutes=1)))
        session.commit()


@then(parsers.parse("{owner}'s shares list it as ended"))
def _listed_as_ended(api, world, owner):
    rows = _ok(api.call("POST", SHARES, token=world["tokens"][owner], json={"direction": "mine"}))["data"]
    assert [r["active"] for r in rows] == [False]


# --- transfer ----------------------------------------------------------------------------------


@when(parsers.parse("{owner} asks what a transfer of her {device} would drop"))
def _previews(api, container, world, owner, device):
    world["preview"] = _ok(api.call("POST", PREVIEW, token=world["tokens"][owner],
                                    json={"deviceIds": [_device_id(container, NAMED[device])]}))


@then(parsers.parse("she is told it drops {count:d} share"))
def _told(world, count):
    assert world["preview"]["shares"] == count


@when(parsers.parse("{owner} transfers her {device} to {user}"))
def _transfers(api, container, world, owner, device, user):
    with container.session_factory()() as session:
        world["readings"] = session.scalar(select(func.count()).select_from(ReadingRow).where(
            ReadingRow.device_id == _device_id(container, NAMED[device])))
    reply = _ok(api.call("POST", TRANSFER, token=world["tokens"][owner],
                         json={"deviceIds": [_device_id(container, NAMED[device])], "account": user}))
    assert reply["transferred"] == 1


@then(parsers.parse("{user} owns the {device} with all its readings"))
def _owns(api, container, world, user, device):
    target = _device_id(container, NAMED[device])
    got = _ok(api.call("GET", DEVICE, token=world["tokens"][user], query={"deviceId": target}))
    assert (got["isOwner"], got["access"]) == (True, 2)
    with container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(ReadingRow).where(
            ReadingRow.device_id == target)) == world["readings"]
