"""User administration over the API (issue 17), SQLite and PostgreSQL with the demo data: the
operator finds, adds, modifies, deletes accounts, resets a password (the user logs in with the new
one, their old tokens are dead), upgrades to enterprise, certifies a contractor who applied and
exports the list; the system roles with their permissions. Customers get 403, no token 401; the
back-office accounts are the system administrator's; hostile input changes nothing."""

from __future__ import annotations

from io import BytesIO

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]
from sqlalchemy import select

from adapters.persistence.models import AccountRow
from core.useradmin.model import CONTRACTOR_AGREEMENT_VERSION
from entrypoints.api.useradmin import schemas as s
from tests.integration.test_devices_api import conforms
from tests.support.api import ok

pytestmark = pytest.mark.usefixtures("demo")

BASE = "/base/BaseAccount"
PAGE, EXPORT, ADD, MODIFY, DELETE, RESET, UPGRADE, CERTIFY, APPLY, AGREEMENT = (
    f"{BASE}/{n}" for n in ("queryUserByCondition", "exportUserByCondition", "sysAddUser", "sysModifyUser",
                            "sysDeleteUser", "resetPasswordBySys", "userTypeUpgrade", "contractorCertify",
                            "contractorApply", "contractorAgreement"))
ROLES, ACCOUNT_ROLES = "/base/BaseRole/querySystemRoleList", "/base/BaseRole/queryRolesByCampAccount"
NEW = {"userName": "carol_cold", "accountPassword": "Frost!Line42", "roleCode": "customer_personal",
       "accountType": 1, "realName": "Carol", "phone": "13900000077", "email": "carol@example.com"}


def find(api, token, **filters) -> list[dict]:
    return ok(api.call("POST", PAGE, token=token, json={"pageSize": 50, **filters}))["data"]


def user_id(api, token, name) -> int:
    [row] = [u for u in find(api, token, userName=name) if u["userName"] == name]
    return row["id"]


def accounts(container) -> dict[str, tuple]:
    with container.session_factory()() as session:
        return {a.user_name: (a.phone, a.email, a.account_type, a.status, a.deleted_at is not None, a.real_name)
                for a in session.scalars(select(AccountRow))}


def test_the_operator_lists_and_searches_users(api):
    op = api.token("operator")
    page = ok(api.call("POST", PAGE, token=op, json={"pageSize": 2}))
    assert page["totalCount"] >= 6 and len(page["data"]) == 2
    assert [u["userName"] for u in find(api, op, userName="ALIC")] == ["alice"]
    assert [u["userName"] for u in find(api, op, phone="00000002")] == ["acme"]
    assert sorted(u["userName"] for u in find(api, op, email="ACME.example")) == ["acme", "bob"]
    enterprise = find(api, op, accountType=2)
    assert [(u["userName"], u["roleCode"], u["accountTypeName"]) for u in enterprise] == [
        ("acme", "customer_enterprise", "Enterprise")]
    assert {u["userName"] for u in find(api, op, roleCode="operator")} == {"operator"}
    assert "password" not in find(api, op, userName="alice")[0]


def test_the_operator_adds_modifies_and_deletes_a_customer(api, container):
    op = api.token("operator")
    reply = api.call("POST", ADD, token=op, json=NEW)
    conforms(reply, s.AddedUserSchema)
    added = ok(reply)
    assert (added["userName"], added["roleCode"], added["password"]) == ("carol_cold", "customer_personal", None)
    assert ok(api.login("carol_cold", "Frost!Line42"))["token"]
    changed = ok(api.call("POST", MODIFY, token=op, json={
        "id": added["id"], "realName": " Carol K ", "phone": "13900000078", "email": "", "company": "Frost Ltd",
        "accountType": 4, "roleCode": "dealer"}))
    assert (changed["realName"], changed["email"], changed["accountType"], changed["roleName"]) == (
        "Carol K", None, 4, "Dealer")
    carol = api.token("carol_cold", "Frost!Line42")
    ok(api.call("POST", DELETE, token=op, json={"id": added["id"]}))
    assert api.account_info(carol).status == 401  # her sessions ended
    assert api.login("carol_cold", "Frost!Line42").status != 200
    assert find(api, op, userName="carol") == []
    assert [u["userName"] for u in find(api, op, userName="carol", deleted=True)] == ["carol_cold"]
    assert accounts(container)["carol_cold"][3:5] == (0, True)  # kept, disabled, marked deleted
    again = api.call("POST", ADD, token=op, json={**NEW, "phone": None, "email": None})
    assert (again.status, list(again.body["errors"])) == (422, ["userName"])  # the name stays hers


