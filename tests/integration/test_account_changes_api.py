"""The caller changes their own base info, password, phone or e-mail."""

from __future__ import annotations

import pytest

from entrypoints.demo_seed import DEMO_PASSWORD

pytestmark = pytest.mark.usefixtures("demo")
NEW = "Fresh#Pass2026"
PHONE_CHANGE = "/base/BaseAccount/modifyPhoneAndPassword"


def test_real_name_and_company_are_saved(api):
    token = api.token("alice")
    assert api.call("POST", "/base/BaseAccount/modifyBaseInfo", token=token,
                    json={"realName": "Alice Zhang", "company": "Cold Co"}).code == 0
    account = api.account_info(token).data["baseAccount"]
    assert (account["realName"], account["company"]) == ("Alice Zhang", "Cold Co")


@pytest.mark.parametrize("body,field", [
    ({"realName": "x" * 21}, "realName"), ({"realName": "   "}, "realName"), ({"company": "A"}, "company"),
    ({"company": "x" * 51}, "company"), ({}, "_schema"), ({"userName": "mallory"}, "userName"),
])
def test_base_info_is_checked(api, body, field):
    reply = api.call("POST", "/base/BaseAccount/modifyBaseInfo", token=api.token("alice"), json=body)
    assert reply.status == 422 and field in reply.body["errors"]


def test_a_new_password_ends_the_other_sessions_but_not_this_one(api):
    this, other = api.token("alice"), api.token("alice")
    reply = api.call("POST", PHONE_CHANGE, token=this,
                     json={"accountPassword": DEMO_PASSWORD, "newPassword": NEW, "confirmPassword": f" {NEW} "})
    assert reply.code == 0, reply.body
    assert api.account_info(this).status == 200
    assert api.account_info(other).code == 2010
    assert api.login("alice", NEW).status == 200 and api.login("alice", DEMO_PASSWORD).status == 401


@pytest.mark.parametrize("body,field", [
    ({"newPassword": DEMO_PASSWORD, "confirmPassword": DEMO_PASSWORD}, "newPassword"),
    ({"newPassword": NEW, "confirmPassword": "Other#Pass2026"}, "confirmPassword"),
    ({"newPassword": "weakpass", "confirmPassword": "weakpass"}, "newPassword"),
    ({"newPassword": NEW}, "confirmPassword"),
    ({}, "_schema"),
    ({"phone": "13912345678"}, "code"),
])
def test_password_change_rules(api, body, field):
    reply = api.call("POST", PHONE_CHANGE, token=api.token("alice"), json={"accountPassword": DEMO_PASSWORD, **body})
    assert (reply.status, reply.code) == (422, 422) and field in reply.body["errors"], reply.body


def test_a_wrong_current_password_is_refused_without_logging_out_and_is_throttled(api, clock):
    token = api.token("alice")
    body = {"accountPassword": "Wrong#Pass2026", "newPassword": NEW, "confirmPassword": NEW}
    for _ in range(2):
        reply = api.call("POST", PHONE_CHANGE, token=token, json=body)
        assert (reply.status, reply.code) == (409, 1008)
    assert api.account_info(token).status == 200
    # from this address, each further try waits longer (1 s, 2 s, ...), even with the right password
    slowed = api.call("POST", PHONE_CHANGE, token=token, json={**body, "accountPassword": DEMO_PASSWORD})
    assert (slowed.status, slowed.headers["Retry-After"]) == (429, "1")
    clock.advance(seconds=1)
    assert api.call("POST", PHONE_CHANGE, token=token, json=body).code == 1008
    assert api.call("POST", PHONE_CHANGE, token=token, json=body).headers["Retry-After"] == "2"


def test_the_phone_is_rebound_with_a_code_sent_to_the_new_number(api, container):
    token = api.token("alice")
    assert api.call("GET", "/base/BaseAccount/code/phone", query={"phone": "13912345678", "type": 3}).code == 0
    code = api.outbox_code(container, "13912345678")
    wrong = api.call("POST", PHONE_CHANGE, token=token,
                     json={"accountPassword": DEMO_PASSWORD, "phone": "13912345678", "code": "000000"
                           if code != "000000" else "111111"})
    assert (wrong.status, wrong.code) == (409, 1003)
    ok = api.call("POST", PHONE_CHANGE, token=token,
                  json={"accountPassword": DEMO_PASSWORD, "phone": "13912345678", "code": code})
    assert ok.code == 0, ok.body
    assert api.account_info(token).data["baseAccount"]["phone"] == "13912345678"
    assert api.login("13912345678").status == 200


def test_the_email_is_rebound_with_a_code_sent_to_the_new_address(api, container):
    token = api.token("alice")
    api.call("GET", "/base/BaseAccount/code/email", query={"email": "alice.new@example.com", "type": 3})
    code = api.outbox_code(container, "alice.new@example.com")
    reply = api.call("POST", "/base/BaseAccount/modifyEmailAndPassword", token=token,
                     json={"accountPassword": DEMO_PASSWORD, "email": "alice.new@example.com", "code": code})
    assert reply.code == 0, reply.body
    assert api.account_info(token).data["baseAccount"]["email"] == "alice.new@example.com"


def test_a_number_bound_to_someone_else_cannot_be_taken(api):
    reply = api.call("GET", "/base/BaseAccount/code/phone", query={"phone": "13800000003", "type": 3})
    assert (reply.status, reply.code) == (409, 1006)


def _account_without_phone(container):
    from sqlalchemy import update

    from adapters.persistence.models import AccountRow

    with container.session_factory()() as session:
        session.execute(update(AccountRow).where(AccountRow.user_name == "bob").values(phone=None))
        session.commit()


def test_a_phone_is_bound_to_an_account_without_one(api, container):
    _account_without_phone(container)
    token = api.token("bob")
    api.call("GET", "/base/BaseAccount/code/phone", query={"phone": "13912345678", "type": 3})
    code = api.outbox_code(container, "13912345678")
    reply = api.call("POST", "/base/BaseAccount/binding", token=token, json={"phone": "13912345678", "code": code})
    assert reply.code == 0, reply.body
    assert api.account_info(token).data["baseAccount"]["phone"] == "13912345678"


def test_binding_never_replaces_an_existing_phone(api, container):
    token = api.token("alice")
    api.call("GET", "/base/BaseAccount/code/phone", query={"phone": "13912345678", "type": 3})
    code = api.outbox_code(container, "13912345678")
    reply = api.call("POST", "/base/BaseAccount/binding", token=token, json={"phone": "13912345678", "code": code})
    assert (reply.status, reply.code) == (409, 1009)
    assert api.account_info(token).data["baseAccount"]["phone"] == "13800000001"


def test_binding_needs_the_right_code_and_a_session(api, container):
    _account_without_phone(container)
    token = api.token("bob")
    wrong = api.call("POST", "/base/BaseAccount/binding", token=token, json={"phone": "13912345678", "code": "123456"})
    assert (wrong.status, wrong.code) == (409, 1003)
    assert api.call("POST", "/base/BaseAccount/binding", json={"phone": "13912345678", "code": "123456"}).code == 2010
