"""The alarm rule applied to readings, without a database: delays, graded levels, limits."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from core.alarms.evaluation import evaluate_probe
from core.alarms.model import AlarmKind, AlarmMessage, AlarmRule, AlarmState, Excursion, Recipient
from core.alarms.validation import GRADED_TIMES_WRONG, rule_problems
from core.shared.edition import Edition
from core.telemetry.model import Reading

T0 = datetime(2026, 3, 1, 8, 0, tzinfo=UTC)
DEVICE = 7


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def fridge(**changes) -> AlarmRule:
    """2-8 °C, 5-minute delay, levels at 0, 15 and 30 minutes."""
    values = dict(device_id=DEVICE, probe="t", name="Vaccine fridge", upper_limit=8.0, lower_limit=2.0,
                  delay_seconds=300, level1_minutes=0, level2_minutes=15, level3_minutes=30, id=1)
    values.update(changes)
    return AlarmRule(**values)


def temps(*pairs: tuple[float, float | None], device: int = DEVICE) -> list[Reading]:
    """(minute, temperature) pairs."""
    return [Reading(device, at(minute), value, 50.0) for minute, value in pairs]


def run(rule: AlarmRule, readings: list[Reading], excursion: Excursion | None = None):
    return evaluate_probe(rule, excursion, readings)


# --- delay boundaries ----------------------------------------------------------------------------

@pytest.mark.parametrize("readings,raised_at", [
    pytest.param([(0, 9.0), (4, 9.5)], None, id="shorter than the delay: pending"),
    pytest.param([(0, 9.0), (4.99, 9.5)], None, id="one second short"),
    pytest.param([(0, 9.0), (5, 9.5)], 5, id="exactly the delay: raised"),
    pytest.param([(0, 9.0), (2, 9.1), (7, 9.5)], 7, id="first reading past the delay raises"),
    pytest.param([(0, 9.0), (3, 7.0), (6, 9.0)], None, id="back inside restarts the delay"),
    pytest.param([(0, 9.0), (3, 7.0), (6, 9.0), (11, 9.2)], 11, id="the new excursion lasts the delay"),
    pytest.param([(0, 8.0), (6, 8.0)], None, id="a value on the limit is inside"),
])
def test_an_excursion_becomes_an_alarm_once_it_has_lasted_the_delay(readings, raised_at):
    outcome = run(fridge(), temps(*readings))
    if raised_at is None:
        assert outcome.new_alarms == []
        assert outcome.excursion is None or outcome.excursion.alarm is None
    else:
        [alarm] = outcome.new_alarms
        assert alarm.raised_at == at(raised_at) and alarm.level == 1 and alarm.ended_at is None


def test_a_zero_delay_raises_on_the_first_reading_outside():
    [alarm] = run(fridge(delay_seconds=0), temps((0, 8.1))).new_alarms
    assert (alarm.started_at, alarm.raised_at, alarm.value) == (at(0), at(0), 8.1)


def test_delay_is_measured_on_reading_timestamps_whatever_order_they_come_in():
    readings = temps((6, 9.4), (0, 9.0), (3, 9.8))
    [alarm] = run(fridge(), readings).new_alarms
    assert alarm.started_at == at(0) and alarm.raised_at == at(6) and alarm.value == 9.4
    assert alarm.extreme_value == 9.8


# --- limits --------------------------------------------------------------------------------------

@pytest.mark.parametrize("upper,lower,value,kind,limit", [
    (8.0, 2.0, 8.5, AlarmKind.ABOVE, 8.0),
    (8.0, 2.0, 1.5, AlarmKind.BELOW, 2.0),
    (8.0, None, -30.0, None, None),
    (None, 2.0, 40.0, None, None),
    (None, -18.0, -15.0, None, None),
    (None, -18.0, -19.0, AlarmKind.BELOW, -18.0),
    (8.0, 2.0, 2.0, None, None),
])
def test_upper_and_lower_limits(upper, lower, value, kind, limit):
    outcome = run(fridge(upper_limit=upper, lower_limit=lower, delay_seconds=0), temps((0, value)))
    if kind is None:
        assert outcome.excursion is None and outcome.new_alarms == []
    else:
        [alarm] = outcome.new_alarms
        assert (alarm.kind, alarm.limit_value) == (kind, limit)


def test_the_extreme_value_is_the_highest_above_and_the_lowest_below():
    above = run(fridge(delay_seconds=0), temps((0, 9.0), (1, 12.5), (2, 10.0)))
    assert above.excursion.extreme_value == 12.5 and above.excursion.alarm.extreme_value == 12.5
    below = run(fridge(delay_seconds=0), temps((0, 1.0), (1, -3.0), (2, 0.5)))
    assert below.excursion.extreme_value == -3.0


def test_jumping_from_below_to_above_ends_one_excursion_and_starts_another():
    outcome = run(fridge(delay_seconds=0), temps((0, 1.0), (1, 9.0)))
    first, second = outcome.new_alarms
    assert (first.kind, first.ended_at) == (AlarmKind.BELOW, at(1))
    assert (second.kind, second.ended_at) == (AlarmKind.ABOVE, None)
    assert outcome.excursion.alarm is second


# --- end of an excursion -------------------------------------------------------------------------

def test_back_inside_before_the_delay_drops_the_excursion_without_an_alarm():
    pending = Excursion(DEVICE, "t", AlarmKind.ABOVE, 8.0, at(0), 9.0)
    outcome = run(fridge(), temps((3, 7.5)), pending)
    assert outcome.excursion is None and outcome.excursion_changed
    assert outcome.new_alarms == [] and outcome.changed_alarms == [] and not outcome.touched_alarm_state


def test_back_inside_after_the_delay_ends_the_alarm_at_that_reading():
    alarm = AlarmMessage(DEVICE, 1, "t", AlarmKind.ABOVE, 8.0, 9.0, 9.0, at(0), at(5), level=1, id=40)
    raised = Excursion(DEVICE, "t", AlarmKind.ABOVE, 8.0, at(0), 9.0, alarm)
    outcome = run(fridge(), temps((6, 9.6), (8, 7.9)), raised)
    assert outcome.excursion is None and outcome.changed_alarms == [alarm]
    assert alarm.ended_at == at(8) and alarm.extreme_value == 9.6 and outcome.touched_alarm_state


def test_a_reading_inside_the_limits_never_creates_anything():
    outcome = run(fridge(), temps(*[(m, 5.0) for m in range(60)]))
    assert outcome.excursion is None and not outcome.excursion_changed
    assert outcome.new_alarms == outcome.changed_alarms == outcome.reached == []


def test_readings_older_than_the_open_excursion_are_history_and_change_nothing():
    pending = Excursion(DEVICE, "t", AlarmKind.ABOVE, 8.0, at(10), 9.0)
    outcome = run(fridge(), temps((2, 5.0), (4, 5.0)), pending)
    assert outcome.excursion is pending and not outcome.excursion_changed


# --- missing values ------------------------------------------------------------------------------

def test_readings_without_the_probe_s_value_are_ignored():
    readings = temps((0, 9.0), (3, None), (6, None))
    outcome = run(fridge(), readings)
    assert outcome.excursion.started_at == at(0) and outcome.new_alarms == []
    humidity = run(fridge(probe="h", upper_limit=70.0, lower_limit=None, delay_seconds=0),
                   [Reading(DEVICE, at(0), 9.0, None)])
    assert humidity.excursion is None


# --- graded levels -------------------------------------------------------------------------------

@pytest.mark.parametrize("level_minutes,readings_until,levels", [
    pytest.param((0, 15, 30), 5, [1], id="level 1 at once"),
    pytest.param((0, 15, 30), 19.9, [1], id="level 2 not yet"),
    pytest.param((0, 15, 30), 20, [1, 2], id="level 2 fifteen minutes after the alarm"),
    pytest.param((0, 15, 30), 35, [1, 2, 3], id="level 3 thirty minutes after"),
    pytest.param((10, 20, None), 14, [], id="level 1 after ten minutes: not yet"),
    pytest.param((10, 20, None), 15, [1], id="level 1 after ten minutes"),
    pytest.param((0, None, None), 120, [1], id="a single level"),
    pytest.param((0, 15, None), 120, [1, 2], id="two levels"),
])
def test_graded_levels_follow_the_minutes_after_the_alarm(level_minutes, readings_until, levels):
    l1, l2, l3 = level_minutes
    rule = fridge(level1_minutes=l1, level2_minutes=l2, level3_minutes=l3)
    minutes = [0, 5] + [m for m in range(6, 200) if m < readings_until] + [readings_until]
    outcome = run(rule, temps(*[(m, 9.0) for m in minutes]))
    [alarm] = outcome.new_alarms
    assert alarm.raised_at == at(5)
    assert [level for _, level in outcome.reached] == levels and alarm.level == (levels[-1] if levels else 0)


def test_levels_are_not_repeated_and_resume_from_the_stored_one():
    alarm = AlarmMessage(DEVICE, 1, "t", AlarmKind.ABOVE, 8.0, 9.0, 9.0, at(0), at(5), level=2, id=40)
    raised = Excursion(DEVICE, "t", AlarmKind.ABOVE, 8.0, at(0), 9.0, alarm)
    outcome = run(fridge(), temps((25, 9.0), (36, 9.0)), raised)
    assert outcome.reached == [(alarm, 3)]


def test_a_handled_alarm_no_longer_escalates():
    alarm = AlarmMessage(DEVICE, 1, "t", AlarmKind.ABOVE, 8.0, 9.0, 9.0, at(0), at(5), level=1,
                         state=AlarmState.TREATED, id=40)
    raised = Excursion(DEVICE, "t", AlarmKind.ABOVE, 8.0, at(0), 9.0, alarm)
    assert run(fridge(), temps((60, 9.0)), raised).reached == []


def test_levels_reached_before_the_excursion_ended_are_kept():
    outcome = run(fridge(), temps((0, 9.0), (5, 9.0), (21, 9.0), (22, 5.0), (60, 5.0)))
    [alarm] = outcome.new_alarms
    assert [level for _, level in outcome.reached] == [1, 2] and alarm.ended_at == at(22)


# --- several probes and devices in one batch --------------------------------------------------

def test_each_probe_of_each_device_is_evaluated_on_its_own_readings_in_a_shuffled_batch():
    rules = [fridge(device_id=1), fridge(device_id=2),
             fridge(device_id=1, probe="h", upper_limit=70.0, lower_limit=None, delay_seconds=120)]
    batch = [Reading(1, at(m), 9.0 if m < 10 else 5.0, 75.0) for m in range(0, 12)]
    batch += [Reading(2, at(m), 5.0, 90.0) for m in range(0, 12)]
    random.Random(4).shuffle(batch)
    by_device: dict[int, list[Reading]] = {}
    for r in batch:
        by_device.setdefault(r.device_id, []).append(r)
    outcomes = {(r.device_id, r.probe): run(r, by_device[r.device_id]) for r in rules}
    [t1] = outcomes[(1, "t")].new_alarms
    assert (t1.raised_at, t1.ended_at) == (at(5), at(10))
    [h1] = outcomes[(1, "h")].new_alarms
    assert (h1.probe, h1.raised_at, h1.ended_at) == ("h", at(2), None)
    assert outcomes[(2, "t")].new_alarms == [] and outcomes[(2, "t")].excursion is None


# --- the rule's own validation -----------------------------------------------------------------

@pytest.mark.parametrize("levels,field", [
    ((0, 15, 30), None), ((0, None, None), None), ((5, 10, None), None),
    ((15, 15, 30), "level2Minutes"), ((15, 10, None), "level2Minutes"), ((0, 30, 30), "level3Minutes"),
    ((0, 30, 20), "level3Minutes"), ((0, None, 30), "level3Minutes"),
])
def test_graded_alarm_times_must_rise_level_by_level(levels, field):
    l1, l2, l3 = levels
    problems = rule_problems(fridge(level1_minutes=l1, level2_minutes=l2, level3_minutes=l3), Edition.DOMESTIC)
    assert problems == ({field: GRADED_TIMES_WRONG} if field else {})


@pytest.mark.parametrize("recipients,edition,field", [
    ([Recipient(1, "Alice", phone="13800000001")], Edition.DOMESTIC, None),
    ([Recipient(1, "Alice", email="a@example.com", voice=False)], Edition.DOMESTIC, None),
    ([Recipient(1, "", phone="13800000001")], Edition.DOMESTIC, "recipients.0.name"),
    ([Recipient(1, "x" * 51, phone="13800000001")], Edition.DOMESTIC, "recipients.0.name"),
    ([Recipient(1, "Alice")], Edition.DOMESTIC, "recipients.0.phone"),
    ([Recipient(1, "Alice", phone="12345")], Edition.DOMESTIC, "recipients.0.phone"),
    ([Recipient(1, "Alice", phone="12345")], Edition.INTERNATIONAL, None),
    ([Recipient(1, "Alice", email="not-an-address")], Edition.DOMESTIC, "recipients.0.email"),
    ([Recipient(1, "Alice", phone="13800000001"), Recipient(2, "Bob", phone="13800000001")], Edition.DOMESTIC,
     "recipients.1.phone"),
    ([Recipient(1, "Alice", email="A@x.com"), Recipient(1, "Bob", email="a@X.com")], Edition.DOMESTIC,
     "recipients.1.email"),
    ([Recipient(4, "Alice", phone="13800000001")], Edition.DOMESTIC, "recipients.0.level"),
    ([Recipient(1, "Alice", email="a@x.com", voice=True)], Edition.DOMESTIC, "recipients.0.voice"),
])
def test_each_recipient_needs_a_name_and_a_well_formed_unique_phone_or_e_mail(recipients, edition, field):
    problems = rule_problems(fridge(recipients=recipients), edition)
    assert set(problems) == ({field} if field else set())


def test_a_rule_needs_a_limit_and_an_upper_limit_above_the_lower_one():
    assert set(rule_problems(fridge(upper_limit=None, lower_limit=None), Edition.DOMESTIC)) == {"upperLimit"}
    assert set(rule_problems(fridge(upper_limit=2.0, lower_limit=8.0), Edition.DOMESTIC)) == {"upperLimit"}
    assert set(rule_problems(fridge(probe="h", upper_limit=120.0, lower_limit=None), Edition.DOMESTIC)) == {
        "upperLimit"}
    assert set(rule_problems(fridge(name=" " * 3), Edition.DOMESTIC)) == {"name"}
    assert set(rule_problems(fridge(name="n" * 101), Edition.DOMESTIC)) == {"name"}
