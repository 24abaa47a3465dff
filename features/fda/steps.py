"""Steps of features/fda/*.feature (FDA mode and electronic signatures), imported by
features/conftest.py. The demo teams: acme creates Acme Cold Chain, carol administers it, bob and
dave are plain members, alice is a stranger; every demo password is DEMO_PASSWORD."""

from __future__ import annotations

from datetime import datetime, timedelta

from pytest_bdd import given, parsers, then, when
from sqlalchemy import select
from tests.integration.test_attack_access import warehouse_rule
from tests.support.alarms import COLD_ROOM_A, WAREHOUSE, alarms, device_id, report
from tests.support.demo_copy import seeded

from adapters.persistence.models import AccountRow, OperationLogRow, RoleRow, SystemMessageRow
from core.fda.model import MEMBER_SIGNING_LOCKED, SIGNING_LOCKED
from entrypoints.demo_seed import DEMO_PASSWORD

R, E = "/device/FdaRecord", "/device/FdaEndorsement"
ORGANIZATION = "Acme Cold Chain"
MEANINGS = {"reviewed": "reviewed", "approved": "approved"}


def _ok(reply):
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


def _token(api, world, user: str) -> str:
    if user not in world["tokens"]:
        world["tokens"][user] = api.token(user)
    return world["tokens"][user]


def _call(api, world, user: str, method: str, path: str, **kwargs):
    reply = api.call(method, path, token=_token(api, world, user), **kwargs)
    world["replies"].append(reply)
    return reply


def _organization(api, world) -> int:
    if "org" not in world:
        [org] = [o for o in _ok(api.call("GET", "/base/BaseOrganization/list", token=_token(api, world, "acme")))
                 if o["organizationName"] == ORGANIZATION]
        world["org"] = org["organizationId"]
    return world["org"]


def _signature(user: str | None, password: str = DEMO_PASSWORD, **more) -> dict:
    return {"password": password, **({"userName": user} if user else {}), **more}


def _sign(api, world, user: str, number: str, given: dict):
    reply = _call(api, world, user, "POST", f"{R}/sign", json={
        "recordType": "waybill", "recordId": str(world["waybills"][number]), "signature": given})
    if reply.status == 200:
        world.setdefault("signed", set()).add(user)  # within the window, the password alone signs
    return reply


def _waybill_signatures(api, world, number: str) -> list[dict]:
    return _ok(api.call("GET", f"{R}/recordSignatures", token=_token(api, world, "dave"),
                        query={"recordType": "waybill", "recordId": str(world["waybills"][number])}))


def _params_signatures(api, world, container) -> list[dict]:
    return _ok(api.call("GET", f"{R}/recordSignatures", token=_token(api, world, "dave"), query={
        "recordType": "deviceParams", "recordId": str(device_id(container, WAREHOUSE))}))


def _switch_of(api, world) -> dict:
    subjects = _ok(api.call("GET", f"{R}/status", token=_token(api, world, "acme")))["subjects"]
    return next(s for s in subjects if s["organizationId"] == _organization(api, world))


# --- given -----------------------------------------------------------------------------------


@given("the demo teams exist")
def _teams(app):
    seeded(app, history=False, teams=True)


@given(parsers.parse('Acme Cold Chain has the waybill "{number}"'))
def _has_waybill(api, world, number):
    made = _ok(api.call("POST", "/device/Waybill/insert", token=_token(api, world, "acme"), json={
        "orderNum": number, "organizationId": _organization(api, world)}))
    world.setdefault("waybills", {})[number] = made["id"]


@given("Acme Cold Chain has FDA mode on")
def _fda_on(api, world):
    _ok(api.call("POST", f"{R}/enable", token=_token(api, world, "acme"),
                 json={"organizationId": _organization(api, world)}))


@given(parsers.parse('{user}\'s real name is "{name}"'))
def _real_name(api, world, user, name):
    _ok(api.call("POST", "/base/BaseAccount/modifyBaseInfo", token=_token(api, world, user), json={"realName": name}))


