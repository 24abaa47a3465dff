"""WeChat Pay (API v2) end to end over HTTP: the adapter on wechatpy against the sandbox's WeChat
endpoints, the payer page, and the notification the sandbox POSTs to a small merchant receiver."""

from __future__ import annotations

import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

import pytest
import requests
from flask import Flask, Response, request
from wechatpy.exceptions import WeChatOAuthException, WeChatPayException

from adapters.payments.development_credentials import DevelopmentCredentials, generate
from adapters.payments.wechat_pay import WechatPayGateway
from core.ordering.payments import InvalidNotification, PaymentRequest, RefundRequest
from core.shared.edition import PayType
from payment_sandbox.app import SandboxConfig, create_sandbox_app
from payment_sandbox.ledger import Ledger, SandboxPayment, Status
from payment_sandbox.provider import SandboxContext
from payment_sandbox.wechat import WechatSandbox, parse_xml, sign, to_xml
from tests.support.payments import served

_codes = iter(range(1, 10**6))


def order(amount_cents: int = 9900, description: str = "冷链云 标准服务 1 年", currency: str = "CNY") -> PaymentRequest:
    code = f"2026{next(_codes):016d}"
    return PaymentRequest(7, code, amount_cents, currency, description, PayType.WECHAT, datetime.now(UTC))


def refund_of(paid: PaymentRequest, refund_code: str, amount_cents: int | None = None) -> RefundRequest:
    return RefundRequest(paid.order_code, refund_code, paid.amount_cents if amount_cents is None else amount_cents,
                         paid.amount_cents, "CNY", PayType.WECHAT, None)


@dataclass
class Received:
    bodies: list[bytes] = field(default_factory=list)
    answers: list[bytes] = field(default_factory=list)


