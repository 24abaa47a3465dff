"""The Alipay adapter on the official SDK against the Alipay sandbox over HTTP: precreate, the payer
page, the signed notification, query, close and refund, and what must be refused."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from urllib.parse import parse_qsl, urlencode

import pytest
from alipay.aop.api.util.SignatureUtils import get_sign_content, sign_with_rsa2, verify_with_rsa

from adapters.payments.alipay import AlipayError, AlipayGateway
from adapters.payments.development_credentials import DevelopmentCredentials, generate
from core.ordering.payments import InvalidNotification, PaymentRequest, RefundRequest
from core.shared.edition import PayType
from payment_sandbox.alipay import AlipaySandbox, load_private_key, rsa2_sign, sign_content
from payment_sandbox.app import SandboxConfig, create_sandbox_app
from payment_sandbox.ledger import Ledger, SandboxPayment, Status
from payment_sandbox.provider import SandboxContext
from tests.support.payments import served

ORDER = "20260301143000000001"
FORM = "application/x-www-form-urlencoded"


@dataclass
class Received:
    path: str
    content_type: str
    body: bytes


@dataclass
class AlipayWorld:
    """The sandbox with only its Alipay provider, and a merchant endpoint catching notifications."""

    url: str
    credentials: DevelopmentCredentials
    sandbox: AlipaySandbox
    ledger: Ledger
    notify_url: str
    received: list[Received] = field(default_factory=list)

    def gateway(self, **changes) -> AlipayGateway:
        c = self.credentials
        args = {"gateway_url": f"{self.url}/alipay/gateway.do", "app_id": c.alipay_app_id,
                "app_private_key": c.alipay_app_private_key, "alipay_public_key": c.alipay_public_key,
                "notify_url": self.notify_url, **changes}
        return AlipayGateway(**args)

    def payment(self, order_code: str = ORDER) -> SandboxPayment:
        payment = self.ledger.by_order("alipay", order_code)
        assert payment is not None
        return payment


def alipay_sandbox_app(config: SandboxConfig):
    """The sandbox with Alipay alone, sharing its context (and ledger) with the payer page."""
    context = SandboxContext(Ledger(), config.public_url)
    sandbox = AlipaySandbox(context, config)
    return create_sandbox_app(config, [sandbox], context), sandbox


@pytest.fixture(scope="module")
def _servers() -> Iterator[tuple[str, str, object, list[Received], DevelopmentCredentials]]:
    """The merchant's endpoint and the sandbox's port, served once for the module."""
    credentials = generate()
    received: list[Received] = []
    acknowledge = AlipayGateway("http://unused", "", "", "", "").acknowledge(True)

    def merchant(environ, start_response):
        length = int(environ.get("CONTENT_LENGTH") or 0)
        received.append(Received(environ["PATH_INFO"], environ.get("CONTENT_TYPE", ""),
                                 environ["wsgi.input"].read(length)))
        start_response(f"{acknowledge.status} OK", [("Content-Type", acknowledge.content_type)])
        return [acknowledge.body]

    with served(merchant) as (merchant_url, _), served() as (url, holder):
        yield merchant_url, url, holder, received, credentials


@pytest.fixture
def world(_servers) -> AlipayWorld:
    """A fresh sandbox (empty ledger) on the module's port, and nothing received yet."""
    merchant_url, url, holder, received, credentials = _servers
    received.clear()
    app, sandbox = alipay_sandbox_app(SandboxConfig(url, credentials, merchant_url))
    holder.app = app
    return AlipayWorld(url, credentials, sandbox, app.extensions["payment_sandbox"].ledger,
                       f"{merchant_url}/api/payment/notify/alipay", received)


def order(amount_cents: int = 9900, code: str = ORDER, description: str = "冷链 4G logger: 1 year") -> PaymentRequest:
    return PaymentRequest(1, code, amount_cents, "CNY", description, PayType.ALIPAY, datetime(2026, 3, 1, tzinfo=UTC))


