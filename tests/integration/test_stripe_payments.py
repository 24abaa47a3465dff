"""Stripe (30 Google Pay, 40 the card payment-request button) on the real stripe SDK against the
sandbox's Stripe, both over HTTP: PaymentIntents created, confirmed with Stripe's test payment
methods or paid on the payer page, cancelled and refunded; webhooks signed with the endpoint's
secret and checked; a Stripe that does not answer fails fast."""

from __future__ import annotations

import importlib.util
import secrets
import socket
import threading
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime

import pytest
import requests
import stripe
from flask import Flask
from flask import request as flask_request

from adapters.payments.development_credentials import DevelopmentCredentials, generate
from adapters.payments.stripe_pay import StripeGateway, from_stripe_amount, to_stripe_amount
from core.ordering.model import PaymentFailure
from core.ordering.payments import InvalidNotification, Notification, PaymentRequest, RefundRequest
from core.shared.edition import PayType
from payment_sandbox.app import SandboxConfig, create_sandbox_app
from payment_sandbox.ledger import Ledger, Status
from payment_sandbox.provider import SandboxContext
from payment_sandbox.stripe import StripeSandbox
from tests.support.payments import served

ORDER = "20261124000000000001"
NOTIFY_PATH = "/api/payment/notify/stripe"


class Console:
    """Stands in for the console's notification endpoint: parses what arrives with the gateway
    and answers with its acknowledgement."""

    def __init__(self, prefix: str) -> None:
        self.gateway: StripeGateway | None = None
        self.received: list[tuple[dict[str, str], bytes, Notification | InvalidNotification]] = []
        self._arrived = threading.Condition()
        self.app = Flask("console")
        self.app.add_url_rule(f"{prefix}{NOTIFY_PATH}", "notify", self._notify, methods=["POST"])

    def _notify(self):
        headers, body = flask_request.headers, flask_request.get_data()
        try:
            outcome: Notification | InvalidNotification = self.gateway.parse_notification(headers, body)
        except InvalidNotification as error:
            outcome = error
        ack = self.gateway.acknowledge(isinstance(outcome, Notification))
        with self._arrived:
            self.received.append((dict(headers), body, outcome))
            self._arrived.notify_all()
        return ack.body, ack.status, {"Content-Type": ack.content_type}

    def notifications(self, count: int, timeout: float = 5.0) -> list[Notification | InvalidNotification]:
        """The first `count` notifications, waiting for them to arrive (Stripe sends after answering)."""
        with self._arrived:
            self._arrived.wait_for(lambda: len(self.received) >= count, timeout)
            return [outcome for _, _, outcome in self.received]


@dataclass
class World:
    sandbox_url: str
    credentials: DevelopmentCredentials
    sandbox: StripeSandbox
    ledger: Ledger
    console: Console
    gateway: StripeGateway

    def request(self, amount_cents: int = 1990, order_code: str = ORDER, reference: str | None = None,
                pay_type: PayType = PayType.GOOGLE_PAY) -> PaymentRequest:
        return PaymentRequest(7, order_code, amount_cents, "USD", "Professional, 12 months", pay_type,
                              datetime(2026, 11, 24, tzinfo=UTC), reference)

    def started(self, amount_cents: int = 1990, order_code: str = ORDER) -> PaymentRequest:
        start = self.gateway.start(self.request(amount_cents, order_code))
        return self.request(amount_cents, order_code, start.reference)

    def payer_page(self, request: PaymentRequest, outcome: str) -> requests.Response:
        return requests.post(f"{self.sandbox_url}/pay/stripe/{request.reference}", data={"outcome": outcome},
                             timeout=10)

    def client(self, key: str | None = None) -> stripe.StripeClient:
        """The SDK itself, for what the gateway does not call."""
        return stripe.StripeClient(key or self.credentials.stripe_secret_key,
                                   base_addresses={"api": f"{self.sandbox_url}/stripe"}, max_network_retries=0)


