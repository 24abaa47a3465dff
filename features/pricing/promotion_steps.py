"""Steps of features/pricing/activities.feature and sms_packages.feature: the operator's calls
(api /payment/PayActivity, /PaySmsPackages) and what the customer's drawers show after them.
Imported by features/conftest.py."""

from __future__ import annotations

from datetime import timedelta
from io import BytesIO

from openpyxl import Workbook  # type: ignore[import-untyped]
from pytest_bdd import given, parsers, then, when
from tests.integration.test_recharge_api import COLD_ROOM_A, device
from tests.support.mosquitto import add_device

from core.shared.money import charged_cents

P = "/payment"
LEVELS = {"basic": "Basic"}  # as an en-US reader sees the demo level (names per language)
BOBS_DEVICE = "RCW360B0000019"


def _ok(reply):
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


def _option(api, world, level, months) -> dict:
    rows = _ok(api.call("GET", f"{P}/PayActivity/selectServicePackageActivity", token=world["tokens"]["operator"]))
    return next(r for r in rows if r["levelName"] == LEVELS[level] and r["timeLength"] == months
                and r["currency"] == "CNY")


def _run(api, world, clock, percent, nature, level, months, target=None, starts=timedelta(days=-1)):
    op = world["tokens"]["operator"]
    accounts = []
    if target:
        found = _ok(api.call("POST", f"{P}/PayActivityAccountRel/selectListByDomain", token=op, json={"text": target}))
        accounts = [a["id"] for a in found if a["userName"] == target]
    now = clock.now()
    body = {"name": "Spring sale" if "activity" not in world else "Another sale",
            "nature": 2 if nature == "directional" else 1,
            "startTime": (now + starts).isoformat(), "endTime": (now + timedelta(days=30)).isoformat(),
            "options": [{"levelYearId": _option(api, world, level, months)["levelYearId"],
                         "activityDiscount": 100 - percent}],
            "accountIds": accounts}
    reply = api.call("POST", f"{P}/PayActivity/insertActivity", token=op, json=body)
    world["replies"].append(reply)
    if reply.status == 200:
        world["activity"] = reply.data["id"]


@given(parsers.parse("bob has logged in with a device of his own"))
def _bob_device(api, world):
    add_device(api, BOBS_DEVICE, owner="bob")
    world["tokens"]["bob"] = api.token("bob")


@given(parsers.re(r"the operator has run a (?P<percent>\d+) % (?P<nature>public|directional) activity on the "
                  r"(?P<level>\w+) (?P<months>\d+)-month option"))
@when(parsers.re(r"the operator runs a (?P<percent>\d+) % (?P<nature>public|directional) activity on the "
                 r"(?P<level>\w+) (?P<months>\d+)-month option$"))
def _runs_public(api, world, clock, percent, nature, level, months):
    _run(api, world, clock, int(percent), nature, level, int(months))


@when(parsers.re(r"the operator runs a (?P<percent>\d+) % (?P<nature>public|directional) activity on the "
                 r"(?P<level>\w+) (?P<months>\d+)-month option starting tomorrow"))
def _runs_tomorrow(api, world, clock, percent, nature, level, months):
    _run(api, world, clock, int(percent), nature, level, int(months), starts=timedelta(days=1))


@when(parsers.re(r"the operator runs a (?P<percent>\d+) % directional activity for (?P<target>\w+) on the "
                 r"(?P<level>\w+) (?P<months>\d+)-month option"))
def _runs_directional(api, world, clock, percent, target, level, months):
    _run(api, world, clock, int(percent), "directional", level, int(months), target=target)


@given(parsers.parse("the operator has stopped the activity"))
@when(parsers.parse("the operator stops the activity"))
def _stops(api, world):
    _ok(api.call("POST", f"{P}/PayActivity/stopActivity", token=world["tokens"]["operator"],
                 json={"id": world["activity"]}))


@when(parsers.parse("the operator turns the activity back on"))
def _enables(api, world):
    _ok(api.call("POST", f"{P}/PayActivity/enableActivity", token=world["tokens"]["operator"],
                 json={"id": world["activity"]}))


@when(parsers.parse("the operator deletes the activity"))
def _deletes(api, world):
    _ok(api.call("DELETE", f"{P}/PayActivity/delete", token=world["tokens"]["operator"],
                 query={"id": world["activity"]}))


def _device_of(container, user) -> int:
    return device(container, BOBS_DEVICE if user == "bob" else COLD_ROOM_A).id


def _level(api, world, container, user, level) -> dict:
    cards = _ok(api.call("GET", f"{P}/PayServicePackages/selectLevelList", token=world["tokens"][user],
                         query={"deviceId": _device_of(container, user)}))
    return next(c for c in cards if c["levelName"] == LEVELS[level])


@then(parsers.re(r"(?P<user>\w+) is offered the (?P<level>\w+) (?P<months>\d+)-month option at (?P<percent>\d+) % "
                 r"of its listed price"))
