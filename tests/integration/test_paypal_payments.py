"""PayPal (pay type 20): the adapter on paypal-server-sdk against the sandbox's PayPal, both over
real HTTP. PayPal's checkout has no notification: the payer approves on the payer page, comes back
to the console's return URL with the order id as `token`, and the console captures; the capture's
answer is the proof of payment."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from urllib.parse import parse_qsl, urlsplit

import pytest
import requests
from flask import Flask
from flask import request as flask_request

from adapters.payments.development_credentials import DevelopmentCredentials, generate
from adapters.payments.paypal import PayPalError, PayPalGateway, to_cents, to_value
from core.ordering.model import PaymentFailure
from core.ordering.payments import InvalidNotification, PaymentRequest, RefundRequest
from core.shared.edition import PayType
from payment_sandbox.app import SandboxConfig, create_sandbox_app
from payment_sandbox.ledger import Ledger, Status
from payment_sandbox.paypal import PayPalSandbox
from payment_sandbox.provider import SandboxContext
from tests.support.payments import served

RETURN_PATH, CANCEL_PATH = "/api/payment/paypal/return", "/api/payment/paypal/cancel"
_codes = itertools.count(1)


def order_code() -> str:
    return f"2026030100{next(_codes):010d}"


def payment(amount_cents: int = 3990, currency: str = "USD", code: str | None = None) -> PaymentRequest:
    return PaymentRequest(order_id=1, order_code=code or order_code(), amount_cents=amount_cents, currency=currency,
                          description="Cold-chain monitoring service, 12 months", pay_type=PayType.PAYPAL,
                          created_at=datetime.now(UTC))


@dataclass
class PayPalWorld:
    sandbox_url: str
    console_url: str
    credentials: DevelopmentCredentials
    sandbox: PayPalSandbox
    returns: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # what reached the console

    @property
    def api_url(self) -> str:
        return f"{self.sandbox_url}/paypal"

    def gateway(self, *, client_secret: str | None = None, timeout: float = 10.0) -> PayPalGateway:
        c = self.credentials
        return PayPalGateway(self.api_url, c.paypal_client_id, client_secret or c.paypal_client_secret,
                             f"{self.console_url}{RETURN_PATH}", f"{self.console_url}{CANCEL_PATH}", timeout=timeout)

    def ledger(self, order_id: str):
        return self.sandbox.context.ledger.get(order_id)

    def payer_chooses(self, approve_url: str, outcome: str) -> requests.Response:
        """The payer on the payer page, followed back to the console's return or cancel URL."""
        assert requests.get(approve_url, timeout=5).status_code == 200
        return requests.post(approve_url, data={"outcome": outcome}, timeout=5)

    def bearer(self) -> dict[str, str]:
        c = self.credentials
        answer = requests.post(f"{self.api_url}/v1/oauth2/token", auth=(c.paypal_client_id, c.paypal_client_secret),
                               data={"grant_type": "client_credentials"}, timeout=5)
        return {"Authorization": f"Bearer {answer.json()['access_token']}"}


@pytest.fixture(scope="module")
def world() -> Iterator[PayPalWorld]:
    credentials = generate()
    console = Flask("console_stand_in")
    returns: list[tuple[str, dict[str, str]]] = []

    @console.get(RETURN_PATH)
    @console.get(CANCEL_PATH)
    def back():
        returns.append((flask_request.path, dict(flask_request.args)))
        return "back at the console"

    with served(console) as (console_url, _), served() as (sandbox_url, holder):
        config = SandboxConfig(sandbox_url, credentials, console_url)
        sandbox = PayPalSandbox(SandboxContext(Ledger(), sandbox_url), config)
        app = create_sandbox_app(config, providers=[sandbox])
        # create_sandbox_app makes its own context (the ledger its payer page reads): share it.
        sandbox.context = app.extensions["payment_sandbox"]
        holder.app = app
        yield PayPalWorld(sandbox_url, console_url, credentials, sandbox, returns)


def started(world: PayPalWorld, gateway: PayPalGateway, request: PaymentRequest) -> PaymentRequest:
    start = gateway.start(request)
    assert start.reference and start.approve_url
    return replace(request, reference=start.reference)


