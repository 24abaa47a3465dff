"""Where a device has been, and the energy it used: the detail's map and energy tabs.

Energy comes from the meter's running total (telemetry's "kwh"): what a bucket used is the sum of
the rises between consecutive totals that end in it, the first measured from the last total
before the range. A total lower than the one before is a meter that was reset or replaced: it
counts from zero. A lost reading then loses nothing, only moves its use to the next bucket.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from core.devices.commands import QueryEnergy, QueryTrack
from core.devices.grants import Element, permitted
from core.devices.model import MeterReading, TrackPoint
from core.devices.ports import DevicesUnitOfWork
from core.devices.rules import (
    ENERGY_MAX_SPAN,
    ENERGY_SPAN_PROBLEM,
    HISTORY_MAX_POINTS,
    HISTORY_MAX_SPAN,
    RANGE_ORDER_PROBLEM,
    RANGE_SPAN_PROBLEM,
)
from core.shared.errors import DeviceMeasuresNoEnergy, InvalidInput


@dataclass(frozen=True)
class Track:
    points: list[TrackPoint]
    downsampled: bool
    total: int


@dataclass(frozen=True)
class EnergyBucket:
    start: datetime
    kwh: float


@dataclass(frozen=True)
class Energy:
    buckets: list[EnergyBucket]
    total_kwh: float


def _check_range(since: datetime, until: datetime, longest: timedelta, problem: str) -> None:
    if until <= since:
        raise InvalidInput("endTime", RANGE_ORDER_PROBLEM)
    if until - since > longest:
        raise InvalidInput("endTime", problem)


class GetDeviceTrack:
    def __init__(self, uow: DevicesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, query: QueryTrack) -> Track:
        _check_range(query.since, query.until, HISTORY_MAX_SPAN, RANGE_SPAN_PROBLEM)
        max_points = min(max(2, query.max_points), HISTORY_MAX_POINTS)
        with self._uow as uow:
            device = permitted(uow.device_registry.visible(query.account_id, query.device_id), Element.MAP)
            points, total = uow.history.track(device.id, query.since, query.until, max_points)
        return Track(points, total > len(points), total)


def bucket_starts(since: datetime, until: datetime, interval: str, zone: ZoneInfo) -> list[datetime]:
    """The starts of the hours or days (in `zone`, so a day is the caller's day) that overlap
    [since, until], the first one truncated to its hour or midnight."""
    local = since.astimezone(zone)
    start = local.replace(minute=0, second=0, microsecond=0)
    if interval == "day":
        start = start.replace(hour=0)
    starts = []
    while start <= until:
        starts.append(start)
        if interval == "day":  # the next local midnight, whatever a DST change did to the day's length
            start = (start + timedelta(days=1)).replace(hour=0)  # wall-clock arithmetic in the zone
        else:  # an hour of real time: in UTC, so a DST change neither repeats nor skips one
            start = (start.astimezone(ZoneInfo("UTC")) + timedelta(hours=1)).astimezone(zone)
    return starts


def energy_used(before: float | None, totals: Sequence[MeterReading], starts: Sequence[datetime]) -> list[float]:
    """kWh used in each bucket beginning at `starts` (in time order)."""
    used = [0.0] * len(starts)
    previous, index = before, 0
    for ts, total in totals:
        while index + 1 < len(starts) and ts >= starts[index + 1]:
            index += 1
        if previous is not None:
            used[index] += total - previous if total >= previous else total
        previous = total
    return [round(kwh, 3) for kwh in used]


class GetDeviceEnergy:
    def __init__(self, uow: DevicesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, query: QueryEnergy) -> Energy:
        _check_range(query.since, query.until, ENERGY_MAX_SPAN, ENERGY_SPAN_PROBLEM)
        with self._uow as uow:
            device = permitted(uow.device_registry.visible(query.account_id, query.device_id), Element.ENERGY)
            if not device.energy:
                raise DeviceMeasuresNoEnergy()
            before, totals = uow.history.meter(device.id, query.since, query.until)
        starts = bucket_starts(query.since, query.until, query.interval, ZoneInfo(query.zone))
        used = energy_used(before, totals, starts)
        return Energy([EnergyBucket(start, kwh) for start, kwh in zip(starts, used, strict=True)],
                      round(sum(used), 3))
