"""A console device's calibration in the console (issue 21, "Back into the console"), on both
backends with the demo data and its teams: the device detail's dates and certificate for whoever
sees the device (a read-only member too), the interval changed only by who may change the device,
and the device list's "calibration due" filter (due within 30 days or overdue)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import select

from adapters.persistence.models import CalibrationApplicationRow, DeviceCalibrationRow, DeviceRow
from core.calibration.due_dates import DUE_NOTICE_WITHIN, due_date
from core.shared.edition import PayType
from entrypoints.demo_seed import seed
from tests.support.api import ApiClient, ok
from tests.support.calibration import priced, results
from tests.support.demo_copy import seeded

ROOM_A, ROOM_B, ACME_ROOM = "RCW360A0000001", "RCW360A0000002", "CR2B000000001"
C = "/calibration/Application"
FRIDGE = "RCW360A0000003"


@pytest.fixture
def api(app) -> ApiClient:
    seeded(app, history=False, teams=True)
    return ApiClient(app.flask.test_client())


def calibrated(app, due_in_days: dict[str, int]) -> dict[str, int]:
    """The devices calibrated a year before their due dates, each due `days` from today; their ids."""
    today = app.clock.now().date()
    with app.container.session_factory()() as session:
        ids = dict(session.execute(select(DeviceRow.guid, DeviceRow.id).where(DeviceRow.guid.in_(due_in_days))).all())
        for guid, days in due_in_days.items():
            due = today + timedelta(days=days)
            session.add(DeviceCalibrationRow(device_id=ids[guid], calibrated_on=due - timedelta(days=365), due_on=due,
                                             certificate=f"ECL-{guid}"))
        session.commit()
    return ids


def listed(api: ApiClient, token: str, **filters) -> set[str]:
    page = ok(api.call("POST", "/device/Device/page", token=token, json={"pageSize": 100, **filters}))
    return {d["deviceGuid"] for d in page["data"]}


def test_the_device_list_filters_the_devices_whose_calibration_falls_due(app, api):
    calibrated(app, {ROOM_A: 10, ROOM_B: 90})
    alice = api.token("alice")
    due = listed(api, alice, calibrationDue=1)
    assert ROOM_A in due and ROOM_B not in due
    others = listed(api, alice, calibrationDue=0)
    assert ROOM_B in others and ROOM_A not in others
    assert listed(api, alice) == due | others  # never calibrated through the console: not due
    calibrated(app, {ACME_ROOM: -5})  # overdue is due too; another's device stays out of alice's list
    assert ACME_ROOM in listed(api, api.token("acme"), calibrationDue=1)
    assert ACME_ROOM not in listed(api, alice, calibrationDue=1)
    assert api.call("POST", "/device/Device/page", token=alice, json={"calibrationDue": 2}).status == 422


def test_the_detail_shows_the_dates_to_who_sees_the_device_and_its_changers_set_the_interval(app, api):
    ids = calibrated(app, {ACME_ROOM: 40})
    device = ids[ACME_ROOM]
    today = app.clock.now().date()

    def read(user):
        return api.call("GET", "/calibration/Device/calibration", token=api.token(user), query={"deviceId": device})

    def set_interval(user, months):
        return api.call("POST", "/calibration/Device/interval", token=api.token(user),
                        json={"deviceId": device, "intervalMonths": months})

    seen = ok(read("dave"))  # a read-only member of Acme
    assert (seen["dueOn"], seen["certificate"], seen["changeable"]) == (
        (today + timedelta(days=40)).isoformat(), f"ECL-{ACME_ROOM}", False)
    assert seen["intervalMonths"] == 12 and seen["ownIntervalMonths"] is None
    assert ok(read("bob")) == seen  # a member whose role does not change devices
    for reader in ("dave", "bob"):
        assert set_interval(reader, 6).status == 404
    assert (read("alice").status, set_interval("alice", 6).status) == (404, 404)  # not Acme's
    assert ok(read("dave")) == seen  # nothing changed by the refusals

    changed = ok(set_interval("carol", 6))  # Acme's administrator
    calibrated_on = today + timedelta(days=40) - timedelta(days=365)
    assert (changed["ownIntervalMonths"], changed["intervalMonths"], changed["changeable"]) == (6, 6, True)
    assert changed["dueOn"] > calibrated_on.isoformat() and changed["dueOn"] < seen["dueOn"]
    assert ok(read("dave"))["dueOn"] == changed["dueOn"]
    assert ok(set_interval("carol", None))["intervalMonths"] == 12  # its type's (the default) again
    for months in (0, 121, 10**12, 1.5, "six"):
        assert set_interval("carol", months).status == 422
    assert api.call("GET", "/calibration/Device/calibration", query={"deviceId": device}).status == 401
    assert api.call("GET", "/calibration/Device/calibration", token=api.token("alice"),
                    query={"deviceId": 2**31}).status == 422


def test_the_demo_s_vaccine_fridge_logger_is_overdue_however_often_seeded(app):
    seed(app.container)
    seed(app.container)
    api = ApiClient(app.flask.test_client())
    alice = api.token("alice")
    assert listed(api, alice, calibrationDue=1) == {FRIDGE}
    device = ok(api.call("POST", "/device/Device/page", token=alice, json={"deviceGuid": FRIDGE}))["data"][0]
    known = ok(api.call("GET", "/calibration/Device/calibration", token=alice, query={"deviceId": device["deviceId"]}))
    today = app.clock.now().date()
    assert date.fromisoformat(known["dueOn"]) < today - DUE_NOTICE_WITHIN  # overdue, past its reminders
    assert app.container.send_calibration_reminders()() == []
    assert known["certificate"] and known["changeable"] and known["intervalMonths"] == 12


def test_a_customer_without_an_account_orders_alice_s_logger_by_serial_and_its_certificate_dates_it(app, api):
    lab, alice = api.token("calibadmin"), api.token("alice")
    with app.container.session_factory()() as session:
        room_a, type_id = session.execute(select(DeviceRow.id, DeviceRow.type_id).where(DeviceRow.guid == ROOM_A)).one()
    priced(api, lab, type_id)
    made = ok(api.call("POST", f"{C}/apply", address="203.0.113.20", json={
        "customerName": "Rental Co", "contactName": "Wang", "contactPhone": "+86 139-0000-0009",
        "returnAddress": "9 Pharmacy Lane", "devices": [
            {"service": 1, "deviceTypeId": type_id, "model": "RCW-360", "serialNumber": ROOM_A.lower()}]}))
    assert app.container.settle_calibration_payment()(made["applicationNumber"], made["totalFee"], made["currency"],
                                                      PayType.ALIPAY, "sandbox-serial")
    with app.container.session_factory()() as session:
        application = session.scalar(select(CalibrationApplicationRow.id).where(
            CalibrationApplicationRow.number == made["applicationNumber"]))
    for status in (3, 4, 5):
        ok(api.call("POST", f"{C}/applicationStatus", token=lab, json={"applicationId": application, "status": status}))
    calibrated_on = app.clock.now().date() - timedelta(days=1)
    draft = ok(api.call("POST", "/calibration/ResultInfo/insert", token=lab, json={
        "applicationId": application, "lineIndex": 1, **results(calibrated_on, ROOM_A.lower())}))
    issued = ok(api.call("POST", "/calibration/ResultInfo/issue", token=lab,
                         json={"certificateId": draft["certificateId"]}))
    known = ok(api.call("GET", "/calibration/Device/calibration", token=alice, query={"deviceId": room_a}))
    assert (known["calibratedOn"], known["certificate"]) == (calibrated_on.isoformat(), issued["reference"])
    assert known["dueOn"] == due_date(calibrated_on, 12).isoformat()
