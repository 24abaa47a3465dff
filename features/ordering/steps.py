"""Steps of features/ordering/*.feature: recharge orders through the HTTP API, as a customer on
the demo data. Imported by features/conftest.py, so the scenarios collected by
features/test_features.py find them.

Catalogue ids (levels, year options) and device ids are looked up in the database by the names
the scenarios use; prices always come from the scenario's own words, so that the server's
pricing is what is checked."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, urlsplit
from zoneinfo import ZoneInfo

from pytest_bdd import given, parsers, then, when
from sqlalchemy import select, update
from tests.support.api import ApiClient, Reply
from tests.support.demo_copy import seeded

from adapters.persistence import models as m
from core.devices.model import add_months
from core.shared.edition import Edition

PAY_TYPES = {"WeChat": 1, "Alipay": 2, "PayPal": 20, "Google Pay": 30, "the card button": 40}
METHODS = "|".join(PAY_TYPES)
DEVICES = r'(?P<devices>"[^"]+"(?:(?:, | and )"[^"]+")*)'
USER = r"(?P<user>[a-z]+)"
LIFELONG = datetime(2099, 12, 31, 23, 59, 59, tzinfo=UTC)
PAID, UNPAID = 2, 1
BUTTONS = {"on order": "onOrder", "buy traffic": "buyTraffic", "renew": "renew", "buy": "buy"}
# The features name the demo's levels as the domestic edition writes them (its default language);
# the level cards and the device's header read them in the caller's language, English here.
DEMO_LEVELS = {"Free": "免费版", "Basic": "基础版", "Professional": "专业版"}


def as_written(name: str | None, world: dict) -> str | None:
    """A level's name as the features write it: the domestic catalogue's for the domestic console."""
    console = world.get("console")
    domestic = console is None or console.container.settings().edition is Edition.DOMESTIC
    return DEMO_LEVELS.get(name, name) if name is not None and domestic else name


@dataclass
class Console:
    """The application a scenario talks to: the domestic one of the backend under test, or the
    international one."""

    api: ApiClient
    container: Any
    clock: Any


def _console(world, api, container, clock) -> Console:
    return world.get("console") or Console(api, container, clock)


def _names(text: str) -> list[str]:
    return re.findall(r'"([^"]+)"', text)


def _device_id(console: Console, name: str) -> int:
    with console.container.session_factory()() as session:
        device_id = session.scalar(select(m.DeviceRow.id).where(m.DeviceRow.device_name == name))
    assert device_id is not None, f"no demo device is named {name!r}"
    return device_id


def _sim(console: Console, name: str) -> str | None:
    with console.container.session_factory()() as session:
        return session.scalar(select(m.DeviceRow.sim_iccid).where(m.DeviceRow.device_name == name))


def _option(console: Console, level_name: str, months: int) -> tuple[int, int, int, int]:
    """(level id, package id, year option id, listed service fee) from the catalogue's price list in
    the console's currency."""
    currency = console.container.settings().edition.profile.currency
    with console.container.session_factory()() as session:
        level = session.scalars(select(m.ServiceLevelRow).where(m.ServiceLevelRow.level_name == level_name)).one()
        option = session.scalars(select(m.LevelYearOptionRow).where(
            m.LevelYearOptionRow.level_id == level.id, m.LevelYearOptionRow.time_length == months,
            m.LevelYearOptionRow.currency == currency)).one()
        return level.id, level.package_id, option.id, option.service_fee_cents


def _ok(reply: Reply) -> Any:
    assert (reply.status, reply.code) == (200, 0), (reply.status, reply.body)
    return reply.data


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


def _day(console: Console, instant: datetime) -> str:
    """The date the console shows for an instant: in the edition's time zone, as no scenario sends
    X-Time-Zone."""
    zone = ZoneInfo(console.container.settings().edition.profile.default_time_zone)
    return instant.astimezone(zone).date().isoformat()


def _info(console: Console, world, user: str, name: str) -> dict:
    return _ok(console.api.call("GET", "/payment/PayServicePackages/selectDeviceDepositInfo",
                                token=world["tokens"][user], query={"deviceId": _device_id(console, name)}))


def _expiry(console: Console, name: str) -> datetime | None:
    """The instant the device's service expires (the API shows only its date)."""
    with console.container.session_factory()() as session:
        return session.scalar(select(m.DeviceRow.service_expires_at).where(m.DeviceRow.device_name == name))


