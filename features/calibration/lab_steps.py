"""Steps of features/calibration/lab.feature, imported by features/conftest.py so that the scenarios
collected by features/test_features.py find them."""

from __future__ import annotations

from datetime import date, timedelta

from pytest_bdd import given, parsers, then, when
from sqlalchemy import select
from tests.support.calibration import priced, results

from adapters.persistence.models import DeviceRow
from core.calibration.due_dates import DEFAULT_INTERVAL_MONTHS, due_date
from core.shared.edition import PayType

C, RI = "/calibration/Application", "/calibration/ResultInfo"
LOGGERS = {"cold room A": "RCW360A0000001", "cold room B": "RCW360A0000002"}
CONTACT = {"contactName": "Wang", "contactPhone": "+86 139-0000-0001"}


def _ok(reply):
    assert reply.status == 200, reply.body
    return reply.data


def _lab(api, world) -> str:
    if "lab" not in world["tokens"]:
        world["tokens"]["lab"] = api.token("calibadmin")
    return world["tokens"]["lab"]


def _devices(container) -> dict[str, tuple[int, int]]:
    """Each logger's id and type id."""
    with container.session_factory()() as session:
        found = dict((g, (i, t)) for g, i, t in session.execute(
            select(DeviceRow.guid, DeviceRow.id, DeviceRow.type_id).where(DeviceRow.guid.in_(LOGGERS.values()))))
    return {name: found[guid] for name, guid in LOGGERS.items()}


@given("the lab has priced the calibration of Wi-Fi loggers")
def _priced(api, container, world):
    priced(api, _lab(api, world), _devices(container)["cold room A"][1])


@given("alice has applied for the calibration of her cold room A and B loggers and paid")
def _applied(api, container, world):
    world["tokens"]["alice"] = api.token("alice")
    known = _devices(container)
    made = _ok(api.call("POST", f"{C}/apply", token=world["tokens"]["alice"], json={
        "customerName": "Alice", "returnAddress": "1 Dock Road", **CONTACT, "devices": [
            {"service": 1, "deviceId": known[name][0], "guid": LOGGERS[name]} for name in LOGGERS]}))
    assert container.settle_calibration_payment()(made["applicationNumber"], made["totalFee"], made["currency"],
                                                  PayType.ALIPAY, "sandbox-bdd")
    world["application"] = made


@given("the lab has received the loggers and calibrates them")
def _at_lab(api, world):
    application = world["application"]["applicationId"]
    _ok(api.call("POST", f"{C}/trackingNumber", token=world["tokens"]["alice"],
                 json={"applicationId": application, "trackingNumber": "SF1234567890"}))
    for status in (4, 5):
        _ok(api.call("POST", f"{C}/applicationStatus", token=_lab(api, world),
                     json={"applicationId": application, "status": status}))


@when("the lab records the results of the cold room A logger and issues its certificate")
def _issues(api, clock, world):
    world["calibrated_on"] = clock.now().date() - timedelta(days=1)
    world["content"] = results(world["calibrated_on"], LOGGERS["cold room A"])
    draft = _ok(api.call("POST", f"{RI}/insert", token=_lab(api, world), json={
        "applicationId": world["application"]["applicationId"], "lineIndex": 1, **world["content"]}))
    world["certificate"] = _ok(api.call("POST", f"{RI}/issue", token=_lab(api, world),
                                        json={"certificateId": draft["certificateId"]}))


@when(parsers.parse('the lab corrects that certificate because "{reason}"'))
def _corrects(api, world, reason):
    world["corrected"] = _ok(api.call("POST", f"{RI}/correct", token=_lab(api, world), json={
        "certificateId": world["certificate"]["certificateId"], "reason": reason, **world["content"]}))


@then(parsers.parse("alice reads 2 versions of the cold room A logger's certificate under one number: "
                    "1 superseded, 2 issued"))
def _two_versions(api, world):
    versions = _ok(api.call("POST", f"{RI}/queryResultList", token=world["tokens"]["alice"],
                            json={"applicationId": world["application"]["applicationId"]}))
    first = [c for c in versions if c["lineIndex"] == 1]
    assert sorted((c["version"], c["status"]) for c in first) == [(1, 3), (2, 2)]  # superseded, issued
    assert {c["number"] for c in first} == {world["certificate"]["number"]}
    assert [c["content"]["asFound"] for c in first][0] == [c["content"]["asFound"] for c in first][1]


