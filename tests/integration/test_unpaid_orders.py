"""Unpaid orders do not pile up (issue 14, item 3), through the API with every provider its local
sandbox, on SQLite and PostgreSQL (the international console on SQLite):

- each change in the paying drawer asks for a new order, which supersedes the caller's earlier
  unpaid order for the same devices: closed with its provider (its QR code or page pays nothing
  any more) and left out of My orders; paying the last one settles exactly that one;
- the owner cancels an unpaid order (a stranger gets 404, a read-only member 403) or pays it again;
- an unpaid order expires with its provider's payment, closed there by reconciliation;
- a genuine payment the provider took for a closed order is settled and recorded, never lost.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from types import SimpleNamespace

import pytest
import requests
from sqlalchemy import select, update

from adapters.persistence.models import OrganizationMemberRow, PaymentNotificationRow, RoleRow
from core.devices.access import READ_ONLY
from core.devices.model import add_months
from core.ordering.payment_flows import Reconciliation
from core.ordering.payments import PAYMENT_VALIDITY, Provider
from core.permissions import roles
from entrypoints.api.framework import envelope, page_of
from entrypoints.api.payment import schemas as s
from payment_sandbox.ledger import Status
from payment_sandbox.provider import deliver
from tests.integration.test_attack_access import account_id
from tests.integration.test_recharge_api import (
    ACME_ROOM,
    COLD_ROOM_A,
    COLD_ROOM_B,
    device,
    levels,
    ok,
    options,
    pay,
    refused,
)

P = "/payment/PayOrder"
BASIC = "基础版"
WECHAT, ALIPAY, PAYPAL, GOOGLE_PAY, CARD = 1, 2, 20, 30, 40


def order_for(console, *, guid: str = COLD_ROOM_A, year: int = 0, pay_type: int = WECHAT, user: str = "alice",
              bill: int | None = None) -> dict:
    """What the paying drawer asks for: a year option of the device's current level (a renewal:
    the device's expiry simply moves on), paid by a method, with or without an invoice."""
    api, token = console.api, console.api.token(user)
    room = device(console.container, guid)
    chosen = next(lv for lv in levels(api, token, room.id).values() if lv["current"])
    option = options(api, token, room.id, chosen)[year]
    body = {"deviceId": room.id, "levelId": chosen["levelId"], "levelYearId": option["id"],
            "servicePackageId": chosen["packageId"], "payType": pay_type, "serviceFee": option["serviceFee"],
            "totalFee": option["price"], "applyFlag": bill is not None, "billId": bill}
    placed = ok(api.call("POST", f"{P}/createServiceOrder", token=token, json=body), s.OrderPlacedSchema)
    return {**placed, "months": option["timeLength"] + option["presentationMonth"]}


def status(console, placed: dict, user: str = "alice") -> int:
    reply = console.api.call("GET", f"{P}/get", token=console.api.token(user), query={"pk": placed["orderId"]})
    return ok(reply)["payStatus"]


def my_orders(console, user: str = "alice", **query) -> dict:
    reply = console.api.call("POST", f"{P}/selectMyOrderList", token=console.api.token(user), json=query)
    return ok(reply, page_of(s.MyOrderSchema))


def sandbox_status(console, provider: str, placed: dict) -> Status:
    payment = console.world.ledger.by_order(provider, placed["orderCode"])
    assert payment is not None, (provider, placed["orderCode"])
    return payment.status


def press(url: str, outcome: str = "pay") -> requests.Response:
    """The payer on the sandbox's payer page (what the QR code or approve link opens)."""
    return requests.post(url, data={"outcome": outcome}, allow_redirects=False, timeout=30)


def bill_of(console, user: str = "alice") -> int:
    return ok(console.api.call("POST", "/payment/PayUserBill/insert", token=console.api.token(user), json={
        "invoiceType": 1, "billMode": 2, "personalName": "Alice Zhang", "billUserName": "Alice",
        "billPhone": "13800000001", "billMail": "alice@example.com"}))["billId"]


def verdicts(container) -> list[tuple[str, str, str | None]]:
    with container.session_factory()() as session:
        rows = session.scalars(select(PaymentNotificationRow).order_by(PaymentNotificationRow.id))
        return [(r.provider, r.verdict, r.order_code) for r in rows]


