"""Activities and SMS/voice packages as operators edit them (spec seed 001 sections 3-5).

An activity offers, on each year option it is linked to, a discount (percent paid, 100 none)
and/or bonus months, from `starts_at` until `ends_at`, while enabled; a directional one only to
its target accounts. Two enabled activities never offer the same year option at overlapping
moments (`overlap`): the customer would otherwise see one or the other by chance."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from enum import IntEnum
from typing import Generic, TypeVar

from core.shared.edition import LANGUAGES
from core.shared.messages import N_
from core.shared.money import NO_DISCOUNT
from core.shared.text import has_refused_characters

NAME_MAX = 20  # activity and SMS/voice package names (spec section 5)
MAX_OPTIONS = 200
MAX_TARGETS = 500
MAX_BONUS_MONTHS = 120
MAX_FEE_CENTS = 10**9
MAX_COUNT = 1_000_000
ALERT_PACKAGES_PER_KIND = 5  # per country code (spec section 5)
CURRENCIES = ("CNY", "USD")  # the editions' price lists
COUNTRY_CODE = re.compile(r"^[1-9][0-9]{0,3}$")
MAX_SHEET_BYTES = 256 * 1024
MAX_SHEET_ROWS = 200
MAX_UNPACKED_BYTES = 4 * 1024 * 1024
SEARCH_MAX = 50

NAME_REQUIRED = N_("Enter a name")
NAME_TOO_LONG = N_("At most 20 characters")
NAME_CHARACTERS = N_("Letters, digits, spaces and punctuation only: no emoji or invisible characters")
ENDS_BEFORE_START = N_("The end must be after the start")
NO_OPTIONS = N_("Link at least one package option")
UNKNOWN_OPTION = N_("No such package option")
NO_TARGETS = N_("A directional activity needs at least one target account")
UNKNOWN_ACCOUNT = N_("No such account")
OFFERS_NOTHING = N_("Each option needs a discount below 100 % or bonus months")
BAD_DISCOUNT = N_("A discount is a percentage from 1 to 100")
BAD_COUNTRY_CODE = N_("A country code is 1 to 4 digits, not starting with 0")
BAD_CURRENCY = N_("Unknown currency")
BAD_FEE = N_("The fee must be a whole number of cents from 0")
BAD_COUNT = N_("The count must be at least 1")
BAD_KIND = N_("The kind is SMS or voice")
SORT_MISMATCH = N_("List every package of this country code and kind once")
TOO_MANY_ALERT_PACKAGES = N_("A country code may have at most 5 SMS packages and 5 voice packages")

# XLSX import of SMS/voice packages
NOT_A_SHEET = N_("The file is not an Excel workbook (.xlsx)")
SHEET_TOO_BIG = N_("The file is too large: at most 256 KB")
TOO_MANY_ROWS = N_("The sheet may hold at most 200 packages")
FORMULAS = N_("The sheet holds formulas: enter the values themselves")
BAD_TEXT = N_("The sheet holds characters that cannot be stored")
NO_ROWS = N_("The sheet holds no packages")
SHEET_HEADERS = (N_("Kind (SMS or voice)"), N_("Country code"), N_("Name"), N_("Fee (cents)"), N_("Currency"),
                 N_("Count"), N_("Discount (%)"))


class Nature(IntEnum):
    PUBLIC = 1
    DIRECTIONAL = 2


class Status(IntEnum):
    STOPPED = 0
    ENABLED = 1


class AlertKind(IntEnum):
    SMS = 1
    VOICE = 2


def name_problem(name: str) -> str | None:
    if not name:
        return NAME_REQUIRED
    if len(name) > NAME_MAX:
        return NAME_TOO_LONG
    if has_refused_characters(name):
        return NAME_CHARACTERS
    return None


def names_problems(names: dict[str, str]) -> dict[str, str]:
    """Problems of the per-language names, keyed `names.<language>`; empty names mean the default."""
    problems = {}
    for language, text in names.items():
        if language not in LANGUAGES:
            problems[f"names.{language}"] = N_("Unknown language")
        elif text and (problem := name_problem(text)):
            problems[f"names.{language}"] = problem
    return problems


def clean_names(names: dict[str, str]) -> dict[str, str]:
    return {language: text.strip() for language, text in names.items() if text and text.strip()}


@dataclass(frozen=True)
class ActivityOption:
    """What the activity offers on one year option."""

    level_year_id: int
    discount: int = NO_DISCOUNT
    bonus_months: int = 0


@dataclass(frozen=True)
class ActivityDraft:
    name: str
    nature: Nature
    starts_at: datetime
    ends_at: datetime
    options: tuple[ActivityOption, ...]
    account_ids: tuple[int, ...] = ()
    names: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TargetAccount:
    id: int
    user_name: str
    phone: str | None = None
    email: str | None = None


@dataclass(frozen=True)
class OptionLabel:
    """A year option as the activity editor lists it."""

    level_year_id: int
    package_id: int
    package_name: str
    level_id: int
    level_name: str
    months: int
    currency: str
    service_fee_cents: int
    discount: int


@dataclass(frozen=True)
class Activity:
    id: int
    name: str
    nature: Nature
    starts_at: datetime
    ends_at: datetime
    status: Status
    created_at: datetime
    options: tuple[ActivityOption, ...]
    accounts: tuple[TargetAccount, ...] = ()
    names: dict[str, str] = field(default_factory=dict)

    @property
    def option_ids(self) -> frozenset[int]:
        return frozenset(o.level_year_id for o in self.options)

    def offers(self, account_id: int, now: datetime) -> frozenset[int]:
        """The year options it offers this account at this moment: none when stopped, outside its
        validity, or directional and not aimed at the account."""
        if self.status is not Status.ENABLED or not self.starts_at <= now < self.ends_at:
            return frozenset()
        if self.nature is Nature.DIRECTIONAL and account_id not in {a.id for a in self.accounts}:
            return frozenset()
        return self.option_ids


def overlap(draft_starts: datetime, draft_ends: datetime, option_ids: frozenset[int],
            others: list[Activity], own_id: int | None = None) -> Activity | None:
    """The first other enabled activity offering one of these options at an overlapping moment
    (validity is [start, end): one ending when the next starts does not overlap)."""
    for other in others:
        if other.id == own_id or other.status is not Status.ENABLED:
            continue
        if other.starts_at < draft_ends and draft_starts < other.ends_at and other.option_ids & option_ids:
            return other
    return None


@dataclass(frozen=True)
class ActivityFilter:
    name: str | None = None
    status: Status | None = None
    nature: Nature | None = None


@dataclass(frozen=True)
class ActivityDeposit:
    """An activity with what was paid at its price."""

    activity_id: int
    name: str
    nature: Nature
    status: Status
    starts_at: datetime
    ends_at: datetime
    paid_orders: int
    paid_cents: dict[str, int]  # currency -> total paid


@dataclass(frozen=True)
class ActivityOrder:
    """An order placed at an activity's price."""

    order_id: int
    order_code: str
    user_name: str
    description: str
    currency: str
    order_fee_cents: int
    pay_fee_cents: int | None
    pay_status: int
    pay_type: int
    device_count: int
    created_at: datetime
    paid_at: datetime | None