def _remember_devices(console: Console, world, names: list[str]) -> None:
    """When the devices' service expired before the order, for the expiry arithmetic of the Then
    steps."""
    before = world.setdefault("before", {})
    for name in names:
        before.setdefault(name, _expiry(console, name))


def _placed(world, reply: Reply) -> None:
    world["replies"].append(reply)
    world["order"] = reply.data if reply.status == 200 and reply.code == 0 else None


def _years(console: Console, world, user: str, device: str, level_name: str) -> list[dict]:
    with console.container.session_factory()() as session:
        level = session.scalars(select(m.ServiceLevelRow).where(m.ServiceLevelRow.level_name == level_name)).one()
        query = {"deviceId": _device_id(console, device), "levelId": level.id, "packageId": level.package_id}
    return _ok(console.api.call("GET", "/payment/PayServiceLevelYear/selectListByDomain", token=world["tokens"][user],
                                query=query))["levelYearList"]


# --- the international console ---------------------------------------------------------------


@given("the international console with the demo accounts")
def _international(request, world):
    app = request.getfixturevalue("international_app")
    seeded(app, history=False)
    world["console"] = Console(ApiClient(app.flask.test_client()), app.container, app.clock)


@given(parsers.parse("{user} has logged in to the international console"))
def _logged_in_international(world, user):
    world["tokens"][user] = world["console"].api.token(user)


# --- the catalogue ---------------------------------------------------------------------------


@when(parsers.parse('{user} opens the recharge drawer of "{device}"'))
def _opens_drawer(api, container, clock, world, user, device):
    console = _console(world, api, container, clock)
    query = {"deviceId": _device_id(console, device)}
    world["levels"] = _ok(console.api.call("GET", "/payment/PayServicePackages/selectLevelList",
                                           token=world["tokens"][user], query=query))
    world["items"] = _ok(console.api.call("GET", "/payment/PayServiceItem/selectAllServiceItemByDevice",
                                          token=world["tokens"][user], query=query))


@then("the level cards read:")
def _level_cards(world, datatable):
    header, *rows = datatable
    expected = [dict(zip(header, row, strict=True)) for row in rows]
    shown = [{"level": as_written(lv["levelName"], world), "price": str(lv["price"]),
              "button": next(k for k, v in BUTTONS.items() if v == lv["buttonKind"]),
              "current": "yes" if lv["current"] else "no", "free": "yes" if lv["free"] else "no",
              "badge": lv["discountBadge"] or ""} for lv in world["levels"]]
    assert shown == expected, (shown, expected)


@then(parsers.parse("the {level} card shows an activity from {ago:d} days ago until {ahead:d} days from now with "
                    "{bonus:d} bonus months"))
def _activity_shown(api, container, clock, world, level, ago, ahead, bonus):
    now = _console(world, api, container, clock).clock.now()
    card = next(lv for lv in world["levels"] if as_written(lv["levelName"], world) == level)
    assert card["activityId"] is not None and card["presentationMonth"] == bonus
    assert _utc(card["activityStartTime"]) == now - timedelta(days=ago)
    assert _utc(card["activityEndTime"]) == now + timedelta(days=ahead)


@then("the items under the cards read:")
def _items(world, datatable):
    header, *rows = datatable
    expected = [dict(zip(header, row, strict=True)) for row in rows]
    shown = [{"item": i["itemCode"], "title": i["itemTitle"], "detail": i["itemDetail"] or "",
              "in levels": ", ".join(as_written(lv["levelName"], world) for lv in world["levels"]
                                     if i["itemCode"] in {r["itemCode"] for r in lv["itemLevelRelList"]})}
             for i in world["items"]]
    assert shown == expected, (shown, expected)


@when(parsers.parse('{user} lists the year options of {level} for "{device}"'))
def _lists_years(api, container, clock, world, user, level, device):
    world["years"] = _years(_console(world, api, container, clock), world, user, device, level)


@then("the year options read:")
def _year_options(world, datatable):
    header, *rows = datatable
    expected = [dict(zip(header, row, strict=True)) for row in rows]
    shown = [{"months": str(y["timeLength"]), "listed": str(y["serviceFee"]), "price": str(y["price"]),
              "bonus months": str(y["presentationMonth"]), "lifelong": "yes" if y["lifelong"] else "no"}
             for y in world["years"]]
    assert shown == expected, (shown, expected)


