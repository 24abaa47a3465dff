from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class AddDevice:
    """A customer adds the device in hand by its GUID (printed on it) and a name."""

    account_id: int
    guid: str
    name: str
    type_id: int
    remark: str | None = None
    country_code: str | None = None  # the edition's default when absent
    display_precision: int = 1
    temperature_unit: str = "C"


@dataclass(frozen=True)
class ChangeDevice:
    """Only the fields given change."""

    account_id: int
    device_id: int
    name: str | None = None
    remark: str | None = None
    display_precision: int | None = None
    temperature_unit: str | None = None
    country_code: str | None = None


@dataclass(frozen=True)
class QueryHistory:
    account_id: int
    device_id: int
    since: datetime
    until: datetime
    max_points: int = 2000


@dataclass(frozen=True)
class QueryTrack:
    """Where the device went over the range (the readings that carried a position)."""

    account_id: int
    device_id: int
    since: datetime
    until: datetime
    max_points: int = 2000


@dataclass(frozen=True)
class QueryEnergy:
    """kWh used per hour or per day, buckets cut in `zone` (an IANA name) from `since`."""

    account_id: int
    device_id: int
    since: datetime
    until: datetime
    interval: str  # "hour" | "day"
    zone: str = "UTC"