def refund_of(request: PaymentRequest, amount_cents: int | None = None, number: int = 1) -> RefundRequest:
    return RefundRequest(request.order_code, f"{request.order_code}R{number}", amount_cents or request.amount_cents,
                         request.amount_cents, "CNY", PayType.ALIPAY, request.order_code)


def press(qr_code: str, outcome: str) -> int:
    """The payer on the page the QR code opens."""
    post = urllib.request.Request(qr_code, data=urlencode({"outcome": outcome}).encode(), method="POST")
    try:
        with urllib.request.urlopen(post, timeout=10) as response:  # noqa: S310 (the sandbox)
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def form(body: bytes) -> dict[str, str]:
    return dict(parse_qsl(body.decode(), keep_blank_values=True))


def resign(fields: dict[str, str], private_key: str) -> bytes:
    fields = {k: v for k, v in fields.items() if k != "sign"}
    fields["sign"] = rsa2_sign(load_private_key(private_key), sign_content(fields, leave_out=("sign", "sign_type")))
    return urlencode(fields).encode()


def paid(world: AlipayWorld, request: PaymentRequest | None = None) -> tuple[AlipayGateway, PaymentRequest]:
    gateway, request = world.gateway(), request or order()
    start = gateway.start(request)
    assert press(start.pay_qr_code, "pay-silently") == 200
    return gateway, request


# --- the paths of a payment -----------------------------------------------------------------------


def test_a_paid_order_is_notified_then_queried_as_paid_and_refunded_only_once(world):
    gateway, request = world.gateway(), order()

    start = gateway.start(request)
    trade = world.payment()
    assert start.pay_qr_code == f"{world.url}/pay/alipay/{trade.id}"
    assert start.reference == ORDER  # Alipay's trade_no exists once paid
    assert (trade.amount_cents, trade.notify_url) == (9900, world.notify_url)
    assert trade.description == "冷链 4G logger: 1 year"
    assert gateway.query(request).paid is False

    assert press(start.pay_qr_code, "pay") == 200
    [note] = world.received
    assert (note.path, note.content_type) == ("/api/payment/notify/alipay", f"{FORM}; charset=utf-8")
    notification = gateway.parse_notification({"Content-Type": note.content_type}, note.body)
    assert (notification.order_code, notification.paid, notification.amount_cents) == (ORDER, True, 9900)
    assert notification.reference == trade.id

    result = gateway.query(request)
    assert (result.paid, result.amount_cents, result.reference) == (True, 9900, trade.id)

    first = gateway.refund(refund_of(request))
    again = gateway.refund(refund_of(request))
    assert first.succeeded and again.succeeded and first.reference == trade.id
    assert world.payment().refunded_cents == 9900
    assert world.payment().refunds == (f"{ORDER}R1",)
    assert gateway.query(request).paid is False  # a fully refunded trade is closed


def test_a_notification_says_what_alipay_signed(world):
    gateway, request = paid(world)
    fields = form(world.sandbox.notification(world.payment())[1])
    assert fields["trade_status"] == "TRADE_SUCCESS" and fields["sign_type"] == "RSA2"
    assert (fields["total_amount"], fields["receipt_amount"], fields["out_trade_no"]) == ("99.00", "99.00", ORDER)
    assert (fields["app_id"], fields["notify_type"], fields["charset"]) == (world.credentials.alipay_app_id,
                                                                          "trade_status_sync", "utf-8")


def test_amounts_go_to_alipay_in_yuan_with_two_decimals(world):
    gateway = world.gateway()
    for cents, yuan in ((1, "0.01"), (10, "0.10"), (123456, "1234.56"), (100, "1.00")):
        request = order(cents, code=f"2026030114300000{cents:04d}")
        gateway.start(request)
        assert world.payment(request.order_code).amount_cents == cents
        press(gateway.start(request).pay_qr_code, "pay-silently")
        assert form(world.sandbox.notification(world.payment(request.order_code))[1])["total_amount"] == yuan
        assert gateway.query(request).amount_cents == cents