@when(parsers.re(USER + r" asks the price of (?P<level>\S+) for (?P<months>\d+) months for " + DEVICES))
def _asks_quote(api, container, clock, world, user, level, months, devices):
    console = _console(world, api, container, clock)
    level_id, package_id, option_id, _ = _option(console, level, int(months))
    ids = [_device_id(console, name) for name in _names(devices)]
    reply = console.api.call("POST", "/payment/PayOrder/selectBatchQuote", token=world["tokens"][user], json={
        "deviceIdList": ids, "levelId": level_id, "levelYearId": option_id, "servicePackageId": package_id})
    world["replies"].append(reply)
    world["quote"] = (ids, reply.data)


@then(parsers.parse("each device costs {cents:d} cents"))
def _each_costs(world, cents):
    ids, quote = world["quote"]
    _ok(world["replies"][-1])
    assert [(q["deviceId"], q["totalFee"]) for q in quote] == [(i, cents) for i in ids]


@when(parsers.parse("{user} lists the SMS and voice packages of country code {code}"))
def _lists_packages(api, container, clock, world, user, code):
    console = _console(world, api, container, clock)
    world["packages"] = _ok(console.api.call("GET", "/payment/PaySmsPackages/selectSmsPackage",
                                             token=world["tokens"][user], query={"countryCode": code}))


@then(parsers.re(r"the (?P<kind>SMS|voice) packages read:"))
def _packages_read(world, kind, datatable):
    header, *rows = datatable
    expected = [dict(zip(header, row, strict=True)) for row in rows]
    shown = [{"package": p["packageName"], "count": str(p["smsCount"]), "listed": str(p["packageFee"]),
              "price": str(p["price"])} for p in world["packages"]["smsList" if kind == "SMS" else "voiceList"]]
    assert shown == expected, (shown, expected)


@then("there are no SMS and no voice packages")
def _no_packages(world):
    assert world["packages"] == {"smsList": [], "voiceList": []}, world["packages"]


@then(parsers.parse("the prices are in {currency}"))
def _prices_in(world, currency):
    """Every price the scenario listed names the currency."""
    listed = [*world.get("levels", []), *world.get("years", []), *world.get("quote", ((), []))[1],
              *(p for key in ("smsList", "voiceList") for p in world.get("packages", {}).get(key, []))]
    assert listed and {price["currency"] for price in listed} == {currency}, listed


@then(parsers.parse("the order charges {cents:d} cents in {currency}"))
def _order_charges(api, container, clock, world, cents, currency):
    console = _console(world, api, container, clock)
    placed = _ok(world["replies"][-1])
    assert (placed["totalFee"], placed["currency"]) == (cents, currency), placed
    status = _ok(console.api.call("GET", "/payment/PayOrder/get", token=world["tokens"]["alice"],
                                  query={"pk": placed["orderId"]}))
    assert (status["totalFee"], status["currency"]) == (cents, currency), status


# --- devices as they are -----------------------------------------------------------------------


@given(parsers.re(r'the service of "(?P<device>[^"]+)" expires (?P<count>\d+) days? (?P<way>ago)'))
@given(parsers.re(r'the service of "(?P<device>[^"]+)" expires (?P<way>in) (?P<count>\d+) days?'))
def _expires(api, container, clock, world, device, count, way):
    console = _console(world, api, container, clock)
    days = int(count) if way == "in" else -int(count)
    info = _info(console, world, "alice", device)
    assert info["serviceExpiredDate"] == _day(console, console.clock.now() + timedelta(days=days)), info


@given(parsers.parse('"{device}" has {sms:d} SMS and {voice:d} voice calls'))
@then(parsers.parse('"{device}" has {sms:d} SMS and {voice:d} voice calls'))
def _counts(api, container, clock, world, device, sms, voice):
    info = _info(_console(world, api, container, clock), world, "alice", device)
    assert (info["smsCount"], info["voiceCount"]) == (sms, voice)


@given(parsers.parse('the country code of "{device}" is {code:d}'))
def _country_code(api, container, clock, world, device, code):
    console = _console(world, api, container, clock)
    with console.container.session_factory()() as session:
        session.execute(update(m.DeviceRow).where(m.DeviceRow.device_name == device).values(country_code=str(code)))
        session.commit()


