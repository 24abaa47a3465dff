"""Steps of features/ordering/level_changes.feature: what the quote says each device will have,
what the order promises and what the device gets, through the HTTP API on the demo data.
Imported by features/conftest.py; the steps of features/ordering/steps.py serve too."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import parse_qsl, urlsplit

from features.ordering.steps import (
    DEVICES,
    USER,
    Console,
    _console,
    _device_id,
    _info,
    _names,
    _ok,
    _option,
    _place_service,
    _service_body,
    _years,
    as_written,
)
from pytest_bdd import given, parsers, then, when
from sqlalchemy import select, update

from adapters.persistence import models as m
from core.devices.expiry import LIFELONG_EXPIRY

DAY = r"(?P<day>\d{4}-\d\d-\d\d)"


def _instant(day: str) -> datetime:
    """The scenarios' instants are at 10:00 in Shanghai; 2099-12-31 is lifelong service."""
    return LIFELONG_EXPIRY if day == "2099-12-31" else datetime.fromisoformat(f"{day}T10:00:00+08:00")


def _level_id(console: Console, name: str) -> int:
    with console.container.session_factory()() as session:
        return session.scalars(select(m.ServiceLevelRow.id).where(m.ServiceLevelRow.level_name == name)).one()


def _row(header: list[str], row: list[str]) -> dict[str, str]:
    return dict(zip(header, row, strict=True))


@given(parsers.parse("the console's clock reads {day} 10:00 in Shanghai"))
def _clock_reads(clock, day):
    """Before the demo data, which is laid out around the clock's instant."""
    clock.advance(seconds=(_instant(day) - clock.now()).total_seconds())


@given(parsers.re(r'"(?P<device>[^"]+)" is on (?P<level>\S+) until ' + DAY))
def _device_is_on(api, container, clock, world, device, level, day):
    console = _console(world, api, container, clock)
    with console.container.session_factory()() as session:
        session.execute(update(m.DeviceRow).where(m.DeviceRow.device_name == device).values(
            level_id=_level_id(console, level), service_expires_at=_instant(day)))
        session.commit()


@when(parsers.re(USER + r" asks what (?P<level>\S+) for (?P<months>\d+) months gives " + DEVICES))
def _asks_quote(api, container, clock, world, user, level, months, devices):
    console = _console(world, api, container, clock)
    level_id, package_id, option_id, _ = _option(console, level, int(months))
    body = {"deviceIdList": [_device_id(console, name) for name in _names(devices)], "levelId": level_id,
            "levelYearId": option_id, "servicePackageId": package_id}
    reply = console.api.call("POST", "/payment/PayOrder/selectBatchQuote", token=world["tokens"][user], json=body)
    world["replies"].append(reply)
    world["quote"] = reply.data


def _quote_row(console: Console, quote: dict) -> dict[str, str]:
    """A device's quote as the scenarios' tables say it."""
    with console.container.session_factory()() as session:
        device = session.scalar(select(m.DeviceRow.device_name).where(m.DeviceRow.id == quote["deviceId"]))
    written = {"console": console}
    return {"device": device, "change": quote["changeKind"], "from": as_written(quote["currentLevelName"], written),
            "expiry": quote["currentExpiredDate"], "remaining": str(quote["remainingDays"]),
            "converted": str(quote["convertedDays"]), "level": as_written(quote["levelName"], written),
            "until": quote["serviceExpiredDate"], "price": str(quote["totalFee"])}


@then(parsers.re(r'the quote for "(?P<device>[^"]+)" says (?P<change>\w+): (?P<current>\S+) until (?P<expiry>\S+), '
                 r"(?P<remaining>\d+) days become (?P<converted>\d+), then (?P<level>\S+) until " + DAY
                 + r", for (?P<price>\d+) cents"))
def _quote_says(api, container, clock, world, device, change, current, expiry, remaining, converted, level, day,
                price):
    console = _console(world, api, container, clock)
    _ok(world["replies"][-1])
    [shown] = [_quote_row(console, q) for q in world["quote"]]
    assert shown == {"device": device, "change": change, "from": current, "expiry": expiry, "remaining": remaining,
                     "converted": converted, "level": level, "until": day, "price": price}, shown


