"""Money as integer cents with its currency (api-contract section 1; spec seed 000 section 9).

Never a float: prices, discounts and totals are whole cents, and a percentage is applied with
integer arithmetic, rounding half up to the cent ("total fee rounded to 2 decimals").

The amount charged is the amount shown: the console shows yuan whole and dollars to the cent, so a
price is charged in what its currency shows (`SHOWN_UNIT_CENTS`), rounded down to it in the
customer's favour. Totals are sums of such prices, so they are shown exactly too."""

from __future__ import annotations

import math
from dataclasses import dataclass

NO_DISCOUNT = 100
NOT_SHOWN = "--"
# Cents in the smallest amount the console shows of a currency (ISO 4217): domestic amounts are
# whole units, international ones keep two decimals. Another currency is shown to the cent.
SHOWN_UNIT_CENTS = {"CNY": 100, "USD": 1}


def shown_unit(currency: str) -> int:
    return SHOWN_UNIT_CENTS.get(currency, 1)


@dataclass(frozen=True, order=True)
class Money:
    cents: int
    currency: str

    def __post_init__(self) -> None:
        if not isinstance(self.cents, int) or isinstance(self.cents, bool):
            raise TypeError("money is a whole number of cents")

    def __add__(self, other: Money) -> Money:
        if other.currency != self.currency:
            raise ValueError(f"cannot add {other.currency} to {self.currency}")
        return Money(self.cents + other.cents, self.currency)

    def times(self, count: int) -> Money:
        return Money(self.cents * count, self.currency)

    def discounted(self, percent: int) -> Money:
        """What a customer pays for this listed price at `percent`: the price every quote, order,
        provider request and invoice carries (see `charged_cents`)."""
        return Money(charged_cents(self.cents, percent, self.currency), self.currency)


def apply_discount(cents: int, percent: int) -> int:
    """`percent` of `cents` (80 is 20 % off, 100 is none), rounded half up to a cent. A value
    outside 1..100 is a catalogue error, refused rather than allowed to raise a price."""
    return (cents * _percentage(percent) + 50) // 100


def charged_cents(cents: int, percent: int, currency: str) -> int:
    """`percent` of `cents` in what `currency` shows: to the cent, rounded half up, for a currency
    shown to the cent (USD); for one shown in whole units (CNY) the exact amount cut down to a whole
    unit, never rounded up (99.995 yuan is 99 yuan, not 100)."""
    unit = shown_unit(currency)
    if unit == 1:
        return apply_discount(cents, percent)
    return cents * _percentage(percent) // (100 * unit) * unit


def _percentage(percent: int) -> int:
    if not 1 <= percent <= NO_DISCOUNT:
        raise ValueError(f"a discount is 1..100 percent, not {percent}")
    return percent


def display_amount(cents: object, currency: str) -> str:
    """An amount as the console shows it: CNY in whole yuan (truncated, never rounded up), USD
    (and any other currency) with two decimals; '--' for 0 or anything not a number."""
    if isinstance(cents, bool) or not isinstance(cents, int | float) or not math.isfinite(cents) or int(cents) == 0:
        return NOT_SHOWN
    whole_cents = int(cents)
    units, rest = divmod(abs(whole_cents), 100)
    if shown_unit(currency) == 100:
        return f"{'-' if whole_cents < 0 and units else ''}{units}"
    return f"{'-' if whole_cents < 0 else ''}{units}.{rest:02d}"
