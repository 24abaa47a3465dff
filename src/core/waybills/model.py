"""A waybill, its parties, its states and the rules of each field (spec 001 sections 3, 4, 5, 8, 9)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import IntEnum

from core.shared.messages import N_
from core.shared.text import EMAIL_FORMAT, EMAIL_MAX, PHONE_FORMAT, PHONE_MAX  # noqa: F401 (the waybill's rules)
from core.telemetry.model import SENSOR_RANGE, TEMPERATURE


class WaybillState(IntEnum):
    NOT_STARTED = 0
    IN_PROGRESS = 1
    FINISHED = 2


# The one way a waybill goes (spec 001 section 4). Adapters and jobs follow this table.
TRANSITIONS: dict[WaybillState, frozenset[WaybillState]] = {
    WaybillState.NOT_STARTED: frozenset({WaybillState.IN_PROGRESS}),
    WaybillState.IN_PROGRESS: frozenset({WaybillState.FINISHED}),
    WaybillState.FINISHED: frozenset(),
}


def may_go(current: WaybillState, target: WaybillState) -> bool:
    return target in TRANSITIONS[current]


SHORT_MAX = 20  # goods name, order number, cooler code, contacts (spec 001 section 5)
EXPRESS_MAX = 100
TEMPLATE_NAME_MAX = 32
# Not in the spec: a party's phone and address, and how many alarm contacts a trip notifies.
ADDRESS_MAX = 200
CONTACTS_MAX = 10
MAX_BIND = 200  # devices bound in one call
LIMIT_RANGE = SENSOR_RANGE[TEMPERATURE]

REQUIRED = N_("This field is required")
SHORT_LENGTH = N_("At most 20 characters")
EXPRESS_LENGTH = N_("At most 100 characters")
TEMPLATE_NAME_LENGTH = N_("A template name is 1 to 32 characters")
ADDRESS_LENGTH = N_("An address is at most 200 characters")
CONTACT_NEEDS_WAY = N_("Each alarm contact needs a name of 1 to 20 characters and a phone or an e-mail")
CONTACTS_COUNT = N_("At most 10 alarm contacts")
START_AFTER_STOP = N_("The start must not be after the stop")
UPPER_NOT_ABOVE_LOWER = N_("The upper limit must be above the lower limit")
LIMIT_RANGE_TEXT = N_("A limit is between -200 and 200 °C")
CHARACTERS = N_("Emoji and control characters are not allowed here")
READ_ONLY_WAYBILL = N_("You may only read this waybill")
NOT_YOUR_ORGANIZATION = N_("You may not make waybills in this organization")
ORGANIZATION_DEVICE = N_("An organization's device goes only on a waybill of the same organization")
PERSONAL_DEVICE = N_("A device in no organization goes only on a personal waybill")
TOO_MANY_DEVICES = N_("At most 200 devices at a time")
NOT_YOUR_FENCE = N_("Choose one of the waybill owner's geofences")


@dataclass(frozen=True)
class Party:
    """The sender or the receiver of the goods."""

    name: str | None = None
    phone: str | None = None
    address: str | None = None


@dataclass(frozen=True)
class Contact:
    """Who hears of the trip's alarms (level 1 of the alarm path)."""

    name: str
    phone: str | None = None
    email: str | None = None


@dataclass(frozen=True)
class Particulars:
    """What a user writes on a waybill (and a template keeps to fill new ones)."""

    order_number: str | None = None
    goods_name: str | None = None
    express_number: str | None = None
    cooler_code: str | None = None
    upper_limit: float | None = None
    lower_limit: float | None = None
    sender: Party = Party()
    receiver: Party = Party()
    contacts: tuple[Contact, ...] = ()
    planned_start: datetime | None = None
    planned_stop: datetime | None = None
    origin_fence_id: int | None = None
    destination_fence_id: int | None = None


@dataclass(frozen=True)
class BoundDevice:
    """A device on a waybill as its detail lists it."""

    id: int
    name: str
    guid: str
    organization_id: int | None = None


@dataclass
class Waybill:
    id: int | None
    owner_account_id: int
    particulars: Particulars
    state: WaybillState
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    organization_id: int | None = None  # None: its owner account's own
    devices: tuple[BoundDevice, ...] = field(default_factory=tuple)  # every device on it
    changeable: bool = False  # for the caller who read it (filled when read)

    @property
    def device_ids(self) -> list[int]:
        return [d.id for d in self.devices]

    def window(self, now: datetime) -> tuple[datetime, datetime] | None:
        """The trip's span: from its start to its finish (now while it runs); None before it starts."""
        if self.started_at is None:
            return None
        return self.started_at, self.finished_at or max(now, self.started_at)


@dataclass(frozen=True)
class Template:
    id: int | None
    owner_account_id: int
    name: str
    particulars: Particulars
    created_at: datetime


@dataclass(frozen=True)
class TripSpan:
    """The span a report covers: the trip's window narrowed to the devices' data inside it (spec 001
    section 8: start and end auto-corrected when outside the device time)."""

    start: datetime
    end: datetime
    corrected: bool


def corrected_span(window: tuple[datetime, datetime], first: datetime | None, last: datetime | None) -> TripSpan:
    """The window narrowed to [first, last], the first and last readings inside it; as it is (not
    corrected) when no reading falls inside it."""
    start, end = window
    if first is None or last is None:
        return TripSpan(start, end, False)
    new_start, new_end = max(start, first), min(end, last)
    return TripSpan(new_start, new_end, (new_start, new_end) != (start, end))
