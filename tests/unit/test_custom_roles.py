"""An organization's custom roles, in memory: who may make them, the name and description rules,
the permissions they may grant, and the roles a member may be given (issue 17)."""

from __future__ import annotations

import pytest

from core.organizations.custom_roles import (
    CreateRole,
    DeleteRole,
    ListOrganizationRoles,
    RoleInput,
    UpdateRole,
    granted,
)
from core.organizations.errors import BuiltInRoleFixed, RoleHeld
from core.organizations.use_cases import ChangeMemberRole, CreateOrganization, Invite, InviteMember
from core.permissions import roles
from core.shared.errors import Forbidden, InvalidInput, NotFound
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeOrganizationsUnitOfWork

OWNER, ADMIN, MEMBER, STRANGER = 1, 2, 3, 4
VIEWER = RoleInput("Viewer", "sees devices", ("device.list", "device.list:query"))


@pytest.fixture
def clock():
    return MutableClock()


@pytest.fixture
def uow(clock):
    uow = FakeOrganizationsUnitOfWork()
    uow.organizations.accounts.update({OWNER: "acme", ADMIN: "carol", MEMBER: "bob", STRANGER: "eve"})
    CreateOrganization(uow, clock)(OWNER, "Acme")
    CreateOrganization(uow, clock)(STRANGER, "Eve's")
    uow.organizations.add_member(1, ADMIN, "org_admin")
    uow.organizations.add_member(1, MEMBER, "org_member")
    return uow


def test_the_creator_and_an_administrator_make_roles_that_hold_what_they_chose_and_the_baseline(uow):
    made = CreateRole(uow)(OWNER, 1, VIEWER)
    assert (made.code, made.name, made.description) == (f"custom_{made.id}", "Viewer", "sees devices")
    assert made.permissions == {"device.list", "device.list:query"} | roles.ORGANIZATION_BASELINE
    other = CreateRole(uow)(ADMIN, 1, RoleInput(" Auditor ", "  ", ("operation.log:export",)))
    assert (other.name, other.description) == ("Auditor", None)
    assert "operation.log" in other.permissions  # an action brings its route


def test_a_member_may_not_make_change_or_delete_roles_and_a_stranger_learns_nothing(uow):
    made = CreateRole(uow)(OWNER, 1, VIEWER)
    with pytest.raises(Forbidden):
        CreateRole(uow)(MEMBER, 1, VIEWER)
    with pytest.raises(Forbidden):
        UpdateRole(uow)(MEMBER, made.id, VIEWER)
    with pytest.raises(Forbidden):
        DeleteRole(uow, MutableClock())(MEMBER, made.id)
    for call in (lambda: CreateRole(uow)(STRANGER, 1, VIEWER), lambda: UpdateRole(uow)(STRANGER, made.id, VIEWER),
                 lambda: DeleteRole(uow, MutableClock())(STRANGER, made.id),
                 lambda: ListOrganizationRoles(uow)(STRANGER, 1), lambda: UpdateRole(uow)(OWNER, 999, VIEWER)):
        with pytest.raises(NotFound):
            call()


@pytest.mark.parametrize(("name", "description", "field"), [
    ("", None, "roleName"), ("   ", None, "roleName"), ("x" * 21, None, "roleName"),
    ("Cold 🧊 team", None, "roleName"), ("Zero\u200dwidth", None, "roleName"), ("ok", "y" * 21, "description"),
    ("ok", "nice ❤️", "description"),
])
def test_name_and_description_are_at_most_20_characters_without_emoji(uow, name, description, field):
    with pytest.raises(InvalidInput) as refused:
        CreateRole(uow)(OWNER, 1, RoleInput(name, description, ()))
    assert field in refused.value.problems
    assert uow.organization_roles.rows == {}


def test_twenty_characters_in_any_script_are_a_name(uow):
    assert CreateRole(uow)(OWNER, 1, RoleInput("Ж" * 20, "描" * 20, ())).name == "Ж" * 20


@pytest.mark.parametrize("permission", ["consumer.role:add", "system.role", "device.list:fly", "marketManage",
                                        "consumer.list:edit", ""])
def test_a_permission_an_organization_role_may_not_grant_is_refused(uow, permission):
    with pytest.raises(InvalidInput) as refused:
        CreateRole(uow)(OWNER, 1, RoleInput("Bad", None, ("device.list", permission)))
    assert set(refused.value.problems) == {"permissions"}


