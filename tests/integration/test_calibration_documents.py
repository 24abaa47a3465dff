"""The calibration documents over the API (issue 21), on both backends with the demo data: alice's
application with two devices, one adjusted, both certified and the first corrected; the certificate
PDF read back as text states every item of ISO/IEC 17025 7.8 with its number and "page x of y" on
every page, the same bytes on every download, and the superseded version says so; the order PDF
and its QR; the lab's report upload refuses what is not a PDF or too large and changes nothing; a
stranger, another account and a wrong token get nothing, as for an unknown application."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image
from pypdf import PdfReader

from adapters.exports import calibration_certificate as cc
from adapters.exports import calibration_order as co
from adapters.exports.calibration_order import qr_modules
from core.calibration.certificates import VERDICT_NAMES, DecisionRule, Verdict
from core.calibration.documents import REPORT_MAX_BYTES, order_link
from core.shared.edition import PayType
from tests.integration.test_calibration_api import (
    CONTACT_HEADER,
    DETAILS,
    ROOM_A,
    ROOM_B,
    TOKEN,
    certificate,
    devices,
    priced,
)
from tests.support.api import ApiClient, ok
from tests.support.demo_copy import seeded

C, RI = "/calibration/Application", "/calibration/ResultInfo"
PDF_BYTES = b"%PDF-1.4\n% the lab's report\n%%EOF\n"


@pytest.fixture
def api(app) -> ApiClient:
    seeded(app, history=False, teams=True)
    return ApiClient(app.flask.test_client())


def fetch(api: ApiClient, path: str, query: dict, token: str | None = None, headers: dict | None = None,
          address: str = "127.0.0.1"):
    sent = {"Accept-Language": api.language, **(headers or {})}
    if token:
        sent["Authorization"] = f"Bearer {token}"
    return api.client.get(f"/api{path}", query_string=query, headers=sent, environ_base={"REMOTE_ADDR": address})


def text_of(pdf: bytes) -> list[str]:
    """Each page's text without its spaces and line breaks: a label wraps where the page is narrow,
    and CJK breaks between any two characters."""
    return [flat(page.extract_text()) for page in PdfReader(BytesIO(pdf)).pages]


def flat(text: str) -> str:
    return "".join(text.split())


def upload(api: ApiClient, token: str, application: int, content: bytes, name: str = "report.pdf"):
    sent = {"Authorization": f"Bearer {token}", "Accept-Language": api.language}
    return api.client.post(f"/api{C}/upload/report", headers=sent, content_type="multipart/form-data",
                           data={"applicationId": str(application), "file": (BytesIO(content), name)})


def many_points(body: dict) -> dict:
    """The adjusted device checked at 30 more points, before and after: the certificate runs over pages."""
    more = [{"reference": f"{t}.0", "reading": f"{t}.1", "uncertainty": "0.2", "tolerance": "0.5"}
            for t in range(-40, 50, 3)]
    return {**body, "asFound": body["asFound"] + more, "asLeft": body["asLeft"] + more}


def certified(app, api) -> dict:
    """alice's application for her two rooms, paid, at the lab, the first certified and corrected
    (version 1 superseded by 2), the second adjusted (as found and as left) and certified."""
    alice, lab = api.token("alice"), api.token("calibadmin")
    known = devices(app)
    priced(api, lab, known[ROOM_A][1])
    made = ok(api.call("POST", f"{C}/apply", token=alice, json={**DETAILS, "devices": [
        {"service": 1, "deviceId": known[g][0], "guid": g} for g in (ROOM_A, ROOM_B)]}))
    application = made["applicationId"]
    assert app.container.settle_calibration_payment()(made["applicationNumber"], made["totalFee"], made["currency"],
                                                      PayType.ALIPAY, "sandbox-1")
    ok(api.call("POST", f"{C}/trackingNumber", token=alice, json={"applicationId": application,
                                                                 "trackingNumber": "SF1234567890"}))
    for status in (4, 5):
        ok(api.call("POST", f"{C}/applicationStatus", token=lab, json={"applicationId": application, "status": status}))
    first = ok(api.call("POST", f"{RI}/insert", token=lab, json={
        "applicationId": application, "lineIndex": 1, **certificate(app, ROOM_A)}))
    second = ok(api.call("POST", f"{RI}/insert", token=lab, json={
        "applicationId": application, "lineIndex": 2, **many_points(certificate(app, ROOM_B, adjusted=True))}))
    issued = ok(api.call("POST", f"{RI}/issue", token=lab, json={"certificateId": first["certificateId"]}))
    adjusted = ok(api.call("POST", f"{RI}/issue", token=lab, json={"certificateId": second["certificateId"]}))
    corrected = ok(api.call("POST", f"{RI}/correct", token=lab, json={
        "certificateId": first["certificateId"], "reason": "Serial misprinted", **certificate(app, ROOM_A)}))
    return {"alice": alice, "lab": lab, "application": application, "number": made["applicationNumber"],
            "made": made, "first": issued, "adjusted": adjusted, "corrected": corrected}


def test_an_issued_certificate_states_every_item_of_7_8_on_numbered_pages_and_never_changes(app, api):
    world = certified(app, api)
    language = app.container.settings().edition.profile.default_language  # the edition's, whoever asks
    t = app.container.translator().translate

    def certificate_pdf(query: dict, token: str | None = None, headers: dict | None = None):
        return fetch(api, f"{RI}/download/certificate", query, token=token, headers=headers)

    got = certificate_pdf({"applicationId": world["application"], "lineIndex": 2}, token=world["alice"])
    assert got.status_code == 200 and got.mimetype == "application/pdf"
    reference = world["adjusted"]["reference"]
    assert got.headers["Content-Disposition"].endswith(f"UTF-8''{reference}.pdf")
    pages = text_of(got.data)
    assert len(pages) >= 2
    whole = "\n".join(pages)
    for number, page in enumerate(pages, start=1):  # the unique number and "page x of y" on every page
        assert reference in page
        assert flat(t(cc.PAGE, language, page=number, pages=len(pages))) in page
    content = certificate(app, ROOM_B, adjusted=True)
    stated = [content["labName"], content["labAddress"], content["traceability"], "Alice", content["itemType"],
              content["itemModel"], ROOM_B,
              content["conditionOnReceipt"], content["receivedOn"], content["calibratedOn"], content["method"],
              world["number"], "Li Wei", "Technical manager", "22.5", "45",
              t(cc.RULES[DecisionRule.SIMPLE], language), t(cc.AUTHORISED, language)]
    stated += [t(label, language) for label in (cc.TITLE, cc.AS_FOUND, cc.AS_LEFT, cc.END, *cc.FACTS.values())]
    # as found -18.9 against -20.0 is an error of 1.1, out of ±0.5; as left -19.6 is 0.4, within it
    stated += ["-20.0 °C", "-18.9 °C", "1.1 °C", "-19.6 °C", "0.4 °C", "0.2 °C", "0.5 °C",
               t(VERDICT_NAMES[Verdict.FAIL], language), t(VERDICT_NAMES[Verdict.PASS], language)]
    missing = [item for item in stated if flat(item) not in whole]
    assert not missing, missing
    again = certificate_pdf({"applicationNumber": world["number"], "certificateId": world["adjusted"]["certificateId"]},
                            headers={CONTACT_HEADER: DETAILS["contactEmail"]}, token=world["alice"])
    assert again.data == got.data  # the same bytes on every download, by any reader

    # the corrected device: version 1 superseded by version 2, each readable; by line, the current one
    old = certificate_pdf({"applicationId": world["application"], "certificateId": world["first"]["certificateId"]},
                          token=world["alice"])
    new_reference = world["corrected"]["reference"]
    assert old.status_code == 200
    for page in text_of(old.data):
        assert flat(t(cc.SUPERSEDED_BY, language, reference=new_reference)) in page
    current = certificate_pdf({"applicationId": world["application"], "lineIndex": 1}, token=world["alice"])
    current_text = "\n".join(text_of(current.data))
    assert new_reference in current_text and flat(t(cc.SUPERSEDED, language)) not in current_text
    assert flat(t(cc.AMENDMENT, language, reference=world["first"]["reference"], reason="Serial misprinted")) in (
        current_text)  # which one it replaces, and why
    assert current.headers["Content-Disposition"].endswith(f"{new_reference}.pdf")


def test_a_device_without_an_issued_certificate_has_none_and_a_draft_is_the_lab_s(app, api):
    alice, lab = api.token("alice"), api.token("calibadmin")
    known = devices(app)
    priced(api, lab, known[ROOM_A][1])
    made = ok(api.call("POST", f"{C}/apply", token=alice, json={**DETAILS, "devices": [
        {"service": 1, "deviceId": known[ROOM_A][0], "guid": ROOM_A}]}))
    application = made["applicationId"]
    query = {"applicationId": application, "lineIndex": 1}
    early = fetch(api, f"{RI}/download/certificate", query, token=alice)
    assert (early.status_code, early.json["code"]) == (409, 2226)
    assert app.container.settle_calibration_payment()(made["applicationNumber"], made["totalFee"], made["currency"],
                                                      PayType.ALIPAY, "sandbox-2")
    for status in (3, 4, 5):
        ok(api.call("POST", f"{C}/applicationStatus", token=lab, json={"applicationId": application, "status": status}))
    draft = ok(api.call("POST", f"{RI}/insert", token=lab, json={"applicationId": application, "lineIndex": 1,
                                                                 **certificate(app, ROOM_A)}))
    for by in ({"lineIndex": 1}, {"certificateId": draft["certificateId"]}):
        refused = fetch(api, f"{RI}/download/certificate", {"applicationId": application, **by}, token=alice)
        assert (refused.status_code, refused.json["code"]) == (409, 2226)
    looked = fetch(api, f"{RI}/download/certificate", query, token=lab)
    language = app.container.settings().edition.profile.default_language
    assert flat(app.container.translator().translate(cc.DRAFT_NOTE, language)) in text_of(looked.data)[0]
    assert fetch(api, f"{RI}/download/certificate", {"applicationId": application, "lineIndex": 2},
                 token=alice).status_code == 404  # no such device on it
    neither = fetch(api, f"{RI}/download/certificate", {"applicationId": application}, token=alice)
    assert neither.status_code == 422


def test_the_order_pdf_has_the_number_the_total_and_the_qr_of_the_lab_s_page(app, api):
    world = certified(app, api)
    made = world["made"]
    got = fetch(api, f"{C}/download/order", {"applicationId": world["application"]}, token=world["alice"])
    assert got.status_code == 200 and got.headers["Content-Disposition"].endswith(f"{world['number']}.pdf")
    whole = "\n".join(text_of(got.data))
    total = f"{made['currency']} {made['totalFee'] // 100}"  # CNY is shown in whole yuan
    for item in (world["number"], total, f"{made['currency']} 300", DETAILS["customerName"], DETAILS["returnAddress"],
                 DETAILS["contactName"], ROOM_A, ROOM_B):
        assert flat(item) in whole, item
    link = order_link(app.container.settings().public_base_url, world["number"])
    qr = fetch(api, f"{C}/getQR", {"applicationId": world["application"]}, token=world["alice"])
    assert qr.status_code == 200 and qr.mimetype == "image/png"
    image = Image.open(BytesIO(qr.data)).convert("1")
    modules = qr_modules(link)  # the PNG's modules are the code of the link
    side = image.size[0] // co.PNG_MODULE - 2 * co.QR_BORDER
    assert side == len(modules)
    read = [[image.getpixel(((c + co.QR_BORDER) * co.PNG_MODULE + 2, (r + co.QR_BORDER) * co.PNG_MODULE + 2)) == 0
             for c in range(side)] for r in range(side)]
    assert read == modules
    # by number and contact the order is read without the customer's details
    anonymous = fetch(api, f"{C}/download/order", {"applicationNumber": world["number"]}, address="203.0.113.5",
                      headers={CONTACT_HEADER: DETAILS["contactEmail"]})
    assert anonymous.status_code == 404  # alice's application is her account's: no contact opens it


def test_the_lab_s_report_is_a_pdf_of_at_most_10_mb_and_read_by_who_reads_the_application(app, api):
    world = certified(app, api)
    alice, lab, application = world["alice"], world["lab"], world["application"]
    query = {"applicationId": application}
    before = fetch(api, f"{C}/download/report", query, token=alice)
    assert (before.status_code, before.json["code"]) == (409, 2225)  # "report not yet generated"
    assert upload(api, alice, application, PDF_BYTES).status_code == 403
    for content, name in ((b"PK\x03\x04 not a pdf", "report.pdf"), (PDF_BYTES, "report.exe"),
                          (PDF_BYTES + b"x" * REPORT_MAX_BYTES, "report.pdf")):
        refused = upload(api, lab, application, content, name)
        assert refused.status_code == 422 and "file" in refused.json["errors"], refused.json
    too_large = upload(api, lab, application, PDF_BYTES + b"x" * (REPORT_MAX_BYTES + 200_000))
    assert too_large.status_code == 413
    assert fetch(api, f"{C}/download/report", query, token=alice).json["code"] == 2225  # nothing changed

    stored = upload(api, lab, application, PDF_BYTES, "Lab report 2026.PDF")
    assert stored.status_code == 200 and stored.json["data"]["size"] == len(PDF_BYTES)
    got = fetch(api, f"{C}/download/report", query, token=alice)
    assert got.status_code == 200 and got.data == PDF_BYTES
    assert got.headers["Content-Disposition"].lower().endswith(".pdf")
    assert got.headers["X-Content-Type-Options"] == "nosniff"
    replaced = PDF_BYTES + b"% corrected\n"  # a new upload replaces it
    assert upload(api, lab, application, replaced, "v2.pdf").status_code == 200
    again = fetch(api, f"{C}/download/report", query, token=alice)
    assert again.data == replaced and again.headers["Content-Disposition"].endswith("UTF-8''v2.pdf")


def test_a_stranger_another_account_and_a_wrong_token_get_nothing(app, api):
    world = certified(app, api)
    bob = api.token("bob")
    cert_query = {"applicationId": world["application"], "certificateId": world["adjusted"]["certificateId"]}
    calls = ((f"{C}/download/order", {"applicationId": world["application"]}),
             (f"{C}/getQR", {"applicationId": world["application"]}),
             (f"{C}/download/report", {"applicationId": world["application"]}),
             (f"{RI}/download/certificate", cert_query))
    for path, query in calls:
        for token in (bob, None):
            refused = fetch(api, path, query, token=token)
            assert (refused.status_code, refused.json) == (404, {"code": 404, "msg": "Not found", "data": None})

    # an application without an account: the token and the contact read, a wrong one gets the same 404
    lab = api.token("calibadmin")
    type_id = devices(app)[ROOM_A][1]
    made = ok(api.call("POST", f"{C}/apply", address="203.0.113.9", json={**DETAILS, "devices": [
        {"service": 1, "deviceTypeId": type_id, "model": "RCW-360", "serialNumber": "SN-0001"}]}))
    number, token = made["applicationNumber"], made["accessToken"]
    by_number = {"applicationNumber": number}
    with_token = fetch(api, f"{C}/download/order", by_number, headers={TOKEN: token}, address="203.0.113.9")
    assert with_token.status_code == 200 and flat(DETAILS["returnAddress"]) in "".join(text_of(with_token.data))
    by_contact = fetch(api, f"{C}/download/order", by_number, headers={CONTACT_HEADER: DETAILS["contactPhone"]},
                       address="203.0.113.9")
    assert by_contact.status_code == 200
    contact_text = "\n".join(text_of(by_contact.data))
    assert number in contact_text and flat(DETAILS["returnAddress"]) not in contact_text  # read only: no details
    for headers in ({TOKEN: "x" * 32}, {CONTACT_HEADER: "other@example.com"}, {}):
        for path in (f"{C}/download/order", f"{C}/getQR", f"{C}/download/report"):
            refused = fetch(api, path, by_number, headers=headers, address="203.0.113.9")
            assert (refused.status_code, refused.json["code"]) == (404, 404)
    # its id, without an account, is nobody's
    assert fetch(api, f"{C}/download/order", {"applicationId": world["application"]},
                 headers={TOKEN: token}).status_code == 404
    assert ok(api.call("GET", f"{C}/get/applicationInfo", token=lab, query=by_number))["applicationNumber"] == number