def test_a_generated_password_is_answered_once_and_meets_the_policy(api):
    op = api.token("operator")
    added = ok(api.call("POST", ADD, token=op, json={**NEW, "accountPassword": ""}))
    password = added["password"]
    assert len(password) >= 12 and any(c.isdigit() for c in password) and any(c.isupper() for c in password)
    assert ok(api.login("carol_cold", password))["token"]


def test_a_reset_password_is_shown_once_revokes_tokens_and_logs_in(api):
    op, alice = api.token("operator"), api.token("alice")
    reply = ok(api.call("POST", RESET, token=op, json={"id": user_id(api, op, "alice")}))
    password = reply["password"]
    assert api.account_info(alice).status == 401
    assert api.login("alice").status != 200
    assert ok(api.login("alice", password))["token"]
    assert "password" not in find(api, op, userName="alice")[0]


def test_upgrade_to_enterprise_by_the_operator_and_by_the_customer_for_their_own(api):
    op = api.token("operator")
    upgraded = ok(api.call("PUT", UPGRADE, token=op, json={"id": user_id(api, op, "alice")}))
    assert (upgraded["accountType"], upgraded["roleCode"]) == (2, "customer_enterprise")
    again = api.call("PUT", UPGRADE, token=op, json={"id": upgraded["id"]})
    assert (again.status, again.code, again.body["msg"]) == (409, 1907, "This account is already an enterprise account")
    bob = api.token("bob")
    assert api.call("PUT", UPGRADE, token=bob, json={"id": upgraded["id"]}).status == 403
    mine = ok(api.call("PUT", UPGRADE, token=bob, json={}))
    assert (mine["userName"], mine["accountType"]) == ("bob", 2)


def test_the_upgrade_refuses_back_office_enterprise_engineer_and_dealer_accounts_in_the_caller_s_language(
        api, container):
    op = api.token("operator")
    before = accounts(container)
    own = api.call("PUT", UPGRADE, token=op, json={})  # the operator's own account: no id
    assert (own.status, own.code) == (409, 1908) and own.body["msg"].startswith("A back-office account")
    api.language = "ru-RU"
    admin = api.call("PUT", UPGRADE, token=op, json={"id": user_id(api, op, "admin")})
    assert (admin.status, admin.code) == (409, 1908) and admin.body["msg"].startswith("У служебной учётной записи")
    acme = api.call("PUT", UPGRADE, token=api.token("acme"), json={})
    assert (acme.status, acme.code, acme.body["msg"]) == (409, 1907, "Эта учётная запись уже корпоративная")
    bob = api.token("bob")
    ok(api.call("POST", APPLY, token=bob, json={"agreementVersion": CONTRACTOR_AGREEMENT_VERSION}))
    engineer = api.call("PUT", UPGRADE, token=bob, json={})
    assert (engineer.status, engineer.code) == (409, 1904)
    for token in (op, api.token("calibadmin")):  # back office: no contractor either
        refused = api.call("POST", APPLY, token=token, json={"agreementVersion": CONTRACTOR_AGREEMENT_VERSION})
        assert (refused.status, refused.code) == (409, 1908)
    after = accounts(container)
    assert {k: v for k, v in after.items() if k != "bob"} == {k: v for k, v in before.items() if k != "bob"}
    assert after["bob"][2] == 3  # his application alone went through


def test_the_agreement_is_the_server_s_text_in_the_caller_s_language_with_where_they_stand(api):
    bob = api.token("bob")
    reply = api.call("GET", AGREEMENT, token=bob)
    conforms(reply, s.ContractorAgreementSchema)
    agreement = ok(reply)
    assert (agreement["version"], agreement["contractorState"], agreement["acceptedVersion"],
            agreement["appliedAt"]) == (CONTRACTOR_AGREEMENT_VERSION, 0, None, None)
    assert agreement["title"] == "Engineer (contractor) agreement" and len(agreement["clauses"]) == 5
    ok(api.call("POST", APPLY, token=bob, json={"agreementVersion": agreement["version"]}))
    api.language = "de-DE"
    applied = ok(api.call("GET", AGREEMENT, token=bob))
    assert (applied["contractorState"], applied["acceptedVersion"]) == (1, CONTRACTOR_AGREEMENT_VERSION)
    assert applied["appliedAt"] and applied["title"] == "Vereinbarung für Techniker (Auftragnehmer)"
    assert all(c and c not in agreement["clauses"] for c in applied["clauses"])


