"""What was done to a device and by whom, kept after the device itself is gone: clearing its data
or deleting it destroys records an auditor may ask about, so the act itself is recorded."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class DeviceEventKind(StrEnum):
    DATA_CLEARED = "data_cleared"
    DELETED = "deleted"


@dataclass(frozen=True)
class DeviceEvent:
    device_id: int
    device_guid: str
    account_id: int
    kind: DeviceEventKind
    at: datetime
    detail: str | None = None  # what went, e.g. "alarms=3"
