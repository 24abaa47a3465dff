"""Steps of features/alarms/*.feature, imported by features/conftest.py so that the scenarios
collected by features/test_features.py find them."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from pytest_bdd import given, parsers, then, when
from sqlalchemy import select
from tests.support.alarms import COLD_ROOM_A, FRIDGE, WAREHOUSE, alarms, device, outbox, report, set_counts

from adapters.persistence.models import AlarmRecipientRow, AlarmRuleRow

DEVICES = {"vaccine fridge": FRIDGE, "cold room A": COLD_ROOM_A, "warehouse cold room": WAREHOUSE}
RULES = "/device/DeviceAlarmRule"
PEOPLE = {"alice": ("13800000001", "alice@example.com"), "the duty manager": ("13800000005", None)}
HANDLING = {"approves": 1, "refuses": 2, "defers": 3}
ZONE = ZoneInfo("Asia/Shanghai")  # the domestic edition's, in which the API writes times
UNIT_MINUTES = {"minute": 1, "hour": 60, "day": 24 * 60}


def _alarm(container):
    [alarm] = alarms(container)
    return alarm


def _rule_id(api, container, world, user, name) -> int:
    page = api.call("POST", f"{RULES}/page", token=world["tokens"][user],
                    json={"deviceId": device(container, DEVICES[name]).id})
    assert page.status == 200, page.body
    return page.data["data"][0]["id"]


def _change_rule(api, container, world, user, name, **changes) -> None:
    world["replies"].append(api.call("PUT", f"{RULES}/update", token=world["tokens"][user], json={
        "id": _rule_id(api, container, world, user, name), **changes}))


def _local_time(world, text: str) -> datetime:
    """"HH:MM" or "HH:MM next day" on the day of the scenario's "it is 10:00"."""
    clock_time, _, next_day = text.partition(" ")
    hour, minute = map(int, clock_time.split(":"))
    day = world["day"] + timedelta(days=1 if next_day == "next day" else 0)
    return day.replace(hour=hour, minute=minute)


def _minutes(amount: str, unit: str) -> int:
    return int(amount) * UNIT_MINUTES[unit.rstrip("s")]


def _untreated(api, world, user):
    reply = api.call("POST", "/device/DeviceAlarm/page", token=world["tokens"][user], json={"state": 0})
    assert reply.status == 200, reply.body
    return reply.data


# --- given -----------------------------------------------------------------------------------


@given(parsers.parse("the {name} has raised an alarm"))
def _has_raised(container, clock, name):
    """Readings outside the limits for the last five minutes: raised just now, at level 1."""
    report(container, DEVICES[name], clock.now() - timedelta(minutes=5), *[(m, 9.5) for m in range(6)])
    assert _alarm(container).level == 1


@given(parsers.parse("it is {time}"))
def _it_is(clock, world, time):
    """The next such time in Shanghai: the clock only goes forward, after the demo's readings."""
    now = clock.now().astimezone(ZONE)
    world["day"] = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if _local_time(world, time) <= now:
        world["day"] += timedelta(days=1)
    clock.advance(seconds=(_local_time(world, time) - now).total_seconds())


@given(parsers.parse("the {name} has no SMS left"))
def _no_sms(container, name):
    set_counts(container, DEVICES[name], sms=0)


@given(parsers.parse("{user} watches the {name} with a 2-8 °C rule alerting {count:d} people"))
def _watches(api, container, world, user, name, count):
    token = world["tokens"].setdefault(user, api.token(user))
    recipients = [{"level": 1, "name": f"Person {i}", "email": f"person{i}@example.com"} for i in range(count)]
    reply = api.call("POST", f"{RULES}/insert", token=token, json={
        "deviceId": device(container, DEVICES[name]).id, "probe": "t", "name": "2-8 °C", "upperLimit": 8.0,
        "lowerLimit": 2.0, "recipients": recipients})
    assert reply.status == 200, reply.body


# --- when ------------------------------------------------------------------------------------


@when(parsers.parse("the {name} reads {value:g} °C for {minutes:d} minutes"))
def _reads_for(container, clock, name, value, minutes):
    report(container, DEVICES[name], clock.now() - timedelta(minutes=minutes),
           *[(m, value) for m in range(minutes + 1)])


@when(parsers.parse("the {name} reads {value:g} °C"))
def _reads(container, clock, name, value):
    clock.advance(minutes=1)
    report(container, DEVICES[name], clock.now(), (0, value))


@when(parsers.parse("the clock reaches {time}"))
def _clock_reaches(clock, world, time):
    clock.advance(seconds=(_local_time(world, time) - clock.now()).total_seconds())


