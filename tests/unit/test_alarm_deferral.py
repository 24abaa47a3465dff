"""The deferral rule: an alarm deferred is silent until the delay chosen has passed, then untreated
again, and its recipients are reminded; only approving or refusing treats it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.alarms.deferral import (
    DEFER_CHOICES,
    MAX_DEFER_MINUTES,
    Deferral,
    defer_minutes_problem,
    deferred_until,
    reminder_levels,
)
from core.alarms.model import AlarmKind, AlarmMessage, AlarmState

TEN = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)


def alarm(**changes) -> AlarmMessage:
    return AlarmMessage(1, 10, "t", AlarmKind.ABOVE, 8.0, 9.5, 9.5, TEN - timedelta(minutes=5), TEN, level=1,
                        id=99, **changes)


def test_deferred_for_an_hour_at_10_it_is_untreated_again_at_11():
    deferred = alarm(deferred_until=deferred_until(TEN, 60))
    assert deferred.deferred_until == TEN + timedelta(hours=1)
    assert deferred.shown_state(TEN) is AlarmState.DEFERRED
    assert deferred.shown_state(TEN + timedelta(minutes=59, seconds=59)) is AlarmState.DEFERRED
    assert deferred.shown_state(TEN + timedelta(hours=1)) is AlarmState.UNTREATED
    assert deferred.shown_state(TEN + timedelta(days=3)) is AlarmState.UNTREATED


def test_a_deferred_alarm_neither_escalates_nor_returns_before_its_end():
    deferred = alarm(deferred_until=TEN + timedelta(hours=1))
    assert not deferred.escalates
    assert not deferred.returns(TEN + timedelta(minutes=59))
    assert deferred.returns(TEN + timedelta(hours=1))
    assert alarm().escalates and not alarm().returns(TEN)


def test_a_deferral_of_an_alarm_that_ended_or_was_handled_brings_no_reminder():
    until = TEN + timedelta(hours=1)
    later = until + timedelta(minutes=1)
    assert not alarm(deferred_until=until, ended_at=TEN + timedelta(minutes=10)).returns(later)
    approved = alarm(deferred_until=until, state=AlarmState.TREATED)
    assert not approved.returns(later)
    assert approved.shown_state(TEN) is AlarmState.TREATED  # approving ends a running deferral


@pytest.mark.parametrize("level,due,reminded", [
    (1, 1, [1]),  # the level reached is reminded
    (1, 3, [1, 2, 3]),  # and the levels that came due meanwhile are alerted
    (2, 2, [2]),
    (0, 0, []),  # nobody was alerted yet, nor is due: nobody is reminded
    (0, 1, [1]),
])
def test_the_end_of_a_deferral_reminds_the_level_reached_and_alerts_those_come_due(level, due, reminded):
    assert list(reminder_levels(level, due)) == reminded


def test_the_delay_is_bounded_to_a_day_and_the_console_s_choices_are_within_it():
    assert defer_minutes_problem(1) is None and defer_minutes_problem(MAX_DEFER_MINUTES) is None
    for minutes in (0, -60, MAX_DEFER_MINUTES + 1, 10**9):
        assert defer_minutes_problem(minutes) is not None
    assert all(defer_minutes_problem(m) is None for m in DEFER_CHOICES)
    assert DEFER_CHOICES == (15, 60, 240, 1440)


def test_a_deferral_knows_its_delay():
    assert Deferral(99, 1, TEN, TEN + timedelta(hours=4)).minutes == 240
