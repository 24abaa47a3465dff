"""Paying and cancelling calibration applications (issue 21) through the real gateways against the
payment sandbox over HTTP (the `payments` console: PAYMENT_BACKEND=providers, SQLite and
PostgreSQL): a customer without an account applies and pays by Alipay (QR code and mobile page) or
WeChat Pay (QR code and inside WeChat); the sandbox's signed notification settles it once; a forged
one, another amount or another currency changes nothing; cancel/apply pays a paid application back
through its provider once, and withdraws an unpaid started payment; only its customer (the token,
not the contact) or the lab may pay or cancel."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest
import requests
from sqlalchemy import select

from adapters.persistence.models import DeviceRow, PaymentNotificationRow
from core.calibration.errors import AlreadyCancelled
from core.calibration.model import RefundState
from core.calibration.ports import ApplicationRefund
from core.shared.edition import PayType
from payment_sandbox.ledger import Status as SandboxStatus
from tests.support.api import ok
from tests.support.demo_copy import seeded

C = "/calibration/Application"
PAY = "/payment/payment"
TOKEN, CONTACT = "X-Calibration-Token", "X-Calibration-Contact"
DETAILS = {"customerName": "Pharma Ltd", "contactName": "Wang", "contactPhone": "+86 139-0000-0001",
           "contactEmail": "wang@example.com", "returnAddress": "9 Pharmacy Lane"}
ROOM_A = "RCW360A0000001"
PRICE = 30000


def type_id(console) -> int:
    with console.container.session_factory()() as session:
        return session.scalar(select(DeviceRow.type_id).where(DeviceRow.guid == ROOM_A))


def applied(console, serials=("SN-0001",)) -> tuple[str, str]:
    """A customer without an account applies for typed devices: (number, access token)."""
    api, kind = console.api, type_id(console)
    ok(api.call("PUT", "/calibration/PriceConf/update/price", token=api.token("calibadmin"),
                json={"deviceTypeId": kind, "service": 1, "price": PRICE}))
    made = ok(api.call("POST", f"{C}/apply", json={**DETAILS, "devices": [
        {"service": 1, "deviceTypeId": kind, "model": "RCW-360", "serialNumber": s} for s in serials]}))
    return made["applicationNumber"], made["accessToken"]


def start(console, number: str, token: str | None, call: str = "aliPay", **body):
    return console.api.call("POST", f"{PAY}/{call}", headers={TOKEN: token} if token else None,
                            json={"applicationNumber": number, **body})


def info(console, number: str) -> dict:
    return ok(console.api.call("GET", f"{C}/get/applicationInfo", query={"applicationNumber": number},
                               headers={CONTACT: "wang@example.com"}))


def confirm(console, number: str) -> dict:
    return ok(console.api.call("GET", f"{PAY}/confirmCalibration", query={"applicationNumber": number},
                               headers={CONTACT: "wang@example.com"}))


def press(url: str, outcome: str = "pay", **form: str) -> requests.Response:
    """The payer on the sandbox's payer page (what the QR code, mobile page or WeChat's sheet opens)."""
    return requests.post(url, data={"outcome": outcome, **form}, allow_redirects=False, timeout=30)


def verdicts(console, number: str) -> list[str]:
    with console.container.session_factory()() as session:
        return list(session.scalars(select(PaymentNotificationRow.verdict).where(
            PaymentNotificationRow.order_code == number).order_by(PaymentNotificationRow.id)))


def test_a_customer_without_an_account_pays_by_alipay_s_qr_code_and_the_notification_counts_once(payments):
    number, token = applied(payments)
    started = ok(start(payments, number, token))
    assert started["payQrCode"].startswith(payments.world.sandbox_url) and started["totalFee"] == PRICE
    assert (info(payments, number)["status"], confirm(payments, number)["paid"]) == (1, False)

    assert press(started["payQrCode"]).status_code == 200  # Alipay notifies the console
    assert info(payments, number)["status"] == 2 and info(payments, number)["paidFee"] == PRICE
    assert verdicts(payments, number) == ["settled"]

    # Alipay sends it again: acknowledged, counted once
    sandbox = payments.world.providers["alipay"]
    headers, body = sandbox.notification(payments.world.ledger.by_order("alipay", number))
    again = requests.post(f"{payments.world.console_url}/api/payment/notify/alipay", data=body, headers=headers,
                          timeout=30)
    assert (again.status_code, again.text) == (200, "success")
    assert verdicts(payments, number) == ["settled", "alreadySettled"]
    assert info(payments, number)["paidFee"] == PRICE
    refused = start(payments, number, token)  # paid: nothing more to pay
    assert (refused.status, refused.code) == (409, 2208)
    assert confirm(payments, number)["paid"] is True


def test_alipay_s_mobile_page_sends_the_payer_back_and_confirm_reads_the_payment(payments):
    number, token = applied(payments)
    started = ok(start(payments, number, token, scene="wap"))
    assert "payQrCode" not in started or started["payQrCode"] is None
    page = requests.get(started["approveUrl"], allow_redirects=False, timeout=30)  # Alipay's page, then its payer's
    assert page.status_code == 302
    return_url = dict(parse_qsl(started["approveUrl"].split("?", 1)[1]))["return_url"]
    assert return_url.endswith("/mobile/calibration/apply/success?" + urlencode({"number": number}))
    paid = requests.post(page.headers["Location"], data={"outcome": "pay-silently"}, allow_redirects=False,
                         timeout=30)  # paid, and the notification is lost
    assert paid.status_code == 303 and paid.headers["Location"].startswith(return_url + "&out_trade_no=" + number)
    assert info(payments, number)["status"] == 1
    back = confirm(payments, number)  # the return page asks: the provider is asked once, and it settles
    assert back["paid"] is True and back["application"]["status"] == 2
    assert back["application"]["details"] is None  # read with the contact: no customer details
    assert confirm(payments, number)["application"]["paidFee"] == PRICE


def test_wechat_pay_by_qr_code_and_inside_wechat_with_the_openid(payments):
    number, token = applied(payments)
    started = ok(start(payments, number, token, "wechatPay"))
    assert started["payQrCode"]
    refused = start(payments, number, token, "wechatPay", scene="jsapi")  # inside WeChat needs the OpenID
    assert (refused.status, refused.code) == (422, 422)
    assert start(payments, number, token, "wechatPay", scene="wap").status == 422  # WeChat has no wap here

    other, other_token = applied(payments, ("SN-0002",))
    open_id = ok(payments.api.call("GET", f"{PAY}/getOpenId", query={"code": "0a1b2c"}))["openId"]
    sheet = ok(start(payments, other, other_token, "wechatPay", scene="jsapi", openId=open_id))
    assert {"appId", "timeStamp", "nonceStr", "package", "signType", "paySign"} <= sheet.keys()
    prepay = sheet["package"].removeprefix("prepay_id=")
    assert press(f"{payments.world.sandbox_url}/pay/wechat/{prepay}").status_code == 200
    assert info(payments, other)["status"] == 2 and verdicts(payments, other) == ["settled"]
    assert payments.world.ledger.get(prepay).extra["openid"] == open_id
    assert press(started["payQrCode"]).status_code == 200
    assert info(payments, number)["status"] == 2


def test_a_forged_a_short_or_a_foreign_currency_notification_changes_nothing(payments):
    number, token = applied(payments)
    started = ok(start(payments, number, token))
    world, notify = payments.world, f"{payments.world.console_url}/api/payment/notify/alipay"
    press(started["payQrCode"], "pay-silently")  # paid at Alipay; the console has not heard yet
    payment = world.ledger.by_order("alipay", number)
    sandbox = world.providers["alipay"]

    headers, body = sandbox.notification(payment)
    forged = urlencode({**dict(parse_qsl(body.decode())), "total_amount": "0.01"}).encode()  # signed for 300.00
    assert requests.post(notify, data=forged, headers=headers, timeout=30).status_code == 200
    short_headers, short = sandbox.notification(payment, total_amount="0.01", receipt_amount="0.01",
                                                buyer_pay_amount="0.01")
    requests.post(notify, data=short, headers=short_headers, timeout=30)
    foreign_headers, foreign = sandbox.notification(payment, trans_currency="USD")
    requests.post(notify, data=foreign, headers=foreign_headers, timeout=30)
    assert info(payments, number)["status"] == 1
    assert verdicts(payments, number) == ["paymentDiffers", "paymentDiffers"]  # the forgery's is ordering's
    with payments.container.session_factory()() as session:
        assert "badSignature" in session.scalars(select(PaymentNotificationRow.verdict)).all()

    honest_headers, honest = sandbox.notification(payment)
    requests.post(notify, data=honest, headers=honest_headers, timeout=30)
    assert info(payments, number)["status"] == 2


def test_cancelling_a_paid_application_refunds_it_through_its_provider_once(payments):
    number, token = applied(payments)
    press(ok(start(payments, number, token))["payQrCode"])
    assert info(payments, number)["status"] == 2
    check = ok(payments.api.call("POST", f"{C}/cancel/check", headers={TOKEN: token},
                                 json={"applicationNumber": number}))
    assert check == {"possible": True, "reason": None, "refundFee": PRICE}

    cancelled = ok(payments.api.call("POST", f"{C}/cancel/apply", headers={TOKEN: token},
                                     json={"applicationNumber": number}))
    assert (cancelled["application"]["status"], cancelled["refundFee"]) == (7, PRICE)
    assert cancelled["refundState"] == int(RefundState.SUCCEEDED)  # Alipay's refunds are final at once
    paid_back = payments.world.ledger.by_order("alipay", number)
    assert (paid_back.status, paid_back.refunded_cents, paid_back.refunds) == (SandboxStatus.REFUNDED, PRICE,
                                                                              (f"{number}R",))
    again = payments.api.call("POST", f"{C}/cancel/apply", headers={TOKEN: token}, json={"applicationNumber": number})
    assert (again.status, again.code) == (409, AlreadyCancelled.code)
    # asked twice with the same refund code (the resume job after a lost answer): paid once
    refund = ApplicationRefund(number, f"{number}R", PRICE, PRICE, "CNY", PayType.ALIPAY, number)
    adapter = payments.container.application_payments()
    assert adapter.refund(refund).value == adapter.refund(refund).value == "succeeded"
    assert payments.world.ledger.by_order("alipay", number).refunded_cents == PRICE
    assert payments.container.resume_calibration_refunds()() == {}  # nothing pending


def test_a_wechat_refund_pending_at_cancel_ends_with_its_notification_or_the_job(payments):
    number, token = applied(payments)
    press(ok(start(payments, number, token, "wechatPay"))["payQrCode"])
    cancelled = ok(payments.api.call("POST", f"{C}/cancel/apply", headers={TOKEN: token},
                                     json={"applicationNumber": number}))
    assert cancelled["refundState"] == int(RefundState.PENDING)  # WeChat accepted it: its outcome comes later
    assert payments.container.resume_calibration_refunds()() == {number: RefundState.PENDING}
    finished = requests.post(f"{payments.world.sandbox_url}/refunds/wechat/{number}R", data={"outcome": "succeed"},
                             timeout=30).json()
    assert finished["merchantStatus"] == 200 and "SUCCESS" in finished["merchantAnswer"]
    assert info(payments, number)["refundState"] == int(RefundState.SUCCEEDED)
    assert verdicts(payments, number)[-1] == "refundSucceeded"
    assert payments.container.resume_calibration_refunds()() == {}

    other, other_token = applied(payments, ("SN-0002",))
    press(ok(start(payments, other, other_token, "wechatPay"))["payQrCode"])
    ok(payments.api.call("POST", f"{C}/cancel/apply", headers={TOKEN: other_token}, json={"applicationNumber": other}))
    requests.post(f"{payments.world.sandbox_url}/refunds/wechat/{other}R", data={"outcome": "succeed-silently"},
                  timeout=30)
    assert payments.container.resume_calibration_refunds()() == {other: RefundState.SUCCEEDED}  # the job asks
    assert info(payments, other)["refundState"] == int(RefundState.SUCCEEDED)


def test_cancelling_an_unpaid_started_payment_closes_it_at_the_provider(payments):
    number, token = applied(payments)
    started = ok(start(payments, number, token, "wechatPay"))
    cancelled = ok(payments.api.call("POST", f"{C}/cancel/apply", headers={TOKEN: token},
                                     json={"applicationNumber": number}))
    assert (cancelled["application"]["status"], cancelled["refundState"]) == (7, int(RefundState.NONE))
    assert payments.world.ledger.by_order("wechat", number).status is SandboxStatus.CLOSED
    assert press(started["payQrCode"]).status_code == 409  # its QR code pays nothing any more
    assert info(payments, number)["status"] == 7


def test_only_the_customer_with_the_token_or_the_lab_pays_or_cancels(payments):
    api = payments.api
    number, token = applied(payments)
    for headers, token_of in (({CONTACT: "wang@example.com"}, None), ({TOKEN: "x" * 32}, None), (None, "bob")):
        bearer = api.token(token_of) if token_of else None
        paid = api.call("POST", f"{PAY}/aliPay", token=bearer, headers=headers, json={"applicationNumber": number})
        cancel = api.call("POST", f"{C}/cancel/apply", token=bearer, headers=headers,
                          json={"applicationNumber": number})
        expected = (403, 2215) if headers and CONTACT in headers else (404, 404)
        assert (paid.status, paid.code) == (cancel.status, cancel.code) == expected
    assert info(payments, number)["status"] == 1
    assert payments.world.ledger.by_order("alipay", number) is None  # nothing was started

    # an account's application: another account, or an id without one, is not found
    alice, bob = api.token("alice"), api.token("bob")
    kind = type_id(payments)
    mine = ok(api.call("POST", f"{C}/apply", token=alice, json={**DETAILS, "devices": [
        {"service": 1, "deviceTypeId": kind, "model": "RCW-360", "serialNumber": "SN-0003"}]}))
    for bearer in (bob, None):
        for path in (f"{PAY}/aliPay", f"{C}/cancel/apply"):
            refused = api.call("POST", path, token=bearer, json={"applicationId": mine["applicationId"]})
            assert (refused.status, refused.code) == (404, 404)
    assert ok(api.call("POST", f"{PAY}/aliPay", token=alice, json={"applicationId": mine["applicationId"]}))[
        "payQrCode"]
    lab = ok(api.call("POST", f"{C}/cancel/apply", token=api.token("calibadmin"),
                      json={"applicationId": mine["applicationId"]}))
    assert lab["application"]["status"] == 8


@pytest.mark.parametrize("pay_type", [20, 30])
def test_a_pay_type_the_domestic_edition_does_not_offer_is_refused(payments, pay_type):
    number, token = applied(payments)
    refused = start(payments, number, token, "calibrationPay", payType=pay_type)
    assert (refused.status, refused.code) == (409, 1108)


# --- the international edition: Stripe's wallets and PayPal ------------------------------------------


def test_the_international_edition_pays_by_paypal_and_by_a_wallet_and_refunds_through_them(international_payments):
    console = international_payments
    number, token = applied(console)
    approve = ok(start(console, number, token, "calibrationPay", payType=20))["approveUrl"]
    approved = press(approve)  # approved on PayPal's page, sent back to the application's return page
    assert approved.status_code == 303
    assert approved.headers["Location"].startswith(
        f"{console.world.console_url}/mobile/calibration/apply/success?" + urlencode({"number": number}))
    paid = confirm(console, number)  # the return page asks: PayPal's approval is captured once
    assert paid["paid"] is True and paid["application"]["currency"] == "USD"
    assert confirm(console, number)["application"]["paidFee"] == PRICE

    other, other_token = applied(console, ("SN-0002",))
    assert ok(start(console, other, other_token, "calibrationPay", payType=30))["clientSecret"]
    wallet = f"{PAY}/confirmCalibration"
    declined = console.api.call("POST", wallet, headers={TOKEN: other_token},
                                json={"applicationNumber": other, "paymentPlatformId": "pm_card_chargeDeclined"})
    assert (declined.status, declined.code) == (409, 1112) and info(console, other)["status"] == 1
    read_only = console.api.call("POST", wallet, headers={CONTACT: "wang@example.com"},
                                 json={"applicationNumber": other, "paymentPlatformId": "pm_card_visa"})
    assert (read_only.status, read_only.code) == (403, 2215)
    charged = ok(console.api.call("POST", wallet, headers={TOKEN: other_token},
                                  json={"applicationNumber": other, "paymentPlatformId": "pm_card_visa"}))
    assert charged["paid"] is True and info(console, other)["paidFee"] == PRICE

    for paid_number, paid_token in ((number, token), (other, other_token)):
        cancelled = ok(console.api.call("POST", f"{C}/cancel/apply", headers={TOKEN: paid_token},
                                        json={"applicationNumber": paid_number}))
        # both accept a refund first (PayPal's PENDING, Stripe's pending): its outcome comes later
        assert (cancelled["refundFee"], cancelled["refundState"]) == (PRICE, int(RefundState.PENDING))
    sandbox = console.world.sandbox_url
    requests.post(f"{sandbox}/refunds/stripe/{other}R", data={"outcome": "succeed"}, timeout=30)  # its webhook
    assert info(console, other)["refundState"] == int(RefundState.SUCCEEDED)
    assert verdicts(console, other)[-1] == "refundSucceeded"
    requests.post(f"{sandbox}/refunds/paypal/{number}R", data={"outcome": "succeed"}, timeout=30)
    assert console.container.resume_calibration_refunds()() == {number: RefundState.SUCCEEDED}  # read back
    assert info(console, number)["refundState"] == int(RefundState.SUCCEEDED)


# --- the development backend (make run, the web's end-to-end tests) ----------------------------------


def test_the_development_pay_link_settles_an_application_once_and_not_a_cancelled_one(app):
    from tests.support.api import ApiClient

    seeded(app, history=False)
    console = type("Console", (), {"api": ApiClient(app.flask.test_client()), "container": app.container})()
    number, token = applied(console)
    link = ok(start(console, number, token))["payQrCode"]
    assert "/api/payment/development/pay?" in link
    query = dict(parse_qsl(link.split("?", 1)[1]))

    def open_link(**changes):
        return console.api.call("GET", "/payment/development/pay", query={**query, **changes})

    assert open_link(amount="1").status == 403  # signed over the number and the amount
    assert ok(open_link())["payStatus"] == 2 and ok(open_link())["payStatus"] == 2
    assert (info(console, number)["status"], info(console, number)["paidFee"]) == (2, PRICE)

    other, other_token = applied(console, ("SN-0002",))
    other_link = ok(start(console, other, other_token, "wechatPay"))["payQrCode"]
    ok(console.api.call("POST", f"{C}/cancel/apply", headers={TOKEN: other_token}, json={"applicationNumber": other}))
    refused = console.api.call("GET", "/payment/development/pay", query=dict(parse_qsl(other_link.split("?", 1)[1])))
    assert (refused.status, refused.code) == (409, 1111) and info(console, other)["status"] == 7