def test_starting_the_same_order_twice_gives_the_same_qr_code(world):
    gateway = world.gateway()
    assert gateway.start(order()).pay_qr_code == gateway.start(order()).pay_qr_code


def test_a_lost_notification_is_made_up_for_by_a_query(world):
    gateway, request = paid(world)
    assert world.received == []
    result = gateway.query(request)
    assert (result.paid, result.amount_cents, result.reference) == (True, 9900, world.payment().id)


def test_a_payer_who_gives_up_is_not_notified_and_not_paid(world):
    gateway, request = world.gateway(), order()
    assert press(gateway.start(request).pay_qr_code, "fail") == 200
    assert world.received == []
    assert gateway.query(request).paid is False


def test_an_unpaid_order_can_be_closed_and_then_not_paid(world):
    gateway, request = world.gateway(), order()
    start = gateway.start(request)

    gateway.close(request)

    assert world.payment().status is Status.CLOSED
    result = gateway.query(request)
    assert (result.paid, result.error) == (False, "TRADE_CLOSED")
    assert press(start.pay_qr_code, "pay") == 409


def test_closing_an_order_alipay_does_not_know_is_not_an_error(world):
    world.gateway().close(order(code="20260301143000009999"))  # a QR code nobody scanned: no trade yet


def test_closing_a_paid_order_is_refused(world):
    gateway, request = paid(world)
    with pytest.raises(AlipayError, match="ACQ.TRADE_STATUS_ERROR"):
        gateway.close(request)
    assert world.payment().status is Status.PAID


def test_an_order_alipay_does_not_know_is_not_paid(world):
    result = world.gateway().query(order(code="20260301143000009999"))
    assert (result.paid, result.error) == (False, "ACQ.TRADE_NOT_EXIST")


def test_partial_refunds_add_up_and_no_more_than_was_paid_is_refunded(world):
    gateway, request = paid(world)
    assert gateway.refund(refund_of(request, 4000, 1)).succeeded
    assert gateway.refund(refund_of(request, 4000, 2)).succeeded
    too_much = gateway.refund(refund_of(request, 4000, 3))
    assert not too_much.succeeded and "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL" in too_much.error
    assert world.payment().refunded_cents == 8000
    assert gateway.query(request).paid is True  # partly refunded: still a successful trade


def test_an_unpaid_order_cannot_be_refunded(world):
    gateway, request = world.gateway(), order()
    gateway.start(request)
    result = gateway.refund(refund_of(request))
    assert not result.succeeded and "ACQ.TRADE_STATUS_ERROR" in result.error
    assert world.payment().refunded_cents == 0


def test_confirm_is_not_how_alipay_pays(world):
    result = world.gateway().confirm(order(), "anything")
    assert (result.paid, result.error) == (False, "not supported")


def test_alipay_hears_success_to_stop_retrying_and_anything_else_to_retry(world):
    gateway = world.gateway()
    accepted, refused = gateway.acknowledge(True), gateway.acknowledge(False)
    assert (accepted.status, accepted.body, accepted.content_type) == (200, b"success", "text/plain; charset=utf-8")
    assert refused.body == b"failure" and refused.status == 200


# --- notifications that must not be trusted -------------------------------------------------------


def test_a_notification_signed_with_another_key_is_refused(world):
    gateway, _ = paid(world)
    forged = resign(form(world.sandbox.notification(world.payment())[1]), generate().alipay_private_key)
    with pytest.raises(InvalidNotification):
        gateway.parse_notification({}, forged)


def test_a_notification_signed_with_the_merchants_own_key_is_refused(world):
    gateway, _ = paid(world)
    forged = resign(form(world.sandbox.notification(world.payment())[1]), world.credentials.alipay_app_private_key)
    with pytest.raises(InvalidNotification):
        gateway.parse_notification({}, forged)


@pytest.mark.parametrize("name, value", [
    ("total_amount", "0.01"), ("out_trade_no", "20260301143000000002"), ("trade_status", "TRADE_FINISHED"),
    ("trade_no", "2026030122001400000000000000"), ("sign_type", "RSA"), ("sign", ""), ("notify_id", "x")])