def stripe_sandbox_app(config: SandboxConfig) -> tuple[object, StripeSandbox, Ledger]:
    context = SandboxContext(Ledger(), config.public_url)
    sandbox = StripeSandbox(context, config)
    app = create_sandbox_app(config, providers=[sandbox])
    # create_sandbox_app makes a context (and ledger) of its own for the payer page: share ours.
    app.extensions["payment_sandbox"].ledger = context.ledger
    return app, sandbox, context.ledger


@pytest.fixture(scope="module")
def _servers():
    """A console and a sandbox port for the module (a server takes a second to stop), their apps
    new for each test."""
    with served() as (console_url, console), served() as (sandbox_url, sandbox):
        yield generate(), console_url, console, sandbox_url, sandbox


@pytest.fixture
def world(_servers):
    credentials, console_url, console_holder, sandbox_url, sandbox_holder = _servers
    # Each test's console under a path of its own: a webhook of the test before, sent after its
    # answer, finds nobody.
    prefix = f"/{secrets.token_hex(4)}"
    console = Console(prefix)
    console_holder.app = console.app
    app, sandbox, ledger = stripe_sandbox_app(SandboxConfig(sandbox_url, credentials, f"{console_url}{prefix}"))
    sandbox_holder.app = app
    gateway = StripeGateway(f"{sandbox_url}/stripe", credentials.stripe_secret_key,
                            credentials.stripe_webhook_secret, timeout=5)
    console.gateway = gateway
    return World(sandbox_url, credentials, sandbox, ledger, console, gateway)


# --- paying -----------------------------------------------------------------------------------------


def test_a_payment_paid_on_the_payer_page_is_notified_found_paid_and_refunded_only_once(world):
    start = world.gateway.start(world.request(1990))
    assert start.reference.startswith("pi_") and start.client_secret.startswith(f"{start.reference}_secret_")
    assert start.approve_url == f"{world.sandbox_url}/pay/stripe/{start.reference}"
    page = requests.get(start.approve_url, timeout=10)
    assert page.status_code == 200 and "USD 19.90" in page.text and ORDER in page.text

    request = world.request(1990, reference=start.reference)
    paid_page = world.payer_page(request, "pay")
    assert paid_page.status_code == 200 and "The merchant answered 200." in paid_page.text
    (note,) = world.console.notifications(1)
    assert note == Notification(order_code=ORDER, paid=True, amount_cents=1990, reference=start.reference,
                                currency="usd")
    headers, body, _ = world.console.received[0]
    assert headers["Stripe-Signature"].startswith("t=") and b'"type": "payment_intent.succeeded"' in body

    assert world.gateway.query(request) == world.gateway.query(replace(request, reference=None))
    assert world.gateway.query(request).paid and world.gateway.query(request).amount_cents == 1990

    refund = RefundRequest(ORDER, "RF20261124000001", 1990, 1990, "USD", PayType.GOOGLE_PAY, start.reference)
    first = world.gateway.refund(refund)
    assert first.pending and first.reference.startswith("re_")  # the card network pays it back later
    assert world.gateway.refund(refund) == first  # retried: the same refund, nothing paid twice
    payment = world.ledger.get(start.reference)
    assert (payment.status, payment.refunded_cents, payment.refunds) == (Status.REFUNDED, 1990, ("RF20261124000001",))
    another = world.gateway.refund(replace(refund, refund_code="RF20261124000002"))
    assert (another.succeeded, another.error) == (False, "charge_already_refunded")


def test_a_retried_start_gets_the_same_payment_intent_back(world):
    first, again = world.gateway.start(world.request()), world.gateway.start(world.request())
    assert again == first
    other = world.gateway.start(world.request(order_code="20261124000000000002"))
    assert other.reference != first.reference
    intent = world.client().v1.payment_intents.retrieve(first.reference)
    assert (intent.amount, intent.currency, intent.payment_method_types) == (1990, "usd", ["card"])
    assert (intent.metadata["order_code"], intent.description) == (ORDER, "Professional, 12 months")