@then("the quote reads:")
def _quote_reads(api, container, clock, world, datatable):
    console = _console(world, api, container, clock)
    header, *rows = datatable
    _ok(world["replies"][-1])
    assert [_quote_row(console, q) for q in world["quote"]] == [_row(header, row) for row in rows]


@then(parsers.re(r'the order promises "(?P<device>[^"]+)" (?P<level>\S+) until ' + DAY))
def _order_promises(api, container, clock, world, device, level, day):
    console = _console(world, api, container, clock)
    order = _ok(world["replies"][-1])
    [promise] = [c for c in order["levelChanges"] if c["deviceId"] == _device_id(console, device)]
    assert (as_written(promise["levelName"], world), promise["serviceExpiredDate"]) == (level, day), promise


@then(parsers.re(r'"(?P<device>[^"]+)" is on (?P<level>\S+) until ' + DAY))
def _is_on_until(api, container, clock, world, device, level, day):
    console = _console(world, api, container, clock)
    info = _info(console, world, "alice", device)
    assert (as_written(info["levelName"], world), info["serviceExpiredDate"]) == (level, day), info


@then(parsers.parse('"{device}" has what the order promised'))
def _has_promised(api, container, clock, world, device):
    console = _console(world, api, container, clock)
    [promise] = [c for c in world["order"]["levelChanges"] if c["deviceId"] == _device_id(console, device)]
    info = _info(console, world, "alice", device)
    assert (as_written(info["levelName"], world), info["serviceExpiredDate"]) == (
        as_written(promise["levelName"], world), promise["serviceExpiredDate"])


def _settled_line(console: Console, order_id: int, device: str) -> m.OrderLineRow:
    with console.container.session_factory()() as session:
        return session.scalars(select(m.OrderLineRow).where(
            m.OrderLineRow.order_id == order_id, m.OrderLineRow.device_id == _device_id(console, device))).one()


def _got(console: Console, order_id: int, device: str, level: str, day: str, recomputed: bool) -> None:
    line = _settled_line(console, order_id, device)
    assert line.level_id == _level_id(console, level)
    assert (line.settled_expires_at, line.recomputed) == (_instant(day), recomputed)
    if not recomputed:
        assert line.settled_expires_at == line.promised_expires_at


@then(parsers.re(r'the order says "(?P<device>[^"]+)" got (?P<level>\S+) until ' + DAY + " as promised"))
def _order_says(api, container, clock, world, device, level, day):
    _got(_console(world, api, container, clock), world["order"]["orderId"], device, level, day, False)


@given(parsers.re(USER + r" has ordered (?P<level>\S+) for (?P<months>\d+) months for " + DEVICES
                  + r', as "(?P<name>[^"]+)"'))
def _has_ordered(api, container, clock, world, user, level, months, devices, name):
    console = _console(world, api, container, clock)
    names = _names(devices)
    option_id = _option(console, level, int(months))[2]
    shown = next(y["price"] for y in _years(console, world, user, names[0], level) if y["id"] == option_id)
    _place_service(console, world, user, names,
                   _service_body(console, world, user, level, int(months), names, shown * len(names), "WeChat"))
    world.setdefault("named", {})[name] = _ok(world["replies"][-1])


@given(parsers.re(r'"(?P<name>[^"]+)" promises "(?P<device>[^"]+)" (?P<level>\S+) until ' + DAY))
def _named_promises(api, container, clock, world, name, device, level, day):
    console = _console(world, api, container, clock)
    [promise] = [c for c in world["named"][name]["levelChanges"] if c["deviceId"] == _device_id(console, device)]
    assert (as_written(promise["levelName"], world), promise["serviceExpiredDate"]) == (level, day), promise


@when(parsers.parse('"{name}" is paid'))
def _named_paid(api, container, clock, world, name):
    console = _console(world, api, container, clock)
    link = urlsplit(world["named"][name]["payQrCode"])
    assert _ok(console.api.call("GET", link.path.removeprefix("/api"), query=dict(parse_qsl(link.query))))


@then(parsers.re(r'"(?P<name>[^"]+)" says "(?P<device>[^"]+)" got (?P<level>\S+) until ' + DAY
                 + r"(?P<how>, computed anew| as promised)"))
def _named_says(api, container, clock, world, name, device, level, day, how):
    _got(_console(world, api, container, clock), world["named"][name]["orderId"], device, level, day,
         how == ", computed anew")
