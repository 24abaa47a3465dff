"""Coupons and prepaid recharge cards (spec seed 001 sections 3-5; issue 18).

A coupon takes an amount (cents) or a percentage off one order; it is reserved by the unpaid order
that carries it (a database-enforced conditional write: of two orders racing for one coupon, one
wins), spent when that order is paid, and released when the order closes unpaid. A recharge card
gives a device a level for some months, as a paid order would, once; its secret is kept only as a
digest.

Rules this module decides (and the README of the API says):
- a coupon never takes a price below one shown unit: a coupon that would make the order free (or
  negative) is refused (2049) rather than applied, since no provider takes a payment of 0 and a
  free order would skip the payment that spends it; the operator issues a card for free service;
- a percentage is of the order's total, rounded down to what the currency shows (in the payer's
  favour, never raising the price): 1..99 percent off;
- one coupon per order; a coupon is of one currency (the edition's when it was issued);
- a batch holds at most MAX_BATCH (10,000) codes or cards."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import IntEnum

from core.shared.money import charged_cents, shown_unit

# Unambiguous characters only (no 0/O, 1/I/L, 2/Z, 5/S, 8/B): a code read aloud or from paper is
# typed right. 25 symbols: 14 of them are 65 bits of randomness from `secrets`.
ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"
CODE_LENGTH = 14  # coupon codes, after the prefix
CARD_NUMBER_LENGTH = 12  # card numbers, after the prefix
SECRET_LENGTH = 16  # card secrets: 74 bits
PREFIX_MAX = 2
REMARK_MAX = 200
MAX_BATCH = 10_000
MAX_AMOUNT_CENTS = 10**9  # ten million units: far above any order
MAX_MONTHS = 1200  # 1200 months or more is lifelong (pricing.rules)
MAX_CARD_FAILURES = 5  # wrong tries of a card number before it is locked
CARD_LOCK = timedelta(minutes=15)


class CouponKind(IntEnum):
    AMOUNT = 1  # value: cents off
    PERCENT = 2  # value: percent off (1..99)


class VoucherState(IntEnum):
    UNUSED = 1
    RESERVED = 2  # held by an unpaid order (coupons only)
    USED = 3


class BatchStatus(IntEnum):
    DISABLED = 0
    ENABLED = 1


def random_code(length: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalized_code(text: str) -> str:
    """What a customer typed, as stored: spaces and dashes dropped, upper case."""
    return "".join(ch for ch in text.upper() if ch not in " -\t")


def secret_digest(card_number: str, secret: str) -> str:
    """The stored form of a card's secret: SHA-256 of the secret salted with its card number. A
    secret has 74 bits of randomness, so its digest cannot be reversed by trying secrets (a slow
    password hash is for guessable secrets; ten thousand cards are issued in one request)."""
    return hashlib.sha256(f"{card_number}:{normalized_code(secret)}".encode()).hexdigest()


def secret_matches(card_number: str, secret: str, digest: str) -> bool:
    return hmac.compare_digest(secret_digest(card_number, secret), digest)


@dataclass(frozen=True)
class CouponTerms:
    kind: CouponKind
    value: int  # cents, or percent off
    currency: str


def coupon_discount(total_cents: int, terms: CouponTerms) -> int | None:
    """What the coupon takes off `total_cents` (in the terms' currency); None when it would leave
    less than one shown unit to pay (refused: see the module's rules). Never more than the total,
    never negative: the price paid is total - discount, in what the currency shows."""
    if total_cents <= 0:
        return None
    unit = shown_unit(terms.currency)
    if terms.kind is CouponKind.PERCENT:
        if not 1 <= terms.value <= 99:
            return None
        payable = charged_cents(total_cents, 100 - terms.value, terms.currency)
    else:
        if terms.value <= 0:
            return None
        payable = total_cents - terms.value // unit * unit
    if payable < unit or payable > total_cents:
        return None
    return total_cents - payable


@dataclass(frozen=True)
class Validity:
    starts_at: datetime
    ends_at: datetime

    def holds(self, now: datetime) -> bool:
        return self.starts_at <= now < self.ends_at


@dataclass(frozen=True)
class CouponBatch:
    id: int | None
    prefix: str
    count: int
    terms: CouponTerms
    validity: Validity
    remark: str
    activity_id: int | None = None
    activity_name: str | None = None
    status: BatchStatus = BatchStatus.ENABLED
    created_at: datetime | None = None
    unused: int = 0
    reserved: int = 0
    used: int = 0


@dataclass(frozen=True)
class Coupon:
    """One code, with its batch's terms."""

    id: int
    code: str
    batch_id: int
    terms: CouponTerms
    validity: Validity
    enabled: bool
    state: VoucherState
    order_id: int | None = None  # the order holding (reserved) or having used it
    account_id: int | None = None
    account_name: str | None = None
    order_code: str | None = None
    reserved_at: datetime | None = None
    used_at: datetime | None = None


@dataclass(frozen=True)
class CardBatch:
    id: int | None
    prefix: str
    count: int
    level_id: int
    months: int
    validity: Validity
    remark: str
    activity_id: int | None = None
    level_name: str | None = None
    activity_name: str | None = None
    status: BatchStatus = BatchStatus.ENABLED
    created_at: datetime | None = None
    unused: int = 0
    used: int = 0


@dataclass(frozen=True)
class Card:
    id: int
    card_number: str
    batch_id: int
    level_id: int
    months: int
    validity: Validity
    enabled: bool
    state: VoucherState
    secret_digest: str = ""
    level_name: str | None = None
    account_id: int | None = None
    account_name: str | None = None
    device_id: int | None = None
    device_name: str | None = None
    order_id: int | None = None
    order_code: str | None = None
    used_at: datetime | None = None


@dataclass(frozen=True)
class NewCard:
    card_number: str
    secret: str  # shown once, never stored


@dataclass(frozen=True)
class CouponQuote:
    code: str
    terms: CouponTerms
    total_cents: int
    discount_cents: int

    @property
    def payable_cents(self) -> int:
        return self.total_cents - self.discount_cents


def quote_coupon(coupon: Coupon | None, total_cents: int, currency: str, now: datetime,
                 held_by_caller: bool = False) -> CouponQuote:
    """What the coupon takes off an order of `total_cents`, or why it cannot be used on it now.
    `held_by_caller`: it is reserved by the caller's own unpaid order, which a new order in the
    paying drawer replaces (the coupon moves to the new order)."""
    from core.vouchers import errors as ve

    if coupon is None:
        raise ve.CouponNotFound()
    if not coupon.enabled or not coupon.validity.holds(now):
        raise ve.CouponNotValid()
    if coupon.state is VoucherState.USED:
        raise ve.CouponUsed()
    if coupon.state is VoucherState.RESERVED and not held_by_caller:
        raise ve.CouponReserved()
    if coupon.terms.currency != currency:
        raise ve.CouponCurrency()
    discount = coupon_discount(total_cents, coupon.terms)
    if discount is None:
        raise ve.CouponTooLarge()
    return CouponQuote(coupon.code, coupon.terms, total_cents, discount)