@given(parsers.parse('Acme Cold Chain\'s endorsement "{name}" approves waybills with a second signer who must differ'))
def _distinct_endorsement(api, world, name):
    made = _ok(api.call("POST", f"{E}/insert", token=_token(api, world, "carol"), json={
        "organizationId": _organization(api, world), "name": name, "meaning": "approved",
        "recordTypes": ["waybill"], "distinctSigner": True}))
    world.setdefault("endorsements", {})[name] = made["id"]


@given(parsers.parse('Acme Cold Chain\'s endorsement "{name}" lets its plain members review waybills'))
def _members_endorsement(api, world, container, name):
    with container.session_factory()() as session:
        member_role = session.scalar(select(RoleRow.id).where(RoleRow.code == "org_member"))
    made = _ok(api.call("POST", f"{E}/insert", token=_token(api, world, "acme"), json={
        "organizationId": _organization(api, world), "name": name, "meaning": "reviewed",
        "recordTypes": ["waybill"], "roleIds": [member_role]}))
    world.setdefault("endorsements", {})[name] = made["id"]


@given("the warehouse cold room watches 2 to 8 °C")
def _watches(api, world, container):
    _ok(api.call("POST", "/device/DeviceAlarmRule/insert", token=_token(api, world, "acme"),
                 json=warehouse_rule(device_id(container, WAREHOUSE))))


@given("the warehouse cold room has an alarm waiting to be handled")
def _alarm_waiting(api, world, container, clock):
    _watches(api, world, container)
    report(container, WAREHOUSE, clock.now() - timedelta(minutes=5), (0, 12.0))
    [alarm] = alarms(container, WAREHOUSE)
    world["alarm"] = alarm.id


# --- when ------------------------------------------------------------------------------------


@when(parsers.parse('{user} signs the waybill "{number}" as {meaning} with {pronoun} password alone'))
def _signs_password_alone(api, world, user, number, meaning, pronoun):
    _sign(api, world, user, number, _signature(None, meaning=MEANINGS[meaning]))


@when(parsers.parse('{user} signs the waybill "{number}" as {meaning} with {pronoun} user name and password'))
def _signs_both(api, world, user, number, meaning, pronoun):
    _sign(api, world, user, number, _signature(user, meaning=MEANINGS[meaning]))


@when(parsers.parse('{user} signs the waybill "{number}" as {meaning} with a wrong password {times:d} times'))
@when(parsers.parse('{user} signs the waybill "{number}" as {meaning} with a wrong password {times:d} time'))
def _signs_wrong(api, world, user, number, meaning, times):
    for _ in range(times):
        _sign(api, world, user, number, _signature(user, "Wrong#Guess1", meaning=MEANINGS[meaning]))


@when(parsers.parse('{user} signs the waybill "{number}" as {meaning} in {zone} with the reason "{reason}"'))
def _signs_in_zone(api, world, user, number, meaning, zone, reason):
    _ok(_sign(api, world, user, number, _signature(user, meaning=MEANINGS[meaning], timeZone=zone, reason=reason)))


@when(parsers.parse('{user} signs the waybill "{number}" under "{endorsement}"'))
def _signs_under(api, world, user, number, endorsement):
    first = user not in world.get("signed", set())
    _sign(api, world, user, number, _signature(user if first else None,
                                               endorsementId=world["endorsements"][endorsement]))


@when(parsers.parse("{user} signs the parameters of alice's cold room A, which she shares with him, with his user "
                    "name and password"))
def _sharee_signs(api, world, container, user):
    _call(api, world, user, "POST", f"{R}/sign", json={
        "recordType": "deviceParams", "recordId": str(device_id(container, COLD_ROOM_A)),
        "signature": _signature(user, meaning="reviewed")})


@when(parsers.parse('{user} signs the waybill "{number}" giving a user name of {length:d} characters'))
def _signs_long_name(api, world, user, number, length):
    _sign(api, world, user, number, _signature("u" * length, meaning="reviewed"))


