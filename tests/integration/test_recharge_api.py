"""The recharge API (api-contract section 5) on the demo data, on SQLite and PostgreSQL: levels
and year options priced for the caller, orders priced by the server, settlement exactly once
(also when two notifications race), and every call scoped to the caller's devices and bills."""

from __future__ import annotations

import threading
from urllib.parse import parse_qsl, urlsplit

import pytest
from sqlalchemy import event, func, select

from adapters.persistence.models import DeviceRow, OrderLineRow, OrderRow
from core.devices.model import add_months
from core.ordering.use_cases import SettlementOutcome
from entrypoints.api.framework import envelope, page_of
from entrypoints.api.payment import schemas as s
from tests.support.api import ApiClient
from tests.support.demo_copy import seeded

pytestmark = pytest.mark.usefixtures("recharge_demo")

P = "/payment"
COLD_ROOM_A, COLD_ROOM_B, FRIDGE, TRUCK = "RCW360A0000001", "RCW360A0000002", "RCW360A0000003", "LOGET8A0000001"
FREEZER, DOCK, ACME_ROOM = "FZ1A000000001", "CR2A000000001", "CR2B000000001"


def device(container, guid: str) -> DeviceRow:
    with container.session_factory()() as session:
        return session.scalars(select(DeviceRow).where(DeviceRow.guid == guid)).one()


def order_count(container) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(OrderRow))


def promised(container, order_id: int):
    """The expiry the order promised its (only) device when it was placed."""
    with container.session_factory()() as session:
        return session.scalars(select(OrderLineRow.promised_expires_at).where(OrderLineRow.order_id == order_id)).one()


def ok(reply, schema=None, many=False):
    assert (reply.status, reply.code) == (200, 0), reply.body
    if schema is not None:
        envelope(schema, many)().load(reply.body)
    return reply.data


def refused(reply, status: int, code: int) -> None:
    assert (reply.status, reply.code) == (status, code), reply.body


@pytest.fixture
def alice(api):
    return api.token("alice")


def levels(api, token, device_id):
    return {lv["levelName"]: lv for lv in ok(api.call("GET", f"{P}/PayServicePackages/selectLevelList", token=token,
                                                      query={"deviceId": device_id}), s.LevelSchema, many=True)}


def options(api, token, device_id, level):
    reply = api.call("GET", f"{P}/PayServiceLevelYear/selectListByDomain", token=token,
                     query={"deviceId": device_id, "levelId": level["levelId"], "packageId": level["packageId"]})
    return ok(reply, s.YearOptionListSchema)["levelYearList"]


def service_order(api, token, device_ids, level, option, *, pay_type=1, total=None, **extra):
    body = {"levelId": level["levelId"], "levelYearId": option["id"], "servicePackageId": level["packageId"],
            "payType": pay_type, "serviceFee": option["serviceFee"],
            "totalFee": option["price"] * len(device_ids) if total is None else total, **extra}
    if len(device_ids) == 1:
        return api.call("POST", f"{P}/PayOrder/createServiceOrder", token=token,
                        json={"deviceId": device_ids[0], **body})
    return api.call("POST", f"{P}/PayOrder/createBatchServiceOrder", token=token, json={"deviceIdList": device_ids,
                                                                                        **body})


def pay(api, placed):
    """What scanning the development QR code does."""
    link = urlsplit(placed["payQrCode"])
    return api.call("GET", link.path.removeprefix("/api"), query=dict(parse_qsl(link.query)))


