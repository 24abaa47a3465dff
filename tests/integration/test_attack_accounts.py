"""Attacks on logins and passwords (issue 13, items 8 and 9), performed through the real API on
SQLite and PostgreSQL with the demo accounts.

Item 8: failed logins must slow an attacker down without becoming a weapon against the owner. An
attacker's wrong passwords for bob from one address must not keep bob out at another address
(whatever the spelling of his name); failures from one address must not lock out the others
behind it (an office NAT); a distributed attack locks password-only logins, and bob still gets in
with the image code or with a one-time code sent to him; bob is told of the failures by e-mail.

Item 9: a new password is refused when it is one of the most common passwords (a bundled list),
holds the user name or the product name, and the refusal says why in the caller's language.
"""

from __future__ import annotations

from collections import Counter

import pytest
from sqlalchemy import select

from adapters.notifications.development import render
from adapters.persistence.models import OutboxMessageRow
from entrypoints.demo_seed import DEMO_PASSWORD
from tests.support.captcha import captcha_reader

pytestmark = pytest.mark.usefixtures("recharge_demo")

LOGIN = "/base/BaseAccount/login"
LOGIN_CODE = "/base/BaseAccount/code/login"
ATTACKER = "203.0.113.66"
BOB_HOME = "198.51.100.20"
OFFICE = "198.51.100.77"
WRONG = "Guess#Pass0001"
BOB_EMAIL = "bob@acme.example"
CAPTCHA_REQUIRED, ACCOUNT_PROTECTED = 1014, 1015


@pytest.fixture
def captchas(api, container):
    with captcha_reader(api, container) as solve:
        yield solve


def login(api, name: str, password: str | None = DEMO_PASSWORD, address: str = BOB_HOME, **extra):
    body = {"userName": name, "loginType": 1, **extra}
    if password is not None:
        body["accountPassword"] = password
    return api.call("POST", LOGIN, json=body, address=address)


def owner_logs_in(api, captchas, name: str, address: str):
    """What the console does for its user: the password alone, and when the server asks for the
    image code, the same login again with the code the user reads off the picture."""
    reply = login(api, name, address=address)
    if reply.code in (CAPTCHA_REQUIRED, ACCOUNT_PROTECTED):
        reply = login(api, name, address=address, **captchas())
    return reply


def outbox(container, template: str | None = None) -> list[OutboxMessageRow]:
    with container.session_factory()() as session:
        query = select(OutboxMessageRow).order_by(OutboxMessageRow.id)
        if template:
            query = query.where(OutboxMessageRow.template == template)
        rows = list(session.scalars(query))
        session.expunge_all()
        return rows


# --- item 8: lockout as a weapon ---------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["bob", "Bob", "BOB"])
def test_an_attacker_hammering_bob_from_one_address_does_not_keep_bob_out_at_another(api, clock, captchas,
                                                                                      spelling):
    answers: Counter[int] = Counter()
    for attempt in range(60):  # as fast as the server lets one address try, a second apart
        answers[login(api, ("bob", "Bob", "BOB")[attempt % 3], WRONG, address=ATTACKER).code] += 1
        clock.advance(seconds=1)

    # bob, at home, gets in with his password (and the image code the attack made necessary)
    reply = owner_logs_in(api, captchas, spelling, BOB_HOME)
    assert reply.status == 200, reply.body

    # the attacker's 60 tries tested at most 3 passwords; the rest were slowed or asked for the
    # image code, and none got in
    assert sum(answers.values()) == 60 and answers[0] == 0
    assert answers[1001] <= 3, answers
    assert set(answers) <= {1001, 429, CAPTCHA_REQUIRED}, answers

    # renewing the attack for as long as it likes changes nothing for bob
    for _ in range(3):
        clock.advance(minutes=16)
        for _ in range(10):
            login(api, "bob", WRONG, address=ATTACKER)
            clock.advance(seconds=1)
        assert owner_logs_in(api, captchas, spelling, BOB_HOME).status == 200


def test_the_attacker_s_own_address_is_slowed_with_growing_delays(api, clock):
    delays = []
    for _ in range(6):
        reply = login(api, "bob", WRONG, address=ATTACKER)
        while reply.status == 429:
            delays.append(int(reply.headers["Retry-After"]))
            clock.advance(seconds=delays[-1])
            reply = login(api, "bob", WRONG, address=ATTACKER)
        assert reply.code in (1001, CAPTCHA_REQUIRED)
    assert delays == sorted(delays) and delays[0] >= 1 and delays[-1] > delays[0]
    # bob's own address is not slowed by it: his password alone is asked for the image code,
    # not refused with 429
    assert login(api, "bob", address=BOB_HOME).status != 429


