"""Offline purchases and their review (issue 19) through the API, on SQLite and PostgreSQL:

- an operator uploads a sheet of 20 of alice's GUIDs (checked row by row, with the template's
  header), records the purchase of a year of a level with SMS; a second operator approves it and
  every device is recharged in one go, a paid order of the offline pay type recording it;
- the recorder cannot approve; a purchase is reviewed once; a rejected one recharges nothing;
- a device deleted before the approval is marked recharge failed with the reason, the others
  recharged;
- rows that are not the customer's, unknown, listed twice or not GUIDs are reported, and refuse the
  purchase whole; hostile files and values get a 422 that changes nothing;
- customers get 403 on every call; the export is read back with openpyxl.
"""

from __future__ import annotations

from io import BytesIO

import pytest
from openpyxl import Workbook, load_workbook  # type: ignore[import-untyped]
from sqlalchemy import func, select

from adapters.persistence.models import OfflinePurchaseRow
from core.devices.model import add_months
from entrypoints.api.framework import page_of
from entrypoints.api.offline import schemas as os
from tests.integration.test_devices_api import add
from tests.integration.test_recharge_api import ACME_ROOM, COLD_ROOM_A, device, levels, ok, options, refused

pytestmark = pytest.mark.usefixtures("recharge_demo")
B, E = "/payment/PayOfflineDeviceService", "/payment/PayOfflineExamine"


def sheet(guids, header: str | None = "Device GUID") -> bytes:
    book = Workbook()
    rows = ([[header, "Name"]] if header else []) + [[g, f"Logger {g[-3:]}"] for g in guids]
    for row in rows:
        book.active.append(row)
    out = BytesIO()
    book.save(out)
    return out.getvalue()


def alice_fleet(api, count: int = 20) -> list[str]:
    """alice's cold room A and `count - 1` new loggers of hers."""
    alice = api.token("alice")
    guids = [f"RCW360F{n:07d}" for n in range(1, count)]
    for guid in guids:
        ok(add(api, alice, guid=guid, name=f"Store {guid[-3:]}"))
    return [COLD_ROOM_A, *guids]


def a_year(api, container) -> dict:
    """A level of alice's cold room A and its 12-month service time."""
    alice = api.token("alice")
    room = device(container, COLD_ROOM_A)
    basic = levels(api, alice, room.id)["Basic"]
    option = next(o for o in options(api, alice, room.id, basic) if o["timeLength"] == 12)
    return {"levelId": basic["levelId"], "levelYearId": option["id"]}


def upload(api, data: bytes, user: str = "operator", **form):
    return api.client.post("/api/payment/PayOfflineDeviceService/getPackageByFile",
                           data={"file": (BytesIO(data), "devices.xlsx"), **{k: str(v) for k, v in form.items()}},
                           headers={"Authorization": f"Bearer {api.token(user)}"}, content_type="multipart/form-data")


def record(api, guids, year: dict, user: str = "operator", **extra):
    return api.call("POST", f"{B}/insert", token=api.token(user), json={
        "customer": "alice", "guids": guids, **year, "smsCount": 100, "amount": 20 * 9900, "payType": 61,
        "remark": "Contract 2026-118, bank transfer received 25 Nov", **extra})


def review(api, offline_id: int, approve: bool, user: str = "admin", note: str | None = None):
    body = {"offlineId": offline_id, "approve": approve, **({"note": note} if note else {})}
    return api.call("PUT", f"{E}/updateExamine", token=api.token(user), json=body)