def test_a_wallet_payment_confirmed_with_a_visa_card_is_paid_and_notified(world):
    request = world.started(3192)
    result = world.gateway.confirm(request, "pm_card_visa")
    assert (result.paid, result.amount_cents, result.reference, result.error) == (True, 3192, request.reference, None)
    (note,) = world.console.notifications(1)
    assert note == Notification(ORDER, True, 3192, request.reference, "usd")
    assert world.gateway.confirm(request, "pm_card_visa") == result  # confirmed twice: paid once, the same answer
    assert world.ledger.get(request.reference).status is Status.PAID


def test_a_declined_card_leaves_the_intent_unpaid_and_payable_again(world):
    request = world.started()
    declined = world.gateway.confirm(request, "pm_card_chargeDeclined")
    assert (declined.paid, declined.error, declined.failure) == (False, "card_declined", PaymentFailure.DECLINED)
    assert declined.attempt.startswith("ch_")  # the declined charge: one attempt of the payer's
    assert world.gateway.confirm(request, "pm_card_visa_chargeDeclinedInsufficientFunds").error == "card_declined"
    assert world.gateway.confirm(request, "pm_card_chargeDeclinedExpiredCard").error == "expired_card"
    assert world.gateway.confirm(request, "pm_no_such_card").error == "resource_missing"
    query = world.gateway.query(request)
    assert (query.paid, query.amount_cents, query.error) == (False, 0, "expired_card")
    failed = world.console.notifications(3)
    # payment_failed, acknowledged, each about its own declined charge
    assert [replace(n, attempt=None) for n in failed] == [
        Notification(ORDER, False, 0, request.reference, "usd", PaymentFailure.DECLINED)] * 3
    assert failed[0].attempt == declined.attempt and len({n.attempt for n in failed}) == 3
    assert world.console.received[0][2] is failed[0]
    assert world.ledger.get(request.reference).status is Status.PENDING
    assert world.gateway.confirm(request, "pm_card_mastercard").paid


def test_failing_on_the_payer_page_notifies_an_unpaid_payment(world):
    request = world.started()
    page = world.payer_page(request, "fail")
    assert "Payment failed" in page.text and "The merchant answered 200." in page.text
    [failed] = world.console.notifications(1)
    assert replace(failed, attempt=None) == Notification(ORDER, False, 0, request.reference, "usd",
                                                         PaymentFailure.DECLINED)
    assert b'"payment_intent.payment_failed"' in world.console.received[0][1]
    assert not world.gateway.query(request).paid


def test_a_lost_notification_is_recovered_by_query(world):
    request = world.started()
    world.payer_page(request, "pay-silently")
    time.sleep(0.2)
    assert world.console.received == []
    assert world.gateway.query(request).paid


def test_a_payment_whose_reference_was_lost_is_found_by_its_order_code(world):
    world.gateway.start(world.request(order_code="20261124000000000009"))
    lost = world.request()
    world.gateway.start(lost)
    assert world.gateway.query(lost).error == "requires_payment_method"
    assert world.gateway.confirm(lost, "pm_card_visa").paid
    assert world.gateway.query(lost).paid
    nothing = world.request(order_code="20261124000000000099")
    assert world.gateway.query(nothing).error == "not_found"
    world.gateway.close(nothing)  # nothing to withdraw


# --- closing ----------------------------------------------------------------------------------------


def test_closing_an_unpaid_payment_cancels_its_intent_for_good(world):
    request = world.started()
    world.gateway.close(request)
    world.gateway.close(request)  # once more: already canceled, fine
    assert world.gateway.query(request).error == "canceled"
    refused = world.gateway.confirm(request, "pm_card_visa")
    assert (refused.paid, refused.error) == (False, "payment_intent_unexpected_state")
    assert world.ledger.get(request.reference).status is Status.CLOSED
    assert "This payment is closed" in requests.get(f"{world.sandbox_url}/pay/stripe/{request.reference}",
                                                    timeout=10).text
    assert world.payer_page(request, "pay").status_code == 409
    assert world.console.received == []  # payment_intent.canceled: not among the endpoint's events


