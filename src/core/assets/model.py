"""An asset, its particulars and the rules of each (spec 001 sections 3, 5, 8 and 9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from core.shared.messages import N_
from core.shared.ownership import kept_apart
from core.shared.text import has_refused_characters

NAME_MAX = 100
FIELD_MAX = 50  # type, number, brand, model and volume
REMARK_MAX = 200
MAX_DEVICES = 5  # spec 001 section 9: 5 devices per asset
# Not in the spec: enough rows for a label's particulars, few enough to read on a phone.
ATTRIBUTES_MAX = 20
ATTRIBUTE_KEY_MAX = 50
ATTRIBUTE_VALUE_MAX = 200
FIELDS = ("asset_type", "number", "brand", "model", "volume")

NAME_REQUIRED = N_("An asset name is required")
NAME_LENGTH = N_("An asset name is at most 100 characters")
FIELD_LENGTH = N_("At most 50 characters")
REMARK_LENGTH = N_("The remark is at most 200 characters")
CHARACTERS = N_("Emoji and control characters are not allowed here")
ATTRIBUTES_COUNT = N_("At most 20 custom attributes")
ATTRIBUTE_KEY = N_("A custom attribute needs a name of at most 50 characters")
ATTRIBUTE_VALUE = N_("A custom attribute's value is at most 200 characters")
ATTRIBUTE_TWICE = N_("Each custom attribute needs its own name")
DEVICE_LIMIT = N_("Asset limit of five devices")  # spec 001 section 8, word for word
IN_YOUR_ASSET = N_("The device {device} is already in the asset {name}: unbind it there first")
IN_OTHER_ASSET = N_("The device {device} is already in another account's asset")
READ_ONLY_ASSET = N_("You may only read this asset: its organization's administrators change it")
NOT_YOUR_ORGANIZATION = N_("You may not make assets in this organization")
ORGANIZATION_DEVICE = N_("An organization's device goes only into an asset of the same organization")
PERSONAL_DEVICE = N_("A device in no organization goes only into a personal asset")

def refused(text: str) -> bool:
    """An asset's particulars keep the older symbols ("2-8 °C", "©", "№ 2"), not pictographs."""
    return has_refused_characters(text, symbols=True)


def name_problem(name: str) -> str | None:
    """What is wrong with a (trimmed) asset name, None when nothing is."""
    if not name:
        return NAME_REQUIRED
    if len(name) > NAME_MAX:
        return NAME_LENGTH
    return CHARACTERS if refused(name) else None


def field_problem(value: str) -> str | None:
    """Type, number, brand, model or volume (trimmed): optional, up to 50."""
    if len(value) > FIELD_MAX:
        return FIELD_LENGTH
    return CHARACTERS if refused(value) else None


def remark_problem(remark: str) -> str | None:
    if len(remark) > REMARK_MAX:
        return REMARK_LENGTH
    return CHARACTERS if refused(remark.replace("\n", " ")) else None


@dataclass(frozen=True)
class Attribute:
    """A custom key/value pair ("Compartments": "2"), in the order the user wrote them."""

    key: str
    value: str


def attributes_problem(pairs: Sequence[Attribute]) -> str | None:
    """What is wrong with a list of (trimmed) custom attributes, None when nothing is."""
    if len(pairs) > ATTRIBUTES_MAX:
        return ATTRIBUTES_COUNT
    for pair in pairs:
        if not pair.key or len(pair.key) > ATTRIBUTE_KEY_MAX:
            return ATTRIBUTE_KEY
        if len(pair.value) > ATTRIBUTE_VALUE_MAX:
            return ATTRIBUTE_VALUE
        if refused(pair.key) or refused(pair.value):
            return CHARACTERS
    keys = [pair.key.casefold() for pair in pairs]
    return ATTRIBUTE_TWICE if len(set(keys)) != len(keys) else None



def room_for(bound: int, adding: int) -> bool:
    """Whether an asset with `bound` devices takes `adding` more (spec: at most five)."""
    return bound + adding <= MAX_DEVICES


@dataclass(frozen=True)
class BoundDevice:
    """A device of an asset, as the asset's page lists it."""

    id: int
    name: str
    guid: str
    type_name: str
    online: bool
    alarming: bool
    enabled: bool


@dataclass(frozen=True)
class Membership:
    """Which asset a device is in, and whose."""

    device_id: int
    device_name: str
    asset_id: int
    asset_name: str
    owner_account_id: int
    organization_id: int | None = None


@dataclass
class Asset:
    id: int | None
    owner_account_id: int
    name: str
    asset_type: str | None
    number: str | None
    brand: str | None
    model: str | None
    volume: str | None
    attributes: tuple[Attribute, ...]
    remark: str | None
    enabled: bool
    created_at: datetime
    device_count: int = 0  # all its devices (filled when read, not stored)
    devices: tuple[BoundDevice, ...] = field(default_factory=tuple)  # those the reader sees, when asked
    organization_id: int | None = None  # the organization it belongs to; None: its owner account's own
    organization_name: str | None = None  # (read, not stored)
    changeable: bool = False  # the reader may change it (core.shared.ownership.may_change; filled when read)


def holds(asset: Asset, organization_id: int | None) -> str | None:
    """Why a device of `organization_id` (None: an account's own) may not go into the asset, None
    when it may: a device stays with assets of the same owner, as with projects."""
    return kept_apart(asset, organization_id, ORGANIZATION_DEVICE, PERSONAL_DEVICE)
