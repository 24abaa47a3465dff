"""Moving devices into an organization and out over the API (issue 17, "Devices belong to people and
teams"), SQLite and PostgreSQL with the demo teams: the owner who administers the organization
moves its devices in, its members see them at once by their role, the owner or an administrator
takes them out; a read-only member, a stranger and the operator change nothing; the move is an
operation log entry, shares stay, and an organization holding devices is dissolved only once they
are out."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from adapters.persistence.models import (
    AccountRow,
    DeviceRow,
    DeviceShareRow,
    OrganizationMemberRow,
    OrganizationRow,
    RoleRow,
)
from tests.integration.test_operation_log_api import entries
from tests.support.alarms import device_id
from tests.support.api import ok
from tests.support.demo_copy import seeded

pytestmark = pytest.mark.usefixtures("demo")

MOVE, DEVICES = "/device/Device/changeOrganization", "/device/Device/page"
ROOM, DOOR = "CR2B000000001", "RCW360B0000001"  # acme's, in Acme's organization
ALICE_ROOM = "RCW360A0000001"


def organizations(container) -> dict[str, int | None]:
    """Every device's organization by GUID."""
    with container.session_factory()() as session:
        return dict(session.execute(select(DeviceRow.guid, DeviceRow.organization_id)).all())


def acme_org(container) -> int:
    with container.session_factory()() as session:
        return session.scalars(select(OrganizationRow.id).where(OrganizationRow.name == "Acme Cold Chain")).one()


def move(api, token, ids, organization_id):
    return api.call("POST", MOVE, token=token, json={"deviceIds": ids, "organizationId": organization_id})


def seen(api, token) -> dict[str, str | None]:
    page = ok(api.call("POST", DEVICES, token=token, json={"pageSize": 50}))
    return {d["deviceGuid"]: d["organizationName"] for d in page["data"]}


@pytest.fixture
def teams(app):
    seeded(app, history=False, teams=True)


def test_the_owner_takes_devices_out_and_back_in_and_members_follow_at_once(api, container, teams):
    acme, carol, dave = api.token("acme"), api.token("carol"), api.token("dave")
    org, room, door = acme_org(container), device_id(container, ROOM), device_id(container, DOOR)
    assert seen(api, dave)[ROOM] == "Acme Cold Chain"
    before = len(entries(container))
    assert ok(move(api, acme, [room, door, room], None)) == {"moved": 2}
    assert (organizations(container)[ROOM], organizations(container)[DOOR]) == (None, None)
    assert ROOM not in seen(api, dave) and ROOM not in seen(api, carol)  # at once
    assert seen(api, acme)[ROOM] is None
    [entry] = entries(container)[before:]
    assert (entry["action"], entry["actor"], entry["outcome"]) == ("Device.changeOrganization", "acme", "succeeded")
    assert {fields["organization_id"][0] for _, _, fields in entry["changes"] if "organization_id" in fields} == {org}
    assert ok(move(api, acme, [room], org)) == {"moved": 1}
    assert seen(api, dave)[ROOM] == "Acme Cold Chain"
    assert ok(move(api, carol, [room], None)) == {"moved": 1}  # an administrator takes it out


def test_only_the_owner_puts_a_device_in_and_only_where_they_administer(api, container, teams):
    acme, carol, dave, alice = (api.token(n) for n in ("acme", "carol", "dave", "alice"))
    org, room = acme_org(container), device_id(container, ROOM)
    ok(move(api, acme, [room], None))
    before = organizations(container)
    for token, ids, target, status in (
            (carol, [room], org, 404),  # carol no longer sees it: it is acme's alone now
            (alice, [device_id(container, ALICE_ROOM)], org, 404),  # not in Acme's organization
            (dave, [device_id(container, DOOR)], None, 403),  # a read-only member
            (alice, [device_id(container, DOOR)], None, 404),  # a stranger
            (acme, [room, device_id(container, ALICE_ROOM)], org, 404),  # one not acme's: none moves
            (acme, [room], org + 1000, 404)):
        reply = move(api, token, ids, target)
        assert (reply.status, reply.code) == (status, status), (ids, reply.body)
    assert organizations(container) == before
    # carol administers Acme but does not own acme's cold room: she may not take it to her own organization
    ok(move(api, acme, [room], org))
    carols = ok(api.call("POST", "/base/BaseOrganization/insert", token=carol, json={"organizationName": "Carol Co"}))
    reply = move(api, carol, [room], carols["organizationId"])
    assert (reply.status, reply.code) == (403, 403), reply.body
    assert organizations(container)[ROOM] == org


