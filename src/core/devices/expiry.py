"""When a device's cloud service counts as expired or expiring: the expired-service dialog lists
devices by one of four filters, and the reminder after login warns about the first two."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import IntEnum

from core.devices.access import Access
from core.shared.messages import N_

# An expiry in 2099 or later is the "lifelong" service (api-contract section 5): it never
# expires, so it is never reported as expired or expiring.
LIFELONG_FROM = datetime(2099, 1, 1, tzinfo=UTC)
# What lifelong service is stored as. Its date is nominal: shown as 2099-12-31 in every zone.
LIFELONG_EXPIRY = datetime(2099, 12, 31, 23, 59, 59, tzinfo=UTC)


class ExpiredFlag(IntEnum):
    """The filter of the expired-service dialog (the contract's expiredFlag)."""

    EXPIRED = 1
    WITHIN_30_DAYS = 2
    WITHIN_90_DAYS = 3
    ANY_EXPIRY = 4


DEFAULT_FLAG = ExpiredFlag.WITHIN_30_DAYS
_AHEAD = {ExpiredFlag.WITHIN_30_DAYS: timedelta(days=30), ExpiredFlag.WITHIN_90_DAYS: timedelta(days=90)}


def is_lifelong(expires_at: datetime) -> bool:
    return expires_at >= LIFELONG_FROM


@dataclass(frozen=True)
class ExpiryWindow:
    """Expiry instants in [since, until); an open side is None. Devices without an expiry date
    are in no window."""

    since: datetime | None = None
    until: datetime | None = None

    def contains(self, expires_at: datetime | None) -> bool:
        if expires_at is None:
            return False
        return (self.since is None or self.since <= expires_at) and (self.until is None or expires_at < self.until)

    @classmethod
    def of(cls, flag: ExpiredFlag, now: datetime) -> ExpiryWindow:
        if flag is ExpiredFlag.ANY_EXPIRY:
            return cls()
        if flag is ExpiredFlag.EXPIRED:
            return cls(until=min(now, LIFELONG_FROM))
        return cls(since=now, until=min(now + _AHEAD[flag], LIFELONG_FROM))


@dataclass(frozen=True)
class ExpiringDevice:
    """One row of the expired-service dialog."""

    id: int
    type_id: int
    type_name: str
    device_name: str
    guid: str
    service_expires_at: datetime
    access: Access  # the caller's: a read-only member cannot recharge it


class ReminderFlag(IntEnum):
    """The reminder's expiredFlag: the most urgent thing to say, or nothing."""

    NONE = 0
    EXPIRED = 1
    EXPIRING = 2


EXPIRED_AND_EXPIRING = N_("Devices with expired service: {expired}; expiring within 30 days: {expiring}")
EXPIRED_ONLY = N_("Devices with expired service: {expired}")
EXPIRING_ONLY = N_("Devices whose service expires within 30 days: {expiring}")


@dataclass(frozen=True)
class ExpiryReminder:
    """What the console warns an account about after login. The counts are shown as
    "label: number" so that no language needs plural forms."""

    account_id: int
    expired: int
    expiring: int  # within 30 days, not yet expired

    @property
    def flag(self) -> ReminderFlag:
        if self.expired:
            return ReminderFlag.EXPIRED
        return ReminderFlag.EXPIRING if self.expiring else ReminderFlag.NONE

    @property
    def message(self) -> str | None:
        """A message id to format with `params`, or None when there is nothing to say."""
        if self.expired and self.expiring:
            return EXPIRED_AND_EXPIRING
        if self.expired:
            return EXPIRED_ONLY
        return EXPIRING_ONLY if self.expiring else None

    @property
    def params(self) -> dict[str, int]:
        return {"expired": self.expired, "expiring": self.expiring}
