"""Projects on fakes (issue 17): the name rules (trimmed, 2-20, no emoji, unique per owner in any
case), a project is its owner's alone, and moving devices is all or none, for those the caller
may change: a read-only member gets 403, a stranger 404, and nothing moves."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.devices.access import READ_ONLY
from core.projects.model import (
    NAME_CHARACTERS,
    NAME_LENGTH,
    NAME_TAKEN,
    NOT_YOUR_ORGANIZATION,
    ORGANIZATION_DEVICE,
    ORGANIZATION_NAME_TAKEN,
    PERSONAL_DEVICE,
    Project,
    name_key,
    name_problem,
)
from core.projects.ports import NameTaken
from core.projects.use_cases import (
    ChangeProject,
    CreateProject,
    DeleteProject,
    GetProject,
    ListProjects,
    ProjectInput,
    UpdateProject,
)
from core.shared.errors import Forbidden, InvalidInput, NotFound
from core.shared.paging import Page, PageRequest
from tests.support.clock import MutableClock
from tests.unit.test_device_registry import ADMIN, MEMBER, NOW, OWNER, STRANGER, _add, _owned_device, _uow


class FakeProjectRepository:
    def __init__(self) -> None:
        self.rows: dict[int, Project] = {}
        self.device_project: dict[int, int | None] = {}
        self.race = False  # the next add or rename loses a race for its name

    def add(self, project: Project) -> int:
        if self.race:
            raise NameTaken()
        project_id = len(self.rows) + 1
        self.rows[project_id] = replace(project, id=project_id)
        return project_id

    def get(self, account_id, project_id):
        p = self.rows.get(project_id)
        if p is None:
            return None
        return replace(p, device_count=sum(1 for v in self.device_project.values() if v == project_id))

    def name_taken(self, account_id, organization_id, key, except_id=None):
        return any((p.organization_id == organization_id if organization_id is not None
                    else p.organization_id is None and p.owner_account_id == account_id)
                   and name_key(p.name) == key and i != except_id for i, p in self.rows.items())

    def rename(self, project_id, name, remark):
        self.rows[project_id] = replace(self.rows[project_id], name=name, remark=remark)

    def delete(self, project_id):
        released = [d for d, p in self.device_project.items() if p == project_id]
        for d in released:
            self.device_project[d] = None
        del self.rows[project_id]
        return len(released)

    def page(self, account_id, organization_ids, name, request):
        found = [self.get(account_id, i) for i, p in self.rows.items()
                 if (p.organization_id in organization_ids if p.organization_id is not None
                     else p.owner_account_id == account_id) and (not name or name.lower() in p.name.lower())]
        return Page(request.start, request.page_size, len(found), found)

    def move(self, device_ids, project_id):
        for d in device_ids:
            self.device_project[d] = project_id


def _world():
    uow = _uow()
    uow.projects = FakeProjectRepository()
    return uow


def _create(uow, account=OWNER, name="Cold rooms", remark=None):
    return CreateProject(uow, MutableClock(NOW))(account, ProjectInput(name, remark))


@pytest.mark.parametrize(("name", "problem"), [
    ("ab", None), ("x" * 20, None), ("Kühlraum Nord", None), ("冷库 1 号", None), ("Склад-2 (ночь)", None),
    ("a", NAME_LENGTH), ("x" * 21, NAME_LENGTH), ("", NAME_LENGTH),
    ("Ice 🧊", NAME_CHARACTERS), ("Hot ♨", NAME_CHARACTERS), ("flag 🇩🇪", NAME_CHARACTERS),
    ("a\u200db", NAME_CHARACTERS), ("tab\tx", NAME_CHARACTERS), ("heart \u2764\ufe0f", NAME_CHARACTERS),
])
def test_the_name_rules(name, problem):
    assert name_problem(name) == problem


def test_a_name_is_trimmed_and_unique_per_owner_in_any_case():
    uow = _world()
    made = _create(uow, name="  Cold rooms  ", remark="  ")
    assert (made.name, made.remark, made.owner_account_id, made.created_at) == ("Cold rooms", None, OWNER, NOW)
    with pytest.raises(InvalidInput) as refused:
        _create(uow, name="COLD ROOMS")
    assert refused.value.problems == {"projectName": NAME_TAKEN}
    assert _create(uow, account=STRANGER, name="cold rooms").id == 2  # another owner's namesake
    other = _create(uow, name="Trucks")
    with pytest.raises(InvalidInput):
        UpdateProject(uow)(OWNER, other.id, ProjectInput("cold ROOMS"))
    assert UpdateProject(uow)(OWNER, made.id, ProjectInput("cold ROOMS", "north")).name == "cold ROOMS"
    renamed = UpdateProject(uow)(OWNER, made.id, ProjectInput("Cold rooms N"), keep_remark=True)
    assert (renamed.name, renamed.remark) == ("Cold rooms N", "north")


def test_a_name_lost_to_a_race_is_the_same_refusal():
    uow = _world()
    uow.projects.race = True
    with pytest.raises(InvalidInput) as refused:
        _create(uow)
    assert refused.value.problems == {"projectName": NAME_TAKEN}


def test_a_project_is_its_owner_s_alone():
    uow = _world()
    made = _create(uow)
    for call in (lambda a: GetProject(uow)(a, made.id), lambda a: DeleteProject(uow)(a, made.id),
                 lambda a: UpdateProject(uow)(a, made.id, ProjectInput("Mine"))):
        for account in (MEMBER, ADMIN, STRANGER):
            with pytest.raises(NotFound):
                call(account)
    assert ListProjects(uow)(STRANGER, None, PageRequest()).total_count == 0
    assert uow.projects.rows[made.id].name == "Cold rooms"


def test_devices_move_in_and_out_all_or_none_and_deleting_releases_them():
    uow = _world()
    device = _owned_device(uow)  # OWNER's, ADMIN administers its organization, MEMBER only reads it
    other = _add(uow, guid="RCW360A0000002").device
    mine, admins = _create(uow), _create(uow, account=ADMIN, name="Admin's")
    assert ChangeProject(uow)(OWNER, [device.id, other.id, device.id], mine.id) == 2
    assert GetProject(uow)(OWNER, mine.id).device_count == 2
    assert ChangeProject(uow)(ADMIN, [device.id], admins.id) == 1  # an administrator may group it too
    with pytest.raises(Forbidden) as refused:
        ChangeProject(uow)(MEMBER, [device.id], None)
    assert refused.value.message == READ_ONLY
    with pytest.raises(NotFound):
        ChangeProject(uow)(STRANGER, [device.id], None)
    with pytest.raises(NotFound):  # ADMIN may change the device but not use OWNER's project
        ChangeProject(uow)(ADMIN, [device.id], mine.id)
    with pytest.raises(NotFound):  # ADMIN may not change `other`: the whole batch stays
        ChangeProject(uow)(ADMIN, [device.id, other.id], None)
    assert uow.projects.device_project == {device.id: admins.id, other.id: mine.id}
    assert DeleteProject(uow)(OWNER, mine.id) == 1
    assert uow.projects.device_project == {device.id: admins.id, other.id: None}


ACME = 50  # OWNER created it, ADMIN administers it, MEMBER only reads it


def _organization_world():
    uow = _world()
    uow.device_registry.memberships = {OWNER: {ACME: True}, ADMIN: {ACME: True}, MEMBER: {ACME: False}}
    return uow


def test_an_organization_s_project_is_read_by_its_members_and_changed_by_its_administrators():
    uow = _organization_world()
    shared = CreateProject(uow, MutableClock(NOW))(ADMIN, ProjectInput("Warehouse 1", None, ACME))
    assert (shared.organization_id, shared.changeable) == (ACME, True)
    assert GetProject(uow)(MEMBER, shared.id).changeable is False
    assert [p.name for p in ListProjects(uow)(MEMBER, None, PageRequest()).items] == ["Warehouse 1"]
    assert ListProjects(uow)(OWNER, None, PageRequest()).items[0].changeable is True
    for call in (lambda: UpdateProject(uow)(MEMBER, shared.id, ProjectInput("Mine")),
                 lambda: DeleteProject(uow)(MEMBER, shared.id), lambda: ChangeProject(uow)(MEMBER, [1], shared.id)):
        with pytest.raises(Forbidden):
            call()
    with pytest.raises(NotFound):
        GetProject(uow)(STRANGER, shared.id)
    assert ListProjects(uow)(STRANGER, None, PageRequest()).total_count == 0
    assert UpdateProject(uow)(OWNER, shared.id, ProjectInput("Warehouse A")).name == "Warehouse A"
    uow.device_registry.memberships[ADMIN] = {}  # removed from the organization: at once
    with pytest.raises(NotFound):
        DeleteProject(uow)(ADMIN, shared.id)
    assert DeleteProject(uow)(OWNER, shared.id) == 0


def test_only_who_changes_an_organization_s_devices_makes_its_projects_and_names_are_unique_per_owner():
    uow = _organization_world()
    for account in (MEMBER, STRANGER):
        with pytest.raises(InvalidInput) as refused:
            CreateProject(uow, MutableClock(NOW))(account, ProjectInput("Ours", None, ACME))
        assert refused.value.problems == {"organizationId": NOT_YOUR_ORGANIZATION}
    CreateProject(uow, MutableClock(NOW))(OWNER, ProjectInput("Ours", None, ACME))
    assert _create(uow, name="OURS").organization_id is None  # OWNER's own namesake is another owner's
    with pytest.raises(InvalidInput) as refused:
        CreateProject(uow, MutableClock(NOW))(ADMIN, ProjectInput("ours", None, ACME))
    assert refused.value.problems == {"projectName": ORGANIZATION_NAME_TAKEN}


def test_a_device_goes_only_into_a_project_of_its_own_owner_s_kind():
    uow = _organization_world()
    device = _owned_device(uow)
    personal = _add(uow, guid="RCW360A0000002").device
    registry = uow.device_registry
    registry.devices[device.id] = replace(registry.devices[device.id], organization_id=ACME)
    ours = CreateProject(uow, MutableClock(NOW))(OWNER, ProjectInput("Ours", None, ACME))
    mine = _create(uow)
    for ids, project, problem in (([device.id], mine, ORGANIZATION_DEVICE), ([personal.id], ours, PERSONAL_DEVICE),
                                  ([device.id, personal.id], ours, PERSONAL_DEVICE)):
        with pytest.raises(InvalidInput) as refused:
            ChangeProject(uow)(OWNER, ids, project.id)
        assert refused.value.problems == {"projectId": problem}
    assert uow.projects.device_project == {}  # all or none
    assert ChangeProject(uow)(ADMIN, [device.id], ours.id) == 1
    assert ChangeProject(uow)(OWNER, [personal.id], mine.id) == 1