def test_once_the_console_is_told_to_show_the_image_code_a_login_without_it_is_refused(api, clock, captchas):
    """Issue 14, item 6: the login page shows the image code when the failure's answer says
    `captchaRequired`, and from then on the server refuses the name's logins without it."""
    said = []
    for i in range(3):
        reply = login(api, "bob", WRONG, address=f"198.51.100.{30 + i}")
        assert (reply.status, reply.code) == (401, 1001)
        said.append(reply.data["captchaRequired"])
        clock.advance(minutes=1)
    assert said == [False, False, True]
    refused = login(api, "bob", address=BOB_HOME)  # the right password, no image code
    assert (refused.status, refused.code, refused.data) == (409, CAPTCHA_REQUIRED, None)
    # the failures leave the 15-minute window; the ask (renewed by that refusal) has not
    clock.advance(minutes=14)
    assert login(api, "bob", address=BOB_HOME).code == CAPTCHA_REQUIRED
    reply = login(api, "bob", address=BOB_HOME, **captchas())
    assert reply.status == 200, reply.body
    clock.advance(minutes=15, seconds=1)
    assert login(api, "bob", address=BOB_HOME).status == 200


def test_fifty_failures_for_bob_from_an_office_address_lock_neither_bob_nor_his_colleagues(api, clock, captchas):
    answers: Counter[int] = Counter()
    for _ in range(50):
        answers[login(api, "bob", WRONG, address=OFFICE).code] += 1
        clock.advance(seconds=1)
    assert answers[0] == 0
    # the others behind the same address log in with their password alone
    for colleague in ("alice", "acme", "operator"):
        reply = login(api, colleague, address=OFFICE)
        assert reply.status == 200, (colleague, reply.body)
    # and bob, elsewhere, gets in
    assert owner_logs_in(api, captchas, "bob", BOB_HOME).status == 200


def test_fifty_failures_of_many_names_from_one_address_slow_it_with_the_image_code_but_lock_nobody(api, clock,
                                                                                                  captchas):
    for i in range(50):  # an office of people mistyping, or an attacker spraying names
        assert login(api, f"colleague_{i:02d}", WRONG, address=OFFICE).status in (401, 409)
        clock.advance(seconds=1)
    for colleague in ("alice", "acme", "operator"):
        reply = owner_logs_in(api, captchas, colleague, OFFICE)
        assert reply.status == 200, (colleague, reply.body)
    assert login(api, "alice", address=BOB_HOME).status == 200  # nothing changed elsewhere


def _distributed_attack(api, captchas, clock, addresses: int = 12) -> Counter:
    """Wrong passwords for bob from many addresses, each with a solved image code (a captcha farm)."""
    answers: Counter[int] = Counter()
    for i in range(addresses):
        answers[login(api, "bob", WRONG, address=f"192.0.2.{10 + i}", **captchas()).code] += 1
        clock.advance(seconds=30)
    return answers


def test_a_distributed_attack_locks_password_only_logins_but_bob_gets_in_with_the_image_code(api, clock,
                                                                                             captchas):
    answers = _distributed_attack(api, captchas, clock)
    assert answers == {1001: 12}
    # the right password alone is refused: it could be the attacker's lucky guess
    locked = login(api, "bob", address=BOB_HOME)
    assert (locked.status, locked.code) == (409, ACCOUNT_PROTECTED)
    assert login(api, "bob", address="192.0.2.99").code == ACCOUNT_PROTECTED
    # the lock outlasts the image-code window of ordinary failures
    clock.advance(minutes=20)
    assert login(api, "bob", address=BOB_HOME).code == ACCOUNT_PROTECTED
    # bob gets in with the password and the image code
    reply = login(api, "bob", address=BOB_HOME, **captchas())
    assert reply.status == 200, reply.body
    # other accounts are untouched
    assert login(api, "alice", address=BOB_HOME).status == 200
    # an hour after the attack stops, the password alone is enough again
    clock.advance(minutes=45)
    assert login(api, "bob", address=BOB_HOME).status == 200


