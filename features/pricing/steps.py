"""Steps of features/pricing/*.feature: the pricing rules of the recharge drawers, stepped by
calling the core directly (no database, no HTTP). Imported by features/conftest.py."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

import pytest
from pytest_bdd import given, parsers, then, when

from core.pricing.model import ActivityOffer, AlertKind, AlertPackage, Level, YearOption
from core.pricing.rules import (
    ButtonKind,
    DataPlan,
    alert_package_price,
    button_kind,
    discount_badge,
    duration_text,
    is_free,
    is_lifelong_term,
    item_detail,
    low_stock,
    price_option,
    shows_lifelong,
)
from core.shared.edition import Edition
from core.shared.money import Money, apply_discount, display_amount

NOW = datetime.fromisoformat("2026-11-11T10:00:00+08:00")
EDITIONS = {"domestic": Edition.DOMESTIC, "international": Edition.INTERNATIONAL}
SIMS = {  # how a device's SIM reads in the scenarios: (SIM card, jcIccidStatus)
    "no SIM": (None, 0),
    "a SIM without an active data plan": ("89860012345678900003", 2),
    "a SIM with an active data plan": ("89860012345678900001", 1),
}
SIM_CHOICES = "|".join(SIMS)
BUTTONS = {"on order": ButtonKind.ON_ORDER, "buy traffic": ButtonKind.BUY_TRAFFIC, "renew": ButtonKind.RENEW,
           "buy": ButtonKind.BUY}
NOT_AMOUNTS = {"a missing amount": None, "a value that is no number": float("nan"),
               "an endless value": float("inf"), "a yes-or-no value": True}
ACTIVITY_TIMES = {  # when the activity runs, relative to now: (starts, ends)
    "in force": (timedelta(days=-10), timedelta(days=20)),
    "starting right now": (timedelta(0), timedelta(days=20)),
    "that ended yesterday": (timedelta(days=-30), timedelta(days=-1)),
    "starting tomorrow": (timedelta(days=1), timedelta(days=30)),
    "ending right now": (timedelta(days=-10), timedelta(0)),
}
THIS_LEVEL, ANOTHER_LEVEL = 2, 1


def _plan(sim: str) -> DataPlan:
    return DataPlan.of(*SIMS[sim])


# --- amounts ---------------------------------------------------------------------------------


@when(parsers.parse("{cents:d} cents in {currency} are shown"))
def _cents_shown(world, cents, currency):
    world["shown"] = display_amount(cents, currency)


@when(parsers.parse("{something} is shown as a price in {currency}"))
def _something_shown(world, something, currency):
    value = NOT_AMOUNTS[something] if something in NOT_AMOUNTS else something.removeprefix("the text ").strip('"')
    world["shown"] = display_amount(value, currency)


@then(parsers.parse('the price reads "{shown}"'))
def _price_reads(world, shown):
    assert world["shown"] == shown, world["shown"]


@given(parsers.parse("the price list is in {currency}"))
def _price_list(world, currency):
    world["currency"] = currency


@then(parsers.parse('the price reads "{shown}" on the console'))
def _option_price_reads(world, shown):
    price = world["price"]
    assert display_amount(price.per_device_cents, price.currency) == shown
    assert Decimal(shown) * 100 == price.per_device_cents  # nothing cut off: what is shown is charged


@then(parsers.parse('the total reads "{shown}" on the console'))
def _total_reads(world, shown):
    price = world["price"]
    total = price.total_cents(world["devices"])
    assert display_amount(total, price.currency) == shown and Decimal(shown) * 100 == total


@then(parsers.parse('the package\'s price reads "{shown}" on the console'))
def _package_price_reads(world, shown):
    package = world["package"]
    cents = alert_package_price(package)
    assert display_amount(cents, package.currency) == shown and Decimal(shown) * 100 == cents


# --- year options and activities --------------------------------------------------------------


@given(parsers.parse("a year option of {months:d} months listed at {cents:d} cents with a normal discount of "
                     "{discount:d}"))
def _year_option(world, months, cents, discount):
    world["option"] = YearOption(id=11, level_id=THIS_LEVEL, months=months, service_fee_cents=cents,
                                 currency=world["currency"], discount=discount)


@given(parsers.parse("the year option adds a data fee of {cents:d} cents"))
def _data_fee(world, cents):
    world["option"] = YearOption(**{**world["option"].__dict__, "data_fee_cents": cents})


@given("no activity")
def _no_activity(world):
    assert world["option"].activity is None


@given(parsers.re(r"an activity (?P<when>" + "|".join(ACTIVITY_TIMES) + r") offering (?P<discount>\d+) percent "
                  r"and (?P<bonus>\d+) bonus months"))
def _activity(world, when, discount, bonus):
    starts, ends = ACTIVITY_TIMES[when]
    offer = ActivityOffer(activity_id=7, starts_at=NOW + starts, ends_at=NOW + ends, discount=int(discount),
                          bonus_months=int(bonus))
    world["option"] = YearOption(**{**world["option"].__dict__, "activity": offer})


@when(parsers.re(r"the year option is priced for a device with (?P<sim>" + SIM_CHOICES + ")"))
def _priced_with(world, sim):
    world["price"] = price_option(world["option"], _plan(sim), NOW)


@when("the year option is priced for a device without a SIM")
def _priced(world):
    world["price"] = price_option(world["option"], _plan("no SIM"), NOW)


@when(parsers.parse("the year option is priced for {count:d} devices without a SIM"))
def _priced_for_devices(world, count):
    world["price"] = price_option(world["option"], _plan("no SIM"), NOW)
    world["devices"] = count


@then(parsers.parse("the device is charged {percent:d} percent of the listed price"))
def _charged_percent(world, percent):
    assert world["price"].discount == percent, world["price"]
    assert world["price"].discounted is (percent != 100)


@then(parsers.parse("one device pays {cents:d} cents"))
def _one_device_pays(world, cents):
    assert world["price"].per_device_cents == cents, world["price"]


@then(parsers.parse("the order gives {months:d} bonus months"))
def _bonus(world, months):
    assert world["price"].bonus_months == months, world["price"]


@then(parsers.parse("the order costs {cents:d} cents"))
def _order_costs(world, cents):
    price = world["price"]
    assert price.total_cents(world["devices"]) == cents
    assert price.per_device.times(world["devices"]) == Money(cents, world["currency"])


# --- badges ----------------------------------------------------------------------------------


@when(parsers.parse("a discount of {discount:d} percent is shown on the {edition} console"))
def _badge_shown(world, discount, edition):
    world["badge"] = discount_badge(discount, EDITIONS[edition])


@then(parsers.parse('the badge reads "{badge}"'))
def _badge_reads(world, badge):
    assert world["badge"] == badge, world["badge"]


@then("no badge is shown")
def _no_badge(world):
    assert world["badge"] is None, world["badge"]


# --- levels and buttons ----------------------------------------------------------------------


@given(parsers.parse("a level whose first year option has a service fee of {service:d} cents and a data fee of "
                     "{data:d} cents"))
def _level(world, service, data):
    currency = world["currency"]
    headline = YearOption(id=21, level_id=THIS_LEVEL, months=12, service_fee_cents=service, currency=currency,
                          data_fee_cents=data)
    later = YearOption(id=22, level_id=THIS_LEVEL, months=24, service_fee_cents=99900,  # never the card's price
                       currency=currency)
    world["level"] = Level(id=THIS_LEVEL, package_id=1, name="Level", description=None, options=(headline, later))
    world["current_level"] = ANOTHER_LEVEL


@given("a level without any year option")
def _empty_level(world):
    world["level"] = Level(id=THIS_LEVEL, package_id=1, name="Level", description=None, options=())
    world["current_level"] = ANOTHER_LEVEL


@given(parsers.re(r"a device with (?P<sim>" + SIM_CHOICES + ")"))
def _device_with(world, sim):
    world["plan"] = _plan(sim)


@given(parsers.re(r"the device is on (?P<which>this|another) level"))
def _device_on(world, which):
    world["current_level"] = THIS_LEVEL if which == "this" else ANOTHER_LEVEL


@then(parsers.re(r"the level is (?P<free>free|not free)"))
def _level_free(world, free):
    assert is_free(world["level"].headline, world["plan"]) is (free == "free")


@then(parsers.parse('the card\'s button reads "{button}"'))
def _button(world, button):
    shown = button_kind(world["level"], world["current_level"], world["plan"])
    assert shown is BUTTONS[button], shown


# --- durations and lifelong ------------------------------------------------------------------


@when(parsers.parse("a year option of {months:d} months is shown"))
def _duration_shown(world, months):
    world["months"] = months
    world["duration"] = duration_text(months)


def _english(text) -> str:
    return text.message.format(**text.params)


@then(parsers.parse("its duration reads {months:d} month(s)"))
def _reads_months(world, months):
    assert world["duration"].params == {"months": months}
    assert _english(world["duration"]) == f"{months} months"


@then(parsers.parse("its duration reads {years:d} year(s) and {rest:d} month(s)"))
def _reads_years(world, years, rest):
    expected = f"{years} years" + (f" {rest} months" if rest else "")
    assert _english(world["duration"]) == expected, world["duration"]


@then("its duration reads lifelong")
def _reads_lifelong(world):
    assert world["duration"].params == {} and _english(world["duration"]) == "Lifelong"


@then(parsers.re(r"the year option (?P<verb>is|is not) lifelong service"))
def _option_lifelong(world, verb):
    lifelong = verb == "is"
    assert is_lifelong_term(world["months"]) is lifelong
    assert shows_lifelong(months=world["months"]) is lifelong


@when(parsers.parse("a service expiring at {expiry} is shown"))
def _expiry_shown(world, expiry):
    world["expiry"] = datetime.fromisoformat(expiry)


@then(parsers.re(r"the expiry (?P<reads>reads|does not read) lifelong"))
def _expiry_lifelong(world, reads):
    assert shows_lifelong(expires_at=world["expiry"]) is (reads == "reads")


# --- SMS and voice packages ------------------------------------------------------------------


@given(parsers.re(r"(?P<kind>an SMS|a voice) package listed at (?P<fee>\d+) cents with a normal discount of "
                  r"(?P<normal>\d+) and (?:no activity discount|an activity discount of (?P<activity>\d+))"))
def _alert_package(world, kind, fee, normal, activity):
    world["package"] = AlertPackage(
        id=1, kind=AlertKind.SMS if kind == "an SMS" else AlertKind.VOICE, country_code="86", name="package",
        fee_cents=int(fee), currency=world["currency"], count=100, discount=int(normal),
        activity_discount=int(activity) if activity is not None else None)


@then(parsers.parse("one device pays {cents:d} cents for the package"))
def _package_price(world, cents):
    assert alert_package_price(world["package"]) == cents, alert_package_price(world["package"])


@when(parsers.re(r"a device with (?P<count>\d+) (?P<what>SMS|voice calls) left is shown"))
def _stock_shown(world, count, what):
    world["low"] = low_stock(int(count))


@then(parsers.re(r"the count shows in (?P<colour>red|green)"))
def _stock_colour(world, colour):
    assert world["low"] is (colour == "red")


# --- service items ---------------------------------------------------------------------------


@when(parsers.parse('the item {code} named "{name}" is listed'))
def _item_listed(world, code, name):
    world["item"] = item_detail(code, name)


@then(parsers.parse('the item\'s title reads "{title}"'))
def _item_title(world, title):
    assert world["item"][0] == title, world["item"]


@then(parsers.parse('the item\'s detail reads "{detail}"'))
def _item_detail(world, detail):
    assert world["item"][1] == detail, world["item"]


@then("the item has no detail")
def _item_no_detail(world):
    assert world["item"][1] is None, world["item"]


# --- cents and rounding ----------------------------------------------------------------------


@when(parsers.parse("{percent:d} percent of {cents:d} cents is charged"))
def _charge(world, percent, cents):
    try:
        world["charge"] = apply_discount(cents, percent)
    except ValueError as error:
        world["charge"] = error


@then(parsers.parse("the charge is {cents:d} cents"))
def _charge_is(world, cents):
    assert world["charge"] == cents, world["charge"]
    assert Money(world["charge"], "CNY") == Money(cents, "CNY")


@then("the discount is refused as a catalogue error")
def _catalogue_error(world):
    assert isinstance(world["charge"], ValueError)


@then(parsers.parse("a price of {cents:g} cents is refused"))
def _fraction_refused(cents):
    with pytest.raises(TypeError):
        Money(cents, "CNY")


@then(parsers.parse("a price of {a:d} cents in {currency} plus {b:d} cent in {same} is {total:d} cents in {result}"))
def _money_sum(a, currency, b, same, total, result):
    assert Money(a, currency) + Money(b, same) == Money(total, result)


@then(parsers.parse("a price in {one} cannot be added to one in {other}"))
def _currencies(one, other):
    with pytest.raises(ValueError):
        Money(100, one) + Money(100, other)
