from __future__ import annotations

from dataclasses import dataclass

from core.shared.money import Money


@dataclass(frozen=True)
class OperatorCounts:
    """How the whole installation stands, for the operator home: every customer's account and
    device, and today's orders. Revenue is the money of orders paid today and not refunded, one
    Money per currency (the editions' price lists are never added together)."""

    customers: int
    devices: int
    online: int
    alarm: int
    orders_today: int
    paid_today: int
    revenue_today: tuple[Money, ...]
