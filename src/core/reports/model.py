"""A schedule, the period it covers when it is due, and the record of each run."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

from core.exports.model import ExportFormat
from core.shared.messages import N_

NAME_MAX = 20
MAX_DEVICES = 50
MAX_RECIPIENTS = 10
EMAIL_MAX = 100
ATTACH_LIMIT = 5 * 1024 * 1024  # bytes of files a mail carries; above, it links to the download centre
MAX_ATTEMPTS = 6  # a run whose mail still fails after this many tries is given up as failed
# Periods missed while the job did not run (a worker down over a period boundary) are sent late,
# but only the latest few: after a long outage a month of daily mails at once helps nobody.
MAX_CATCH_UP = 3

DEVICE_GONE = N_("The device is no longer visible to this account")


class Frequency(StrEnum):
    DAILY = "daily"
    WEEKLY = "weekly"
    MONTHLY = "monthly"


class Outcome(StrEnum):
    RUNNING = "running"  # files being written or mail being sent: a later attempt resumes it
    OK = "ok"
    PARTIAL = "partial"  # some device's file could not be written (or the device is gone)
    FAILED = "failed"

    @property
    def final(self) -> bool:
        return self is not Outcome.RUNNING


@dataclass
class Schedule:
    id: int | None
    account_id: int
    name: str
    frequency: Frequency
    device_ids: list[int]
    format: ExportFormat
    recipients: list[str]
    enabled: bool
    created_at: datetime
    weekday: int | None = None  # weekly: the day it is sent, 0 Monday ... 6 Sunday
    month_day: int | None = None  # monthly: the day of the month it is sent, 1-28
    # The names of its devices that its owner still sees, by id: filled when schedules are listed,
    # for the form that edits one (not stored).
    device_names: dict[int, str] = field(default_factory=dict)


@dataclass
class RunFile:
    """One device's part of a run: its file in the download centre, or why there is none."""

    device_id: int
    device_name: str = ""
    export_id: str | None = None
    file_name: str | None = None
    size: int | None = None
    error: str | None = None  # a msgid, translated when shown


@dataclass
class Run:
    id: int | None
    schedule_id: int
    period_start: datetime
    period_end: datetime
    started_at: datetime
    outcome: Outcome = Outcome.RUNNING
    files: list[RunFile] = field(default_factory=list)
    sent_to: list[str] = field(default_factory=list)  # recipients that have had the mail
    attempts: int = 0
    finished_at: datetime | None = None
    error: str | None = None


@dataclass(frozen=True)
class Period:
    start: datetime  # aware, UTC: the first local midnight of the period
    end: datetime  # the local midnight after it, when it is sent


def _midnight(day: date, zone: ZoneInfo) -> datetime:
    """The day's local start, as an aware instant (a zone whose clocks jump at midnight gives the
    first instant of the day that exists)."""
    local = datetime(day.year, day.month, day.day, tzinfo=zone)
    return local.astimezone(UTC)


def _first_of_previous_month(day: date) -> date:
    return (day.replace(day=1) - timedelta(days=1)).replace(day=1)


def latest_period(schedule: Schedule, now: datetime, zone: ZoneInfo) -> Period:
    """The most recent whole period whose sending day has begun by `now`, in the owner's zone:
    daily the day before today; weekly the seven days before the latest `weekday`; monthly the
    calendar month before the latest `month_day`. Local midnights make a period 23 or 25 hours
    long across a change of the clocks, as the owner's calendar has it."""
    today = now.astimezone(zone).date()
    if schedule.frequency is Frequency.DAILY:
        return Period(_midnight(today - timedelta(days=1), zone), _midnight(today, zone))
    if schedule.frequency is Frequency.WEEKLY:
        weekday = schedule.weekday or 0
        send_day = today - timedelta(days=(today.weekday() - weekday) % 7)
        return Period(_midnight(send_day - timedelta(days=7), zone), _midnight(send_day, zone))
    month_day = schedule.month_day or 1
    this_month = today.replace(day=month_day)
    send_day = this_month if today >= this_month else _first_of_previous_month(today).replace(day=month_day)
    start = _first_of_previous_month(send_day)
    return Period(_midnight(start, zone), _midnight(send_day.replace(day=1), zone))


def due_period(schedule: Schedule, now: datetime, zone: ZoneInfo) -> Period | None:
    """The period to send now, or None: a disabled schedule sends nothing, nor one whose latest
    sending day began before it was created (it starts with the next one)."""
    if not schedule.enabled:
        return None
    period = latest_period(schedule, now, zone)
    send_at = _send_moment(schedule, period, zone)
    return period if send_at >= schedule.created_at else None


def due_periods(schedule: Schedule, now: datetime, zone: ZoneInfo, last_sent: Period | None) -> list[Period]:
    """The periods to send now, oldest first: the due period (due_period), and before it those
    missed since the last one recorded (`last_sent`, None when none was; itself included, as its
    run may be unfinished), up to MAX_CATCH_UP in all. None from before the schedule was created,
    nor from before its last recorded period: a change of frequency or weekday does not reach back
    past what was already sent."""
    periods: list[Period] = []
    latest = due_period(schedule, now, zone)
    if latest is None:
        return periods
    period = latest
    while len(periods) < MAX_CATCH_UP:
        periods.append(period)
        send_at = _send_moment(schedule, period, zone)
        period = latest_period(schedule, send_at - timedelta(microseconds=1), zone)
        if _send_moment(schedule, period, zone) < schedule.created_at:
            break
        if last_sent is not None and period.end < last_sent.end:
            break
    return periods[::-1]


def _send_moment(schedule: Schedule, period: Period, zone: ZoneInfo) -> datetime:
    if schedule.frequency is not Frequency.MONTHLY:
        return period.end
    end_day = period.end.astimezone(zone).date()
    return _midnight(end_day.replace(day=schedule.month_day or 1), zone)
