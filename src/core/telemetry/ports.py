from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from core.telemetry.model import Reading

if TYPE_CHECKING:
    from core.shared.unit_of_work import UnitOfWork


class ReadingRepository(Protocol):
    def add_new(self, readings: Sequence[Reading]) -> list[Reading]:
        """Store the readings not stored yet (one per device and ts) and return those."""
        ...

    def update_live_state(self, latest: Sequence[Reading], seen_at: datetime) -> None:
        """Each device's last reading (kept only when newer than the stored one), online, seen."""
        ...

    def set_online(self, states: dict[int, bool], seen_at: datetime) -> None: ...

    def device_ids(self, guids: Iterable[str] | None = None) -> dict[str, int]:
        """GUID -> device id, of the given GUIDs or of every device."""
        ...


class AlarmEvaluation(Protocol):
    """Alarm rules applied to new readings, inside the caller's unit of work."""

    def __call__(self, uow: UnitOfWork, readings: Sequence[Reading]) -> None: ...
