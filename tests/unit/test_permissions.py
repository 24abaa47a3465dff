import pytest

from core.permissions import catalogue, roles
from core.permissions.scenes import available_scenes, effective_scene, scene_permissions
from core.platform.model import candidate_domains


@pytest.mark.parametrize("requested,listed,scene", [
    (1, [], 1), (2, ["cloudChain.cockpit"], 1), (2, ["cloudChain.myProject"], 2), (7, ["cloudChain.myProject"], 1),
])
def test_scene_two_needs_my_project_or_falls_back_to_one(requested, listed, scene):
    assert effective_scene(requested, listed) == scene


def test_scene_lists_hold_only_their_scene_s_permissions():
    held = roles.ENTERPRISE_CUSTOMER.permissions
    main, cloud = scene_permissions(1, held), scene_permissions(2, held)
    assert "device.list" in main and "device.list" not in cloud
    assert "cloudChain.cockpit" in cloud and "cloudChain.cockpit" not in main
    assert "cloudChain.myProject" in main and "cloudChain.myProject" in cloud
    assert scene_permissions(1, {"no.such.permission"}) == []


def test_only_callers_with_my_project_see_the_cloud_chain_scene():
    assert [s.scene_type for s in available_scenes(roles.PERSONAL_CUSTOMER.permissions)] == [1]
    assert [s.scene_type for s in available_scenes(roles.ENTERPRISE_CUSTOMER.permissions)] == [1, 2]


def test_every_role_holds_only_known_permissions():
    for role in roles.BUILT_IN:
        assert role.permissions <= set(catalogue.BY_NAME), role.code


def test_route_names_of_the_spec_are_in_the_catalogue():
    for name in ("home", "mall", "cloudChain.myProject", "cloudChain.projectOverview", "cloudChain.operation.index",
                 "operateBoard.report", "freezerIdentify.freezer", "storageProject.monitor", "marketManage"):
        assert name in catalogue.BY_NAME


def test_button_permissions_are_the_route_and_an_action():
    assert {"device.list:add", "device.list:export", "asset.list:enable"} <= set(catalogue.BY_NAME)
    assert all(p.route in catalogue.BY_NAME for p in catalogue.ALL)


def test_customers_get_no_back_office_and_operators_no_role_management():
    back_office = {p.name for p in catalogue.ALL if p.back_office}
    for customer in (roles.PERSONAL_CUSTOMER, roles.ENTERPRISE_CUSTOMER):
        assert not customer.permissions & (back_office - roles.DEALER.permissions)
    assert "notice.list" in roles.OPERATOR.permissions
    assert "system.role" not in roles.OPERATOR.permissions
    assert catalogue.MARKET_MANAGE not in roles.SYSTEM_ADMIN.permissions  # one named account only


def test_an_organization_member_may_only_look():
    assert roles.ORG_MEMBER.permissions == {"organization.list", "organization.list:query",
                                            "organization.list:detail", "device.list",
                                            "project.list", "project.list:query", "project.list:detail",
                                            "asset.list", "asset.list:query", "asset.list:detail"}


def test_an_organization_s_administrators_change_its_projects_and_assets():
    for role in (roles.ORG_CREATOR, roles.ORG_ADMIN):
        assert {"project.list:add", "project.list:edit", "project.list:delete", "asset.list:add",
                "asset.list:enable", "asset.list:disable"} <= role.permissions


@pytest.mark.parametrize(("role", "rights"), [
    (roles.ORG_CREATOR, (True, True)), (roles.ORG_ADMIN, (True, True)), (roles.ORG_MEMBER, (True, False))])
def test_the_built_in_organization_roles_see_and_change_the_organizations_devices_as_they_should(role, rights):
    assert roles.organization_device_rights(role.permissions) == rights


def test_device_rights_follow_device_list_and_its_edit_action_only():
    assert roles.organization_device_rights([]) == (False, False)
    assert roles.organization_device_rights(["device.list:edit"]) == (False, True)
    assert roles.organization_device_rights(["device.list", "device.list:add", "device.detail"]) == (True, False)


def test_an_organization_role_grants_only_known_permissions_and_never_the_managers_actions():
    assert set(catalogue.BY_NAME) >= roles.ORGANIZATION_GRANTABLE
    assert roles.ORGANIZATION_BASELINE <= roles.ORGANIZATION_GRANTABLE
    assert not roles.ORGANIZATION_GRANTABLE & {"consumer.role:add", "consumer.role:edit", "consumer.role:delete",
                                               "consumer.list:add", "organization.list:delete"}
    assert not any(catalogue.BY_NAME[n].back_office for n in roles.ORGANIZATION_GRANTABLE)


@pytest.mark.parametrize("host,domains", [
    ("demo.localhost", ["demo.localhost"]), ("www.demo.localhost", ["www.demo.localhost", "demo.localhost"]),
    ("Console.Example.COM.", ["console.example.com", "example.com"]), ("localhost", ["localhost"]), ("", []),
])
def test_a_host_is_matched_by_itself_then_its_parent_domains(host, domains):
    assert candidate_domains(host) == domains