def test_a_paid_payment_cannot_be_closed(world):
    request = world.started()
    world.gateway.confirm(request, "pm_card_visa")
    with pytest.raises(stripe.InvalidRequestError) as refused:
        world.gateway.close(request)
    assert refused.value.code == "payment_intent_unexpected_state"
    assert world.gateway.query(request).paid


# --- refunds ------------------------------------------------------------------------------------------


def test_refunds_are_partial_at_most_what_was_paid_and_idempotent(world):
    request = world.started(5000)
    refund = RefundRequest(ORDER, "RF1", 2000, 5000, "USD", PayType.CARD_PAYMENT_REQUEST, request.reference)
    assert not world.gateway.refund(refund).succeeded  # not paid yet
    assert world.gateway.refund(refund).error == "charge_not_refundable"
    world.gateway.confirm(request, "pm_card_visa")
    assert world.gateway.refund(refund).pending
    assert world.gateway.refund(replace(refund, refund_code="RF2", amount_cents=3001)).error == "amount_too_large"
    assert world.gateway.refund(replace(refund, refund_code="RF3", amount_cents=3000)).pending
    payment = world.ledger.get(request.reference)
    assert (payment.refunded_cents, payment.refunds, payment.status) == (5000, ("RF1", "RF3"), Status.REFUNDED)


def test_an_idempotency_key_replays_the_first_answer_and_refuses_other_parameters(world):
    request = world.started(5000)
    world.gateway.confirm(request, "pm_card_visa")
    refunds = world.client().v1.refunds
    params = {"payment_intent": request.reference, "amount": 1000}
    first = refunds.create(params, {"idempotency_key": "refund-RFX"})
    again = refunds.create(params, {"idempotency_key": "refund-RFX"})
    assert again.id == first.id and again.last_response.headers["Idempotent-Replayed"] == "true"
    assert world.ledger.get(request.reference).refunded_cents == 1000
    with pytest.raises(stripe.IdempotencyError):
        refunds.create({**params, "amount": 2000}, {"idempotency_key": "refund-RFX"})
    with pytest.raises(stripe.IdempotencyError):
        world.client().v1.payment_intents.cancel(request.reference, options={"idempotency_key": "refund-RFX"})
    # The gateway's own key: a refund code used again for another amount is not paid.
    gateway_refund = RefundRequest(ORDER, "RFY", 500, 5000, "USD", PayType.GOOGLE_PAY, request.reference)
    refunds.create({**params, "amount": 700}, {"idempotency_key": "refund-RFY"})
    assert world.gateway.refund(gateway_refund).error == "idempotency_error"
    assert world.ledger.get(request.reference).refunded_cents == 1700


# --- a card saved for off-session charges: automatic renewal -----------------------------------------


