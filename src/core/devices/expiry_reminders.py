"""Reminders to a device's owner that its service is about to expire: 30, 7 and 1 days before,
and once it has expired, each once per expiry date (a renewal's new date starts over)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import IntEnum

from core.devices.expiry import is_lifelong

SERVICE_EXPIRING = "service_expiring"
SERVICE_EXPIRED = "service_expired"


class ReminderStage(IntEnum):
    """Days before the expiry at which a reminder is due."""

    DAYS_30 = 30
    DAYS_7 = 7
    DAY_1 = 1
    EXPIRED = 0


AHEAD = max(ReminderStage)
# The notice of expiry goes out within a few days of it, not later: when reminders are first
# switched on, the owners of devices that expired long ago are not written to.
EXPIRED_NOTICE_WITHIN = timedelta(days=3)


def due_stage(expires_at: datetime, now: datetime) -> ReminderStage | None:
    """The most urgent stage reached, if any: a job that did not run for a while (or a device
    registered 5 days before its expiry) sends the 7-day reminder, not the 30-day one as well."""
    if is_lifelong(expires_at):
        return None
    if expires_at <= now:
        return ReminderStage.EXPIRED if now - expires_at < EXPIRED_NOTICE_WITHIN else None
    left = expires_at - now
    for stage in sorted(s for s in ReminderStage if s is not ReminderStage.EXPIRED):
        if left <= timedelta(days=stage):
            return stage
    return None


@dataclass(frozen=True)
class ReminderCandidate:
    """A device whose service expires (or expired) around now, with its owner and the stages
    already sent for this expiry."""

    device_id: int
    device_name: str
    guid: str
    expires_at: datetime
    owner_account_id: int
    country_code: str | None
    sent: frozenset[int] = frozenset()
