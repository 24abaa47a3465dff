"""Properties of the money arithmetic (spec seed 000 section 9, api-contract sections 1 and 5):
integer cents only, totals that are sums, discounts that never raise a price, prices charged in
what their currency shows (so shown is charged), amounts shown as an independent Decimal
formatting would show them, and the discount precedence."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from core.pricing.model import ActivityOffer, AlertKind, AlertPackage, YearOption
from core.pricing.rules import (
    DataPlan,
    alert_package_discount,
    alert_package_price,
    discount_badge,
    effective_discount,
    price_option,
)
from core.shared.edition import Edition
from core.shared.money import NO_DISCOUNT, NOT_SHOWN, Money, apply_discount, charged_cents, display_amount

CURRENCIES = st.sampled_from(["CNY", "USD"])
CENTS = st.integers(min_value=0, max_value=10**12)
ANY_CENTS = st.integers(min_value=-(10**12), max_value=10**12)
PERCENT = st.integers(min_value=1, max_value=100)
DEVICES = st.integers(min_value=0, max_value=500)
NOW = datetime(2026, 11, 11, 2, 0, tzinfo=UTC)


def money(currency: str = "CNY") -> st.SearchStrategy[Money]:
    return ANY_CENTS.map(lambda cents: Money(cents, currency))


# --- no float anywhere -------------------------------------------------------------------------


@given(st.floats(allow_nan=True, allow_infinity=True), CURRENCIES)
def test_money_refuses_any_float_even_a_whole_one(value, currency):
    with pytest.raises(TypeError):
        Money(value, currency)


@given(st.one_of(st.booleans(), st.decimals(allow_nan=False), st.text(max_size=5), st.none()), CURRENCIES)
def test_money_refuses_anything_but_an_int(value, currency):
    with pytest.raises(TypeError):
        Money(value, currency)


@given(CENTS, PERCENT, st.integers(min_value=1, max_value=300))
def test_every_figure_of_a_price_stays_an_int(cents, percent, count):
    charged = Money(cents, "CNY").discounted(percent).times(count)
    assert type(charged.cents) is int
    assert type(apply_discount(cents, percent)) is int


# --- totals are sums ---------------------------------------------------------------------------


@given(money(), money(), money())
def test_addition_is_associative_and_commutative(a, b, c):
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a
    assert (a + b).cents == a.cents + b.cents


@given(st.lists(ANY_CENTS, max_size=30), CURRENCIES)
def test_a_total_is_the_sum_of_its_parts(parts, currency):
    total = Money(0, currency)
    for cents in parts:
        total = total + Money(cents, currency)
    assert total == Money(sum(parts), currency)


@given(money(), DEVICES)
def test_times_is_repeated_addition(price, count):
    repeated = Money(0, price.currency)
    for _ in range(count):
        repeated = repeated + price
    assert price.times(count) == repeated


@given(money(), money(), DEVICES)
def test_times_distributes_over_addition(a, b, count):
    assert (a + b).times(count) == a.times(count) + b.times(count)


@given(money("CNY"), money("USD"))
def test_currencies_are_never_mixed(yuan, dollars):
    with pytest.raises(ValueError):
        yuan + dollars
    with pytest.raises(ValueError):
        dollars + yuan


# --- discounts ---------------------------------------------------------------------------------


@given(CENTS, PERCENT)
def test_a_discount_never_raises_a_price(cents, percent):
    assert 0 <= apply_discount(cents, percent) <= cents


@given(CENTS)
def test_no_discount_leaves_the_price(cents):
    assert apply_discount(cents, NO_DISCOUNT) == cents
    assert Money(cents, "USD").discounted(NO_DISCOUNT) == Money(cents, "USD")


@given(CENTS, PERCENT)
def test_a_discount_is_rounded_half_up_to_the_cent(cents, percent):
    exact = Decimal(cents) * percent / 100
    assert apply_discount(cents, percent) == int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    assert abs(apply_discount(cents, percent) - exact) <= Decimal("0.5")


@given(CENTS, PERCENT, PERCENT)
def test_a_larger_percentage_never_costs_less(cents, p, q):
    low, high = sorted((p, q))
    assert apply_discount(cents, low) <= apply_discount(cents, high)


@given(CENTS, CENTS, PERCENT)
def test_a_dearer_listing_never_costs_less(a, b, percent):
    low, high = sorted((a, b))
    assert apply_discount(low, percent) <= apply_discount(high, percent)


@given(CENTS, st.one_of(st.integers(max_value=0), st.integers(min_value=101)))
def test_a_percentage_outside_1_to_100_is_refused(cents, percent):
    with pytest.raises(ValueError):
        apply_discount(cents, percent)


# --- charged as shown ---------------------------------------------------------------------------


@given(CENTS, PERCENT)
def test_a_yuan_price_is_the_exact_amount_cut_down_to_a_whole_yuan(cents, percent):
    exact = Decimal(cents) * percent / 100
    charged = charged_cents(cents, percent, "CNY")
    assert charged % 100 == 0 and charged <= exact < charged + 100
    assert charged == int((exact / 100).to_integral_value(rounding=ROUND_DOWN)) * 100
    assert charged <= apply_discount(cents, percent)  # never more than the cent rule: in the customer's favour


@given(CENTS, PERCENT)
def test_a_dollar_price_is_rounded_half_up_to_the_cent(cents, percent):
    assert charged_cents(cents, percent, "USD") == apply_discount(cents, percent)
    assert Money(cents, "USD").discounted(percent) == Money(apply_discount(cents, percent), "USD")


@given(CENTS, PERCENT, CURRENCIES, st.integers(min_value=1, max_value=200))
def test_what_is_charged_is_exactly_what_is_shown(cents, percent, currency, count):
    price = Money(cents, currency).discounted(percent)
    for charged in (price, price.times(count)):
        assume(charged.cents != 0)
        assert Decimal(display_amount(charged.cents, currency)) * 100 == charged.cents


@given(CENTS, PERCENT, PERCENT, CURRENCIES)
def test_a_larger_percentage_never_costs_less_in_any_currency(cents, p, q, currency):
    low, high = sorted((p, q))
    assert charged_cents(cents, low, currency) <= charged_cents(cents, high, currency) <= cents


@given(CENTS, st.one_of(st.integers(max_value=0), st.integers(min_value=101)), CURRENCIES)
def test_a_percentage_outside_1_to_100_is_refused_in_any_currency(cents, percent, currency):
    with pytest.raises(ValueError):
        charged_cents(cents, percent, currency)


# --- display per currency ----------------------------------------------------------------------


def _independent_display(cents: int, currency: str) -> str:
    if cents == 0:
        return "--"
    units = Decimal(cents).scaleb(-2)
    if currency == "CNY":
        return f"{units.quantize(Decimal(1), rounding=ROUND_DOWN):f}"
    return f"{units.quantize(Decimal('0.01')):f}"


@given(CENTS)
def test_yuan_are_shown_whole_truncated(cents):
    assert display_amount(cents, "CNY") == _independent_display(cents, "CNY")


@given(CENTS)
def test_dollars_keep_two_decimals(cents):
    assert display_amount(cents, "USD") == _independent_display(cents, "USD")


@given(st.integers(min_value=-(10**12), max_value=-100), CURRENCIES)
def test_a_negative_amount_keeps_its_sign(cents, currency):
    assert display_amount(cents, currency) == _independent_display(cents, currency)


@given(CURRENCIES)
def test_zero_is_not_shown(currency):
    assert display_amount(0, currency) == NOT_SHOWN


@given(st.one_of(st.none(), st.text(max_size=8), st.booleans(), st.lists(st.integers(), max_size=2),
                 st.sampled_from([float("nan"), float("inf"), float("-inf")])),
       CURRENCIES)
def test_anything_but_a_number_is_not_shown(value, currency):
    assert display_amount(value, currency) == NOT_SHOWN


@given(CENTS, CURRENCIES)
def test_the_display_never_shows_more_than_the_amount(cents, currency):
    assume(cents != 0)
    assert Decimal(display_amount(cents, currency)) * 100 <= cents


# --- discount precedence -----------------------------------------------------------------------


@given(st.one_of(st.none(), PERCENT), st.one_of(st.none(), PERCENT), st.booleans())
def test_without_an_activity_in_force_the_normal_discount_applies(normal, activity, voice):
    expected = normal if normal is not None else NO_DISCOUNT
    assert effective_discount(normal, None, ignore_full_activity_discount=voice) == expected
    assert effective_discount(normal, activity, activity_in_force=False,
                              ignore_full_activity_discount=voice) == expected


@given(st.one_of(st.none(), PERCENT), PERCENT)
def test_an_activity_in_force_takes_precedence(normal, activity):
    assert effective_discount(normal, activity) == activity


@given(st.one_of(st.none(), PERCENT), st.integers(min_value=1, max_value=99))
def test_voice_keeps_an_activity_discount_below_100(normal, activity):
    assert effective_discount(normal, activity, ignore_full_activity_discount=True) == activity


@given(st.one_of(st.none(), PERCENT))
def test_voice_ignores_an_activity_discount_of_100(normal):
    expected = normal if normal is not None else NO_DISCOUNT
    assert effective_discount(normal, NO_DISCOUNT, ignore_full_activity_discount=True) == expected
    assert effective_discount(normal, NO_DISCOUNT) == NO_DISCOUNT  # an SMS package does not


@given(st.one_of(st.none(), PERCENT), st.one_of(st.none(), PERCENT), st.booleans(), st.booleans())
def test_the_discount_charged_is_always_a_percentage(normal, activity, in_force, voice):
    assert 1 <= effective_discount(normal, activity, activity_in_force=in_force,
                                   ignore_full_activity_discount=voice) <= NO_DISCOUNT


# --- a year option and an SMS or voice package, priced --------------------------------------------


@st.composite
def year_options(draw):
    activity = None
    if draw(st.booleans()):
        start = NOW + timedelta(days=draw(st.integers(min_value=-60, max_value=60)))
        activity = ActivityOffer(activity_id=1, starts_at=start,
                                 ends_at=start + timedelta(days=draw(st.integers(min_value=0, max_value=90))),
                                 discount=draw(PERCENT), bonus_months=draw(st.integers(min_value=0, max_value=12)))
    return YearOption(id=1, level_id=1, months=draw(st.sampled_from([1, 6, 12, 24, 36, 1200])),
                      service_fee_cents=draw(CENTS), currency=draw(CURRENCIES),
                      data_fee_cents=draw(st.integers(min_value=0, max_value=10**6)), discount=draw(PERCENT),
                      activity=activity)


@given(year_options(), st.booleans(), st.booleans(), DEVICES)
def test_a_year_option_is_priced_by_the_rules(option, has_sim, plan_active, count):
    price = price_option(option, DataPlan.of("8986" if has_sim else None, 1 if plan_active else 2), NOW)
    in_force = option.activity is not None and option.activity.in_force(NOW)
    listed = option.service_fee_cents + (option.data_fee_cents if has_sim and plan_active else 0)
    assert price.list_cents == listed
    assert price.discount == (option.activity.discount if in_force else option.discount)
    assert price.bonus_months == (option.activity.bonus_months if in_force else 0)
    assert price.per_device_cents == charged_cents(listed, price.discount, option.currency) <= listed
    assert price.total_cents(count) == price.per_device.times(count).cents
    assert price.per_device.currency == option.currency


@given(st.sampled_from(list(AlertKind)), CENTS, PERCENT, st.one_of(st.none(), PERCENT), CURRENCIES)
def test_an_sms_or_voice_package_never_costs_more_than_listed(kind, fee, normal, activity, currency):
    package = AlertPackage(id=1, kind=kind, country_code="86", name="p", fee_cents=fee, currency=currency,
                           count=100, discount=normal, activity_discount=activity)
    assert alert_package_price(package) == charged_cents(fee, alert_package_discount(package), currency) <= fee
    if activity is None or (kind is AlertKind.VOICE and activity == NO_DISCOUNT):
        assert alert_package_discount(package) == normal
    else:
        assert alert_package_discount(package) == activity


# --- badges ------------------------------------------------------------------------------------


@given(st.integers(min_value=1, max_value=99))
def test_the_badge_reads_the_discount_per_edition(discount):
    tenths = (Decimal(discount) / 10).normalize()
    assert discount_badge(discount, Edition.DOMESTIC) == f"{tenths:f}折"
    assert discount_badge(discount, Edition.INTERNATIONAL) == f"{100 - discount}% OFF"


@given(st.sampled_from(list(Edition)))
def test_no_badge_without_a_discount(edition):
    assert discount_badge(NO_DISCOUNT, edition) is None