def test_a_notification_changed_after_signing_is_refused(world, name, value):
    gateway, _ = paid(world)
    fields = form(world.sandbox.notification(world.payment())[1])
    fields[name] = value
    with pytest.raises(InvalidNotification):
        gateway.parse_notification({}, urlencode(fields).encode())


@pytest.mark.parametrize("drop", ["sign", "sign_type"])
def test_a_notification_without_its_signature_is_refused(world, drop):
    gateway, _ = paid(world)
    fields = form(world.sandbox.notification(world.payment())[1])
    del fields[drop]
    with pytest.raises(InvalidNotification):
        gateway.parse_notification({}, urlencode(fields).encode())


@pytest.mark.parametrize("body", [b"", b"not a form", b"\xff\xfe=1", b"sign=abc&sign_type=RSA2&sign=abd"])
def test_a_notification_that_is_not_a_signed_form_is_refused(world, body):
    with pytest.raises(InvalidNotification):
        world.gateway().parse_notification({}, body)


def test_a_notification_signed_by_alipay_for_another_app_is_refused(world):
    gateway, _ = paid(world)
    _, body = world.sandbox.notification(world.payment(), app_id="2021000000009999")
    with pytest.raises(InvalidNotification, match="another app"):
        gateway.parse_notification({}, body)


def test_a_replayed_notification_parses_the_same(world):
    gateway, _ = paid(world)
    _, body = world.sandbox.notification(world.payment())
    assert gateway.parse_notification({}, body) == gateway.parse_notification({}, body)


def test_an_amount_that_differs_from_the_order_shows_in_the_notification(world):
    gateway, _ = paid(world)
    _, body = world.sandbox.notification(world.payment(), total_amount="0.01")
    notification = gateway.parse_notification({}, body)
    assert (notification.paid, notification.amount_cents, notification.order_code) == (True, 1, ORDER)


@pytest.mark.parametrize("status, is_paid", [("TRADE_SUCCESS", True), ("TRADE_FINISHED", True),
                                             ("TRADE_CLOSED", False), ("WAIT_BUYER_PAY", False)])
def test_only_a_successful_or_finished_trade_is_paid(world, status, is_paid):
    gateway, _ = paid(world)
    _, body = world.sandbox.notification(world.payment(), trade_status=status)
    assert gateway.parse_notification({}, body).paid is is_paid


# --- the gateway's answers and requests -------------------------------------------------------------


def tampering(app, old: bytes, new: bytes):
    """A man in the middle: changes the gateway's answers, leaving their signature as it was."""

    def middle(environ, start_response):
        captured = {}

        def capture(status, headers, exc_info=None):
            captured.update(status=status, headers=headers)

        body = b"".join(app(environ, capture)).replace(old, new)
        headers = [(k, v) for k, v in captured["headers"] if k.lower() != "content-length"]
        start_response(captured["status"], [*headers, ("Content-Length", str(len(body)))])
        return [body]

    return middle


def test_an_answer_signed_with_another_key_is_refused(world):
    gateway = world.gateway(alipay_public_key=generate().alipay_public_key)
    with pytest.raises(AlipayError, match="sign verify failed"):
        gateway.start(order())
    with pytest.raises(AlipayError, match="sign verify failed"):
        gateway.query(order())


def test_an_answer_changed_on_the_way_is_refused(world):
    gateway, request = world.gateway(), order()
    gateway.start(request)
    with served(world_app(world)) as (url, _):  # the middleman alone changes nothing
        assert world.gateway(gateway_url=f"{url}/alipay/gateway.do").query(request).error == "WAIT_BUYER_PAY"
    with (served(tampering(world_app(world), b"WAIT_BUYER_PAY", b"TRADE_SUCCESS")) as (url, _),
          pytest.raises(AlipayError, match="sign verify failed")):
        world.gateway(gateway_url=f"{url}/alipay/gateway.do").query(request)


