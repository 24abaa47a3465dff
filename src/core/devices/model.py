"""Devices as the console lists and shows them, and the facts derived from them."""

from __future__ import annotations

import calendar
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from enum import IntEnum
from typing import Any, NamedTuple

from core.devices.access import Access
from core.devices.expiry import ExpiredFlag, ExpiryWindow, is_lifelong
from core.devices.grants import ALL_ELEMENTS, VIEW_ALL, Element, Grant
from core.shared.errors import DeviceScrapped
from core.telemetry.model import ENERGY, PROBES, Position

EXPIRING_WITHIN = timedelta(days=30)
FREE_SERVICE_MONTHS = 2  # a new device's free service (spec seed 001 section 9)
DATA_KEPT_MONTHS = 3  # readings are kept this long after the service expires


class VipState(IntEnum):
    """The contract's vipInfo.state: how a device's service stands."""

    NONE = 0
    EXPIRING = 1  # expires within 30 days
    OVERDUE = 2  # has expired


class Scene(IntEnum):
    """The device list's tabs; a device type lists the scenes it belongs to."""

    COLD_CHAIN = 1
    COLD_STORAGE = 2
    FREEZER = 3


class AddType(IntEnum):
    ANY = 0
    APP_ONLY = 1
    PLATFORM_ONLY = 2


class TypeStatus(IntEnum):
    TO_BE_TESTED = 0
    TESTING = 1
    PUBLISHED = 2


class DeviceStatus(IntEnum):
    DISABLED = 0
    ENABLED = 1


def vip_state(expires_at: datetime | None, now: datetime) -> VipState:
    """Same windows as the expired-service dialog: lifelong service never expires."""
    if ExpiryWindow.of(ExpiredFlag.EXPIRED, now).contains(expires_at):
        return VipState.OVERDUE
    if ExpiryWindow.of(ExpiredFlag.WITHIN_30_DAYS, now).contains(expires_at):
        return VipState.EXPIRING
    return VipState.NONE


def add_months(instant: datetime, months: int) -> datetime:
    """The same day and time `months` later (or earlier), on the month's last day when it is
    shorter: 31 January + 1 month is 28 or 29 February."""
    index = instant.year * 12 + instant.month - 1 + months
    year, month = divmod(index, 12)
    day = min(instant.day, calendar.monthrange(year, month + 1)[1])
    return instant.replace(year=year, month=month + 1, day=day)


def data_kept_until(expires_at: datetime | None) -> datetime | None:
    """Readings of a device whose service expired are kept three more months; None: for ever."""
    if expires_at is None or is_lifelong(expires_at):
        return None
    return add_months(expires_at, DATA_KEPT_MONTHS)


def parse_scenes(raw: str | None) -> tuple[int, ...]:
    scenes = []
    for part in (raw or "").split(","):
        part = part.strip()
        if part.isdigit() and int(part) not in scenes:
            scenes.append(int(part))
    return tuple(scenes)


def parse_probes(raw: str | None) -> tuple[str, ...]:
    """The probe keys a type reports, in the canonical order (temperature, then humidity)."""
    keys = {part.strip() for part in (raw or "").split(",")}
    return tuple(p for p in PROBES if p in keys)


def measures_energy(raw_probes: str | None) -> bool:
    """Whether a type's devices have an energy meter: "kwh" among the keys it reports."""
    return ENERGY in {part.strip() for part in (raw_probes or "").split(",")}


def format_type_code(code: int) -> str:
    return f"0x{code:04X}"


@dataclass(frozen=True)
class DeviceType:
    id: int
    name: str
    code: int
    add_type: int
    status: int
    scenes: tuple[int, ...]
    probes: tuple[str, ...]
    series_name: str | None = None
    energy: bool = False  # has an energy meter

    @property
    def addable_on_platform(self) -> bool:
        return self.status == TypeStatus.PUBLISHED and self.add_type != AddType.APP_ONLY


class TrackPoint(NamedTuple):
    ts: datetime
    position: Position


class MeterReading(NamedTuple):
    ts: datetime
    kwh: float  # the meter's running total


@dataclass(frozen=True)
class DeviceFilter:
    """The device list's search: every given field narrows it."""

    name: str | None = None  # contains, case-insensitive
    guid: str | None = None  # contains, case-insensitive
    type_id: int | None = None
    status: int | None = None
    scene: int | None = None
    online: bool | None = None
    alarm: bool | None = None
    level_id: int | None = None
    vip_state: VipState | None = None
    scrapped: bool | None = None
    project_id: int | None = None  # its project's devices; NO_PROJECT: those in none (core/projects)
    calibration_due: bool | None = None  # a calibration due within CALIBRATION_DUE_WITHIN or past (or not)
    now: datetime | None = None  # needed by vip_state and calibration_due

    @property
    def states_in_service(self) -> bool:
        """Whether it asks for a state (online, alarm, enabled, service) without saying scrapped:
        such a state is a device in service's, as the home page counts it, so a scrapped device
        is left out and a tile's count is the list it opens."""
        return self.scrapped is None and (self.online is not None or self.alarm is not None
                                          or self.status is not None or self.vip_state is not None)


NO_PROJECT = 0  # DeviceFilter.project_id of the devices in no project
# "Calibration due": as far ahead as the first reminder of a due date (core.calibration.due_dates).
CALIBRATION_DUE_WITHIN = timedelta(days=30)

