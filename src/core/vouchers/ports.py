"""The vouchers' repositories and unit of work. Redeeming a card places and applies an order as a
paid one would (core.ordering.settlement), so the unit of work holds ordering's orders and device
service too."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Protocol

from core.devices.ports import DeviceRepository
from core.ordering.ports import DeviceServiceRepository, OrderRepository
from core.pricing.ports import CatalogueRepository
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction
from core.vouchers.ledger import CouponLedger
from core.vouchers.model import BatchStatus, Card, CardBatch, Coupon, CouponBatch, VoucherState


class VoucherRepository(Protocol):
    # --- coupons ---
    def add_coupon_batch(self, batch: CouponBatch, codes: Sequence[str]) -> CouponBatch:
        """Stores the batch and its codes (unique: a code already taken is drawn again by the caller)."""
        ...

    def coupon_batches(self, request: PageRequest) -> Page[CouponBatch]:
        """Newest first, each with how many of its codes are unused, reserved, used."""
        ...

    def coupon_batch(self, batch_id: int) -> CouponBatch | None: ...

    def coupons(self, batch_id: int, state: VoucherState | None, request: PageRequest) -> Page[Coupon]: ...

    def every_coupon(self, batch_id: int) -> Iterator[Coupon]: ...

    def coupons_of(self, account_id: int, request: PageRequest) -> Page[Coupon]:
        """The coupons the account has reserved or used, newest first."""
        ...

    def update_coupon_batch(self, batch_id: int, status: BatchStatus, remark: str | None) -> bool: ...

    def codes_taken(self, codes: Sequence[str]) -> set[str]: ...

    # --- cards ---
    def add_card_batch(self, batch: CardBatch, cards: Sequence[tuple[str, str]]) -> CardBatch:
        """Stores the batch and its cards, each (card number, secret digest)."""
        ...

    def card_batches(self, request: PageRequest) -> Page[CardBatch]: ...

    def card_batch(self, batch_id: int) -> CardBatch | None: ...

    def cards(self, batch_id: int, state: VoucherState | None, request: PageRequest) -> Page[Card]: ...

    def every_card(self, batch_id: int) -> Iterator[Card]: ...

    def cards_of(self, account_id: int, request: PageRequest) -> Page[Card]: ...

    def update_card_batch(self, batch_id: int, status: BatchStatus, remark: str | None) -> bool: ...

    def card_numbers_taken(self, numbers: Sequence[str]) -> set[str]: ...

    def card_by_number(self, card_number: str) -> Card | None: ...

    def use_card(self, card_id: int, account_id: int, device_id: int, order_id: int, at: datetime) -> bool:
        """Unused -> used, in one conditional write; False when it was used already (a concurrent
        redemption won)."""
        ...

    def card_locked_until(self, card_number: str) -> datetime | None: ...

    def card_failed(self, card_number: str, now: datetime, lock_after: int, lock_until: datetime) -> bool:
        """Counts one wrong try of the number (in one write); at `lock_after` tries it is locked
        until `lock_until` and the count starts again. True when it is locked now."""
        ...

    def card_attempts_cleared(self, card_number: str) -> None: ...

    # --- references ---
    def activity_name(self, activity_id: int) -> str | None: ...

    def level_name(self, level_id: int) -> str | None: ...

    def references(self) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
        """What a batch may name: every service level and every activity, each (id, name)."""
        ...


class VouchersUnitOfWork(Transaction, Protocol):
    @property
    def vouchers(self) -> VoucherRepository: ...
    @property
    def coupons(self) -> CouponLedger: ...  # a coupon as ordering reads it (checking one before an order)
    @property
    def orders(self) -> OrderRepository: ...  # a card's order (core.ordering), and who holds a coupon
    @property
    def device_service(self) -> DeviceServiceRepository: ...
    @property
    def catalogue(self) -> CatalogueRepository: ...  # the levels sold for a device's type (core.pricing)
    @property
    def device_registry(self) -> DeviceRepository: ...  # the devices the caller may recharge (core.devices)
