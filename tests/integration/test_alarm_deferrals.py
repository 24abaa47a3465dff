"""Deferring an alarm over the API and through the real escalation, on SQLite and PostgreSQL.

alice's vaccine fridge has the demo rule: 2-8 °C, 5-minute delay, levels at 0, 15 and 30 minutes,
alice by SMS and e-mail at level 1, the duty manager by SMS and call at level 2 (no voice counts
left, so no call). A deferred alarm is silent and not counted until the delay chosen has passed;
then it is untreated again by the clock alone, and the escalation reminds its recipients once.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from adapters.i18n import Translator
from adapters.persistence.models import AlarmDeferralRow, AlarmMessageRow, DeviceRow
from core.alarms.commands import AddAlarmRule
from core.devices.access import READ_ONLY
from tests.support.alarms import FRIDGE, WAREHOUSE, alarms, device_id, escalate_twice_at_once, report, sent

ALARMS = "/device/DeviceAlarm"
ALICE = [("phone", "13800000001"), ("email", "alice@example.com")]
DUTY_MANAGER = [("phone", "13800000005")]


def ok(reply):
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


@pytest.fixture
def alice(demo, api):
    return api.token("alice")


@pytest.fixture
def fridge_alarm(demo, container, clock) -> int:
    """Raised just now at level 1: alice has had her SMS and e-mail."""
    report(container, FRIDGE, clock.now() - timedelta(minutes=5), *[(m, 9.5) for m in range(6)])
    [alarm] = alarms(container, FRIDGE)
    assert alarm.level == 1 and sent(container) == ALICE
    return alarm.id


@pytest.fixture
def warehouse_alarm(demo, container, clock) -> int:
    """An alarm of acme's warehouse cold room, which bob reads as a member of acme's organization."""
    with container.session_factory()() as session:
        owner = session.scalar(select(DeviceRow.owner_account_id).where(DeviceRow.guid == WAREHOUSE))
    container.create_alarm_rule()(AddAlarmRule(account_id=owner, device_id=device_id(container, WAREHOUSE),
                                               probe="t", name="Warehouse", upper_limit=8.0, lower_limit=2.0))
    report(container, WAREHOUSE, clock.now() - timedelta(minutes=1), (0, 12.0))
    [alarm] = alarms(container, WAREHOUSE)
    return alarm.id


def defer(api, token, alarm_id, minutes=None, result=None, **extra):
    body = {"id": alarm_id, "handling": 3, **({"deferMinutes": minutes} if minutes is not None else {}),
            **({"result": result} if result is not None else {}), **extra}
    return api.call("POST", f"{ALARMS}/deal", token=token, json=body)


def listed(api, token, state=None) -> list[dict]:
    return ok(api.call("POST", f"{ALARMS}/page", token=token, json={} if state is None else {"state": state}))["data"]


def count(api, token) -> int:
    return ok(api.call("GET", f"{ALARMS}/count", token=token))


def history(api, token, alarm_id, **paging) -> dict:
    return ok(api.call("POST", f"{ALARMS}/deferrals", token=token, json={"id": alarm_id, **paging}))


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text)


# --- the message centre ------------------------------------------------------------------------


def test_a_deferred_alarm_leaves_the_untreated_list_and_count_until_its_delay_has_passed(api, alice, fridge_alarm,
                                                                                          clock):
    at_ten = clock.now()
    row = ok(defer(api, alice, fridge_alarm, 60, "Technician on the way"))
    assert (row["state"], row["handling"], row["result"], row["handledBy"], row["deferralCount"]) == (
        2, None, None, None, 1)
    assert instant(row["deferredUntil"]) == at_ten + timedelta(hours=1)
    assert row["deferredUntil"].endswith("+08:00")  # in the caller's zone like every time
    assert count(api, alice) == 0
    assert listed(api, alice, 0) == [] and [r["id"] for r in listed(api, alice, 2)] == [fridge_alarm]
    assert [(r["state"], r["deferredUntil"]) for r in listed(api, alice)] == [(2, row["deferredUntil"])]

    clock.advance(minutes=59, seconds=59)
    assert count(api, alice) == 0 and listed(api, alice)[0]["state"] == 2

    # No job runs in between: the clock alone brings it back.
    clock.advance(seconds=1)
    assert count(api, alice) == 1
    [back] = listed(api, alice, 0)
    assert (back["id"], back["state"], back["deferredUntil"], back["deferralCount"]) == (fridge_alarm, 0, None, 1)
    assert listed(api, alice, 2) == [] and listed(api, alice, 1) == []


def test_an_alarm_back_from_a_deferral_is_deferred_again_or_handled_and_only_handling_treats_it(
        api, alice, fridge_alarm, clock):
    ok(defer(api, alice, fridge_alarm, 15))
    clock.advance(minutes=15)
    again = ok(defer(api, alice, fridge_alarm, 240, "Waiting for the spare part"))
    assert (again["state"], again["deferralCount"]) == (2, 2)
    # Approving while deferred treats it at once, for good.
    approved = ok(api.call("POST", f"{ALARMS}/deal", token=alice,
                           json={"id": fridge_alarm, "handling": 1, "result": "Compressor replaced"}))
    assert (approved["state"], approved["handling"], approved["result"], approved["handledBy"]) == (
        1, 1, "Compressor replaced", "alice")
    assert approved["deferredUntil"] is None and approved["deferralCount"] == 2
    clock.advance(hours=5)
    assert count(api, alice) == 0 and [r["state"] for r in listed(api, alice)] == [1]
    refused = defer(api, alice, fridge_alarm, 15)
    assert (refused.status, refused.code, refused.body["msg"]) == (409, 1011, "This alarm has already been handled")
    assert history(api, alice, fridge_alarm)["totalCount"] == 2


def test_deferring_a_deferred_alarm_moves_its_end(api, alice, fridge_alarm, clock):
    start = clock.now()
    ok(defer(api, alice, fridge_alarm, 60))
    clock.advance(minutes=10)
    row = ok(defer(api, alice, fridge_alarm, 15))
    assert instant(row["deferredUntil"]) == start + timedelta(minutes=25)
    clock.advance(minutes=15)
    assert count(api, alice) == 1


def test_every_deferral_is_recorded_with_who_when_until_and_why(api, alice, fridge_alarm, clock):
    first_at = clock.now()
    ok(defer(api, alice, fridge_alarm, 15, "  Door being fixed  "))
    clock.advance(minutes=20)
    ok(defer(api, alice, fridge_alarm, 1440))
    page = history(api, alice, fridge_alarm)
    assert page["totalCount"] == 2
    newest, oldest = page["data"]
    assert (newest["minutes"], newest["deferredBy"], newest["result"]) == (1440, "alice", None)
    assert instant(newest["deferredAt"]) == first_at + timedelta(minutes=20)
    assert instant(newest["deferredUntil"]) == first_at + timedelta(minutes=20, days=1)
    assert (oldest["minutes"], oldest["deferredBy"], oldest["result"]) == (15, "alice", "Door being fixed")
    assert (instant(oldest["deferredAt"]), instant(oldest["deferredUntil"])) == (
        first_at, first_at + timedelta(minutes=15))
    assert history(api, alice, fridge_alarm, sortOrder="asc", pageSize=1)["data"] == [oldest]


# --- who may defer -----------------------------------------------------------------------------


def test_another_customer_s_alarm_answers_as_an_unknown_one(api, container, fridge_alarm):
    acme = api.token("acme")
    for reply in (defer(api, acme, fridge_alarm, 60), api.call("POST", f"{ALARMS}/deferrals", token=acme,
                                                               json={"id": fridge_alarm}),
                  defer(api, acme, 999_999, 60)):
        assert (reply.status, reply.body) == (404, {"code": 404, "msg": "Not found", "data": None})
    [alarm] = alarms(container, FRIDGE)
    assert alarm.deferred_until is None and _deferrals(container) == []


@pytest.mark.parametrize("language", ["en-US", "zh-CN", "de-DE"])
def test_a_read_only_member_may_read_but_not_defer_and_is_told_so_in_his_language(api, container, warehouse_alarm,
                                                                                   language):
    bob = api.token("bob")
    api.language = language
    reply = defer(api, bob, warehouse_alarm, 60)
    assert (reply.status, reply.code, reply.data) == (403, 403, None)
    assert reply.body["msg"] == Translator().translate(READ_ONLY, language)
    assert [(r["state"], r["deferralCount"]) for r in listed(api, bob)] == [(0, 0)]
    assert history(api, bob, warehouse_alarm)["totalCount"] == 0
    assert count(api, bob) == 1 and _deferrals(container) == []
    # The organization's creator may.
    assert ok(defer(api, api.token("acme"), warehouse_alarm, 60))["state"] == 2
    assert count(api, bob) == 0 and listed(api, bob)[0]["state"] == 2


@pytest.mark.parametrize("body,field", [
    ({"deferMinutes": 0}, "deferMinutes"),
    ({"deferMinutes": -60}, "deferMinutes"),
    ({"deferMinutes": 1441}, "deferMinutes"),
    ({"deferMinutes": 10**12}, "deferMinutes"),
    ({"deferMinutes": 2**63}, "deferMinutes"),
    ({"deferMinutes": 1.5}, "deferMinutes"),
    ({"deferMinutes": "an hour"}, "deferMinutes"),
    ({"deferMinutes": True}, "deferMinutes"),
    ({"deferMinutes": [60]}, "deferMinutes"),
    ({"handling": 1, "deferMinutes": 60}, "deferMinutes"),  # a delay goes only with deferring
    ({"handling": 2, "deferMinutes": 15}, "deferMinutes"),
    ({"result": "r" * 51}, "result"),
])
def test_hostile_delays_are_refused_and_change_nothing(api, container, alice, fridge_alarm, body, field):
    reply = api.call("POST", f"{ALARMS}/deal", token=alice, json={"id": fridge_alarm, "handling": 3, **body})
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert field in reply.body["errors"]
    [alarm] = alarms(container, FRIDGE)
    assert (alarm.state, alarm.deferred_until) == (0, None) and _deferrals(container) == []


def test_the_delay_refusal_is_in_the_caller_s_language(api, alice, fridge_alarm):
    messages = set()
    for language in ("en-US", "zh-CN", "es-ES", "ru-RU", "pt-PT", "de-DE", "zh-TW"):
        api.language = language
        reply = api.call("POST", f"{ALARMS}/deal", token=alice,
                         json={"id": fridge_alarm, "handling": 1, "deferMinutes": 60})
        messages.add(reply.body["errors"]["deferMinutes"][0])
    assert len(messages) == 7


def test_a_client_that_sends_no_delay_defers_for_an_hour(api, alice, fridge_alarm, clock):
    row = ok(defer(api, alice, fridge_alarm, deferMinutes=None))
    assert instant(row["deferredUntil"]) == clock.now() + timedelta(hours=1)
    assert history(api, alice, fridge_alarm)["data"][0]["minutes"] == 60


# --- reminders ---------------------------------------------------------------------------------


def test_a_deferred_alarm_alerts_nobody_then_reminds_its_recipients_once_at_its_end(
        api, container, alice, fridge_alarm, clock):
    ok(defer(api, alice, fridge_alarm, 60))
    clock.advance(minutes=30)  # levels 2 and 3 came due meanwhile
    assert container.escalate_alarms()() == 0
    report(container, FRIDGE, clock.now(), (0, 9.8))  # readings outside the limits change nothing either
    clock.advance(minutes=29)
    assert container.escalate_alarms()() == 0
    assert sent(container) == ALICE and alarms(container, FRIDGE)[0].level == 1

    clock.advance(minutes=1)
    assert container.escalate_alarms()() == 1
    # alice is reminded at her level; the duty manager hears of level 2 (and level 3 has nobody).
    assert sent(container) == ALICE + ALICE + DUTY_MANAGER
    assert alarms(container, FRIDGE)[0].level == 3
    assert container.escalate_alarms()() == 0 and len(sent(container)) == 5
    report(container, FRIDGE, clock.now(), (0, 9.9))
    assert len(sent(container)) == 5


def test_readings_between_the_end_and_the_escalation_leave_the_reminder_to_it(api, container, alice, fridge_alarm,
                                                                                clock):
    ok(defer(api, alice, fridge_alarm, 15))
    clock.advance(minutes=16)
    report(container, FRIDGE, clock.now(), (0, 9.7))  # level 2 is due by the readings' time too
    assert sent(container) == ALICE
    assert container.escalate_alarms()() == 1
    assert sent(container) == ALICE + ALICE + DUTY_MANAGER


def test_an_alarm_that_ended_while_deferred_is_untreated_again_but_reminds_nobody(api, container, alice,
                                                                                  fridge_alarm, clock):
    ok(defer(api, alice, fridge_alarm, 15))
    clock.advance(minutes=5)
    report(container, FRIDGE, clock.now(), (0, 5.0))  # back inside the limits
    clock.advance(minutes=15)
    assert container.escalate_alarms()() == 0 and sent(container) == ALICE
    assert count(api, alice) == 1  # still to be approved or refused


def test_two_escalations_at_once_remind_once(api, container, alice, fridge_alarm, clock):
    ok(defer(api, alice, fridge_alarm, 15))
    clock.advance(minutes=15)
    assert escalate_twice_at_once(container) == [0, 1]
    assert sent(container) == ALICE + ALICE + DUTY_MANAGER


def test_an_alarm_approved_while_deferred_reminds_nobody(api, container, alice, fridge_alarm, clock):
    ok(defer(api, alice, fridge_alarm, 15))
    ok(api.call("POST", f"{ALARMS}/deal", token=alice, json={"id": fridge_alarm, "handling": 2}))
    clock.advance(hours=2)
    assert container.escalate_alarms()() == 0 and sent(container) == ALICE


def _deferrals(container) -> list[AlarmDeferralRow]:
    with container.session_factory()() as session:
        return list(session.scalars(select(AlarmDeferralRow)))


# --- the alarms a deferral used to close -------------------------------------------------------


def test_the_migration_reopens_alarms_a_deferral_had_closed_and_records_the_deferral(tmp_path):
    from adapters.persistence.migrate import downgrade, upgrade
    from entrypoints.demo_seed import seed
    from tests.support.fixtures import _make_app

    app = _make_app(f"sqlite:///{tmp_path / 'deferred.db'}", tmp_path)
    try:
        seed(app.container, alarms=True)
        engine = app.container.engine()
        downgrade(engine, "0006")
        with engine.begin() as connection:
            alarm_id, handled_by = connection.execute(select(AlarmMessageRow.id, DeviceRow.owner_account_id).join(
                DeviceRow, DeviceRow.id == AlarmMessageRow.device_id).where(AlarmMessageRow.state == 0)).first()
            connection.execute(update(AlarmMessageRow.__table__).where(AlarmMessageRow.id == alarm_id).values(
                state=1, handling=3, result="Later", handled_by=handled_by,
                handled_at=datetime(2026, 1, 5, 8, tzinfo=UTC)))
        upgrade(engine)
        with app.container.session_factory()() as session:
            alarm = session.get(AlarmMessageRow, alarm_id)
            assert (alarm.state, alarm.handling, alarm.result, alarm.handled_by, alarm.deferred_until) == (
                0, None, None, None, None)
            [deferral] = session.scalars(select(AlarmDeferralRow)).all()
            assert (deferral.alarm_id, deferral.account_id, deferral.result) == (alarm_id, handled_by, "Later")
            assert deferral.deferred_at == deferral.deferred_until
            approved = session.scalars(select(AlarmMessageRow).where(AlarmMessageRow.handling == 1)).all()
            assert len(approved) == 1 and approved[0].state == 1  # an approval stays as it was
    finally:
        app.container.engine().dispose()