def world_app(world: AlipayWorld):
    """The world's sandbox app, reached over HTTP (so a middleman can sit in front of it)."""

    def forward(environ, start_response):
        query = environ.get("QUERY_STRING", "")
        length = int(environ.get("CONTENT_LENGTH") or 0)
        target = f"{world.url}{environ['PATH_INFO']}{'?' + query if query else ''}"
        forwarded = urllib.request.Request(target, data=environ["wsgi.input"].read(length), method="POST",
                                           headers={"Content-Type": environ.get("CONTENT_TYPE", FORM)})
        with urllib.request.urlopen(forwarded, timeout=10) as response:  # noqa: S310 (the sandbox)
            body, content_type = response.read(), response.headers["Content-Type"]
        start_response("200 OK", [("Content-Type", content_type)])
        return [body]

    return forward


def test_an_answer_without_a_signature_is_refused(world):
    gateway, request = world.gateway(), order()
    gateway.start(request)
    with (served(tampering(world_app(world), b',"sign":"', b',"signature":"')) as (url, _),
          pytest.raises(AlipayError, match="illegal")):
        world.gateway(gateway_url=f"{url}/alipay/gateway.do").query(request)


def test_a_request_signed_with_another_app_key_is_refused_by_the_gateway(world):
    gateway = world.gateway(app_private_key=generate().alipay_app_private_key)
    with pytest.raises(AlipayError, match="isv.invalid-signature"):
        gateway.start(order())
    assert world.ledger.by_order("alipay", ORDER) is None


def test_a_request_from_another_app_is_refused_by_the_gateway(world):
    with pytest.raises(AlipayError, match="isv.invalid-app-id"):
        world.gateway(app_id="2021000000009999").start(order())


def test_only_yuan_are_taken(world):
    with pytest.raises(ValueError, match="CNY"):
        world.gateway().start(PaymentRequest(1, ORDER, 9900, "USD", "", PayType.ALIPAY, datetime.now(UTC)))


# --- a gateway that does not answer -----------------------------------------------------------------


def test_a_gateway_that_never_answers_makes_start_and_query_fail_after_the_timeout():
    release = threading.Event()

    def silent(environ, start_response):
        release.wait(10)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b""]

    try:
        with served(silent) as (url, _):
            c = generate()
            gateway = AlipayGateway(f"{url}/alipay/gateway.do", c.alipay_app_id, c.alipay_app_private_key,
                                    c.alipay_public_key, "http://127.0.0.1/notify", timeout=0.5)
            for call in (gateway.start, gateway.query):
                began = time.monotonic()
                with pytest.raises(AlipayError):
                    call(order())
                assert time.monotonic() - began < 3
    finally:
        release.set()


def test_a_gateway_answering_an_http_error_makes_start_fail():
    def broken(environ, start_response):
        start_response("502 Bad Gateway", [("Content-Type", "text/plain")])
        return [b"upstream unavailable"]

    with served(broken) as (url, _):
        c = generate()
        gateway = AlipayGateway(f"{url}/alipay/gateway.do", c.alipay_app_id, c.alipay_app_private_key,
                                c.alipay_public_key, "http://127.0.0.1/notify")
        with pytest.raises(AlipayError):
            gateway.start(order())


def test_a_gateway_that_is_down_makes_start_and_query_fail():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    c = generate()
    gateway = AlipayGateway(f"http://127.0.0.1:{port}/alipay/gateway.do", c.alipay_app_id, c.alipay_app_private_key,
                            c.alipay_public_key, "http://127.0.0.1/notify", timeout=2)
    with pytest.raises(AlipayError, match="connect failed"):
        gateway.start(order())
    with pytest.raises(AlipayError):
        gateway.query(order())


