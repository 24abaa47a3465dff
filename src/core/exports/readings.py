"""A device's readings of a period as exports and FDA's periodic reports read them: a module of its
own, so the FDA ports can name it while the exports' ports name FDA's (no import cycle)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from core.telemetry.downsample import Point


@dataclass(frozen=True)
class Excursion:
    """An alarm of the device in the period: a probe outside its limits from `started_at`."""

    probe: str
    kind: int  # 1 above the upper limit, 2 below the lower
    limit_value: float
    extreme_value: float
    started_at: datetime
    ended_at: datetime | None


class ExportReadingSource(Protocol):
    def chunk(self, device_id: int, since: datetime, until: datetime, after: datetime | None,
              limit: int) -> list[Point]:
        """Up to `limit` readings of [since, until] later than `after` (None: from `since`), in
        time order: a long period is read a chunk at a time."""
        ...

    def excursions(self, device_id: int, since: datetime, until: datetime) -> list[Excursion]:
        """The device's alarms that overlap the period, earliest first."""
        ...