def test_a_role_name_is_unique_in_its_organization_in_any_case_but_not_across_organizations(uow):
    made = CreateRole(uow)(OWNER, 1, VIEWER)
    with pytest.raises(InvalidInput):
        CreateRole(uow)(ADMIN, 1, RoleInput("VIEWER", None, ()))
    CreateRole(uow)(STRANGER, 2, RoleInput("viewer", None, ()))
    second = CreateRole(uow)(OWNER, 1, RoleInput("Driver", None, ()))
    with pytest.raises(InvalidInput):
        UpdateRole(uow)(OWNER, second.id, RoleInput("viewer", None, ()))
    assert UpdateRole(uow)(OWNER, made.id, RoleInput("VIEWER", None, ())).name == "VIEWER"  # its own name


def test_an_update_replaces_name_description_and_permissions(uow):
    made = CreateRole(uow)(OWNER, 1, VIEWER)
    updated = UpdateRole(uow)(ADMIN, made.id, RoleInput("Lister", "people", ("consumer.list:query",)))
    assert (updated.name, updated.description) == ("Lister", "people")
    assert updated.permissions == granted(["consumer.list:query"])
    assert "device.list" not in updated.permissions


def test_built_in_roles_are_listed_but_not_changed(uow):
    with pytest.raises(BuiltInRoleFixed):
        UpdateRole(uow)(OWNER, 1, VIEWER)
    with pytest.raises(BuiltInRoleFixed):
        DeleteRole(uow, MutableClock())(OWNER, 2)


def test_the_roles_of_an_organization_are_the_built_in_ones_then_its_own(uow):
    CreateRole(uow)(OWNER, 1, VIEWER)
    CreateRole(uow)(STRANGER, 2, RoleInput("Eve's role", None, ()))
    listed = ListOrganizationRoles(uow)(MEMBER, 1)
    assert [(r.code, r.built_in, r.assignable) for r in listed][:3] == [
        ("org_creator", True, False), ("org_admin", True, True), ("org_member", True, True)]
    assert [r.name for r in listed[3:]] == ["Viewer"]
    assert [r.code for r in ListOrganizationRoles(uow)(MEMBER, None)] == ["org_creator", "org_admin", "org_member"]
    # a built-in role carries its row's id, as a custom one does: an FDA endorsement names roles by id
    ids = uow.organization_roles.built_in_ids()
    assert [r.id for r in listed[:3]] == [ids["org_creator"], ids["org_admin"], ids["org_member"]]


def test_a_member_is_given_a_custom_role_of_the_organization_and_never_another_organizations(uow, clock):
    mine = CreateRole(uow)(OWNER, 1, VIEWER)
    theirs = CreateRole(uow)(STRANGER, 2, RoleInput("Eve's role", None, ()))
    ChangeMemberRole(uow)(ADMIN, 1, MEMBER, mine.code)
    assert uow.organizations.role_of(1, MEMBER) == mine.code
    for code in (theirs.code, "custom_999", "org_creator", "system_admin"):
        with pytest.raises(InvalidInput):
            ChangeMemberRole(uow)(OWNER, 1, MEMBER, code)
        with pytest.raises(InvalidInput):
            InviteMember(uow, clock, "en-US")(Invite(OWNER, 1, "eve", code))
    assert uow.organizations.role_of(1, MEMBER) == mine.code


def test_a_role_members_hold_is_not_deleted_and_says_how_many_hold_it(uow, clock):
    made = CreateRole(uow)(OWNER, 1, VIEWER)
    ChangeMemberRole(uow)(OWNER, 1, MEMBER, made.code)
    ChangeMemberRole(uow)(OWNER, 1, ADMIN, made.code)
    with pytest.raises(RoleHeld) as held:
        DeleteRole(uow, clock)(OWNER, made.id)
    assert held.value.params == {"count": 2}
    ChangeMemberRole(uow)(OWNER, 1, MEMBER, "org_member")
    ChangeMemberRole(uow)(OWNER, 1, ADMIN, "org_admin")
    DeleteRole(uow, clock)(OWNER, made.id)
    assert uow.organization_roles.withdrawn == [made.code]
    assert ListOrganizationRoles(uow)(OWNER, 1)[3:] == []
