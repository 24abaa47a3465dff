"""What was done to a device and by whom, kept after the device itself is gone: clearing its data
or deleting it destroys records an auditor may ask about, so the act itself is recorded; and the
changes to how it measures and alarms (parameters, limits, maintenance, its broker login), which
the device's operation log shows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class DeviceEventKind(StrEnum):
    DATA_CLEARED = "data_cleared"
    DELETED = "deleted"
    PARAMS_CHANGED = "params_changed"
    LIMITS_CHANGED = "limits_changed"
    MAINTENANCE_ADDED = "maintenance_added"
    MAINTENANCE_CHANGED = "maintenance_changed"
    MAINTENANCE_DELETED = "maintenance_deleted"
    CREDENTIALS_ROTATED = "credentials_rotated"
    SCRAPPED = "scrapped"  # detail: the owner's reason, if given
    RESTORED = "restored"


@dataclass(frozen=True)
class DeviceEvent:
    device_id: int
    device_guid: str
    account_id: int
    kind: DeviceEventKind
    at: datetime
    detail: str | None = None  # what went, e.g. "alarms=3"


@dataclass(frozen=True)
class DeviceEventEntry:
    """A line of the operation log: the event and who did it (None: an account since deleted)."""

    id: int
    kind: str
    at: datetime
    detail: str | None
    actor_name: str | None
