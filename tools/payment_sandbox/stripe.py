"""Stripe in the sandbox: the subset of Stripe's REST API (v1) the Stripe adapter calls, spoken as
Stripe speaks it, so the real stripe SDK runs against it unchanged.

- Form-encoded request bodies with bracketed keys (`metadata[order_code]`, `payment_method_types[0]`),
  JSON answers shaped like Stripe's objects, and errors as `{"error": {type, code, message, param}}`
  with Stripe's HTTP statuses (400 invalid request, 401 bad key, 402 card declined, 404 no such
  object, 409 concurrent idempotent request).
- The secret key as Bearer (or Basic) authentication on every call; any other key is answered 401.
- `Idempotency-Key`: a POST repeated with the same key gets the first answer again (marked
  `Idempotent-Replayed: true`) and does nothing more; the same key with other parameters is an
  `idempotency_error`.
- Stripe's documented test payment methods: `pm_card_visa` (and the other brands) succeed,
  `pm_card_chargeDeclined`, `pm_card_visa_chargeDeclined...` are declined with their codes.
- Webhooks: when an intent succeeds or a payment fails, the event (`payment_intent.succeeded`,
  `payment_intent.payment_failed`: what the console's endpoint is subscribed to) is POSTed to the
  console signed with `Stripe-Signature: t=<ts>,v1=<HMAC-SHA256 of "<ts>.<payload>">` under the
  webhook secret. After an API confirm it is sent once the answer has gone out, as Stripe does
  (asynchronously); after the payer page it is sent before the page answers, so the page can
  show the merchant's answer.

The payer page stands in for the wallet sheet (Google Pay, the payment-request button), which
cannot load offline: its Pay confirms the intent with `pm_card_visa`, its Fail with a declined card.
Each intent carries the page's address in a field of the sandbox's own, `sandbox_payer_url`
(Stripe has no such field; the SDK keeps unknown fields), so the adapter can hand it to the web
client. After a decline the intent is payable again (`requires_payment_method`), as on Stripe.

Saved payment methods, charged again without the payer (docs.stripe.com/payments/save-during-payment):
- Customers (`/v1/customers`: create, retrieve, search by metadata).
- A test payment method (`pm_card_visa`...) used in a payment becomes a PaymentMethod of its own
  (`pm_...`), as on Stripe. An intent created with `customer` and `setup_future_usage` attaches it
  to that customer once it succeeds; one used without a customer cannot be used again.
- An intent created with `customer`, `payment_method`, `off_session=true` and `confirm=true` charges
  the saved method at once: it must be attached to that customer. A decline answers 402, the
  intent left `requires_payment_method`, as Stripe answers off-session charges it cannot make.
- `POST /v1/payment_methods/{id}/detach` ends it for good: a detached method is refused (400,
  param `payment_method`) and cannot be attached again.
- The test switch, the sandbox's own: `decline_charges(pm, code)` makes the saved method's later
  charges declined with `card_declined` or `authentication_required` (what an off-session charge
  gets when the bank wants the payer), as if its card had changed since.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import hmac
import json
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal, overload
from urllib.parse import parse_qsl

from flask import Blueprint, Response, request

from payment_sandbox.ledger import SandboxPayment, Status, new_id
from payment_sandbox.provider import Delivery, SandboxConfig, SandboxContext, deliver

API_VERSION = "2026-10-28.endive"  # answered when the caller sends no Stripe-Version
NOTIFY_PATH = "/api/payment/notify/stripe"
ENABLED_EVENTS = ("payment_intent.succeeded", "payment_intent.payment_failed")
WEBHOOK_USER_AGENT = "Stripe/1.0 (+https://stripe.com/docs/webhooks)"
MAX_AMOUNT = 99_999_999
MIN_AMOUNT = {"usd": 50}  # Stripe's minimum charge, in the currency's smallest unit

PAYABLE = ("requires_payment_method", "requires_confirmation", "requires_action")
CANCELABLE = ("requires_payment_method", "requires_capture", "requires_confirmation", "requires_action",
              "processing")
CREATE_PARAMS = frozenset({"amount", "currency", "metadata", "description", "payment_method_types",
                           "automatic_payment_methods", "confirm", "payment_method", "return_url", "capture_method",
                           "receipt_email", "statement_descriptor_suffix", "customer", "setup_future_usage",
                           "off_session", "expand"})
CONFIRM_PARAMS = frozenset({"payment_method", "return_url", "receipt_email", "off_session", "expand"})
CUSTOMER_PARAMS = frozenset({"description", "email", "name", "phone", "metadata", "expand"})
FUTURE_USAGES = ("off_session", "on_session")
CANCEL_PARAMS = frozenset({"cancellation_reason", "expand"})
CANCELLATION_REASONS = ("duplicate", "fraudulent", "requested_by_customer", "abandoned")
REFUND_PARAMS = frozenset({"payment_intent", "charge", "amount", "reason", "metadata", "expand"})
REFUND_REASONS = ("duplicate", "fraudulent", "requested_by_customer")


@dataclass(frozen=True)
class SandboxCard:
    brand: str
    last4: str
    funding: str = "credit"
    code: str | None = None  # the error code when the card is declined
    decline_code: str | None = None
    message: str = ""


_DECLINED = "Your card was declined."
# Stripe's documented test PaymentMethods (docs.stripe.com/testing, "PaymentMethods").
TEST_CARDS = {
    "pm_card_visa": SandboxCard("visa", "4242"),
    "pm_card_visa_debit": SandboxCard("visa", "5556", "debit"),
    "pm_card_mastercard": SandboxCard("mastercard", "4444"),
    "pm_card_mastercard_debit": SandboxCard("mastercard", "8210", "debit"),
    "pm_card_amex": SandboxCard("amex", "8431"),
    "pm_card_discover": SandboxCard("discover", "1117"),
    "pm_card_us": SandboxCard("visa", "4242"),
    "pm_card_chargeDeclined": SandboxCard("visa", "0002", code="card_declined", decline_code="generic_decline",
                                       message=_DECLINED),
    "pm_card_visa_chargeDeclined": SandboxCard("visa", "0002", code="card_declined", decline_code="generic_decline",
                                            message=_DECLINED),
    "pm_card_visa_chargeDeclinedInsufficientFunds": SandboxCard(
        "visa", "9995", code="card_declined", decline_code="insufficient_funds",
        message="Your card has insufficient funds."),
    "pm_card_visa_chargeDeclinedLostCard": SandboxCard("visa", "9987", code="card_declined", decline_code="lost_card",
                                                    message=_DECLINED),
    "pm_card_visa_chargeDeclinedStolenCard": SandboxCard("visa", "9979", code="card_declined",
                                                      decline_code="stolen_card", message=_DECLINED),
    "pm_card_visa_chargeDeclinedFraudulent": SandboxCard("visa", "0019", code="card_declined",
                                                      decline_code="fraudulent", message=_DECLINED),
    "pm_card_chargeDeclinedExpiredCard": SandboxCard("visa", "0069", code="expired_card",
                                                  message="Your card has expired."),
    "pm_card_chargeDeclinedIncorrectCvc": SandboxCard("visa", "0127", code="incorrect_cvc",
                                                   message="Your card's security code is incorrect."),
    "pm_card_chargeDeclinedProcessingError": SandboxCard(
        "visa", "0119", code="processing_error",
        message="An error occurred while processing your card. Try again in a little bit."),
}
PAY_CARD, DECLINED_CARD = "pm_card_visa", "pm_card_chargeDeclined"
# What a saved method's later charges get once a test switches them to declines (decline_charges).
SWITCHED_DECLINES = {
    "card_declined": ("generic_decline", _DECLINED),
    "authentication_required": ("authentication_required",
                                "Your card was declined. This transaction requires authentication."),
}
SPENT_METHOD = ("The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, "
                "shared with a connected account without Customer attachment, or was detached from a Customer. It "
                "may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer "
                "first.")


class StripeError(Exception):
    """An error answer, in Stripe's shape."""

    def __init__(self, status: int, message: str, *, type: str = "invalid_request_error",
                 code: str | None = None, param: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.events: tuple[dict, ...] = ()  # webhooks still due (a declined card's payment_failed)
        self.error = {"type": type, "message": message, **({"code": code} if code else {}),
                      **({"param": param} if param else {}), **extra}
        if code:
            self.error["doc_url"] = f"https://stripe.com/docs/error-codes/{code.replace('_', '-')}"


def _missing(param: str) -> StripeError:
    return StripeError(400, f"Missing required param: {param}.", code="parameter_missing", param=param)


def _no_such(kind: str, object_id: str, param: str) -> StripeError:
    return StripeError(404, f"No such {kind}: '{object_id}'", code="resource_missing", param=param)


# --- form decoding: Stripe's bracketed keys -----------------------------------------------------

_KEY = re.compile(r"^([^\[\]]+)((?:\[[^\[\]]*\])*)$")


def decode_form(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """`a[b][0]=x` → {"a": {"b": ["x"]}}, as Stripe reads the SDK's form encoding."""
    root: dict[str, Any] = {}
    for key, value in pairs:
        match = _KEY.match(key)
        if not match:
            raise StripeError(400, f"Invalid parameter name: {key}", code="parameter_unknown", param=key)
        path = [match.group(1), *re.findall(r"\[([^\[\]]*)\]", match.group(2))]
        node = root
        for part in path[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise StripeError(400, f"Invalid parameter: {key}", code="parameter_invalid", param=key)
        leaf = path[-1] if path[-1] != "" else str(len(node))  # `a[]=x`: appended
        if isinstance(node.get(leaf), dict):
            raise StripeError(400, f"Invalid parameter: {key}", code="parameter_invalid", param=key)
        node[leaf] = value
    return _listify(root)


def _listify(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    node = {k: _listify(v) for k, v in node.items()}
    if node and all(k.isdigit() for k in node):
        return [node[k] for k in sorted(node, key=int)]
    return node


@overload
def _integer(params: dict, name: str, *, required: Literal[True], positive: bool = False) -> int: ...


@overload
def _integer(params: dict, name: str, *, required: bool = False, positive: bool = False) -> int | None: ...


def _integer(params: dict, name: str, *, required: bool = False, positive: bool = False) -> int | None:
    if name not in params:
        if required:
            raise _missing(name)
        return None
    raw = params[name]
    if not isinstance(raw, str) or not re.fullmatch(r"-?\d{1,18}", raw):
        raise StripeError(400, f"Invalid integer: {raw}", code="parameter_invalid_integer", param=name)
    value = int(raw)
    if positive and value <= 0:
        raise StripeError(400, "This value must be greater than or equal to 1.", code="parameter_invalid_integer",
                          param=name)
    return value


def _string(params: dict, name: str, *, max_length: int = 5000) -> str | None:
    raw = params.get(name)
    if raw is None:
        return None
    if not isinstance(raw, str) or len(raw) > max_length:
        raise StripeError(400, f"Invalid string: {name}", code="parameter_invalid_string", param=name)
    return raw


def _boolean(params: dict, name: str) -> bool | None:
    raw = params.get(name)
    if raw is None:
        return None
    if raw not in ("true", "false"):
        raise StripeError(400, f"Invalid boolean: {raw}", code="parameter_invalid_boolean", param=name)
    return raw == "true"


def _metadata(params: dict) -> dict[str, str]:
    raw = params.get("metadata", {})
    if raw == "":
        return {}
    if not isinstance(raw, dict) or len(raw) > 50:
        raise StripeError(400, "Invalid hash", code="parameter_invalid_hash", param="metadata")
    for key, value in raw.items():
        if not isinstance(value, str) or len(key) > 40 or len(value) > 500:
            raise StripeError(400, f"Invalid metadata[{key}]", code="parameter_invalid_string",
                              param=f"metadata[{key}]")
    return dict(raw)


def _off_session(params: dict) -> bool | None:
    """`off_session`: true or false, or the kind of off-session payment (one_off, recurring)."""
    raw = params.get("off_session")
    if raw is None:
        return None
    if raw not in ("true", "false", "one_off", "recurring"):
        raise StripeError(400, f"Invalid off_session: {raw}", code="parameter_invalid_boolean", param="off_session")
    return raw != "false"


def _only(params: dict, allowed: frozenset[str]) -> None:
    for name in params:
        if name not in allowed:
            raise StripeError(400, f"Received unknown parameter: {name}", code="parameter_unknown", param=name)


# --- the sandbox ----------------------------------------------------------------------------------


@dataclass
class _Answer:
    status: int
    body: dict
    events: tuple[dict, ...] = ()


@dataclass(frozen=True)
class _Stored:
    """An idempotent request's first answer."""

    path: str
    params: tuple[tuple[str, str], ...]
    status: int
    body: bytes
    request_id: str


class StripeSandbox:
    name = "stripe"

    def __init__(self, context: SandboxContext, config: SandboxConfig) -> None:
        self._context, self._config = context, config
        self._lock = threading.RLock()
        self._intents: dict[str, dict] = {}
        self._refunds: dict[str, dict] = {}
        self._customers: dict[str, dict] = {}
        self._methods: dict[str, dict] = {}  # PaymentMethods, as Stripe shows them
        self._cards: dict[str, SandboxCard] = {}  # the test card behind each: what charging it does
        self._spent: set[str] = set()  # used without a customer, or detached: never usable again
        self._idempotent: dict[str, _Stored] = {}
        self._in_flight: set[str] = set()

    @property
    def webhook_url(self) -> str:
        return f"{self._config.console_url.rstrip('/')}{NOTIFY_PATH}"

    # --- the payer page -------------------------------------------------------------------------

    def complete(self, payment: SandboxPayment, paid: bool, notify: bool = True) -> Delivery | None:
        """The payer page's Pay confirms the intent with a Visa test card, its Fail with a declined
        one: the same confirmation as the API's, then the webhook, sent now."""
        # The sheet's return_url is this page: intents with automatic payment methods need one.
        params = {"payment_method": PAY_CARD if paid else DECLINED_CARD,
                  "return_url": self._context.payer_page(self.name, payment.id)}
        with self._lock:  # the payer page may have charged it in another currency (tests)
            self._intent(payment.id)["currency"] = payment.currency.lower()
        try:
            events = self._confirm(payment.id, params, None).events
        except StripeError as error:  # declined (payment_failed is due), or no longer payable (nothing is)
            events = error.events
        deliveries = [self._send(event) for event in events if event["type"] in ENABLED_EVENTS] if notify else []
        return deliveries[-1] if deliveries else None

    def after_payment_url(self, payment: SandboxPayment, paid: bool) -> str | None:
        return None

    # --- for tests: saved payment methods, and the switch that declines their charges ---------------

    def payment_method(self, method_id: str) -> dict:
        """The PaymentMethod as Stripe shows it: its `customer` is None once detached."""
        with self._lock:
            return copy.deepcopy(self._method(method_id, "id"))

    def decline_charges(self, method_id: str, code: str | None = "card_declined") -> None:
        """The saved method's later charges are declined with `code` (card_declined,
        authentication_required), or succeed again (None)."""
        with self._lock:
            card = self._cards[method_id]
            decline_code, message = SWITCHED_DECLINES[code] if code else (None, "")
            self._cards[method_id] = replace(card, code=code, decline_code=decline_code, message=message)

    # --- webhooks ---------------------------------------------------------------------------------

    def sign(self, payload: bytes, *, timestamp: int | None = None, secret: str | None = None) -> str:
        """The Stripe-Signature header of a webhook payload."""
        timestamp = int(time.time()) if timestamp is None else timestamp
        key = (self._config.credentials.stripe_webhook_secret if secret is None else secret).encode()
        digest = hmac.new(key, f"{timestamp}.".encode() + payload, hashlib.sha256).hexdigest()
        return f"t={timestamp},v1={digest}"

    def signed_event(self, payment_id: str, event_type: str | None = None, *, overrides: dict | None = None,
                     timestamp: int | None = None, secret: str | None = None) -> tuple[dict[str, str], bytes]:
        """The webhook Stripe would send about this intent now (headers, body), for tests: the type
        follows the intent's state unless given; `overrides` change fields of the intent in the
        event (then signed as genuine, as if Stripe had said so)."""
        with self._lock:
            intent = self._intents[payment_id]
            if event_type is None:
                event_type = ("payment_intent.succeeded" if intent["status"] == "succeeded"
                              else "payment_intent.payment_failed" if intent["last_payment_error"]
                              else "payment_intent.created")
            event = self._event(event_type, {**intent, **(overrides or {})})
        return self._webhook(event, timestamp=timestamp, secret=secret)

    def _event(self, event_type: str, intent: dict, request_id: str | None = None,
               idempotency_key: str | None = None) -> dict:
        return {"id": new_id("evt_"), "object": "event", "api_version": API_VERSION, "created": int(time.time()),
                "data": {"object": copy.deepcopy(intent)}, "livemode": False, "pending_webhooks": 1,
                "request": {"id": request_id, "idempotency_key": idempotency_key}, "type": event_type}

    def _webhook(self, event: dict, *, timestamp: int | None = None,
                 secret: str | None = None) -> tuple[dict[str, str], bytes]:
        payload = json.dumps(event, indent=2).encode()
        headers = {"Content-Type": "application/json; charset=utf-8", "User-Agent": WEBHOOK_USER_AGENT,
                   "Stripe-Signature": self.sign(payload, timestamp=timestamp, secret=secret)}
        return headers, payload

    def _send(self, event: dict) -> Delivery:
        headers, payload = self._webhook(event)
        return deliver(self.webhook_url, payload, headers)

    # --- the API ------------------------------------------------------------------------------------

    def blueprint(self) -> Blueprint:
        bp = Blueprint("stripe_sandbox", __name__)

        @bp.before_request
        def authenticate():
            key = _api_key()
            if key is None:
                return self._error(StripeError(
                    401, "You did not provide an API key. You need to provide your API key in the Authorization "
                         "header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')."))
            if not hmac.compare_digest(key.encode(), self._config.credentials.stripe_secret_key.encode()):
                return self._error(StripeError(401, f"Invalid API Key provided: {_masked(key)}"))
            return None

        bp.add_url_rule("/v1/payment_intents", "create_intent", methods=["POST"],
                        view_func=lambda: self._post(self._create_intent))
        bp.add_url_rule("/v1/payment_intents/search", "search_intents", methods=["GET"],
                        view_func=lambda: self._get(self._search_intents))
        bp.add_url_rule("/v1/payment_intents/<intent_id>", "retrieve_intent", methods=["GET"],
                        view_func=lambda intent_id: self._get(self._retrieve_intent, intent_id))
        bp.add_url_rule("/v1/payment_intents/<intent_id>/confirm", "confirm_intent", methods=["POST"],
                        view_func=lambda intent_id: self._post(self._confirm_intent, intent_id))
        bp.add_url_rule("/v1/payment_intents/<intent_id>/cancel", "cancel_intent", methods=["POST"],
                        view_func=lambda intent_id: self._post(self._cancel_intent, intent_id))
        bp.add_url_rule("/v1/customers", "create_customer", methods=["POST"],
                        view_func=lambda: self._post(self._create_customer))
        bp.add_url_rule("/v1/customers/search", "search_customers", methods=["GET"],
                        view_func=lambda: self._get(self._search_customers))
        bp.add_url_rule("/v1/customers/<customer_id>", "retrieve_customer", methods=["GET"],
                        view_func=lambda customer_id: self._get(self._retrieve_customer, customer_id))
        bp.add_url_rule("/v1/payment_methods/<method_id>", "retrieve_payment_method", methods=["GET"],
                        view_func=lambda method_id: self._get(self._retrieve_payment_method, method_id))
        bp.add_url_rule("/v1/payment_methods/<method_id>/detach", "detach_payment_method", methods=["POST"],
                        view_func=lambda method_id: self._post(self._detach_payment_method, method_id))
        bp.add_url_rule("/v1/refunds", "create_refund", methods=["POST"],
                        view_func=lambda: self._post(self._create_refund))
        bp.add_url_rule("/v1/refunds", "list_refunds", methods=["GET"], view_func=lambda: self._get(self._list_refunds))
        bp.add_url_rule("/v1/refunds/<refund_id>", "retrieve_refund", methods=["GET"],
                        view_func=lambda refund_id: self._get(self._retrieve_refund, refund_id))

        @bp.route("/", defaults={"path": ""}, methods=["GET", "POST", "DELETE", "PUT", "PATCH"])
        @bp.route("/<path:path>", methods=["GET", "POST", "DELETE", "PUT", "PATCH"])
        def unrecognized(path: str):
            return self._error(StripeError(
                404, f"Unrecognized request URL ({request.method}: /{path}). Please see https://stripe.com/docs "
                     "or we can help at https://support.stripe.com/."))

        return bp

    # --- plumbing: answers, idempotency -------------------------------------------------------------

    @staticmethod
    def _headers(request_id: str) -> dict[str, str]:
        return {"Request-Id": request_id, "Stripe-Version": request.headers.get("Stripe-Version", API_VERSION),
                "Cache-Control": "no-cache, no-store"}

    def _respond(self, status: int, body: bytes, request_id: str, **extra: str) -> Response:
        headers = {**self._headers(request_id), **extra}
        return Response(body, status=status, content_type="application/json", headers=headers)

    def _error(self, error: StripeError) -> Response:
        request_id = new_id("req_", 14)
        error.error.setdefault("request_log_url", f"https://dashboard.stripe.com/test/logs/{request_id}")
        response = self._respond(error.status, _dump({"error": error.error}), request_id)
        if error.status == 401:
            response.headers["WWW-Authenticate"] = 'Basic realm="Stripe"'
        return response

    def _get(self, handler: Callable[..., _Answer], *args: str) -> Response:
        try:
            params = decode_form(parse_qsl(request.query_string.decode("utf-8", "replace"), keep_blank_values=True))
            answer = handler(params, *args)
        except StripeError as error:
            return self._error(error)
        return self._respond(answer.status, _dump(answer.body), new_id("req_", 14))

    def _post(self, handler: Callable[..., _Answer], *args: str) -> Response:
        """A POST, idempotent under its Idempotency-Key; its webhooks go out after the answer."""
        request_id = new_id("req_", 14)
        pairs = parse_qsl(request.get_data(as_text=True), keep_blank_values=True)
        key = request.headers.get("Idempotency-Key")
        if key:
            with self._lock:
                stored = self._idempotent.get(key)
                if stored is None and key in self._in_flight:
                    return self._error(StripeError(
                        409, "There is currently another in-progress request using this Idempotent Key (that "
                             "probably means you submitted twice, and the other request is still going through): "
                             f"{key}. Please try again later.", type="idempotency_error"))
                if stored is None:
                    self._in_flight.add(key)
            if stored is not None:
                return self._replay(stored, key, pairs)
        try:
            try:
                answer = handler(decode_form(pairs), *args, request_id=request_id, idempotency_key=key)
            except StripeError as error:
                error.error.setdefault("request_log_url", f"https://dashboard.stripe.com/test/logs/{request_id}")
                answer = _Answer(error.status, {"error": error.error}, error.events)
            body = _dump(answer.body)
            # Stripe keeps the answer of a request that ran (a success, or a declined card), not that
            # of one refused before it ran (invalid parameters): that one can be retried.
            if key and (answer.status < 400 or answer.status == 402):
                with self._lock:
                    self._idempotent[key] = _Stored(request.path, tuple(sorted(pairs)), answer.status, body,
                                                    request_id)
        finally:
            if key:
                with self._lock:
                    self._in_flight.discard(key)
        response = self._respond(answer.status, body, request_id, **({"Idempotency-Key": key} if key else {}))
        events = [e for e in answer.events if e["type"] in ENABLED_EVENTS]
        if events:
            response.call_on_close(lambda: [self._send(event) for event in events])
        return response

    def _replay(self, stored: _Stored, key: str, pairs: list[tuple[str, str]]) -> Response:
        if stored.path != request.path:
            return self._error(StripeError(
                400, "Keys for idempotent requests can only be used for the same endpoint they were first used "
                     f"for ('{stored.path}' vs '{request.path}'). Try using a key other than '{key}' if you meant "
                     "to execute a different request.", type="idempotency_error"))
        if stored.params != tuple(sorted(pairs)):
            return self._error(StripeError(
                400, "Keys for idempotent requests can only be used with the same parameters they were first "
                     f"used with. Try using a key other than '{key}' if you meant to execute a different request.",
                type="idempotency_error"))
        return self._respond(stored.status, stored.body, new_id("req_", 14), **{
            "Idempotency-Key": key, "Idempotent-Replayed": "true", "Original-Request": stored.request_id})

    # --- payment intents ------------------------------------------------------------------------------

    def _intent(self, intent_id: str, param: str = "intent") -> dict:
        intent = self._intents.get(intent_id)
        if intent is None:
            raise _no_such("payment_intent", intent_id, param)
        return intent

    def _create_intent(self, params: dict, *, request_id: str, idempotency_key: str | None) -> _Answer:
        _only(params, CREATE_PARAMS)
        amount = _integer(params, "amount", required=True)
        currency = _string(params, "currency")
        if not currency:
            raise _missing("currency")
        currency = currency.lower()
        if not re.fullmatch(r"[a-z]{3}", currency):
            raise StripeError(400, f"Invalid currency: {currency}.", code="parameter_invalid_string",
                              param="currency")
        minimum = MIN_AMOUNT.get(currency, 1)
        if amount < minimum:
            raise StripeError(400, f"Amount must be at least {minimum} {currency} in its smallest unit",
                              code="amount_too_small", param="amount")
        if amount > MAX_AMOUNT:
            raise StripeError(400, f"Amount must be no more than {MAX_AMOUNT} {currency} in its smallest unit",
                              code="amount_too_large", param="amount")
        capture = _string(params, "capture_method") or "automatic"
        if capture not in ("automatic", "automatic_async"):
            raise StripeError(400, "The sandbox captures automatically only.", code="parameter_invalid_string",
                              param="capture_method")
        types, automatic = params.get("payment_method_types"), params.get("automatic_payment_methods")
        if types is not None and automatic is not None:
            raise StripeError(400, "You may only specify one of these parameters: automatic_payment_methods, "
                                   "payment_method_types.", code="parameter_invalid_string")
        if types is not None:
            if not isinstance(types, list) or not types or any(t != "card" for t in types):
                raise StripeError(400, f"The payment method type provided: {types} is invalid. The sandbox "
                                       "offers `card` (wallets such as Google Pay are cards).",
                                  code="payment_method_type_invalid", param="payment_method_types")
            automatic_methods = None
        else:
            automatic = automatic if isinstance(automatic, dict) else {}
            if _boolean(automatic, "enabled") is False:
                raise StripeError(400, "Specify payment_method_types when automatic_payment_methods is disabled.",
                                  code="parameter_missing", param="payment_method_types")
            redirects = automatic.get("allow_redirects", "always")
            if redirects not in ("always", "never"):
                raise StripeError(400, f"Invalid automatic_payment_methods[allow_redirects]: {redirects}",
                                  code="parameter_invalid_string", param="automatic_payment_methods[allow_redirects]")
            automatic_methods, types = {"allow_redirects": redirects, "enabled": True}, ["card"]
        customer_id = _string(params, "customer")
        future_usage = _string(params, "setup_future_usage")
        if future_usage is not None and future_usage not in FUTURE_USAGES:
            raise StripeError(400, f"Invalid setup_future_usage: must be one of {', '.join(FUTURE_USAGES)}",
                              code="parameter_invalid_string", param="setup_future_usage")
        confirm = _boolean(params, "confirm")
        if _off_session(params) is not None and not confirm:
            raise StripeError(400, "You can only pass `off_session` when `confirm` is true.", param="off_session")
        method_id = _string(params, "payment_method")
        with self._lock:  # refused before any intent exists, as Stripe refuses such a request whole
            if customer_id:
                self._customer(customer_id, "customer")
            if method_id and method_id not in TEST_CARDS:
                self._usable(method_id, customer_id)
        if confirm:
            method_id = None  # the confirmation sets it
        metadata = _metadata(params)
        intent_id = new_id("pi_", 24)
        now = int(time.time())
        intent: dict[str, Any] = {
            "id": intent_id, "object": "payment_intent", "amount": amount, "amount_capturable": 0,
            "amount_details": {"tip": {}}, "amount_received": 0, "application": None,
            "application_fee_amount": None, "automatic_payment_methods": automatic_methods, "canceled_at": None,
            "cancellation_reason": None, "capture_method": capture,
            "client_secret": f"{intent_id}_secret_{secrets.token_urlsafe(18).replace('-', 'x').replace('_', 'y')}",
            "confirmation_method": "automatic", "created": now, "currency": currency, "customer": customer_id,
            "description": _string(params, "description", max_length=1000), "last_payment_error": None,
            "latest_charge": None, "livemode": False, "metadata": metadata, "next_action": None,
            "on_behalf_of": None, "payment_method": method_id,
            "payment_method_options": {"card": {"installments": None, "mandate_options": None, "network": None,
                                                "request_three_d_secure": "automatic"}},
            "payment_method_types": types, "processing": None, "receipt_email": _string(params, "receipt_email"),
            "review": None, "setup_future_usage": future_usage, "shipping": None, "source": None,
            "statement_descriptor": None,
            "statement_descriptor_suffix": _string(params, "statement_descriptor_suffix", max_length=22),
            "status": "requires_confirmation" if method_id else "requires_payment_method", "transfer_data": None,
            "transfer_group": None,
            # the sandbox's own: where the payer page stands in for the wallet sheet
            "sandbox_payer_url": self._context.payer_page(self.name, intent_id),
        }
        with self._lock:
            self._intents[intent_id] = intent
            self._context.ledger.add(SandboxPayment(
                intent_id, self.name, metadata.get("order_code", ""), amount, currency.upper(),
                intent["description"] or "", notify_url=self.webhook_url))
        if confirm:
            confirming = {k: params[k] for k in ("payment_method", "return_url", "off_session") if k in params}
            return self._confirm(intent_id, confirming, request_id, idempotency_key)
        return _Answer(200, copy.deepcopy(intent))

    def _retrieve_intent(self, params: dict, intent_id: str) -> _Answer:
        _only(params, frozenset({"client_secret", "expand"}))
        with self._lock:
            return _Answer(200, copy.deepcopy(self._intent(intent_id)))

    _CLAUSE = re.compile(r"""^(?:metadata\[['"]([^'"]+)['"]\]|(\w+)):['"]([^'"]*)['"]$""")

    def _search_intents(self, params: dict) -> _Answer:
        return self._search(params, self._intents, ("status", "currency", "customer"), "/v1/payment_intents/search")

    def _search(self, params: dict, objects: dict[str, dict], fields: tuple[str, ...], url: str) -> _Answer:
        """Stripe's search query language, the part that matters here: `metadata['k']:'v'` and
        `<field>:'v'` clauses joined by AND."""
        _only(params, frozenset({"query", "limit", "page", "expand"}))
        query = _string(params, "query")
        if not query:
            raise _missing("query")
        clauses = []
        for clause in re.split(r"\s+AND\s+", query.strip()):
            match = self._CLAUSE.match(clause.strip())
            if not match or (match.group(2) and match.group(2) not in fields):
                raise StripeError(400, f"Invalid query: the sandbox cannot parse `{clause}`.",
                                  code="parameter_invalid_string", param="query")
            clauses.append(match.groups())
        limit = _integer(params, "limit") or 10
        with self._lock:
            found = [copy.deepcopy(i) for i in objects.values()
                     if all(i["metadata"].get(meta) == value if meta else str(i[field]) == value
                            for meta, field, value in clauses)]
        found.sort(key=lambda i: i["created"], reverse=True)
        return _Answer(200, {"object": "search_result", "data": found[:limit], "has_more": len(found) > limit,
                             "next_page": None, "url": url})

    def _confirm_intent(self, params: dict, intent_id: str, *, request_id: str,
                        idempotency_key: str | None) -> _Answer:
        _only(params, CONFIRM_PARAMS)
        return self._confirm(intent_id, params, request_id, idempotency_key)

    def _confirm(self, intent_id: str, params: dict, request_id: str | None,
                 idempotency_key: str | None = None) -> _Answer:
        """Charges the payment method: the intent succeeds, or the card is declined (402, the intent
        payable again). Raises StripeError, with the webhook events to send on a decline. A method
        charged for an intent with a customer and `setup_future_usage` is saved to that customer."""
        _off_session(params)  # checked; the sandbox asks no payer to authenticate anyway
        with self._lock:
            intent = self._intent(intent_id)
            if intent["status"] not in PAYABLE:
                raise StripeError(
                    400, f"You cannot confirm this PaymentIntent because it has a status of {intent['status']}. "
                         "Only a PaymentIntent with one of the following statuses may be confirmed: "
                         f"{', '.join(PAYABLE)}.", code="payment_intent_unexpected_state",
                    payment_intent=copy.deepcopy(intent))
            method_id = _string(params, "payment_method") or intent["payment_method"]
            if not method_id:
                raise StripeError(
                    400, "You cannot confirm this PaymentIntent because it's missing a payment method. Update the "
                         "PaymentIntent with a payment method and then confirm it again.",
                    code="payment_intent_unexpected_state", payment_intent=copy.deepcopy(intent))
            if method_id not in TEST_CARDS:
                self._method(method_id, "payment_method")
            automatic = intent["automatic_payment_methods"]
            if automatic and automatic["allow_redirects"] != "never" and not params.get("return_url"):
                raise StripeError(
                    400, "This PaymentIntent is configured to accept payment methods enabled in your Dashboard. "
                         "Because some of these payment methods might redirect your customer off of your page, "
                         "you must provide a `return_url`. If you don't want to accept redirect-based payment "
                         "methods, set `automatic_payment_methods[enabled]` to `true` and "
                         "`automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and "
                         "Payment Intents.", param="return_url")
            method, card = self._charged_method(intent, method_id)
            charge_id = new_id("ch_", 24)
            if card.code is None and intent["setup_future_usage"] and intent["customer"]:
                method["customer"] = intent["customer"]  # saved for later charges
            elif method["customer"] is None:
                self._spent.add(method["id"])  # used once without a customer: never again
            if card.code is None:
                intent.update(status="succeeded", amount_received=intent["amount"], latest_charge=charge_id,
                              payment_method=method["id"], last_payment_error=None)
                self._context.ledger.transition(intent_id, Status.PENDING, status=Status.PAID)
                event = self._event("payment_intent.succeeded", intent, request_id, idempotency_key)
                return _Answer(200, copy.deepcopy(intent), (event,))
            method = copy.deepcopy(method)
            failure = {"charge": charge_id, "code": card.code, "message": card.message, "payment_method": method,
                       "type": "card_error", "doc_url": f"https://stripe.com/docs/error-codes/"
                                                        f"{card.code.replace('_', '-')}",
                       **({"decline_code": card.decline_code} if card.decline_code else {})}
            intent.update(status="requires_payment_method", latest_charge=charge_id, payment_method=None,
                          last_payment_error=failure)
            event = self._event("payment_intent.payment_failed", intent, request_id, idempotency_key)
            error = StripeError(402, card.message, type="card_error", code=card.code, charge=charge_id,
                                payment_intent=copy.deepcopy(intent), payment_method=method,
                                **({"decline_code": card.decline_code} if card.decline_code else {}))
        error.events = (event,)
        raise error

    def _charged_method(self, intent: dict, method_id: str) -> tuple[dict, SandboxCard]:
        """What a confirmation charges: a test method makes a PaymentMethod of its own, as on
        Stripe; a saved one must still be usable, and the intent's customer's."""
        test_card = TEST_CARDS.get(method_id)
        if test_card is not None:
            method = _payment_method(new_id("pm_", 24), test_card)
            self._methods[method["id"]], self._cards[method["id"]] = method, test_card
            return method, test_card
        return self._usable(method_id, intent["customer"]), self._cards[method_id]

    def _usable(self, method_id: str, customer_id: str | None) -> dict:
        """The saved PaymentMethod, if it can be charged for this customer."""
        method = self._method(method_id, "payment_method")
        if method_id in self._spent:
            raise StripeError(400, SPENT_METHOD, param="payment_method")
        if method["customer"] != customer_id:
            raise StripeError(400, f"The customer does not have a payment method with the ID {method_id}. The "
                                   "payment method must be attached to the customer.", param="payment_method")
        return method

    def _cancel_intent(self, params: dict, intent_id: str, *, request_id: str, idempotency_key: str | None) -> _Answer:
        _only(params, CANCEL_PARAMS)
        reason = _string(params, "cancellation_reason")
        if reason is not None and reason not in CANCELLATION_REASONS:
            raise StripeError(400, f"Invalid cancellation_reason: must be one of {', '.join(CANCELLATION_REASONS)}",
                              code="parameter_invalid_string", param="cancellation_reason")
        with self._lock:
            intent = self._intent(intent_id)
            if intent["status"] not in CANCELABLE:
                raise StripeError(
                    400, f"You cannot cancel this PaymentIntent because it has a status of {intent['status']}. "
                         "Only a PaymentIntent with one of the following statuses may be canceled: "
                         f"{', '.join(CANCELABLE)}.", code="payment_intent_unexpected_state",
                    payment_intent=copy.deepcopy(intent))
            intent.update(status="canceled", canceled_at=int(time.time()), cancellation_reason=reason)
            self._context.ledger.transition(intent_id, Status.PENDING, status=Status.CLOSED)
            event = self._event("payment_intent.canceled", intent, request_id, idempotency_key)
            return _Answer(200, copy.deepcopy(intent), (event,))  # not among ENABLED_EVENTS: not sent

    # --- customers and their saved payment methods -----------------------------------------------------

    def _customer(self, customer_id: str, param: str) -> dict:
        customer = self._customers.get(customer_id)
        if customer is None:
            raise _no_such("customer", customer_id, param)
        return customer

    def _method(self, method_id: str, param: str) -> dict:
        method = self._methods.get(method_id)
        if method is None:
            raise _no_such("PaymentMethod", method_id, param)
        return method

    def _create_customer(self, params: dict, *, request_id: str, idempotency_key: str | None) -> _Answer:
        _only(params, CUSTOMER_PARAMS)
        customer_id = new_id("cus_", 14)
        customer: dict[str, Any] = {
            "id": customer_id, "object": "customer", "address": None, "balance": 0, "created": int(time.time()),
            "currency": None, "default_source": None, "delinquent": False,
            "description": _string(params, "description", max_length=350), "discount": None,
            "email": _string(params, "email", max_length=512), "invoice_prefix": secrets.token_hex(4).upper(),
            "invoice_settings": {"custom_fields": None, "default_payment_method": None, "footer": None,
                                 "rendering_options": None},
            "livemode": False, "metadata": _metadata(params), "name": _string(params, "name", max_length=256),
            "next_invoice_sequence": 1, "phone": _string(params, "phone", max_length=20), "preferred_locales": [],
            "shipping": None, "tax_exempt": "none", "test_clock": None}
        with self._lock:
            self._customers[customer_id] = customer
        return _Answer(200, copy.deepcopy(customer))

    def _retrieve_customer(self, params: dict, customer_id: str) -> _Answer:
        _only(params, frozenset({"expand"}))
        with self._lock:
            return _Answer(200, copy.deepcopy(self._customer(customer_id, "id")))

    def _search_customers(self, params: dict) -> _Answer:
        return self._search(params, self._customers, ("email", "name", "phone"), "/v1/customers/search")

    def _retrieve_payment_method(self, params: dict, method_id: str) -> _Answer:
        _only(params, frozenset({"expand"}))
        with self._lock:
            return _Answer(200, copy.deepcopy(self._method(method_id, "payment_method")))

    def _detach_payment_method(self, params: dict, method_id: str, *, request_id: str,
                               idempotency_key: str | None) -> _Answer:
        """Ends the saved method for good: it can be neither charged nor attached again."""
        _only(params, frozenset({"expand"}))
        with self._lock:
            method = self._method(method_id, "payment_method")
            if method["customer"] is None:
                raise StripeError(400, "The payment method you provided is not attached to a customer so detachment "
                                       "is impossible.", param="payment_method")
            method["customer"] = None
            self._spent.add(method_id)
            return _Answer(200, copy.deepcopy(method))

    # --- refunds ----------------------------------------------------------------------------------------

    def _create_refund(self, params: dict, *, request_id: str, idempotency_key: str | None) -> _Answer:
        _only(params, REFUND_PARAMS)
        intent_id, charge_id = _string(params, "payment_intent"), _string(params, "charge")
        if not intent_id and not charge_id:
            raise StripeError(400, "One of the following params should be provided for this request: "
                                   "payment_intent or charge.", code="parameter_missing")
        amount = _integer(params, "amount", positive=True)
        reason = _string(params, "reason")
        if reason is not None and reason not in REFUND_REASONS:
            raise StripeError(400, f"Invalid reason: must be one of {', '.join(REFUND_REASONS)}",
                              code="parameter_invalid_string", param="reason")
        metadata = _metadata(params)
        with self._lock:
            if intent_id:
                intent = self._intent(intent_id, "payment_intent")
            else:
                charged = next((i for i in self._intents.values() if i["latest_charge"] == charge_id), None)
                if charged is None:
                    raise _no_such("charge", charge_id or "", "charge")
                intent = charged
            if intent["status"] != "succeeded" or (charge_id and charge_id != intent["latest_charge"]):
                raise StripeError(400, f"This PaymentIntent ({intent['id']}) does not have a successful charge to "
                                       "refund.", code="charge_not_refundable", param="payment_intent")
            payment = self._context.ledger.existing(intent["id"])
            remaining = intent["amount_received"] - payment.refunded_cents
            if remaining <= 0:
                raise StripeError(400, f"Charge {intent['latest_charge']} has already been refunded.",
                                  code="charge_already_refunded")
            amount = remaining if amount is None else amount
            if amount > remaining:
                raise StripeError(400, f"Refund amount ({amount}) is greater than unrefunded amount on charge "
                                       f"({remaining})", code="amount_too_large", param="amount")
            refund = {"id": new_id("re_", 24), "object": "refund", "amount": amount,
                      "balance_transaction": new_id("txn_", 24), "charge": intent["latest_charge"],
                      "created": int(time.time()), "currency": intent["currency"],
                      "destination_details": {"card": {"reference_status": "pending", "reference_type":
                                                       "acquirer_reference_number", "type": "refund"}, "type": "card"},
                      "metadata": metadata, "payment_intent": intent["id"], "reason": reason,
                      # pending: the card network pays it back later (finish_refund, then refund.updated)
                      "receipt_number": None, "source_transfer_reversal": None, "status": "pending",
                      "transfer_reversal": None}
            self._refunds[refund["id"]] = refund
            refunded = payment.refunded_cents + amount
            self._context.ledger.update(
                intent["id"], refunded_cents=refunded, refunds=(*payment.refunds, metadata.get("refund_code",
                                                                                                refund["id"])),
                status=Status.REFUNDED if refunded >= intent["amount_received"] else payment.status)
            self._context.refund_accepted("stripe", refund["id"])
            return _Answer(200, copy.deepcopy(refund))

    def finish_refund(self, refund_no: str, succeeded: bool, notify: bool = True) -> Delivery | None:
        """The card network pays a pending refund back (succeeded) or cannot (failed: the amount is
        refundable again), by the refund's id or the merchant's refund_code in its metadata; then
        Stripe's `refund.updated` webhook, signed as the payment webhooks are."""
        with self._lock:
            refund = next((r for r in self._refunds.values()
                           if refund_no in (r["id"], (r.get("metadata") or {}).get("refund_code"))), None)
            if refund is None:
                raise KeyError(refund_no)
            if refund["status"] != "pending":
                return None
            refund.update(status="succeeded" if succeeded else "failed",
                          failure_reason=None if succeeded else "expired_or_canceled_card")
            if not succeeded:
                payment = self._context.ledger.existing(refund["payment_intent"])
                self._context.ledger.update(payment.id, refunded_cents=payment.refunded_cents - refund["amount"],
                                            status=Status.PAID)
            event = self._event("refund.updated", refund)
        return self._send(event) if notify else None

    def signed_refund_event(self, refund_no: str, event_type: str = "refund.updated", *,
                            overrides: dict | None = None, secret: str | None = None) -> tuple[dict[str, str], bytes]:
        """The webhook Stripe would send about this refund now (headers, body), for tests."""
        with self._lock:
            refund = next(r for r in self._refunds.values()
                          if refund_no in (r["id"], (r.get("metadata") or {}).get("refund_code")))
            event = self._event(event_type, {**refund, **(overrides or {})})
        return self._webhook(event, secret=secret)

    def _list_refunds(self, params: dict) -> _Answer:
        _only(params, frozenset({"payment_intent", "charge", "limit", "starting_after", "ending_before",
                                 "created", "expand"}))
        intent_id, charge_id = params.get("payment_intent"), params.get("charge")
        limit = _integer(params, "limit") or 10
        with self._lock:
            found = [copy.deepcopy(r) for r in self._refunds.values()
                     if (not intent_id or r["payment_intent"] == intent_id)
                     and (not charge_id or r["charge"] == charge_id)]
        found.sort(key=lambda r: r["created"], reverse=True)
        return _Answer(200, {"object": "list", "data": found[:limit], "has_more": len(found) > limit,
                             "url": "/v1/refunds"})

    def _retrieve_refund(self, params: dict, refund_id: str) -> _Answer:
        with self._lock:
            refund = self._refunds.get(refund_id)
            if refund is None:
                raise _no_such("refund", refund_id, "id")
            return _Answer(200, copy.deepcopy(refund))


def _payment_method(method_id: str, card: SandboxCard) -> dict:
    return {"id": method_id, "object": "payment_method", "allow_redisplay": "unspecified",
            "billing_details": {"address": None, "email": None, "name": None, "phone": None},
            "card": {"brand": card.brand, "country": "US", "exp_month": 12, "exp_year": 2034,
                     "funding": card.funding, "last4": card.last4, "wallet": None},
            "created": int(time.time()), "customer": None, "livemode": False, "metadata": {}, "type": "card"}


def _api_key() -> str | None:
    """The key of Bearer authentication, or Basic's user name (curl -u sk_test_...:)."""
    scheme, _, credentials = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    if scheme.lower() == "basic" and credentials.strip():
        try:
            return base64.b64decode(credentials.strip(), validate=True).decode().partition(":")[0] or None
        except (ValueError, UnicodeDecodeError):
            return None
    return None


def _masked(key: str) -> str:
    prefix = key[:8] if key.startswith(("sk_", "rk_", "pk_")) else ""
    return f"{prefix}{'*' * max(len(key) - len(prefix) - 4, 0)}{key[-4:]}"


def _dump(body: dict) -> bytes:
    return json.dumps(body, indent=2).encode()