@dataclass(frozen=True)
class AlertPackageDraft:
    kind: AlertKind
    country_code: str
    name: str
    fee_cents: int
    currency: str
    count: int
    discount: int = NO_DISCOUNT
    status: Status = Status.ENABLED
    names: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class AlertPackage:
    id: int
    kind: AlertKind
    country_code: str
    name: str
    fee_cents: int
    currency: str
    count: int
    discount: int
    status: Status
    sort: int
    names: dict[str, str] = field(default_factory=dict)


def alert_problems(draft: AlertPackageDraft) -> dict[str, str]:
    problems: dict[str, str] = {}
    if (problem := name_problem(draft.name)):
        problems["packageName"] = problem
    if not COUNTRY_CODE.match(draft.country_code):
        problems["countryCode"] = BAD_COUNTRY_CODE
    if draft.currency not in CURRENCIES:
        problems["currency"] = BAD_CURRENCY
    if not 0 <= draft.fee_cents <= MAX_FEE_CENTS:
        problems["packageFee"] = BAD_FEE
    if not 1 <= draft.count <= MAX_COUNT:
        problems["smsCount"] = BAD_COUNT
    if not 1 <= draft.discount <= NO_DISCOUNT:
        problems["discount"] = BAD_DISCOUNT
    problems.update(names_problems(draft.names))
    return problems


