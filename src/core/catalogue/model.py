"""The operator's catalogue: items, packages, levels and their duration options, names per
language, the free gift; and the rules of each (spec 001 sections 3, 4, 5 and 9)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import IntEnum

from core.shared.edition import LANGUAGES
from core.shared.messages import N_
from core.shared.text import has_refused_characters

PACKAGE_NAME_MAX = 20  # spec 001 section 5
LEVEL_NAME_MAX = 20  # spec 001 section 5
LEVEL_DESCRIPTION_MAX = 200
ITEM_NAME_MAX = 100
ITEM_SUPPLEMENT_MAX = 200
ITEM_LABEL_MAX = 50
PACKAGE_CODE = re.compile(r"^[0-9]{8}\Z")  # spec 001 sections 5 and 9: exactly 8 digits
ITEM_CODE = re.compile(r"^[A-Z][A-Z0-9_]{1,39}\Z")
MAX_MONTHS = 1200  # 1200 months or more is lifelong (api-contract section 5)
MAX_FEE_CENTS = 10**10  # a hundred million units: far above any price, far below what a column holds
MAX_DISCOUNT = 100  # percent charged; 100 is none
MAX_OPTIONS = 24  # duration rows of one level, all currencies
MAX_GIFT_MONTHS = 120
MAX_GIFT_COUNT = 100_000
CURRENCIES = ("CNY", "USD")  # the editions' price lists


class PackageStatus(IntEnum):
    STOPPED = 0
    ENABLED = 1


REQUIRED = N_("Required")
TOO_LONG = N_("At most {max} characters")
CHARACTERS = N_("Emoji and control characters are not allowed here")
CODE_FORMAT = N_("The package code is exactly 8 digits")
CODE_TAKEN = N_("This package code is already used by another package")
ITEM_CODE_FORMAT = N_("Capital letters, digits and underscores, starting with a letter (2 to 40)")
ITEM_CODE_TAKEN = N_("This item code is already used")
UNKNOWN_LANGUAGE = N_("Unknown language")
DEFAULT_NAME_REQUIRED = N_("The name in the platform's default language is required")
MONTHS_RANGE = N_("The duration is 1 to 1200 months")
FEE_RANGE = N_("A fee is 0 to 100,000,000.00")
DISCOUNT_RANGE = N_("The discount is 1 to 100 percent charged")
UNKNOWN_CURRENCY = N_("Unknown currency")
OPTIONS_REQUIRED = N_("Add at least one duration with its fees and discount")
TOO_MANY_OPTIONS = N_("At most {max} durations")
DURATION_TWICE = N_("Each duration appears once per currency")
UNKNOWN_ITEM = N_("Unknown service item")
UNKNOWN_OPTION = N_("This duration is not one of the level's")
UNKNOWN_DEVICE_TYPE = N_("Unknown device type")
GIFT_MONTHS_RANGE = N_("The free months are 0 to 120")
GIFT_COUNT_RANGE = N_("A count is 0 to 100,000")
GIFT_LEVEL_REQUIRED = N_("Choose the level given with the free months")


@dataclass(frozen=True)
class LocalText:
    name: str
    description: str | None = None


Texts = Mapping[str, LocalText]  # language -> text


@dataclass(frozen=True)
class Item:
    code: str
    label: str | None
    sort: int
    texts: Texts
    own: LocalText = LocalText("")  # the row's own text: the default language's, the last fallback


@dataclass(frozen=True)
class ItemDraft:
    code: str
    label: str | None
    texts: Texts  # name and supplement (description) per language


@dataclass(frozen=True)
class OptionDraft:
    """A duration row of a level: `id` names an existing row (kept, or replaced when sold and
    its price changes), None a new one."""

    id: int | None
    months: int
    service_fee_cents: int
    data_fee_cents: int
    currency: str
    discount: int
    recommended: bool

    def same_sale(self, other: OptionDraft | Option) -> bool:
        """Whether a customer buying either gets the same thing for the same price."""
        return (self.months, self.service_fee_cents, self.data_fee_cents, self.currency, self.discount) == (
            other.months, other.service_fee_cents, other.data_fee_cents, other.currency, other.discount)


@dataclass(frozen=True)
class Option:
    id: int
    months: int
    service_fee_cents: int
    data_fee_cents: int
    currency: str
    discount: int
    recommended: bool
    sort: int
    sold: bool  # an order names it: never changed again


@dataclass(frozen=True)
class LevelDraft:
    texts: Texts  # name and description per language
    item_codes: tuple[str, ...]
    options: tuple[OptionDraft, ...]


@dataclass(frozen=True)
class Level:
    id: int
    package_id: int
    texts: Texts
    icon: str | None
    sort: int
    item_codes: tuple[str, ...]
    options: tuple[Option, ...]  # live ones, retired ones left out
    in_use: bool  # sold, or held by a device
    own: LocalText = LocalText("")


@dataclass(frozen=True)
class PackageDraft:
    code: str
    texts: Texts  # name per language
    device_type_ids: tuple[int, ...]


@dataclass(frozen=True)
class Package:
    id: int
    code: str
    texts: Texts
    status: PackageStatus
    enabled_at: datetime | None
    created_at: datetime
    device_type_ids: tuple[int, ...]
    level_count: int
    sold: bool
    own: LocalText = LocalText("")


@dataclass(frozen=True)
class DeviceTypeRef:
    id: int
    name: str
    code: int


@dataclass(frozen=True)
class ActivePackage:
    """The enabled package serving a device type."""

    type_id: int
    type_name: str
    package_id: int
    package_name: str


@dataclass(frozen=True)
class Gift:
    """What a new device of the package's types gets: the level for `months`, SMS and voice."""

    level_id: int | None
    months: int
    sms_count: int
    voice_count: int


