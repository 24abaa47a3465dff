"""The rule of a change of level (core/pricing/level_change.py): its properties over any prices,
terms and remainders, and the choices its scenarios (features/pricing/level_changes.feature) do
not spell out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from core.devices.expiry import LIFELONG_EXPIRY, LIFELONG_FROM
from core.devices.model import add_months
from core.pricing.level_change import (
    DAY,
    ChangeKind,
    DailyPrice,
    ServiceState,
    change_level,
    converted_days,
    daily_price,
    extended_expiry,
)
from core.pricing.model import ActivityOffer, Level, YearOption
from core.pricing.rules import DataPlan
from core.shared.errors import CurrentLevelNotValued, FreeLevelNotOrderable, LevelNotOffered, LifelongService

NOW = datetime(2030, 3, 1, 2, 0, tzinfo=UTC)
NO_PLAN = DataPlan(has_sim=False, plan_active=False)
FREE, BASIC, PRO = 1, 2, 3


def level(level_id: int, *options: tuple[int, int], data_fee: int = 0) -> Level:
    return Level(level_id, 1, f"level {level_id}", None, tuple(
        YearOption(level_id * 10 + i, level_id, months, cents, "CNY", data_fee)
        for i, (months, cents) in enumerate(options)))


CATALOGUE = (level(FREE, (12, 0)), level(BASIC, (12, 9900), (24, 18800)), level(PRO, (12, 19900), (1200, 99900)))
PRICES = st.builds(DailyPrice, st.integers(1, 10**9), st.integers(1, 1199))
REMAINING = st.builds(timedelta, seconds=st.integers(0, 80 * 365 * 86400))


@given(REMAINING, PRICES, PRICES)
def test_the_remainder_keeps_its_value_less_than_one_day_of_the_new_level(remaining, current, new):
    days = converted_days(remaining, current, new)
    # in cents x months x seconds, so that no division rounds: value(days) <= value(remaining) < value(days + 1)
    value = (remaining // timedelta(seconds=1)) * current.cents * new.months
    assert days * 86400 * new.cents * current.months <= value < (days + 1) * 86400 * new.cents * current.months


@given(REMAINING, PRICES, PRICES)
def test_converting_there_and_back_never_gains_time(remaining, current, new):
    there = converted_days(remaining, current, new)
    assume(there < 10**8)  # within what a timedelta holds
    assert converted_days(there * DAY, new, current) * DAY <= remaining


@given(REMAINING, PRICES)
def test_a_level_of_the_same_price_converts_day_for_day(remaining, price):
    assert converted_days(remaining, price, price) == remaining // DAY


@given(st.integers(1, 5000), st.sampled_from([12, 24, 36]), st.integers(0, 6))
def test_another_level_starts_from_now_plus_the_converted_days(days_left, months, bonus):
    change = change_level(ServiceState(BASIC, NOW + days_left * DAY), PRO, months, bonus, CATALOGUE, NO_PLAN, NOW)
    assert change.kind is ChangeKind.CONVERTED and change.remaining_days == days_left
    assert change.converted_days == days_left * 9900 // 19900
    assert change.expires_at == add_months(NOW + change.converted_days * DAY, months + bonus)


@given(st.one_of(st.none(), st.builds(lambda d: NOW + d * DAY, st.integers(-900, 900))), st.integers(1, 36),
       st.integers(0, 3))
def test_the_same_level_is_the_plain_extension(expires_at, months, bonus):
    change = change_level(ServiceState(BASIC, expires_at), BASIC, months, bonus, CATALOGUE, NO_PLAN, NOW)
    assert (change.kind, change.expires_at) == (ChangeKind.EXTENDED, extended_expiry(expires_at, NOW, months, bonus))


def test_the_reference_option_is_the_12_month_one_wherever_it_stands_and_before_any_discount():
    offer = ActivityOffer(1, NOW - DAY, NOW + DAY, discount=50, bonus_months=6)
    discounted = Level(BASIC, 1, "b", None, (YearOption(21, BASIC, 24, 18800, "CNY", discount=95),
                                              YearOption(22, BASIC, 12, 9900, "CNY", discount=80, activity=offer)))
    assert daily_price(discounted, NO_PLAN, NOW) == DailyPrice(9900, 12)


def test_a_lifelong_headline_gives_way_to_the_first_option_with_a_term():
    assert daily_price(level(7, (1200, 90000), (36, 27000), (6, 5000)), NO_PLAN, NOW) == DailyPrice(27000, 36)
    assert daily_price(level(7, (1200, 90000)), NO_PLAN, NOW) is None


def test_the_data_fee_counts_only_with_an_active_data_plan():
    with_fee = level(BASIC, (12, 9900), data_fee=1000)
    assert daily_price(with_fee, DataPlan(True, True), NOW) == DailyPrice(10900, 12)
    assert daily_price(with_fee, DataPlan(True, False), NOW) == DailyPrice(9900, 12)
    assert daily_price(level(8, (12, 0), data_fee=500), DataPlan(True, True), NOW) == DailyPrice(500, 12)


def test_an_expiry_exactly_now_leaves_nothing_to_convert():
    change = change_level(ServiceState(PRO, NOW), BASIC, 12, 0, CATALOGUE, NO_PLAN, NOW)
    assert (change.kind, change.remaining, change.expires_at) == (ChangeKind.STARTS_NOW, timedelta(0),
                                                                  add_months(NOW, 12))


def test_a_second_left_is_converted_into_nothing_rather_than_a_day():
    change = change_level(ServiceState(BASIC, NOW + timedelta(seconds=1)), PRO, 12, 0, CATALOGUE, NO_PLAN, NOW)
    assert (change.kind, change.remaining_days, change.converted_days) == (ChangeKind.CONVERTED, 0, 0)


@pytest.mark.parametrize("before", [ServiceState(FREE, NOW + 90 * DAY), ServiceState(None, NOW + 90 * DAY)])
def test_the_time_left_on_a_free_level_or_none_is_worth_nothing(before):
    change = change_level(before, PRO, 12, 2, CATALOGUE, NO_PLAN, NOW)
    assert (change.kind, change.remaining_days, change.converted_days) == (ChangeKind.FROM_FREE, 90, 0)
    assert change.expires_at == add_months(NOW, 14)


@pytest.mark.parametrize("before,level_id,months,refusal", [
    (ServiceState(PRO, LIFELONG_EXPIRY), BASIC, 12, LifelongService),
    (ServiceState(PRO, LIFELONG_EXPIRY), PRO, 12, LifelongService),
    (ServiceState(PRO, LIFELONG_EXPIRY), PRO, 1200, LifelongService),
    (ServiceState(99, NOW + DAY), BASIC, 12, CurrentLevelNotValued),  # a level the catalogue no longer holds
    (ServiceState(BASIC, NOW + DAY), 98, 12, LevelNotOffered),  # nor the one bought: nothing to value it at
    (ServiceState(BASIC, NOW + DAY), FREE, 12, FreeLevelNotOrderable),
])
def test_what_the_rule_refuses(before, level_id, months, refusal):
    with pytest.raises(refusal):
        change_level(before, level_id, months, 0, CATALOGUE, NO_PLAN, NOW)


def test_a_lifelong_device_may_move_to_another_level_for_life():
    change = change_level(ServiceState(BASIC, LIFELONG_EXPIRY), PRO, 1200, 0, CATALOGUE, NO_PLAN, NOW)
    assert (change.kind, change.level_id, change.expires_at) == (ChangeKind.LIFELONG, PRO, LIFELONG_EXPIRY)


def test_an_expired_service_needs_no_price_of_its_level():
    change = change_level(ServiceState(99, NOW - DAY), BASIC, 12, 0, CATALOGUE, NO_PLAN, NOW)
    assert (change.kind, change.expires_at) == (ChangeKind.STARTS_NOW, add_months(NOW, 12))


def test_converted_time_stops_short_of_the_lifelong_date():
    catalogue = (level(BASIC, (12, 1)), level(PRO, (12, 10**9)))
    change = change_level(ServiceState(PRO, NOW + 3650 * DAY), BASIC, 12, 0, catalogue, NO_PLAN, NOW)
    assert change.kind is ChangeKind.CONVERTED and NOW + change.converted_days * DAY < LIFELONG_FROM
