"""Downsampling a device's history for charts, keeping its peaks.

The range is split into equal buckets; each bucket keeps the readings that hold the minimum and
the maximum of each probe (the earliest one on a tie), in time order and without duplicates. An
excursion that lasted one reading still shows on a 30-day chart, which averaging or taking every
n-th reading would hide. At most 2 x probes readings come out of a bucket, so the number of
buckets is what makes the answer fit in `max_points`.

The database may compute the same buckets itself (adapters/persistence/reading_history.py does on
PostgreSQL, so only the chosen rows leave the server); `downsample` is the reference and the
portable path.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise
from typing import NamedTuple

from core.telemetry.model import HUMIDITY, PROBES, TEMPERATURE

_ONE_US = timedelta(microseconds=1)


class Point(NamedTuple):
    """One stored reading as a chart shows it (values in Celsius and percent). A named tuple: a
    chart makes thousands, and a tuple is made in a third of a frozen dataclass's time."""

    ts: datetime
    temperature: float | None
    humidity: float | None

    def value(self, probe: str) -> float | None:
        if probe == TEMPERATURE:
            return self.temperature
        if probe == HUMIDITY:
            return self.humidity
        return None


@dataclass(frozen=True)
class BucketPlan:
    """Buckets of equal `width` from `start`; both ends of the range are included, so the last
    bucket holds `end` itself."""

    start: datetime
    end: datetime
    width: timedelta
    count: int
    probes: tuple[str, ...]

    @property
    def width_us(self) -> int:
        return self.width // _ONE_US

    def index(self, ts: datetime) -> int:
        return (ts - self.start) // self.width


def plan_buckets(start: datetime, end: datetime, max_points: int, probes: Sequence[str] = PROBES) -> BucketPlan:
    if max_points < 1:
        raise ValueError("max_points must be at least 1")
    if end < start:
        raise ValueError("the range ends before it starts")
    probes = tuple(p for p in PROBES if p in probes) or (TEMPERATURE,)
    count = max(1, max_points // (2 * len(probes)))
    span_us = (end - start) // _ONE_US + 1
    count = min(count, span_us)
    width_us = -(-span_us // count)  # ceiling: the last bucket ends at or after `end`
    return BucketPlan(start, end, timedelta(microseconds=width_us), count, probes)


class _Peaks:
    """The readings holding each probe's minimum and maximum, fed in time order: the earliest one
    on a tie."""

    def __init__(self, probes: tuple[str, ...]) -> None:
        self._probes = probes
        self._lowest: dict[str, tuple[float, Point]] = {}  # probe -> (its value, the reading)
        self._highest: dict[str, tuple[float, Point]] = {}

    def add(self, point: Point) -> None:
        for probe in self._probes:
            value = point.value(probe)
            if value is None:
                continue
            if probe not in self._lowest or value < self._lowest[probe][0]:
                self._lowest[probe] = value, point
            if probe not in self._highest or value > self._highest[probe][0]:
                self._highest[probe] = value, point

    def chosen(self) -> list[Point]:
        chosen: list[Point] = []
        for probe in self._probes:  # priority order, used by `fit` when even one bucket is too much
            for extreme in (self._highest.get(probe), self._lowest.get(probe)):
                if extreme is not None and extreme[1] not in chosen:
                    chosen.append(extreme[1])
        return chosen


def _extremes(points: Iterable[Point], probes: tuple[str, ...]) -> list[Point]:
    peaks = _Peaks(probes)
    for point in sorted(points, key=lambda p: p.ts):
        peaks.add(point)
    return peaks.chosen()


class BucketExtremes:
    """`downsample` fed one reading at a time, in time order: each bucket keeps only the readings
    holding its extremes so far, so a year of readings is sampled without being held."""

    def __init__(self, plan: BucketPlan) -> None:
        self._plan = plan
        self._buckets: dict[int, _Peaks] = {}

    def add(self, point: Point) -> None:
        plan = self._plan
        if plan.start <= point.ts <= plan.end:
            index = plan.index(point.ts)
            peaks = self._buckets.get(index)
            if peaks is None:
                peaks = self._buckets[index] = _Peaks(plan.probes)
            peaks.add(point)

    def chosen(self) -> list[Point]:
        chosen = [p for peaks in self._buckets.values() for p in peaks.chosen()]
        return fit(chosen, self._plan, len(chosen))


def downsample(points: Iterable[Point], plan: BucketPlan) -> list[Point]:
    """The min and max readings of each probe in each bucket of `plan`, in time order. Points
    outside the plan's range are ignored."""
    extremes = BucketExtremes(plan)
    for point in sorted(points, key=lambda p: p.ts):
        extremes.add(point)
    return extremes.chosen()


class StreamedSample:
    """What a chart of [start, end] shows (a history's `extremes`, then `fit`), fed the range's
    readings in time order: every reading while they fit in `max_points`, else those holding each
    bucket's extremes. Holds at most `max_points` readings and a bucket's extremes."""

    def __init__(self, start: datetime, end: datetime, max_points: int, probes: Sequence[str]) -> None:
        self._plan = plan_buckets(start, end, max_points, probes)
        self._max = max_points
        self._all: list[Point] | None = []
        self._extremes = BucketExtremes(self._plan)

    def add(self, point: Point) -> None:
        self._extremes.add(point)
        if self._all is not None:
            self._all.append(point)
            if len(self._all) > self._max:
                self._all = None

    def result(self) -> tuple[list[Point], bool]:
        """The sample, and whether it left readings out."""
        if self._all is not None:
            return self._all, False
        return fit(self._extremes.chosen(), self._plan, self._max), True


def fit(points: Sequence[Point], plan: BucketPlan, max_points: int) -> list[Point]:
    """The chosen points in time order, without duplicates, and never more than `max_points`.

    Only a plan of a single bucket can hold more (max_points below 2 x probes): then the
    temperature's maximum goes first, then its minimum, then humidity's."""
    if all(earlier.ts < later.ts for earlier, later in pairwise(points)):
        unique = list(points)  # as the database answers them: no instant to hash, nothing to sort
    else:
        unique = sorted({p.ts: p for p in points}.values(), key=lambda p: p.ts)
    if len(unique) <= max_points:
        return unique
    return sorted(_extremes(unique, plan.probes)[:max_points], key=lambda p: p.ts)