# --- supersession ---------------------------------------------------------------------------------------


def test_three_changes_in_the_drawer_leave_one_unpaid_order_and_paying_it_settles_exactly_that_one(payments):
    before = device(payments.container, COLD_ROOM_A).service_expires_at
    first = order_for(payments)                                  # the drawer opens: 1 year, WeChat Pay
    longer = order_for(payments, year=1)                         # change: the duration
    alipay = order_for(payments, year=1, pay_type=ALIPAY)        # change: the payment method
    last = order_for(payments, year=1, pay_type=ALIPAY, bill=bill_of(payments))  # change: the invoice

    assert [status(payments, o) for o in (first, longer, alipay, last)] == [4, 4, 4, 1]
    # each was withdrawn at its provider: its QR code pays nothing any more
    assert [sandbox_status(payments, p, o) for p, o in (("wechat", first), ("wechat", longer),
                                                         ("alipay", alipay))] == [Status.CLOSED] * 3
    for superseded in (first, longer, alipay):
        assert press(superseded["payQrCode"]).status_code == 409
    listed = my_orders(payments)
    assert [(o["orderId"], o["payStatus"]) for o in listed["data"]] == [(last["orderId"], 1)]

    assert "The merchant answered 200" in press(last["payQrCode"]).text
    listed = my_orders(payments)
    assert [(o["orderId"], o["payStatus"]) for o in listed["data"]] == [(last["orderId"], 2)]
    assert my_orders(payments, payStatus=1)["totalCount"] == 0
    assert device(payments.container, COLD_ROOM_A).service_expires_at == add_months(before, last["months"])
    assert [status(payments, o) for o in (first, longer, alipay)] == [4, 4, 4]


def test_an_order_for_other_devices_or_of_another_kind_is_not_superseded(payments):
    room_a = order_for(payments)
    room_b = order_for(payments, guid=COLD_ROOM_B)
    api, alice = payments.api, payments.api.token("alice")
    sms = ok(api.call("GET", "/payment/PaySmsPackages/selectSmsPackage", token=alice,
                      query={"countryCode": "86"}))["smsList"][0]
    ok(api.call("POST", f"{P}/createSmsOrder", token=alice, json={
        "deviceId": device(payments.container, COLD_ROOM_A).id, "payType": WECHAT, "countryCode": "86",
        "smsPackageId": sms["packageId"], "smsCount": sms["smsCount"], "smsFee": sms["packageFee"],
        "voicePackageId": None, "voiceCount": 0, "voiceFee": 0, "totalFee": sms["price"]}))
    assert [status(payments, o) for o in (room_a, room_b)] == [1, 1]
    assert my_orders(payments, payStatus=1)["totalCount"] == 3


def test_an_order_paid_just_before_it_was_superseded_is_settled_by_reconciliation(payments):
    before = device(payments.container, COLD_ROOM_A).service_expires_at
    first = order_for(payments)
    press(first["payQrCode"], "pay-silently")  # paid at WeChat; its notification is lost
    second = order_for(payments, year=1)        # WeChat refuses to close a paid order: it stays unpaid here
    assert (status(payments, first), status(payments, second)) == (1, 1)
    payments.clock.advance(minutes=4)
    assert payments.container.reconcile_payments()().settled == 1
    assert (status(payments, first), status(payments, second)) == (2, 1)
    assert device(payments.container, COLD_ROOM_A).service_expires_at == add_months(before, first["months"])


