"""Verification codes, sign-up, password recovery and the image captcha."""

from __future__ import annotations

import pytest
from dependency_injector import providers

from entrypoints.demo_seed import DEMO_PASSWORD
from tests.support.captcha import RecordingRenderer

NEW_PASSWORD = "Fresh#Pass2026"


def send_phone_code(api, phone: str, purpose: int = 1):
    return api.call("GET", "/base/BaseAccount/code/phone", query={"phone": phone, "type": purpose})


def register(api, code: str, user: str = "carol_01", phone: str = "13912345678", **extra):
    body = {"userName": user, "accountPassword": NEW_PASSWORD, "phone": phone, "code": code, **extra}
    return api.call("POST", "/base/BaseAccount/register", json=body)


def test_sign_up_with_a_phone_code_logs_the_new_customer_in(api, container):
    assert send_phone_code(api, "13912345678").code == 0
    code = api.outbox_code(container, "13912345678")
    assert len(code) == 6 and code.isdigit()
    reply = register(api, code)
    assert reply.status == 200, reply.body
    info = api.account_info(reply.data["token"]).data
    assert info["baseAccount"]["userName"] == "carol_01" and info["baseAccount"]["phone"] == "13912345678"
    assert "device.list" in info["permissionRoutes"]
    assert api.login("carol_01", NEW_PASSWORD).status == 200


def test_a_code_works_once(api, container):
    send_phone_code(api, "13912345678")
    code = api.outbox_code(container, "13912345678")
    assert register(api, code).status == 200
    again = register(api, code, user="carol_02")
    assert (again.status, again.code) == (409, 1003)


def test_a_wrong_code_is_refused_and_five_wrong_tries_burn_the_code(api, container):
    send_phone_code(api, "13912345678")
    code = api.outbox_code(container, "13912345678")
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(5):
        assert register(api, wrong).code == 1003
    assert register(api, code).code == 1003


def test_a_code_expires_after_ten_minutes(api, container, clock):
    send_phone_code(api, "13912345678")
    code = api.outbox_code(container, "13912345678")
    clock.advance(minutes=10, seconds=1)
    assert register(api, code).code == 1003


def test_codes_are_sent_at_most_once_a_minute_and_ten_times_an_hour(api, clock):
    assert send_phone_code(api, "13912345678").code == 0
    too_soon = send_phone_code(api, "13912345678")
    assert (too_soon.status, too_soon.code) == (409, 1007)
    assert "60" in too_soon.body["msg"]
    for _ in range(9):
        clock.advance(seconds=61)
        assert send_phone_code(api, "13912345678").code == 0
    clock.advance(seconds=61)
    assert send_phone_code(api, "13912345678").status == 429


@pytest.mark.usefixtures("demo")
def test_a_phone_already_bound_cannot_get_a_sign_up_code(api):
    reply = send_phone_code(api, "13800000001")
    assert (reply.status, reply.code) == (409, 1006)


@pytest.mark.usefixtures("demo")
def test_a_user_name_is_taken_whatever_its_case(api, container):
    send_phone_code(api, "13912345678")
    assert register(api, api.outbox_code(container, "13912345678")).status == 200
    send_phone_code(api, "13912345679")
    clash = register(api, api.outbox_code(container, "13912345679"), user="CAROL_01", phone="13912345679")
    assert (clash.status, clash.code) == (409, 1005)


@pytest.mark.parametrize("changes,field", [
    ({"userName": "1carol"}, "userName"),
    ({"userName": "_carol1"}, "userName"),
    ({"userName": "carol"}, "userName"),
    ({"userName": "carol-01"}, "userName"),
    ({"accountPassword": "alllowercase1!"}, "accountPassword"),
    ({"accountPassword": "Short1!"}, "accountPassword"),
    ({"accountPassword": "NoDigits!!xx"}, "accountPassword"),
    ({"phone": "23912345678"}, "phone"),
    ({"phone": "1391234567"}, "phone"),
    ({"code": "12ab56"}, "code"),
    ({"email": "carol@example.com"}, "email"),
    ({"phone": None}, "phone"),
])
def test_sign_up_input_is_checked_field_by_field(api, changes, field):
    body = {"userName": "carol_01", "accountPassword": NEW_PASSWORD, "phone": "13912345678", "code": "123456",
            **changes}
    body = {k: v for k, v in body.items() if v is not None}
    reply = api.call("POST", "/base/BaseAccount/register", json=body)
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert field in reply.body["errors"]


