"""Step definitions in the product's words. Each scenario runs against the real application on
both database backends, with a clock the scenario controls."""

from __future__ import annotations

import pytest
from features.alarms.steps import *  # noqa: F403 (the alarm steps, visible to features/test_features.py)
from features.assets.steps import *  # noqa: F403
from features.audit.steps import *  # noqa: F403
from features.backoffice.steps import *  # noqa: F403
from features.calibration.lab_steps import *  # noqa: F403
from features.calibration.steps import *  # noqa: F403
from features.fda.export_steps import *  # noqa: F403
from features.fda.steps import *  # noqa: F403
from features.geofences.steps import *  # noqa: F403
from features.onboarding.steps import *  # noqa: F403
from features.ordering.invoice_steps import *  # noqa: F403
from features.ordering.level_change_steps import *  # noqa: F403
from features.ordering.steps import *  # noqa: F403
from features.ordering.voucher_steps import *  # noqa: F403
from features.organizations.steps import *  # noqa: F403
from features.payments.handling_steps import *  # noqa: F403
from features.payments.refund_steps import *  # noqa: F403
from features.payments.steps import *  # noqa: F403
from features.payments.unpaid_steps import *  # noqa: F403
from features.pricing.level_change_steps import *  # noqa: F403
from features.pricing.package_steps import *  # noqa: F403
from features.pricing.promotion_steps import *  # noqa: F403
from features.pricing.steps import *  # noqa: F403
from features.teams.steps import *  # noqa: F403
from features.waybills.steps import *  # noqa: F403
from pytest_bdd import given, parsers, then, when
from tests.support.captcha import captcha_reader

from core.permissions.scenes import effective_scene
from entrypoints.demo_seed import DEMO_PASSWORD


@pytest.fixture(autouse=True)
def _on_each_backend(app):
    """Steps ask for fixtures only while running; naming the app here lets pytest run every
    scenario once per database backend."""
    return app


@pytest.fixture
def world():
    """What a scenario's steps share; `cleanups` undo what a step changed beyond the scenario's
    own data (a container override of the session's application)."""
    shared: dict = {"tokens": {}, "replies": [], "cleanups": []}
    yield shared
    for cleanup in reversed(shared["cleanups"]):
        cleanup()


# --- given -----------------------------------------------------------------------------------


@given("the demo accounts exist")
def _demo(demo):
    return demo


@given("the demo accounts and the service catalogue exist")
def _demo_catalogue(recharge_demo):
    """The demo data without stored readings, which recharge scenarios do not need."""
    return recharge_demo


@given(parsers.parse("{user} has logged in"))
def _logged_in(api, world, user):
    world["tokens"][user] = api.token(user)


@given(parsers.parse("{user} has logged out"))
def _logged_out(api, world, user):
    api.call("POST", "/base/auth/logout", token=world["tokens"][user])


# --- time ------------------------------------------------------------------------------------


@when(parsers.parse("{days:d} days and {hours:d} hours pass"))
def _days_and_hours(clock, days, hours):
    clock.advance(days=days, hours=hours)


@when(parsers.parse("{hours:d} more hour passes"))
def _more_hours(clock, hours):
    clock.advance(hours=hours)


@when(parsers.parse("{minutes:d} minutes pass"))
def _minutes(clock, minutes):
    clock.advance(minutes=minutes)


# --- sessions --------------------------------------------------------------------------------


@when(parsers.parse("{user} logs out with {method} {path}"))
def _logs_out(api, world, user, method, path):
    assert api.call(method, path, token=world["tokens"][user]).code == 0


@when(parsers.parse("{user} calls her account information in {language}"))
def _info_in_language(api, world, user, language):
    api.language = language
    world["replies"].append(api.account_info(world["tokens"][user]))


@when("someone calls the account information without a token")
def _info_without_token(api, world):
    world["replies"].append(api.call("GET", "/base/BaseAccount/accountInfo"))


@then(parsers.parse("{user}'s token opens her account information"))
def _token_opens(api, world, user):
    reply = api.account_info(world["tokens"][user])
    assert reply.status == 200 and reply.data["baseAccount"]["userName"] == user


@then(parsers.parse("a call with {user}'s token is refused with HTTP {status:d} and code {code:d}"))
def _token_refused(api, world, user, status, code):
    reply = api.account_info(world["tokens"][user])
    assert (reply.status, reply.code) == (status, code)


