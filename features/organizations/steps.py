"""Steps of features/organizations/*.feature, imported by features/conftest.py so that the
scenarios collected by features/test_features.py find them."""

from __future__ import annotations

from pytest_bdd import given, parsers, then, when

ROLES = "/base/BaseRole"


def _organization(api, world, user: str, name: str) -> int:
    listing = api.call("GET", "/base/BaseOrganization/list", token=world["tokens"][user])
    return next(o["organizationId"] for o in listing.data if o["organizationName"] == name)


def _role(api, world, user: str, organization: str, role: str) -> dict:
    org = _organization(api, world, user, organization)
    rows = api.call("GET", f"{ROLES}/queryRoleByOrganizationType", token=world["tokens"][user],
                    query={"organizationType": 2, "organizationId": org}).data
    return next(r for r in rows if role in (r["roleCode"], r["roleName"]))


def _permissions(api, world, user: str) -> set[str]:
    return set(api.account_info(world["tokens"][user]).data["permissionRoutes"])


@given(parsers.parse("{user}'s permission list has no {permission}"))
@then(parsers.parse("{user}'s permission list has no {permission}"))
def _lacks(api, world, user, permission):
    assert permission not in _permissions(api, world, user)


@then(parsers.parse("{user}'s permission list has {first} and {second}"))
def _has(api, world, user, first, second):
    assert {first, second} <= _permissions(api, world, user)


@when(parsers.parse('{user} makes the role "{role}" in {organization} granting {permissions}'))
def _make(api, world, user, role, organization, permissions):
    org = _organization(api, world, "acme", organization)
    world["replies"].append(api.call("POST", f"{ROLES}/insert", token=world["tokens"][user], json={
        "organizationId": org, "roleName": role, "description": None,
        "permissions": [p.strip() for p in permissions.split(" and ")]}))


@when(parsers.parse('{manager} gives {member} the role "{role}" in {organization}'))
def _give(api, world, manager, member, role, organization):
    org = _organization(api, world, manager, organization)
    code = _role(api, world, manager, organization, role)["roleCode"]
    member_id = api.account_info(world["tokens"][member]).data["baseAccount"]["id"]
    reply = api.call("PUT", f"{ROLES}/updateRoleInOrganization", token=world["tokens"][manager],
                     json={"organizationId": org, "accountId": member_id, "roleCode": code})
    assert reply.status == 200, reply.body


@when(parsers.parse('{user} deletes the role "{role}" of {organization}'))
def _delete(api, world, user, role, organization):
    role_id = _role(api, world, user, organization, role)["roleId"]
    world["replies"].append(api.call("DELETE", f"{ROLES}/delete", token=world["tokens"][user],
                                     query={"roleId": role_id}))


@then(parsers.parse('{user}\'s role in {organization} reads "{name}"'))
def _reads(api, world, user, organization, name):
    mine = api.account_info(world["tokens"][user]).data["orgWithMyRole"]
    assert [o["roleName"] for o in mine if o["organizationName"] == organization] == [name]


@then(parsers.parse("the answer is {status:d}"))
def _answer(world, status):
    assert world["replies"][-1].status == status, world["replies"][-1].body


@then(parsers.parse('the answer is {status:d} saying "{text}"'))
def _answer_saying(world, status, text):
    reply = world["replies"][-1]
    assert reply.status == status and text in reply.body["msg"], reply.body