def approved(world: PayPalWorld, gateway: PayPalGateway, request: PaymentRequest) -> PaymentRequest:
    request = started(world, gateway, request)
    assert world.payer_chooses(world.sandbox.context.payer_page("paypal", request.reference), "pay").ok
    return request


# --- the payer's journey ---------------------------------------------------------------------------


def test_a_payer_who_approves_is_returned_with_the_token_and_the_capture_settles_refunds_and_queries(world):
    gateway = world.gateway()
    request = payment(3990)
    start = gateway.start(request)
    assert start.approve_url == world.sandbox.context.payer_page("paypal", start.reference)
    request = replace(request, reference=start.reference)

    page = world.payer_chooses(start.approve_url, "pay")
    assert page.status_code == 200 and page.text == "back at the console"
    path, args = world.returns[-1]
    assert path == RETURN_PATH and args["token"] == start.reference and args["PayerID"]
    assert gateway.query(request).paid is False  # approved, not captured yet

    result = gateway.confirm(request, args["token"])
    assert result.paid and result.amount_cents == 3990 and result.error is None
    assert result.reference and result.reference != start.reference  # the capture's id
    assert world.ledger(start.reference).status is Status.PAID

    queried = gateway.query(request)
    assert (queried.paid, queried.amount_cents, queried.reference) == (True, 3990, result.reference)

    refund = RefundRequest(request.order_code, "RF2026030100000001", 3990, 3990, "USD", PayType.PAYPAL,
                           result.reference)
    first = gateway.refund(refund)
    assert first.pending and first.reference  # PENDING: read back later
    again = gateway.refund(refund)
    assert again.pending and again.reference == first.reference
    settled = world.ledger(start.reference)
    assert settled.refunded_cents == 3990 and settled.status is Status.REFUNDED


def test_an_order_is_created_once_per_order_code(world):
    gateway = world.gateway()
    request = payment()
    assert gateway.start(request) == gateway.start(request)


def test_the_order_goes_to_paypal_with_the_amount_as_a_decimal_string_and_our_order_code(world):
    gateway = world.gateway()
    for cents, value in ((3990, "39.90"), (5, "0.05"), (100000, "1000.00")):
        request = started(world, gateway, payment(cents))
        order = requests.get(f"{world.api_url}/v2/checkout/orders/{request.reference}", headers=world.bearer(),
                             timeout=5).json()
        unit = order["purchase_units"][0]
        assert unit["amount"] == {"currency_code": "USD", "value": value}
        assert unit["invoice_id"] == unit["custom_id"] == request.order_code
        assert order["intent"] == "CAPTURE" and order["status"] == "PAYER_ACTION_REQUIRED"
        assert world.ledger(request.reference).amount_cents == cents
    assert (to_value(3990), to_cents("39.90"), to_cents("1000.00")) == ("39.90", 3990, 100000)
    with pytest.raises(ValueError):
        to_cents("0.001")


def test_capturing_before_the_payer_approves_is_refused(world):
    gateway = world.gateway()
    request = started(world, gateway, payment())
    result = gateway.confirm(request, request.reference)
    assert (result.paid, result.error) == (False, "ORDER_NOT_APPROVED")
    assert gateway.query(request).paid is False
    assert world.ledger(request.reference).status is Status.PENDING


def test_capturing_twice_does_not_charge_twice(world):
    return_handler, reconciliation = world.gateway(), world.gateway()
    request = approved(world, return_handler, payment(2500))
    first = return_handler.confirm(request, request.reference)
    second = return_handler.confirm(request, request.reference)  # the payer reloads the return page
    third = reconciliation.confirm(request, request.reference)  # PayPal: ORDER_ALREADY_CAPTURED
    assert first.paid and first == second == third
    order = world.ledger(request.reference)
    assert order.extra["capture"]["id"] == first.reference and order.amount_cents == 2500


def test_one_order_code_is_captured_once_even_through_two_paypal_orders(world):
    gateway = world.gateway()
    request = approved(world, gateway, payment())
    # An older PayPal order for the same order of ours (created under another request id).
    body = {"intent": "CAPTURE", "purchase_units": [{"invoice_id": request.order_code, "custom_id": request.order_code,
                                                     "amount": {"currency_code": "USD", "value": "39.90"}}]}
    other = requests.post(f"{world.api_url}/v2/checkout/orders", json=body, timeout=5,
                          headers={**world.bearer(), "PayPal-Request-Id": "older-attempt"}).json()
    assert other["status"] == "CREATED" and any(link["rel"] == "approve" for link in other["links"])
    world.payer_chooses(world.sandbox.context.payer_page("paypal", other["id"]), "pay")

    assert gateway.confirm(request, request.reference).paid
    refused = gateway.confirm(replace(request, reference=other["id"]), other["id"])
    assert (refused.paid, refused.error) == (False, "DUPLICATE_INVOICE_ID")


