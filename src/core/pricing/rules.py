"""The pricing rules of the recharge drawers (spec seed 000 sections 2, 4, 5 and 9), as small
functions, each with its own scenarios in features/pricing/."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from core.devices.expiry import is_lifelong
from core.pricing.model import AlertKind, AlertPackage, Level, YearOption
from core.shared.edition import Edition
from core.shared.messages import N_
from core.shared.money import NO_DISCOUNT, Money

LIFELONG_MONTHS = 1200  # a year option this long or longer is lifelong service
LOW_STOCK = 50  # SMS or voice counts at or below it show red
ITEMS_WITH_DETAIL = frozenset({"DATA_QUERY_EXPORT", "ALARM_SMS", "ALARM_VOICE", "AI_QA"})
_PARENTHESISED = re.compile(r"^(?P<name>.*?)\s*[(（](?P<detail>[^()（）]*)[)）]\s*$")


def effective_discount(discount: int | None, activity_discount: int | None = None, *,
                       activity_in_force: bool = True, ignore_full_activity_discount: bool = False) -> int:
    """The percentage charged: an activity's discount, while the activity is in force, takes
    precedence over the normal one; 100 means none. Voice packages ignore an activity discount
    of 100 (it says nothing there, so the normal discount stands)."""
    ignored = ignore_full_activity_discount and activity_discount == NO_DISCOUNT
    if activity_discount is not None and activity_in_force and not ignored:
        return activity_discount
    return discount if discount is not None else NO_DISCOUNT


@dataclass(frozen=True)
class DataPlan:
    """What a device's SIM means for its price: the data fee applies only to a device whose SIM
    has an active data plan (jcIccidStatus 1)."""

    has_sim: bool
    plan_active: bool

    @classmethod
    def of(cls, sim_iccid: str | None, jc_iccid_status: int) -> DataPlan:
        has_sim = bool(sim_iccid)
        return cls(has_sim, has_sim and jc_iccid_status == 1)


@dataclass(frozen=True)
class OptionPrice:
    """The price of one year option for one device of this caller, at this instant."""

    option: YearOption
    list_cents: int  # before any discount
    discount: int  # the percentage charged
    per_device_cents: int  # in what the option's currency shows (Money.discounted): shown as charged
    activity_id: int | None
    bonus_months: int

    @property
    def months(self) -> int:
        return self.option.months

    @property
    def currency(self) -> str:
        return self.option.currency

    @property
    def per_device(self) -> Money:
        return Money(self.per_device_cents, self.currency)

    @property
    def discounted(self) -> bool:
        return self.discount != NO_DISCOUNT

    def total_cents(self, devices: int) -> int:
        """Per-device price times the number of devices."""
        return self.per_device_cents * devices


def price_option(option: YearOption, plan: DataPlan, now: datetime) -> OptionPrice:
    activity = option.activity if option.activity is not None and option.activity.in_force(now) else None
    list_cents = option.service_fee_cents + (option.data_fee_cents if plan.plan_active else 0)
    discount = effective_discount(option.discount, activity.discount if activity else None)
    return OptionPrice(option, list_cents, discount, Money(list_cents, option.currency).discounted(discount).cents,
                       activity.activity_id if activity else None, activity.bonus_months if activity else 0)


def is_free(option: YearOption | None, plan: DataPlan) -> bool:
    """A free level: no service fee, and no SIM or a SIM without an active data plan (nothing
    to pay for). It shows 'free service' and cannot be ordered."""
    if option is None:
        return True
    if option.service_fee_cents == 0 and not plan.plan_active:
        return True
    return option.service_fee_cents == 0 and option.data_fee_cents == 0


class ButtonKind(StrEnum):
    ON_ORDER = "onOrder"  # free: clicking does nothing
    BUY_TRAFFIC = "buyTraffic"  # no service fee, a data fee to pay
    RENEW = "renew"  # the device already has this level
    BUY = "buy"


def button_kind(level: Level, current_level_id: int | None, plan: DataPlan) -> ButtonKind:
    headline = level.headline
    if headline is None or is_free(headline, plan):
        return ButtonKind.ON_ORDER
    if headline.service_fee_cents == 0 and headline.data_fee_cents > 0:
        return ButtonKind.BUY_TRAFFIC
    if level.id == current_level_id:
        return ButtonKind.RENEW
    return ButtonKind.BUY


def discount_badge(discount: int, edition: Edition) -> str | None:
    """Domestic: the charged share in tenths ('8折' for 80, '7.5折' for 75); international:
    the share taken off ('20% OFF'). None when there is no discount."""
    if discount >= NO_DISCOUNT:
        return None
    if edition is Edition.DOMESTIC:
        tenths = f"{discount / 10:g}" if discount % 10 else str(discount // 10)
        return f"{tenths}折"
    return f"{NO_DISCOUNT - discount}% OFF"


@dataclass(frozen=True)
class Text:
    """A message id and its parameters; the entrypoint translates it."""

    message: str
    params: dict[str, int]


def duration_text(months: int) -> Text:
    """Under 12 months: months; otherwise years and the remaining months; 1200 or more: lifelong."""
    if months >= LIFELONG_MONTHS:
        return Text(N_("Lifelong"), {})
    if months < 12:
        return Text(N_("{months} months"), {"months": months})
    years, rest = divmod(months, 12)
    if rest == 0:
        return Text(N_("{years} years"), {"years": years})
    return Text(N_("{years} years {months} months"), {"years": years, "months": rest})


def is_lifelong_term(months: int) -> bool:
    return months >= LIFELONG_MONTHS


def shows_lifelong(expires_at: datetime | None = None, months: int | None = None) -> bool:
    """An expiry in 2099 or later, or a term of 1200 months or more, reads 'lifelong'."""
    return (expires_at is not None and is_lifelong(expires_at)) or (months is not None and is_lifelong_term(months))


def low_stock(count: int) -> bool:
    return count <= LOW_STOCK


def item_detail(code: str, name: str) -> tuple[str, str | None]:
    """(title, detail) of an item: for the four named codes the detail is the parenthesised part
    of the name ('SMS alarms (text message on every breach)' -> 'SMS alarms', 'text message on
    every breach'); other items have none."""
    match = _PARENTHESISED.match(name) if code in ITEMS_WITH_DETAIL else None
    if match is None:
        return name, None
    return match["name"], match["detail"].strip() or None


def alert_package_discount(package: AlertPackage) -> int:
    return effective_discount(package.discount, package.activity_discount,
                              ignore_full_activity_discount=package.kind is AlertKind.VOICE)


def alert_package_price(package: AlertPackage) -> int:
    """Cents one device pays for the package, in what its currency shows (Money.discounted)."""
    return Money(package.fee_cents, package.currency).discounted(alert_package_discount(package)).cents
