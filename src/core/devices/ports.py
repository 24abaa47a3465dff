from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from core.devices.device_commands import CommandAnswer, CommandKind, DeviceCommand
from core.devices.events import DeviceEvent, DeviceEventEntry
from core.devices.expiry import ExpiringDevice, ExpiryWindow
from core.devices.expiry_reminders import ReminderCandidate
from core.devices.model import (
    Device,
    DeviceFilter,
    DeviceMarkers,
    DeviceType,
    HomeCounts,
    MaintenanceRecord,
    MeterReading,
    NewDevice,
    NewDeviceGift,
    TrackPoint,
)
from core.fda.model import Subject
from core.inbox.ports import Inbox
from core.notifications.ports import OutboxRepository
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction
from core.telemetry.downsample import BucketPlan, Point


class RecordKeeping(Protocol):
    """What the devices ask of FDA mode (core.fda's switches answer it): whether a subject's, or a
    device's, records must be kept. Declared here, not imported: core.fda reads the devices."""

    def is_on(self, subject: Subject) -> bool: ...

    def is_on_for_device(self, device_id: int) -> bool: ...


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

    def markers(self, account_id: int, where: DeviceFilter, limit: int) -> DeviceMarkers:
        """The visible devices of `where` that reported a position, the first `limit` by id."""
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

    def organizations_of(self, account_id: int) -> dict[int, bool]:
        """The organizations whose devices the account's role lets it see, each with whether the
        role lets it change them (the same rule as the devices' Access)."""
        ...

    def in_asset(self, device_ids: Sequence[int]) -> list[str]:
        """The names of those of the devices that are in an asset."""
        ...

    def set_organization(self, device_ids: Sequence[int], organization_id: int | None) -> None:
        """Put the devices in the organization (None: back to their owner accounts alone); those
        whose organization changes leave their project, which was the old owner's."""
        ...

    def guid_taken(self, guid: str) -> bool:
        """Whether a device has this GUID, whatever its case."""
        ...

    def device_type(self, type_id: int) -> DeviceType | None: ...

    def published_types(self, scene: int | None = None) -> list[DeviceType]: ...

    def new_device_gift(self, type_id: int) -> NewDeviceGift:
        """What a new device of the type gets (NewDeviceGift): the gift of the type's enabled
        package, else the lowest level costing nothing in it (if any) for FREE_SERVICE_MONTHS."""
        ...

    def add(self, device: NewDevice) -> int: ...

    def update(self, device_id: int, changes: dict[str, object]) -> None:
        """Set the given fields: name, remark, display_precision, temperature_unit, country_code."""
        ...

    def delete(self, device_id: int) -> None:
        """The device and what hangs on it by foreign key; not its readings (see
        ReadingHistoryRepository.delete_batch)."""
        ...

    def set_scrapped(self, device_ids: Sequence[int], at: datetime | None) -> None:
        """Mark the devices scrapped at the instant (None: back in service)."""
        ...

    def retention_candidates(self, expired_before: datetime) -> list[tuple[int, datetime]]:
        """(id, service expiry) of every device whose service expired before the instant."""
        ...

    def clear_records(self, device_id: int) -> int:
        """Delete the device's alarm records (messages and open excursions) and forget its last
        reading and alarm state; returns how many alarm messages went. Readings go through
        ReadingHistoryRepository.delete_batch."""
        ...


class DeviceEventRepository(Protocol):
    def record(self, event: DeviceEvent) -> None: ...

    def page(self, device_id: int, guid: str, request: PageRequest) -> Page[DeviceEventEntry]:
        """The events of the device with this id and GUID, newest first (then by id)."""
        ...


class DeviceCommandRepository(Protocol):
    def add(self, command: DeviceCommand) -> None: ...

    def latest(self, device_id: int, kind: CommandKind) -> DeviceCommand | None: ...

    def latest_acknowledged(self, device_id: int, kind: CommandKind) -> DeviceCommand | None: ...

    def mark_unsent(self, command_id: str) -> None: ...

    def answer(self, answer: CommandAnswer, at: datetime) -> bool:
        """Settle the command with the answer's id if it is still pending (or went unanswered)
        and was sent to the device with the answer's GUID; False (nothing changed) otherwise."""
        ...


class CommandChannel(Protocol):
    """How the console reaches devices: devices/{guid}/commands, QoS 1."""

    def send(self, guid: str, message: str) -> bool:
        """False when the broker could not be reached or did not take the message; never raises."""
        ...