def _add_endorsement(api, world, user: str, name_length: int, description_length: int):
    return _call(api, world, user, "POST", f"{E}/insert", json={
        "organizationId": _organization(api, world), "name": ("Release " * 10)[:name_length],
        "description": ("Checked " * 10)[:description_length], "meaning": "approved", "recordTypes": ["waybill"]})


@when(parsers.parse("{user} adds the endorsement named with {name:d} characters and described with {description:d} "
                    "characters"))
def _adds_endorsement(api, world, user, name, description):
    _add_endorsement(api, world, user, name, description)


@when(parsers.parse("{user}, reading German, adds the endorsement named with {name:d} characters and described with "
                    "{description:d} characters"))
def _adds_endorsement_in_german(api, world, user, name, description):
    api.language = "de-DE"
    _add_endorsement(api, world, user, name, description)


@when(parsers.parse('{user} unlocks {other}\'s signing'))
def _unlocks(api, world, container, user, other):
    with container.session_factory()() as session:
        account = session.scalar(select(AccountRow.id).where(AccountRow.user_name == other))
    _ok(_call(api, world, user, "POST", f"{R}/unlockSigning", json={"accountId": account}))


@when(parsers.parse('{user} renames the waybill "{number}" to "{new}"'))
def _renames(api, world, user, number, new):
    _ok(_call(api, world, user, "PUT", "/device/Waybill/update", json={"id": world["waybills"][number],
                                                                        "orderNum": new}))
    world["waybills"][new] = world["waybills"][number]


@when(parsers.parse("{user} saves the warehouse cold room's parameters signed with her user name and password"))
def _saves_params(api, world, container, user):
    _ok(_call(api, world, user, "POST", "/device/DeviceParam/save", json={
        "deviceId": device_id(container, WAREHOUSE), "displayPrecision": 1, "temperatureUnit": "C",
        "uploadInterval": 600, "recordInterval": 120, "signature": _signature(user)}))


def _rule_id(api, world, container, user) -> int:
    rules = _ok(api.call("POST", "/device/DeviceAlarmRule/page", token=_token(api, world, user),
                         json={"deviceId": device_id(container, WAREHOUSE)}))["data"]
    return rules[0]["id"]


@when(parsers.parse("{user} changes the warehouse cold room's upper limit to {limit:g} °C without a signature"))
def _changes_limit_unsigned(api, world, container, user, limit):
    _call(api, world, user, "PUT", "/device/DeviceAlarmRule/update",
          json={"id": _rule_id(api, world, container, user), "upperLimit": limit})


@when(parsers.parse("{user} changes the warehouse cold room's upper limit to {limit:g} °C signed with her password"))
def _changes_limit_signed(api, world, container, user, limit):
    _ok(_call(api, world, user, "PUT", "/device/DeviceAlarmRule/update", json={
        "id": _rule_id(api, world, container, user), "upperLimit": limit, "signature": _signature(None)}))


@when(parsers.parse('{user} approves the alarm with the result "{result}" without a signature'))
def _approves_unsigned(api, world, user, result):
    _call(api, world, user, "POST", "/device/DeviceAlarm/deal", json={"id": world["alarm"], "handling": 1,
                                                                      "result": result})


@when(parsers.parse('{user} approves the alarm with the result "{result}" signed with a wrong password'))
def _approves_wrong(api, world, user, result):
    _call(api, world, user, "POST", "/device/DeviceAlarm/deal", json={
        "id": world["alarm"], "handling": 1, "result": result, "signature": _signature(user, "Wrong#Guess1")})


@when(parsers.parse('{user} approves the alarm with the result "{result}" signed with her user name and password'))
def _approves_signed(api, world, user, result):
    _ok(_call(api, world, user, "POST", "/device/DeviceAlarm/deal", json={
        "id": world["alarm"], "handling": 1, "result": result, "signature": _signature(user)}))


@when(parsers.parse("{user} switches FDA mode on for Acme Cold Chain"))
def _switches_on(api, world, user):
    _call(api, world, user, "POST", f"{R}/enable", json={"organizationId": _organization(api, world)})


