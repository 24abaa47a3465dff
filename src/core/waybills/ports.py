from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from core.devices.model import TrackPoint
from core.devices.ports import DeviceRepository
from core.geofences.model import Fence
from core.shared.paging import Page, PageRequest
from core.shared.ports import LookupLog
from core.shared.transaction import Transaction
from core.waybills.model import Template, Waybill, WaybillState
from core.waybills.sharing import ShareLink
from core.waybills.statistics import Point


@dataclass(frozen=True)
class WaybillFilter:
    keyword: str | None = None  # part of the order number, goods name or express number (any case)
    state: WaybillState | None = None
    device_id: int | None = None


@dataclass(frozen=True)
class Trip:
    """A device's waybill in progress: what binding and starting check against."""

    device_id: int
    device_name: str
    waybill_id: int
    order_number: str | None


class WaybillRepository(Protocol):
    def add(self, waybill: Waybill) -> int: ...

    def get(self, waybill_id: int) -> Waybill | None:
        """The waybill, whoever's, with every device on it."""
        ...

    def update(self, waybill: Waybill) -> None:
        """Its particulars (not its state nor its devices)."""
        ...

    def delete(self, waybill_id: int) -> None: ...

    def page(self, account_id: int, organization_ids: Sequence[int], where: WaybillFilter,
             request: PageRequest) -> Page[Waybill]:
        """The account's own waybills, its organizations', and those with a device the account sees,
        newest first, each with its devices."""
        ...

    def sees_a_device(self, account_id: int, waybill_id: int) -> bool:
        """Whether the account sees one of the waybill's devices (a sharee of it reads the waybill)."""
        ...

    def bind(self, waybill_id: int, device_ids: Sequence[int], running: bool) -> None:
        """Put the devices on it (those on it already stay); `running` marks them on its trip."""
        ...

    def unbind(self, waybill_id: int, device_ids: Sequence[int]) -> None: ...

    def trips_of(self, device_ids: Sequence[int]) -> list[Trip]:
        """The waybills in progress the devices are on (locked for the transaction where the database
        can, so two starts cannot both pass the check)."""
        ...

    def change_state(self, waybill_id: int, from_state: WaybillState, to_state: WaybillState,
                     at: datetime) -> bool:
        """Move it along TRANSITIONS, stamping the start or the finish with `at` and marking its
        devices on the trip or off it; False when it was no longer in `from_state` (another
        transaction moved it)."""
        ...

    def due(self, now: datetime) -> list[Waybill]:
        """Not started with a planned start reached, and in progress with a planned stop reached."""
        ...

    def of_device_at_fence(self, device_id: int, fence_id: int) -> list[Waybill]:
        """The device's waybills not started whose origin is the fence, and in progress whose
        destination is the fence."""
        ...

    def alarm_count(self, device_ids: Sequence[int], since: datetime, until: datetime) -> int:
        """Alarms of these devices raised in [since, until]."""
        ...

    def by_number(self, order_number: str, limit: int) -> list[Waybill]:
        """The newest started waybills whose order number is exactly this, whoever's (one query
        when there is none: a number not started costs what a made-up one does)."""
        ...

    def latest_of_guid(self, guid: str) -> Waybill | None:
        """The waybill a device is on now, or it was on last (started ones only)."""
        ...


@dataclass(frozen=True)
class FenceOwner:
    """Whose a geofence is: a waybill starts and finishes only by fences of its own owner."""

    owner_account_id: int
    organization_id: int | None  # None: its owner account's own


class WaybillFences(Protocol):
    """The geofences (another context's) a waybill's devices are watched against."""

    def owners(self, fence_ids: Sequence[int]) -> dict[int, FenceOwner]:
        """Whose each fence is; a fence that does not exist is left out."""
        ...

    def owned(self, fence_ids: Sequence[int], owner_account_id: int, organization_id: int | None) -> list[Fence]:
        """Those of the fences of the owner's kind: the organization's when it is given, else the
        account's own in no organization (what a trip report draws)."""
        ...

    def watch(self, fence_ids: Sequence[int], device_ids: Sequence[int]) -> None:
        """Watch the devices against the fences; a device watched already keeps where it is known to be."""
        ...


class Rejudge(Protocol):
    """Judges the devices' readings again from an instant already past at which a trip's limits
    began or stopped applying (the alarms do: core.alarms.use_cases.RejudgeReadings)."""

    def __call__(self, device_ids: Sequence[int], since: datetime) -> object: ...


class TripReadings(Protocol):
    def points(self, device_ids: Sequence[int], since: datetime, until: datetime) -> dict[int, list[Point]]:
        """Each device's temperature readings with their instants in [since, until], in time order."""
        ...

    def span(self, device_ids: Sequence[int], since: datetime, until: datetime) -> tuple[datetime | None,
                                                                                         datetime | None]:
        """The first and last instants of those readings; (None, None) when there is none."""
        ...

    def routes(self, device_ids: Sequence[int], since: datetime, until: datetime,
               max_points: int) -> dict[int, list[TrackPoint]]:
        """Each device's readings that carry a position in [since, until], in time order: every one
        when they fit in `max_points`, else evenly spaced ones and the last (as a device's track is
        thinned). A device without any is left out."""
        ...


class ShareLinkRepository(Protocol):
    def add(self, link: ShareLink) -> int: ...

    def of_waybill(self, waybill_id: int) -> list[ShareLink]:
        """Its links, newest first, each with who opened it and when."""
        ...

    def get(self, link_id: int) -> ShareLink | None: ...

    def by_digest(self, digest: str) -> ShareLink | None: ...

    def revoke(self, link_id: int, at: datetime) -> None: ...

    def record_open(self, link_id: int, at: datetime, address: str | None) -> None: ...


class TemplateRepository(Protocol):
    def add(self, template: Template) -> int: ...

    def get(self, template_id: int) -> Template | None: ...

    def update(self, template: Template) -> None: ...

    def delete(self, template_id: int) -> None: ...

    def name_taken(self, account_id: int, name: str, except_id: int | None = None) -> bool: ...

    def page(self, account_id: int, request: PageRequest) -> Page[Template]: ...


class WaybillsUnitOfWork(Transaction, Protocol):
    @property
    def waybills(self) -> WaybillRepository: ...
    @property
    def trip_readings(self) -> TripReadings: ...
    @property
    def waybill_links(self) -> ShareLinkRepository: ...
    @property
    def waybill_lookups(self) -> LookupLog: ...
    @property
    def waybill_templates(self) -> TemplateRepository: ...
    @property
    def waybill_fences(self) -> WaybillFences: ...
    @property
    def device_registry(self) -> DeviceRepository: ...


__all__ = ["FenceOwner", "LookupLog", "Rejudge", "ShareLinkRepository", "TemplateRepository", "Trip", "TripReadings",
           "WaybillFences", "WaybillFilter", "WaybillRepository", "WaybillsUnitOfWork"]