@given(parsers.parse('"{device}" renews {level} automatically for {cents:d} cents'))
def _renews(api, container, clock, world, device, level, cents):
    console = _console(world, api, container, clock)
    current = _ok(console.api.call("GET", "/payment/PayOrder/selectCurrentService", token=world["tokens"]["alice"],
                                   query={"deviceId": _device_id(console, device)}))
    assert (as_written(current["levelName"], world), current["totalFee"]) == (level, cents)
    assert _info(console, world, "alice", device)["agreementStatus"] == 1


@when(parsers.parse('{user} cancels the automatic renewal of "{device}"'))
def _cancels(api, container, clock, world, user, device):
    console = _console(world, api, container, clock)
    world["replies"].append(console.api.call("GET", "/payment/PayOrder/unAgreement", token=world["tokens"][user],
                                             query={"deviceId": _device_id(console, device)}))


@then(parsers.parse('"{device}" renews nothing automatically'))
def _renews_nothing(api, container, clock, world, device):
    console = _console(world, api, container, clock)
    assert _ok(world["replies"][-1]) is None
    current = console.api.call("GET", "/payment/PayOrder/selectCurrentService", token=world["tokens"]["alice"],
                               query={"deviceId": _device_id(console, device)})
    assert _ok(current) is None
    assert _info(console, world, "alice", device)["agreementStatus"] == 0


# --- invoices --------------------------------------------------------------------------------


@given(parsers.parse("{user} has saved personal invoice details sent by e-mail to {mail}"))
def _saved_bill(api, container, clock, world, user, mail):
    console = _console(world, api, container, clock)
    bill = _ok(console.api.call("POST", "/payment/PayUserBill/insert", token=world["tokens"][user], json={
        "invoiceType": 1, "billMode": 2, "personalName": user.title(), "billUserName": user.title(),
        "billMail": mail, "billPhone": "13800000001", "billDefaultStatus": 1}))
    world.setdefault("bills", {})[user] = bill["billId"]


def _invoice(world, user: str, suffix: str | None) -> dict:
    if not suffix or "invoice" not in suffix:
        return {"applyFlag": 0}
    if "no invoice details" in suffix:
        return {"applyFlag": 1}
    owner = "acme" if "acme's" in suffix else user
    return {"applyFlag": 1, "billId": world["bills"][owner]}


INVOICE = r"(?P<suffix> with an invoice but no invoice details| with an invoice to (?:her|acme's) saved details)?"


# --- service orders --------------------------------------------------------------------------


def _service_body(console: Console, world, user: str, level: str, months: int, names: list[str], total: int,
                  method: str) -> dict:
    level_id, package_id, option_id, listed = _option(console, level, months)
    body: dict[str, Any] = {"levelId": level_id, "levelYearId": option_id, "servicePackageId": package_id,
                            "payType": PAY_TYPES[method], "serviceFee": listed, "totalFee": total, "applyFlag": 0}
    years = console.api.call("GET", "/payment/PayServiceLevelYear/selectListByDomain", token=world["tokens"][user],
                             query={"deviceId": _device_id(console, names[0]), "levelId": level_id,
                                    "packageId": package_id})
    if years.status == 200:  # what the console sends along when it shows an activity
        option = next(y for y in years.data["levelYearList"] if y["id"] == option_id)
        body["activityId"], body["presentationMonth"] = option["activityId"], option["presentationMonth"]
    if len(names) == 1:
        body["deviceId"] = _device_id(console, names[0])
        if sim := _sim(console, names[0]):
            body["simIccid"] = sim
    else:
        body["deviceIdList"] = [_device_id(console, name) for name in names]
    return body


def _place_service(console: Console, world, user: str, names: list[str], body: dict) -> None:
    _remember_devices(console, world, names)
    path = "/payment/PayOrder/createServiceOrder" if "deviceId" in body else "/payment/PayOrder/createBatchServiceOrder"
    _placed(world, console.api.call("POST", path, token=world["tokens"][user], json=body))
    world["method"] = body["payType"]


@when(parsers.re(USER + r" orders (?P<level>\S+) for (?P<months>\d+) months for " + DEVICES
                 + r" paying (?P<price>\d+) cents by (?P<method>" + METHODS + ")" + INVOICE))