@when(parsers.parse("{user} switches FDA mode off for Acme Cold Chain without a signature"))
def _switches_off_unsigned(api, world, user):
    _call(api, world, user, "POST", f"{R}/disable", json={"organizationId": _organization(api, world)})


@when(parsers.parse("{user} switches FDA mode off for Acme Cold Chain signed without a reason"))
def _switches_off_no_reason(api, world, user):
    _call(api, world, user, "POST", f"{R}/disable", json={"organizationId": _organization(api, world),
                                                           "signature": _signature(user)})


@when(parsers.parse('{user} switches FDA mode off for Acme Cold Chain signed with the reason "{reason}"'))
def _switches_off_signed(api, world, user, reason):
    _call(api, world, user, "POST", f"{R}/disable", json={"organizationId": _organization(api, world),
                                                           "signature": _signature(user, reason=reason)})


# --- then ------------------------------------------------------------------------------------


@then(parsers.parse('the signing is refused with HTTP {status:d} saying "{message}"'))
def _refused_saying(world, status, message):
    reply = world["replies"][-1]
    assert (reply.status, reply.body["msg"]) == (status, message), reply.body


@then(parsers.parse("the signing is refused with HTTP {status:d}"))
def _refused(world, status):
    assert world["replies"][-1].status == status, world["replies"][-1].body


@then(parsers.parse('the waybill "{number}" shows {count:d} valid signatures'))
@then(parsers.parse('the waybill "{number}" shows {count:d} valid signature'))
def _valid_signatures(api, world, number, count):
    shown = _waybill_signatures(api, world, number)
    assert [s["valid"] for s in shown] == [True] * count, shown


@then(parsers.parse('the waybill "{number}" shows {count:d} signature no longer valid'))
def _invalid_signatures(api, world, number, count):
    assert [s["valid"] for s in _waybill_signatures(api, world, number)] == [False] * count


@then(parsers.parse('the waybill "{number}" shows a signature of "{name}" meaning "{meaning}" with the reason '
                    '"{reason}" at a local time of offset {offset}'))
def _manifestation(api, world, number, name, meaning, reason, offset):
    [shown] = _waybill_signatures(api, world, number)
    assert (shown["signerName"], shown["meaningText"], shown["reason"]) == (name, meaning, reason)
    assert shown["localTime"].endswith(offset)
    assert datetime.fromisoformat(shown["localTime"]) == datetime.fromisoformat(shown["signedAt"])


@then(parsers.parse('read in {language} its meaning is "{text}"'))
def _meaning_in(api, world, language, text):
    api.language = language
    [shown] = _waybill_signatures(api, world, "WB-1")
    assert shown["meaningText"] == text


def _messages(container, user: str) -> list[SystemMessageRow]:
    with container.session_factory()() as session:
        account = session.scalar(select(AccountRow.id).where(AccountRow.user_name == user))
        return list(session.scalars(select(SystemMessageRow).where(SystemMessageRow.account_id == account)))


@then(parsers.parse("{user} is told that her electronic signing is locked"))
def _told_locked(container, user):
    assert [m.template for m in _messages(container, user)] == [SIGNING_LOCKED]


@then(parsers.parse("{user} is told that electronic signing is locked for {other}"))
def _told_member_locked(container, user, other):
    [message] = _messages(container, user)
    assert (message.template, message.params["account"], message.params["organization"]) == (
        MEMBER_SIGNING_LOCKED, other, ORGANIZATION)


@then(parsers.parse("{user} is told nothing"))
def _told_nothing(container, user):
    assert _messages(container, user) == []


@then(parsers.parse("the warehouse cold room's parameters show {count:d} valid signature"))
def _params_valid(api, world, container, count):
    assert [s["valid"] for s in _params_signatures(api, world, container)] == [True] * count


@then("the warehouse cold room's parameters show a signature no longer valid, then a valid one")
def _params_then(api, world, container):
    assert [s["valid"] for s in _params_signatures(api, world, container)] == [False, True]