def test_a_saved_card_is_charged_off_session_once_per_order_until_it_is_detached(world):
    code = f"AR{ORDER}"
    request = world.request(1990)
    start = world.gateway.start_with_mandate(request, code)
    request = world.request(1990, reference=start.reference)
    assert world.gateway.start_with_mandate(request, code) == start  # retried: the same customer and intent
    assert world.gateway.mandate(request, code) is None  # not paid yet
    assert "The merchant answered 200." in world.payer_page(request, "pay").text
    mandate = world.gateway.mandate(request, code)
    customer, _, method = mandate.partition(":")
    assert world.client().v1.customers.retrieve(customer).metadata["agreement_code"] == code
    assert world.sandbox.payment_method(method)["customer"] == customer
    assert world.gateway.mandate(request, "ARsomebody-else") is None

    renewal = world.request(1990, order_code="20261124000000000101")
    charged = world.gateway.charge(mandate, renewal)
    assert (charged.paid, charged.amount_cents, charged.currency) == (True, 1990, "usd")
    assert world.gateway.charge(mandate, renewal) == charged  # the same order: Stripe's first answer
    assert [p.status for p in world.ledger.of_order("stripe", renewal.order_code)] == [Status.PAID]
    intent = world.client().v1.payment_intents.retrieve(charged.reference)
    assert (intent.customer, intent.payment_method, intent.metadata["order_code"]) == (customer, method,
                                                                                       renewal.order_code)

    world.sandbox.decline_charges(method, "authentication_required")
    declined = world.gateway.charge(mandate, world.request(1990, order_code="20261124000000000102"))
    assert (declined.paid, declined.error, declined.failure) == (False, "authentication_required",
                                                                 PaymentFailure.DECLINED)
    assert declined.reference.startswith("pi_") and declined.attempt.startswith("ch_")
    world.sandbox.decline_charges(method, None)

    world.gateway.cancel(mandate, code)
    world.gateway.cancel(mandate, code)  # detached already: fine
    assert world.sandbox.payment_method(method)["customer"] is None
    refused = world.gateway.charge(mandate, world.request(1990, order_code="20261124000000000103"))
    assert (refused.paid, refused.error) == (False, "invalid_request")
    assert world.ledger.of_order("stripe", "20261124000000000103") == []  # refused whole: no intent
    assert world.gateway.mandate(request, code) is None  # detached: no authorisation any more
    assert world.gateway.charge("dev-mandate-AR1", renewal).error == "invalid_mandate"


def test_the_sandbox_refuses_saved_methods_as_stripe_does(world):
    intents, client = world.client().v1.payment_intents, world.client()
    with pytest.raises(stripe.InvalidRequestError, match="off_session"):
        intents.create({"amount": 1990, "currency": "usd", "payment_method": "pm_card_visa", "off_session": True})
    with pytest.raises(stripe.InvalidRequestError, match="No such customer"):
        intents.create({"amount": 1990, "currency": "usd", "customer": "cus_nobody"})
    # A card used without a customer cannot be used again, nor detached.
    once = intents.create({"amount": 1990, "currency": "usd", "payment_method": "pm_card_visa", "confirm": True,
                           "payment_method_types": ["card"]})
    with pytest.raises(stripe.InvalidRequestError, match="may not be used again") as spent:
        intents.create({"amount": 1990, "currency": "usd", "payment_method": once.payment_method, "confirm": True,
                        "payment_method_types": ["card"]})
    assert spent.value.param == "payment_method"
    with pytest.raises(stripe.InvalidRequestError, match="not attached to a customer"):
        client.v1.payment_methods.detach(once.payment_method)
    # Another customer's card is not this one's.
    customer = client.v1.customers.create({"metadata": {"agreement_code": "ARX"}})
    other = client.v1.customers.create({})
    saved = intents.create({"amount": 1990, "currency": "usd", "customer": customer.id, "confirm": True,
                            "setup_future_usage": "off_session", "payment_method": "pm_card_visa",
                            "payment_method_types": ["card"]})
    with pytest.raises(stripe.InvalidRequestError, match="must be attached to the customer"):
        intents.create({"amount": 1990, "currency": "usd", "customer": other.id, "confirm": True,
                        "off_session": True, "payment_method": saved.payment_method})
    found = client.v1.customers.search({"query": "metadata['agreement_code']:'ARX'"}).data
    assert [c.id for c in found] == [customer.id]


# --- notifications ----------------------------------------------------------------------------------


@pytest.fixture
def paid(world) -> PaymentRequest:
    request = world.started()
    world.gateway.confirm(request, "pm_card_visa")
    world.console.notifications(1)
    return request


