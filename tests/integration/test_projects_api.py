"""Projects over the API (issue 17), SQLite and PostgreSQL with the demo data: acme makes, finds,
renames and deletes projects (its own and its organization's) and moves devices in and out from
the device list; an organization's administrator changes its projects, a read-only member reads
them; the access rows (owner, read-only organization member, stranger) and hostile input change
nothing and get a 4xx in the caller's language."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from adapters.persistence.models import DeviceRow, OrganizationRow, ProjectRow
from entrypoints.api.projects import schemas as s
from tests.integration.test_devices_api import conforms
from tests.support.alarms import device_id
from tests.support.api import ApiClient, ok
from tests.support.demo_copy import seeded

pytestmark = pytest.mark.usefixtures("demo")

PAGE, GET, INSERT, UPDATE, DELETE = (f"/device/Project/{n}" for n in ("page", "get", "insert", "update", "delete"))
MOVE, DEVICES = "/device/Device/changeProject", "/device/Device/page"
ROOM, DOOR, ALICE_ROOM = "CR2B000000001", "RCW360B0000001", "RCW360A0000001"  # acme's two; one of alice's


def projects_of(container) -> dict[str, dict]:
    """Every stored project by name, with the GUIDs of its devices."""
    with container.session_factory()() as session:
        rows = {p.id: p for p in session.scalars(select(ProjectRow))}
        devices = session.execute(select(DeviceRow.guid, DeviceRow.project_id)).all()
    return {p.name: {"remark": p.remark, "owner": p.owner_account_id, "organization": p.organization_id,
                     "guids": sorted(guid for guid, project_id in devices if project_id == p.id)}
            for p in rows.values()}


def acme_org(container) -> int:
    with container.session_factory()() as session:
        return session.scalars(select(OrganizationRow.id).where(OrganizationRow.name == "Acme Cold Chain")).one()


def make(api, token, name, remark=None, organization_id=None):
    return api.call("POST", INSERT, token=token, json={"projectName": name, "remark": remark,
                                                       "organizationId": organization_id})


def move(api, token, ids, project_id):
    return api.call("POST", MOVE, token=token, json={"deviceIds": ids, "projectId": project_id})


def listed(api, token, **filters) -> dict[str, str | None]:
    page = ok(api.call("POST", DEVICES, token=token, json={"pageSize": 50, **filters}))
    return {d["deviceGuid"]: d["projectName"] for d in page["data"]}


def test_demo_acme_s_organization_has_a_project_with_its_two_warehouse_devices(api, container):
    acme = api.token("acme")
    page = ok(api.call("POST", PAGE, token=acme, json={}))
    [demo] = page["data"]
    assert (demo["projectName"], demo["deviceCount"], demo["organizationName"], demo["changeable"]) == (
        "Warehouse 1", 2, "Acme Cold Chain", True)
    assert listed(api, acme, projectId=demo["id"]) == {ROOM: "Warehouse 1", DOOR: "Warehouse 1"}


def test_the_owner_makes_moves_filters_renames_and_deletes(api, container):
    acme = api.token("acme")
    made = ok(make(api, acme, "  Dock B  ", "night shift", acme_org(container)))
    assert (made["projectName"], made["remark"], made["deviceCount"]) == ("Dock B", "night shift", 0)
    conforms(make(api, acme, "Dock C"), s.ProjectSchema)
    room, door = device_id(container, ROOM), device_id(container, DOOR)
    assert ok(move(api, acme, [room, door, room], made["id"])) == {"moved": 2}  # out of Warehouse 1, into Dock B
    assert listed(api, acme, projectId=made["id"]) == {ROOM: "Dock B", DOOR: "Dock B"}
    assert ok(api.call("GET", GET, token=acme, query={"id": made["id"]}))["deviceCount"] == 2
    assert ok(move(api, acme, [door], None)) == {"moved": 1}
    assert listed(api, acme, projectId=0) == {DOOR: None}
    found = ok(api.call("POST", PAGE, token=acme, json={"projectName": "dOcK"}))
    assert [(p["projectName"], p["deviceCount"], p["organizationName"]) for p in found["data"]] == [
        ("Dock B", 1, "Acme Cold Chain"), ("Dock C", 0, None)]
    kept = ok(api.call("PUT", UPDATE, token=acme, json={"id": made["id"], "projectName": "Dock b0"}))
    assert (kept["projectName"], kept["remark"]) == ("Dock b0", "night shift")  # no remark sent: kept
    renamed = ok(api.call("PUT", UPDATE, token=acme, json={"id": made["id"], "projectName": "Dock b1",
                                                           "remark": ""}))
    assert (renamed["projectName"], renamed["remark"]) == ("Dock b1", None)
    assert ok(api.call("DELETE", DELETE, token=acme, query={"id": made["id"]})) == {"released": 1}
    assert "Dock b1" not in projects_of(container)
    assert listed(api, acme) == {ROOM: None, DOOR: None}  # back in no project, still there


def test_a_name_is_unique_per_owner_whatever_its_case_but_not_across_owners(api, container):
    acme, admin = api.token("acme"), api.token("admin")
    reply = make(api, acme, "warehouse 1", organization_id=acme_org(container))  # the organization's name
    assert (reply.status, list(reply.body["errors"])) == (422, ["projectName"])
    ok(make(api, acme, "warehouse 1"))  # acme's own namesake of its organization's project
    made = ok(make(api, acme, "Other"))
    reply = api.call("PUT", UPDATE, token=acme, json={"id": made["id"], "projectName": "WAREHOUSE 1"})
    assert reply.status == 422 and "projectName" in reply.body["errors"]
    ok(api.call("PUT", UPDATE, token=acme, json={"id": made["id"], "projectName": "OTHER"}))  # its own name
    theirs = ok(make(api, admin, "Warehouse 1"))  # another account's namesake
    assert theirs["projectName"] == "Warehouse 1"
    assert [p["projectName"] for p in ok(api.call("POST", PAGE, token=acme, json={}))["data"]] == [
        "OTHER", "Warehouse 1", "warehouse 1"]


def test_a_stranger_gets_404_for_the_project_and_the_devices_and_changes_nothing(api, container):
    before = projects_of(container)
    acme, admin = api.token("acme"), api.token("admin")  # admin holds every permission, owns no device of theirs
    [demo] = ok(api.call("POST", PAGE, token=acme, json={}))["data"]
    for reply in (api.call("GET", GET, token=admin, query={"id": demo["id"]}),
                  api.call("PUT", UPDATE, token=admin, json={"id": demo["id"], "projectName": "Mine"}),
                  api.call("DELETE", DELETE, token=admin, query={"id": demo["id"]}),
                  move(api, admin, [device_id(container, ROOM)], None),
                  move(api, acme, [device_id(container, ROOM)], demo["id"] + 1000),
                  move(api, acme, [device_id(container, ALICE_ROOM)], demo["id"])):
        assert (reply.status, reply.code) == (404, 404), reply.body
    assert ok(api.call("POST", PAGE, token=admin, json={}))["totalCount"] == 0
    theirs = ok(make(api, admin, "Admin's"))
    reply = move(api, acme, [device_id(container, ROOM)], theirs["id"])  # someone else's project
    assert reply.status == 404
    assert projects_of(container) == {**before, "Admin's": projects_of(container)["Admin's"]}
    assert projects_of(container)["Warehouse 1"]["guids"] == sorted([ROOM, DOOR])


def test_a_read_only_member_reads_the_organization_s_project_but_may_not_move_or_manage(api, container):
    before = projects_of(container)
    bob = api.token("bob")  # a member of acme's organization: reads its devices and projects
    assert listed(api, bob)[ROOM] == "Warehouse 1"
    [demo] = ok(api.call("POST", PAGE, token=bob, json={}))["data"]
    assert (demo["projectName"], demo["deviceCount"], demo["changeable"]) == ("Warehouse 1", 2, False)
    assert ok(api.call("GET", GET, token=bob, query={"id": demo["id"]}))["changeable"] is False
    for reply in (move(api, bob, [device_id(container, ROOM)], None), make(api, bob, "Bob's"),
                  make(api, bob, "Bob's", organization_id=acme_org(container)),
                  api.call("PUT", UPDATE, token=bob, json={"id": demo["id"], "projectName": "Bob's"}),
                  api.call("DELETE", DELETE, token=bob, query={"id": demo["id"]}),
                  move(api, bob, [device_id(container, ROOM)], demo["id"])):
        assert (reply.status, reply.code) == (403, 403), reply.body
    assert projects_of(container) == before


def test_the_teams_an_administrator_changes_the_organization_s_project_a_read_only_member_reads_it(api, app, container):
    seeded(app, history=False, teams=True)
    carol, dave, acme = api.token("carol"), api.token("dave"), api.token("acme")
    [demo] = ok(api.call("POST", PAGE, token=dave, json={"projectName": "warehouse"}))["data"]
    assert demo["changeable"] is False
    before = projects_of(container)
    for reply in (api.call("PUT", UPDATE, token=dave, json={"id": demo["id"], "projectName": "Dave's"}),
                  api.call("DELETE", DELETE, token=dave, query={"id": demo["id"]})):
        assert (reply.status, reply.code) == (403, 403), reply.body
    assert projects_of(container) == before
    renamed = ok(api.call("PUT", UPDATE, token=carol, json={"id": demo["id"], "projectName": "Warehouse A"}))
    assert (renamed["projectName"], renamed["changeable"]) == ("Warehouse A", True)
    dock = ok(make(api, carol, "Dock", organization_id=acme_org(container)))
    # Acme has a "Dock" now: said of Acme, not of carol; carol's own namesake is hers to make
    taken = make(api, carol, "DOCK", organization_id=acme_org(container))
    assert (taken.status, taken.body["errors"]) == (422, {"projectName": [
        "The organization already has a project of this name"]}), taken.body
    renamed_to_taken = api.call("PUT", UPDATE, token=carol, json={"id": demo["id"], "projectName": "dock"})
    assert renamed_to_taken.body["errors"] == {"projectName": ["The organization already has a project of this name"]}
    assert ok(move(api, carol, [device_id(container, DOOR)], dock["id"])) == {"moved": 1}
    assert listed(api, acme)[DOOR] == "Dock" and listed(api, dave)[DOOR] == "Dock"
    carols = ok(make(api, carol, "Carol's"))  # her own: Acme's devices do not go there
    reply = move(api, carol, [device_id(container, ROOM)], carols["id"])
    assert (reply.status, list(reply.body["errors"])) == (422, ["projectId"])
    reply = move(api, acme, [device_id(container, ALICE_ROOM)], dock["id"])  # alice's device: 404 first
    assert reply.status == 404
    assert [p["projectName"] for p in ok(api.call("POST", PAGE, token=dave, json={}))["data"]] == [
        "Dock", "Warehouse A"]  # not carol's own
    assert ok(api.call("DELETE", DELETE, token=carol, query={"id": dock["id"]})) == {"released": 1}


def test_a_personal_device_goes_only_into_a_personal_project(api, container):
    admin = api.token("admin")  # holds every permission, is in no organization
    theirs = ok(make(api, api.token("acme"), "Theirs", organization_id=acme_org(container)))
    reply = make(api, admin, "Mine", organization_id=acme_org(container))
    assert (reply.status, list(reply.body["errors"])) == (422, ["organizationId"])
    assert api.call("GET", GET, token=admin, query={"id": theirs["id"]}).status == 404
    acme = api.token("acme")
    own = _acme_personal_device(container)
    reply = move(api, acme, [own], theirs["id"])
    assert (reply.status, list(reply.body["errors"])) == (422, ["projectId"])


def _acme_personal_device(container) -> int:
    """A device of acme's in no organization (the demo puts them all in it): taken out for the test."""
    with container.session_factory()() as session:
        row = session.scalars(select(DeviceRow).where(DeviceRow.guid == DOOR)).one()
        row.organization_id, row.project_id = None, None
        session.commit()
        return row.id


