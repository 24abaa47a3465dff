"""GUID -> device id for the ingest worker, kept in memory: the hot path never asks the database
about a GUID it has seen. An unknown GUID triggers a reload at most every few seconds (a device
just added), and the whole map is refreshed now and then (a device deleted)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from time import monotonic


class DeviceDirectory:
    def __init__(self, load: Callable[[Iterable[str] | None], dict[str, int]], *, miss_reload_s: float = 5.0,
                 full_reload_s: float = 60.0, now: Callable[[], float] = monotonic) -> None:
        self._load, self._now = load, now
        self._miss_reload_s, self._full_reload_s = miss_reload_s, full_reload_s
        self._ids: dict[str, int] = {}
        self._loaded_at = self._missed_at = float("-inf")
        self._lock = threading.Lock()

    def resolve(self, guids: Iterable[str]) -> dict[str, int]:
        """The ids of the GUIDs that are devices of ours; unknown ones are left out."""
        wanted = set(guids)
        with self._lock:
            now = self._now()
            if now - self._loaded_at >= self._full_reload_s:
                self._ids, self._loaded_at = self._load(None), now
            missing = wanted - self._ids.keys()
            if missing and now - self._missed_at >= self._miss_reload_s:
                self._missed_at = now
                self._ids.update(self._load(missing))
            return {guid: self._ids[guid] for guid in wanted if guid in self._ids}