def test_a_genuine_notification_parses_with_any_case_of_its_header(world, paid):
    headers, body = world.sandbox.signed_event(paid.reference)
    expected = Notification(ORDER, True, 1990, paid.reference, "usd")
    assert world.gateway.parse_notification(headers, body) == expected
    assert world.gateway.parse_notification({"stripe-signature": headers["Stripe-Signature"]}, body) == expected
    # The sandbox signs as Stripe does: the SDK's own test helper gives the same header.
    timestamp = int(headers["Stripe-Signature"].split(",")[0].removeprefix("t="))
    assert headers["Stripe-Signature"] == stripe.WebhookSignature.generate_signature_header(
        body.decode(), world.credentials.stripe_webhook_secret, timestamp)


def test_a_replayed_notification_parses_the_same(world, paid):
    headers, body, first = world.console.received[0]
    assert world.gateway.parse_notification(headers, body) == first
    assert world.gateway.parse_notification(headers, body) == first


def _forgeries(world, paid):
    headers, body = world.sandbox.signed_event(paid.reference)
    signature = headers["Stripe-Signature"]
    timestamp = int(signature.split(",")[0].removeprefix("t="))
    return {
        "unsigned": ({}, body),
        "an empty signature": ({"Stripe-Signature": ""}, body),
        "a garbled signature": ({"Stripe-Signature": "nonsense"}, body),
        "no v1 signature": ({"Stripe-Signature": f"t={timestamp},v0=abc"}, body),
        "signed with another secret": (world.sandbox.signed_event(paid.reference, secret="whsec_other")[0], body),
        "a tampered amount": (headers, body.replace(b'"amount_received": 1990', b'"amount_received": 19900')),
        "a tampered type": (world.sandbox.signed_event(paid.reference, "payment_intent.payment_failed")[0], body),
        "another timestamp": ({"Stripe-Signature": signature.replace(f"t={timestamp}", f"t={timestamp + 1}")}, body),
        "a stale signature": world.sandbox.signed_event(paid.reference, timestamp=int(time.time()) - 600),
        "a signed body that is not JSON": ({"Stripe-Signature": world.sandbox.sign(b"<xml/>")}, b"<xml/>"),
        "a signed body that is not UTF-8": ({"Stripe-Signature": world.sandbox.sign(b"\xff\xfe")}, b"\xff\xfe"),
    }


@pytest.mark.parametrize("forgery", ["unsigned", "an empty signature", "a garbled signature", "no v1 signature",
                                     "signed with another secret", "a tampered amount", "a tampered type",
                                     "another timestamp", "a stale signature", "a signed body that is not JSON",
                                     "a signed body that is not UTF-8"])
def test_a_forged_tampered_or_stale_notification_is_refused(world, paid, forgery):
    headers, body = _forgeries(world, paid)[forgery]
    with pytest.raises(InvalidNotification):
        world.gateway.parse_notification(headers, body)


def test_a_notification_posted_to_the_console_unsigned_is_answered_400(world, paid):
    _, body, _ = world.console.received[0]
    answer = requests.post(world.sandbox.webhook_url, data=body, timeout=10)
    assert (answer.status_code, answer.json()) == (400, {"received": False})
    assert isinstance(world.console.received[-1][2], InvalidNotification)


def test_an_amount_mismatch_is_visible_in_the_notification(world, paid):
    headers, body = world.sandbox.signed_event(paid.reference, overrides={"amount": 1, "amount_received": 1})
    note = world.gateway.parse_notification(headers, body)
    assert (note.order_code, note.paid, note.amount_cents) == (ORDER, True, 1)
    assert note.amount_cents != paid.amount_cents