def test_levels_are_priced_for_the_device_and_the_caller(api, alice, container):
    room = device(container, COLD_ROOM_A)
    found = levels(api, alice, room.id)
    assert list(found) == ["Free", "Basic", "Professional"]  # the caller's language (en-US)
    free, basic, pro = found.values()
    assert (free["buttonKind"], free["free"], free["price"]) == ("onOrder", True, 0)
    assert (basic["buttonKind"], basic["current"], basic["price"], basic["discountBadge"]) == ("renew", True, 9900,
                                                                                               None)
    # the activity in force takes precedence over the option's own discount: 80 % and 2 bonus months
    assert (pro["buttonKind"], pro["price"], pro["activityDiscount"], pro["presentationMonth"]) == ("buy", 15900, 80,
                                                                                                    2)
    assert {lv["currency"] for lv in found.values()} == {"CNY"}
    assert pro["discountBadge"] == "8折" and pro["activityStartTime"] and pro["activityEndTime"]
    assert {i["itemCode"] for i in pro["itemLevelRelList"]} == {"DATA_QUERY_EXPORT", "ALARM_SMS", "ALARM_VOICE",
                                                                "AI_QA"}
    pro_options = options(api, alice, room.id, pro)
    assert [(o["timeLength"], o["price"], o["currency"], o["lifelong"]) for o in pro_options] == [
        (12, 15900, "CNY", False), (24, 28300, "CNY", False), (1200, 99900, "CNY", True)]
    # each option carries the badge of the discount its price is charged at: the activity's where one is in force
    assert [(o["discount"], o["activityDiscount"], o["discountBadge"]) for o in pro_options] == [
        (100, 80, "8折"), (95, 75, "7.5折"), (100, None, None)]
    items = ok(api.call("GET", f"{P}/PayServiceItem/selectAllServiceItemByDevice", token=alice,
                        query={"deviceId": room.id}), s.ServiceItemSchema, many=True)
    assert items[1]["itemTitle"] == "SMS alarms" and items[1]["itemDetail"] == "text message on every limit breach"


def test_a_paid_order_extends_the_service_once_however_often_it_is_notified(api, alice, container, clock):
    room = device(container, COLD_ROOM_A)
    basic = levels(api, alice, room.id)["Basic"]
    year = options(api, alice, room.id, basic)[0]
    placed = ok(service_order(api, alice, [room.id], basic, year), s.OrderPlacedSchema)
    assert placed["totalFee"] == 9900 and placed["payQrCode"].startswith("http")
    status = ok(api.call("GET", f"{P}/PayOrder/get", token=alice, query={"pk": placed["orderId"]}),
                s.OrderStatusSchema)
    assert (status["payStatus"], status["payQrCode"], status["payType"]) == (1, placed["payQrCode"], 1)
    assert ok(pay(api, placed)) == {"payStatus": 2}
    assert ok(pay(api, placed)) == {"payStatus": 2}  # the repeated notification
    paid = ok(api.call("GET", f"{P}/PayOrder/get", token=alice, query={"pk": placed["orderId"]}))
    assert paid["payStatus"] == 2 and "payQrCode" not in paid  # nothing left to pay with
    assert device(container, COLD_ROOM_A).service_expires_at == add_months(room.service_expires_at, 12)
    orders = ok(api.call("POST", f"{P}/PayOrder/selectMyOrderList", token=alice, json={}), page_of(s.MyOrderSchema))
    assert [(o["orderCode"], o["payStatus"], o["payFee"], o["deviceCount"]) for o in orders["data"]] == [
        (placed["orderCode"], 2, 9900, 1)]


