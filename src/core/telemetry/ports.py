from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Protocol

from core.alarms.ports import AlarmRepository
from core.devices.ports import DeviceEventRepository
from core.geofences.ports import FenceWatchRepository
from core.inbox.ports import Inbox
from core.notifications.ports import OutboxRepository
from core.shared.transaction import Transaction
from core.telemetry.model import Reading


class ReadingRepository(Protocol):
    def add_new(self, readings: Sequence[Reading]) -> list[Reading]:
        """Store the readings not stored yet (one per device and ts) and return those."""
        ...

    def update_live_state(self, latest: Sequence[Reading], seen_at: datetime) -> None:
        """Each device's last reading (kept only when newer than the stored one), online, seen."""
        ...

    def update_positions(self, latest: Sequence[Reading]) -> None:
        """Each device's last position, from the newest of these readings that carries one (kept
        only when newer than the stored one)."""
        ...

    def set_online(self, states: dict[int, bool], seen_at: datetime) -> None: ...

    def device_ids(self, guids: Iterable[str] | None = None) -> dict[str, int]:
        """GUID -> device id, of the given GUIDs or of every device; a scrapped device has none."""
        ...


class TelemetryUnitOfWork(Transaction, Protocol):
    """The ingest batch's transaction: the readings, and what the alarm evaluation of the same
    batch writes in it (AlarmEvaluation), so a batch and its alarms are committed together."""

    @property
    def readings(self) -> ReadingRepository: ...
    @property
    def alarms(self) -> AlarmRepository: ...
    @property
    def outbox(self) -> OutboxRepository: ...
    @property
    def device_events(self) -> DeviceEventRepository: ...  # the alarms' unit of work has it (their log of limits)
    @property
    def fence_watch(self) -> FenceWatchRepository: ...  # the crossing detection's (PositionWatch)
    @property
    def inbox(self) -> Inbox: ...  # where a crossing tells the fence's owner


class AlarmEvaluation(Protocol):
    """Alarm rules applied to new readings, inside the caller's unit of work."""

    def __call__(self, uow: TelemetryUnitOfWork, readings: Sequence[Reading]) -> None: ...


class PositionWatch(Protocol):
    """What new positions set off inside the caller's unit of work (the geofences' crossing
    detection); what it returns is called once the caller has committed (None: nothing to do)."""

    def __call__(self, uow: TelemetryUnitOfWork, readings: Sequence[Reading]) -> Callable[[], None] | None: ...