@dataclass(frozen=True)
class PackageFilter:
    name: str | None = None
    code: str | None = None
    status: PackageStatus | None = None
    device_type_id: int | None = None


@dataclass
class Problems:
    """Field -> message, and each message's parameters."""

    messages: dict[str, str] = field(default_factory=dict)
    params: dict[str, dict[str, int]] = field(default_factory=dict)

    def add(self, name: str, message: str, **params: int) -> None:
        if name not in self.messages:
            self.messages[name] = message
            if params:
                self.params[name] = params


def text_problem(value: str, maximum: int, *, required: bool) -> tuple[str, dict[str, int]] | None:
    if not value:
        return (REQUIRED, {}) if required else None
    if len(value) > maximum:
        return TOO_LONG, {"max": maximum}
    if has_refused_characters(value, symbols=True):
        return CHARACTERS, {}
    return None


def clean_texts(texts: Texts, default_language: str, problems: Problems, field_name: str, name_max: int,
                description_max: int | None) -> dict[str, LocalText]:
    """The texts trimmed, a language left without a name dropped (it falls back to the default
    language); the default language's name is required. Problems named `<field>.<language>.name`."""
    cleaned: dict[str, LocalText] = {}
    for language, text in texts.items():
        if language not in LANGUAGES:
            problems.add(f"{field_name}.{language}", UNKNOWN_LANGUAGE)
            continue
        name = (text.name or "").strip()
        description = (text.description or "").strip() or None
        if problem := text_problem(name, name_max, required=False):
            problems.add(f"{field_name}.{language}.name", problem[0], **problem[1])
        if description is not None:
            if description_max is None:
                description = None
            elif problem := text_problem(description, description_max, required=False):
                problems.add(f"{field_name}.{language}.description", problem[0], **problem[1])
        if name:
            cleaned[language] = LocalText(name, description)
    if default_language not in cleaned:
        problems.add(f"{field_name}.{default_language}.name", DEFAULT_NAME_REQUIRED)
    return cleaned


def option_problems(options: tuple[OptionDraft, ...], problems: Problems) -> None:
    """Each duration row filled and in range (spec 001 section 5), one per duration and currency."""
    if not options:
        problems.add("options", OPTIONS_REQUIRED)
        return
    if len(options) > MAX_OPTIONS:
        problems.add("options", TOO_MANY_OPTIONS, max=MAX_OPTIONS)
        return
    seen: set[tuple[int, str]] = set()
    for index, option in enumerate(options):
        where = f"options.{index}"
        if not 1 <= option.months <= MAX_MONTHS:
            problems.add(f"{where}.timeLength", MONTHS_RANGE)
        for name, fee in (("serviceFee", option.service_fee_cents), ("dataFee", option.data_fee_cents)):
            if not 0 <= fee <= MAX_FEE_CENTS:
                problems.add(f"{where}.{name}", FEE_RANGE)
        if not 1 <= option.discount <= MAX_DISCOUNT:
            problems.add(f"{where}.discount", DISCOUNT_RANGE)
        if option.currency not in CURRENCIES:
            problems.add(f"{where}.currency", UNKNOWN_CURRENCY)
        if (option.months, option.currency) in seen:
            problems.add(f"{where}.timeLength", DURATION_TWICE)
        seen.add((option.months, option.currency))


def gift_problems(gift: Gift, problems: Problems) -> None:
    if not 0 <= gift.months <= MAX_GIFT_MONTHS:
        problems.add("timeLength", GIFT_MONTHS_RANGE)
    for name, count in (("smsCount", gift.sms_count), ("voiceCount", gift.voice_count)):
        if not 0 <= count <= MAX_GIFT_COUNT:
            problems.add(name, GIFT_COUNT_RANGE)
    if gift.months > 0 and gift.level_id is None:
        problems.add("levelId", GIFT_LEVEL_REQUIRED)


def default_name(texts: Texts, default_language: str) -> LocalText:
    """The text kept on the row itself: the default language's."""
    return texts[default_language]


@dataclass(frozen=True)
class OptionPlan:
    """What saving a level does to its duration rows."""

    keep: tuple[tuple[int, OptionDraft, int], ...]  # (id, new values, sort): changed in place
    add: tuple[tuple[OptionDraft, int], ...]  # (values, sort): new rows
    retire: tuple[int, ...]  # sold rows no longer offered (replaced, or removed)
    delete: tuple[int, ...]  # unsold rows removed


def plan_options(current: tuple[Option, ...], wanted: tuple[OptionDraft, ...]) -> OptionPlan:
    """An unsold row is edited in place or deleted; a sold row is never changed in what it sells
    (months, fees, currency, discount): it is retired and a new row takes its place, the way a
    payment platform archives a price and creates another. Its recommended flag and place in the
    list are only how it is shown, and change in place. UNKNOWN_OPTION raises from the caller
    when a draft names an id not among `current` (checked before)."""
    by_id = {o.id: o for o in current}
    keep: list[tuple[int, OptionDraft, int]] = []
    add: list[tuple[OptionDraft, int]] = []
    retire: list[int] = []
    for sort, draft in enumerate(wanted):
        old = by_id.get(draft.id) if draft.id is not None else None
        if old is None:
            add.append((draft, sort))
        elif old.sold and not draft.same_sale(old):
            retire.append(old.id)
            add.append((draft, sort))
        else:
            keep.append((old.id, draft, sort))
    named = {d.id for d in wanted if d.id is not None}
    gone = [o for o in current if o.id not in named]
    retire += [o.id for o in gone if o.sold]
    return OptionPlan(tuple(keep), tuple(add), tuple(retire), tuple(o.id for o in gone if not o.sold))
