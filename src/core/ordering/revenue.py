"""What the recharge statistics are made of (core.ordering.statistics computes them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class Granularity(StrEnum):
    DAY = "day"
    WEEK = "week"  # Monday to Sunday
    MONTH = "month"


MAX_PERIODS = 400  # a year and a month of days; eight years of weeks; decades of months


@dataclass(frozen=True)
class Period:
    start: datetime  # inclusive, aware
    end: datetime  # exclusive


@dataclass(frozen=True)
class Figures:
    """Money in cents of one currency: what was paid (orders paid in the period) and paid back
    (refunds that succeeded in it)."""

    paid_cents: int = 0
    orders: int = 0
    refunded_cents: int = 0
    refunds: int = 0

    @property
    def net_cents(self) -> int:
        return self.paid_cents - self.refunded_cents


@dataclass(frozen=True)
class DeviceCounts:
    new: int  # added in the range
    renewed: int  # given service by an order paid in the range (distinct devices)
    expired: int  # whose service ran out in the range


@dataclass(frozen=True)
class RechargeStatistics:
    currency: str
    periods: list[tuple[Period, Figures]]
    total: Figures
    by_pay_type: dict[int, Figures]
    by_level: dict[int, Figures]  # service orders' revenue by the level bought (refunds not split by level)
    devices: DeviceCounts
    by_camp: dict[int, Figures] = field(default_factory=dict)  # by the white-label platform's camp
