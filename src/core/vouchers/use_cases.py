"""Issuing, listing, exporting and disabling batches of coupons and recharge cards (operators), and
a customer's use of them: a coupon's price on an order (the order itself reserves it: core.ordering),
a card redeemed for a device, the coupons and cards they used."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol

from core.devices.model import in_service
from core.ordering.model import Order, OrderKind, OrderLine, PayStatus, new_order_code
from core.ordering.settlement import credit_devices
from core.pricing.level_change import change_level
from core.pricing.quotes import SERVICE_NODE, plan_of, visible_devices
from core.shared.clock import Clock
from core.shared.edition import Edition, PayType
from core.shared.errors import InvalidInput, NotFound
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest
from core.shared.text import has_refused_characters
from core.vouchers import errors as ve
from core.vouchers.model import (
    CARD_LOCK,
    CARD_NUMBER_LENGTH,
    CODE_LENGTH,
    MAX_AMOUNT_CENTS,
    MAX_BATCH,
    MAX_CARD_FAILURES,
    MAX_MONTHS,
    REMARK_MAX,
    SECRET_LENGTH,
    BatchStatus,
    Card,
    CardBatch,
    Coupon,
    CouponBatch,
    CouponKind,
    CouponQuote,
    CouponTerms,
    NewCard,
    Validity,
    VoucherState,
    normalized_code,
    quote_coupon,
    random_code,
    secret_digest,
    secret_matches,
)
from core.vouchers.ports import VouchersUnitOfWork

PREFIX = re.compile(r"^[A-Z0-9]{0,2}$")
_DRAWS = 5  # a collision of 65-bit codes is all but impossible: drawn again a few times at most


class Sheet(Protocol):
    def render(self, headers: list[str], rows: Iterator[list[object]]) -> bytes: ...


@dataclass(frozen=True)
class NewCouponBatch:
    prefix: str
    count: int
    kind: CouponKind
    value: int
    starts_at: datetime
    ends_at: datetime
    remark: str
    activity_id: int | None = None


@dataclass(frozen=True)
class NewCardBatch:
    prefix: str
    count: int
    level_id: int
    months: int
    starts_at: datetime
    ends_at: datetime
    remark: str = ""
    activity_id: int | None = None


def _check_common(prefix: str, count: int, starts_at: datetime, ends_at: datetime, remark: str,
                  remark_required: bool) -> None:
    problems: dict[str, str] = {}
    if not PREFIX.match(prefix):
        problems["prefix"] = N_("Up to 2 capital letters or digits")
    if not 1 <= count <= MAX_BATCH:
        problems["count"] = N_("From 1 to 10,000")
    if ends_at <= starts_at:
        problems["endTime"] = N_("The end must be after the start")
    if remark_required and not remark.strip():
        problems["remark"] = N_("Required")
    elif len(remark) > REMARK_MAX or has_refused_characters(remark, symbols=True):
        problems["remark"] = N_("Up to 200 characters, without emoji or control characters")
    if problems:
        raise InvalidInput.of(problems)


def _check_activity(uow: VouchersUnitOfWork, activity_id: int | None) -> None:
    if activity_id is not None and uow.vouchers.activity_name(activity_id) is None:
        raise ve.ActivityNotFound()


def _fresh(draw: Callable[[], str], count: int, taken: Callable[[list[str]], set[str]]) -> list[str]:
    """`count` distinct values of `draw` none of which is stored yet."""
    for _ in range(_DRAWS):
        values = list(dict.fromkeys(draw() for _ in range(count)))
        if len(values) == count and not taken(values):
            return values
    raise RuntimeError("could not draw unique codes")  # pragma: no cover - 2^65 codes


class CreateCouponBatch:
    def __init__(self, uow: VouchersUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._currency = uow, clock, edition.profile.currency

    def __call__(self, new: NewCouponBatch) -> CouponBatch:
        _check_common(new.prefix, new.count, new.starts_at, new.ends_at, new.remark, True)
        if new.kind is CouponKind.PERCENT and not 1 <= new.value <= 99:
            raise InvalidInput("amount", N_("A percentage off from 1 to 99"))
        if new.kind is CouponKind.AMOUNT and not 1 <= new.value <= MAX_AMOUNT_CENTS:
            raise InvalidInput("amount", N_("An amount from 0.01 to 10,000,000"))
        if new.kind is CouponKind.AMOUNT and self._currency == "CNY" and new.value % 100:
            raise InvalidInput("amount", N_("Whole yuan"))  # the console shows and charges whole yuan
        batch = CouponBatch(None, new.prefix, new.count, CouponTerms(new.kind, new.value, self._currency),
                            Validity(new.starts_at, new.ends_at), new.remark.strip(), new.activity_id,
                            created_at=self._clock.now())
        with self._uow as uow:
            _check_activity(uow, new.activity_id)
            codes = _fresh(lambda: new.prefix + random_code(CODE_LENGTH), new.count, uow.vouchers.codes_taken)
            batch = uow.vouchers.add_coupon_batch(batch, codes)
            uow.commit()
        return replace(batch, unused=new.count)


class ListCouponBatches:
    def __init__(self, uow: VouchersUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, request: PageRequest) -> Page[CouponBatch]:
        with self._uow as uow:
            return uow.vouchers.coupon_batches(request)


class ListCoupons:
    def __init__(self, uow: VouchersUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, batch_id: int, state: VoucherState | None, request: PageRequest) -> Page[Coupon]:
        with self._uow as uow:
            if uow.vouchers.coupon_batch(batch_id) is None:
                raise NotFound()
            return uow.vouchers.coupons(batch_id, state, request)


class UpdateCouponBatch:
    """Enable or disable a batch (a disabled batch's unused codes are refused; a code already
    reserved by an order stays with it), and change its remark."""

    def __init__(self, uow: VouchersUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, batch_id: int, status: BatchStatus, remark: str | None) -> CouponBatch:
        if remark is not None:
            _check_common("", 1, datetime.min, datetime.max, remark, True)
        with self._uow as uow:
            if not uow.vouchers.update_coupon_batch(batch_id, status, remark.strip() if remark else None):
                raise NotFound()
            uow.commit()
            batch = uow.vouchers.coupon_batch(batch_id)
        assert batch is not None
        return batch


class ExportCoupons:
    def __init__(self, uow: VouchersUnitOfWork, sheet: Sheet) -> None:
        self._uow, self._sheet = uow, sheet

    def __call__(self, batch_id: int, headers: list[str], row: Callable[[Coupon], list[object]]) -> bytes:
        with self._uow as uow:
            if uow.vouchers.coupon_batch(batch_id) is None:
                raise NotFound()
            return self._sheet.render(headers, (row(c) for c in uow.vouchers.every_coupon(batch_id)))


class CheckCoupon:
    """What a coupon takes off an order of the caller's (the paying drawer shows it before the
    order is placed; placing the order prices it again and reserves it)."""

    def __init__(self, uow: VouchersUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._currency = uow, clock, edition.profile.currency

    def __call__(self, account_id: int, code: str, total_cents: int) -> CouponQuote:
        with self._uow as uow:
            coupon = uow.coupons.by_code(normalized_code(code))
            held = False
            if coupon is not None and coupon.state is VoucherState.RESERVED and coupon.order_id is not None:
                holder = uow.orders.get(coupon.order_id)
                held = holder is not None and holder.account_id == account_id and holder.status is PayStatus.UNPAID
            return quote_coupon(coupon, total_cents, self._currency, self._clock.now(), held)


class MyCoupons:
    def __init__(self, uow: VouchersUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, request: PageRequest) -> Page[Coupon]:
        with self._uow as uow:
            return uow.vouchers.coupons_of(account_id, request)


# --- recharge cards ---------------------------------------------------------------------------------


class CreateCardBatch:
    """Cards with their secrets: the secrets are answered this once (and only their digests kept)."""

    def __init__(self, uow: VouchersUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, new: NewCardBatch) -> tuple[CardBatch, list[NewCard]]:
        _check_common(new.prefix, new.count, new.starts_at, new.ends_at, new.remark, False)
        if not 1 <= new.months <= MAX_MONTHS:
            raise InvalidInput("timeLength", N_("From 1 to 1200 months"))
        with self._uow as uow:
            _check_activity(uow, new.activity_id)
            level_name = uow.vouchers.level_name(new.level_id)
            if level_name is None:
                raise ve.LevelNotFound()
            numbers = _fresh(lambda: new.prefix + random_code(CARD_NUMBER_LENGTH), new.count,
                             uow.vouchers.card_numbers_taken)
            cards = [NewCard(number, random_code(SECRET_LENGTH)) for number in numbers]
            batch = uow.vouchers.add_card_batch(
                CardBatch(None, new.prefix, new.count, new.level_id, new.months, Validity(new.starts_at, new.ends_at),
                          new.remark.strip(), new.activity_id, level_name, created_at=self._clock.now()),
                [(c.card_number, secret_digest(c.card_number, c.secret)) for c in cards])
            uow.commit()
        return replace(batch, unused=new.count), cards


class ListCardBatches:
    def __init__(self, uow: VouchersUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, request: PageRequest) -> Page[CardBatch]:
        with self._uow as uow:
            return uow.vouchers.card_batches(request)


class ListCards:
    def __init__(self, uow: VouchersUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, batch_id: int, state: VoucherState | None, request: PageRequest) -> Page[Card]:
        with self._uow as uow:
            if uow.vouchers.card_batch(batch_id) is None:
                raise NotFound()
            return uow.vouchers.cards(batch_id, state, request)


class UpdateCardBatch:
    def __init__(self, uow: VouchersUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, batch_id: int, status: BatchStatus, remark: str | None) -> CardBatch:
        if remark is not None:
            _check_common("", 1, datetime.min, datetime.max, remark, False)
        with self._uow as uow:
            if not uow.vouchers.update_card_batch(batch_id, status, remark.strip() if remark is not None else None):
                raise NotFound()
            uow.commit()
            batch = uow.vouchers.card_batch(batch_id)
        assert batch is not None
        return batch


class ExportCards:
    """A batch's cards with their state and use; never a secret (only digests are kept)."""

    def __init__(self, uow: VouchersUnitOfWork, sheet: Sheet) -> None:
        self._uow, self._sheet = uow, sheet

    def __call__(self, batch_id: int, headers: list[str], row: Callable[[Card], list[object]]) -> bytes:
        with self._uow as uow:
            if uow.vouchers.card_batch(batch_id) is None:
                raise NotFound()
            return self._sheet.render(headers, (row(c) for c in uow.vouchers.every_card(batch_id)))