def test_a_contractor_applies_with_the_agreement_and_the_operator_certifies(api):
    bob, op = api.token("bob"), api.token("operator")
    version = ok(api.call("GET", AGREEMENT, token=bob))["version"]
    wrong = api.call("POST", APPLY, token=bob, json={"agreementVersion": "1999-01"})
    assert wrong.status == 422
    applied = ok(api.call("POST", APPLY, token=bob, json={"agreementVersion": version}))
    assert (applied["accountType"], applied["contractorState"], applied["contractorAgreement"]) == (
        3, 1, CONTRACTOR_AGREEMENT_VERSION)
    assert applied["contractorAppliedAt"]
    certified = ok(api.call("POST", CERTIFY, token=op, json={"id": applied["id"], "certified": True}))
    assert certified["contractorState"] == 2
    assert [u["contractorState"] for u in find(api, op, accountType=3)] == [2]
    assert ok(api.call("POST", CERTIFY, token=op, json={"id": applied["id"], "certified": False}))[
        "contractorState"] == 1
    never = api.call("POST", CERTIFY, token=op, json={"id": user_id(api, op, "alice"), "certified": True})
    assert (never.status, never.code) == (409, 1905)
    assert api.call("POST", APPLY, token=api.token("acme"), json={"agreementVersion": version}).code == 1906


def test_the_export_is_an_xlsx_in_the_operator_s_language_without_hashes(api):
    op = api.token("operator")
    api.language = "ru-RU"
    reply = api.client.post("/api/base/BaseAccount/exportUserByCondition", json={"accountType": 1},
                            headers={"Authorization": f"Bearer {op}", "Accept-Language": "ru-RU"})
    assert reply.status_code == 200 and reply.mimetype.endswith("sheet")
    sheet = load_workbook(BytesIO(reply.data)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][0] != "User name" and len(rows[0]) == 10
    assert {r[0] for r in rows[1:]} == {"alice", "bob"}
    assert not any("$argon2" in str(v) for r in rows for v in r)


def test_system_roles_with_their_permissions(api):
    op = api.token("operator")
    listed = ok(api.call("POST", ROLES, token=op))
    by_code = {r["roleCode"]: r for r in listed}
    assert {"system_admin", "operator", "customer_personal", "customer_enterprise", "dealer"} <= set(by_code)
    assert "system.consumer:query" in by_code["operator"]["permissions"]
    assert "system.role" not in by_code["operator"]["permissions"]
    assert by_code["operator"]["roleName"] == "Operator"
    assert api.call("GET", ACCOUNT_ROLES, token=op, query={"accountId": 2**31 - 1}).status == 404


def test_the_roles_of_an_account_are_its_system_role_and_its_role_in_each_organization(api):
    op, acme = api.token("operator"), api.token("acme")
    reply = api.call("GET", ACCOUNT_ROLES, token=op, query={"accountId": user_id(api, op, "acme")})
    conforms(reply, s.AccountRoleSchema, many=True)
    held = [(r["roleCode"], r["roleType"], r["organizationName"]) for r in ok(reply)]
    assert held == [("customer_enterprise", 1, None), ("org_creator", 2, "Acme Cold Chain")]
    # a custom role acme gives bob shows with its own name and permissions, the caller's own without an id
    [org] = [o["organizationId"] for o in ok(api.account_info(acme))["orgWithMyRole"]]
    role = ok(api.call("POST", "/base/BaseRole/insert", token=acme, json={
        "organizationId": org, "roleName": "Loaders", "description": None, "permissions": ["device.list"]}))
    ok(api.call("PUT", "/base/BaseRole/updateRoleInOrganization", token=acme, json={
        "organizationId": org, "accountId": user_id(api, op, "bob"), "roleCode": role["roleCode"]}))
    api.language = "zh-CN"
    bob = api.token("bob")
    mine = ok(api.call("GET", ACCOUNT_ROLES, token=bob))
    assert [(r["roleName"], r["organizationId"]) for r in mine] == [("个人客户", None), ("Loaders", org)]
    assert "device.list" in mine[1]["permissions"] and "device.list:edit" not in mine[1]["permissions"]
    assert ok(api.call("GET", ACCOUNT_ROLES, token=bob, query={"accountId": user_id(api, op, "bob")})) == mine
    for other in ("acme", "alice"):  # a customer reads no other account's roles
        refused = api.call("GET", ACCOUNT_ROLES, token=bob, query={"accountId": user_id(api, op, other)})
        assert refused.status == 403, refused.body