@pytest.mark.parametrize(("field", "body"), [
    ("projectName", {"projectName": "x" * 21}),
    ("projectName", {"projectName": " a "}),
    ("projectName", {"projectName": "Cold 🧊 room"}),
    ("projectName", {"projectName": "tab\there"}),
    ("projectName", {"projectName": "Ice \ud83e\uddca"}),  # an emoji as JSON escapes it
    ("projectName", {"projectName": "\ud800"}),
    ("projectName", {"projectName": None}),
    ("projectName", {"projectName": 12}),
    ("projectName", {}),
    ("remark", {"projectName": "Fine", "remark": "r" * 201}),
    ("remark", {"projectName": "Fine", "remark": "\u0000"}),
])
def test_hostile_project_input_is_refused_and_nothing_is_stored(api, container, field, body):
    before = projects_of(container)
    reply = api.call("POST", INSERT, token=api.token("acme"), json=body)
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert field in reply.body.get("errors", {}) or reply.body.get("msg"), reply.body
    assert projects_of(container) == before


@pytest.mark.parametrize("body", [
    {"deviceIds": [], "projectId": None},
    {"deviceIds": list(range(1, 202)), "projectId": None},
    {"deviceIds": [10**30], "projectId": None},
    {"deviceIds": [1], "projectId": 10**30},
    {"deviceIds": [1], "projectId": 0},
    {"deviceIds": [1], "projectId": 2**31},
    {"deviceIds": [1]},
    {"deviceIds": ["1; drop table devices"], "projectId": None},
])
def test_hostile_moves_are_refused_and_nothing_moves(api, container, body):
    before = projects_of(container)
    reply = api.call("POST", MOVE, token=api.token("acme"), json=body)
    assert reply.status == 422, reply.body
    assert projects_of(container) == before


def test_a_batch_with_one_device_not_the_caller_s_moves_none(api, container):
    acme = api.token("acme")
    made = ok(make(api, acme, "All or none"))
    reply = move(api, acme, [device_id(container, ROOM), device_id(container, ALICE_ROOM)], made["id"])
    assert reply.status == 404
    assert projects_of(container)["Warehouse 1"]["guids"] == sorted([ROOM, DOOR])


def test_refusals_are_in_the_callers_language(app, container):
    api = ApiClient(app.flask.test_client(), "ru-RU")
    reply = make(api, api.token("acme"), "Я")
    assert reply.status == 422
    assert "от 2 до 20" in str(reply.body["errors"]["projectName"]), reply.body
    reply = make(api, api.token("acme"), "WAREHOUSE 1", organization_id=acme_org(container))
    assert "уже есть" in str(reply.body["errors"]["projectName"]), reply.body
    reply = move(api, api.token("acme"), [device_id(container, ROOM)], ok(make(api, api.token("acme"), "Моё"))["id"])
    assert "организации" in str(reply.body["errors"]["projectId"]), reply.body