class RedeemCard:
    """A customer redeems a card for a device they may recharge: the device gets the card's level
    for its months exactly as a paid order would give it (core.ordering.settlement), recorded as a
    paid order of pay type "recharge card" with fee 0. Once: the card's unused -> used write is
    conditional, so of two concurrent redemptions one wins and the other changes nothing. A wrong
    number or secret is refused alike; five wrong tries lock the number for 15 minutes."""

    def __init__(self, uow: VouchersUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._currency = uow, clock, edition.profile.currency

    def __call__(self, account_id: int, device_id: int, card_number: str, secret: str) -> Order:
        number = normalized_code(card_number)
        now = self._clock.now()
        with self._uow as uow:
            # The device first: one the caller may not recharge is refused before any card is tried.
            device = visible_devices(uow, account_id, [device_id], operate=True)[0]
            in_service([device])
            locked_until = uow.vouchers.card_locked_until(number)
            if locked_until is not None and locked_until > now:
                raise ve.CardLocked(minutes=max(1, -(-int((locked_until - now).total_seconds()) // 60)))
            card = uow.vouchers.card_by_number(number)
            if card is None or not secret_matches(number, secret, card.secret_digest):
                locked = uow.vouchers.card_failed(number, now, MAX_CARD_FAILURES, now + CARD_LOCK)
                uow.commit()  # the wrong try counts, whatever happens next
                if locked:
                    raise ve.CardLocked(minutes=int(CARD_LOCK.total_seconds() // 60))
                raise ve.CardRefused()
            if card.state is VoucherState.USED:
                raise ve.CardUsed()
            if not card.enabled or not card.validity.holds(now):
                raise ve.CardNotValid()
            levels = uow.catalogue.levels_for_type(device.type_id, account_id, now, self._currency)
            level = next((lv for lv in levels if lv.id == card.level_id), None)
            if device.node_type != SERVICE_NODE or level is None:
                raise ve.CardNotForDevice()
            serviced = uow.device_service.services_for_update([device_id]).get(device_id)
            if serviced is None:
                raise NotFound()
            change = change_level(serviced.service, level.id, card.months, 0, levels, plan_of(device), now)
            order = uow.orders.add(Order(
                id=None, code=new_order_code(now), account_id=account_id, kind=OrderKind.SERVICE,
                pay_type=PayType.RECHARGE_CARD, currency=self._currency, order_fee_cents=0, apply_flag=False,
                description=level.name, created_at=now, status=PayStatus.PAID, pay_fee_cents=0, paid_at=now,
                lines=(OrderLine(device_id=device_id, fee_cents=0, level_id=level.id, months=card.months,
                                 promise=change),)))
            if not uow.vouchers.use_card(card.id, account_id, device_id, order.stored_id, now):
                raise ve.CardUsed()  # a concurrent redemption won: this transaction is rolled back whole
            credit_devices(uow, order, now)
            uow.vouchers.card_attempts_cleared(number)
            uow.commit()
            stored = uow.orders.get(order.stored_id)
        assert stored is not None
        return stored


class MyCards:
    def __init__(self, uow: VouchersUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, request: PageRequest) -> Page[Card]:
        with self._uow as uow:
            return uow.vouchers.cards_of(account_id, request)


class ListVoucherReferences:
    """The levels and activities a batch may name (the operator's choices)."""

    def __init__(self, uow: VouchersUnitOfWork) -> None:
        self._uow = uow

    def __call__(self) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
        with self._uow as uow:
            return uow.vouchers.references()