def _orders(api, container, clock, world, user, level, months, devices, price, method, suffix):
    console = _console(world, api, container, clock)
    names = _names(devices)
    body = _service_body(console, world, user, level, int(months), names, int(price), method)
    body.update(_invoice(world, user, suffix))
    _place_service(console, world, user, names, body)


@when(parsers.re(USER + r" orders (?P<level>\S+) for (?P<months>\d+) months for " + DEVICES + " at the price shown"))
def _orders_at_price_shown(api, container, clock, world, user, level, months, devices):
    console = _console(world, api, container, clock)
    names = _names(devices)
    option_id = _option(console, level, int(months))[2]
    shown = next(y["price"] for y in _years(console, world, user, names[0], level) if y["id"] == option_id)
    body = _service_body(console, world, user, level, int(months), names, shown * len(names), "WeChat")
    _place_service(console, world, user, names, body)


FIGURES = {  # what the console may claim, and the field of the order that carries it
    r"the order costs (\d+) cents": lambda body, n: body.update(totalFee=n),
    r"the listed service fee is (\d+) cents": lambda body, n: body.update(serviceFee=n),
    r"the activity gives (\d+) bonus months": lambda body, n: body.update(presentationMonth=n),
    r"the order is in another activity()": lambda body, _: body.update(activityId=(body["activityId"] or 0) + 1),
}


@when(parsers.re(USER + r" orders (?P<level>\S+) for (?P<months>\d+) months for " + DEVICES + " saying (?P<figure>.+)"))
def _orders_saying(api, container, clock, world, user, level, months, devices, figure):
    console = _console(world, api, container, clock)
    names = _names(devices)
    option_id = _option(console, level, int(months))[2]
    right = next(y["price"] for y in _years(console, world, user, names[0], level) if y["id"] == option_id)
    body = _service_body(console, world, user, level, int(months), names, right * len(names), "WeChat")
    for pattern, change in FIGURES.items():
        if match := re.fullmatch(pattern, figure):
            change(body, int(match[1] or 0))
            break
    else:
        raise AssertionError(f"no such figure: {figure}")
    _place_service(console, world, user, names, body)


# --- SMS and voice orders --------------------------------------------------------------------


def _package(console: Console, world, user: str, name: str) -> dict:
    code = re.search(r"\(\+(\d+)\)", name)[1]
    packages = _ok(console.api.call("GET", "/payment/PaySmsPackages/selectSmsPackage", token=world["tokens"][user],
                                    query={"countryCode": code}))
    for kind, key in (("sms", "smsList"), ("voice", "voiceList")):
        for package in packages[key]:
            if package["packageName"] == name:
                return {**package, "kind": kind, "countryCode": code}
    # one the console does not sell (of another country code or currency): as a client could send it
    with console.container.session_factory()() as session:
        row = session.scalars(select(m.SmsPackageRow).where(m.SmsPackageRow.package_name == name)).first()
    assert row is not None, f"no package {name!r}"
    return {"packageId": row.id, "smsCount": row.count, "packageFee": row.package_fee_cents,
            "kind": "sms" if row.kind == 1 else "voice", "countryCode": code}


@when(parsers.re(USER + r" buys (?P<packages>.+?) for " + DEVICES + r" paying (?P<price>\d+) cents by "
                 r"(?P<method>" + METHODS + r")(?P<claim>, saying it holds \d+ SMS)?" + INVOICE))
def _buys(api, container, clock, world, user, packages, devices, price, method, claim, suffix):
    console = _console(world, api, container, clock)
    names = _names(devices)
    body: dict[str, Any] = {"payType": PAY_TYPES[method], "totalFee": int(price), "smsPackageId": None,
                            "smsCount": 0, "smsFee": 0, "voicePackageId": None, "voiceCount": 0, "voiceFee": 0,
                            "countryCode": "1" if "console" in world else "86", **_invoice(world, user, suffix)}
    if packages != "no package":
        for name in packages.split(" and "):
            package = _package(console, world, user, name)
            kind = package["kind"]
            body.update({f"{kind}PackageId": package["packageId"], f"{kind}Count": package["smsCount"],
                         f"{kind}Fee": package["packageFee"], "countryCode": package["countryCode"]})
    if claim:
        body["smsCount"] = int(re.search(r"\d+", claim)[0])
    if len(names) == 1:
        body["deviceId"] = _device_id(console, names[0])
        path = "/payment/PayOrder/createSmsOrder"
    else:
        body["deviceIdList"] = [_device_id(console, name) for name in names]
        path = "/payment/PayOrder/createBatchSmsOrder"
    _remember_devices(console, world, names)
    _placed(world, console.api.call("POST", path, token=world["tokens"][user], json=body))
    world["method"] = body["payType"]


