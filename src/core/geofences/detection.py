"""Crossings found in the ingest: runs inside the batch's transaction (telemetry's StoreReadings),
so a batch, the dwell states it moved and the crossings it found are committed together, and a
batch delivered twice (its readings no longer new) finds nothing the second time.

Cost: nothing at all for a batch without a position; one indexed lookup (the links of the
batch's positioned devices) otherwise, and writes only for devices some fence watches.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from core.geofences.dwell import Dwell, Observation, judge
from core.geofences.model import FENCE_ENTERED, FENCE_LEFT, Crossing, DwellState, WatchedFence, margin_m
from core.geofences.ports import FenceCrossingListener, FenceWatchUnitOfWork
from core.inbox.model import MessageKind, SystemMessage
from core.inbox.posting import post
from core.shared.clock import Clock
from core.shared.edition import Edition
from core.telemetry.model import Reading

log = logging.getLogger(__name__)


class IgnoreCrossings:
    """The listener when nothing listens (until the waybills do)."""

    def crossed(self, device_id: int, fence_id: int, entered: bool, at: datetime) -> None:
        return None


def _observations(readings: Sequence[Reading], watched: WatchedFence) -> list[Observation]:
    return [Observation(r.ts, margin_m(watched.areas, r.position.lat, r.position.lon), r.position.accuracy_m)
            for r in readings if r.position is not None]


class DetectCrossings:
    def __init__(self, clock: Clock, edition: Edition, listener: FenceCrossingListener,
                 dwell: Dwell | None = None) -> None:
        self._clock, self._listener, self._dwell = clock, listener, dwell or Dwell()
        self._language = edition.profile.default_language
        self._zone = ZoneInfo(edition.profile.default_time_zone)

    def __call__(self, uow: FenceWatchUnitOfWork, readings: Sequence[Reading]) -> Callable[[], None] | None:
        """Judges the new readings' positions; what it returns tells the listener of the crossings
        once the caller has committed (None: there were none)."""
        by_device: dict[int, list[Reading]] = defaultdict(list)
        for reading in readings:
            if reading.position is not None:
                by_device[reading.device_id].append(reading)
        if not by_device:
            return None
        watched = uow.fence_watch.watching(sorted(by_device))
        if not watched:
            return None
        states: dict[tuple[int, int], DwellState] = {}
        crossings: list[tuple[WatchedFence, Crossing]] = []
        for fence in watched:
            state, flips = judge(fence.state, _observations(by_device[fence.device_id], fence), self._dwell)
            if state != fence.state:
                states[(fence.device_id, fence.fence_id)] = state
            crossings.extend((fence, Crossing(fence.device_id, fence.fence_id, entered, at)) for entered, at in flips)
        if states:
            uow.fence_watch.save_states(states)
        if not crossings:
            return None
        now = self._clock.now()
        uow.fence_watch.add_events([c for _, c in crossings], now)
        for fence, crossing in crossings:
            self._tell_owner(uow, fence, crossing, now)
        found = [c for _, c in sorted(crossings, key=lambda fc: fc[1].at)]
        return lambda: self._tell_listener(found)

    def _tell_owner(self, uow: FenceWatchUnitOfWork, fence: WatchedFence, crossing: Crossing, now: datetime) -> None:
        local = crossing.at.astimezone(self._zone)
        offset = local.isoformat()[-6:] if local.utcoffset() else "+00:00"
        params = {"device": fence.device_name, "guid": fence.device_guid, "fence": fence.fence_name,
                  "time": f"{local:%Y-%m-%d %H:%M} (UTC{offset})", "fenceId": fence.fence_id,
                  "deviceId": fence.device_id}
        post(uow, SystemMessage(fence.owner_account_id, MessageKind.GEOFENCE,
                                FENCE_ENTERED if crossing.entered else FENCE_LEFT, params, now), self._language)

    def _tell_listener(self, crossings: Sequence[Crossing]) -> None:
        for c in crossings:
            try:
                self._listener.crossed(c.device_id, c.fence_id, c.entered, c.at)
            except Exception:  # a listener's failure is its own: the crossing is stored, the ingest goes on
                log.exception("the fence crossing listener failed on %s", c)