def test_a_token_that_is_not_the_orders_paypal_order_is_refused_without_capturing(world):
    gateway = world.gateway()
    mine, theirs = approved(world, gateway, payment()), approved(world, gateway, payment())
    result = gateway.confirm(mine, theirs.reference)
    assert result.paid is False and result.error
    assert world.ledger(theirs.reference).extra["status"] == "APPROVED"
    # Without a recorded reference, the PayPal order must carry our order code.
    assert gateway.confirm(replace(mine, reference=None), theirs.reference).paid is False
    assert gateway.confirm(replace(mine, reference=None), mine.reference).paid is True


def test_the_captured_amount_is_what_the_result_reports_so_a_mismatch_is_visible(world):
    gateway = world.gateway()
    request = approved(world, gateway, payment(3990))
    result = gateway.confirm(replace(request, amount_cents=100), request.reference)
    assert result.paid and result.amount_cents == 3990

    in_euros = approved(world, gateway, payment(3990, currency="EUR"))
    result = gateway.confirm(replace(in_euros, currency="USD"), in_euros.reference)
    assert result.paid and (result.amount_cents, result.currency) == (3990, "EUR")  # the console refuses to settle it


def test_a_payer_who_cancels_is_sent_to_the_cancel_url_and_the_order_can_no_longer_be_captured(world):
    gateway = world.gateway()
    request = started(world, gateway, payment())
    page = world.payer_chooses(world.sandbox.context.payer_page("paypal", request.reference), "fail")
    assert page.ok
    assert world.returns[-1] == (CANCEL_PATH, {"token": request.reference})
    result = gateway.confirm(request, request.reference)
    assert (result.paid, result.error) == (False, "ORDER_COMPLETED_OR_VOIDED")
    assert (gateway.query(request).paid, gateway.query(request).error) == (False, "VOIDED")
    assert world.ledger(request.reference).status is Status.FAILED


# --- reconciliation ----------------------------------------------------------------------------


def test_query_reports_an_approved_order_as_awaiting_its_capture(world):
    gateway = world.gateway()
    request = started(world, gateway, payment())
    assert (gateway.query(request).paid, gateway.query(request).error) == (False, "PAYER_ACTION_REQUIRED")
    requests.post(world.sandbox.context.payer_page("paypal", request.reference), data={"outcome": "pay-silently"},
                  allow_redirects=False, timeout=5)  # the payer never comes back
    assert (gateway.query(request).paid, gateway.query(request).error) == (False, "APPROVED")
    captured = gateway.confirm(request, request.reference)
    assert gateway.query(request) == captured and captured.paid


def test_query_of_a_settled_order_by_its_capture_id_says_paid(world):
    gateway = world.gateway()
    request = approved(world, gateway, payment(1234))
    result = gateway.confirm(request, request.reference)
    queried = gateway.query(replace(request, reference=result.reference))
    assert (queried.paid, queried.amount_cents, queried.reference) == (True, 1234, result.reference)


def test_query_of_an_order_paypal_does_not_know_says_not_paid(world):
    gateway = world.gateway()
    assert gateway.query(replace(payment(), reference="NOSUCHORDER000000")).paid is False
    assert gateway.query(payment()).paid is False  # never started


def test_closing_an_unpaid_order_calls_nothing_and_leaves_it_unpaid(world):
    request = started(world, world.gateway(), payment())
    unreachable = PayPalGateway("http://127.0.0.1:9", "id", "secret", "http://c/r", "http://c/c", timeout=0.5)
    assert unreachable.close(request) is None  # nothing to call: an uncaptured order expires at PayPal
    assert world.ledger(request.reference).status is Status.PENDING
    assert world.gateway().query(request).paid is False


# --- refunds ----------------------------------------------------------------------------------


