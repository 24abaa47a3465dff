"""Organizations and members (issue 17): acme's organization invites by user name, phone or
e-mail, the invitee answers in the message centre, members are re-roled, removed and handed the
creator identity; every call on an organization answers a stranger 404 and a plain member 403."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.integration.test_recharge_api import ok

LIST, INSERT, UPDATE, DELETE, MEMBERS = (f"/base/BaseOrganization/{p}" for p in
                                          ("list", "insert", "update", "delete", "members"))
UEP, INVITE, WITHDRAW, REMOVE, HAND_OVER = (f"/base/BaseAccount/{p}" for p in (
    "queryAccountByUEP", "invite", "withdrawInvitation", "deleteInOrganization", "updateAccountOrganizationRel"))
ROLE, ROLES = "/base/BaseRole/updateRoleInOrganization", "/base/BaseRole/queryRoleByOrganizationType"
ROLE_INSERT, ROLE_UPDATE, ROLE_DELETE, GRANTABLE = (f"/base/BaseRole/{p}" for p in (
    "insert", "update", "delete", "queryOrganizationPermissions"))
MESSAGES, ANSWER, DEVICES = "/base/BaseMessage/page", "/base/BaseMessage/answer", "/device/Device/page"
ACME_DEVICES = {"CR2B000000001", "RCW360B0000001"}

pytestmark = pytest.mark.usefixtures("demo")


def acme_org(api, token) -> int:
    [org] = [o for o in ok(api.call("GET", LIST, token=token)) if o["organizationName"] == "Acme Cold Chain"]
    return org["organizationId"]


def invite(api, token, org: int, uep: str, role: str = "org_member"):
    return api.call("POST", INVITE, token=token, json={"organizationId": org, "uep": uep, "roleCode": role})


def invitation_message(api, token) -> dict:
    return next(m for m in ok(api.call("POST", MESSAGES, token=token, json={"kind": "invitation"}))["data"]
                if m["needsDecision"] and m["decision"] is None)


def answer(api, token, message_id: int, decision: str = "approved"):
    return api.call("POST", ANSWER, token=token, json={"messageId": message_id, "decision": decision})


def guids(api, token) -> set[str]:
    return {d["deviceGuid"] for d in ok(api.call("POST", DEVICES, token=token, json={"pageSize": 200}))["data"]}


def members(api, token, org: int) -> dict[str, str]:
    listing = ok(api.call("GET", MEMBERS, token=token, query={"organizationId": org}))
    return {m["userName"]: m["roleCode"] for m in listing["members"]}


def join(api, owner: str, user: str, role: str, org: int) -> str:
    token = api.token(user)
    ok(invite(api, api.token(owner), org, user, role))
    ok(answer(api, token, invitation_message(api, token)["messageId"]))
    return token


def test_acme_invites_alice_who_approves_sees_its_devices_and_loses_them_when_removed(api, container):
    acme, alice = api.token("acme"), api.token("alice")
    org = acme_org(api, acme)
    assert not guids(api, alice) & ACME_DEVICES
    found = ok(api.call("GET", UEP, token=acme, query={"organizationId": org, "uep": "13800000001"}))
    assert found == {"displayName": "a***e"}  # masked: enough to recognise, no phone or e-mail
    invited = ok(invite(api, acme, org, "alice@example.com"))
    assert invited["displayName"] == "a***e"
    message = invitation_message(api, alice)
    assert "Acme Cold Chain" in message["content"] and "acme" in message["content"]
    assert "alice" not in members(api, acme, org)

    ok(answer(api, alice, message["messageId"]))
    assert members(api, acme, org)["alice"] == "org_member"
    assert guids(api, alice) >= ACME_DEVICES  # on the very next request
    info = ok(api.account_info(alice))
    assert [o["organizationName"] for o in info["orgWithMyRole"]] == ["Acme Cold Chain"]
    assert "organization.list" in info["permissionRoutes"]
    again = answer(api, alice, message["messageId"], "rejected")
    assert (again.status, again.code) == (409, 1631)

    ok(api.call("DELETE", REMOVE, token=acme, query={"organizationId": org, "accountId": info["baseAccount"]["id"]}))
    assert not guids(api, alice) & ACME_DEVICES
    assert ok(api.account_info(alice))["orgWithMyRole"] == []
    gone = api.call("GET", MEMBERS, token=alice, query={"organizationId": org})
    assert gone.status == 404


def test_a_rejected_invitation_changes_nothing_and_a_withdrawn_or_expired_one_cannot_be_approved(api, clock):
    acme, alice = api.token("acme"), api.token("alice")
    org = acme_org(api, acme)
    ok(invite(api, acme, org, "alice"))
    ok(answer(api, alice, invitation_message(api, alice)["messageId"], "rejected"))
    assert "alice" not in members(api, acme, org)

    invitation = ok(invite(api, acme, org, "alice"))
    ok(api.call("DELETE", WITHDRAW, token=acme, query={"invitationId": invitation["invitationId"]}))
    withdrawn = invitation_message(api, alice)
    refused = answer(api, alice, withdrawn["messageId"])
    assert (refused.status, refused.code) == (409, 1703)
    assert invitation_message(api, alice)["decision"] is None  # the refused answer was not recorded

    ok(invite(api, acme, org, "alice"))
    clock._now = clock.now() + timedelta(days=8)
    expired = [m for m in ok(api.call("POST", MESSAGES, token=api.token("alice"), json={}))["data"]
               if m["needsDecision"] and m["decision"] is None][0]
    assert (answer(api, api.token("alice"), expired["messageId"]).code) == 1703
    assert "alice" not in members(api, api.token("acme"), org)


def test_a_newer_invitation_replaces_the_pending_one(api):
    acme, alice = api.token("acme"), api.token("alice")
    org = acme_org(api, acme)
    ok(invite(api, acme, org, "alice"))
    first = invitation_message(api, alice)
    ok(invite(api, acme, org, "alice", "org_admin"))
    assert answer(api, alice, first["messageId"]).code == 1703
    ok(answer(api, alice, invitation_message(api, alice)["messageId"]))
    assert members(api, acme, org)["alice"] == "org_admin"


def test_the_lookup_answers_alike_for_no_account_a_member_and_the_inviter(api):
    acme = api.token("acme")
    org = acme_org(api, acme)
    answers = {uep: api.call("GET", UEP, token=acme, query={"organizationId": org, "uep": uep})
               for uep in ("nobody-here", "bob", "acme", "13899999999")}
    assert {(r.status, r.code, r.body["msg"]) for r in answers.values()} == {
        (409, 1702, "No account that can be invited matches this user name, phone or e-mail")}
    assert invite(api, acme, org, "bob").code == 1702


def test_roles_change_and_the_creator_identity_is_handed_over(api):
    acme = api.token("acme")
    org = acme_org(api, acme)
    alice = join(api, "acme", "alice", "org_member", org)
    bob_id = ok(api.account_info(api.token("bob")))["baseAccount"]["id"]
    alice_id = ok(api.account_info(alice))["baseAccount"]["id"]
    ok(api.call("PUT", ROLE, token=acme, json={"organizationId": org, "accountId": alice_id, "roleCode": "org_admin"}))
    # an administrator manages members now, on the next request
    ok(api.call("PUT", ROLE, token=alice, json={"organizationId": org, "accountId": bob_id, "roleCode": "org_admin"}))
    acme_id = ok(api.account_info(acme))["baseAccount"]["id"]
    fixed = api.call("PUT", ROLE, token=alice, json={"organizationId": org, "accountId": acme_id,
                                                     "roleCode": "org_member"})
    assert (fixed.status, fixed.code) == (409, 1704)
    assert api.call("PUT", HAND_OVER, token=alice, json={"organizationId": org, "accountId": bob_id}).status == 403

    ok(api.call("PUT", HAND_OVER, token=acme, json={"organizationId": org, "accountId": alice_id}))
    assert members(api, acme, org) == {"acme": "org_admin", "alice": "org_creator", "bob": "org_admin"}
    [mine] = ok(api.call("GET", LIST, token=alice))
    assert (mine["creator"], mine["roleCode"]) == (True, "org_creator")
    assert api.call("DELETE", DELETE, token=acme, query={"organizationId": org}).status == 403
    refused = api.call("DELETE", DELETE, token=alice, query={"organizationId": org})
    assert (refused.status, refused.code) == (409, 1701) and "2 devices" in refused.body["msg"]


def test_an_organization_is_created_renamed_and_dissolved_and_names_are_checked(api):
    acme = api.token("acme")
    api.language = "ru-RU"
    short = api.call("POST", INSERT, token=acme, json={"organizationName": " X "})
    assert short.status == 422
    assert short.body["errors"]["organizationName"] == ["Название организации должно содержать от 2 до 50 символов"]
    api.language = "en-US"
    created = ok(api.call("POST", INSERT, token=acme, json={"organizationName": "  Night shift  "}))
    assert (created["organizationName"], created["roleCode"], created["creator"]) == ("Night shift", "org_creator",
                                                                                      True)
    org = created["organizationId"]
    ok(api.call("PUT", UPDATE, token=acme, json={"organizationId": org, "organizationName": "Day shift"}))
    long = api.call("PUT", UPDATE, token=acme, json={"organizationId": org, "organizationName": "x" * 51})
    assert long.status == 422
    assert {o["organizationName"] for o in ok(api.call("GET", LIST, token=acme))} == {"Acme Cold Chain", "Day shift"}
    ok(api.call("DELETE", DELETE, token=acme, query={"organizationId": org}))
    assert {o["organizationName"] for o in ok(api.call("GET", LIST, token=acme))} == {"Acme Cold Chain"}
    # a personal customer may not create one
    assert api.call("POST", INSERT, token=api.token("alice"), json={"organizationName": "Mine"}).status == 403


def test_hostile_input_is_refused_and_changes_nothing(api):
    acme = api.token("acme")
    org = acme_org(api, acme)
    for body in ({"organizationId": org, "uep": "alice", "roleCode": "org_creator"},
                 {"organizationId": org, "uep": "a", "roleCode": "org_member"},
                 {"organizationId": org, "uep": "alice' OR '1'='1", "roleCode": "org_member"},
                 {"organizationId": "1; drop", "uep": "alice", "roleCode": "org_member"},
                 {"organizationId": 2**40, "uep": "alice", "roleCode": "org_member"}):
        reply = api.call("POST", INVITE, token=acme, json=body)
        assert reply.status in (409, 422), (body, reply.body)
    assert ok(api.call("POST", MESSAGES, token=api.token("alice"), json={"kind": "invitation"}))["totalCount"] == 0
    assert set(members(api, acme, org)) == {"acme", "bob"}


# Access matrix: each call on an organization, for each caller: creator (acme), administrator
# (alice, joined as org_admin), read-only member (bob), stranger (calibadmin, no organization),
# operator. A call added to the blueprint without a row here fails test_every_call_has_a_row.
# Calls on a custom role get a fresh role of acme's organization (`r`).
ROLE_FIELDS = {"roleName": "Matrix", "description": None, "permissions": ["device.list"]}
CALLS = {
    ("GET", MEMBERS): lambda org, m, r: {"query": {"organizationId": org}},
    ("GET", UEP): lambda org, m, r: {"query": {"organizationId": org, "uep": "nobody-here"}},
    ("POST", INVITE): lambda org, m, r: {"json": {"organizationId": org, "uep": "nobody-here",
                                                  "roleCode": "org_member"}},
    ("PUT", UPDATE): lambda org, m, r: {"json": {"organizationId": org, "organizationName": "Acme Cold Chain"}},
    ("PUT", ROLE): lambda org, m, r: {"json": {"organizationId": org, "accountId": m, "roleCode": "org_member"}},
    ("DELETE", REMOVE): lambda org, m, r: {"query": {"organizationId": org, "accountId": m}},
    ("PUT", HAND_OVER): lambda org, m, r: {"json": {"organizationId": org, "accountId": m}},
    ("DELETE", DELETE): lambda org, m, r: {"query": {"organizationId": org}},
    ("DELETE", WITHDRAW): None,  # by invitation id: its own test below
    ("GET", ROLES): lambda org, m, r: {"query": {"organizationType": 2, "organizationId": org}},
    ("POST", ROLE_INSERT): lambda org, m, r: {"json": {"organizationId": org, **ROLE_FIELDS}},
    ("PUT", ROLE_UPDATE): lambda org, m, r: {"json": {"roleId": r, **ROLE_FIELDS, "roleName": f"Renamed {r}"}},
    ("DELETE", ROLE_DELETE): lambda org, m, r: {"query": {"roleId": r}},
}
# The target member of each call is a fresh member (carol's role is irrelevant), so a success
# proves the caller may; 409 1702/1701 are successes of the check too (nobody-here, devices held).
ALLOWED, DENIED, HIDDEN = "allowed", 403, 404
MATRIX = {
    "acme": dict.fromkeys(CALLS, ALLOWED),
    "alice": {**dict.fromkeys(CALLS, ALLOWED), ("PUT", HAND_OVER): DENIED, ("DELETE", DELETE): DENIED},
    "bob": {**dict.fromkeys(CALLS, DENIED), ("GET", MEMBERS): ALLOWED, ("GET", ROLES): ALLOWED},
    "calibadmin": dict.fromkeys(CALLS, HIDDEN),
    "operator": dict.fromkeys(CALLS, HIDDEN),
}


def test_every_call_has_a_row(api):
    routes = {(method, rule.rule.removeprefix("/api")) for rule in api.client.application.url_map.iter_rules()
              if rule.endpoint.startswith("organizations.") for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert routes - {("GET", LIST), ("POST", INSERT), ("GET", GRANTABLE)} == set(CALLS)


@pytest.mark.parametrize("caller", list(MATRIX))
def test_access_matrix(api, caller):
    acme = api.token("acme")
    org = acme_org(api, acme)
    join(api, "acme", "alice", "org_admin", org)
    token = api.token(caller)
    for (method, path), build in CALLS.items():
        if build is None:
            continue
        target = ok(api.account_info(api.token("bob")))["baseAccount"]["id"]
        role = ok(api.call("POST", ROLE_INSERT, token=acme, json={
            "organizationId": org, **ROLE_FIELDS, "roleName": f"{method} {path[-12:]}"}))["roleId"]
        reply = api.call(method, path, token=token, **build(org, target, role))
        expected = MATRIX[caller][(method, path)]
        if expected == ALLOWED:
            assert reply.status in (200, 409) and reply.code in (0, 1701, 1702), (caller, path, reply.body)
        else:
            assert reply.status == expected, (caller, path, reply.body)
        if reply.status == 200 and path == HAND_OVER:  # give it back so the later rows hold
            ok(api.call(method, path, token=api.token("bob"), json={"organizationId": org,
                                                                     "accountId": _id(api, caller)}))
        if reply.status == 200 and path == REMOVE:
            ok(invite(api, acme, org, "bob"))
            bob = api.token("bob")
            ok(answer(api, bob, invitation_message(api, bob)["messageId"]))


def _id(api, user: str) -> int:
    return ok(api.account_info(api.token(user)))["baseAccount"]["id"]


@pytest.mark.parametrize(("caller", "status"), [("alice", 200), ("bob", 403), ("calibadmin", 404), ("operator", 404)])
def test_withdrawing_an_invitation_is_for_managers(api, caller, status):
    acme = api.token("acme")
    org = acme_org(api, acme)
    join(api, "acme", "alice", "org_admin", org)
    invitation = ok(invite(api, acme, org, "calibadmin"))
    reply = api.call("DELETE", WITHDRAW, token=api.token(caller), query={"invitationId": invitation["invitationId"]})
    assert reply.status == status, reply.body
    pending = ok(api.call("GET", MEMBERS, token=acme, query={"organizationId": org}))["invitations"]
    assert [i["displayName"] for i in pending] == ([] if status == 200 else ["c********n"])


def test_the_roles_of_an_organization_in_the_readers_language(api):
    api.language = "de-DE"
    rows = ok(api.call("GET", ROLES, token=api.token("alice"), query={"organizationType": 2}))
    assert [(r["roleCode"], r["assignable"]) for r in rows] == [
        ("org_creator", False), ("org_admin", True), ("org_member", True)]
    assert all(r["roleName"] and r["roleName"] != "Organization member" for r in rows)