def test_back_office_accounts_are_the_system_administrator_s(api, container):
    op, admin = api.token("operator"), api.token("admin")
    admin_id, operator_id = user_id(api, admin, "admin"), user_id(api, admin, "operator")
    before = accounts(container)
    for method, path, body in (("POST", DELETE, {"id": admin_id}), ("POST", RESET, {"id": admin_id}),
                               ("POST", MODIFY, {"id": admin_id, "accountType": 9, "roleCode": "system_admin",
                                                 "realName": "x"}),
                               ("POST", ADD, {**NEW, "accountType": 9, "roleCode": "operator"}),
                               ("POST", MODIFY, {"id": user_id(api, op, "alice"), "accountType": 9,
                                                 "roleCode": "system_admin"})):
        reply = api.call(method, path, token=op, json=body)
        assert (reply.status, reply.code) == (409, 1903), (path, reply.body)
    for path in (DELETE, RESET):
        reply = api.call("POST", path, token=op, json={"id": operator_id})
        assert (reply.status, reply.code) == (409, 1901), reply.body
    last = api.call("POST", DELETE, token=admin, json={"id": admin_id})
    assert (last.status, last.code) == (409, 1901)
    demote = api.call("POST", MODIFY, token=admin, json={"id": admin_id, "accountType": 9, "roleCode": "operator"})
    assert (demote.status, demote.code) == (409, 1901)
    assert accounts(container) == before
    assert ok(api.call("POST", DELETE, token=admin, json={"id": operator_id})) is None
    assert api.account_info(op).status == 401


def test_the_last_system_administrator_stays(api):
    admin = api.token("admin")
    second = ok(api.call("POST", ADD, token=admin, json={**NEW, "accountType": 9, "roleCode": "system_admin"}))
    other = api.token("carol_cold", "Frost!Line42")
    ok(api.call("POST", DELETE, token=other, json={"id": user_id(api, admin, "admin")}))
    reply = api.call("POST", DELETE, token=api.token("operator"), json={"id": second["id"]})
    assert reply.code == 1903
    demote = api.call("POST", MODIFY, token=other, json={"id": second["id"], "accountType": 9,
                                                         "roleCode": "operator"})
    assert demote.code == 1901


@pytest.mark.parametrize(("body", "field"), [
    ({"userName": "x" * 51}, "userName"),
    ({"userName": "x" * 500}, "userName"),
    ({"userName": "1abcdefg"}, "userName"),
    ({"userName": "alice_😀x"}, "userName"),
    ({"realName": "r" * 21}, "realName"),
    ({"realName": "Carol 😀"}, "realName"),
    ({"company": "C"}, "company"),
    ({"company": "Acme\u200bCold"}, "company"),
    ({"phone": "12345"}, "phone"),
    ({"phone": "13800000001"}, "phone"),  # alice's
    ({"email": "ALICE@example.com"}, "email"),  # alice's, another case
    ({"email": "not-an-address"}, "email"),
    ({"accountPassword": "short1!A"[:5]}, "accountPassword"),
    ({"accountPassword": "Password123!"}, "accountPassword"),
    ({"accountPassword": "carol_cold1A!"}, "accountPassword"),
    ({"accountType": 2}, "accountType"),  # enterprise with the personal role
    ({"accountType": 7}, "accountType"),
    ({"roleCode": "org_admin"}, "roleCode"),
    ({"accountType": "1; drop"}, "accountType"),
])
def test_hostile_input_is_refused_on_its_field_and_changes_nothing(api, container, body, field):
    op = api.token("operator")
    before = accounts(container)
    api.language = "ru-RU"
    reply = api.call("POST", ADD, token=op, json={**NEW, **body})
    assert reply.status == 422 and field in reply.body["errors"], reply.body
    assert not any(ch.isascii() and ch.isalpha() for ch in reply.body["msg"][:3]) or reply.body["msg"]
    assert accounts(container) == before


def test_modifying_with_another_s_phone_or_unknown_ids_changes_nothing(api, container):
    op = api.token("operator")
    before = accounts(container)
    bob = user_id(api, op, "bob")
    taken = api.call("POST", MODIFY, token=op, json={"id": bob, "phone": "13800000001", "accountType": 1,
                                                     "roleCode": "customer_personal"})
    assert (taken.status, list(taken.body["errors"])) == (422, ["phone"])
    for bad in (2**31 - 1, 0, -1, 2**40, "1; drop", None, [1]):
        reply = api.call("POST", DELETE, token=op, json={"id": bad})
        assert reply.status in (404, 422), (bad, reply.body)
    assert api.call("POST", RESET, token=op, json={"id": 2**31 - 1}).status == 404
    assert accounts(container) == before