def test_refunds_are_paid_once_per_refund_code_and_never_beyond_the_capture(world):
    gateway = world.gateway()
    request = approved(world, gateway, payment(3990))
    capture = gateway.confirm(request, request.reference).reference

    def refund(code: str, cents: int):
        return gateway.refund(RefundRequest(request.order_code, code, cents, 3990, "USD", PayType.PAYPAL, capture))

    first = refund("RF-A", 1000)
    assert first.pending and refund("RF-A", 1000) == first
    assert world.ledger(request.reference).refunded_cents == 1000
    assert world.ledger(request.reference).status is Status.PAID  # partly refunded

    assert (refund("RF-B", 3000).succeeded, refund("RF-B", 3000).error) == (False, "REFUND_AMOUNT_EXCEEDED")
    assert refund("RF-C", 2990).pending
    assert (refund("RF-D", 1).succeeded, refund("RF-D", 1).error) == (False, "CAPTURE_FULLY_REFUNDED")
    assert world.ledger(request.reference).refunded_cents == 3990
    assert world.ledger(request.reference).refunds == ("RF-A", "RF-C")


def test_a_refund_without_a_capture_is_refused(world):
    gateway = world.gateway()
    assert gateway.refund(RefundRequest("1", "RF", 100, 100, "USD", PayType.PAYPAL, None)).succeeded is False
    unknown = gateway.refund(RefundRequest("1", "RF", 100, 100, "USD", PayType.PAYPAL, "NOSUCHCAPTURE0000"))
    assert (unknown.succeeded, unknown.error) == (False, "INVALID_RESOURCE_ID")


# --- the vault: automatic renewal ----------------------------------------------------------------


def vaulted(world: PayPalWorld, gateway: PayPalGateway) -> tuple[PaymentRequest, str]:
    """A payment that asked PayPal to vault the payer's PayPal, approved and captured: (its
    request, the payment token)."""
    request = payment(3990)
    start = gateway.start_with_mandate(request, f"AR{request.order_code}")
    request = replace(request, reference=start.reference)
    assert gateway.mandate(request, f"AR{request.order_code}") is None  # not paid: nothing vaulted yet
    assert world.payer_chooses(start.approve_url, "pay").ok
    assert gateway.confirm(request, start.reference).paid
    token = gateway.mandate(request, f"AR{request.order_code}")
    assert token
    return request, token


def test_a_vaulted_paypal_is_charged_without_the_payer_once_per_order_until_its_token_is_deleted(world):
    gateway = world.gateway()
    first, token = vaulted(world, gateway)
    order = requests.get(f"{world.api_url}/v2/checkout/orders/{first.reference}", headers=world.bearer(),
                         timeout=5).json()
    vault = order["payment_source"]["paypal"]["attributes"]["vault"]
    assert (vault["id"], vault["status"]) == (token, "VAULTED") and vault["customer"]["id"]

    renewal = payment(3990)
    charged = gateway.charge(token, renewal)
    assert (charged.paid, charged.amount_cents, charged.currency) == (True, 3990, "USD")
    assert gateway.charge(token, renewal) == charged  # the same PayPal-Request-Id: the first order again
    [paid] = world.sandbox.context.ledger.of_order("paypal", renewal.order_code)
    assert paid.status is Status.PAID and paid.extra["capture"]["id"] == charged.reference
    assert world.sandbox.payment_token(token).charges == [(renewal.order_code, charged.reference)]
    again = requests.post(f"{world.api_url}/v2/checkout/orders", timeout=5, headers={
        **world.bearer(), "PayPal-Request-Id": "another-request"}, json={
        "intent": "CAPTURE", "payment_source": {"paypal": {"vault_id": token}},
        "purchase_units": [{"amount": {"currency_code": "USD", "value": "39.90"}, "invoice_id": renewal.order_code}]})
    assert (again.status_code, again.json()["details"][0]["issue"]) == (422, "DUPLICATE_INVOICE_ID")  # never twice

    world.sandbox.payment_token(token).declines = True
    declined = gateway.charge(token, payment(3990))
    assert (declined.paid, declined.error, declined.failure) == (False, "INSTRUMENT_DECLINED",
                                                                 PaymentFailure.DECLINED)
    world.sandbox.payment_token(token).declines = False

    gateway.cancel(token, f"AR{first.order_code}")
    gateway.cancel(token, f"AR{first.order_code}")  # deleted already: fine
    refused = gateway.charge(token, payment(3990))
    assert (refused.paid, refused.error) == (False, "INVALID_RESOURCE_ID")
    assert gateway.mandate(first, f"AR{first.order_code}") == token  # the order's history keeps it