def test_other_intent_events_are_acknowledged_unpaid_and_events_about_other_things_refused(world):
    request = world.started()
    headers, body = world.sandbox.signed_event(request.reference, "payment_intent.created")
    assert world.gateway.parse_notification(headers, body) == Notification(ORDER, False, 0, request.reference, "usd")
    not_ours = world.client().v1.payment_intents.create({"amount": 500, "currency": "usd"})
    headers, body = world.sandbox.signed_event(not_ours.id, "payment_intent.succeeded")
    with pytest.raises(InvalidNotification, match="not one of our orders"):
        world.gateway.parse_notification(headers, body)
    event = b'{"id": "evt_1", "object": "event", "type": "charge.refunded", "data": {"object": {"object": "charge"}}}'
    with pytest.raises(InvalidNotification, match="charge.refunded"):
        world.gateway.parse_notification({"Stripe-Signature": world.sandbox.sign(event)}, event)


def test_the_acknowledgements_are_what_stripe_expects(world):
    accepted, refused = world.gateway.acknowledge(True), world.gateway.acknowledge(False)
    assert (accepted.status, accepted.body, accepted.content_type) == (200, b'{"received": true}', "application/json")
    assert (refused.status, refused.content_type) == (400, "application/json")


# --- Stripe's wire protocol, and a Stripe that fails ---------------------------------------------------


def test_the_sandbox_refuses_a_wrong_or_missing_secret_key_as_stripe_does(world):
    wrong = StripeGateway(f"{world.sandbox_url}/stripe", "sk_test_wrong0000", world.credentials.stripe_webhook_secret)
    with pytest.raises(stripe.AuthenticationError):
        wrong.start(world.request())
    answer = requests.post(f"{world.sandbox_url}/stripe/v1/payment_intents", data={"amount": 100, "currency": "usd"},
                           headers={"Authorization": "Bearer sk_test_wrong0000"}, timeout=10)
    error = answer.json()["error"]
    assert (answer.status_code, error["type"]) == (401, "invalid_request_error")
    assert error["message"].startswith("Invalid API Key provided: sk_test_") and "wrong0000" not in error["message"]
    missing = requests.get(f"{world.sandbox_url}/stripe/v1/payment_intents/pi_1", timeout=10)
    assert missing.status_code == 401 and "did not provide an API key" in missing.json()["error"]["message"]
    assert world.ledger.by_order("stripe", ORDER) is None


def test_the_sandbox_answers_bad_requests_with_stripes_errors(world):
    intents = world.client().v1.payment_intents
    with pytest.raises(stripe.InvalidRequestError) as missing:
        intents.retrieve("pi_nope")
    assert (missing.value.http_status, missing.value.code, missing.value.param) == (404, "resource_missing", "intent")
    with pytest.raises(stripe.InvalidRequestError) as unknown:
        intents.create({"amount": 100, "currency": "usd", "colour": "red"})  # type: ignore[typeddict-unknown-key]
    assert (unknown.value.code, unknown.value.param) == ("parameter_unknown", "colour")
    with pytest.raises(stripe.InvalidRequestError) as small:
        intents.create({"amount": 49, "currency": "usd"})
    assert small.value.code == "amount_too_small"
    automatic = intents.create({"amount": 100, "currency": "usd", "automatic_payment_methods": {"enabled": True}})
    with pytest.raises(stripe.InvalidRequestError) as redirect:
        intents.confirm(automatic.id, {"payment_method": "pm_card_visa"})
    assert redirect.value.param == "return_url"
    with pytest.raises(stripe.CardError) as declined:
        intents.create({"amount": 100, "currency": "usd", "payment_method_types": ["card"], "confirm": True,
                        "payment_method": "pm_card_visa_chargeDeclinedLostCard"})
    assert (declined.value.http_status, declined.value.code) == (402, "card_declined")
    assert declined.value.error.decline_code == "lost_card"
    unrecognized = requests.delete(f"{world.sandbox_url}/stripe/v1/payment_intents",
                                   headers={"Authorization": f"Bearer {world.credentials.stripe_secret_key}"},
                                   timeout=10)
    assert unrecognized.status_code == 404 and "Unrecognized request URL" in unrecognized.json()["error"]["message"]


