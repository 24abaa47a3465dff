"""What buying a service level gives a device: the rule of a change of level (issue 14), which the
paying drawer quotes before payment, the order records as its promise, and settlement applies.
Its scenarios are in features/pricing/level_changes.feature and features/ordering/level_changes.feature.

Credit proration, as subscription systems do it:
- The same level: the term is extended from the later of now and the expiry.
- Another level, up or down: the unused remainder of the current level (from now to its expiry) is
  converted at its value into time at the new level, remainder x current daily price / new daily
  price, rounded down to whole days (the customer loses less than one day of the new level), and
  the months bought, with the activity's bonus months, follow from there. (Converted time stops
  short of the lifelong date, 2099, which only a catalogue of absurd prices could reach.)
- A level's daily price, for one device: the list price, before any discount, of the level's
  12-month option (else its headline option, else its first other time-limited option), with the
  data fee when the device's SIM has an active data plan (as price_option), in the edition's
  currency (the only price list an edition reads), spread over the days of that option's term.
  Only the ratio of two daily prices is used, in which the length of a month cancels out, so the
  conversion is exact integer arithmetic.
- Nothing to convert, the new term starts now: the service has expired, or the device has no level
  or a free one (no time-limited option with a price: its time was never paid for).
- A lifelong option gives lifelong service at its level, whatever the device had: lifelong covers
  any remainder, which is not refunded.
- A device with lifelong service keeps it: another level can only be bought for life (a term would
  end the lifelong service the customer paid for), and its own level cannot be bought again (it
  would add nothing). Both are refused before anything is charged.
- A current level the catalogue no longer offers for the device's type cannot be valued: the change
  is refused (support can help) rather than its remainder lost or guessed.
- A free level cannot be ordered at all (FreeLevelNotOrderable, checked with the order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from core.devices.expiry import LIFELONG_EXPIRY, LIFELONG_FROM, is_lifelong
from core.devices.model import add_months
from core.pricing.model import Level
from core.pricing.rules import DataPlan, is_lifelong_term, price_option
from core.shared.errors import CurrentLevelNotValued, FreeLevelNotOrderable, LevelNotOffered, LifelongService
from core.shared.messages import N_

DAY = timedelta(days=1)
REFERENCE_MONTHS = 12  # the option that sets a level's daily price, when the level has one


class ChangeKind(StrEnum):
    EXTENDED = "extended"  # the same level: the term continues from the later of now and the expiry
    CONVERTED = "converted"  # another level: the remainder became time at the new level, then the months
    STARTS_NOW = "startsNow"  # nothing left (expired, or never had service): the term starts now
    FROM_FREE = "fromFree"  # the time left on a free level (or on none) is worth nothing: starts now
    LIFELONG = "lifelong"  # lifelong service at the level


@dataclass(frozen=True)
class ServiceState:
    """A device's service as a change of level starts from it."""

    level_id: int | None
    expires_at: datetime | None


@dataclass(frozen=True)
class DailyPrice:
    """What a level's day is worth for one device, kept as a fraction: `cents` (list price) for
    `months` months."""

    cents: int
    months: int


@dataclass(frozen=True)
class LevelChange:
    """What one device will have once the order is paid, and how it comes about."""

    before: ServiceState
    level_id: int
    expires_at: datetime
    kind: ChangeKind
    remaining: timedelta = timedelta(0)  # converted or from free: the current level's time left
    converted_days: int = 0  # converted: the days of the new level it became

    @property
    def remaining_days(self) -> int:
        """Whole days of the current level's time left (as the drawer says them)."""
        return self.remaining // DAY


def extended_expiry(expires_at: datetime | None, now: datetime, months: int, bonus_months: int) -> datetime:
    """max(now, expiry) + months + bonus months; a lifelong term or a lifelong expiry stays
    lifelong."""
    if is_lifelong_term(months) or (expires_at is not None and is_lifelong(expires_at)):
        return LIFELONG_EXPIRY
    base = max(now, expires_at) if expires_at is not None else now
    return add_months(base, months + bonus_months)


def daily_price(level: Level, plan: DataPlan, now: datetime) -> DailyPrice | None:
    """The level's daily price for a device with this data plan (see the module's comment); None
    for a free level, whose time is worth nothing."""
    terms = [o for o in level.options if not is_lifelong_term(o.months)]
    preferred = sorted(terms, key=lambda o: (o.months != REFERENCE_MONTHS, o is not level.headline))
    for option in preferred:
        cents = price_option(option, plan, now).list_cents
        if cents > 0:
            return DailyPrice(cents, option.months)
    return None


def converted_days(remaining: timedelta, current: DailyPrice, new: DailyPrice) -> int:
    """remaining x current daily price / new daily price, in whole days rounded down."""
    seconds = remaining // timedelta(seconds=1)
    return (seconds * current.cents * new.months) // (current.months * new.cents * int(DAY.total_seconds()))


def change_level(before: ServiceState, level_id: int, months: int, bonus_months: int, catalogue: Sequence[Level],
                 plan: DataPlan, now: datetime) -> LevelChange:
    """What buying `months` (and `bonus_months`) of level `level_id` at `now` gives a device with
    this data plan whose service is `before`; `catalogue` holds the levels of the device's type,
    which value the current level and the new one."""
    expires_at, same_level = before.expires_at, before.level_id == level_id
    if expires_at is not None and is_lifelong(expires_at):
        if same_level:
            raise LifelongService(N_("This device already has lifelong service at this level"))
        if not is_lifelong_term(months):
            raise LifelongService()
    if is_lifelong_term(months):
        return LevelChange(before, level_id, LIFELONG_EXPIRY, ChangeKind.LIFELONG)
    if same_level:
        return LevelChange(before, level_id, extended_expiry(expires_at, now, months, bonus_months),
                           ChangeKind.EXTENDED)
    term = months + bonus_months
    remaining = expires_at - now if expires_at is not None and expires_at > now else timedelta(0)
    if not remaining:
        return LevelChange(before, level_id, add_months(now, term), ChangeKind.STARTS_NOW)
    levels = {lv.id: lv for lv in catalogue}
    if before.level_id is not None and before.level_id not in levels:
        raise CurrentLevelNotValued()
    current = daily_price(levels[before.level_id], plan, now) if before.level_id is not None else None
    if current is None:
        return LevelChange(before, level_id, add_months(now, term), ChangeKind.FROM_FREE, remaining)
    if level_id not in levels:
        raise LevelNotOffered()
    new = daily_price(levels[level_id], plan, now)
    if new is None:  # no priced term: the order's own free-level check refuses it first
        raise FreeLevelNotOrderable()
    # A dear level converted into a very cheap one could run past any calendar: the converted
    # time stops short of the lifelong date.
    days = min(converted_days(remaining, current, new), (LIFELONG_FROM - now) // DAY - 1)
    return LevelChange(before, level_id, add_months(now + days * DAY, term), ChangeKind.CONVERTED, remaining, days)