def test_twenty_devices_from_a_sheet_are_recharged_when_a_second_operator_approves(api, container, clock):
    guids = alice_fleet(api)
    year = a_year(api, container)
    template = api.client.get("/api/payment/PayOfflineDeviceService/exportOfflineTemplate",
                              headers={"Authorization": f"Bearer {api.token('operator')}", "Accept-Language": "ru-RU"})
    assert template.status_code == 200
    header = [c.value for c in load_workbook(BytesIO(template.data)).active[1]]
    assert header[0] == "GUID устройства"

    reply = upload(api, sheet([g.lower() for g in guids], header[0]), customer="alice", **year)
    assert reply.status_code == 200, reply.json
    checked = reply.json["data"]
    assert (checked["customerName"], checked["valid"], len(checked["rows"])) == ("alice", 20, 20)
    assert [r["row"] for r in checked["rows"][:2]] == [2, 3]  # the sheet's own row numbers
    before = {g: device(container, g).service_expires_at for g in guids}

    recorded = ok(record(api, [r["guid"] for r in checked["rows"]], year), os.PurchaseDetailSchema)
    assert (recorded["status"], recorded["deviceCount"], recorded["createdBy"]) == (1, 20, "operator")
    assert {d["state"] for d in recorded["devices"]} == {0}
    assert device(container, COLD_ROOM_A).service_expires_at == before[COLD_ROOM_A]  # nothing before review
    waiting = ok(api.call("POST", f"{E}/selectExamineList", token=api.token("admin"), json={}),
                 page_of(os.PurchaseSchema))
    assert [p["offlineId"] for p in waiting["data"]] == [recorded["offlineId"]]

    refused(review(api, recorded["offlineId"], True, user="operator"), 409, 1134)  # not the one who recorded it
    approved = ok(review(api, recorded["offlineId"], True, note="Transfer seen on the statement"),
                  os.PurchaseDetailSchema)
    assert (approved["status"], approved["rechargedCount"], approved["failedCount"]) == (2, 20, 0)
    assert approved["reviewedBy"] == "admin" and approved["orderId"]
    now = clock.now()
    for guid in guids[1:]:  # new loggers on their free gift level: a year of the level from now
        got = device(container, guid)
        assert (got.service_expires_at, got.level_id, got.sms_count) == (add_months(now, 12), year["levelId"], 100)
    room = device(container, COLD_ROOM_A)  # as a paid order would have changed its level
    [row] = [d for d in approved["devices"] if d["guid"] == COLD_ROOM_A]
    assert room.level_id == year["levelId"] and room.service_expires_at > max(now, before[COLD_ROOM_A])
    assert row["expireTimeAfter"] is not None and row["state"] == 1
    refused(review(api, recorded["offlineId"], False), 409, 1151)  # reviewed once

    order = ok(api.call("GET", "/payment/PayOrder/selectBackOrderDetail", token=api.token("operator"),
                        query={"orderId": approved["orderId"]}))
    assert (order["payType"], order["payStatus"], order["orderFee"], order["payer"]["userName"]) == (
        61, 2, 20 * 9900, "alice")
    assert sum(line["fee"] for line in order["lines"]) == 20 * 9900 and len(order["lines"]) == 20
    mine = ok(api.call("POST", "/payment/PayOrder/selectMyOrderList", token=api.token("alice"), json={}))
    assert approved["orderId"] in {o["orderId"] for o in mine["data"]}

    exported = api.client.post("/api/payment/PayOfflineExamine/exportOffline", json={},
                               headers={"Authorization": f"Bearer {api.token('admin')}"})
    rows = list(load_workbook(BytesIO(exported.data)).active.iter_rows(values_only=True))
    assert len(rows) == 1 + 20 and {r[14] for r in rows[1:]} == set(guids)


def test_a_device_deleted_before_approval_fails_with_its_reason_and_a_rejection_recharges_nothing(api, container):
    guids = alice_fleet(api, 3)
    year = a_year(api, container)
    first = ok(record(api, guids, year))
    ok(api.call("DELETE", "/device/Device/delete", token=api.token("alice"),
                query={"deviceId": device(container, guids[2]).id}))
    approved = ok(review(api, first["offlineId"], True), os.PurchaseDetailSchema)
    states = {d["guid"]: (d["state"], d["reason"]) for d in approved["devices"]}
    assert states[guids[2]][0] == 2 and "deleted" in states[guids[2]][1]
    assert {states[g] for g in guids[:2]} == {(1, None)}

    second = ok(record(api, guids[:2], year))
    expiry = device(container, guids[0]).service_expires_at
    rejected = ok(review(api, second["offlineId"], False, note="No transfer received"), os.PurchaseDetailSchema)
    assert (rejected["status"], rejected["reviewNote"], rejected["orderId"]) == (3, "No transfer received", None)
    assert device(container, guids[0]).service_expires_at == expiry