def test_a_request_changed_after_signing_is_refused_by_the_gateway(world):
    c = world.credentials
    params = {"app_id": c.alipay_app_id, "method": "alipay.trade.query", "charset": "utf-8", "sign_type": "RSA2",
              "timestamp": "2026-03-01 14:30:00", "version": "1.0", "biz_content": f'{{"out_trade_no":"{ORDER}"}}'}
    params["sign"] = sign_with_rsa2(c.alipay_app_private_key, get_sign_content(params), "utf-8")
    params["biz_content"] = '{"out_trade_no":"20260301143000000002"}'
    post = urllib.request.Request(f"{world.url}/alipay/gateway.do", data=urlencode(params).encode(), method="POST")
    with urllib.request.urlopen(post, timeout=10) as response:  # noqa: S310 (the sandbox)
        text = response.read().decode()
    answer = json.loads(text)["alipay_trade_query_response"]
    assert (answer["code"], answer["sub_code"]) == ("40002", "isv.invalid-signature")
    signed = text[text.index(":") + 1:text.rindex(',"sign":')]  # Alipay signs its failures too
    assert verify_with_rsa(c.alipay_public_key, signed.encode(), json.loads(text)["sign"])


# --- through the console (needs every provider's adapter: the console builds them all) --------------


@pytest.fixture
def _every_adapter() -> None:
    for module in ("alipay", "paypal", "stripe_pay", "wechat_pay"):
        pytest.importorskip(f"adapters.payments.{module}")


def alipay_order(payments) -> dict:
    from tests.integration.test_recharge_api import COLD_ROOM_A, device, levels, ok, options, service_order

    api, alice = payments.api, payments.api.token("alice")
    room = device(payments.container, COLD_ROOM_A)
    basic = levels(api, alice, room.id)["Basic"]
    return ok(service_order(api, alice, [room.id], basic, options(api, alice, room.id, basic)[0], pay_type=2))


def pay_status(payments, order_id: int) -> int:
    from tests.integration.test_recharge_api import ok

    reply = payments.api.call("GET", "/payment/PayOrder/get", token=payments.api.token("alice"), query={"pk": order_id})
    return ok(reply)["payStatus"]


def test_the_console_settles_an_alipay_order_paid_on_the_payer_page_and_refunds_it(_every_adapter, payments):
    from tests.integration.test_recharge_api import ok

    placed = alipay_order(payments)
    assert placed["payQrCode"].startswith(f"{payments.world.sandbox_url}/pay/alipay/")
    with urllib.request.urlopen(placed["payQrCode"], data=urlencode({"outcome": "pay"}).encode(),  # noqa: S310
                                timeout=10) as page:
        assert "The merchant answered 200" in page.read().decode()
    assert pay_status(payments, placed["orderId"]) == 2

    operator = payments.api.token("operator")
    refund = ok(payments.api.call("POST", "/payment/PayRefund/refundOrder", token=operator,
                                  json={"orderId": placed["orderId"], "reason": "Refunded in the test"}))
    assert refund["payStatus"] == 3
    at_alipay = replace(order(), order_code=refund["orderCode"])
    assert payments.container.payment_gateways()[PayType.ALIPAY].query(at_alipay).error == "TRADE_CLOSED"


def test_the_console_refuses_a_forged_alipay_notification_and_reconciles_the_lost_one(_every_adapter, payments):
    placed = alipay_order(payments)
    assert press(placed["payQrCode"], "pay-silently") == 200  # Alipay paid, its notification lost
    gateway = payments.container.payment_gateways()[PayType.ALIPAY]
    trade = gateway.query(replace(order(), order_code=placed["orderCode"]))
    fields = {"app_id": payments.world.credentials.alipay_app_id, "out_trade_no": placed["orderCode"],
              "trade_no": trade.reference, "total_amount": "0.01", "trade_status": "TRADE_SUCCESS",
              "notify_type": "trade_status_sync", "sign_type": "RSA2", "charset": "utf-8"}
    forged = payments.api.client.post("/api/payment/notify/alipay", data=resign(fields, generate().alipay_private_key),
                                      content_type=FORM)
    assert forged.data == b"failure"
    assert pay_status(payments, placed["orderId"]) == 1

    payments.clock.advance(minutes=5)
    assert payments.container.reconcile_payments()().settled == 1
    assert pay_status(payments, placed["orderId"]) == 2