def _offered(api, world, container, user, level, months, percent):
    card = _level(api, world, container, user, level)
    options = _ok(api.call("GET", f"{P}/PayServiceLevelYear/selectListByDomain", token=world["tokens"][user],
                           query={"deviceId": _device_of(container, user), "levelId": card["levelId"],
                                  "packageId": card["packageId"]}))["levelYearList"]
    option = next(o for o in options if o["timeLength"] == int(months))
    assert option["price"] == charged_cents(option["serviceFee"], int(percent), "CNY"), option


@then(parsers.parse("{user}'s level card of {level} shows no activity"))
def _card_without_activity(api, world, container, user, level):
    assert _level(api, world, container, user, level)["activityId"] is None


@then(parsers.parse('the operator is told that the activity "{name}" already offers that option'))
def _told_overlap(world, name):
    reply = world["replies"][-1]
    assert (reply.status, reply.code) == (409, 2071), reply.body
    assert f"“{name}”" in reply.body["msg"]


# --- SMS and voice packages ---------------------------------------------------------------------


KINDS = {"SMS": 1, "voice": 2}


def _add(api, world, kind, country, name):
    reply = api.call("POST", f"{P}/PaySmsPackages/insert", token=world["tokens"]["operator"], json={
        "kind": KINDS[kind], "countryCode": country, "packageName": name, "packageFee": 1000, "currency": "CNY",
        "smsCount": 100})
    world["replies"].append(reply)
    return reply


@given(parsers.parse("the operator has added {count:d} SMS packages for country code {country}"))
def _added(api, world, count, country):
    for n in range(count):
        _ok(_add(api, world, "SMS", country, f"SMS {n + 1}"))


@when(parsers.re(r"the operator adds an? (?P<kind>SMS|voice) package for country code (?P<country>\d+)"))
def _adds(api, world, kind, country):
    _add(api, world, kind, country, f"{kind} more")


@then(parsers.parse('the operator is told "{message}"'))
def _told(world, message):
    reply = world["replies"][-1]
    assert reply.status == 409 and reply.body["msg"].lower() == message.lower(), reply.body


@then(parsers.parse("country code {country} has {sms:d} SMS packages and {voice:d} voice packages"))
def _counted(api, world, country, sms, voice):
    rows = _ok(api.call("POST", f"{P}/PaySmsPackages/selectSmsPackageList", token=world["tokens"]["operator"],
                        json={"countryCode": country}))
    assert (sum(r["kind"] == 1 for r in rows), sum(r["kind"] == 2 for r in rows)) == (sms, voice), rows


def _import(api, world, rows):
    book = Workbook()
    sheet = book.active
    sheet.append(["Kind", "Country code", "Name", "Fee (cents)", "Currency", "Count", "Discount (%)"])
    for row in rows:
        sheet.append(row)
    out = BytesIO()
    book.save(out)
    response = api.client.post(f"/api{P}/PaySmsPackages/importSmsPackages",
                               data={"file": (BytesIO(out.getvalue()), "packages.xlsx")},
                               headers={"Authorization": f"Bearer {world['tokens']['operator']}",
                                        "Accept-Language": "en-US"}, content_type="multipart/form-data")
    assert response.status_code == 200, response.get_json()
    world["report"] = response.get_json()["data"]


@when(parsers.parse("the operator imports {count:d} SMS packages for country code {country}"))
def _imports(api, world, count, country):
    _import(api, world, [["SMS", country, f"Imported {n}", 500, "CNY", 50, 100] for n in range(count)])


@when(parsers.parse('the operator imports the row "{row}"'))
def _imports_row(api, world, row):
    _import(api, world, [row.split(",")])


@then(parsers.parse("the import report adds {added:d} row and refuses {refused:d} rows on the country code"))
def _report_counts(world, added, refused):
    report = world["report"]
    assert (report["added"], report["refused"]) == (added, refused), report
    assert {r["field"] for r in report["rows"] if not r["added"]} == {"countryCode"}


@then(parsers.parse('the import report refuses the row on {field} saying "{reason}"'))
def _report_reason(world, field, reason):
    [row] = world["report"]["rows"]
    assert (row["added"], row["field"], row["message"]) == (False, field, reason), row


@when(parsers.parse("the operator turns off the first SMS package of country code {country}"))
def _disables_first(api, world, country):
    op = world["tokens"]["operator"]
    first = _ok(api.call("POST", f"{P}/PaySmsPackages/selectSmsPackageList", token=op,
                         json={"countryCode": country, "kind": 1}))[0]
    body = {k: first[k] for k in ("packageId", "kind", "countryCode", "packageFee", "currency", "smsCount",
                                  "discount")}
    _ok(api.call("PUT", f"{P}/PaySmsPackages/update", token=op,
                 json={**body, "packageName": first["defaultName"], "names": first["names"], "status": 0}))
    world["package"] = first["packageId"]


@then(parsers.parse("{user} is not offered that SMS package for country code {country}"))
def _not_offered(api, world, user, country):
    data = _ok(api.call("GET", f"{P}/PaySmsPackages/selectSmsPackage", token=world["tokens"][user],
                        query={"countryCode": country}))
    ids = [p["packageId"] for p in data["smsList"]]
    assert ids and world["package"] not in ids