def test_superseded_stripe_and_paypal_payments_take_no_money(international_payments):
    console = international_payments
    before = device(console.container, COLD_ROOM_A).service_expires_at
    card = order_for(console, pay_type=CARD)
    paypal = order_for(console, pay_type=PAYPAL)
    wallet = order_for(console, pay_type=GOOGLE_PAY, year=1)
    assert [status(console, o) for o in (card, paypal, wallet)] == [4, 4, 1]

    assert sandbox_status(console, "stripe", card) is Status.CLOSED  # the intent is canceled
    assert press(card["approveUrl"]).status_code == 409
    # PayPal cannot withdraw an order: the payer may still approve it, but nobody captures it
    back = press(paypal["approveUrl"])
    assert back.status_code == 303
    landed = requests.get(back.headers["Location"], allow_redirects=False, timeout=30)
    assert "payStatus=4" in landed.headers["Location"]
    assert status(console, paypal) == 4 and sandbox_status(console, "paypal", paypal) is Status.PENDING
    console.clock.advance(minutes=10)
    assert console.container.reconcile_payments()().settled == 0  # a closed order is not captured either
    assert status(console, paypal) == 4 and sandbox_status(console, "paypal", paypal) is Status.PENDING

    assert "The merchant answered 200" in press(wallet["approveUrl"]).text
    assert [status(console, o) for o in (card, paypal, wallet)] == [4, 4, 2]
    assert device(console.container, COLD_ROOM_A).service_expires_at == add_months(before, wallet["months"])


# --- a payment the provider took for a closed order ------------------------------------------------------------


@pytest.mark.parametrize("provider,pay_type,accepted", [("wechat", WECHAT, "SUCCESS"), ("alipay", ALIPAY, "success")])
def test_a_genuine_payment_of_a_closed_order_is_settled_and_recorded(payments, provider, pay_type, accepted):
    before = device(payments.container, COLD_ROOM_A).service_expires_at
    first = order_for(payments, pay_type=pay_type)
    second = order_for(payments, pay_type=pay_type, year=1)
    assert status(payments, first) == 4
    # The payer's app paid the first code as it was being closed: the provider took the money
    # and sends its signed notification.
    ledger, sandbox = payments.world.ledger, payments.world.providers[provider]
    payment = ledger.by_order(provider, first["orderCode"])
    ledger.update(payment.id, status=Status.PENDING)
    delivery = sandbox.complete(ledger.get(payment.id), paid=True)
    assert delivery.status == 200 and accepted in delivery.body  # acknowledged: no retries for days
    assert (status(payments, first), status(payments, second)) == (2, 1)
    assert device(payments.container, COLD_ROOM_A).service_expires_at == add_months(before, first["months"])
    assert verdicts(payments.container) == [(provider, "settledClosed", first["orderCode"])]
    assert [o["orderId"] for o in my_orders(payments, payStatus=2)["data"]] == [first["orderId"]]
    # told again, it changes nothing more
    headers, body = sandbox.notification(ledger.get(payment.id))
    assert deliver(f"{payments.world.console_url}/api/payment/notify/{provider}", body, headers).status == 200
    assert device(payments.container, COLD_ROOM_A).service_expires_at == add_months(before, first["months"])
    assert verdicts(payments.container)[-1] == (provider, "alreadySettled", first["orderCode"])


# --- cancel -------------------------------------------------------------------------------------------------------


def test_the_owner_cancels_an_unpaid_order_with_its_provider(payments):
    placed = order_for(payments)
    api, alice = payments.api, payments.api.token("alice")
    cancelled = ok(api.call("POST", f"{P}/cancelOrder", token=alice, json={"orderId": placed["orderId"]}),
                   s.OrderStatusSchema)
    assert cancelled["payStatus"] == 4 and "payQrCode" not in cancelled
    assert sandbox_status(payments, "wechat", placed) is Status.CLOSED
    assert press(placed["payQrCode"]).status_code == 409
    again = ok(api.call("POST", f"{P}/cancelOrder", token=alice, json={"orderId": placed["orderId"]}))
    assert again["payStatus"] == 4  # cancelling twice changes nothing
    [row] = my_orders(payments)["data"]
    assert (row["orderId"], row["payStatus"], row["closeReason"]) == (placed["orderId"], 4, "cancelled")
    refused(api.call("POST", f"{P}/continuePay", token=alice, json={"orderId": placed["orderId"]}), 409, 1111)