@dataclass
class WechatWorld:
    sandbox_url: str
    credentials: DevelopmentCredentials
    sandbox: WechatSandbox
    ledger: Ledger
    gateway: WechatPayGateway
    notify_url: str
    received: Received

    def gateway_with(self, **changes) -> WechatPayGateway:
        c = self.credentials
        args = {"base_url": f"{self.sandbox_url}/wechat/", "app_id": c.wechat_app_id, "mch_id": c.wechat_mch_id,
                "api_key": c.wechat_api_key, "notify_url": self.notify_url} | changes
        return WechatPayGateway(**args)

    def payment(self, reference: str) -> SandboxPayment:
        payment = self.ledger.get(reference)
        assert payment is not None
        return payment

    def payer_page(self, reference: str, outcome: str | None = None) -> tuple[int, str]:
        data = None if outcome is None else urllib.parse.urlencode({"outcome": outcome}).encode()
        try:
            with urllib.request.urlopen(f"{self.sandbox_url}/pay/wechat/{reference}", data=data, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def paid(self, payment: PaymentRequest, outcome: str = "pay") -> str:
        """Starts `payment` and presses `outcome` on its payer page; the prepay id."""
        reference = self.gateway.start(payment).reference
        assert self.payer_page(reference, outcome)[0] == 200
        return reference


def wechat_sandbox(url: str, credentials: DevelopmentCredentials) -> tuple[Flask, WechatSandbox, Ledger]:
    config = SandboxConfig(url, credentials, console_url="http://127.0.0.1:9")
    context = SandboxContext(Ledger(), url)
    sandbox = WechatSandbox(context, config)
    app = create_sandbox_app(config, providers=[sandbox])
    # create_sandbox_app makes its own context for the payer page; give it the provider's ledger.
    app.extensions["payment_sandbox"].ledger = context.ledger
    return app, sandbox, context.ledger


def merchant(received: Received, gateway: list[WechatPayGateway]) -> Flask:
    """The merchant's notify endpoint: parses with the adapter and answers its acknowledgement."""
    app = Flask("merchant")

    @app.post("/notify/wechat")
    def notify():
        body = request.get_data()
        received.bodies.append(body)
        try:
            gateway[0].parse_notification(request.headers, body)
            ack = gateway[0].acknowledge(True)
        except InvalidNotification:
            ack = gateway[0].acknowledge(False)
        received.answers.append(ack.body)
        return Response(ack.body, ack.status, content_type=ack.content_type)

    return app


@pytest.fixture(scope="module")
def _world() -> Iterator[WechatWorld]:
    credentials = generate()
    received, gateway_holder = Received(), []
    with served() as (sandbox_url, sandbox_app), served(merchant(received, gateway_holder)) as (merchant_url, _):
        sandbox_app.app, sandbox, ledger = wechat_sandbox(sandbox_url, credentials)
        notify_url = f"{merchant_url}/notify/wechat"
        world = WechatWorld(sandbox_url, credentials, sandbox, ledger, None, notify_url, received)  # type: ignore[arg-type]
        world.gateway = world.gateway_with()
        gateway_holder.append(world.gateway)
        yield world


@pytest.fixture
def world(_world: WechatWorld) -> WechatWorld:
    _world.received.bodies.clear()
    _world.received.answers.clear()
    return _world


def test_an_order_paid_on_the_payer_page_is_notified_queried_and_refunded_once(world):
    payment = order(12345)
    start = world.gateway.start(payment)
    assert start.pay_qr_code == f"{world.sandbox_url}/pay/wechat/{start.reference}"
    assert start.reference.startswith("wx") and world.payment(start.reference).order_code == payment.order_code
    status, page = world.payer_page(start.reference)
    assert status == 200 and "CNY 123.45" in page and payment.order_code in page

    status, page = world.payer_page(start.reference, "pay")
    assert status == 200 and "Paid" in page and "The merchant answered 200" in page
    [body] = world.received.bodies
    assert b"<return_code><![CDATA[SUCCESS]]></return_code>" in world.received.answers[0]
    notification = world.gateway.parse_notification({"Content-Type": "text/xml"}, body)
    assert (notification.order_code, notification.paid, notification.amount_cents) == (payment.order_code, True,
                                                                                        12345)
    assert notification.reference == world.payment(start.reference).extra["transaction_id"]

    result = world.gateway.query(payment)
    assert (result.paid, result.amount_cents, result.reference) == (True, 12345, notification.reference)

    first = world.gateway.refund(refund_of(payment, "RF20260000000000001"))
    again = world.gateway.refund(refund_of(payment, "RF20260000000000001"))
    # accepted (pending): WeChat tells the outcome in a refund notification (test_refund_outcomes.py)
    assert first.pending and again.pending and first.reference and again.reference == first.reference
    refunded = world.payment(start.reference)
    assert (refunded.status, refunded.refunded_cents, refunded.refunds) == (Status.REFUNDED, 12345,
                                                                             ("RF20260000000000001",))
    more = world.gateway.refund(refund_of(payment, "RF20260000000000002", 1))
    assert not more.succeeded and more.error.startswith("ERROR") and "累计退款金额大于支付金额" in more.error
    after = world.gateway.query(payment)
    assert (after.paid, after.error) == (False, "REFUND")


def test_partial_refunds_add_up_to_the_payment_and_never_beyond_it(world):
    payment = order(1000)
    reference = world.paid(payment)
    assert world.gateway.refund(refund_of(payment, "RF-A", 400)).pending  # accepted
    assert world.gateway.refund(refund_of(payment, "RF-A", 400)).pending  # a retry: not paid twice
    assert world.payment(reference).refunded_cents == 400
    assert "累计退款金额大于支付金额" in world.gateway.refund(refund_of(payment, "RF-B", 601)).error
    changed = world.gateway.refund(refund_of(payment, "RF-A", 500))
    assert not changed.succeeded and changed.error.startswith("INVALID_REQUEST")
    assert world.gateway.refund(refund_of(payment, "RF-B", 600)).pending
    assert (world.payment(reference).refunded_cents, world.payment(reference).status) == (1000, Status.REFUNDED)


def test_an_unpaid_or_unknown_order_cannot_be_refunded(world):
    unpaid = order(500)
    world.gateway.start(unpaid)
    assert world.gateway.refund(refund_of(unpaid, "RF-U")).error.startswith("ERROR")
    assert world.gateway.refund(refund_of(order(), "RF-X")).error.startswith("ORDERNOTEXIST")
    paid = order(500)
    world.paid(paid)
    wrong_total = RefundRequest(paid.order_code, "RF-T", 100, 499, "CNY", PayType.WECHAT, None)
    assert world.gateway.refund(wrong_total).error.startswith("PARAM_ERROR")


def test_starting_an_unpaid_order_again_gives_the_same_prepay_but_not_for_another_amount(world):
    payment = order(2000)
    first, again = world.gateway.start(payment), world.gateway.start(payment)
    assert again == first
    with pytest.raises(WeChatPayException) as refused:
        world.gateway.start(replace(payment, amount_cents=2001))
    assert refused.value.errcode == "OUT_TRADE_NO_USED"
    world.payer_page(first.reference, "pay")
    with pytest.raises(WeChatPayException) as paid:
        world.gateway.start(payment)
    assert paid.value.errcode == "ORDERPAID"


def test_closing_an_unpaid_payment_makes_it_unpayable(world):
    payment = order()
    reference = world.gateway.start(payment).reference
    world.gateway.close(payment)
    assert world.payment(reference).status is Status.CLOSED
    assert world.gateway.query(payment).error == "CLOSED"
    assert "This payment is closed" in world.payer_page(reference)[1]
    assert world.payer_page(reference, "pay")[0] == 409
    world.gateway.close(payment)  # WeChat answers ORDERCLOSED: already done
    world.gateway.close(order())  # never ordered at WeChat (ORDERNOTEXIST): nothing to close
    with pytest.raises(WeChatPayException) as refused:
        world.gateway.start(payment)
    assert refused.value.errcode == "ORDERCLOSED"


def test_closing_a_payment_the_payer_has_paid_raises_orderpaid(world):
    payment = order()
    world.paid(payment)
    with pytest.raises(WeChatPayException) as refused:
        world.gateway.close(payment)
    assert refused.value.errcode == "ORDERPAID"


def test_a_lost_notification_is_made_good_by_the_query(world):
    payment = order(300)
    reference = world.paid(payment, "pay-silently")
    assert world.received.bodies == []
    result = world.gateway.query(payment)
    assert (result.paid, result.amount_cents) == (True, 300)
    assert result.reference == world.payment(reference).extra["transaction_id"]


def test_a_failed_payment_is_notified_as_unpaid_and_queries_as_payerror(world):
    payment = order(300)
    world.paid(payment, "fail")
    notification = world.gateway.parse_notification({}, world.received.bodies[0])
    assert (notification.order_code, notification.paid, notification.reference) == (payment.order_code, False, None)
    assert world.gateway.query(payment).error == "PAYERROR"
    assert world.gateway.query(order()).error.startswith("ORDERNOTEXIST")


def test_a_notification_signed_with_another_key_is_refused(world):
    payment = order()
    reference = world.paid(payment)
    forged = world.sandbox.payment_result_xml(world.payment(reference), key="0" * 32)
    with pytest.raises(InvalidNotification):
        world.gateway.parse_notification({}, forged)
    # and one changed after signing (the amount raised in the genuine XML)
    genuine = world.sandbox.payment_result_xml(world.payment(reference))
    tampered = genuine.replace(b"<total_fee>9900</total_fee>", b"<total_fee>1</total_fee>")
    assert tampered != genuine
    with pytest.raises(InvalidNotification):
        world.gateway.parse_notification({}, tampered)
    unsigned = to_xml({k: v for k, v in parse_xml(genuine).items() if k != "sign"})
    with pytest.raises(InvalidNotification):
        world.gateway.parse_notification({}, unsigned)


@pytest.mark.parametrize("body", [b"", b"not xml", b"<xml/>", b"<xml>text</xml>", b'{"return_code": "SUCCESS"}',
                                  b"<xml><a><b>1</b></a></xml>",
                                  b'<!DOCTYPE xml [<!ENTITY x "SUCCESS">]><xml><return_code>&x;</return_code></xml>'])
def test_a_notification_that_is_not_wechat_xml_is_refused(world, body):
    with pytest.raises(InvalidNotification):
        world.gateway.parse_notification({}, body)


def test_a_notification_for_another_merchant_is_refused_even_when_signed_with_our_key(world):
    payment = order()
    reference = world.paid(payment)
    other = world.sandbox.payment_result_xml(world.payment(reference), mch_id="1900000999")
    with pytest.raises(InvalidNotification):
        world.gateway.parse_notification({}, other)


def test_a_replayed_notification_parses_the_same(world):
    payment = order()
    world.paid(payment)
    [body] = world.received.bodies
    assert world.gateway.parse_notification({}, body) == world.gateway.parse_notification({}, body)


def test_an_amount_that_differs_from_the_order_shows_in_the_notification(world):
    payment = order(9900)
    reference = world.paid(payment)
    body = world.sandbox.payment_result_xml(world.payment(reference), total_fee=1, cash_fee=1)
    notification = world.gateway.parse_notification({}, body)
    assert (notification.order_code, notification.paid, notification.amount_cents) == (payment.order_code, True, 1)


def test_the_acknowledgement_is_the_xml_wechat_expects(world):
    accepted, refused = world.gateway.acknowledge(True), world.gateway.acknowledge(False)
    assert (accepted.status, accepted.content_type) == (refused.status, refused.content_type) == (200, "text/xml")
    assert parse_xml(accepted.body) == {"return_code": "SUCCESS", "return_msg": "OK"}
    assert parse_xml(refused.body)["return_code"] == "FAIL"


def test_requests_with_a_wrong_key_or_merchant_are_refused_by_the_sandbox(world):
    payment = order()
    with pytest.raises(WeChatPayException) as bad_key:
        world.gateway_with(api_key="f" * 32).start(payment)
    assert (bad_key.value.return_code, bad_key.value.errcode) == ("FAIL", "SIGNERROR")
    with pytest.raises(WeChatPayException) as bad_merchant:
        world.gateway_with(mch_id="1900000999").start(payment)
    assert bad_merchant.value.errcode == "MCHID_NOT_EXIST"
    with pytest.raises(WeChatPayException) as bad_app:
        world.gateway_with(app_id="wxother0000000000").start(payment)
    assert bad_app.value.errcode == "APPID_NOT_EXIST"
    assert world.ledger.by_order("wechat", payment.order_code) is None
    world.gateway.start(payment)
    assert world.gateway_with(api_key="f" * 32).query(payment).error.startswith("SIGNERROR")


def test_the_sandbox_takes_hmac_sha256_signatures_and_refuses_tampered_requests(world):
    c = world.credentials
    fields = {"appid": c.wechat_app_id, "mch_id": c.wechat_mch_id, "nonce_str": "n0nce", "out_trade_no": "none",
              "sign_type": "HMAC-SHA256"}
    body = to_xml({**fields, "sign": sign(fields, c.wechat_api_key, "HMAC-SHA256")})
    answer = parse_xml(requests.post(f"{world.sandbox_url}/wechat/pay/orderquery", data=body, timeout=10).content)
    assert (answer["return_code"], answer["err_code"]) == ("SUCCESS", "ORDERNOTEXIST")
    assert answer["sign"] == sign(answer, c.wechat_api_key, "HMAC-SHA256")
    tampered = body.replace(b"none", b"nine")
    answer = parse_xml(requests.post(f"{world.sandbox_url}/wechat/pay/orderquery", data=tampered, timeout=10).content)
    assert (answer["return_code"], answer["err_code"]) == ("FAIL", "SIGNERROR")
    doctype = b'<!DOCTYPE xml [<!ENTITY x "y">]><xml><appid>&x;</appid></xml>'
    answer = parse_xml(requests.post(f"{world.sandbox_url}/wechat/pay/orderquery", data=doctype, timeout=10).content)
    assert answer["err_code"] == "XML_FORMAT_ERROR"


def test_the_description_is_cut_to_128_bytes_and_cannot_break_out_of_its_cdata(world):
    payment = order(description="冷链" * 100 + "]]><total_fee>1</total_fee>")
    reference = world.gateway.start(payment).reference
    stored = world.payment(reference)
    assert stored.amount_cents == payment.amount_cents
    assert len(stored.description.encode()) <= 128 and stored.description.startswith("冷链冷链")


def test_only_yuan_are_taken_and_confirm_is_not_a_wechat_step(world):
    with pytest.raises(ValueError, match="CNY"):
        world.gateway.start(order(currency="USD"))
    result = world.gateway.confirm(order(), "pm_anything")
    assert (result.paid, result.error) == (False, "not supported")


def test_an_oauth_code_gives_the_same_openid_each_time(world):
    open_id = world.gateway.open_id("061abcDEF")
    assert open_id.startswith("o") and len(open_id) == 28
    assert world.gateway.open_id("061abcDEF") == open_id != world.gateway.open_id("071xyz")
    with pytest.raises(WeChatOAuthException) as invalid:
        world.gateway.open_id("invalid-code")
    assert invalid.value.errcode == 40029
    with pytest.raises(WeChatOAuthException) as bad_secret:
        world.gateway_with(oauth_secret="wrong").open_id("061abcDEF")
    assert bad_secret.value.errcode == 40125


def test_the_oauth_host_is_wechats_own_with_wechat_pays_real_base_url():
    gateway = WechatPayGateway("https://api.mch.weixin.qq.com/", "wx1", "1", "k", "https://example.com/n")
    assert gateway._oauth_base_url == "https://api.weixin.qq.com/"
    assert WechatPayGateway("http://127.0.0.1:1/wechat", "wx1", "1", "k", "n")._oauth_base_url == \
        "http://127.0.0.1:1/wechat/"


def test_an_answer_not_signed_with_our_key_is_not_trusted(world):
    c = world.credentials
    app = Flask("impostor")

    @app.post("/wechat/pay/orderquery")
    def orderquery():
        fields = {"return_code": "SUCCESS", "result_code": "SUCCESS", "appid": c.wechat_app_id,
                  "mch_id": c.wechat_mch_id, "nonce_str": "x", "trade_state": "SUCCESS", "total_fee": 9900,
                  "out_trade_no": "x", "transaction_id": "4200000000000000000000000000"}
        fields["sign"] = sign({k: str(v) for k, v in fields.items()}, "0" * 32)
        return Response(to_xml(fields), content_type="text/xml")

    with served(app) as (url, _):
        result = world.gateway_with(base_url=f"{url}/wechat/").query(order())
    assert result.paid is False and "InvalidSignatureException" in result.error


def sleepy(environ, start_response):
    time.sleep(3)
    start_response("200 OK", [("Content-Type", "text/xml")])
    return [b"<xml></xml>"]


def test_a_wechat_that_never_answers_makes_start_and_query_raise_in_time(world):
    with served(sleepy) as (url, _):
        slow = world.gateway_with(base_url=f"{url}/wechat/", timeout=0.5)
        for call in (slow.start, slow.query):
            began = time.monotonic()
            with pytest.raises(requests.Timeout):
                call(order())
            assert time.monotonic() - began < 2
        began = time.monotonic()
        with pytest.raises(requests.Timeout):
            world.gateway_with(base_url=f"{url}/wechat/", timeout=0.5).open_id("061abc")
        assert time.monotonic() - began < 2


def test_a_closed_port_makes_start_and_query_raise(world):
    closed = world.gateway_with(base_url="http://127.0.0.1:9/wechat/", timeout=2)
    with pytest.raises(requests.ConnectionError):
        closed.start(order())
    with pytest.raises(requests.ConnectionError):
        closed.query(order())


# --- through the console (needs all four providers' adapters: the console's container builds them all) -------


@pytest.fixture(scope="session")
def _every_adapter() -> None:
    for module in ("alipay", "paypal", "stripe_pay", "wechat_pay"):
        pytest.importorskip(f"adapters.payments.{module}")


def test_the_console_settles_a_wechat_order_paid_on_the_payer_page_and_refunds_it(_every_adapter, payments):
    from tests.integration.test_recharge_api import COLD_ROOM_A, device, levels, ok, options, service_order

    api, alice = payments.api, payments.api.token("alice")
    room = device(payments.container, COLD_ROOM_A)
    basic = levels(api, alice, room.id)["Basic"]
    placed = ok(service_order(api, alice, [room.id], basic, options(api, alice, room.id, basic)[0]))
    qr_code = placed["payQrCode"]
    assert qr_code.startswith(f"{payments.world.sandbox_url}/pay/wechat/wx")
    data = urllib.parse.urlencode({"outcome": "pay"}).encode()
    with urllib.request.urlopen(qr_code, data=data, timeout=10) as page:
        assert "The merchant answered 200" in page.read().decode()
    stored = ok(api.call("GET", "/payment/PayOrder/get", token=alice, query={"pk": placed["orderId"]}))
    assert stored["payStatus"] == 2
    operator = api.token("operator")
    refund = ok(api.call("POST", "/payment/PayRefund/refundOrder", token=operator, json={"orderId": placed["orderId"],
                                                                                          "reason": "Test"}))
    assert refund["payStatus"] == 3
    at_wechat = replace(order(), order_code=refund["orderCode"])
    assert payments.container.payment_gateways()[PayType.WECHAT].query(at_wechat).error == "REFUND"
