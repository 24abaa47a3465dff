"""When a device is next due for calibration, and when its owner is reminded of it (issue 21:
30 and 7 days before the due date and on it, through the job engine).

A reminder is one (device, due date, stage): the job records it in the same transaction as it
posts it, by a write that is refused when it exists (ports.CalibrationReminders.record), so a
run retried or run twice sends nothing twice; a new certificate gives a new due date, whose
reminders start over."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from enum import IntEnum

from core.devices.model import add_months
from core.inbox.model import MessageKind, SystemMessage

DEFAULT_INTERVAL_MONTHS = 12
INTERVAL_MONTHS_RANGE = (1, 120)
# The notice on the due day still goes out a few days late (a job down over a weekend), not later:
# the owners of devices that lapsed long ago are not written to when reminders are switched on.
DUE_NOTICE_WITHIN = timedelta(days=3)
# The owner's messages (due_message): params device, guid, date, days, certificate.
CALIBRATION_DUE_SOON = "calibration_due_soon"
CALIBRATION_DUE = "calibration_due"


class ReminderStage(IntEnum):
    """Days before the due date at which a reminder goes out."""

    DAYS_30 = 30
    DAYS_7 = 7
    DUE = 0


def interval_months(device_months: int | None, type_months: int | None) -> int:
    """The device's own interval, else its type's, else the default."""
    for months in (device_months, type_months):
        if months is not None:
            return months
    return DEFAULT_INTERVAL_MONTHS


def due_date(calibrated_on: date, months: int) -> date:
    """The calibration date `months` calendar months later, on the month's last day when that
    month is shorter (31 January + 1 month is 28 or 29 February), as devices count service months."""
    return add_months(datetime.combine(calibrated_on, time()), months).date()


@dataclass(frozen=True)
class Reminder:
    stage: ReminderStage
    on: date


def reminder_schedule(due_on: date) -> tuple[Reminder, ...]:
    """The days each reminder of a due date goes out, earliest first."""
    return tuple(Reminder(stage, due_on - timedelta(days=stage)) for stage in ReminderStage)


def reminder_due(due_on: date, today: date, sent: frozenset[int]) -> ReminderStage | None:
    """The reminder to send today, if any: the latest stage whose day has come, unless it was sent.
    A stage skipped (the job did not run, or a device calibrated 10 days before it was due) is not
    sent late beside a later one; nothing is sent once the due day is DUE_NOTICE_WITHIN behind."""
    if today - due_on >= DUE_NOTICE_WITHIN:
        return None
    reached = [r.stage for r in reminder_schedule(due_on) if r.on <= today]
    if not reached:
        return None
    latest = reached[-1]
    return None if latest in sent else latest


@dataclass(frozen=True)
class DueCandidate:
    """A console device whose calibration falls due around now, with its owner and the stages
    already sent for this due date."""

    device_id: int
    device_name: str
    guid: str
    due_on: date
    owner_account_id: int
    certificate_number: str | None = None
    sent: frozenset[int] = frozenset()


def due_message(candidate: DueCandidate, stage: ReminderStage, at: datetime) -> SystemMessage:
    """The owner's reminder, an expiry notice (a calibration lapses as a service does): it goes by
    the channels the owner keeps on for those."""
    template = CALIBRATION_DUE if stage is ReminderStage.DUE else CALIBRATION_DUE_SOON
    params = {"device": candidate.device_name, "guid": candidate.guid, "date": candidate.due_on.isoformat(),
              "days": int(stage), "certificate": candidate.certificate_number or "-", "deviceId": candidate.device_id}
    return SystemMessage(candidate.owner_account_id, MessageKind.EXPIRY, template, params, at)