def test_a_paid_order_cannot_be_cancelled_and_another_customer_s_is_unknown(payments):
    placed = order_for(payments)
    api = payments.api
    for user in ("acme", "bob"):
        refused(api.call("POST", f"{P}/cancelOrder", token=api.token(user), json={"orderId": placed["orderId"]}),
                404, 404)
        refused(api.call("POST", f"{P}/continuePay", token=api.token(user), json={"orderId": placed["orderId"]}),
                404, 404)
        refused(api.call("POST", f"{P}/selectOrderDetail", token=api.token(user),
                         json={"orderId": placed["orderId"]}), 404, 404)
    refused(api.call("POST", f"{P}/cancelOrder", token=api.token("alice"), json={"orderId": 10**9}), 404, 404)
    assert status(payments, placed) == 1 and sandbox_status(payments, "wechat", placed) is Status.PENDING
    press(placed["payQrCode"])
    reply = api.call("POST", f"{P}/cancelOrder", token=api.token("alice"), json={"orderId": placed["orderId"]})
    refused(reply, 409, 1121)
    assert reply.body["msg"] == "This order has been paid and can no longer be cancelled"
    assert status(payments, placed) == 2


def set_role(container, user: str, role) -> None:
    with container.session_factory()() as session:
        role_id = session.scalar(select(RoleRow.id).where(RoleRow.code == role.code))
        session.execute(update(OrganizationMemberRow).where(
            OrganizationMemberRow.account_id == account_id(container, user)).values(role_id=role_id))
        session.commit()


def test_a_read_only_member_cannot_cancel_nor_pay_an_order_for_the_organization_s_device(payments):
    set_role(payments.container, "bob", roles.ORG_ADMIN)  # an administrator orders for acme's room...
    placed = order_for(payments, guid=ACME_ROOM, user="bob")
    set_role(payments.container, "bob", roles.ORG_MEMBER)  # ...and is a plain member since
    api, bob = payments.api, payments.api.token("bob")
    messages = set()
    for language in ("en-US", "zh-CN", "es-ES", "ru-RU", "pt-PT", "de-DE", "zh-TW"):
        api.language = language
        for call in ("cancelOrder", "continuePay"):
            reply = api.call("POST", f"{P}/{call}", token=bob, json={"orderId": placed["orderId"]})
            refused(reply, 403, 403)
            messages.add((language, reply.body["msg"]))
    api.language = "en-US"
    assert len({msg for _, msg in messages}) == 7 and ("en-US", READ_ONLY) in messages
    assert status(payments, placed, user="bob") == 1
    assert sandbox_status(payments, "wechat", placed) is Status.PENDING
    # what the member may still do: read it
    detail = ok(api.call("POST", f"{P}/selectOrderDetail", token=bob, json={"orderId": placed["orderId"]}))
    assert [line["deviceName"] for line in detail["lines"]] == ["Warehouse 1 cold room"]


# --- paying again, expiry ---------------------------------------------------------------------------------------


def test_paying_again_shows_the_same_code_until_the_order_expires_with_its_provider(payments):
    placed = order_for(payments)
    api, alice = payments.api, payments.api.token("alice")
    again = ok(api.call("POST", f"{P}/continuePay", token=alice, json={"orderId": placed["orderId"]}),
               s.ResumedPaymentSchema)
    assert (again["orderId"], again["payQrCode"], again["payType"], again["currency"]) == (
        placed["orderId"], placed["payQrCode"], WECHAT, "CNY")
    [row] = my_orders(payments)["data"]
    assert row["expireTime"] == again["expireTime"]

    payments.clock.advance(seconds=PAYMENT_VALIDITY[Provider.WECHAT].total_seconds() - 30)
    expired = api.call("POST", f"{P}/continuePay", token=alice, json={"orderId": placed["orderId"]})
    refused(expired, 409, 1123)  # too late to scan: closed with WeChat, a new order is needed
    assert status(payments, placed) == 4 and sandbox_status(payments, "wechat", placed) is Status.CLOSED


