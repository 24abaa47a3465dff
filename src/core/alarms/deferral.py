"""Deferring an alarm (spec seed 001 section 4: "handling outcomes are approve, refuse or defer").

A deferral does not end an alarm. For the delay the user chose it leaves the untreated count and
its recipients are not alerted; then it is untreated again, and the periodic escalation reminds
its recipients once. Only approving or refusing treats it. Whether an alarm is deferred is read
from the end of its deferral against the clock, so the message centre is right even when no
periodic job runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from core.shared.messages import N_

DEFER_CHOICES = (15, 60, 240, 1440)  # the delays the console offers, in minutes
DEFAULT_DEFER_MINUTES = 60  # for a client that sends no delay (there was none before deferrals came back)
MIN_DEFER_MINUTES = 1
MAX_DEFER_MINUTES = 24 * 60  # a cold chain cannot leave an alarm silent for longer than a day

DEFER_RANGE = N_("Defer the alarm by 1 minute to 1 day (1440 minutes)")
DELAY_WITHOUT_DEFER = N_("A delay goes only with deferring the alarm")


@dataclass(frozen=True)
class Deferral:
    """One deferral of an alarm: who, when, until when and why."""

    alarm_id: int
    account_id: int | None  # None once that account is gone
    deferred_at: datetime
    deferred_until: datetime
    result: str | None = None
    by_name: str | None = None  # the account's user name, as listed
    id: int | None = None

    @property
    def minutes(self) -> int:
        return round((self.deferred_until - self.deferred_at).total_seconds() / 60)


def defer_minutes_problem(minutes: int) -> str | None:
    if not MIN_DEFER_MINUTES <= minutes <= MAX_DEFER_MINUTES:
        return DEFER_RANGE
    return None


def deferred_until(now: datetime, minutes: int) -> datetime:
    return now + timedelta(minutes=minutes)


def reminder_levels(level: int, due: int) -> range:
    """The graded levels alerted when a deferral ends: the level the alarm had reached is reminded,
    and the levels whose minutes passed during the deferral are alerted for the first time. An
    alarm that had alerted nobody yet, and still should not, reminds nobody."""
    return range(max(level, 1), max(level, due) + 1)