@when(parsers.re(r'(?P<user>\w+) defers the alarm for (?P<amount>\d+) (?P<unit>minutes?|hours?|days?)'
                 r'(?: with the result "(?P<result>[^"]*)")?'))
def _defers_for(api, container, world, user, amount, unit, result):
    world["replies"].append(api.call("POST", "/device/DeviceAlarm/deal", token=world["tokens"][user], json={
        "id": _alarm(container).id, "handling": 3, "deferMinutes": _minutes(amount, unit), "result": result}))


@when("the alarms are escalated")
def _escalated(container):
    container.escalate_alarms()()


@when(parsers.parse('{user} {verb} the alarm with the result "{result}"'))
def _handles_with_result(api, container, world, user, verb, result):
    world["replies"].append(api.call("POST", "/device/DeviceAlarm/deal", token=world["tokens"][user], json={
        "id": _alarm(container).id, "handling": HANDLING[verb], "result": result}))


@when(parsers.parse("{user} {verb} the alarm"))
def _handles(api, container, world, user, verb):
    world["replies"].append(api.call("POST", "/device/DeviceAlarm/deal", token=world["tokens"][user], json={
        "id": _alarm(container).id, "handling": HANDLING[verb]}))


@when(parsers.parse("{user} sets the graded alarm times of the {name} to {level1:d}, {level2:d} and "
                    "{level3:d} minutes"))
def _sets_times(api, container, world, user, name, level1, level2, level3):
    token = world["tokens"][user]
    rules = api.call("POST", "/device/DeviceAlarmRule/page", token=token,
                     json={"deviceId": device(container, DEVICES[name]).id}).data["data"]
    rule = {k: v for k, v in rules[0].items() if k not in ("deviceName", "deviceGuid", "createdAt", "updatedAt")}
    world["replies"].append(api.call("PUT", "/device/DeviceAlarmRule/update", token=token, json={
        **rule, "level1Minutes": level1, "level2Minutes": level2, "level3Minutes": level3}))


@when(parsers.parse("{user} switches off the rule of the {name}"))
def _switches_off(api, container, world, user, name):
    _change_rule(api, container, world, user, name, enabled=False)


@when(parsers.parse("{user} changes the upper limit of the rule of the {name} to {value:g} °C"))
def _changes_upper_limit(api, container, world, user, name, value):
    _change_rule(api, container, world, user, name, upperLimit=value)


@when(parsers.parse("{user} clears both limits of the rule of the {name}"))
def _clears_limits(api, container, world, user, name):
    _change_rule(api, container, world, user, name, upperLimit=None, lowerLimit=None)


# --- then ------------------------------------------------------------------------------------


@then(parsers.parse("the rule of the {name} is on, allows {low:g} to {high:g} °C and alerts {count:d} people"))
def _rule_is(container, name, low, high, count):
    with container.session_factory()() as session:
        rule = session.scalars(select(AlarmRuleRow).where(AlarmRuleRow.device_id == device(container, DEVICES[name]).id,
                                                          AlarmRuleRow.probe == "t")).one()
        people = session.scalars(select(AlarmRecipientRow).where(AlarmRecipientRow.rule_id == rule.id)).all()
    assert (rule.enabled, rule.lower_limit, rule.upper_limit, len(people)) == (True, low, high, count)


@then(parsers.parse("{user} sees the rule of the {name}"))
def _sees_rule(api, container, world, user, name):
    rule_id = _rule_id(api, container, world, user, name)
    assert api.call("GET", f"{RULES}/get", token=world["tokens"][user], query={"id": rule_id}).status == 200


@then(parsers.parse("{user}'s message centre shows {count:d} untreated alarm of the {name} at level {level:d}"))
def _centre_shows(api, world, user, count, name, level):
    page = _untreated(api, world, user)
    assert page["totalCount"] == count
    assert [(r["deviceGuid"], r["level"]) for r in page["data"]] == [(DEVICES[name], level)] * count


@then(parsers.parse("{user}'s message centre shows no alarm"))
def _centre_empty(api, world, user):
    reply = api.call("POST", "/device/DeviceAlarm/page", token=world["tokens"][user], json={})
    assert reply.status == 200 and reply.data["totalCount"] == 0


@then(parsers.parse("{user}'s header badge shows {count:d} untreated alarms"))
@then(parsers.parse("{user}'s header badge shows {count:d} untreated alarm"))
def _badge(api, world, user, count):
    assert api.call("GET", "/device/DeviceAlarm/count", token=world["tokens"][user]).data == count


@then(parsers.parse("the alarm is deferred until {time}"))
def _deferred_until(api, container, world, time):
    assert world["replies"][-1].status == 200, world["replies"][-1].body
    [row] = [r for r in api.call("POST", "/device/DeviceAlarm/page", token=world["tokens"]["alice"], json={}).data[
        "data"] if r["id"] == _alarm(container).id]
    assert (row["state"], datetime.fromisoformat(row["deferredUntil"])) == (2, _local_time(world, time))