# --- paying ----------------------------------------------------------------------------------


@then(parsers.re(r"the (?:order|answer) is refused with HTTP (?P<status>\d+) and code (?P<code>\d+)"))
def _refused(world, status, code):
    reply = world["replies"][-1]
    assert (reply.status, reply.code) == (int(status), int(code)), reply.body
    assert reply.data is None or "orderId" not in reply.data  # nothing placed (data may say why)


@then("the order is placed with a QR code to scan")
def _placed_with_qr(world):
    order = _ok(world["replies"][-1])
    assert order["orderId"] and order["orderCode"] and order["payQrCode"]
    assert "clientSecret" not in order


@then("the order is placed with a wallet to confirm")
def _placed_with_wallet(world):
    order = _ok(world["replies"][-1])
    assert order["orderId"] and order["clientSecret"] and "payQrCode" not in order


@when(parsers.re(r"the payment notification arrives (?P<times>\d+) times?(?:\(s\))?"))
def _notified(api, container, clock, world, times):
    console = _console(world, api, container, clock)
    link = urlsplit(world["order"]["payQrCode"])
    path, query = link.path.removeprefix("/api"), dict(parse_qsl(link.query))
    for _ in range(int(times)):
        reply = console.api.call("GET", path, query=query)
        assert _ok(reply) == {"payStatus": PAID}


@when(parsers.parse("a payment notification of {cents:d} cent arrives for the order"))
def _forged(api, container, clock, world, cents):
    console = _console(world, api, container, clock)
    link = urlsplit(world["order"]["payQrCode"])
    query = {**dict(parse_qsl(link.query)), "amount": str(cents)}  # the signature is of the real amount
    world["replies"].append(console.api.call("GET", link.path.removeprefix("/api"), query=query))


@when(parsers.parse("{user} logs in again"))
def _logs_in_again(api, container, clock, world, user):
    world["tokens"][user] = _console(world, api, container, clock).api.token(user)


@when(parsers.parse("{days:d} days pass"))
def _days_pass(api, container, clock, world, days):
    _console(world, api, container, clock).clock.advance(days=days)


def _confirm(console: Console, world, user: str, method_id: str, fee: int | None = None) -> Reply:
    order = world["order"]
    reply = console.api.call("POST", "/payment/PayOrder/confirmPay", token=world["tokens"][user], json={
        "orderId": order["orderId"], "payType": world["method"], "paymentPlatformId": method_id,
        "payFee": order["totalFee"] if fee is None else fee})
    world["replies"].append(reply)
    return reply


@when(parsers.re(USER + r" confirms the payment with her wallet (?P<times>\d+) times?(?:\(s\))?"))
def _confirms(api, container, clock, world, user, times):
    console = _console(world, api, container, clock)
    for _ in range(int(times)):
        assert _ok(_confirm(console, world, user, "pm_card_visa")) == {"payStatus": PAID}


@when(parsers.re(USER + r" confirms the payment with her wallet for (?P<cents>\d+) cents?"))
def _confirms_other_amount(api, container, clock, world, user, cents):
    _confirm(_console(world, api, container, clock), world, user, "pm_card_visa", int(cents))


@when(parsers.re(USER + r"'s card is declined"))
def _declined(api, container, clock, world, user):
    _confirm(_console(world, api, container, clock), world, user, "fail_card_declined")


def _order_status(console: Console, world) -> dict:
    return _ok(console.api.call("GET", "/payment/PayOrder/get", token=world["tokens"]["alice"],
                                query={"pk": world["order"]["orderId"]}))


@then(parsers.parse("{user} is refused the order with HTTP {status:d} and code {code:d}"))
def _refused_order(api, container, clock, world, user, status, code):
    reply = _console(world, api, container, clock).api.call(
        "GET", "/payment/PayOrder/get", token=world["tokens"][user], query={"pk": world["order"]["orderId"]})
    assert (reply.status, reply.code, reply.data) == (status, code, None), reply.body


