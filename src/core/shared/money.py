"""Money as integer cents (api-contract section 1; spec seed 000 section 9).

Never a float: prices, discounts and totals are whole cents, and a percentage is applied with
integer arithmetic, rounding half up to the cent ("total fee rounded to 2 decimals")."""

from __future__ import annotations

import math
from dataclasses import dataclass

from core.shared.edition import Edition

NO_DISCOUNT = 100
NOT_SHOWN = "--"


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
        return Money(apply_discount(self.cents, percent), self.currency)


def apply_discount(cents: int, percent: int) -> int:
    """`percent` of `cents` (80 is 20 % off, 100 is none), rounded half up to a cent. A value
    outside 1..100 is a catalogue error, refused rather than allowed to raise a price."""
    if not 1 <= percent <= NO_DISCOUNT:
        raise ValueError(f"a discount is 1..100 percent, not {percent}")
    return (cents * percent + 50) // 100


def display_amount(cents: object, edition: Edition) -> str:
    """An amount as the console shows it: domestic prices in whole yuan (truncated, never
    rounded up), international ones with two decimals; '--' for 0 or anything not a number."""
    if isinstance(cents, bool) or not isinstance(cents, int | float) or not math.isfinite(cents) or int(cents) == 0:
        return NOT_SHOWN
    whole_cents = int(cents)
    units, rest = divmod(abs(whole_cents), 100)
    if edition is Edition.DOMESTIC:
        return f"{'-' if whole_cents < 0 and units else ''}{units}"
    return f"{'-' if whole_cents < 0 else ''}{units}.{rest:02d}"
