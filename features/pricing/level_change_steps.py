"""Steps of features/pricing/level_changes.feature: the rule of a change of level, stepped by
calling the core directly (no database, no HTTP). Imported by features/conftest.py."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from pytest_bdd import given, parsers, then, when

from core.devices.expiry import LIFELONG_EXPIRY
from core.pricing.level_change import ChangeKind, ServiceState, change_level, daily_price
from core.pricing.model import Level, YearOption
from core.pricing.rules import DataPlan
from core.shared.errors import DomainError

SHANGHAI = ZoneInfo("Asia/Shanghai")
WITHDRAWN_LEVEL = 99  # a level id the catalogue does not hold
SIMS = {  # (SIM card, jcIccidStatus)
    "no SIM": (None, 0),
    "a SIM without an active data plan": ("89860012345678900003", 2),
    "a SIM with an active data plan": ("89860012345678900001", 1),
}


def _instant(day: str) -> datetime:
    """A date of the scenarios: 10:00 in Shanghai; 'for life' is lifelong service."""
    return LIFELONG_EXPIRY if day == "for life" else datetime.fromisoformat(f"{day}T10:00:00+08:00")


def _day(instant: datetime) -> str:
    return instant.astimezone(SHANGHAI).date().isoformat()


def _level_id(world, name: str) -> int | None:
    if name == "no level":
        return None
    if name == "a withdrawn level":
        return WITHDRAWN_LEVEL
    return next(level.id for level in world["catalogue"] if level.name == name)


@given("the levels of the device's type:")
def _catalogue(world, datatable):
    header, *rows = datatable
    by_level: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        values = dict(zip(header, row, strict=True))
        by_level.setdefault(values["level"], []).append(values)
    world["catalogue"] = [
        Level(id=level_id, package_id=1, name=name, description=None, options=tuple(
            YearOption(id=level_id * 10 + k, level_id=level_id, months=int(o["months"]),
                       service_fee_cents=int(o["listed"]), currency="CNY", data_fee_cents=int(o["data fee"]))
            for k, o in enumerate(options)))
        for level_id, (name, options) in enumerate(by_level.items(), start=1)]


@given(parsers.parse("today is {day}"))
def _today(world, day):
    world["today"] = _instant(day)


@then(parsers.parse("the daily price of {level} for a device with {sim} is {cents:d} cents for {months:d} months"))
def _daily_price(world, level, sim, cents, months):
    found = next(lv for lv in world["catalogue"] if lv.name == level)
    price = daily_price(found, DataPlan.of(*SIMS[sim]), world["today"])
    assert (price.cents, price.months) == (cents, months), price


@then("a free level has no daily price")
def _free_daily_price(world):
    free = next(lv for lv in world["catalogue"] if lv.name == "Free")
    assert daily_price(free, DataPlan.of(None, 0), world["today"]) is None


@given(parsers.re(r"a device with (?P<sim>.+?) on (?P<level>.+) until (?P<day>for life|\d{4}-\d\d-\d\d)"))
def _device(world, sim, level, day):
    world["device"] = (ServiceState(_level_id(world, level), _instant(day)), DataPlan.of(*SIMS[sim]))


@when(parsers.parse("it buys {months:d} months of {level} with {bonus:d} bonus months"))
def _buys(world, months, level, bonus):
    service, plan = world["device"]
    try:
        world["change"] = change_level(service, _level_id(world, level), months, bonus, world["catalogue"], plan,
                                       world["today"])
    except DomainError as error:
        world["change"], world["refusal"] = None, error


@then(parsers.parse("its {remaining:d} remaining days of {current} become {converted:d} days of {level}"))
def _converted(world, remaining, current, converted, level):
    change = world["change"]
    assert change.kind is ChangeKind.CONVERTED, change
    assert (change.remaining_days, change.converted_days) == (remaining, converted), change
    assert (change.before.level_id, change.level_id) == (_level_id(world, current), _level_id(world, level))


@then("its term is extended, nothing converted")
def _extended(world):
    change = world["change"]
    assert (change.kind, change.converted_days) == (ChangeKind.EXTENDED, 0), change


@then("its term starts today: nothing is left")
def _starts_today(world):
    change = world["change"]
    assert (change.kind, change.remaining_days, change.converted_days) == (ChangeKind.STARTS_NOW, 0, 0), change


@then(parsers.parse("its term starts today: {days:d} days of {level} are worth nothing"))
def _starts_today_from_free(world, days, level):
    change = world["change"]
    assert (change.kind, change.remaining_days, change.converted_days) == (ChangeKind.FROM_FREE, days, 0), change
    assert change.before.level_id == _level_id(world, level)


@then(parsers.re(r"it is on (?P<level>\S+) until (?P<day>\d{4}-\d\d-\d\d)"))
def _on_until(world, level, day):
    change = world["change"]
    assert change is not None, world.get("refusal")
    assert (change.level_id, _day(change.expires_at)) == (_level_id(world, level), day), change


@then(parsers.parse("it is on {level} for life"))
def _for_life(world, level):
    change = world["change"]
    assert (change.kind, change.level_id, change.expires_at) == (ChangeKind.LIFELONG, _level_id(world, level),
                                                                 LIFELONG_EXPIRY), change


@then(parsers.parse('the purchase is refused with code {code:d}: "{message}"'))
def _refused(world, code, message):
    assert world["change"] is None
    assert (world["refusal"].code, world["refusal"].message) == (code, message)