def test_a_plain_payment_vaults_nothing_and_a_vault_asked_for_wrongly_is_refused(world):
    gateway = world.gateway()
    request = approved(world, gateway, payment())
    assert gateway.confirm(request, request.reference).paid
    assert gateway.mandate(request, f"AR{request.order_code}") is None
    body = {"intent": "CAPTURE", "purchase_units": [{"amount": {"currency_code": "USD", "value": "1.00"}}],
            "payment_source": {"paypal": {"attributes": {"vault": {"store_in_vault": "ON_SUCCESS"}}}}}
    missing = requests.post(f"{world.api_url}/v2/checkout/orders", json=body, headers=world.bearer(), timeout=5)
    assert missing.status_code == 400
    assert missing.json()["details"][0]["field"] == "/payment_source/paypal/attributes/vault/usage_type"
    unknown = requests.post(f"{world.api_url}/v2/checkout/orders", headers=world.bearer(), timeout=5, json={
        **body, "payment_source": {"paypal": {"vault_id": "nosuch01"}}})
    assert (unknown.status_code, unknown.json()["details"][0]["issue"]) == (404, "INVALID_RESOURCE_ID")
    gone = requests.delete(f"{world.api_url}/v3/vault/payment-tokens/nosuch01", headers=world.bearer(), timeout=5)
    assert gone.status_code == 404


# --- notifications -----------------------------------------------------------------------------


def test_paypal_sends_no_notifications_so_any_notification_is_refused(world):
    gateway = world.gateway()
    webhook = b'{"event_type":"PAYMENT.CAPTURE.COMPLETED","resource":{"id":"X","amount":{"value":"39.90"}}}'
    with pytest.raises(InvalidNotification):
        gateway.parse_notification({"Content-Type": "application/json"}, webhook)
    assert gateway.acknowledge(True).status == 200 and gateway.acknowledge(False).status == 400
    assert gateway.acknowledge(True).body == b"{}" and gateway.acknowledge(True).content_type == "application/json"


# --- credentials and failures ------------------------------------------------------------------


def test_wrong_client_credentials_fail_clearly(world):
    with pytest.raises(PayPalError, match="invalid_client"):
        world.gateway(client_secret="not-the-secret").start(payment())
    with pytest.raises(PayPalError, match="invalid_client"):
        world.gateway(client_secret="not-the-secret").query(replace(payment(), reference="ANYORDER000000000"))


def test_the_sandbox_checks_client_credentials_and_bearer_tokens_like_paypal(world):
    token_url, orders_url = f"{world.api_url}/v1/oauth2/token", f"{world.api_url}/v2/checkout/orders"
    c = world.credentials
    wrong = requests.post(token_url, auth=(c.paypal_client_id, "nope"), data={"grant_type": "client_credentials"},
                          timeout=5)
    assert wrong.status_code == 401 and wrong.json()["error"] == "invalid_client"
    grant = requests.post(token_url, auth=(c.paypal_client_id, c.paypal_client_secret),
                          data={"grant_type": "password"}, timeout=5)
    assert grant.status_code == 400 and grant.json()["error"] == "unsupported_grant_type"
    good = requests.post(token_url, auth=(c.paypal_client_id, c.paypal_client_secret),
                         data={"grant_type": "client_credentials"}, timeout=5).json()
    assert good["token_type"] == "Bearer" and good["expires_in"] > 0

    expired = world.sandbox.issue_token(lifetime_s=-1)
    forged = good["access_token"][:-4] + "0000"
    for headers in ({}, {"Authorization": f"Bearer {expired}"}, {"Authorization": f"Bearer {forged}"},
                    {"Authorization": f"Basic {good['access_token']}"}):
        answer = requests.post(orders_url, json={}, headers=headers, timeout=5)
        assert answer.status_code == 401 and answer.json()["name"] == "AUTHENTICATION_FAILURE"

    bearer = {"Authorization": f"Bearer {good['access_token']}"}
    bad_amount = {"intent": "CAPTURE", "purchase_units": [{"amount": {"currency_code": "USD", "value": "39.901"}}]}
    answer = requests.post(orders_url, json=bad_amount, headers=bearer, timeout=5)
    assert answer.status_code == 400 and answer.json()["details"][0]["issue"] == "DECIMAL_PRECISION"
    missing = requests.get(f"{orders_url}/NOSUCHORDER000000", headers=bearer, timeout=5)
    assert missing.status_code == 404 and missing.json()["name"] == "RESOURCE_NOT_FOUND"