def test_during_a_distributed_attack_bob_gets_in_with_a_code_sent_to_his_email(api, clock, captchas, container):
    _distributed_attack(api, captchas, clock)
    assert login(api, "bob", address=BOB_HOME).code == ACCOUNT_PROTECTED

    asked = api.call("POST", LOGIN_CODE, json={"userName": "Bob", **captchas()}, address=BOB_HOME)
    assert (asked.status, asked.code) == (200, 0), asked.body
    [message] = [m for m in outbox(container, "verification_code") if m.recipient == BOB_EMAIL]
    code = message.params["code"]

    wrong = login(api, "bob", None, address=BOB_HOME, loginCode="000000" if code != "000000" else "111111")
    assert (wrong.status, wrong.code) == (409, 1003)
    reply = login(api, "bob", None, address=BOB_HOME, loginCode=code)
    assert reply.status == 200, reply.body
    assert api.account_info(reply.data["token"]).data["baseAccount"]["userName"] == "bob"
    # single use
    assert login(api, "bob", None, address=BOB_HOME, loginCode=code).code == 1003


def test_a_login_code_needs_the_image_code_and_says_nothing_about_who_exists(api, captchas, container):
    bare = api.call("POST", LOGIN_CODE, json={"userName": "bob"}, address=BOB_HOME)
    assert bare.status == 422 and "verifyCode" in bare.body["errors"]
    known = api.call("POST", LOGIN_CODE, json={"userName": "bob", **captchas()}, address=BOB_HOME)
    unknown = api.call("POST", LOGIN_CODE, json={"userName": "nobody_at_all", **captchas()}, address=BOB_HOME)
    assert (known.status, known.body) == (unknown.status, unknown.body) == (200, {"code": 0, "msg": "ok",
                                                                                  "data": None})
    assert [m.recipient for m in outbox(container, "verification_code")] == [BOB_EMAIL]
    # asking again within the minute is answered alike for both
    again_known = api.call("POST", LOGIN_CODE, json={"userName": "bob", **captchas()}, address=BOB_HOME)
    again_unknown = api.call("POST", LOGIN_CODE, json={"userName": "nobody_at_all", **captchas()},
                             address=BOB_HOME)
    assert again_known.code == again_unknown.code == 1007
    assert login(api, "nobody_at_all", None, loginCode="123456").code == 1003


def test_an_unknown_name_meets_the_same_answers_as_a_real_one_under_attack(api, clock, captchas):
    def attack(name: str) -> list[tuple[int, int, str]]:
        seen = []
        for i in range(8):
            extra = captchas() if i % 2 else {}
            reply = login(api, name, WRONG, address=f"192.0.2.{40 + i % 3}", **extra)
            seen.append((reply.status, reply.code, reply.body["msg"]))
            clock.advance(seconds=2)
        return seen

    assert attack("bob") == attack("nobody_at_all")


def test_bob_is_told_of_repeated_failures_by_email_once_an_hour_in_his_language(api, clock, captchas, container):
    api.language = "de-DE"
    assert login(api, "bob", address=BOB_HOME).status == 200  # bob reads the console in German
    api.language = "en-US"
    for i in range(6):
        login(api, "bob", WRONG, address=f"192.0.2.{20 + i % 2}", **captchas())
        clock.advance(seconds=10)
    [notice] = outbox(container, "login_failures")
    assert (notice.channel, notice.recipient, notice.language) == ("email", BOB_EMAIL, "de-DE")
    assert notice.params["count"] >= 5
    assert {"192.0.2.20", "192.0.2.21"} <= set(notice.params["addresses"].split(", "))
    text = render(_message(notice), container.translator())
    assert str(notice.params["count"]) in text and "192.0.2.20" in text and "bob" in text
    assert "Anmelde" in text  # German, bob's language, not the attacker's

    def failures(name: str, first_address: int) -> None:
        for i in range(6):
            assert login(api, name, WRONG, address=f"192.0.2.{first_address + i}", **captchas()).code == 1001
            clock.advance(seconds=1)

    failures("bob", 50)  # more failures within the hour: no second message
    assert len(outbox(container, "login_failures")) == 1
    clock.advance(hours=1, minutes=1)
    failures("bob", 60)
    assert len(outbox(container, "login_failures")) == 2
    # nobody is written to for names that do not exist, nor for alice, who was not attacked
    failures("nobody_at_all", 70)
    assert [m.recipient for m in outbox(container, "login_failures")] == [BOB_EMAIL, BOB_EMAIL]


