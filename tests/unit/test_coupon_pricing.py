"""A coupon never produces a negative or an increased price, nor a free one (core.vouchers.model),
for any order total, coupon and currency; percentages round in the payer's favour to what the
currency shows. Codes and secrets are random and readable."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.shared.money import shown_unit
from core.vouchers import errors as ve
from core.vouchers.model import (
    ALPHABET,
    MAX_AMOUNT_CENTS,
    Coupon,
    CouponKind,
    CouponTerms,
    Validity,
    VoucherState,
    coupon_discount,
    normalized_code,
    quote_coupon,
    random_code,
    secret_digest,
    secret_matches,
)

CURRENCIES = st.sampled_from(["CNY", "USD", "EUR"])
NOW = datetime(2026, 5, 1, tzinfo=UTC)


def _total(currency: str, units: int) -> int:
    return units * shown_unit(currency)  # an order's total is always in what its currency shows


@given(units=st.integers(min_value=0, max_value=10**9), amount=st.integers(min_value=-10, max_value=MAX_AMOUNT_CENTS),
       currency=CURRENCIES)
def test_an_amount_coupon_never_raises_frees_or_negates_a_price(units, amount, currency):
    total = _total(currency, units)
    discount = coupon_discount(total, CouponTerms(CouponKind.AMOUNT, amount, currency))
    if discount is None:
        return
    payable = total - discount
    assert 0 <= discount <= amount and shown_unit(currency) <= payable <= total
    assert payable % shown_unit(currency) == 0  # the amount charged is one the console can show


def _rounded_price(total: int, percent: int, currency: str) -> int:
    """The price after `percent` off as charged (core.shared.money): to the cent half up where
    cents are shown (51 % off one cent leaves nothing), cut down to a whole unit where they are not."""
    exact, unit = Fraction(total * (100 - percent), 100), shown_unit(currency)
    return math.floor(exact + Fraction(1, 2)) if unit == 1 else math.floor(exact / unit) * unit


@given(units=st.integers(min_value=0, max_value=10**9), percent=st.integers(min_value=-5, max_value=105),
       currency=CURRENCIES)
def test_a_percentage_coupon_never_raises_frees_or_negates_a_price(units, percent, currency):
    total = _total(currency, units)
    discount = coupon_discount(total, CouponTerms(CouponKind.PERCENT, percent, currency))
    if discount is None:
        assert not 1 <= percent <= 99 or total == 0 or _rounded_price(total, percent, currency) < shown_unit(currency)
        return
    payable = total - discount
    assert 1 <= percent <= 99 and discount >= 0 and shown_unit(currency) <= payable <= total
    assert payable % shown_unit(currency) == 0
    assert payable <= total * (100 - percent) / 100 + 0.5  # never more than the exact price (rounded half up)


@given(units=st.integers(min_value=1, max_value=10**6))
def test_a_coupon_worth_the_whole_order_is_refused(units):
    total = _total("USD", units)
    assert coupon_discount(total, CouponTerms(CouponKind.AMOUNT, total, "USD")) is None
    assert coupon_discount(total, CouponTerms(CouponKind.AMOUNT, total - 1, "USD")) in (total - 1, None)


def _coupon(**changes) -> Coupon:
    values = dict(id=1, code="CPAAAA", batch_id=1, terms=CouponTerms(CouponKind.AMOUNT, 500, "CNY"),
                  validity=Validity(NOW - timedelta(days=1), NOW + timedelta(days=1)), enabled=True,
                  state=VoucherState.UNUSED)
    return Coupon(**{**values, **changes})


@pytest.mark.parametrize("coupon,error", [
    (None, ve.CouponNotFound), (_coupon(enabled=False), ve.CouponNotValid),
    (_coupon(validity=Validity(NOW + timedelta(days=1), NOW + timedelta(days=2))), ve.CouponNotValid),
    (_coupon(validity=Validity(NOW - timedelta(days=2), NOW)), ve.CouponNotValid),  # the end is excluded
    (_coupon(state=VoucherState.USED), ve.CouponUsed), (_coupon(state=VoucherState.RESERVED), ve.CouponReserved),
    (_coupon(terms=CouponTerms(CouponKind.AMOUNT, 500, "USD")), ve.CouponCurrency),
    (_coupon(terms=CouponTerms(CouponKind.AMOUNT, 10_000, "CNY")), ve.CouponTooLarge),
])
def test_what_refuses_a_coupon(coupon, error):
    with pytest.raises(error):
        quote_coupon(coupon, 10_000, "CNY", NOW)


def test_a_coupon_held_by_the_callers_own_unpaid_order_may_move_to_a_new_one():
    quote = quote_coupon(_coupon(state=VoucherState.RESERVED), 10_000, "CNY", NOW, held_by_caller=True)
    assert (quote.discount_cents, quote.payable_cents) == (500, 9_500)


def test_codes_are_drawn_from_the_readable_alphabet_and_secrets_kept_as_digests():
    drawn = {random_code(14) for _ in range(2000)}
    assert len(drawn) == 2000 and all(set(code) <= set(ALPHABET) for code in drawn)
    assert not set(ALPHABET) & set("01OIL25SZB8")
    digest = secret_digest("RCAAAA", "SECRET")
    assert secret_matches("RCAAAA", "secret", digest) and not secret_matches("RCAAAB", "SECRET", digest)
    assert "SECRET" not in digest and normalized_code(" ab-cd ") == "ABCD"