@then(parsers.parse("a new login of {user} still works"))
def _new_login(api, user):
    assert api.account_info(api.token(user)).status == 200


@then(parsers.parse('the answer has HTTP {status:d}, code {code:d} and the message "{message}"'))
def _answer(world, status, code, message):
    reply = world["replies"][-1]
    assert (reply.status, reply.code, reply.body["msg"]) == (status, code, message)


# --- throttling ------------------------------------------------------------------------------


@pytest.fixture
def captchas(api, container):
    with captcha_reader(api, container) as solve:
        yield solve


def _fail(api, world, user, times, address="127.0.0.1"):
    for _ in range(times):
        reply = api.login(user, "Wrong#Pass2026", address=address)
        assert reply.status == 401
        world["replies"].append(reply)


def _login_with(api, user, address="127.0.0.1", **fields):
    return api.call("POST", "/base/BaseAccount/login", address=address,
                    json={"userName": user, "loginType": 1, **fields})


@when(parsers.parse('someone fails to log in as "{user}" {times:d} times'))
def _fails_times(api, world, user, times):
    _fail(api, world, user, times)


@when(parsers.parse('someone fails to log in as "{user}" once'))
def _fails_once(api, world, user):
    _fail(api, world, user, 1)


@when(parsers.parse('someone fails to log in as "{user}" from {count:d} addresses'))
def _fails_from_addresses(api, world, user, count):
    for i in range(count):
        _fail(api, world, user, 1, address=f"192.0.2.{i + 1}")


@when(parsers.parse('someone with the image code fails to log in as "{user}" from {count:d} addresses'))
def _fails_with_captcha(api, captchas, user, count):
    for i in range(count):
        reply = _login_with(api, user, address=f"192.0.2.{i + 1}", accountPassword="Wrong#Pass2026", **captchas())
        assert reply.code == 1001


@when(parsers.parse("{count:d} logins with wrong passwords come from {address}"))
def _many_from_address(api, world, count, address):
    for i in range(count):
        assert api.login(f"visitor_{i}", "Wrong#Pass2026", address=address).status == 401


@when(parsers.parse('"{user}" logs in with the right password'))
def _logs_in(api, user):
    assert api.login(user).status == 200


@when(parsers.parse('"{user}" asks for a login code'))
def _asks_for_code(api, captchas, user):
    assert api.call("POST", "/base/BaseAccount/code/login", json={"userName": user, **captchas()}).code == 0


@then(parsers.parse('logging in as "{user}" with the right password is refused with HTTP {status:d}'))
def _right_password_refused(api, world, user, status):
    reply = api.login(user)
    world["replies"].append(reply)
    assert reply.status == status


@then(parsers.parse('logging in as "{user}" with the right password is refused with HTTP {status:d} and code {code:d}'))
def _right_password_refused_with_code(api, user, status, code):
    reply = api.login(user)
    assert (reply.status, reply.code) == (status, code)


@then(parsers.parse('logging in as "{user}" is refused with HTTP {status:d}'))
def _refused(api, user, status):
    assert api.login(user).status == status


@then(parsers.parse("the answer asks to retry within {seconds:d} seconds"))
def _retry_after(world, seconds):
    assert 0 < int(world["replies"][-1].headers["Retry-After"]) <= seconds


@then(parsers.parse('"{user}" can log in with the right password'))
def _can_log_in(api, user):
    assert api.login(user).status == 200


@then(parsers.parse('"{user}" can log in with the right password and the image code'))
def _can_log_in_with_captcha(api, captchas, user):
    assert _login_with(api, user, accountPassword=DEMO_PASSWORD, **captchas()).status == 200


@then(parsers.parse('"{user}" can log in with the right password and the image code from {address}'))
def _can_log_in_with_captcha_from(api, captchas, user, address):
    assert _login_with(api, user, address, accountPassword=DEMO_PASSWORD, **captchas()).status == 200


@then(parsers.parse('logging in as "{user}" with the right password from {address} is refused with HTTP {status:d}'))
def _refused_from(api, user, address, status):
    assert api.login(user, address=address).status == status


@then(parsers.parse('"{user}" can log in with the right password from {address}'))
def _can_log_in_from(api, user, address):
    assert api.login(user, address=address).status == 200


@then(parsers.parse('"{user}" can log in with the code sent to "{recipient}"'))
def _can_log_in_with_code(api, container, user, recipient):
    assert _login_with(api, user, loginCode=api.outbox_code(container, recipient)).status == 200