def test_an_account_without_an_email_is_told_by_sms_in_the_edition_s_language(api, clock, captchas, container):
    from sqlalchemy import update

    from adapters.persistence.models import AccountRow

    with container.session_factory()() as session:
        session.execute(update(AccountRow).where(AccountRow.user_name == "alice").values(email=None))
        session.commit()
    for i in range(5):
        login(api, "alice", WRONG, address=f"192.0.2.{30 + i}", **captchas())
    [notice] = outbox(container, "login_failures")
    assert (notice.channel, notice.recipient, notice.language) == ("phone", "13800000001", "zh-CN")


def _message(row: OutboxMessageRow):
    from core.notifications.model import Channel, OutboundMessage

    return OutboundMessage(Channel(row.channel), row.recipient, row.template, row.params, row.language,
                           row.created_at)


# --- item 9: password policy -------------------------------------------------------------------

COMMON = ["P@ssw0rd", "Password1!", "Qwerty123!", "Iloveyou#1", "1qaz@WSX", "Welcome#2024", "Dragon#123"]


def _register(api, container, password: str, user: str = "carol_01", phone: str = "13912345678"):
    api.call("GET", "/base/BaseAccount/code/phone", query={"phone": phone, "type": 1})
    code = api.outbox_code(container, phone)
    return api.call("POST", "/base/BaseAccount/register",
                    json={"userName": user, "accountPassword": password, "phone": phone, "code": code})


@pytest.mark.parametrize("password", COMMON)
def test_sign_up_refuses_a_common_password_and_says_why(api, container, password):
    reply = _register(api, container, password)
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert reply.body["errors"]["accountPassword"] == [
        "This password is one of the most common ones and easy to guess; choose another"]
    # the code is not spent by a refused password
    assert api.call("POST", "/base/BaseAccount/register",
                    json={"userName": "carol_01", "accountPassword": "Tundra#Kettle42", "phone": "13912345678",
                          "code": api.outbox_code(container, "13912345678")}).status == 200


@pytest.mark.parametrize("password,message", [
    ("Carol_01#2026", "The password may not contain the user name"),
    ("xX10_lorac!", "The password may not contain the user name"),
    ("Coldchain#2026", "The password may not contain the product name"),
    ("My#C0ldCha1n9", "The password may not contain the product name"),
])
def test_sign_up_refuses_the_user_name_and_the_product_name(api, container, password, message):
    reply = _register(api, container, password)
    assert reply.status == 422 and reply.body["errors"]["accountPassword"] == [message], reply.body


@pytest.mark.parametrize("language,expected", [
    ("zh-CN", "该密码是最常见的密码之一，很容易被猜中，请换一个"),
    ("de-DE", "Dieses Passwort gehört zu den häufigsten und ist leicht zu erraten; wählen Sie ein anderes"),
])
def test_the_refusal_is_in_the_caller_s_language(api, container, language, expected):
    api.language = language
    reply = _register(api, container, "P@ssw0rd")
    assert reply.body["errors"]["accountPassword"] == [expected]


def test_password_recovery_refuses_a_common_password(api, container):
    api.call("GET", "/base/BaseAccount/code/phone", query={"phone": "13800000003", "type": 2})
    code = api.outbox_code(container, "13800000003")
    body = {"phone": "13800000003", "code": code}
    for password, message in (("Password1!", "one of the most common"), ("Bob#Builder99", "user name")):
        reply = api.call("POST", "/base/BaseAccount/forgot", json={**body, "accountPassword": password})
        assert reply.status == 422 and message in reply.body["errors"]["accountPassword"][0], reply.body
    assert api.call("POST", "/base/BaseAccount/forgot", json={**body, "accountPassword": "Tundra#Kettle42"}).code == 0
    assert api.login("bob", "Tundra#Kettle42").status == 200


@pytest.mark.parametrize("password,message", [("Qwerty123!", "one of the most common"),
                                              ("Alice#Smith1", "user name"),
                                              ("Coldchain#2027", "product name")])
def test_a_password_change_refuses_common_passwords_the_user_name_and_the_product_name(api, password, message):
    token = api.token("alice")
    reply = api.call("POST", "/base/BaseAccount/modifyPhoneAndPassword", token=token,
                     json={"accountPassword": DEMO_PASSWORD, "newPassword": password, "confirmPassword": password})
    assert reply.status == 422 and message in reply.body["errors"]["newPassword"][0], reply.body
    assert api.login("alice", password).status == 401