def test_a_stripe_that_never_answers_makes_start_and_query_raise_in_time(world):
    release = threading.Event()

    def never_answers(environ, start_response):
        release.wait(10)
        start_response("200 OK", [("Content-Type", "application/json")])
        return [b"{}"]

    with served(never_answers) as (url, _):
        slow = StripeGateway(f"{url}/stripe", world.credentials.stripe_secret_key,
                             world.credentials.stripe_webhook_secret, timeout=0.5)
        began = time.monotonic()
        with pytest.raises(stripe.APIConnectionError):
            slow.start(world.request())
        with pytest.raises(stripe.APIConnectionError):
            slow.query(world.request(reference="pi_123"))
        assert time.monotonic() - began < 4
        release.set()


def test_a_stripe_that_is_not_there_makes_start_raise_at_once(world):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    gone = StripeGateway(f"http://127.0.0.1:{port}/stripe", "sk_test_x", "whsec_x", timeout=2)
    with pytest.raises(stripe.APIConnectionError):
        gone.start(world.request())


def test_amounts_convert_exactly_at_the_edge():
    assert to_stripe_amount(1990, "USD") == 1990 and from_stripe_amount(1990, "usd") == 1990
    assert to_stripe_amount(150000, "jpy") == 1500 and from_stripe_amount(1500, "JPY") == 150000
    assert to_stripe_amount(1234, "kwd") == 12340
    with pytest.raises(ValueError):
        to_stripe_amount(150050, "jpy")


# --- end to end: the international console paying through the sandbox ----------------------------------

_ALL_ADAPTERS = all(importlib.util.find_spec(f"adapters.payments.{m}") for m in ("wechat_pay", "alipay", "paypal"))


@pytest.mark.skipif(not _ALL_ADAPTERS, reason="the console builds all four adapters: waiting for the other three")
def test_the_international_console_takes_a_wallet_payment_and_a_payer_page_payment(international_payments):
    from sqlalchemy import select

    from adapters.persistence.models import DeviceRow

    api, world = international_payments.api, international_payments.world
    token = api.token("alice")
    with international_payments.container.session_factory()() as session:
        device = session.scalars(select(DeviceRow).where(DeviceRow.guid == "RCW360A0000001")).one().id
    levels = api.call("GET", "/payment/PayServicePackages/selectLevelList", token=token, query={"deviceId": device})
    level = next(lv for lv in levels.data if lv["levelName"] == "Professional")
    option = api.call("GET", "/payment/PayServiceLevelYear/selectListByDomain", token=token, query={
        "deviceId": device, "levelId": level["levelId"], "packageId": level["packageId"]}).data["levelYearList"][0]

    def place(pay_type: int) -> dict:
        reply = api.call("POST", "/payment/PayOrder/createServiceOrder", token=token, json={
            "deviceId": device, "levelId": level["levelId"], "levelYearId": option["id"],
            "servicePackageId": level["packageId"], "payType": pay_type, "serviceFee": option["serviceFee"],
            "totalFee": option["price"]})
        assert (reply.status, reply.code) == (200, 0), reply.body
        return reply.data

    wallet = place(30)
    assert wallet["clientSecret"].startswith("pi_") and wallet["approveUrl"].startswith(world.sandbox_url)
    confirm = {"orderId": wallet["orderId"], "payType": 30, "payFee": option["price"]}
    declined = api.call("POST", "/payment/PayOrder/confirmPay", token=token,
                        json={**confirm, "paymentPlatformId": "pm_card_chargeDeclined"})
    assert declined.status == 409
    paid = api.call("POST", "/payment/PayOrder/confirmPay", token=token,
                    json={**confirm, "paymentPlatformId": "pm_card_visa"})
    assert paid.data == {"payStatus": 2}

    button = place(40)
    page = requests.post(button["approveUrl"], data={"outcome": "pay"}, timeout=10)
    assert "The merchant answered 200." in page.text
    status = api.call("GET", "/payment/PayOrder/get", token=token, query={"pk": button["orderId"]})
    assert status.data["payStatus"] == 2
