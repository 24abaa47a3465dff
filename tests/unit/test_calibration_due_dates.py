"""Due dates: intervals per type and per device, calendar months safe at a month's end; the
reminder schedule (30 and 7 days before, and on the day) and the job that sends each once."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from core.calibration.due_dates import (
    DEFAULT_INTERVAL_MONTHS,
    DueCandidate,
    Reminder,
    ReminderStage,
    due_date,
    interval_months,
    reminder_due,
    reminder_schedule,
)
from core.calibration.model import Caller
from core.calibration.use_cases import ReadDeviceCalibration, SendDueReminders, SetCalibrationInterval
from core.shared.edition import Edition
from core.shared.errors import InvalidInput, NotAuthenticated, NotFound
from tests.support.clock import MutableClock
from tests.unit.calibration_fakes import ALICE, ALICE_DEVICE, BOB, BOB_DEVICE, FakeReminders, FakeUnitOfWork

D30, D7, DUE = ReminderStage.DAYS_30, ReminderStage.DAYS_7, ReminderStage.DUE


@pytest.mark.parametrize("calibrated, months, due", [
    (date(2026, 1, 31), 1, date(2026, 2, 28)),
    (date(2028, 1, 31), 1, date(2028, 2, 29)),  # a leap year
    (date(2024, 2, 29), 12, date(2025, 2, 28)),
    (date(2026, 3, 31), 6, date(2026, 9, 30)),
    (date(2026, 8, 31), 6, date(2027, 2, 28)),
    (date(2026, 3, 4), 12, date(2027, 3, 4)),
    (date(2026, 12, 15), 1, date(2027, 1, 15)),
    (date(2026, 5, 31), 120, date(2036, 5, 31)),
])
def test_the_due_date_is_calendar_months_later_on_the_month_s_last_day_when_shorter(calibrated, months, due):
    assert due_date(calibrated, months) == due


def test_a_device_s_own_interval_comes_before_its_type_s_and_the_default_is_12_months():
    assert interval_months(None, None) == DEFAULT_INTERVAL_MONTHS == 12
    assert interval_months(None, 24) == 24 and interval_months(6, 24) == 6


def test_the_schedule_is_30_and_7_days_before_and_on_the_due_date():
    assert reminder_schedule(date(2026, 6, 30)) == (
        Reminder(D30, date(2026, 5, 31)), Reminder(D7, date(2026, 6, 23)), Reminder(DUE, date(2026, 6, 30)))


@pytest.mark.parametrize("today, sent, expected", [
    (date(2026, 5, 30), frozenset(), None),  # too early
    (date(2026, 5, 31), frozenset(), D30),
    (date(2026, 6, 10), frozenset({30}), None),  # sent already
    (date(2026, 6, 23), frozenset({30}), D7),
    (date(2026, 6, 25), frozenset(), D7),  # the job was down: the 30-day one is not sent late
    (date(2026, 6, 30), frozenset({30, 7}), DUE),
    (date(2026, 7, 2), frozenset({30, 7}), DUE),  # a day or two late still
    (date(2026, 7, 3), frozenset(), None),  # long lapsed: not written to
    (date(2026, 6, 30), frozenset({0}), None),
])
def test_the_reminder_due_is_the_latest_stage_reached_and_not_sent(today, sent, expected):
    assert reminder_due(date(2026, 6, 30), today, sent) is expected


def _at(day: date) -> datetime:
    return datetime.combine(day, datetime.min.time(), UTC) + timedelta(hours=1)  # 09:00 in Shanghai


def test_the_job_sends_each_reminder_once_however_often_it_runs_and_a_new_due_date_starts_over():
    uow = FakeUnitOfWork()
    due_on = date(2026, 6, 30)
    uow.calibration_reminders = FakeReminders([DueCandidate(ALICE_DEVICE.id, "Cold room 1", ALICE_DEVICE.guid,
                                                            due_on, ALICE)])
    clock = MutableClock(_at(date(2026, 5, 1)))
    job = SendDueReminders(uow, clock, Edition.DOMESTIC)
    day, sent_on = date(2026, 5, 1), []
    while day <= date(2026, 7, 10):
        for _ in range(2):  # run twice a day (a retry): nothing is sent twice
            sent_on += [(day, r.stage) for r in job()]
        day += timedelta(days=1)
        clock.advance(days=1)
    assert sent_on == [(date(2026, 5, 31), D30), (date(2026, 6, 23), D7), (date(2026, 6, 30), DUE)]
    assert uow.calibration_notices.posted == [(ALICE_DEVICE.id, 30), (ALICE_DEVICE.id, 7), (ALICE_DEVICE.id, 0)]
    # calibrated again: a new due date, its own reminders
    uow.calibration_reminders.due = [DueCandidate(ALICE_DEVICE.id, "Cold room 1", ALICE_DEVICE.guid,
                                                  date(2027, 6, 30), ALICE)]
    clock.advance(days=(date(2027, 5, 31) - day).days + 1)
    assert [r.stage for r in job()] == [D30]


def test_a_device_s_owner_sets_its_interval_and_its_due_date_follows():
    uow = FakeUnitOfWork()
    devices = uow.calibrated_devices
    devices.record(ALICE_DEVICE.id, date(2026, 1, 31), date(2027, 1, 31), "ECL-2026-000001")
    set_interval = SetCalibrationInterval(uow)
    assert set_interval(Caller(ALICE), ALICE_DEVICE.id, 1).calibration.due_on == date(2026, 2, 28)
    assert devices.calibration(ALICE_DEVICE.id).device_months == 1
    assert set_interval(Caller(ALICE), ALICE_DEVICE.id, None).calibration.due_on == date(2027, 1, 31)  # its type's
    with pytest.raises(NotFound):
        set_interval(Caller(ALICE), BOB_DEVICE.id, 6)
    for months in (0, 121):
        with pytest.raises(InvalidInput):
            set_interval(Caller(ALICE), ALICE_DEVICE.id, months)
    with pytest.raises(NotAuthenticated):
        set_interval(Caller(), ALICE_DEVICE.id, 6)
    never = SetCalibrationInterval(uow)(Caller(2), BOB_DEVICE.id, 6)
    assert never.calibration.due_on is None  # never calibrated: nothing falls due


def test_a_device_s_calibration_is_read_by_who_sees_it_and_only_its_changers_may_change_the_interval():
    uow = FakeUnitOfWork()
    devices = uow.calibrated_devices
    devices.record(ALICE_DEVICE.id, date(2026, 1, 31), date(2027, 1, 31), "ECL-2026-000001")
    devices.sharees[ALICE_DEVICE.id] = (BOB,)
    read = ReadDeviceCalibration(uow)
    mine = read(Caller(ALICE), ALICE_DEVICE.id)
    assert (mine.calibration.due_on, mine.calibration.certificate) == (date(2027, 1, 31), "ECL-2026-000001")
    assert mine.interval_months == 12 and mine.changeable  # its type's
    shared = read(Caller(BOB), ALICE_DEVICE.id)
    assert shared.calibration == mine.calibration and not shared.changeable
    SetCalibrationInterval(uow)(Caller(ALICE), ALICE_DEVICE.id, 6)
    assert read(Caller(ALICE), ALICE_DEVICE.id).interval_months == 6
    for stranger, device in ((3, ALICE_DEVICE.id), (ALICE, 999)):
        with pytest.raises(NotFound):
            read(Caller(stranger), device)
    with pytest.raises(NotAuthenticated):
        read(Caller(), ALICE_DEVICE.id)