def test_rows_that_cannot_be_recharged_are_reported_and_refuse_the_purchase(api, container):
    guids = alice_fleet(api, 2)
    year = a_year(api, container)
    rows = [guids[0], ACME_ROOM, "RCW360Z9999999", guids[0].lower(), "<script>", guids[1]]
    checked = ok(api.call("POST", f"{B}/addDeviceList", token=api.token("operator"),
                          json={"customer": "alice", "guids": rows, **year}), os.DeviceCheckSchema)
    assert [r["problem"] for r in checked["rows"]] == [None, 2, 1, 4, 5, None] and checked["valid"] == 2
    assert checked["rows"][1]["message"] == "The device is not the customer's"
    reply = record(api, rows, year)
    refused(reply, 422, 422)
    assert [r["guid"] for r in reply.body["data"]["rows"]] == [ACME_ROOM, "RCW360Z9999999", guids[0], "<SCRIPT>"]
    with container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(OfflinePurchaseRow)) == 0


def test_hostile_files_and_values_change_nothing_and_customers_get_403(api, container):
    guids = alice_fleet(api, 2)
    year = a_year(api, container)
    for data in (b"not a workbook", b"PK\x03\x04" + b"\x00" * 100, b"x" * (600 * 1024)):
        reply = upload(api, data, customer="alice", **year)
        assert reply.status_code == 422 and "file" in reply.json["errors"], reply.json
    assert upload(api, sheet([]), customer="alice", **year).status_code == 422  # no rows
    operator = api.token("operator")
    for bad in ({"amount": -1}, {"amount": 10**13}, {"amount": "99"}, {"payType": 1}, {"smsCount": -5},
                {"remark": "x" * 201}, {"remark": "\ud800"}, {"customer": "nobody-such"},
                {"levelId": None, "levelYearId": None, "smsCount": 0}, {"levelYearId": 2_000_000_000},
                {"guids": []}, {"guids": ["A" * 33]}):
        body = {"customer": "alice", "guids": guids, **year, "smsCount": 1, "amount": 100, "payType": 60, **bad}
        refused(api.call("POST", f"{B}/insert", token=operator, json=body), 422, 422)
    for user in ("alice", "acme", "bob"):
        refused(record(api, guids, year, user=user), 403, 403)
        refused(api.call("POST", f"{E}/selectExamineList", token=api.token(user), json={}), 403, 403)
        refused(review(api, 1, True, user=user), 403, 403)
    refused(review(api, 2_000_000_000, True), 404, 404)
    with container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(OfflinePurchaseRow)) == 0


def test_only_a_purchase_awaiting_review_can_be_deleted(api, container):
    guids = alice_fleet(api, 2)
    year = a_year(api, container)
    kept = ok(record(api, guids, year))
    dropped = ok(record(api, guids, year))
    ok(review(api, kept["offlineId"], True))
    operator = api.token("operator")
    refused(api.call("DELETE", f"{B}/delete/list", token=operator, query={"offlineId": kept["offlineId"]}), 409, 1151)
    ok(api.call("DELETE", f"{B}/delete/list", token=operator, query={"offlineId": dropped["offlineId"]}))
    listed = ok(api.call("POST", f"{B}/selectOfflineList", token=operator, json={"customer": "ALI"}),
                page_of(os.PurchaseSchema))
    assert [p["offlineId"] for p in listed["data"]] == [kept["offlineId"]]
