"""The calibration service over the API (issue 21), on both backends with the demo data and its
teams: alice applies for two of her devices and follows them; bob cannot see them; a customer
without an account applies with typed serial numbers and reads with the token or number and
contact, but acts only with the token; lookups without an account are rate limited; the lab lists,
moves the ladder, records results (one device adjusted), issues and corrects a certificate, and
cannot complete an application before every device has one; hostile values are 422 and change
nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from adapters.persistence.models import DeviceRow
from core.shared.edition import PayType
from tests.support.api import ApiClient, ok
from tests.support.calibration import priced, results
from tests.support.demo_copy import seeded

C = "/calibration/Application"
RI = "/calibration/ResultInfo"
ROOM_A, ROOM_B = "RCW360A0000001", "RCW360A0000002"
CONTACT = {"contactName": "Wang", "contactPhone": "+86 139-0000-0001", "contactEmail": "wang@example.com"}
DETAILS = {"customerName": "Pharma Ltd", **CONTACT, "returnAddress": "9 Pharmacy Lane"}
TOKEN, CONTACT_HEADER = "X-Calibration-Token", "X-Calibration-Contact"


@pytest.fixture
def api(app) -> ApiClient:
    seeded(app, history=False, teams=True)
    return ApiClient(app.flask.test_client())


def devices(app) -> dict[str, tuple[int, int]]:
    with app.container.session_factory()() as session:
        return {guid: (id_, type_id) for guid, id_, type_id in session.execute(
            select(DeviceRow.guid, DeviceRow.id, DeviceRow.type_id).where(DeviceRow.guid.in_((ROOM_A, ROOM_B))))}


def certificate(app, serial: str, adjusted: bool = False) -> dict:
    return results(app.clock.now().date() - timedelta(days=1), serial, adjusted)


def test_alice_applies_and_the_lab_certifies_with_a_correction(app, api):
    alice, bob, lab = api.token("alice"), api.token("bob"), api.token("calibadmin")
    known = devices(app)
    priced(api, lab, known[ROOM_A][1])
    listed = ok(api.call("GET", "/calibration/PriceConf/get/price"))  # no login: the public price list
    assert {(p["service"], p["price"]) for p in listed} >= {(1, 30000), (2, 45000)}
    assert all(p["typeName"] for p in listed if p["deviceTypeId"] == known[ROOM_A][1])
    assert api.call("PUT", "/calibration/PriceConf/update/price", token=alice, json={
        "deviceTypeId": known[ROOM_A][1], "service": 1, "price": 1}).status == 403

    made = ok(api.call("POST", f"{C}/apply", token=alice, json={**DETAILS, "totalFee": 60000, "devices": [
        {"service": 1, "deviceId": known[g][0], "guid": g} for g in (ROOM_A, ROOM_B)]}))
    assert made["accessToken"] is None and made["status"] == 1 and made["totalFee"] == 60000
    application = made["applicationId"]
    mine = ok(api.call("POST", f"{C}/page/ApplicationOrder", token=alice, json={}))
    assert [a["applicationId"] for a in mine["data"]] == [application]
    for who in (bob, None):  # another account, and an id without an account: the same 404
        refused = api.call("GET", f"{C}/get/applicationInfo", token=who, query={"applicationId": application})
        assert (refused.status, refused.code) == (404, 404)
    assert ok(api.call("POST", f"{C}/page/ApplicationOrder", token=bob, json={}))["totalCount"] == 0
    assert api.call("POST", f"{C}/page/allApplicationOrder", token=alice, json={}).status == 403

    # the inbound tracking number once paid, not before
    early = api.call("POST", f"{C}/trackingNumber", token=alice, json={"applicationId": application,
                                                                      "trackingNumber": "SF1234567890"})
    assert (early.status, early.code) == (409, 2206)
    assert app.container.settle_calibration_payment()(made["applicationNumber"], 60000, made["currency"],
                                                      PayType.ALIPAY, "sandbox-1")
    sent = ok(api.call("POST", f"{C}/trackingNumber", token=alice, json={"applicationId": application,
                                                                        "trackingNumber": "SF1234567890"}))
    assert (sent["status"], sent["inboundTracking"]) == (3, "SF1234567890")
    outbound = api.call("POST", f"{C}/trackingNumber", token=alice, json={
        "applicationId": application, "trackingNumber": "SF0000000001", "outbound": True})
    assert outbound.status == 403

    # the lab
    everyone = ok(api.call("POST", f"{C}/page/allApplicationOrder", token=lab, json={}))
    assert application in [a["applicationId"] for a in everyone["data"]]
    for status in (4, 5):
        assert ok(api.call("POST", f"{C}/applicationStatus", token=lab,
                           json={"applicationId": application, "status": status}))["status"] == status
    first = ok(api.call("POST", f"{RI}/insert", token=lab, json={
        "applicationId": application, "lineIndex": 1, **certificate(app, ROOM_A)}))
    second = ok(api.call("POST", f"{RI}/importCert", token=lab, json={
        "applicationId": application, "lineIndex": 2, "certificate": certificate(app, ROOM_B, adjusted=True)}))
    assert (first["status"], second["status"]) == (1, 1)
    assert second["content"]["asLeft"] and second["content"]["asFound"][0]["reading"] == "-18.9"
    assert ok(api.call("POST", f"{RI}/queryResultList", token=alice, json={"applicationId": application})) == []
    explained = ok(api.call("POST", f"{C}/result/explain", token=lab, json={
        "applicationId": application, "lineIndex": 2, "explain": "Adjusted at -20 °C"}))
    assert (explained["certificateId"], explained["content"]["remarks"]) == (second["certificateId"],
                                                                            "Adjusted at -20 °C")
    assert explained["content"]["asLeft"] == second["content"]["asLeft"]  # the results stay as recorded

    def complete():
        return api.call("POST", f"{C}/applicationStatus", token=lab, json={"applicationId": application, "status": 6})

    assert (complete().status, complete().code) == (409, 2205)
    issued = ok(api.call("POST", f"{RI}/issue", token=lab, json={"certificateId": first["certificateId"]}))
    assert issued["status"] == 2 and issued["number"]
    assert complete().code == 2205  # the second device has a draft only
    ok(api.call("POST", f"{RI}/issue", token=lab, json={"certificateId": second["certificateId"]}))
    changed = api.call("PUT", f"{RI}/update", token=lab, json={
        "applicationId": application, "lineIndex": 1, **certificate(app, ROOM_A)})
    assert (changed.status, changed.code) == (409, 2211)
    too_late = api.call("POST", f"{C}/result/explain", token=lab, json={
        "applicationId": application, "lineIndex": 1, "explain": "After the issue"})
    assert (too_late.status, too_late.code) == (409, 2211)  # an issued certificate is corrected instead
    corrected = ok(api.call("POST", f"{RI}/correct", token=lab, json={
        "certificateId": first["certificateId"], "reason": "Serial misprinted", **certificate(app, ROOM_A)}))
    assert (corrected["version"], corrected["number"], corrected["reference"]) == (
        2, issued["number"], f"{issued['number']}-V2")
    versions = ok(api.call("POST", f"{RI}/queryResultList", token=alice, json={"applicationId": application}))
    assert sorted((c["lineIndex"], c["version"], c["status"]) for c in versions) == [(1, 1, 3), (1, 2, 2), (2, 1, 2)]
    assert ok(complete())["status"] == 6


def test_a_customer_without_an_account_applies_and_reads_with_the_token_or_the_contact(app, api):
    lab = api.token("calibadmin")
    type_id = devices(app)[ROOM_A][1]
    priced(api, lab, type_id)
    where = "203.0.113.9"
    made = api.call("POST", f"{C}/apply", address=where, json={**DETAILS, "devices": [
        {"service": 1, "deviceTypeId": type_id, "model": "RCW-360", "serialNumber": serial}
        for serial in ("SN-0001", "SN-0002")]})
    made = ok(made)
    number, token = made["applicationNumber"], made["accessToken"]
    assert token and made["applicationId"] is None  # ids are sequential: a caller without an account never has one

    def read(headers, number=number, address=where):
        return api.call("GET", f"{C}/get/applicationInfo", query={"applicationNumber": number.lower()},
                        headers=headers, address=address)

    with_token = ok(read({TOKEN: token}))
    assert with_token["details"]["returnAddress"] == "9 Pharmacy Lane"
    by_contact = ok(read({CONTACT_HEADER: "wang@EXAMPLE.com"}))
    assert by_contact["status"] == 1 and by_contact["details"] is None and by_contact["applicationId"] is None
    assert ok(read({CONTACT_HEADER: "+86 13900000001"}))["applicationNumber"] == number
    acted = api.call("POST", f"{C}/update/baseInfo", headers={CONTACT_HEADER: "wang@example.com"}, address=where,
                     json={"applicationNumber": number, **DETAILS, "returnAddress": "Elsewhere 1"})
    assert (acted.status, acted.code) == (403, 2215)
    assert api.call("GET", f"{C}/getUserInvoice", query={"applicationNumber": number}, address=where,
                    headers={CONTACT_HEADER: "wang@example.com"}).status == 404
    wrong = read({CONTACT_HEADER: "other@example.com"})
    assert (wrong.status, wrong.body) == (404, {"code": 404, "msg": "Not found", "data": None})
    assert read({TOKEN: "x" * 32}).status == 404
    # logged in, the link still opens it; a bad session is 401, never read as a caller without an account
    opened = api.call("GET", f"{C}/get/applicationInfo", token=api.token("alice"), headers={TOKEN: token},
                      query={"applicationNumber": number})
    assert ok(opened)["details"] is not None
    expired = api.call("GET", f"{C}/get/applicationInfo", token="not-a-session", headers={TOKEN: token},
                       query={"applicationNumber": number})
    assert (expired.status, expired.code) == (401, 2010)
    changed = ok(api.call("POST", f"{C}/update/baseInfo", headers={TOKEN: token}, address=where,
                          json={"applicationNumber": number, **DETAILS, "returnAddress": "Elsewhere 1"}))
    assert changed["details"]["returnAddress"] == "Elsewhere 1"
    check = ok(api.call("POST", f"{C}/cancel/check", headers={TOKEN: token}, address=where,
                        json={"applicationNumber": number}))
    assert check == {"possible": True, "reason": None, "refundFee": 0}
    # the token is not taken from the URL's query
    assert api.call("GET", f"{C}/get/applicationInfo", address=where,
                    query={"applicationNumber": number, "token": token}).status == 422
    # the lab sees it among everyone's
    assert number in [a["applicationNumber"] for a in ok(api.call(
        "POST", f"{C}/page/allApplicationOrder", token=lab, json={"applicationNumber": number[-8:]}))["data"]]

    # 30 lookups without an account from one address in 10 minutes, then 429; another address goes on
    guesser = "198.51.100.77"
    for _ in range(30):
        assert read({CONTACT_HEADER: "nobody@example.com"}, address=guesser).status == 404
    throttled = read({CONTACT_HEADER: "wang@example.com"}, address=guesser)
    assert throttled.status == 429 and "Retry-After" in throttled.headers
    assert read({CONTACT_HEADER: "wang@example.com"}, address="198.51.100.78").status == 200


def test_quick_orders_are_the_lab_s(app, api):
    alice, lab = api.token("alice"), api.token("calibadmin")
    type_id = devices(app)[ROOM_A][1]
    priced(api, lab, type_id)
    body = {"contactName": "Counter", "contactPhone": "13900000009", "devices": [
        {"service": 1, "deviceTypeId": type_id, "model": "RCW-360", "serialNumber": "SN-Q1"}]}
    assert api.call("POST", f"{C}/applyQuickOrder", token=alice, json=body).status == 403
    quick = ok(api.call("POST", f"{C}/applyQuickOrder", token=lab, json=body))
    assert quick["quickOrder"] and not quick["handled"]
    listed = ok(api.call("POST", f"{C}/page/allQuickOrder", token=lab, json={}))
    assert [a["applicationId"] for a in listed["data"]] == [quick["applicationId"]]
    handled = ok(api.call("POST", f"{C}/handleQuickOrder", token=lab, json={
        "applicationId": quick["applicationId"], **DETAILS}))
    assert handled["handled"] and handled["details"]["customerName"] == "Pharma Ltd"
    paid = ok(api.call("POST", f"{C}/applicationStatus", token=lab,
                       json={"applicationId": quick["applicationId"], "status": 2}))
    assert paid["status"] == 2 and paid["paidFee"] == paid["totalFee"]


DEEP = {"a": None}
for _ in range(200):
    DEEP = {"a": DEEP}


def test_hostile_values_are_422_and_change_nothing(app, api):
    alice, lab = api.token("alice"), api.token("calibadmin")
    known = devices(app)
    priced(api, lab, known[ROOM_A][1])
    application = ok(api.call("POST", f"{C}/apply", token=alice, json={**DETAILS, "devices": [
        {"service": 1, "deviceId": known[ROOM_A][0], "guid": ROOM_A}]}))["applicationId"]
    assert app.container.settle_calibration_payment()(
        ok(api.call("GET", f"{C}/get/applicationInfo", token=alice,
                    query={"applicationId": application}))["applicationNumber"],
        30000, "CNY" if app.container.settings().edition.profile.currency == "CNY" else "USD", PayType.ALIPAY, "r")
    for status in (3, 4):
        ok(api.call("POST", f"{C}/applicationStatus", token=lab, json={"applicationId": application,
                                                                       "status": status}))
    good = certificate(app, ROOM_A)
    hostile = [
        {**good, "labName": "Lab \ud800"},
        {**good, "asFound": [{"reference": 1e308, "reading": 1, "uncertainty": 0.1}]},
        {**good, "asFound": [{"reference": 1, "reading": 1.5, "uncertainty": 0.1}] * 60},
        {**good, "remarks": DEEP},
        {**good, "environment": {"temperature": "NaN", "humidity": 45}},
        {**good, "calibratedOn": "2999-01-01"},
        {**good, "labName": "x" * 5000},
    ]
    for body in hostile:
        for path, method, payload in ((f"{RI}/insert", "POST", {**body, "applicationId": application,
                                                                 "lineIndex": 1}),
                                      (f"{RI}/importCert", "POST", {"applicationId": application, "lineIndex": 1,
                                                                    "certificate": body})):
            refused = api.call(method, path, token=lab, json=payload)
            assert (refused.status, refused.code) == (422, 422), (path, refused.body)
    for body in ({**DETAILS, "customerName": "\ud83d", "devices": [{"service": 1, "deviceId": known[ROOM_A][0],
                                                                      "guid": ROOM_A}]},
                 {**DETAILS, "devices": [{"service": 9, "deviceId": known[ROOM_A][0], "guid": ROOM_A}]},
                 {**DETAILS, "devices": []}, {**DETAILS, "totalFee": 1e308, "devices": []}):
        assert api.call("POST", f"{C}/apply", token=alice, json=body).status == 422
    raw = api.client.post(f"/api{C}/apply", data="{" * 300, content_type="application/json")
    assert raw.status_code == 422
    assert ok(api.call("POST", f"{RI}/queryResultList", token=lab, json={"applicationId": application})) == []
    assert ok(api.call("POST", f"{C}/page/ApplicationOrder", token=alice, json={}))["totalCount"] == 1
