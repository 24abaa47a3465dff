"""Session calls of the contract (section 3) against the real app, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from entrypoints.demo_seed import DEMO_PASSWORD
from tests.support.captcha import captcha_reader

pytestmark = pytest.mark.usefixtures("demo")


def test_login_returns_a_token_valid_for_seven_days(api, clock):
    reply = api.login("alice")
    assert reply.status == 200 and reply.code == 0 and reply.body["msg"] == "ok"
    assert len(reply.data["token"]) >= 40
    # the caller's zone is honoured in the expiry it is told
    reply = api.call("POST", "/base/BaseAccount/login", headers={"X-Time-Zone": "Asia/Shanghai"},
                     json={"userName": "alice", "accountPassword": DEMO_PASSWORD})
    assert reply.data["expiresAt"].endswith("+08:00")


@pytest.mark.parametrize("login_name", ["alice", "ALICE", "13800000001", "alice@example.com", "Alice@Example.com"])
def test_login_accepts_the_user_name_in_any_case_the_phone_or_the_email(api, login_name):
    assert api.login(login_name).status == 200


def test_account_info_describes_the_caller(api):
    info = api.account_info(api.token("alice"))
    assert info.status == 200
    data = info.data
    assert data["baseAccount"]["userName"] == "alice"
    assert "device.list" in data["permissionRoutes"] and "device.list:add" in data["permissionRoutes"]
    assert "notice.list" not in data["permissionRoutes"]  # back office is not hers
    assert data["orgWithMyRole"] == []
    assert data["premiumState"] == {"state": 0, "expiredCount": 0}
    assert [s["sceneType"] for s in data["baseSceneList"]] == [1]
    assert set(data["userProfile"]) == {"walletStatus", "homePage", "elitechIdentity", "elitechIndustry",
                                        "enableProtect", "enableFda"}
    assert "password" not in str(data).lower()


def test_an_authenticated_call_reads_its_caller_in_one_statement_on_one_connection(api, container):
    from sqlalchemy import event

    token = api.token("alice")
    engine = container.engine()
    checkouts, statements = [], []

    def checkout(*_args):
        checkouts.append(1)

    def statement(_conn, _cursor, sql, *_args):
        statements.append(sql)

    event.listen(engine, "checkout", checkout)
    event.listen(engine, "before_cursor_execute", statement)
    try:
        assert api.account_info(token).status == 200
        info = list(statements)
        statements.clear()
        assert api.call("POST", "/device/Device/page", token=token, json={"start": 1, "pageSize": 10}).status == 200
        page = list(statements)
    finally:
        event.remove(engine, "checkout", checkout)
        event.remove(engine, "before_cursor_execute", statement)
    # the token check, the permission check and the call share one connection a request
    assert len(checkouts) == 2
    # the session, its account and the account's permissions are one statement; accountInfo reads
    # the rest in one more, and Device/page's permission check reads nothing of its own
    assert len(info) == 2 and "login_sessions" in info[0] and "role_permissions" in info[0]
    # (the device scoping reads role_permissions too, through organization_members: the caller's
    # own roles come through account_roles, which only the first statement reads)
    assert [sql for sql in page if "login_sessions" in sql or "account_roles" in sql] == page[:1]


def test_a_request_that_only_read_ends_its_transaction_with_a_commit(api, container):
    # the same as a rollback to the database, but psycopg drops its prepared statements at every
    # rollback: each request's statements would be planned again
    from sqlalchemy import event

    token = api.token("alice")
    engine = container.engine()
    ends = []

    def ended(kind):
        return lambda _conn: ends.append(kind)

    on_commit, on_rollback = ended("commit"), ended("rollback")
    event.listen(engine, "commit", on_commit)
    event.listen(engine, "rollback", on_rollback)
    try:
        assert api.account_info(token).status == 200
    finally:
        event.remove(engine, "commit", on_commit)
        event.remove(engine, "rollback", on_rollback)
    assert ends == ["commit"]


def test_a_permission_taken_from_a_role_is_refused_at_the_next_call(api, container):
    from sqlalchemy import delete, select

    from adapters.persistence.models import RolePermissionRow, RoleRow
    from core.permissions import roles

    token = api.token("alice")  # a personal customer: her home page needs "home"
    home = "/device/Device/homeCounts"
    assert api.call("GET", home, token=token).status == 200
    with container.session_factory()() as session:
        role_id = session.scalar(select(RoleRow.id).where(RoleRow.code == roles.PERSONAL_CUSTOMER.code))
        session.execute(delete(RolePermissionRow).where(RolePermissionRow.role_id == role_id,
                                                        RolePermissionRow.permission_name == "home"))
        session.commit()
    try:
        refused = api.call("GET", home, token=token)
        assert (refused.status, refused.code) == (403, 403)
        assert "home" not in api.account_info(token).data["permissionRoutes"]
    finally:  # the roles' permissions are reference data, kept between tests
        with container.session_factory()() as session:
            session.add(RolePermissionRow(role_id=role_id, permission_name="home"))
            session.commit()
    assert api.call("GET", home, token=token).status == 200


def test_account_info_of_an_organization_member_names_the_organization_and_role(api):
    data = api.account_info(api.token("bob")).data
    assert [(o["organizationName"], o["roleCode"], o["creator"]) for o in data["orgWithMyRole"]] == [
        ("Acme Cold Chain", "org_member", False)]
    owner = api.account_info(api.token("acme")).data
    assert owner["orgWithMyRole"][0]["creator"] is True
    assert owner["premiumState"]["state"] == 1 and 199 <= owner["premiumState"]["expiredCount"] <= 200
    assert [s["sceneType"] for s in owner["baseSceneList"]] == [1, 2]


@pytest.mark.parametrize("path,method", [("/base/BaseAccount/loginOut", "GET"), ("/base/auth/logout", "POST")])
def test_logout_revokes_the_token_at_once(api, path, method):
    token = api.token("alice")
    assert api.call(method, path, token=token).code == 0
    reply = api.account_info(token)
    assert (reply.status, reply.code) == (401, 2010)
    assert reply.body["msg"] == "Logon timeout, please login again"
    # other sessions of the same user live on
    assert api.account_info(api.token("alice")).status == 200


def test_a_token_expires_after_seven_days(api, clock):
    token = api.token("alice")
    clock.advance(days=7, seconds=-1)
    assert api.account_info(token).status == 200
    clock.advance(seconds=1)
    assert (api.account_info(token).status, api.account_info(token).code) == (401, 2010)


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer nonsense", "Basic YWxpY2U6eA==", "Bearer " + "x" * 500])
def test_calls_without_a_valid_token_get_401_and_code_2010(api, header):
    reply = api.call("GET", "/base/BaseAccount/accountInfo", headers={"Authorization": header} if header else {})
    assert (reply.status, reply.code) == (401, 2010)


def test_the_logon_timeout_message_follows_accept_language(api):
    reply = api.call("GET", "/base/BaseAccount/accountInfo", headers={"Accept-Language": "zh-CN"})
    assert reply.body["msg"] == "登录超时，请重新登录"
    assert reply.headers["Content-Language"] == "zh-CN"


def test_a_wrong_password_and_an_unknown_user_get_the_same_answer(api):
    wrong = api.login("alice", "Wrong#Pass123")
    unknown = api.login("nobody_at_all", "Wrong#Pass123")
    assert wrong.status == unknown.status == 401
    assert wrong.body == unknown.body
    assert wrong.code == 1001


@pytest.fixture
def captchas(api, container):
    with captcha_reader(api, container) as solve:
        yield solve


def test_three_failures_ask_for_the_image_code_for_fifteen_minutes(api, clock, captchas):
    for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        assert api.login("alice", "Wrong#Pass123", address=address).status == 401
    asked = api.login("alice")
    assert (asked.status, asked.code, asked.body["msg"]) == (409, 1014, "Enter the characters in the image to log in")
    with_captcha = api.call("POST", "/base/BaseAccount/login",
                            json={"userName": "alice", "accountPassword": DEMO_PASSWORD, **captchas()})
    assert with_captcha.status == 200
    clock.advance(minutes=15)
    assert api.login("alice").status == 200


def test_failures_older_than_fifteen_minutes_do_not_count(api, clock):
    for _ in range(2):
        api.login("alice", "Wrong#Pass123")
    clock.advance(minutes=16)
    api.login("alice", "Wrong#Pass123", address="10.0.0.9")
    assert api.login("alice", address="10.0.0.8").status == 200


def test_a_successful_login_forgives_the_owner_s_own_slips(api, clock):
    for _ in range(2):
        assert api.login("alice", "Wrong#Pass123").status == 401
    slowed = api.login("alice")  # a second slip makes the next try from here wait a second
    assert (slowed.status, slowed.headers["Retry-After"]) == (429, "1")
    assert slowed.body["msg"] == "Too many failed attempts, please wait 1 s and try again"
    clock.advance(seconds=1)
    assert api.login("alice").status == 200
    for _ in range(2):
        assert api.login("alice", "Wrong#Pass123").status == 401
    clock.advance(seconds=1)
    assert api.login("alice").status == 200


def test_a_name_that_does_not_exist_asks_for_the_image_code_the_same_way(api):
    for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        api.login("ghost_user_1", "Wrong#Pass123", address=address)
    assert api.login("ghost_user_1", "Wrong#Pass123").code == 1014


def test_failures_of_many_names_from_one_address_ask_it_for_the_image_code_and_refuse_nobody(api, captchas):
    for i in range(10):
        assert api.login(f"someone_{i}", "Wrong#Pass123", address="203.0.113.7").status == 401
    assert api.login("alice", address="203.0.113.7").code == 1014
    assert api.call("POST", "/base/BaseAccount/login", address="203.0.113.7",
                    json={"userName": "alice", "accountPassword": DEMO_PASSWORD, **captchas()}).status == 200
    assert api.login("alice", address="198.51.100.2").status == 200


def test_a_disabled_account_cannot_log_in_and_its_sessions_end(api, container):
    from sqlalchemy import update

    from adapters.persistence.models import AccountRow

    token = api.token("alice")
    with container.session_factory()() as session:
        session.execute(update(AccountRow).where(AccountRow.user_name == "alice").values(status=0))
        session.commit()
    assert api.account_info(token).code == 2010
    refused = api.login("alice")
    assert (refused.status, refused.code) == (409, 1002)
    # with a wrong password it is the ordinary failure: nothing is revealed
    assert api.login("alice", "Wrong#Pass123").code == 1001


def test_url_auto_login_type_4_is_accepted(api):
    reply = api.call("POST", "/base/BaseAccount/login",
                     json={"userName": "alice", "accountPassword": DEMO_PASSWORD, "loginType": 4})
    assert reply.status == 200


@pytest.mark.parametrize("body,field", [
    ({"accountPassword": "x"}, "userName"),
    ({"userName": "alice"}, "accountPassword"),
    ({"userName": "alice", "accountPassword": "x", "loginType": 2}, "loginType"),
    ({"userName": "alice", "accountPassword": "x", "extra": 1}, "extra"),
    ({"userName": "a" * 201, "accountPassword": "x"}, "userName"),
    ({"userName": "alice", "accountPassword": "x" * 129}, "accountPassword"),
    ({"userName": "alice", "loginCode": "12ab56"}, "loginCode"),
    ({"userName": 5, "accountPassword": "x"}, "userName"),
])
def test_bad_login_input_is_a_422_naming_the_field(api, body, field):
    reply = api.call("POST", "/base/BaseAccount/login", json=body)
    assert (reply.status, reply.code) == (422, 422)
    assert field in reply.body["errors"]


def test_malformed_json_is_a_422(api):
    response = api.client.post("/api/base/BaseAccount/login", data='{"userName": ', content_type="application/json")
    assert response.status_code == 422 and response.get_json()["code"] == 422


def test_validation_messages_follow_the_caller_s_language(api):
    reply = api.call("POST", "/base/BaseAccount/login", json={"userName": "alice", "extra": 1},
                     headers={"Accept-Language": "zh-CN"})
    assert reply.body["msg"] != "Invalid input"
    assert reply.body["errors"]["extra"] != ["Unknown field."]
    assert reply.body["errors"]["accountPassword"] != ["Missing data for required field."]


def test_scene_permission_lists(api):
    alice, acme = api.token("alice"), api.token("acme")
    scene = "/base/BaseAccount/getScenePermissionList"
    alice_1 = api.call("GET", scene, token=alice, query={"sceneId": 1}).data
    assert "device.list" in alice_1 and not any(p.startswith("cloudChain.cockpit") for p in alice_1)
    assert "cloudChain.myProject" not in api.call("GET", scene, token=alice, query={"sceneId": 2}).data
    acme_2 = api.call("GET", scene, token=acme, query={"sceneId": 2}).data
    assert "cloudChain.myProject" in acme_2 and "cloudChain.cockpit" in acme_2 and "device.list" not in acme_2
    assert api.call("GET", scene, token=alice, query={"sceneId": 3}).status == 422


def test_change_platform_needs_the_caller_s_own_password(api):
    token = api.token("alice")
    path = "/base/BaseAccount/login/toOldPaltform"
    ok = api.call("POST", path, token=token, json={"userName": "alice", "accountPassword": DEMO_PASSWORD})
    assert ok.status == 200 and ok.data["token"] != token
    assert api.account_info(ok.data["token"]).data["baseAccount"]["userName"] == "alice"
    # a wrong password is a 409, not a 401: the caller's own session is fine and must not end
    wrong = api.call("POST", path, token=token, json={"userName": "alice", "accountPassword": "Nope#12345"})
    assert (wrong.status, wrong.code) == (409, 1008)
    other = api.call("POST", path, token=token, json={"userName": "bob", "accountPassword": DEMO_PASSWORD})
    assert (other.status, other.code) == (409, 1008)
    assert api.account_info(token).status == 200
    assert api.call("POST", path, json={"userName": "alice", "accountPassword": DEMO_PASSWORD}).code == 2010
