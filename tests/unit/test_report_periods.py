"""Which period a schedule sends, and from when: local midnights in the owner's zone, across a
change of the clocks and the ends of months; a schedule starts with its first sending day after
it was created, and a disabled one sends nothing."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from core.exports.model import ExportFormat
from core.reports.model import MAX_CATCH_UP, Frequency, Period, Schedule, due_period, due_periods, latest_period

BERLIN = ZoneInfo("Europe/Berlin")
SHANGHAI = ZoneInfo("Asia/Shanghai")
LONG_AGO = datetime(2020, 1, 1, tzinfo=UTC)


def schedule(frequency: Frequency, *, weekday: int | None = None, month_day: int | None = None,
             created_at: datetime = LONG_AGO, enabled: bool = True) -> Schedule:
    return Schedule(1, 7, "daily", frequency, [1], ExportFormat.CSV, ["a@example.com"], enabled, created_at,
                    weekday=weekday, month_day=month_day)


def local(zone: ZoneInfo, *args: int) -> datetime:
    return datetime(*args, tzinfo=zone).astimezone(UTC)  # type: ignore[misc]


def test_daily_is_yesterday_from_local_midnight_to_midnight():
    now = local(SHANGHAI, 2026, 3, 10, 0, 5)  # 16:05 UTC on the 9th: already the 10th in Shanghai
    period = latest_period(schedule(Frequency.DAILY), now, SHANGHAI)
    assert (period.start, period.end) == (local(SHANGHAI, 2026, 3, 9), local(SHANGHAI, 2026, 3, 10))
    just_before = local(SHANGHAI, 2026, 3, 9, 23, 59)
    assert latest_period(schedule(Frequency.DAILY), just_before, SHANGHAI).end == local(SHANGHAI, 2026, 3, 9)


@pytest.mark.parametrize("day, hours", [((2026, 3, 29), 23), ((2026, 10, 25), 25), ((2026, 6, 1), 24)])
def test_a_day_across_a_change_of_the_clocks_is_the_local_day(day, hours):
    after = date(*day) + timedelta(days=1)
    now = local(BERLIN, after.year, after.month, after.day, 0, 1)
    period = latest_period(schedule(Frequency.DAILY), now, BERLIN)
    assert period.start.astimezone(BERLIN).timetuple()[:5] == (*day, 0, 0)
    assert period.end - period.start == timedelta(hours=hours)


def test_weekly_is_the_seven_local_days_before_the_latest_sending_day():
    # Monday 2026-03-30, after Berlin's clocks went forward on Sunday the 29th.
    sched = schedule(Frequency.WEEKLY, weekday=0)
    for now in (local(BERLIN, 2026, 3, 30, 0, 0), local(BERLIN, 2026, 4, 2, 12, 0), local(BERLIN, 2026, 4, 5, 23, 59)):
        period = latest_period(sched, now, BERLIN)
        assert (period.start, period.end) == (local(BERLIN, 2026, 3, 23), local(BERLIN, 2026, 3, 30))
        assert period.end - period.start == timedelta(days=7, hours=-1)
    assert latest_period(sched, local(BERLIN, 2026, 4, 6), BERLIN).start == local(BERLIN, 2026, 3, 30)


@pytest.mark.parametrize("now, start, end", [
    ((2026, 3, 1, 0, 0), (2026, 2, 1), (2026, 3, 1)),  # February, 28 days
    ((2028, 3, 1, 0, 0), (2028, 2, 1), (2028, 3, 1)),  # a leap February
    ((2026, 2, 28, 23, 59), (2026, 1, 1), (2026, 2, 1)),
    ((2026, 1, 1, 0, 0), (2025, 12, 1), (2026, 1, 1)),  # across the year
])
def test_monthly_on_the_first_is_the_previous_calendar_month(now, start, end):
    period = latest_period(schedule(Frequency.MONTHLY, month_day=1), local(BERLIN, *now), BERLIN)
    assert (period.start, period.end) == (local(BERLIN, *start), local(BERLIN, *end))


def test_monthly_on_the_28th_waits_for_the_28th_and_still_covers_the_previous_month():
    sched = schedule(Frequency.MONTHLY, month_day=28)
    before = latest_period(sched, local(BERLIN, 2026, 3, 27, 23, 59), BERLIN)
    assert (before.start, before.end) == (local(BERLIN, 2026, 1, 1), local(BERLIN, 2026, 2, 1))
    on = latest_period(sched, local(BERLIN, 2026, 3, 28), BERLIN)
    assert (on.start, on.end) == (local(BERLIN, 2026, 2, 1), local(BERLIN, 2026, 3, 1))


def test_a_new_schedule_starts_with_its_next_sending_day_and_a_disabled_one_never_sends():
    created = local(BERLIN, 2026, 3, 10, 9, 0)
    sched = schedule(Frequency.DAILY, created_at=created)
    assert due_period(sched, local(BERLIN, 2026, 3, 10, 18, 0), BERLIN) is None  # yesterday began before it
    assert due_period(sched, local(BERLIN, 2026, 3, 11, 0, 10), BERLIN) is not None
    monthly = schedule(Frequency.MONTHLY, month_day=15, created_at=created)
    assert due_period(monthly, local(BERLIN, 2026, 3, 14), BERLIN) is None
    assert due_period(monthly, local(BERLIN, 2026, 3, 15), BERLIN).start == local(BERLIN, 2026, 2, 1)
    off = schedule(Frequency.DAILY, enabled=False)
    assert due_period(off, local(BERLIN, 2026, 3, 11), BERLIN) is None


def test_missed_periods_are_caught_up_oldest_first_the_latest_three_at_most():
    now = local(BERLIN, 2026, 3, 10, 9)
    daily = schedule(Frequency.DAILY)
    starts = [p.start for p in due_periods(daily, now, BERLIN, last_sent=None)]
    assert len(starts) == MAX_CATCH_UP == 3
    assert starts == [local(BERLIN, 2026, 3, day) for day in (7, 8, 9)]
    last = Period(local(BERLIN, 2026, 3, 8), local(BERLIN, 2026, 3, 9))
    # The last recorded period itself comes again (its run may be unfinished: claimed, it is resumed or skipped).
    assert [p.start for p in due_periods(daily, now, BERLIN, last)] == [local(BERLIN, 2026, 3, d) for d in (8, 9)]


def test_catching_up_reaches_back_neither_past_creation_nor_past_the_last_recorded_period():
    now = local(BERLIN, 2026, 3, 10, 9)
    created = local(BERLIN, 2026, 3, 8, 12)
    assert [p.start for p in due_periods(schedule(Frequency.DAILY, created_at=created), now, BERLIN, None)] == [
        local(BERLIN, 2026, 3, 8), local(BERLIN, 2026, 3, 9)]
    monthly = schedule(Frequency.MONTHLY, month_day=5)
    months = due_periods(monthly, now, BERLIN, None)
    assert [p.start for p in months] == [local(BERLIN, 2025, 12, 1), local(BERLIN, 2026, 1, 1),
                                         local(BERLIN, 2026, 2, 1)]
    last = Period(local(BERLIN, 2026, 1, 1), local(BERLIN, 2026, 2, 1))
    assert [p.start for p in due_periods(monthly, now, BERLIN, last)] == [local(BERLIN, 2026, 1, 1),
                                                                           local(BERLIN, 2026, 2, 1)]
    assert due_periods(schedule(Frequency.DAILY, enabled=False), now, BERLIN, None) == []