def test_reconciliation_closes_an_expired_order_with_its_provider(payments):
    wechat = order_for(payments)
    alipay = order_for(payments, guid=COLD_ROOM_B, pay_type=ALIPAY)
    payments.clock.advance(minutes=10)
    assert payments.container.reconcile_payments()().unpaid == 2
    payments.clock.advance(seconds=PAYMENT_VALIDITY[Provider.WECHAT].total_seconds())
    assert payments.container.reconcile_payments()().closed == 2
    for provider, placed in (("wechat", wechat), ("alipay", alipay)):
        assert status(payments, placed) == 4 and sandbox_status(payments, provider, placed) is Status.CLOSED
        assert press(placed["payQrCode"]).status_code == 409
    closed = my_orders(payments, payStatus=4)["data"]
    assert {(o["orderId"], o["closeReason"], o["expireTime"]) for o in closed} == {
        (wechat["orderId"], "expired", None), (alipay["orderId"], "expired", None)}
    payments.clock.advance(minutes=5)
    assert payments.container.reconcile_payments()() == Reconciliation()


def test_a_paypal_order_lives_as_long_as_paypal_lets_it_be_approved(international_payments):
    console = international_payments
    placed = order_for(console, pay_type=PAYPAL)
    console.clock.advance(hours=2, minutes=30)
    assert console.container.reconcile_payments()().unpaid == 1
    console.clock.advance(minutes=31)
    assert console.container.reconcile_payments()().closed == 1
    assert status(console, placed) == 4


# --- what My orders shows ---------------------------------------------------------------------------------------


def test_my_orders_and_the_details_name_the_devices_in_the_order_s_currency(payments):
    api, alice = payments.api, payments.api.token("alice")
    room_a, room_b = device(payments.container, COLD_ROOM_A), device(payments.container, COLD_ROOM_B)
    basic = levels(api, alice, room_a.id)["Basic"]  # en-US; the order keeps the default language's name
    option = options(api, alice, room_a.id, basic)[0]
    quote = ok(api.call("POST", f"{P}/selectBatchQuote", token=alice, json={
        "deviceIdList": [room_a.id, room_b.id], "levelId": basic["levelId"], "levelYearId": option["id"],
        "servicePackageId": basic["packageId"]}))
    placed = ok(api.call("POST", f"{P}/createBatchServiceOrder", token=alice, json={
        "deviceIdList": [room_a.id, room_b.id], "levelId": basic["levelId"], "levelYearId": option["id"],
        "servicePackageId": basic["packageId"], "payType": WECHAT, "serviceFee": option["serviceFee"],
        "totalFee": sum(q["totalFee"] for q in quote)}))
    ok(api.call("PUT", "/device/Device/update", token=alice, json={"deviceId": room_a.id, "deviceName": "Renamed"}))

    [row] = my_orders(payments)["data"]
    assert (row["currency"], row["deviceCount"], row["devices"]) == ("CNY", 2, [
        {"deviceId": room_a.id, "deviceName": "Cold room A logger"},
        {"deviceId": room_b.id, "deviceName": "Cold room B logger"}])
    detail = ok(api.call("POST", f"{P}/selectOrderDetail", token=alice, json={"orderId": placed["orderId"]}),
                s.OrderDetailSchema)
    assert [(line["deviceName"], line["levelName"], line["timeLength"], line["fee"]) for line in detail["lines"]] == [
        ("Cold room A logger", BASIC, 12, quote[0]["totalFee"]),
        ("Cold room B logger", BASIC, 12, quote[1]["totalFee"])]
    assert (detail["payStatus"], detail["orderFee"], detail["closeTime"]) == (1, placed["totalFee"], None)
    envelope(s.OrderDetailSchema)().load({"code": 0, "msg": "ok", "data": detail})


def test_expiry_is_the_provider_s_validity_from_placing(payments):
    placed = order_for(payments)
    [row] = my_orders(payments)["data"]
    created, expires = datetime.fromisoformat(row["gmtCreate"]), datetime.fromisoformat(row["expireTime"])
    assert expires - created == timedelta(hours=2)
    assert placed["orderId"] == row["orderId"]


# --- the development gateway (make run) --------------------------------------------------------------------------


@pytest.mark.usefixtures("recharge_demo")
def test_the_development_pay_link_of_a_superseded_order_pays_nothing(api, container):
    console = SimpleNamespace(api=api, container=container)  # the development console (PAYMENT_BACKEND=development)
    first, second = order_for(console), order_for(console, year=1)
    refused(pay(api, first), 409, 1111)
    assert (status(console, first), status(console, second)) == (4, 1)
    assert ok(pay(api, second)) == {"payStatus": 2}
