"""A white-label platform's orders are paid to its own merchant account (issue 19, PayPdWxConfig):
placed through its domain, started, notified, refunded and told of the refund through its
account at WeChat Pay, with the real SDK against the local sandbox; the console's own account
can settle none of them."""

from __future__ import annotations

import secrets

from sqlalchemy import select

from adapters.persistence.models import OrderRow
from entrypoints.api.orders import schemas as os
from tests.integration.test_recharge_api import COLD_ROOM_A, device, levels, ok, options
from tests.integration.test_refund_outcomes import finish_at_provider
from tests.integration.test_refunds_api import order_status, refund
from tests.integration.test_unpaid_orders import press, verdicts

HOST = "demo.localhost"  # the demo's platform of camp 1
CAMP_WECHAT = {"appId": "wxcamp0001", "mchId": "1900000201", "apiKey": secrets.token_hex(16)}


def with_camp_account(payments) -> dict:
    """WeChat knows the platform's merchant, and the administrator gives camp 1 its account."""
    payments.world.providers["wechat"].add_merchant(CAMP_WECHAT["appId"], CAMP_WECHAT["mchId"],
                                                    CAMP_WECHAT["apiKey"])
    ok(payments.api.call("PUT", "/payment/PayPdConfig/update", token=payments.api.token("admin"),
                         json={"camp": 1, "provider": "wechat", "values": CAMP_WECHAT}))
    return CAMP_WECHAT


def order_through(payments, host: str) -> dict:
    """alice renews her cold room a year by WeChat Pay on the platform's domain."""
    api, token = payments.api, payments.api.token("alice")
    headers = {"Host": host}
    room = device(payments.container, COLD_ROOM_A)

    class Through:
        def call(self, method, path, **kwargs):
            return api.call(method, path, headers=headers, **kwargs)

    through = Through()
    chosen = next(lv for lv in levels(through, token, room.id).values() if lv["current"])
    option = options(through, token, room.id, chosen)[0]
    return ok(api.call("POST", "/payment/PayOrder/createServiceOrder", token=token, headers=headers, json={
        "deviceId": room.id, "levelId": chosen["levelId"], "levelYearId": option["id"],
        "servicePackageId": chosen["packageId"], "payType": 1, "serviceFee": option["serviceFee"],
        "totalFee": option["price"], "applyFlag": False}))


def camp_of(payments, order_code: str) -> int:
    with payments.container.session_factory()() as session:
        return session.scalar(select(OrderRow.camp).where(OrderRow.order_code == order_code))


def test_a_platforms_order_is_paid_notified_and_refunded_through_its_own_wechat_account(payments):
    account = with_camp_account(payments)
    placed = order_through(payments, HOST)
    assert camp_of(payments, placed["orderCode"]) == 1
    (payment,) = payments.world.ledger.of_order("wechat", placed["orderCode"])
    assert payment.extra["mch_id"] == account["mchId"]  # started with the platform's account
    assert payment.notify_url.endswith("/api/payment/notify/wechat/1")

    assert press(placed["payQrCode"]).status_code == 200  # paid; WeChat notifies the platform's path
    assert order_status(payments.api, placed["orderId"])[0] == 2
    assert (("wechat", "settled", placed["orderCode"])) in verdicts(payments.container)

    made = ok(refund(payments.api, placed["orderId"]), os.RefundSchema)
    assert made["providerReference"]  # WeChat accepted it under the platform's account
    told = finish_at_provider(payments, "wechat", made["refundCode"])
    assert told["merchantStatus"] == 200  # its refund notification, encrypted with the platform's key
    assert order_status(payments.api, placed["orderId"])[0] == 3


def test_the_consoles_own_account_settles_no_order_of_a_platform(payments):
    with_camp_account(payments)
    placed = order_through(payments, f"www.{HOST}")
    wechat = payments.world.providers["wechat"]
    (payment,) = payments.world.ledger.of_order("wechat", placed["orderCode"])
    paid = wechat.settle(payment, True)  # taken by WeChat, told nowhere yet
    # a notification about it signed with the console's own key, as if its account had been paid
    forged = wechat.payment_result_xml(paid, key=wechat.api_key, appid=wechat.app_id, mch_id=wechat.mch_id)
    answer = payments.api.client.post("/api/payment/notify/wechat", data=forged, content_type="text/xml")
    assert b"FAIL" in answer.data
    assert order_status(payments.api, placed["orderId"])[0] == 1
    assert ("wechat", "wrongMerchant", placed["orderCode"]) in verdicts(payments.container)
    # and the platform's own account's, at the console's path, is not believed either
    genuine = wechat.payment_result_xml(paid)
    answer = payments.api.client.post("/api/payment/notify/wechat", data=genuine, content_type="text/xml")
    assert b"FAIL" in answer.data and order_status(payments.api, placed["orderId"])[0] == 1
    answer = payments.api.client.post("/api/payment/notify/wechat/1", data=genuine, content_type="text/xml")
    assert b"SUCCESS" in answer.data and order_status(payments.api, placed["orderId"])[0] == 2


def test_an_order_on_the_consoles_own_domain_still_goes_through_the_consoles_account(payments):
    with_camp_account(payments)
    placed = order_through(payments, "127.0.0.1")
    (payment,) = payments.world.ledger.of_order("wechat", placed["orderCode"])
    assert payment.extra["mch_id"] == payments.world.credentials.wechat_mch_id
    assert press(placed["payQrCode"]).status_code == 200
    assert order_status(payments.api, placed["orderId"])[0] == 2