# Access matrix: every call of the blueprint, for each caller: no token, customers (alice, acme),
# the calibration administrator, the operator and the system administrator. A call added without
# a row here fails test_every_call_has_a_row.
CALLS = {
    ("POST", PAGE): lambda ids: {"json": {}},
    ("POST", EXPORT): lambda ids: {"json": {}},
    ("POST", ADD): lambda ids: {"json": {**NEW, "accountPassword": None}},
    ("POST", MODIFY): lambda ids: {"json": {"id": ids["bob"], "realName": "Bob", "accountType": 1,
                                            "roleCode": "customer_personal"}},
    ("POST", DELETE): lambda ids: {"json": {"id": ids["bob"]}},
    ("POST", RESET): lambda ids: {"json": {"id": ids["bob"]}},
    ("PUT", UPGRADE): lambda ids: {"json": {"id": ids["bob"]}},
    ("POST", CERTIFY): lambda ids: {"json": {"id": ids["bob"], "certified": True}},
    ("POST", ROLES): lambda ids: {},
    ("GET", ACCOUNT_ROLES): lambda ids: {"query": {"accountId": ids["bob"]}},
    ("POST", APPLY): None,  # the caller's own application: its own test
    ("GET", AGREEMENT): None,
}
ALLOWED, DENIED = "allowed", 403
BACK_OFFICE = dict.fromkeys(CALLS, ALLOWED)
MATRIX = {
    "alice": dict.fromkeys(CALLS, DENIED),
    "acme": dict.fromkeys(CALLS, DENIED),
    "calibadmin": dict.fromkeys(CALLS, DENIED),
    "operator": BACK_OFFICE,
    "admin": BACK_OFFICE,
}


def test_every_call_has_a_row(api):
    routes = {(method, rule.rule.removeprefix("/api")) for rule in
              api.client.application.url_map.iter_rules()
              if rule.endpoint.startswith("useradmin.") for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert routes == set(CALLS)


@pytest.mark.parametrize("caller", [None, *MATRIX])
def test_access_matrix(api, caller):
    ids = {"bob": user_id(api, api.token("admin"), "bob")}
    token = api.token(caller) if caller else None
    for (method, path), build in CALLS.items():
        if build is None:
            continue
        reply = api.call(method, path, token=token, **build(ids))
        if caller is None:
            assert reply.status == 401, (path, reply.body)
            continue
        expected = MATRIX[caller][(method, path)]
        if expected == ALLOWED:
            # 409: bob was already upgraded, certified before applying, or deleted by an earlier row
            assert reply.status in (200, 404, 409), (caller, path, reply.body)
            assert reply.status != 404 or path not in (PAGE, EXPORT, ADD, ROLES), (caller, path, reply.body)
        else:
            assert reply.status == expected, (caller, path, reply.body)
        if path == DELETE and reply.status == 200:
            break  # bob is gone: what remains needs him


def test_the_customer_s_upgrade_and_application_are_in_the_operation_log_with_the_type_before_and_after(api):
    bob, alice = api.token("bob"), api.token("alice")
    ok(api.call("PUT", UPGRADE, token=bob, json={}))
    ok(api.call("POST", APPLY, token=alice, json={"agreementVersion": CONTRACTOR_AGREEMENT_VERSION}))
    log = ok(api.call("POST", "/base/OperationLog/page", token=api.token("operator"), json={"pageSize": 50}))["data"]
    by_action = {e["action"]: e for e in log}
    upgrade = [c for c in by_action["BaseAccount.userTypeUpgrade"]["changes"] if c["objectType"] == "account"]
    assert upgrade[0]["fields"]["account_type"] == [1, 2], upgrade
    applied = [c for c in by_action["BaseAccount.contractorApply"]["changes"] if c["objectType"] == "account"]
    assert applied[0]["fields"]["contractor_state"] == [0, 1] and applied[0]["objectLabel"] == "alice"
    mine = ok(api.call("POST", "/base/OperationLog/page", token=bob, json={"pageSize": 50}))["data"]
    assert "BaseAccount.userTypeUpgrade" in {e["action"] for e in mine}  # the customer reads their own


@pytest.mark.parametrize("query", [{"accountId": "abc"}, {"accountId": 0}, {"accountId": 2**40},
                                   {"accountId": "-1"}, {"accountId": "1e3"}])
def test_a_hostile_account_id_is_a_422_naming_it(api, query):
    reply = api.call("GET", ACCOUNT_ROLES, token=api.token("operator"), query=query)
    assert reply.status == 422 and "accountId" in str(reply.body), reply.body