@then("the alarm is still untreated")
def _untreated(container):
    [alarm] = alarms(container, WAREHOUSE)
    assert (alarm.state, alarm.handling) == (0, None)


@then(parsers.parse('the alarm is treated and shows {user}\'s signature meaning "{meaning}" '
                    'with the reason "{reason}"'))
def _treated_signed(api, world, user, meaning, reason):
    [row] = _ok(api.call("POST", "/device/DeviceAlarm/page", token=_token(api, world, "dave"),
                         json={"state": 1}))["data"]
    [signed] = row["signatures"]
    assert (signed["signerLogin"], signed["meaningText"], signed["reason"], signed["valid"]) == (
        user, meaning, reason, True)


@then(parsers.parse("FDA mode is {state} for Acme Cold Chain"))
def _mode(api, world, state):
    assert _switch_of(api, world)["enabled"] is (state == "on")


@then(parsers.parse('the switch answers "{message}" and nothing changed'))
def _repeated(world, message):
    reply = world["replies"][-1]
    assert (reply.status, reply.code, reply.body["msg"], reply.data["changed"]) == (200, 0, message, False)


@then(parsers.parse("the switch is refused with HTTP {status:d}"))
def _switch_refused(world, status):
    assert world["replies"][-1].status == status, world["replies"][-1].body


@then(parsers.parse('Acme Cold Chain\'s switch shows {user}\'s approval with the reason "{reason}"'))
def _switch_signed(api, world, user, reason):
    [signed] = _ok(api.call("GET", f"{R}/recordSignatures", token=_token(api, world, "dave"), query={
        "recordType": "fda", "recordId": f"o:{_organization(api, world)}"}))
    assert (signed["signerLogin"], signed["meaning"], signed["reason"], signed["valid"]) == (
        user, "approved", reason, True)


@then("the operation log of Acme Cold Chain holds the switch-off")
def _logged(api, world, container):
    with container.session_factory()() as session:
        outcomes = list(session.scalars(select(OperationLogRow.outcome).where(
            OperationLogRow.action == "FdaRecord.disable").order_by(OperationLogRow.id)))
    assert outcomes[-1] == "succeeded" and "refused" in outcomes
    entries = _ok(api.call("POST", "/base/OperationLog/page", token=_token(api, world, "carol"),
                           json={"action": "FdaRecord.disable"}))["data"]
    assert any(e["outcome"] == "succeeded" for e in entries)


@then("the endorsement is kept")
def _kept(world):
    reply = world["replies"][-1]
    assert (reply.status, len(reply.data["name"]), len(reply.data["description"])) == (200, 50, 50), reply.body


@then(parsers.parse('the endorsement is refused with HTTP {status:d} on "{field}"'))
def _endorsement_refused(world, status, field):
    reply = world["replies"][-1]
    assert reply.status == status and list(reply.body["errors"]) == [field], reply.body


@then(parsers.parse("the endorsement is refused with HTTP {status:d} on nothing"))
def _endorsement_forbidden(world, status):
    reply = world["replies"][-1]
    assert reply.status == status and "errors" not in reply.body, reply.body


@then("the refusal is not in English")
def _not_english(world):
    reply = world["replies"][-1]
    assert reply.status == 422 and reply.body["msg"] != "Invalid input"
    assert reply.body["errors"]["name"] != ["Length must be between 1 and 50."], reply.body


@then(parsers.parse("{user} may still try {count:d} times before signing is locked"))
def _may_still_try(api, world, user, count):
    number = next(iter(world["waybills"]))
    for left in range(count - 1, 0, -1):
        refused = _sign(api, world, user, number, _signature(user, "Wrong#Guess1", meaning="reviewed"))
        assert refused.body["msg"].endswith(f": {left}"), refused.body


@then(parsers.parse('{user} reads the endorsement "{name}"'))
def _reads_endorsement(api, world, user, name):
    page = _ok(api.call("POST", f"{E}/page", token=_token(api, world, user),
                        json={"organizationId": _organization(api, world)}))
    assert [e["name"] for e in page["data"]] == [name]
