"""Edge cases of the pricing and settlement rules that the scenarios of features/pricing/ and
features/ordering/ do not spell out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.devices.expiry import LIFELONG_EXPIRY
from core.pricing.level_change import extended_expiry
from core.pricing.model import ActivityOffer, Level, YearOption
from core.pricing.rules import (
    ButtonKind,
    DataPlan,
    button_kind,
    discount_badge,
    duration_text,
    effective_discount,
    is_free,
    item_detail,
    price_option,
    shows_lifelong,
)
from core.shared.edition import Edition
from core.shared.money import display_amount

NOW = datetime(2026, 1, 31, 12, 0, tzinfo=UTC)


# --- display ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "yuan", "dollars"), [
    (9999.9, "99", "99.99"),  # a float from a client is cut to whole cents, never rounded up
    (100.0, "1", "1.00"),
    (0.4, "--", "--"),  # less than a cent is no amount
    (-150, "-1", "-1.50"),
    (10**12, "10000000000", "10000000000.00"),
])
def test_display_edges(value, yuan, dollars):
    assert display_amount(value, "CNY") == yuan
    assert display_amount(value, "USD") == dollars
    assert display_amount(value, "EUR") == dollars  # a currency without a rule of its own: to the cent


# --- discounts and badges ----------------------------------------------------------------------


def test_a_missing_normal_discount_is_none():
    assert effective_discount(None) == 100
    assert effective_discount(None, None, activity_in_force=True) == 100


@pytest.mark.parametrize(("discount", "badge"), [(99, "9.9折"), (10, "1折"), (1, "0.1折"), (85, "8.5折")])
def test_domestic_badges_in_tenths(discount, badge):
    assert discount_badge(discount, Edition.DOMESTIC) == badge


def test_the_activity_boundaries():
    """In force from its start (inclusive) until its end (exclusive)."""
    offer = ActivityOffer(activity_id=1, starts_at=NOW, ends_at=NOW + timedelta(days=1), discount=80, bonus_months=2)
    option = YearOption(id=1, level_id=1, months=12, service_fee_cents=10000, currency="CNY", discount=95,
                        activity=offer)
    plan = DataPlan.of(None, 0)
    assert price_option(option, plan, NOW - timedelta(seconds=1)).per_device_cents == 9500
    assert price_option(option, plan, NOW).per_device_cents == 8000
    assert price_option(option, plan, NOW + timedelta(days=1) - timedelta(seconds=1)).bonus_months == 2
    assert price_option(option, plan, NOW + timedelta(days=1)).bonus_months == 0


# --- free levels and buttons -------------------------------------------------------------------


def test_a_sim_number_without_a_plan_status_is_no_plan():
    assert DataPlan.of("", 1) == DataPlan(False, False)
    assert DataPlan.of("8986", 0) == DataPlan(True, False)
    assert DataPlan.of("8986", 1) == DataPlan(True, True)


def test_the_headline_is_the_first_year_option_only():
    """A level whose first option is free is free, whatever its later options cost."""
    options = (YearOption(id=1, level_id=5, months=12, service_fee_cents=0, currency="CNY"),
               YearOption(id=2, level_id=5, months=24, service_fee_cents=9900, currency="CNY"))
    level = Level(id=5, package_id=1, name="x", description=None, options=options)
    plan = DataPlan.of(None, 0)
    assert is_free(level.headline, plan)
    assert button_kind(level, 5, plan) is ButtonKind.ON_ORDER
    assert not is_free(options[1], plan)


# --- durations, lifelong, items ------------------------------------------------------------------


def test_durations_round_the_year():
    assert duration_text(11).params == {"months": 11}
    assert duration_text(12).params == {"years": 1}
    assert duration_text(25).params == {"years": 2, "months": 1}


def test_lifelong_from_the_first_instant_of_2099():
    assert not shows_lifelong(datetime(2098, 12, 31, 23, 59, 59, tzinfo=UTC))
    assert shows_lifelong(datetime(2099, 1, 1, tzinfo=UTC))
    assert not shows_lifelong()


@pytest.mark.parametrize("code", ["REMOTE_SETTINGS", "data_query_export", ""])
def test_only_the_four_codes_have_a_detail(code):
    assert item_detail(code, "Name (detail)") == ("Name (detail)", None)


# --- settlement arithmetic ---------------------------------------------------------------------


def test_an_extension_ends_on_the_last_day_of_a_shorter_month():
    assert extended_expiry(NOW, NOW - timedelta(days=1), 1, 0) == datetime(2026, 2, 28, 12, 0, tzinfo=UTC)
    assert extended_expiry(NOW, NOW, 12, 1) == datetime(2027, 2, 28, 12, 0, tzinfo=UTC)


def test_an_extension_starts_from_now_when_expired_or_never_set():
    later = NOW + timedelta(days=3)
    assert extended_expiry(NOW - timedelta(days=40), later, 12, 0) == datetime(2027, 2, 3, 12, 0, tzinfo=UTC)
    assert extended_expiry(None, later, 1, 2) == datetime(2026, 5, 3, 12, 0, tzinfo=UTC)


def test_lifelong_stays_lifelong():
    assert extended_expiry(NOW, NOW, 1200, 0) == LIFELONG_EXPIRY
    assert extended_expiry(LIFELONG_EXPIRY, NOW, 12, 2) == LIFELONG_EXPIRY
    assert extended_expiry(datetime(2099, 6, 1, tzinfo=UTC), NOW, 12, 0) == LIFELONG_EXPIRY