def test_two_simultaneous_settlements_of_one_order_apply_it_once(api, alice, container):
    room = device(container, COLD_ROOM_A)
    basic = levels(api, alice, room.id)["Basic"]
    placed = ok(service_order(api, alice, [room.id], basic, options(api, alice, room.id, basic)[1]))
    barrier, outcomes = threading.Barrier(2), []

    def settle():
        settle_order = container.settle_order()
        barrier.wait()
        outcomes.append(settle_order(placed["orderCode"], placed["totalFee"], "CNY", "race"))

    threads = [threading.Thread(target=settle) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == sorted([SettlementOutcome.SETTLED, SettlementOutcome.ALREADY_SETTLED])
    assert device(container, COLD_ROOM_A).service_expires_at == add_months(room.service_expires_at, 24)


def test_an_expired_device_renews_from_now_and_a_lifelong_option_reaches_2099(api, alice, container, clock):
    fridge = device(container, FRIDGE)
    assert fridge.service_expires_at < clock.now()
    pro = levels(api, alice, fridge.id)["Professional"]
    twelve, _, lifelong = options(api, alice, fridge.id, pro)
    ok(pay(api, ok(service_order(api, alice, [fridge.id], pro, twelve))))
    assert device(container, FRIDGE).service_expires_at == add_months(clock.now(), 12 + 2)  # 2 bonus months
    assert device(container, FRIDGE).level_id == pro["levelId"]
    ok(pay(api, ok(service_order(api, alice, [fridge.id], pro, lifelong))))
    assert device(container, FRIDGE).service_expires_at.year == 2099


def test_the_server_prices_every_order_and_refuses_a_different_figure(api, alice, container):
    room = device(container, COLD_ROOM_A)
    pro = levels(api, alice, room.id)["Professional"]
    year = options(api, alice, room.id, pro)[0]
    refused(service_order(api, alice, [room.id], pro, year, total=1), 409, 1101)
    refused(service_order(api, alice, [room.id], pro, {**year, "serviceFee": 100}), 409, 1101)
    refused(service_order(api, alice, [room.id], pro, year, presentationMonth=5), 409, 1101)
    assert order_count(container) == 0


def test_another_customer_s_devices_and_orders_are_answered_as_unknown_ones(api, alice, container):
    mine, theirs = device(container, COLD_ROOM_A), device(container, ACME_ROOM)
    basic = levels(api, alice, mine.id)["Basic"]
    year = options(api, alice, mine.id, basic)[0]
    refused(service_order(api, alice, [theirs.id], basic, year), 404, 404)
    refused(service_order(api, alice, [mine.id, theirs.id], basic, year), 404, 404)
    refused(api.call("GET", f"{P}/PayServicePackages/selectLevelList", token=alice, query={"deviceId": theirs.id}),
            404, 404)
    refused(api.call("GET", f"{P}/PayOrder/selectCurrentService", token=alice, query={"deviceId": theirs.id}),
            404, 404)
    assert order_count(container) == 0
    placed = ok(service_order(api, alice, [mine.id], basic, year))
    acme = api.token("acme")
    refused(api.call("GET", f"{P}/PayOrder/get", token=acme, query={"pk": placed["orderId"]}), 404, 404)


def test_batch_orders_hold_one_device_type_and_are_quoted_per_device(api, alice, container):
    a, b, dock = device(container, COLD_ROOM_A), device(container, COLD_ROOM_B), device(container, DOCK)
    basic = levels(api, alice, a.id)["Basic"]
    year = options(api, alice, a.id, basic)[0]
    quote = ok(api.call("POST", f"{P}/PayOrder/selectBatchQuote", token=alice, json={
        "deviceIdList": [a.id, b.id], "levelId": basic["levelId"], "levelYearId": year["id"],
        "servicePackageId": basic["packageId"]}), s.DeviceQuoteSchema, many=True)
    assert [(q["deviceId"], q["totalFee"], q["currency"], q["levelName"], q["changeKind"]) for q in quote] == [
        (a.id, 9900, "CNY", "Basic", "extended"), (b.id, 9900, "CNY", "Basic", "extended")]  # en-US
    refused(service_order(api, alice, [a.id, dock.id], basic, year), 409, 1103)
    placed = ok(service_order(api, alice, [a.id, b.id], basic, year))
    assert placed["totalFee"] == 19800
    ok(pay(api, placed))
    assert device(container, COLD_ROOM_B).service_expires_at == add_months(b.service_expires_at, 12)


def test_a_batch_is_read_in_as_many_queries_whatever_its_size(api, alice, container):
    """Up to 200 devices an order: the devices are read together, not one query each."""
    a, b, fridge = (device(container, guid).id for guid in (COLD_ROOM_A, COLD_ROOM_B, FRIDGE))
    basic = levels(api, alice, a)["Basic"]
    year = options(api, alice, a, basic)[0]
    statements: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    def quote_queries(device_ids) -> int:
        statements.clear()
        event.listen(container.engine(), "before_cursor_execute", count)
        try:
            ok(api.call("POST", f"{P}/PayOrder/selectBatchQuote", token=alice, json={
                "deviceIdList": device_ids, "levelId": basic["levelId"], "levelYearId": year["id"],
                "servicePackageId": basic["packageId"]}))
        finally:
            event.remove(container.engine(), "before_cursor_execute", count)
        return len(statements)

    assert quote_queries([a, b]) == quote_queries([a, b, fridge])


def test_the_order_list_sorts_on_its_own_fields_only(api, alice, container):
    a, b = device(container, COLD_ROOM_A).id, device(container, COLD_ROOM_B).id
    for device_id, name in ((a, "Basic"), (b, "Professional")):
        level = levels(api, alice, device_id)[name]
        ok(service_order(api, alice, [device_id], level, options(api, alice, device_id, level)[0]))

    def fees(**sort):
        page = ok(api.call("POST", f"{P}/PayOrder/selectMyOrderList", token=alice, json=sort),
                  page_of(s.MyOrderSchema))
        return [row["orderFee"] for row in page["data"]]

    assert fees(sortField="orderFee", sortOrder="asc") == sorted(fees())
    assert fees(sortField="orderFee", sortOrder="desc") == sorted(fees(), reverse=True)
    assert len(set(fees())) == 2
    refused(api.call("POST", f"{P}/PayOrder/selectMyOrderList", token=alice, json={"sortField": "accountId"}),
            422, 422)


def test_a_free_level_cannot_be_bought(api, alice, container):
    room = device(container, COLD_ROOM_A)
    free = levels(api, alice, room.id)["Free"]
    refused(service_order(api, alice, [room.id], free, options(api, alice, room.id, free)[0]), 409, 1102)


def test_an_auto_renew_agreement_must_be_cancelled_before_a_change_of_level(api, alice, container):
    freezer = device(container, FREEZER)
    found = levels(api, alice, freezer.id)
    basic, pro = found["Basic"], found["Professional"]
    current = ok(api.call("GET", f"{P}/PayOrder/selectCurrentService", token=alice, query={"deviceId": freezer.id}),
                 s.CurrentServiceSchema)
    assert (current["deviceId"], current["levelName"], current["totalFee"], current["currency"]) == (
        freezer.id, "Professional", 19900, "CNY")  # the level in the reader's language (en-US)
    refused(service_order(api, alice, [freezer.id], basic, options(api, alice, freezer.id, basic)[0]), 409, 1107)
    ok(service_order(api, alice, [freezer.id], pro, options(api, alice, freezer.id, pro)[0]))  # renewing is fine
    assert ok(api.call("GET", f"{P}/PayOrder/unAgreement", token=alice, query={"deviceId": freezer.id})) is None
    assert ok(api.call("GET", f"{P}/PayOrder/selectCurrentService", token=alice,
                       query={"deviceId": freezer.id})) is None
    refused(api.call("GET", f"{P}/PayOrder/unAgreement", token=alice, query={"deviceId": freezer.id}), 409, 1110)
    ok(service_order(api, alice, [freezer.id], basic, options(api, alice, freezer.id, basic)[0]))


def sms_order(api, token, device_ids, sms=None, voice=None, *, country="86", total=None, **extra):
    body = {"payType": 1, "countryCode": country, "smsPackageId": sms and sms["packageId"],
            "smsCount": sms["smsCount"] if sms else 0, "smsFee": sms["packageFee"] if sms else 0,
            "voicePackageId": voice and voice["packageId"], "voiceCount": voice["smsCount"] if voice else 0,
            "voiceFee": voice["packageFee"] if voice else 0, **extra,
            "totalFee": (sum(p["price"] for p in (sms, voice) if p) * len(device_ids)) if total is None else total}
    if len(device_ids) == 1:
        return api.call("POST", f"{P}/PayOrder/createSmsOrder", token=token, json={"deviceId": device_ids[0], **body})
    return api.call("POST", f"{P}/PayOrder/createBatchSmsOrder", token=token, json={"deviceIdList": device_ids, **body})


def test_sms_and_voice_packages_add_their_counts_when_paid(api, alice, container):
    a, b = device(container, COLD_ROOM_A), device(container, COLD_ROOM_B)
    packages = ok(api.call("GET", f"{P}/PaySmsPackages/selectSmsPackage", token=alice, query={"countryCode": "86"}),
                  s.AlertPackagesSchema)
    sms500 = next(p for p in packages["smsList"] if p["smsCount"] == 500)
    voice50 = next(p for p in packages["voiceList"] if p["smsCount"] == 50)
    assert (sms500["packageFee"], sms500["discount"], sms500["price"], voice50["price"]) == (4500, 90, 4000, 1500)
    assert sms500["discountBadge"] == "9折"
    assert {p["currency"] for p in packages["smsList"] + packages["voiceList"]} == {"CNY"}
    refused(sms_order(api, alice, [a.id]), 409, 1106)
    refused(sms_order(api, alice, [a.id], sms500, country="1"), 422, 422)
    placed = ok(sms_order(api, alice, [a.id, b.id], sms500, voice50))
    assert (placed["totalFee"], placed["currency"]) == (2 * 5500, "CNY")
    ok(pay(api, placed))
    ok(pay(api, placed))
    after = device(container, COLD_ROOM_A), device(container, COLD_ROOM_B)
    assert [(d.sms_count, d.voice_count) for d in after] == [(a.sms_count + 500, a.voice_count + 50),
                                                             (b.sms_count + 500, b.voice_count + 50)]


def test_an_invoice_needs_a_bill_of_the_caller_s_own(api, alice, container):
    room = device(container, COLD_ROOM_A)
    basic = levels(api, alice, room.id)["Basic"]
    year = options(api, alice, room.id, basic)[0]
    refused(service_order(api, alice, [room.id], basic, year, applyFlag=1), 409, 1105)
    bad = api.call("POST", f"{P}/PayUserBill/insert", token=alice, json={
        "invoiceType": 2, "billMode": 2, "companyName": "Acme", "taxNumber": "91-3100", "billUserName": "Alice",
        "billPhone": "12345", "billMail": "not-an-address"})
    refused(bad, 422, 422)
    assert set(bad.body["errors"]) == {"taxNumber", "bankDeposit", "billPhone", "billMail"}
    bill = ok(api.call("POST", f"{P}/PayUserBill/insert", token=alice, json={
        "invoiceType": 1, "billMode": 2, "personalName": "Alice Zhang", "companyName": "dropped for a person",
        "billUserName": "Alice", "billPhone": "13800000001", "billMail": "alice@example.com"}), s.BillSchema)
    assert (bill["billDefaultStatus"], bill["companyName"]) == (1, None)
    acme = api.token("acme")
    theirs = ok(api.call("POST", f"{P}/PayUserBill/insert", token=acme, json={
        "invoiceType": 1, "billMode": 1, "personalName": "Acme", "billUserName": "Acme", "billPhone": "13800000002",
        "billAddress": "1 Dock Road"}))
    refused(service_order(api, alice, [room.id], basic, year, applyFlag=1, billId=theirs["billId"]), 404, 404)
    assert order_count(container) == 0
    placed = ok(service_order(api, alice, [room.id], basic, year, applyFlag=1, billId=bill["billId"]))
    assert ok(api.call("GET", f"{P}/PayOrder/get", token=alice, query={"pk": placed["orderId"]}))["applyFlag"] == 1
    assert [b["billId"] for b in ok(api.call("POST", f"{P}/PayUserBill/selectListByDomain", token=alice,
                                             json={}))] == [bill["billId"]]
    refused(api.call("DELETE", f"{P}/PayUserBill/delete", token=alice, query={"billId": theirs["billId"]}), 404, 404)
    ok(api.call("DELETE", f"{P}/PayUserBill/delete", token=alice, query={"billId": bill["billId"]}))


def test_a_forged_development_payment_changes_nothing(api, alice, container):
    room = device(container, COLD_ROOM_A)
    basic = levels(api, alice, room.id)["Basic"]
    placed = ok(service_order(api, alice, [room.id], basic, options(api, alice, room.id, basic)[0]))
    link = dict(parse_qsl(urlsplit(placed["payQrCode"]).query))
    refused(api.call("GET", "/payment/development/pay", query={**link, "amount": "1"}), 403, 403)
    refused(api.call("GET", "/payment/development/pay", query={**link, "signature": "0" * 64}), 403, 403)
    assert ok(api.call("GET", f"{P}/PayOrder/get", token=alice, query={"pk": placed["orderId"]}))["payStatus"] == 1
    assert device(container, COLD_ROOM_A).service_expires_at == room.service_expires_at


def test_the_international_edition_pays_by_wallet(international_app):

    seeded(international_app, history=False)
    api = ApiClient(international_app.flask.test_client())
    token = api.token("alice")
    room = device(international_app.container, COLD_ROOM_A)
    pro = levels(api, token, room.id)["Professional"]
    assert pro["discountBadge"] == "20% OFF" and pro["price"] == 3192
    year = options(api, token, room.id, pro)[0]
    assert year["discountBadge"] == "20% OFF"
    refused(service_order(api, token, [room.id], pro, year, pay_type=1), 409, 1108)
    placed = ok(service_order(api, token, [room.id], pro, year, pay_type=30))
    assert placed["clientSecret"] and "payQrCode" not in placed
    confirm = {"orderId": placed["orderId"], "payType": 30, "paymentPlatformId": "fail_card", "payFee": 3192}
    refused(api.call("POST", f"{P}/PayOrder/confirmPay", token=token, json=confirm), 409, 1112)
    refused(api.call("POST", f"{P}/PayOrder/confirmPay", token=token, json={**confirm, "payFee": 1}), 409, 1101)
    paid = api.call("POST", f"{P}/PayOrder/confirmPay", token=token, json={**confirm, "paymentPlatformId": "pm_1"})
    assert ok(paid) == {"payStatus": 2}
    after = device(international_app.container, COLD_ROOM_A)
    assert (after.level_id, after.service_expires_at) == (pro["levelId"], promised(international_app.container,
                                                                                     placed["orderId"]))
    paypal = ok(service_order(api, token, [room.id], pro, year, pay_type=20))
    assert paypal["approveUrl"].startswith("http")


def test_unknown_fields_and_oversized_batches_are_refused(api, alice, container):
    room = device(container, COLD_ROOM_A)
    reply = api.call("POST", f"{P}/PayOrder/createBatchServiceOrder", token=alice, json={
        "deviceIdList": list(range(1, 202)), "levelId": 1, "levelYearId": 1, "servicePackageId": 1, "payType": 1,
        "serviceFee": 1, "totalFee": 1})
    refused(reply, 422, 422)
    assert "deviceIdList" in reply.body["errors"]
    reply = api.call("POST", f"{P}/PayOrder/createServiceOrder", token=alice, json={
        "deviceId": room.id, "levelId": 1, "levelYearId": 1, "servicePackageId": 1, "payType": 1, "serviceFee": 1,
        "totalFee": 1, "discount": 1})
    refused(reply, 422, 422)
    assert "discount" in reply.body["errors"]