def test_chinese_user_names_are_allowed(api, container):
    send_phone_code(api, "13912345678")
    assert register(api, api.outbox_code(container, "13912345678"), user="冷链用户张三").status == 200


def test_sign_up_messages_are_in_the_caller_s_language(api):
    reply = api.call("POST", "/base/BaseAccount/register", headers={"Accept-Language": "zh-CN"},
                     json={"userName": "1carol", "accountPassword": NEW_PASSWORD, "phone": "13912345678",
                           "code": "123456"})
    message = reply.body["errors"]["userName"][0]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in message)


@pytest.mark.usefixtures("demo")
def test_recovering_a_password_ends_every_session(api, container):
    old_token = api.token("alice")
    assert send_phone_code(api, "13800000001", purpose=2).code == 0
    code = api.outbox_code(container, "13800000001")
    reply = api.call("POST", "/base/BaseAccount/forgot",
                     json={"phone": "13800000001", "code": code, "accountPassword": NEW_PASSWORD})
    assert reply.status == 200, reply.body
    assert api.account_info(old_token).code == 2010
    assert api.login("alice", DEMO_PASSWORD).code == 1001
    assert api.login("alice", NEW_PASSWORD).status == 200


@pytest.mark.usefixtures("demo")
def test_recovery_for_an_unknown_number_answers_like_a_known_one_but_sends_nothing(api, container):
    from sqlalchemy import func, select

    from adapters.persistence.models import OutboxMessageRow

    assert send_phone_code(api, "13987654321", purpose=2).body == send_phone_code(api, "13800000001", purpose=2).body
    with container.session_factory()() as session:
        sent_to = set(session.scalars(select(OutboxMessageRow.recipient)))
        assert session.scalar(select(func.count()).select_from(OutboxMessageRow)) == 1
    assert sent_to == {"13800000001"}
    reply = api.call("POST", "/base/BaseAccount/forgot",
                     json={"phone": "13987654321", "code": "123456", "accountPassword": NEW_PASSWORD})
    assert (reply.status, reply.code) == (409, 1003)


def test_the_international_edition_takes_foreign_numbers_and_email(international_app):
    from tests.support.api import ApiClient

    api = ApiClient(international_app.flask.test_client())
    assert api.call("GET", "/base/BaseAccount/code/phone", query={"phone": "12025550123", "type": 1}).code == 0
    assert api.call("GET", "/base/BaseAccount/code/phone", query={"phone": "+1 202", "type": 1}).status == 422
    assert api.call("GET", "/base/BaseAccount/code/email", query={"email": "dan@example.com", "type": 1}).code == 0
    code = api.outbox_code(international_app.container, "dan@example.com")
    reply = api.call("POST", "/base/BaseAccount/register",
                     json={"userName": "dan_smith", "accountPassword": NEW_PASSWORD, "email": "dan@example.com",
                           "code": code})
    assert reply.status == 200
    assert api.login("DAN@example.com", NEW_PASSWORD).status == 200


def test_the_captcha_image_is_a_png_with_an_id(api):
    response = api.client.get("/api/base/BaseAccount/newVerify")
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert response.data.startswith(b"\x89PNG")
    assert response.headers["X-Captcha-Id"]
    assert "jc_captcha=" in response.headers["Set-Cookie"] and "HttpOnly" in response.headers["Set-Cookie"]


@pytest.mark.usefixtures("demo")
def test_a_login_with_a_captcha_needs_its_answer_once(api, container):
    renderer = RecordingRenderer()
    with container.captcha_renderer.override(providers.Object(renderer)):
        captcha_id = api.client.get("/api/base/BaseAccount/newVerify").headers["X-Captcha-Id"]
        answer = renderer.texts[-1]

        def login(verify_code: str):
            return api.call("POST", "/base/BaseAccount/login",
                            json={"userName": "alice", "accountPassword": DEMO_PASSWORD,
                                  "verifyCode": verify_code, "captchaId": captcha_id})

        wrong = login("ZZZZ" if answer != "ZZZZ" else "YYYY")
        assert (wrong.status, wrong.code) == (409, 1004)
        assert login(answer).code == 1004  # the wrong guess spent it
        captcha_id = api.client.get("/api/base/BaseAccount/newVerify").headers["X-Captcha-Id"]
        assert login(renderer.texts[-1].lower()).status == 200
        assert login(renderer.texts[-1]).code == 1004  # and a right one is spent too