@then(parsers.parse('"{recipient}" has been told of the failed logins'))
def _told(container, recipient):
    from sqlalchemy import select

    from adapters.persistence.models import OutboxMessageRow

    with container.session_factory()() as session:
        templates = session.scalars(select(OutboxMessageRow.template).where(OutboxMessageRow.recipient == recipient))
        assert "login_failures" in set(templates)


@then(parsers.parse("both failures got the same answer with HTTP {status:d} and code {code:d}"))
def _same_answers(world, status, code):
    first, second = world["replies"][-2:]
    assert first.body == second.body and first.status == second.status == status and first.code == code


# --- scenes ----------------------------------------------------------------------------------


@when(parsers.parse("{user} asks for the permissions of scene {scene:d}"))
def _scene_permissions(api, world, user, scene):
    reply = api.call("GET", "/base/BaseAccount/getScenePermissionList", token=world["tokens"][user],
                     query={"sceneId": scene})
    world["scene"], world["scene_permissions"] = scene, reply.data


@then(parsers.parse("the list {holds} cloudChain.myProject"))
def _list_holds(world, holds):
    assert ("cloudChain.myProject" in world["scene_permissions"]) is (holds == "holds")


@then(parsers.parse("the console opens scene {scene:d}"))
def _opens_scene(world, scene):
    assert effective_scene(world["scene"], world["scene_permissions"]) == scene


@then(parsers.parse("the scene list of {user} is {scenes}"))
def _scene_list(api, world, user, scenes):
    listed = [s["sceneType"] for s in api.account_info(world["tokens"][user]).data["baseSceneList"]]
    assert listed == [int(s) for s in scenes.split(",")]


# --- sign-up and recovery --------------------------------------------------------------------

PURPOSES = {"signing up": 1, "resetting the password": 2}


@given(parsers.parse("a code for {purpose} is sent to {phone}"))
@when(parsers.parse("a code for {purpose} is sent to {phone}"))
def _code_sent(api, container, world, purpose, phone):
    reply = api.call("GET", "/base/BaseAccount/code/phone", query={"phone": phone, "type": PURPOSES[purpose]})
    assert reply.code == 0, reply.body
    world["code"] = api.outbox_code(container, phone)
    world["phone"] = phone


@given(parsers.parse('"{user}" signs up with that code and the password "{password}"'))
@when(parsers.parse('"{user}" signs up with that code and the password "{password}"'))
def _signs_up(api, world, user, password):
    world["signup"] = {"userName": user, "accountPassword": password, "phone": world["phone"], "code": world["code"]}
    reply = api.call("POST", "/base/BaseAccount/register", json=world["signup"])
    assert reply.status == 200, reply.body
    world["tokens"][user] = reply.data["token"]


@then(parsers.parse('"{user}" is logged in as a personal customer'))
def _personal_customer(api, world, user):
    info = api.account_info(world["tokens"][user]).data
    assert info["baseAccount"]["userName"] == user and info["baseAccount"]["accountType"] == 1
    assert "device.list" in info["permissionRoutes"] and "notice.list" not in info["permissionRoutes"]


@then("the same code does not work a second time")
def _code_spent(api, world):
    again = api.call("POST", "/base/BaseAccount/register", json={**world["signup"], "userName": "carol_02"})
    assert (again.status, again.code) == (409, 1003)


@when(parsers.parse('someone signs up as "{user}" with the password "{password}"'))
def _signs_up_badly(api, world, user, password):
    world["replies"].append(api.call("POST", "/base/BaseAccount/register", json={
        "userName": user, "accountPassword": password, "phone": "13912345678", "code": "123456"}))


@then(parsers.parse("the answer has HTTP {status:d} with an error for {field}"))
def _error_for(world, status, field):
    reply = world["replies"][-1]
    assert reply.status == status and field in reply.body["errors"]


@when(parsers.parse('the password of {phone} is reset with that code to "{password}"'))
def _reset(api, world, phone, password):
    reply = api.call("POST", "/base/BaseAccount/forgot",
                     json={"phone": phone, "code": world["code"], "accountPassword": password})
    assert reply.code == 0, reply.body


@then(parsers.parse('"{user}" can log in with the password "{password}"'))
def _can_log_in_with(api, user, password):
    assert api.login(user, password).status == 200
    assert api.login(user, DEMO_PASSWORD).status == 401
