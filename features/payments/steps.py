"""Steps of features/payments/*.feature: the console with PAYMENT_BACKEND=providers, every provider
its local sandbox, the payer page driven over HTTP as a payer's browser would."""

from __future__ import annotations

import urllib.parse
import urllib.request

from pytest_bdd import given, parsers, then, when
from sqlalchemy import select

from adapters.persistence.models import DeviceRow
from core.devices.model import add_months
from payment_sandbox.wechat import sign, to_xml

DEVICE = "RCW360A0000001"
PAY_TYPES = {"WeChat Pay": 1, "Alipay": 2, "PayPal": 20, "Google Pay": 30, "the payment-request button": 40}


def _device(console) -> DeviceRow:
    with console.container.session_factory()() as session:
        return session.scalars(select(DeviceRow).where(DeviceRow.guid == DEVICE)).one()


def _ok(reply):
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


def _order(world) -> dict:
    console = world["console"]
    return _ok(console.api.call("GET", "/payment/PayOrder/get", token=console.api.token("alice"),
                                query={"pk": world["order"]["orderId"]}))


def _payer_page(world, outcome: str) -> str:
    """Presses a button of the payer page; returns where the browser ends up."""
    placed = world["order"]
    url = placed.get("payQrCode") or placed.get("approveUrl")
    request = urllib.request.Request(url, data=urllib.parse.urlencode({"outcome": outcome}).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.geturl()


# --- given -----------------------------------------------------------------------------------


@given(parsers.parse("the {edition} console pays through the provider sandboxes"))
def _console(request, world, edition):
    world["console"] = request.getfixturevalue("payments" if edition == "domestic" else "international_payments")


def current_level_option(api, token: str, device, months: int) -> tuple[dict, dict]:
    """The device's current level and its option of `months`, as the drawer lists them."""
    levels = _ok(api.call("GET", "/payment/PayServicePackages/selectLevelList", token=token,
                          query={"deviceId": device.id}))
    level = next(lv for lv in levels if lv["current"])
    options = _ok(api.call("GET", "/payment/PayServiceLevelYear/selectListByDomain", token=token, query={
        "deviceId": device.id, "levelId": level["levelId"], "packageId": level["packageId"]}))["levelYearList"]
    return level, next(o for o in options if o["timeLength"] == months)


@given(parsers.parse("alice has ordered 12 months of the device's current level paying by {method}"))
def _ordered(world, method):
    console = world["console"]
    api, token = console.api, console.api.token("alice")
    device = _device(console)
    level, year = current_level_option(api, token, device, 12)
    world["order"] = _ok(api.call("POST", "/payment/PayOrder/createServiceOrder", token=token, json={
        "deviceId": device.id, "levelId": level["levelId"], "levelYearId": year["id"],
        "servicePackageId": level["packageId"], "payType": PAY_TYPES[method], "serviceFee": year["serviceFee"],
        "totalFee": year["price"]}))
    world["expiry"] = device.service_expires_at


@given("alice has paid on the payer page the QR code opens")
@when("alice pays on the payer page the QR code opens")
def _pays(world):
    _payer_page(world, "pay")


# --- when ------------------------------------------------------------------------------------


@when("alice declines on the payer page the QR code opens")
def _declines(world):
    _payer_page(world, "fail")


@when("alice pays on the payer page but the provider's notification is lost")
def _pays_silently(world):
    _payer_page(world, "pay-silently")


@when(parsers.parse("{minutes:d} minutes pass and the console reconciles its payments"))
def _reconciles(world, minutes):
    console = world["console"]
    console.clock.advance(minutes=minutes)
    console.container.reconcile_payments()()


@when("a notification that the order is paid arrives signed with another key")
def _forged(world):
    console, placed = world["console"], world["order"]
    c = console.world.credentials
    fields = {"return_code": "SUCCESS", "result_code": "SUCCESS", "appid": c.wechat_app_id, "mch_id": c.wechat_mch_id,
              "nonce_str": "forged0000000000", "out_trade_no": placed["orderCode"], "transaction_id": "4200000000001",
              "total_fee": placed["totalFee"], "cash_fee": placed["totalFee"], "trade_type": "NATIVE",
              "time_end": "20261124120000", "openid": "o-forger"}
    fields["sign"] = sign({k: str(v) for k, v in fields.items()}, "not-the-merchant-key-0000000000")
    world["answer"] = console.app.flask.test_client().post("/api/payment/notify/wechat", data=to_xml(fields),
                                                           content_type="text/xml")


@when("the operator refunds the order")
def _refunds(world):
    console = world["console"]
    world["refund"] = console.api.call("POST", "/payment/PayRefund/refundOrder", token=console.api.token("operator"),
                                       json={"orderId": world["order"]["orderId"],
                                             "reason": "Asked by the customer"})


@when(parsers.parse('alice confirms the payment with the card "{card}"'))
def _confirms(world, card):
    console, placed = world["console"], world["order"]
    world["confirm"] = console.api.call("POST", "/payment/PayOrder/confirmPay", token=console.api.token("alice"), json={
        "orderId": placed["orderId"], "payType": _order_pay_type(world), "paymentPlatformId": card,
        "payFee": placed["totalFee"]})


def _order_pay_type(world) -> int:
    console = world["console"]
    page = _ok(console.api.call("POST", "/payment/PayOrder/selectMyOrderList", token=console.api.token("alice"),
                                json={}))
    return next(o["payType"] for o in page["data"] if o["orderId"] == world["order"]["orderId"])


@when("alice approves the payment on PayPal's page and comes back to the console")
def _approves(world):
    world["landed"] = _payer_page(world, "pay")


@when("alice cancels on PayPal's page")
def _cancels(world):
    world["landed"] = _payer_page(world, "fail")


# --- then ------------------------------------------------------------------------------------


@then("the console shows the order paid")
def _paid(world):
    assert _order(world)["payStatus"] == 2


@then("the console shows the order still unpaid")
def _unpaid(world):
    assert _order(world)["payStatus"] == 1


@then("the console shows the order refunded")
def _refunded(world):
    assert _ok(world["refund"])["payStatus"] == 3
    assert _order(world)["payStatus"] == 3


@then(parsers.parse("a second refund of the order is refused with code {code:d}"))
def _second_refund(world, code):
    _refunds(world)
    assert (world["refund"].status, world["refund"].code) == (409, code)


@then("the device's service runs 12 months longer, once")
def _extended(world):
    console = world["console"]
    expected = add_months(world["expiry"], 12)
    assert _device(console).service_expires_at == expected
    console.container.reconcile_payments()()  # asking again changes nothing more
    assert _device(console).service_expires_at == expected


@then("the device's service is as it was")
def _as_it_was(world):
    assert _device(world["console"]).service_expires_at == world["expiry"]


@then("the console answers WeChat Pay with a failure")
def _failure_answer(world):
    answer = world["answer"]
    assert answer.status_code == 200 and b"FAIL" in answer.data and b"SUCCESS" not in answer.data


@then(parsers.parse("the payment is refused with code {code:d} and unpaid"))
def _refused(world, code):
    assert (world["confirm"].status, world["confirm"].code) == (409, code)
    assert _order(world)["payStatus"] == 1


@then("she lands on the console's PayPal page with the order paid")
def _landed_paid(world):
    landed = urllib.parse.urlsplit(world["landed"])
    query = dict(urllib.parse.parse_qsl(landed.query))
    assert landed.path == "/mobilePay/paypal/callback"
    assert (query["orderId"], query["payStatus"]) == (str(world["order"]["orderId"]), "2")
    assert _order(world)["payStatus"] == 2


@then("she lands on the console's PayPal cancel page")
def _landed_cancel(world):
    assert urllib.parse.urlsplit(world["landed"]).path == "/mobilePay/paypal/cancel"