@dataclass(frozen=True)
class ImportRow:
    """One row of an import sheet as read: its number and its cells as text."""

    number: int
    cells: tuple[str, ...]


@dataclass(frozen=True)
class ImportReport:
    row: int
    name: str
    added: bool
    package_id: int | None = None
    problem: str | None = None
    field: str | None = None


# --- what was sold and what is in force (selectDepositView, selectSmsActivityDetail,
# selectServiceActivityDetail)

PERIOD_MAX_DAYS = 1831  # five years and a day: a summary over longer is not a back-office question
BAD_PERIOD = N_("The period may last at most five years")


@dataclass(frozen=True)
class Period:
    """[starts_at, ends_at): orders paid in it count."""

    starts_at: datetime
    ends_at: datetime


def period_problems(period: Period) -> dict[str, str]:
    if period.ends_at <= period.starts_at:
        return {"endTime": ENDS_BEFORE_START}
    if (period.ends_at - period.starts_at).days >= PERIOD_MAX_DAYS:
        return {"endTime": BAD_PERIOD}
    return {}


@dataclass(frozen=True)
class OptionSales:
    """Paid service orders of one year option over a period (the option may have been retired or
    deleted since: `label` is None when it no longer exists)."""

    level_year_id: int
    label: OptionLabel | None
    orders: int
    devices: int
    paid_cents: dict[str, int]  # currency -> total paid


@dataclass(frozen=True)
class AlertSales:
    """Paid SMS/voice orders of one country code over a period. An order records the counts it
    bought, not the package row (which may have been changed or deleted since), so sales are told
    per country code with the messages and calls sold."""

    country_code: str
    orders: int
    devices: int
    sms_count: int
    voice_count: int
    paid_cents: dict[str, int]


Sales = TypeVar("Sales", OptionSales, AlertSales)


@dataclass(frozen=True)
class SalesSummary(Generic[Sales]):
    period: Period
    rows: list[Sales]
    orders: int
    paid_cents: dict[str, int]


def summary_of(period: Period, rows: list[Sales]) -> SalesSummary[Sales]:
    totals: dict[str, int] = {}
    for row in rows:
        for currency, cents in row.paid_cents.items():
            totals[currency] = totals.get(currency, 0) + cents
    return SalesSummary(period, rows, sum(r.orders for r in rows), dict(sorted(totals.items())))


@dataclass(frozen=True)
class PriceChange:
    """A change of an SMS/voice package's price terms, from the operation log."""

    at: datetime
    actor_name: str | None
    kind: str  # insert, update, delete
    field: str  # discount, activity_discount, package_fee_cents, currency, status
    old: object
    new: object


@dataclass(frozen=True)
class AlertActivityDetail:
    package: AlertPackage
    activity_discount: int | None  # the package's activity discount, None without one
    discount_now: int  # what is charged now, the activity's discount taking precedence
    price_now_cents: int  # one device's price now
    history: list[PriceChange]


@dataclass(frozen=True)
class OptionActivity:
    """An enabled activity on a year option that has not ended, and what it offers there."""

    activity: Activity
    discount: int
    bonus_months: int
    in_force: bool


@dataclass(frozen=True)
class OptionInForce:
    option: OptionLabel
    activities: list[OptionActivity]  # in force first, then by start


@dataclass(frozen=True)
class PackageActivityDetail:
    package_id: int
    package_name: str
    options: list[OptionInForce]