def _history(api, container, world) -> list[dict]:
    reply = api.call("POST", "/device/DeviceAlarm/deferrals", token=world["tokens"]["alice"],
                     json={"id": _alarm(container).id, "pageSize": 50})
    assert reply.status == 200, reply.body
    return reply.data["data"]


@then(parsers.parse('the alarm\'s history shows 1 deferral by {user} at {at} until {until} with the result '
                    '"{result}"'))
def _history_shows(api, container, world, user, at, until, result):
    [deferral] = _history(api, container, world)
    assert (deferral["deferredBy"], deferral["result"]) == (user, result)
    assert datetime.fromisoformat(deferral["deferredAt"]) == _local_time(world, at)
    assert datetime.fromisoformat(deferral["deferredUntil"]) == _local_time(world, until)


@then(parsers.parse("the alarm's history shows {count:d} deferrals"))
def _history_count(api, container, world, count):
    assert len(_history(api, container, world)) == count


def _alerts(container, name, person, channel) -> int:
    phone, email = PEOPLE[person]
    target = email if channel == "email" else phone
    device_name = device(container, DEVICES[name]).device_name
    return sum(1 for m in outbox(container)
               if (m.channel, m.recipient, m.params["device"]) == (channel, target, device_name))


@then(parsers.parse("{person} has had {sms:d} SMS and {mails:d} e-mails about the {name}"))
@then(parsers.parse("{person} has had {sms:d} SMS and {mails:d} e-mail about the {name}"))
def _has_had_sms_and_mails(container, person, sms, mails, name):
    assert (_alerts(container, name, person, "phone"), _alerts(container, name, person, "email")) == (sms, mails)


@then(parsers.parse("{person} has had {sms:d} SMS about the {name}"))
def _has_had_sms(container, person, sms, name):
    assert _alerts(container, name, person, "phone") == sms


@then(parsers.parse("the {name} is alarming"))
def _alarming(container, name):
    assert device(container, DEVICES[name]).alarm_state == 1


@then(parsers.parse("the {name} is not alarming"))
def _not_alarming(container, name):
    assert device(container, DEVICES[name]).alarm_state == 0


@then(parsers.parse("the {name} has {count:d} SMS left"))
def _sms_left(container, name, count):
    assert device(container, DEVICES[name]).sms_count == count


def _sent_to(container, name, person, channels):
    phone, email = PEOPLE[person]
    targets = {"phone": phone, "email": email, "voice": phone}
    device_name = device(container, DEVICES[name]).device_name
    for channel in channels:
        matching = [m for m in outbox(container) if (m.channel, m.recipient) == (channel, targets[channel])]
        assert [m.params["device"] for m in matching] == [device_name], (channel, matching)


@then(parsers.parse("an SMS and an e-mail about the {name} go to {person}"))
def _sms_and_mail(container, name, person):
    _sent_to(container, name, person, ("phone", "email"))


@then(parsers.parse("an SMS about the {name} goes to {person}"))
def _sms(container, name, person):
    _sent_to(container, name, person, ("phone",))


@then(parsers.parse("an e-mail about the {name} goes to {person}"))
def _mail(container, name, person):
    _sent_to(container, name, person, ("email",))


@then("nothing is sent")
def _nothing(container):
    assert outbox(container) == []


@then("no SMS is sent")
def _no_sms_sent(container):
    assert [m for m in outbox(container) if m.channel == "phone"] == []


@then("no call is made")
def _no_call(container):
    assert [m for m in outbox(container) if m.channel == "voice"] == []


@then(parsers.parse("the alarm is at level {level:d}"))
def _at_level(container, level):
    assert _alarm(container).level == level


@then("the alarm has ended")
def _ended(container):
    assert _alarm(container).ended_at is not None


@then(parsers.parse('the alarm is treated with the result "{result}"'))
def _treated(api, world, container, result):
    assert world["replies"][-1].status == 200, world["replies"][-1].body
    alarm = _alarm(container)
    assert (alarm.state, alarm.handling, alarm.result) == (1, 1, result)


@then(parsers.parse('the error for {field} reads "{message}"'))
def _error_reads(world, field, message):
    assert world["replies"][-1].body["errors"][field] == [message]


@then(parsers.parse("the rule of the {name} alerts level {level:d} after {minutes:d} minutes"))
def _rule_saved(api, container, world, name, level, minutes):
    assert world["replies"][-1].status == 200, world["replies"][-1].body
    assert world["replies"][-1].data[f"level{level}Minutes"] == minutes
