"""Entering and leaving, without the GPS jitter: the dwell state machine of one (device, fence).

A reading on the other side of the fence than the known one starts a run; the state flips when
the run lasts `readings` consecutive readings, or (when `minutes` is set) spans that long, and a
reading back on the known side ends the run. A fix whose accuracy radius is wider than its distance
to the fence's edge could be on either side: it neither extends nor ends a run. The first side a
device is seen on (after the same dwell) is where it is, not a crossing: a truck linked while in
its depot has not entered it.

Readings are judged in timestamp order (a batch of stored history is sorted first), and a reading
no later than the last one judged is passed over: the present state already holds what it could
tell. The crossing's time is the first reading of the run that flipped the state, the moment the
device was first seen on the new side.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from core.geofences.model import DwellState


@dataclass(frozen=True)
class Dwell:
    readings: int = 3
    minutes: float | None = None

    def __post_init__(self) -> None:
        if self.readings < 1 or (self.minutes is not None and self.minutes < 0):
            raise ValueError("a dwell of at least one reading and no negative minutes")

    def lasted(self, count: int, since: datetime, now: datetime) -> bool:
        if count >= self.readings:
            return True
        return self.minutes is not None and now - since >= timedelta(minutes=self.minutes)


@dataclass(frozen=True)
class Observation:
    ts: datetime
    margin_m: float  # > 0 inside, < 0 outside (model.margin_m)
    accuracy_m: float | None = None

    @property
    def decided(self) -> bool:
        """Whether the fix is clearly on one side: its accuracy circle does not reach the edge."""
        return self.accuracy_m is None or self.accuracy_m < abs(self.margin_m)


def judge(state: DwellState, observations: Iterable[Observation], dwell: Dwell
          ) -> tuple[DwellState, list[tuple[bool, datetime]]]:
    """The state after the observations, and the crossings they made: (entered, at), in time order."""
    crossings: list[tuple[bool, datetime]] = []
    for seen in sorted(observations, key=lambda o: o.ts):
        if state.judged_at is not None and seen.ts <= state.judged_at:
            continue
        state = replace(state, judged_at=seen.ts)
        if not seen.decided:
            continue
        inside = seen.margin_m > 0
        if inside == state.inside:
            state = replace(state, pending_inside=None, pending_since=None, pending_count=0)
            continue
        if state.pending_inside is inside and state.pending_since is not None:
            state = replace(state, pending_count=state.pending_count + 1)
        else:
            state = replace(state, pending_inside=inside, pending_since=seen.ts, pending_count=1)
        since = state.pending_since
        assert since is not None
        if dwell.lasted(state.pending_count, since, seen.ts):
            if state.inside is not None:
                crossings.append((inside, since))
            state = DwellState(inside=inside, judged_at=seen.ts)
    return state, crossings
