from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from core.devices.expiry import ExpiringDevice, ExpiryWindow
from core.devices.model import Device, DeviceFilter, DeviceType, HomeCounts, NewDevice
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction
from core.telemetry.downsample import BucketPlan, Point


class DeviceExpiryRepository(Protocol):
    """Devices visible to an account (its own and its organizations') by service expiry."""

    def count_expiring(self, account_id: int, window: ExpiryWindow) -> int: ...

    def expiring_page(self, account_id: int, window: ExpiryWindow, request: PageRequest) -> Page[ExpiringDevice]:
        """Sorted by device type name, then expiry, then id, so rows group by type."""
        ...


class DeviceRepository(Protocol):
    """The device registry. Every read takes the caller's account, sees only the devices visible
    to it (its own and its organizations') and gives each with the caller's Access to it."""

    def page(self, account_id: int, where: DeviceFilter, request: PageRequest) -> Page[Device]:
        """Sorted by request.sort_field (one of model.SORT_FIELDS; newest first by default),
        then id."""
        ...

    def visible(self, account_id: int, device_id: int) -> Device | None:
        """The device with its probes' limits and the account's access to it, or None when it
        does not exist or is not visible to the account."""
        ...

    def visible_many(self, account_id: int, device_ids: Sequence[int]) -> list[Device]:
        """Those of the devices visible to the account, with their probes' limits, in no set
        order (a batch order's devices in two queries, not two per device)."""
        ...

    def counts(self, account_id: int, now: datetime, scene: int | None = None) -> HomeCounts: ...

    def guid_taken(self, guid: str) -> bool:
        """Whether a device has this GUID, whatever its case."""
        ...

    def device_type(self, type_id: int) -> DeviceType | None: ...

    def published_types(self, scene: int | None = None) -> list[DeviceType]: ...

    def free_level(self, type_id: int) -> int | None:
        """The lowest level costing nothing in an enabled package of the type, if any."""
        ...

    def add(self, device: NewDevice) -> int: ...

    def update(self, device_id: int, changes: dict[str, object]) -> None:
        """Set the given fields: name, remark, display_precision, temperature_unit, country_code."""
        ...

    def delete(self, device_id: int) -> None:
        """The device and what hangs on it by foreign key; not its readings (see
        ReadingHistoryRepository.delete_batch)."""
        ...

    def retention_candidates(self, expired_before: datetime) -> list[tuple[int, datetime]]:
        """(id, service expiry) of every device whose service expired before the instant."""
        ...


@dataclass(frozen=True)
class BrokerAccount:
    """One login of the MQTT broker, with Mosquitto's password hash."""

    username: str
    password_hash: str


@dataclass(frozen=True)
class BrokerCredential:
    device_id: int
    username: str
    issued_at: datetime


class BrokerCredentialRepository(Protocol):
    def save(self, device_id: int, username: str, password_hash: str, issued_at: datetime) -> None:
        """Insert, or replace the device's credential."""
        ...

    def of_device(self, device_id: int) -> BrokerCredential | None: ...

    def accounts(self) -> list[BrokerAccount]:
        """Every device's login, by user name."""
        ...


class BrokerPasswordHasher(Protocol):
    def hash(self, password: str) -> str: ...


class ReadingHistoryRepository(Protocol):
    """A device's stored readings over [since, until], both ends included."""

    def count(self, device_id: int, since: datetime, until: datetime) -> int: ...

    def points(self, device_id: int, since: datetime, until: datetime) -> list[Point]:
        """Every reading, in time order."""
        ...

    def extremes(self, device_id: int, plan: BucketPlan) -> tuple[list[Point], int]:
        """The readings holding each probe's min and max in each bucket of the plan (what
        core.telemetry.downsample.downsample returns), in time order, and how many readings
        the plan's range holds (counted by the same pass)."""
        ...

    def delete_batch(self, device_id: int, before: datetime | None, limit: int) -> int:
        """Delete up to `limit` of the device's oldest readings (all of them, or those before
        `before`); returns how many went."""
        ...

    def orphan_device_ids(self, limit: int) -> Sequence[int]:
        """Device ids that have readings but no device any more (deleted while an ingest
        worker still knew its GUID)."""
        ...


class DevicesUnitOfWork(Transaction, Protocol):
    @property
    def devices(self) -> DeviceExpiryRepository: ...
    @property
    def device_registry(self) -> DeviceRepository: ...
    @property
    def broker_credentials(self) -> BrokerCredentialRepository: ...
    @property
    def history(self) -> ReadingHistoryRepository: ...
