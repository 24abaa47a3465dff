"""What ordering needs of coupons (core.ordering lists it in its unit of work): read one by code,
reserve it for an order, spend it when the order is paid, release it when the order closes unpaid.
Every write is one conditional statement, so the database decides races."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from core.vouchers.model import Coupon


class CouponLedger(Protocol):
    def by_code(self, code: str) -> Coupon | None: ...

    def reserve(self, coupon_id: int, order_id: int, account_id: int, at: datetime) -> bool:
        """Unused -> reserved by the order, in one conditional write; False when it was not
        unused any more (another order won it). An order holds at most one coupon (unique)."""
        ...

    def spend(self, order_id: int, code: str, account_id: int, at: datetime) -> bool:
        """Reserved by this order (or unused again: the order was closed, then paid all the same)
        -> used by it; False when another order holds or used it."""
        ...

    def release(self, order_id: int) -> bool:
        """Reserved by this order -> unused; False when it held none."""
        ...
