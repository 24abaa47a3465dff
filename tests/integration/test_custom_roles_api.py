"""Custom organization roles over the API (issue 17): acme's creator and administrators make
roles from the permissions an organization role may grant, give them to members, whose permission
list and orgWithMyRole change on the next request; hostile input changes nothing."""

from __future__ import annotations

import pytest

from tests.integration.test_organizations_api import (
    GRANTABLE,
    MEMBERS,
    ROLE,
    ROLE_DELETE,
    ROLE_INSERT,
    ROLE_UPDATE,
    ROLES,
    acme_org,
    invitation_message,
    invite,
    join,
)
from tests.integration.test_recharge_api import ok

pytestmark = pytest.mark.usefixtures("demo")


def create(api, token, org: int, name: str = "Dispatcher", permissions=("consumer.list", "consumer.list:query"),
           description: str | None = "reads the team"):
    return api.call("POST", ROLE_INSERT, token=token, json={
        "organizationId": org, "roleName": name, "description": description, "permissions": list(permissions)})


def roles_of(api, token, org: int) -> list[dict]:
    return ok(api.call("GET", ROLES, token=token, query={"organizationType": 2, "organizationId": org}))


def custom_names(api, token, org: int) -> list[str]:
    return [r["roleName"] for r in roles_of(api, token, org) if not r["builtIn"]]


def account_id(api, user: str) -> int:
    return ok(api.account_info(api.token(user)))["baseAccount"]["id"]


def set_role(api, token, org: int, user: str, code: str):
    return api.call("PUT", ROLE, token=token, json={"organizationId": org, "accountId": account_id(api, user),
                                                    "roleCode": code})


def test_a_custom_role_gives_its_holder_its_permissions_at_once_and_takes_them_back(api):
    acme, bob = api.token("acme"), api.token("bob")
    org = acme_org(api, acme)
    assert "consumer.list" not in ok(api.account_info(bob))["permissionRoutes"]
    made = ok(create(api, acme, org))
    assert (made["roleCode"], made["builtIn"], made["roleType"], made["memberCount"]) == (
        f"custom_{made['roleId']}", False, 3, 0)
    assert set(made["permissions"]) == {"consumer.list", "consumer.list:query", "organization.list",
                                        "organization.list:query", "organization.list:detail"}

    ok(set_role(api, acme, org, "bob", made["roleCode"]))
    info = ok(api.account_info(bob))
    assert {"consumer.list", "consumer.list:query"} <= set(info["permissionRoutes"])
    [mine] = info["orgWithMyRole"]
    assert (mine["roleId"], mine["roleCode"], mine["roleName"]) == (made["roleId"], made["roleCode"], "Dispatcher")
    listing = ok(api.call("GET", MEMBERS, token=acme, query={"organizationId": org}))
    assert {m["userName"]: m["roleName"] for m in listing["members"]}["bob"] == "Dispatcher"
    assert [r["memberCount"] for r in roles_of(api, acme, org) if not r["builtIn"]] == [1]

    # a changed role changes its holders' permissions on their next request too
    ok(api.call("PUT", ROLE_UPDATE, token=acme, json={"roleId": made["roleId"], "roleName": "Viewer",
                                                      "description": None, "permissions": ["device.list"]}))
    info = ok(api.account_info(bob))
    assert "consumer.list" not in info["permissionRoutes"] and info["orgWithMyRole"][0]["roleName"] == "Viewer"

    ok(set_role(api, acme, org, "bob", "org_member"))
    info = ok(api.account_info(bob))
    assert "consumer.list" not in info["permissionRoutes"]
    assert info["orgWithMyRole"][0]["roleCode"] == "org_member"


def test_an_invitation_may_offer_a_custom_role(api):
    acme = api.token("acme")
    org = acme_org(api, acme)
    made = ok(create(api, acme, org, "Auditor", ["operation.log:query"]))
    alice = join(api, "acme", "alice", made["roleCode"], org)
    info = ok(api.account_info(alice))
    assert info["orgWithMyRole"][0]["roleName"] == "Auditor"
    assert {"operation.log", "operation.log:query"} <= set(info["permissionRoutes"])


def test_built_in_roles_are_named_in_the_readers_language_custom_ones_as_written(api):
    acme = api.token("acme")
    org = acme_org(api, acme)
    ok(create(api, acme, org, "Operator"))  # a built-in msgid as a name: not translated
    api.language = "ru-RU"
    rows = roles_of(api, api.token("bob"), org)
    assert [(r["roleCode"], r["builtIn"], r["assignable"]) for r in rows[:3]] == [
        ("org_creator", True, False), ("org_admin", True, True), ("org_member", True, True)]
    assert rows[2]["roleName"] == "Участник организации" and rows[3]["roleName"] == "Operator"
    assert set(rows[2]["permissions"]) >= {"device.list", "organization.list"}
    tree = ok(api.call("GET", GRANTABLE, token=acme))
    routes = {t["route"]: t for t in tree}
    assert routes["device.list"]["actions"][:2] == ["device.list:add", "device.list:delete"]
    assert routes["organization.list"]["fixed"] and not routes["device.list"]["fixed"]
    assert "consumer.role:add" not in routes["consumer.role"]["actions"]


def test_a_role_members_hold_is_not_deleted_and_a_free_one_is(api):
    acme = api.token("acme")
    org = acme_org(api, acme)
    made = ok(create(api, acme, org))
    ok(set_role(api, acme, org, "bob", made["roleCode"]))
    api.language = "en-US"
    held = api.call("DELETE", ROLE_DELETE, token=acme, query={"roleId": made["roleId"]})
    assert (held.status, held.code) == (409, 1721) and held.body["msg"].startswith("1 members hold this role")
    ok(set_role(api, acme, org, "bob", "org_member"))
    pending = ok(invite(api, acme, org, "alice", made["roleCode"]))
    ok(api.call("DELETE", ROLE_DELETE, token=acme, query={"roleId": made["roleId"]}))
    assert custom_names(api, acme, org) == []
    # the invitation that offered it is withdrawn: approving it is refused
    alice = api.token("alice")
    answer = api.call("POST", "/base/BaseMessage/answer", token=alice, json={
        "messageId": invitation_message(api, alice)["messageId"], "decision": "approved"})
    assert answer.code == 1703 and pending["invitationId"]