def test_an_organization_where_the_owner_only_reads_is_not_one_to_move_into(api, container, teams):
    acme, carol = api.token("acme"), api.token("carol")
    room = device_id(container, ROOM)
    ok(move(api, acme, [room], None))
    theirs = ok(api.call("POST", "/base/BaseOrganization/insert", token=carol,
                         json={"organizationName": "Carol Co"}))["organizationId"]
    with container.session_factory()() as session:  # acme a plain member of carol's
        acme_id = session.scalars(select(AccountRow.id).where(AccountRow.user_name == "acme")).one()
        member = session.scalars(select(RoleRow.id).where(RoleRow.code == "org_member")).one()
        session.add(OrganizationMemberRow(organization_id=theirs, account_id=acme_id, role_id=member))
        session.commit()
    api.language = "de-DE"
    reply = move(api, acme, [room], theirs)
    assert (reply.status, reply.code) == (403, 403), reply.body
    assert "Administrator" in reply.body["msg"], reply.body
    assert organizations(container)[ROOM] is None


def test_shares_stay_and_the_operator_changes_nothing(api, container, teams):
    acme, alice = api.token("acme"), api.token("alice")
    room = device_id(container, ROOM)
    ok(api.call("POST", "/device/Device/share", token=acme, json={"deviceIds": [room], "account": "alice",
                                                                     "templateId": _view_only(api, acme)}))
    assert ROOM in seen(api, alice)
    ok(move(api, acme, [room], None))
    with container.session_factory()() as session:
        assert session.scalars(select(DeviceShareRow).where(DeviceShareRow.device_id == room,
                                                            DeviceShareRow.revoked_at.is_(None))).first()
    assert ROOM in seen(api, alice)
    before = organizations(container)
    assert move(api, api.token("operator"), [room], None).status in (403, 404)
    assert organizations(container) == before


def _view_only(api, token) -> int:
    templates = ok(api.call("POST", "/device/DevicePermissionModel/list", token=token, json={}))["list"]
    return next(t["id"] for t in templates if t["name"] == "View only")


def test_a_device_leaves_its_old_owner_s_project_and_one_in_an_asset_stays(api, container, teams):
    acme = api.token("acme")
    room = device_id(container, ROOM)
    ok(move(api, acme, [room], None))
    with container.session_factory()() as session:
        assert session.get(DeviceRow, room).project_id is None  # Warehouse 1 is the organization's
    asset = ok(api.call("POST", "/device/Asset/insert", token=acme, json={"assetName": "Cold room"}))
    ok(api.call("POST", "/device/Asset/bindDevice", token=acme, json={"id": asset["id"], "deviceIds": [room]}))
    api.language = "ru-RU"
    reply = move(api, acme, [room], acme_org(container))
    assert reply.status == 422 and "актив" in reply.body["errors"]["deviceIds"][0], reply.body
    assert organizations(container)[ROOM] is None


def test_dissolving_waits_until_the_devices_are_moved_out(api, container):
    acme = api.token("acme")
    org = acme_org(container)
    acme_devices = [device_id(container, g) for g, o in organizations(container).items() if o == org]
    refused = api.call("DELETE", "/base/BaseOrganization/delete", token=acme, query={"organizationId": org})
    assert (refused.status, refused.code) == (409, 1701) and "move them out" in refused.body["msg"]
    ok(move(api, acme, acme_devices, None))
    ok(api.call("DELETE", "/base/BaseOrganization/delete", token=acme, query={"organizationId": org}))
    assert org not in set(organizations(container).values())


@pytest.mark.parametrize("body", [
    {"deviceIds": [], "organizationId": None},
    {"deviceIds": list(range(1, 202)), "organizationId": None},
    {"deviceIds": [1], "organizationId": 0},
    {"deviceIds": [1], "organizationId": 2**31},
    {"deviceIds": [1]},
    {"deviceIds": ["1; drop table devices"], "organizationId": None},
])
def test_hostile_moves_are_refused_and_nothing_moves(api, container, body):
    before = organizations(container)
    reply = api.call("POST", MOVE, token=api.token("acme"), json=body)
    assert reply.status == 422, reply.body
    assert organizations(container) == before
