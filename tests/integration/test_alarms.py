"""Alarm evaluation and escalation through the real repositories, on SQLite and PostgreSQL, with
the demo rule of alice's vaccine fridge: 2-8 °C, 5-minute delay, levels at 0, 15 and 30 minutes,
alice by SMS and e-mail at level 1, the duty manager by SMS and voice call at level 2."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy import event, func, select

from adapters.persistence.models import AlarmExcursionRow, DeviceRow
from core.alarms.commands import AddAlarmRule
from core.notifications.model import Channel
from core.telemetry.model import Reading
from tests.support.alarms import (
    COLD_ROOM_A,
    FRIDGE,
    TRUCK,
    alarms,
    device,
    device_id,
    escalate_twice_at_once,
    outbox,
    report,
    sent,
    set_counts,
    store,
)

pytestmark = pytest.mark.usefixtures("demo")

ALICE = [("phone", "13800000001"), ("email", "alice@example.com")]


@pytest.fixture
def start(clock):
    """Readings start ten minutes ago, so an alarm 5 minutes in was raised 5 minutes ago."""
    return clock.now() - timedelta(minutes=10)


def excursions(container) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(AlarmExcursionRow))


def test_an_excursion_longer_than_the_delay_raises_a_graded_alarm_and_consumes_one_sms(container, start):
    before = device(container, FRIDGE)
    report(container, FRIDGE, start, (0, 9.0), (3, 11.5), (5, 10.0))
    [alarm] = alarms(container)
    assert (alarm.probe, alarm.kind, alarm.limit_value, alarm.value, alarm.extreme_value) == ("t", 1, 8.0, 10.0, 11.5)
    assert (alarm.started_at, alarm.raised_at, alarm.ended_at) == (start, start + timedelta(minutes=5), None)
    assert (alarm.level, alarm.state) == (1, 0)
    after = device(container, FRIDGE)
    assert after.alarm_state == 1
    assert (after.sms_count, after.voice_count) == (before.sms_count - 1, before.voice_count)
    assert sent(container) == ALICE
    sms, mail = outbox(container)
    assert sms.params["countryCode"] == "86" and sms.params["device"] == "Vaccine fridge logger"
    assert (sms.params["value"], sms.params["limit"], sms.params["level"]) == ("10.0", "8.0", 1)
    assert sms.template == mail.template == "alarm_temperature_above" and sms.language == "zh-CN"


def test_a_short_excursion_raises_nothing_and_leaves_nothing_behind(container, start):
    report(container, FRIDGE, start, (0, 9.0), (4, 9.5))
    assert alarms(container) == [] and excursions(container) == 1
    report(container, FRIDGE, start, (4.5, 7.9))
    assert alarms(container) == [] and excursions(container) == 0 and sent(container) == []
    assert device(container, FRIDGE).alarm_state == 0


def test_the_delay_spans_batches_and_back_inside_ends_the_alarm(container, start):
    report(container, FRIDGE, start, (0, 1.5))
    report(container, FRIDGE, start, (3, 0.5))
    report(container, FRIDGE, start, (5, 1.0))
    [alarm] = alarms(container)
    assert (alarm.kind, alarm.limit_value, alarm.extreme_value, alarm.ended_at) == (2, 2.0, 0.5, None)
    report(container, FRIDGE, start, (7, 4.0))
    [alarm] = alarms(container)
    assert alarm.ended_at == start + timedelta(minutes=7) and excursions(container) == 0
    assert device(container, FRIDGE).alarm_state == 0


def test_zero_counts_send_no_sms_or_call_but_the_alarm_is_recorded(container, start, clock):
    set_counts(container, COLD_ROOM_A, sms=0, voice=0)
    report(container, COLD_ROOM_A, start, (0, 9.0), (5, 9.0))
    [alarm] = alarms(container)
    assert alarm.level == 1 and device(container, COLD_ROOM_A).alarm_state == 1
    assert sent(container) == [("email", "alice@example.com")]  # e-mail is free
    clock.advance(minutes=11)
    assert container.escalate_alarms()() == 1
    assert sent(container) == [("email", "alice@example.com")]
    d = device(container, COLD_ROOM_A)
    assert (d.sms_count, d.voice_count) == (0, 0)


def test_escalation_raises_level_2_when_time_passes_without_readings(container, start, clock):
    report(container, COLD_ROOM_A, start, (0, 9.0), (5, 9.2))  # raised 5 minutes ago
    before = device(container, COLD_ROOM_A)
    clock.advance(minutes=9)
    assert container.escalate_alarms()() == 0
    assert alarms(container)[0].level == 1
    clock.advance(minutes=1)  # 15 minutes after the alarm
    assert container.escalate_alarms()() == 1
    assert alarms(container)[0].level == 2
    assert sent(container)[2:] == [("phone", "13800000005"), ("voice", "13800000005")]
    after = device(container, COLD_ROOM_A)
    assert (after.sms_count, after.voice_count) == (before.sms_count - 1, before.voice_count - 1)
    assert container.escalate_alarms()() == 0 and len(sent(container)) == 4  # nobody alerted twice
    clock.advance(minutes=15)
    assert container.escalate_alarms()() == 1 and alarms(container)[0].level == 3
    assert len(sent(container)) == 4  # level 3 has no recipients
    clock.advance(days=1)
    assert container.escalate_alarms()() == 0


def test_an_ended_or_handled_alarm_does_not_escalate(container, start, clock, api):
    report(container, FRIDGE, start, (0, 9.0), (5, 9.0), (6, 5.0))
    report(container, COLD_ROOM_A, start, (0, 9.0), (5, 9.0))
    handled = alarms(container, COLD_ROOM_A)[0].id
    reply = api.call("POST", "/device/DeviceAlarm/deal", token=api.token("alice"),
                     json={"id": handled, "handling": 1, "result": "Compressor serviced"})
    assert reply.status == 200, reply.body
    clock.advance(hours=2)
    assert container.escalate_alarms()() == 0
    assert [a.level for a in alarms(container)] == [1, 1]


def test_readings_of_a_device_without_rules_cost_two_queries_whatever_their_number(container, clock):
    truck = device_id(container, TRUCK)
    readings = [Reading(truck, clock.now() - timedelta(seconds=i), 30.0 + i % 7, 99.0) for i in range(2000)]
    statements = []

    def count(conn, cursor, statement, *args):
        statements.append(statement)

    engine = container.engine()
    with container.uow() as uow:
        event.listen(engine, "before_cursor_execute", count)
        try:
            container.evaluate_alarms()(uow, readings)
        finally:
            event.remove(engine, "before_cursor_execute", count)
    # its rules, and the waybills on a trip whose limits would judge it instead (issue 20)
    assert len(statements) == 2, statements
    assert "waybill_devices" in statements[0] and "alarm_rules" in statements[1]


def test_a_batch_costs_the_same_few_reads_whatever_its_size(container, clock):
    fridge, room = device_id(container, FRIDGE), device_id(container, COLD_ROOM_A)
    engine = container.engine()
    for size in (10, 2000):
        readings = [Reading(d, clock.now() - timedelta(seconds=i), 5.0, 50.0) for i in range(size // 2)
                    for d in (fridge, room)]
        statements = []

        def count(conn, cursor, statement, *args, into=statements):
            into.append(statement)

        with container.uow() as uow:
            event.listen(engine, "before_cursor_execute", count)
            try:
                container.evaluate_alarms()(uow, readings)
            finally:
                event.remove(engine, "before_cursor_execute", count)
        assert len(statements) == 4, statements  # trips, rules with recipients, devices, open excursions


def test_many_devices_and_probes_in_one_shuffled_batch(container, start):
    fridge, room, truck = (device_id(container, g) for g in (FRIDGE, COLD_ROOM_A, TRUCK))
    humidity = dict(name="Cold room A humidity", upper_limit=70.0, lower_limit=None, delay_seconds=120)
    container.create_alarm_rule()(_save(container, room, "h", **humidity))
    batch = [Reading(fridge, start + timedelta(minutes=m), 9.0 if m < 8 else 6.0, 50.0) for m in range(10)]
    batch += [Reading(room, start + timedelta(minutes=m), 5.0, 80.0) for m in range(10)]
    batch += [Reading(truck, start + timedelta(minutes=m), 40.0, 99.0) for m in range(10)]
    random.Random(7).shuffle(batch)
    store(container, batch)
    by_probe = {(a.device_id, a.probe): a for a in alarms(container)}
    assert set(by_probe) == {(fridge, "t"), (room, "h")}
    assert by_probe[(fridge, "t")].ended_at == start + timedelta(minutes=8)
    assert by_probe[(room, "h")].raised_at == start + timedelta(minutes=2) and by_probe[(room, "h")].ended_at is None
    assert device(container, FRIDGE).alarm_state == 0 and device(container, COLD_ROOM_A).alarm_state == 1


def test_concurrent_batches_never_take_a_count_below_zero(container):
    set_counts(container, COLD_ROOM_A, sms=3)
    room = device_id(container, COLD_ROOM_A)
    start = threading.Barrier(8)

    def take() -> bool:
        with container.uow() as uow:
            start.wait()
            taken = uow.alarms.consume_count(room, Channel.PHONE)
            uow.commit()
            return taken

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: take(), range(8)))
    assert results.count(True) == 3 and device(container, COLD_ROOM_A).sms_count == 0


def test_a_count_held_by_an_open_unit_of_work_is_not_spent_twice(container):
    set_counts(container, COLD_ROOM_A, sms=1)
    room = device_id(container, COLD_ROOM_A)
    second: dict[str, bool] = {}

    def other() -> None:
        with container.uow() as uow:
            second["taken"] = uow.alarms.consume_count(room, Channel.PHONE)
            uow.commit()

    with container.uow() as first:
        assert first.alarms.consume_count(room, Channel.PHONE)
        thread = threading.Thread(target=other)
        thread.start()
        thread.join(0.5)  # the other unit of work waits for this one's row
        first.commit()
    thread.join(30)
    assert second == {"taken": False} and device(container, COLD_ROOM_A).sms_count == 0


def test_two_escalations_at_once_alert_each_level_once(container, start, clock):
    report(container, COLD_ROOM_A, start, (0, 9.0), (5, 9.2))
    clock.advance(minutes=20)
    assert escalate_twice_at_once(container) == [0, 1]
    assert sent(container)[2:] == [("phone", "13800000005"), ("voice", "13800000005")]


def test_disabling_or_deleting_a_rule_ends_what_it_raised(container, start, api):
    report(container, FRIDGE, start, (0, 9.0), (5, 9.0))
    report(container, COLD_ROOM_A, start, (0, 9.0), (5, 9.0))
    token = api.token("alice")
    fridge_rule = _rule_id(api, token, FRIDGE, container)
    rule = api.call("GET", "/device/DeviceAlarmRule/get", token=token, query={"id": fridge_rule}).data
    body = {k: v for k, v in rule.items() if k not in ("deviceName", "deviceGuid", "createdAt", "updatedAt")}
    assert api.call("PUT", "/device/DeviceAlarmRule/update", token=token, json={**body, "enabled": False}).code == 0
    assert alarms(container, FRIDGE)[0].ended_at is not None and device(container, FRIDGE).alarm_state == 0
    room_rule = _rule_id(api, token, COLD_ROOM_A, container)
    assert api.call("DELETE", "/device/DeviceAlarmRule/delete", token=token, query={"id": room_rule}).code == 0
    [room_alarm] = alarms(container, COLD_ROOM_A)
    assert room_alarm.ended_at is not None and room_alarm.rule_id is None
    assert device(container, COLD_ROOM_A).alarm_state == 0 and excursions(container) == 0


def _rule_id(api, token, guid, container) -> int:
    page = api.call("POST", "/device/DeviceAlarmRule/page", token=token,
                    json={"deviceId": device_id(container, guid)}).data
    return page["data"][0]["id"]


def _save(container, device_id: int, probe: str, **fields) -> AddAlarmRule:
    with container.session_factory()() as session:
        owner = session.scalar(select(DeviceRow.owner_account_id).where(DeviceRow.id == device_id))
    return AddAlarmRule(account_id=owner, device_id=device_id, probe=probe, **fields)


def test_the_demo_alarms_are_raised_through_the_ingest_transaction_once(container):
    from entrypoints.demo_seed import seed

    seed(container, alarms=True)
    raised = {device(container, guid).guid: a for guid in (FRIDGE, COLD_ROOM_A, "RCW360A0000002")
              for a in alarms(container, guid)}
    assert {guid: (a.kind, a.level, a.state, a.ended_at is None) for guid, a in raised.items()} == {
        FRIDGE: (1, 3, 0, True), COLD_ROOM_A: (2, 2, 1, False), "RCW360A0000002": (1, 1, 0, False)}
    assert raised[COLD_ROOM_A].result and raised[COLD_ROOM_A].handled_by is not None
    assert ("phone", "13800000005") in sent(container)  # level 2 reached the duty manager
    seed(container, alarms=True)
    assert len(alarms(container)) == 3