class MaintenanceRepository(Protocol):
    def page(self, device_id: int, request: PageRequest) -> Page[MaintenanceRecord]:
        """Newest maintenance date first, then newest record first."""
        ...

    def get(self, record_id: int) -> MaintenanceRecord | None: ...

    def add(self, record: MaintenanceRecord) -> int: ...

    def update(self, record: MaintenanceRecord) -> None: ...

    def delete(self, record_id: int) -> None: ...


@dataclass(frozen=True)
class SheetRow:
    """One row of an uploaded sheet of devices, as text, with its number in the sheet."""

    number: int
    guid: str
    name: str
    type_ref: str  # a type code (0x8001) or name; empty: the upload's default type


class DeviceSheets(Protocol):
    """The spreadsheet a customer fills to add many devices at once."""

    def read(self, data: bytes) -> list[SheetRow]:
        """The rows that hold anything, at most MAX_SHEET_ROWS; raises SheetRefused for a file
        that is not such a sheet, too big, or holds formulas or text no database can store."""
        ...

    def template(self, headers: Sequence[str], types: Sequence[DeviceType]) -> bytes:
        """An empty sheet with the header (GUID, name, type), and the addable types listed."""
        ...


@dataclass(frozen=True)
class BrokerAccount:
    """One login of the MQTT broker, with Mosquitto's password hash."""

    username: str
    password_hash: str
    disabled: bool = False  # its device is scrapped: the login is kept but refused


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
        """Every device's login, by user name, disabled for a scrapped device."""
        ...


class BrokerPasswordHasher(Protocol):
    def hash(self, password: str) -> str: ...


@dataclass(frozen=True)
class BrokerGrant:
    """A device's new broker login as the running broker must learn it: the password in clear
    (the broker's control interface hashes it itself) and the hash the database keeps."""

    username: str
    password: str = field(repr=False)
    password_hash: str = field(repr=False)


class BrokerAccess(Protocol):
    """The running broker's device logins, changed as soon as a device change has committed, so a
    device added or given a new password connects at once and a deleted one is cut off at once.

    Neither method raises: a broker that cannot be reached is logged, and the next start of the
    broker (written from the database) or `coldchain mqtt-sync` brings it in line."""

    def grant(self, grants: Sequence[BrokerGrant]) -> None:
        """Let each log in with its password only (an earlier password stops working, and a
        connection made with it is closed), publishing only under its own GUID."""
        ...

    def revoke(self, usernames: Sequence[str]) -> None:
        """Refuse each from now on and close its open connection."""
        ...

    def disable(self, usernames: Sequence[str]) -> None:
        """Refuse each, keeping its password, and close its open connection (a scrapped device)."""
        ...

    def enable(self, usernames: Sequence[str]) -> None:
        """Let each log in again with the password it had (a restored device)."""
        ...


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

    def track(self, device_id: int, since: datetime, until: datetime, max_points: int) -> tuple[list[TrackPoint], int]:
        """The readings that carry a position, in time order: every one when they fit in
        `max_points`, else evenly spaced ones with the last kept; and how many there are."""
        ...

    def meter(self, device_id: int, since: datetime, until: datetime) -> tuple[float | None, list[MeterReading]]:
        """The energy meter's last total before `since` (None: none), and its totals in the
        range, in time order."""
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
    @property
    def device_events(self) -> DeviceEventRepository: ...
    @property
    def device_commands(self) -> DeviceCommandRepository: ...
    @property
    def maintenance(self) -> MaintenanceRepository: ...
    @property
    def expiry_reminders(self) -> ExpiryReminderRepository: ...
    @property
    def inbox(self) -> Inbox: ...  # the expiry reminders are posted to it (core.inbox)
    @property
    def outbox(self) -> OutboxRepository: ...  # and go out through it as the owner chose
    @property
    def fda_switches(self) -> RecordKeeping: ...  # FDA mode keeps a device's records (core.fda)


class ExpiryReminderRepository(Protocol):
    def candidates(self, since: datetime, until: datetime) -> list[ReminderCandidate]:
        """Devices whose service expires in [since, until], with the stages already sent for
        that expiry."""
        ...

    def record(self, device_id: int, expires_at: datetime, stage: int, at: datetime) -> bool:
        """Record that the stage's reminder of this expiry was sent; False when it already was
        (by this or another transaction), and then nothing is written."""
        ...

