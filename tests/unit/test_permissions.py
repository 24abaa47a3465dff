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
                                            "organization.list:detail"}


@pytest.mark.parametrize("host,domains", [
    ("demo.localhost", ["demo.localhost"]), ("www.demo.localhost", ["www.demo.localhost", "demo.localhost"]),
    ("Console.Example.COM.", ["console.example.com", "example.com"]), ("localhost", ["localhost"]), ("", []),
])
def test_a_host_is_matched_by_itself_then_its_parent_domains(host, domains):
    assert candidate_domains(host) == domains