@then("the order is paid")
def _paid(api, container, clock, world):
    status = _order_status(_console(world, api, container, clock), world)
    assert (status["payStatus"], status["totalFee"]) == (PAID, world["order"]["totalFee"])


@then("the order is unpaid")
def _unpaid(api, container, clock, world):
    assert _order_status(_console(world, api, container, clock), world)["payStatus"] == UNPAID


@then(parsers.re(r"the answer says the payment was (?P<reason>declined|cancelled|failed)"))
def _answer_says(world, reason):
    assert world["replies"][-1].data == {"failure": reason}


@then(parsers.re(r"the order says its attempt number (?P<number>\d+) was (?P<reason>declined|cancelled|failed)"))
def _order_says(api, container, clock, world, number, reason):
    failure = _order_status(_console(world, api, container, clock), world)["lastFailure"]
    assert (failure["reason"], failure["number"]) == (reason, int(number))


@then("the order asks for an invoice")
def _asks_invoice(api, container, clock, world):
    assert _order_status(_console(world, api, container, clock), world)["applyFlag"] == 1


# --- what the devices got --------------------------------------------------------------------


@then(parsers.re(r'"(?P<device>[^"]+)" is on (?P<level>\S+) for (?P<months>\d+) months from (?P<base>its expiry|now)'))
def _extended(api, container, clock, world, device, level, months, base):
    console = _console(world, api, container, clock)
    now = console.clock.now()
    before = world["before"][device]
    start = max(now, before)
    assert start == (now if base == "now" else before), (base, before, now)
    info = _info(console, world, "alice", device)
    assert as_written(info["levelName"], world) == level, info
    assert info["serviceExpiredDate"] == _day(console, add_months(start, int(months))), (info, start)


@then(parsers.parse('"{device}" is on {level} for life'))
def _for_life(api, container, clock, world, device, level):
    console = _console(world, api, container, clock)
    assert as_written(_info(console, world, "alice", device)["levelName"], world) == level
    assert _expiry(console, device) == LIFELONG


@then(parsers.parse('the service expiry of "{device}" reads {day}'))
def _expiry_reads(api, container, clock, world, device, day):
    info = _info(_console(world, api, container, clock), world, "alice", device)
    assert info["serviceExpiredDate"] == day, f"the console shows {info['serviceExpiredDate']}, not {day}"


@then(parsers.parse('"{device}" is still on {level}, expiring in {days:d} days'))
def _unchanged(api, container, clock, world, device, level, days):
    console = _console(world, api, container, clock)
    info = _info(console, world, "alice", device)
    assert as_written(info["levelName"], world) == level, info
    assert _expiry(console, device) == console.clock.now() + timedelta(days=days)
    assert info["serviceExpiredDate"] == _day(console, console.clock.now() + timedelta(days=days)), info


# --- the order list --------------------------------------------------------------------------


def _orders_of(console: Console, world, user: str) -> dict:
    return _ok(console.api.call("POST", "/payment/PayOrder/selectMyOrderList", token=world["tokens"][user],
                                json={"start": 1, "pageSize": 10}))


@then(parsers.parse("{user} has no orders"))
def _no_orders(api, container, clock, world, user):
    page = _orders_of(_console(world, api, container, clock), world, user)
    assert (page["totalCount"], page["data"]) == (0, [])


@then(parsers.re(USER + r"'s order list shows 1 (?P<state>paid|unpaid) order of (?P<cents>\d+) cents"
                 r"(?: in (?P<currency>[A-Z]{3}))?"))
def _order_list(api, container, clock, world, user, state, cents, currency):
    page = _orders_of(_console(world, api, container, clock), world, user)
    assert page["totalCount"] == 1
    [order] = page["data"]
    assert (order["orderId"], order["orderFee"]) == (world["order"]["orderId"], int(cents))
    if currency:
        assert order["currency"] == currency, order
    if state == "paid":
        assert (order["payStatus"], order["payFee"]) == (PAID, int(cents)) and order["payTime"]
    else:
        assert (order["payStatus"], order["payFee"], order["payTime"]) == (UNPAID, None, None)