def test_built_in_roles_are_not_changed_or_deleted(api):
    acme = api.token("acme")
    org = acme_org(api, acme)
    member_role = ok(api.account_info(api.token("bob")))["orgWithMyRole"][0]["roleId"]
    for reply in (api.call("PUT", ROLE_UPDATE, token=acme, json={"roleId": member_role, "roleName": "Mine",
                                                                 "description": None, "permissions": []}),
                  api.call("DELETE", ROLE_DELETE, token=acme, query={"roleId": member_role})):
        assert (reply.status, reply.code) == (409, 1720)
    assert [r["roleName"] for r in roles_of(api, acme, org)][2] == "Organization member"


def test_a_member_without_role_management_is_refused_and_a_stranger_sees_no_role(api):
    acme, bob, alice = api.token("acme"), api.token("bob"), api.token("alice")
    org = acme_org(api, acme)
    made = ok(create(api, acme, org))
    assert create(api, bob, org, "Mine").status == 403
    assert create(api, alice, org, "Mine").status == 404
    body = {"roleId": made["roleId"], "roleName": "Taken", "description": None, "permissions": []}
    assert api.call("PUT", ROLE_UPDATE, token=bob, json=body).status == 403
    assert api.call("PUT", ROLE_UPDATE, token=alice, json=body).status == 404
    assert api.call("DELETE", ROLE_DELETE, token=alice, query={"roleId": made["roleId"]}).status == 404
    assert api.call("GET", ROLES, token=alice, query={"organizationId": org}).status == 404
    assert custom_names(api, acme, org) == ["Dispatcher"]


def test_another_organizations_role_is_never_given_nor_changed(api):
    acme, alice = api.token("acme"), api.token("alice")
    org = acme_org(api, acme)
    # alice becomes an enterprise customer's peer: a member of her own organization, made by acme
    other = ok(api.call("POST", "/base/BaseOrganization/insert", token=acme, json={"organizationName": "Other"}))
    foreign = ok(create(api, acme, other["organizationId"], "Foreign"))
    refused = set_role(api, acme, org, "bob", foreign["roleCode"])
    assert refused.status == 422 and "roleCode" in refused.body["errors"]
    assert invite(api, acme, org, "alice", foreign["roleCode"]).status == 422
    assert ok(api.account_info(api.token("bob")))["orgWithMyRole"][0]["roleCode"] == "org_member"
    # and a creator of both still changes each role only through its own id
    assert alice and custom_names(api, acme, org) == []


@pytest.mark.parametrize(("body", "field"), [
    ({"roleName": "x" * 21}, "roleName"),
    ({"roleName": ""}, "roleName"),
    ({"roleName": "Cold 🧊"}, "roleName"),
    ({"roleName": "\ud83e"}, None),  # a lone surrogate: not even JSON a server reads
    ({"description": "y" * 21}, "description"),
    ({"description": "❤️"}, "description"),
    ({"permissions": ["device.list", "system.role"]}, "permissions"),
    ({"permissions": ["consumer.role:add"]}, "permissions"),
    ({"permissions": ["nope"]}, "permissions"),
    ({"permissions": "device.list"}, "permissions"),
    ({"permissions": [1]}, "permissions"),
    ({"roleName": 12}, "roleName"),
    ({"organizationId": 2**40}, "organizationId"),
    ({"organizationId": "1; drop"}, "organizationId"),
])
def test_hostile_role_input_is_refused_in_the_readers_language_and_changes_nothing(api, body, field):
    acme = api.token("acme")
    org = acme_org(api, acme)
    api.language = "ru-RU"
    fields = {"organizationId": org, "roleName": "Fine", "description": None, "permissions": ["device.list"],
              **body}
    reply = api.call("POST", ROLE_INSERT, token=acme, json=fields)
    assert reply.status in (400, 422), reply.body
    if field:
        assert field in reply.body["errors"], reply.body
        assert not any(ch.isascii() and ch.isalpha() for ch in " ".join(reply.body["errors"][field])), reply.body
    assert custom_names(api, acme, org) == []


def test_a_role_name_is_unique_in_the_organization_whatever_its_case(api):
    acme = api.token("acme")
    org = acme_org(api, acme)
    ok(create(api, acme, org, "Dispatcher"))
    api.language = "en-US"
    taken = create(api, acme, org, "  DISPATCHER ")
    assert taken.status == 422 and taken.body["errors"]["roleName"] == [
        "The organization already has a role of this name"]
    ok(create(api, acme, org, "Ж" * 20, description="描" * 20))
    assert custom_names(api, acme, org) == ["Dispatcher", "Ж" * 20]


def test_dissolving_an_organization_takes_its_roles_along(api):
    acme = api.token("acme")
    other = ok(api.call("POST", "/base/BaseOrganization/insert", token=acme, json={"organizationName": "Night"}))
    made = ok(create(api, acme, other["organizationId"]))
    ok(api.call("DELETE", "/base/BaseOrganization/delete", token=acme,
                query={"organizationId": other["organizationId"]}))
    gone = api.call("PUT", ROLE_UPDATE, token=acme, json={"roleId": made["roleId"], "roleName": "Again",
                                                          "description": None, "permissions": []})
    assert gone.status == 404