SORT_FIELDS = ("deviceId", "deviceName", "deviceGuid", "deviceTypeName", "serviceExpiredDate", "lastReadingAt",
               "createdAt", "temperature")


@dataclass(frozen=True)
class ProbeLimits:
    probe: str
    upper_limit: float | None
    lower_limit: float | None
    enabled: bool


@dataclass(frozen=True)
class Device:
    """A device with everything the list and the detail show, as one caller sees it."""

    id: int
    guid: str
    name: str
    type_id: int
    type_name: str
    type_scenes: tuple[int, ...]
    probes: tuple[str, ...]
    owner_account_id: int
    owner_name: str
    organization_id: int | None
    organization_name: str | None
    level_id: int | None
    level_name: str | None
    service_expires_at: datetime | None
    sms_count: int
    voice_count: int
    country_code: str | None
    sim_iccid: str | None
    jc_iccid_status: int
    agreement_active: bool
    node_type: int
    display_precision: int
    temperature_unit: str
    status: int
    remark: str | None
    created_at: datetime
    activated_at: datetime | None
    last_seen_at: datetime | None
    online: bool
    last_reading_at: datetime | None
    last_temperature: float | None
    last_humidity: float | None
    alarm_state: int
    vip_state: VipState = VipState.NONE
    limits: tuple[ProbeLimits, ...] = field(default=())
    grant: Grant = VIEW_ALL  # the caller's rights on it (core/devices/grants.py)
    position: Position | None = None  # its last reported position
    position_at: datetime | None = None
    energy: bool = False  # its type has an energy meter
    scrapped_at: datetime | None = None  # retired by its owner (scrapping.py); None: in service
    project_id: int | None = None  # the project it is grouped in (core/projects); None: none
    project_name: str | None = None

    @property
    def access(self) -> Access:
        return self.grant.access

    def owned_by(self, account_id: int) -> bool:
        return self.owner_account_id == account_id

    @property
    def scrapped(self) -> bool:
        return self.scrapped_at is not None


def as_granted(device: Device) -> Device:
    """The device with what the caller's grant hides blanked: the last reading without real-time
    data, the position without the map, the limits without the push configuration, the SIM,
    country and remark without the basic information. Its owner and members see it whole."""
    grant = device.grant
    if grant.view == ALL_ELEMENTS:
        return device
    hidden: dict[str, Any] = {}
    if not grant.sees(Element.REALTIME):
        hidden.update(last_reading_at=None, last_temperature=None, last_humidity=None)
    if not grant.sees(Element.MAP):
        hidden.update(position=None, position_at=None)
    if not grant.sees(Element.PUSH):
        hidden.update(limits=())
    if not grant.sees(Element.INFO):
        hidden.update(sim_iccid=None, country_code=None, remark=None)
    return replace(device, **hidden)


def in_service(devices: Iterable[Device]) -> None:
    """Refuse (409) what would change the service of a scrapped device (core/devices/scrapping.py):
    a recharge, parameters sent to it."""
    if any(d.scrapped for d in devices):
        raise DeviceScrapped()


@dataclass(frozen=True)
class DeviceMarker:
    """A device on a map: where it last was and what its marker's colour is read from."""

    id: int
    name: str
    position: Position
    status: int
    online: bool
    alarm_state: int
    activated_at: datetime | None
    scrapped_at: datetime | None = None


@dataclass(frozen=True)
class DeviceMarkers:
    """The devices of a filter that reported a position, at most MAX_MARKERS of them (by id)."""

    markers: list[DeviceMarker]
    total: int  # all that reported a position, shown or not

    @property
    def truncated(self) -> bool:
        return self.total > len(self.markers)


# A map of ten thousand dots is still readable and one light read; beyond that the map says how
# many it leaves out and the filters narrow it.
MAX_MARKERS = 10_000


@dataclass(frozen=True)
class NewDevice:
    guid: str
    name: str
    type_id: int
    owner_account_id: int
    level_id: int | None
    service_expires_at: datetime
    country_code: str
    display_precision: int
    temperature_unit: str
    remark: str | None
    created_at: datetime
    sms_count: int = 0
    voice_count: int = 0


@dataclass(frozen=True)
class NewDeviceGift:
    """What a new device gets for free: a level for some months, SMS and voice counts. Operators
    set it per package (core/catalogue, PayServicePresentation); a type whose enabled package has
    none set, or that no package serves, gets what the platform always gave: the package's free
    level (if any) for FREE_SERVICE_MONTHS."""

    level_id: int | None
    months: int
    sms_count: int = 0
    voice_count: int = 0


@dataclass(frozen=True)
class HomeCounts:
    """online + offline + not_enabled + scrapped = total: offline devices have reported before,
    and a scrapped device counts as scrapped only (not online, offline, alarming, disabled,
    expired nor not enabled)."""

    total: int = 0
    online: int = 0
    offline: int = 0
    alarm: int = 0
    disabled: int = 0
    expired: int = 0
    not_enabled: int = 0
    scrapped: int = 0


@dataclass(frozen=True)
class MaintenanceRecord:
    """A maintenance record of a device (spec seed 001 section 5 sets the lengths)."""

    device_id: int
    maintained_on: date
    person: str
    reason: str
    content: str
    approver: str | None = None
    standard: str | None = None
    result: str | None = None
    id: int | None = None  # None until stored
    created_at: datetime | None = None
    updated_at: datetime | None = None
