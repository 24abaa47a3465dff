from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from core.devices.ports import DeviceRepository
from core.geofences.model import Crossing, DwellState, EventQuery, Fence, FenceEvent, WatchedFence
from core.inbox.ports import Inbox
from core.notifications.ports import OutboxRepository
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction


class FenceRepository(Protocol):
    def add(self, fence: Fence) -> int: ...

    def get(self, account_id: int, fence_id: int) -> Fence | None:
        """The fence, whoever's, with its organization's name, its device count and the ids of its
        devices the account sees; None when there is none (core.shared.ownership.may_read decides
        who sees it)."""
        ...

    def update(self, fence: Fence) -> None:
        """Its name and areas; its devices keep their dwell state (the next reading judges it
        against the new areas)."""
        ...

    def delete(self, fence_id: int) -> None:
        """The fence, its links and their states, and its events."""
        ...

    def page(self, account_id: int, organization_ids: Sequence[int], keyword: str | None,
             request: PageRequest) -> Page[Fence]:
        """The account's own fences and those of the organizations, whose name holds `keyword`
        (any case), by name."""
        ...

    def count_owned(self, account_id: int, organization_id: int | None) -> int:
        """The organization's fences, or (None) the account's own."""
        ...

    def linked(self, fence_id: int) -> list[int]:
        """The ids of all the devices it watches, whoever sees them."""
        ...

    def fence_counts(self, device_ids: Sequence[int]) -> dict[int, int]:
        """How many fences watch each of these devices (a device none watches is left out)."""
        ...

    def link(self, fence_id: int, device_ids: Sequence[int]) -> None:
        """Watch the devices against the fence, each from an unknown state."""
        ...

    def unlink(self, fence_id: int, device_ids: Sequence[int]) -> None: ...

    def events(self, account_id: int, query: EventQuery, request: PageRequest) -> Page[FenceEvent]:
        """The fence's crossings of devices the account sees, newest first."""
        ...


class FenceWatchRepository(Protocol):
    """The ingest's side: the fences watching devices, their dwell states and the crossings."""

    def watching(self, device_ids: Sequence[int]) -> list[WatchedFence]:
        """The fences watching these devices (one indexed lookup), each with its link's state,
        locked for the transaction in (device, fence) order. A link whose fence is no longer of
        the device's owner's kind (the device was transferred or moved out of the organization)
        is left out: nobody is told where another's device goes."""
        ...

    def save_states(self, states: dict[tuple[int, int], DwellState]) -> None:
        """The new states by (device id, fence id)."""
        ...

    def add_events(self, crossings: Sequence[Crossing], received_at: datetime) -> None: ...


class FenceCrossingListener(Protocol):
    """Told of each crossing once the ingest batch that found it is committed (the waybills
    implement it: a waybill starts when its device leaves its origin fence and finishes when it
    enters its destination). It runs outside that transaction, in its own; what it raises is
    logged and never stops the ingest. A crash between the commit and the call loses the call:
    the crossing itself stays in the fence's events."""

    def crossed(self, device_id: int, fence_id: int, entered: bool, at: datetime) -> None: ...


class GeofencesUnitOfWork(Transaction, Protocol):
    @property
    def fences(self) -> FenceRepository: ...
    @property
    def device_registry(self) -> DeviceRepository: ...


class FenceWatchUnitOfWork(Protocol):
    """What the crossing detection needs of the ingest batch's open transaction."""

    @property
    def fence_watch(self) -> FenceWatchRepository: ...
    @property
    def inbox(self) -> Inbox: ...
    @property
    def outbox(self) -> OutboxRepository: ...


__all__ = ["FenceCrossingListener", "FenceRepository", "FenceWatchRepository", "FenceWatchUnitOfWork",
           "GeofencesUnitOfWork"]
