"""The service catalogue as the recharge drawers show it: levels of a package, their year
options, the items they include, activities, and SMS and voice packages (spec seed 000 section 3,
seed 001 sections 3-4). Fees are integer cents in the currency (ISO 4217) each price names: the
catalogue holds a price list per currency, and an edition reads only its own."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import IntEnum

from core.shared.money import NO_DISCOUNT


class AlertKind(IntEnum):
    SMS = 1
    VOICE = 2


@dataclass(frozen=True)
class ActivityOffer:
    """What an enabled activity offers on one year option: a discount and/or bonus months, in
    force from `starts_at` until `ends_at`."""

    activity_id: int
    starts_at: datetime
    ends_at: datetime
    discount: int = NO_DISCOUNT
    bonus_months: int = 0

    def in_force(self, now: datetime) -> bool:
        return self.starts_at <= now < self.ends_at


@dataclass(frozen=True)
class YearOption:
    """One duration of a level, with its price per device in one currency."""

    id: int
    level_id: int
    months: int
    service_fee_cents: int
    currency: str  # of both fees
    data_fee_cents: int = 0
    discount: int = NO_DISCOUNT
    recommended: bool = False
    activity: ActivityOffer | None = None  # the activity offering it to this caller, if any


@dataclass(frozen=True)
class ServiceItem:
    code: str
    name: str
    supplement: str | None = None
    label: str | None = None


@dataclass(frozen=True)
class Level:
    id: int
    package_id: int
    name: str
    description: str | None
    options: tuple[YearOption, ...]  # in catalogue order; the first is the headline price
    item_codes: frozenset[str] = field(default_factory=frozenset)
    icon: str | None = None  # the level's icon, if it has one

    @property
    def headline(self) -> YearOption | None:
        return self.options[0] if self.options else None

    def option(self, option_id: int) -> YearOption | None:
        return next((o for o in self.options if o.id == option_id), None)


@dataclass(frozen=True)
class AlertPackage:
    """An SMS or voice package of one country code, priced in one currency."""

    id: int
    kind: AlertKind
    country_code: str
    name: str
    fee_cents: int
    currency: str
    count: int
    discount: int = NO_DISCOUNT
    activity_discount: int | None = None