@then(parsers.parse("changing the results of the issued certificate is refused with HTTP {status:d} and code {code:d}"))
def _refused(api, world, status, code):
    reply = api.call("PUT", f"{RI}/update", token=_lab(api, world), json={
        "applicationId": world["application"]["applicationId"], "lineIndex": 1, **world["content"]})
    assert (reply.status, reply.code) == (status, code), reply.body


@then("the cold room A logger's calibration falls due 12 months after its calibration")
def _due(api, container, world):
    known = _ok(api.call("GET", "/calibration/Device/calibration", token=world["tokens"]["alice"],
                         query={"deviceId": _devices(container)["cold room A"][0]}))
    assert known["calibratedOn"] == world["calibrated_on"].isoformat()
    assert known["dueOn"] == due_date(world["calibrated_on"], DEFAULT_INTERVAL_MONTHS).isoformat()
    assert known["certificate"] == world["certificate"]["reference"]
    world["due_on"] = date.fromisoformat(known["dueOn"])


def _job_twice_on(container, clock, day: date) -> None:
    clock.advance(days=(day - clock.now().date()).days)
    for _ in range(2):
        container.send_calibration_reminders()()


@when(parsers.parse("the reminder job runs twice on the day {days:d} days before the due date"))
def _before(container, clock, world, days):
    _job_twice_on(container, clock, world["due_on"] - timedelta(days=days))


@when("the reminder job runs twice on the due date")
def _on_due_date(container, clock, world):
    _job_twice_on(container, clock, world["due_on"])


@then(parsers.parse("alice has {count:d} calibration reminder"))
@then(parsers.parse("alice has {count:d} calibration reminders"))
def _reminders(api, world, count):
    page = _ok(api.call("POST", "/base/BaseMessage/page", token=api.token("alice"),
                        json={"kind": "expiry", "pageSize": 50}))
    told = [m for m in page["data"] if "calibration" in m["content"].lower()]
    assert len(told) == count, [m["content"] for m in page["data"]]
    assert all(LOGGERS["cold room A"] in m["content"] or "Cold room A" in m["content"] for m in told)


@when("the lab takes a quick order for a typed logger from Wang, reachable at wang@example.com")
def _quick(api, container, world):
    world["quick"] = _ok(api.call("POST", f"{C}/applyQuickOrder", token=_lab(api, world), json={
        **CONTACT, "contactEmail": "wang@example.com", "devices": [
            {"service": 1, "deviceTypeId": _devices(container)["cold room A"][1], "model": "RCW-360",
             "serialNumber": "SN-QUICK-1"}]}))


def _quick_order(api, world) -> dict:
    page = _ok(api.call("POST", f"{C}/page/allQuickOrder", token=_lab(api, world),
                        json={"applicationNumber": world["quick"]["applicationNumber"]}))
    [found] = page["data"]
    return found


@then("the lab's quick orders show it waiting to be completed")
def _waiting(api, world):
    assert _quick_order(api, world)["handled"] is False


@when(parsers.parse('the lab completes it with the return address "{address}"'))
def _completes(api, world, address):
    _ok(api.call("POST", f"{C}/handleQuickOrder", token=_lab(api, world), json={
        "applicationId": world["quick"]["applicationId"], "customerName": "Wang Pharmacy", **CONTACT,
        "contactEmail": "wang@example.com", "returnAddress": address}))


@then("the lab's quick orders show it completed")
def _completed(api, world):
    found = _quick_order(api, world)
    assert found["handled"] is True and found["details"]["returnAddress"] == "9 Pharmacy Lane"


@then(parsers.parse('Wang reads it by its number and "{contact}" without an account'))
def _reads(api, world, contact):
    reply = api.call("GET", f"{C}/get/applicationInfo", headers={"X-Calibration-Contact": contact},
                     query={"applicationNumber": world["quick"]["applicationNumber"]}, address="198.51.100.7")
    found = _ok(reply)
    assert found["applicationNumber"] == world["quick"]["applicationNumber"] and found["quickOrder"] is True
    assert found["details"] is None  # read by contact: not the customer's details