def test_a_provider_that_never_answers_makes_calls_raise_instead_of_hanging():
    silent = Flask("silent_paypal")

    @silent.route("/<path:anything>", methods=["GET", "POST"])
    def never(anything: str):
        time.sleep(3)
        return "{}"

    request = replace(payment(), reference="ANYORDER000000000")
    with served(silent) as (url, _):
        gateway = PayPalGateway(url, "id", "secret", "http://c/r", "http://c/c", timeout=0.5)
        for call in (lambda: gateway.start(request), lambda: gateway.query(request),
                     lambda: gateway.confirm(request, request.reference)):
            began = time.monotonic()
            with pytest.raises(PayPalError, match="did not answer"):
                call()
            assert time.monotonic() - began < 2.5

    closed = PayPalGateway("http://127.0.0.1:9", "id", "secret", "http://c/r", "http://c/c", timeout=0.5)
    with pytest.raises(PayPalError, match="did not answer"):
        closed.start(request)


# --- through the console (needs all four providers' adapters: the console's container builds them all) -------


@pytest.fixture(scope="session")
def _every_adapter() -> None:
    for module in ("alipay", "paypal", "stripe_pay", "wechat_pay"):
        pytest.importorskip(f"adapters.payments.{module}")


def test_the_console_captures_a_paypal_order_approved_on_the_payer_page_and_refunds_it(
        _every_adapter, international_payments):
    from tests.integration.test_recharge_api import COLD_ROOM_A, device, levels, ok, options

    payments = international_payments
    api, alice = payments.api, payments.api.token("alice")
    room = device(payments.container, COLD_ROOM_A)
    pro = levels(api, alice, room.id)["Professional"]
    year = options(api, alice, room.id, pro)[0]
    placed = ok(api.call("POST", "/payment/PayOrder/createServiceOrder", token=alice, json={
        "deviceId": room.id, "levelId": pro["levelId"], "levelYearId": year["id"], "servicePackageId": pro["packageId"],
        "payType": 20, "serviceFee": year["serviceFee"], "totalFee": year["price"]}))
    assert placed["approveUrl"].startswith(f"{payments.world.sandbox_url}/pay/paypal/")

    back = requests.post(placed["approveUrl"], data={"outcome": "pay"}, allow_redirects=False, timeout=10)
    assert back.status_code == 303
    assert back.headers["Location"].startswith(f"{payments.world.console_url}{RETURN_PATH}?token=")
    landed = requests.get(back.headers["Location"], allow_redirects=False, timeout=10)
    assert landed.status_code == 303 and "payStatus=2" in landed.headers["Location"], landed.headers
    stored = ok(api.call("GET", "/payment/PayOrder/get", token=alice, query={"pk": placed["orderId"]}))
    assert stored["payStatus"] == 2

    operator = api.token("operator")
    refund = ok(api.call("POST", "/payment/PayRefund/refundOrder", token=operator, json={"orderId": placed["orderId"],
                                                                                          "reason": "Test"}))
    assert refund["payStatus"] == 3
    paypal_order = dict(parse_qsl(urlsplit(back.headers["Location"]).query))["token"]
    c = payments.world.credentials
    api_url = f"{payments.world.sandbox_url}/paypal"
    bearer = requests.post(f"{api_url}/v1/oauth2/token", auth=(c.paypal_client_id, c.paypal_client_secret),
                           data={"grant_type": "client_credentials"}, timeout=5).json()["access_token"]
    order = requests.get(f"{api_url}/v2/checkout/orders/{paypal_order}", timeout=5,
                         headers={"Authorization": f"Bearer {bearer}"}).json()
    capture = order["purchase_units"][0]["payments"]["captures"][0]
    assert order["status"] == "COMPLETED" and capture["status"] == "REFUNDED"
    assert to_cents(capture["amount"]["value"]) == year["price"] == placed["totalFee"]
