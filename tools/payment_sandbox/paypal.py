"""PayPal in the sandbox: the REST API the merchant's SDK calls (OAuth 2 client credentials,
Orders v2, Payments v2 captures and refunds), shaped like PayPal's answers, plus the payer's
approval on the sandbox's payer page.

PayPal's checkout has no notification here: the payer approves the order on PayPal's page and is
sent back to the merchant's return URL with `?token=<order id>&PayerID=...`; the merchant then
captures the order, and the capture's answer is the proof of payment. So Pay on the payer page
only approves the order (the ledger payment stays pending until the merchant captures it) and Fail
voids it.

What it checks, as PayPal does: the client id and secret (HTTP Basic) on the token call, a live
bearer token on every other call, orders visible to the client that created them only, the
amount's format (a decimal string with at most two decimals), capture only after approval and only
once (ORDER_NOT_APPROVED, ORDER_ALREADY_CAPTURED), one completed capture per invoice id
(DUPLICATE_INVOICE_ID), refunds never beyond what was captured, and `PayPal-Request-Id`: a request
repeated with the same id gets the first answer again and changes nothing.

Bearer tokens are signed (HMAC with the client secret) rather than remembered, so a restarted
sandbox keeps accepting the tokens it issued, as PayPal would until they expire.

Vault with purchase (PayPal's "Save PayPal with the Orders API", and the v3 payment tokens):
- An order whose `payment_source.paypal.attributes.vault` asks `store_in_vault: ON_SUCCESS` (with a
  `usage_type`, MERCHANT or PLATFORM) vaults the payer's PayPal when it is captured: the capture's
  answer, and the order's from then on, carry `payment_source.paypal.attributes.vault` (its id,
  status VAULTED, the customer's id, links).
- An order paying with `payment_source.paypal.vault_id` is completed at once, without the payer:
  201 with status COMPLETED and its capture. A token unknown, another client's or deleted is 404
  RESOURCE_NOT_FOUND (INVALID_RESOURCE_ID at /payment_source/paypal/vault_id); an invoice id
  captured already is DUPLICATE_INVOICE_ID, as for any capture.
- `GET` and `DELETE /v3/vault/payment-tokens/{id}` (204): a deleted token is gone (404).
- The test switch, the sandbox's own: `payment_token(id).declines = True` refuses the token's
  charges with 422 UNPROCESSABLE_ENTITY, INSTRUMENT_DECLINED. Each charge the sandbox saw under a
  token is in its `charges`: (invoice id, the capture's id or the refusal's issue)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import secrets
import string
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from flask import Blueprint, Response, request

from payment_sandbox.ledger import SandboxPayment, Status
from payment_sandbox.provider import Delivery, SandboxConfig, SandboxContext, json_body

TOKEN_LIFETIME_S = 32400  # PayPal's: nine hours
_ALPHANUMERIC = string.ascii_uppercase + string.digits
_VALUE = re.compile(r"^[0-9]{1,15}(\.[0-9]{1,2})?$")  # what this sandbox takes: at most two decimals
_CURRENCY = re.compile(r"^[A-Z]{3}$")

# PayPal's order statuses (the ledger's own status stays PENDING until the capture)
CREATED, PAYER_ACTION_REQUIRED, APPROVED, COMPLETED, VOIDED = (
    "CREATED", "PAYER_ACTION_REQUIRED", "APPROVED", "COMPLETED", "VOIDED")


def paypal_id(size: int = 17) -> str:
    """An id the way PayPal's look: 17 upper-case letters and digits (order, capture, refund)."""
    return "".join(secrets.choice(_ALPHANUMERIC) for _ in range(size))


def vault_id() -> str:
    """A payment token's id, the way PayPal's look (lower-case letters and digits)."""
    return "".join(secrets.choice(string.ascii_lowercase + string.digits) for _ in range(8))


@dataclass
class VaultToken:
    """A payment token in the sandbox's vault: what PayPal keeps, and what tests look at or switch."""

    id: str
    customer_id: str
    client_id: str
    payer_id: str
    order_id: str  # the order whose capture vaulted it
    usage_type: str
    customer_type: str
    usage_pattern: str | None = None
    declines: bool = False  # the test switch: its charges are refused INSTRUMENT_DECLINED
    deleted: bool = False
    charges: list[tuple[str, str]] = field(default_factory=list)  # (invoice id, capture id or refusal issue)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _value(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _with_query(url: str, **params: str) -> str:
    parts = urlsplit(url)
    query = urlencode([*parse_qsl(parts.query, keep_blank_values=True), *params.items()])
    return urlunsplit(parts._replace(query=query))


class _Refusal(Exception):
    """An error answer, shaped like PayPal's."""

    def __init__(self, status: int, body: dict) -> None:
        super().__init__(body.get("name") or body.get("error"))
        self.status, self.body = status, body


def _error(status: int, name: str, message: str, issue: str | None = None, description: str | None = None,
           field: str | None = None) -> _Refusal:
    body: dict = {"name": name, "message": message, "debug_id": secrets.token_hex(7)}
    if issue:
        detail = {"issue": issue, "description": description or issue}
        if field:
            detail = {"field": field, "location": "body", **detail}
        body["details"] = [detail]
        body["links"] = [{"href": f"https://developer.paypal.com/docs/api/orders/v2/#error-{issue}",
                          "rel": "information_link", "method": "GET"}]
    return _Refusal(status, body)


def _invalid(issue: str, description: str, field: str) -> _Refusal:
    return _error(400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.",
                  issue, description, field)


def _unprocessable(issue: str, description: str) -> _Refusal:
    return _error(422, "UNPROCESSABLE_ENTITY", "The requested action could not be performed, semantically "
                  "incorrect, or failed business validation.", issue, description)


def _not_found() -> _Refusal:
    return _error(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", "INVALID_RESOURCE_ID",
                  "Specified resource ID does not exist. Please check the resource ID and try again.")


AUTHENTICATION_FAILURE = _Refusal(401, {
    "name": "AUTHENTICATION_FAILURE",
    "message": "Authentication failed due to invalid authentication credentials or a missing Authorization header.",
    "links": [{"href": "https://developer.paypal.com/docs/api/overview/#error", "rel": "information_link"}]})


def _answer(status: int, body: dict | None) -> Response:
    headers = {"Paypal-Debug-Id": secrets.token_hex(7)}
    if body is None:  # 204 No Content
        return Response(status=status, headers=headers)
    return Response(json_body(body), status=status, mimetype="application/json", headers=headers)


def _payer(payer_id: str) -> dict:
    """The sandbox's one payer, as PayPal shows a payer."""
    return {"name": {"given_name": "Sandbox", "surname": "Payer"}, "email_address": "payer@example.com",
            "payer_id": payer_id, "address": {"country_code": "US"}}


class PayPalSandbox:
    name = "paypal"

    def __init__(self, context: SandboxContext, config: SandboxConfig) -> None:
        self.context = context
        self._client_id = config.credentials.paypal_client_id
        self._client_secret = config.credentials.paypal_client_secret
        self._api_url = f"{config.public_url.rstrip('/')}/{self.name}"
        self._lock = threading.RLock()  # captures and refunds read, check and write several things
        self._replays: dict[tuple[str, str, str], tuple[int, dict]] = {}  # PayPal-Request-Id answers
        self._captures: dict[str, str] = {}  # capture id -> order id
        self._refunds: dict[str, tuple[str, dict]] = {}  # refund id -> (order id, refund)
        self._tokens: dict[str, VaultToken] = {}  # the vault, deleted tokens kept for tests

    def payment_token(self, token_id: str) -> VaultToken:
        """A token of the vault (KeyError if it never was), to look at or set `declines` on."""
        return self._tokens[token_id]

    # --- the payer page ------------------------------------------------------------------------

    def complete(self, payment: SandboxPayment, paid: bool, notify: bool = True) -> Delivery | None:
        """Pay approves the order (the merchant captures it when the payer is back); Fail voids it.
        PayPal notifies nothing on this path: the return to the merchant is the signal."""
        with self._lock:
            current = self.context.ledger.get(payment.id)
            if current is None or current.extra.get("status") not in (CREATED, PAYER_ACTION_REQUIRED):
                return None
            if paid:
                extra = {**current.extra, "status": APPROVED, "payer_id": paypal_id(13), "update_time": _now()}
                self.context.ledger.transition(payment.id, Status.PENDING, extra=extra)
            else:
                extra = {**current.extra, "status": VOIDED, "update_time": _now()}
                self.context.ledger.transition(payment.id, Status.PENDING, status=Status.FAILED, extra=extra)
        return None

    def after_payment_url(self, payment: SandboxPayment, paid: bool) -> str | None:
        if paid and payment.return_url and payment.extra.get("status") == APPROVED:
            return _with_query(payment.return_url, token=payment.id, PayerID=payment.extra["payer_id"])
        if not paid and payment.cancel_url:
            return _with_query(payment.cancel_url, token=payment.id)
        return None

    # --- the API ------------------------------------------------------------------------------

    def blueprint(self) -> Blueprint:
        bp = Blueprint("paypal_sandbox", __name__)

        def api(handler, *, idempotent: str | None = None):
            """Runs `handler` for an authenticated client, answering refusals like PayPal and
            replaying the first answer to a repeated PayPal-Request-Id."""

            def view(**kwargs):
                try:
                    client_id = self._bearer_client()
                    request_id = request.headers.get("PayPal-Request-Id") if idempotent else None
                    if not request_id:
                        return _answer(*handler(client_id, **kwargs))
                    key = (client_id, f"{idempotent}:{json.dumps(kwargs, sort_keys=True)}", request_id)
                    with self._lock:
                        if key in self._replays:
                            _, body = self._replays[key]
                            return _answer(200, body)  # PayPal: 200 OK to an idempotent repeat
                        status, body = handler(client_id, **kwargs)
                        self._replays[key] = (status, body)  # only successes: refusals raise
                        return _answer(status, body)
                except _Refusal as refusal:
                    return _answer(refusal.status, refusal.body)

            view.__name__ = handler.__name__
            return view

        bp.add_url_rule("/v1/oauth2/token", "token", self._token, methods=["POST"])
        bp.add_url_rule("/v2/checkout/orders", "create_order",
                        api(self._create_order, idempotent="create-order"), methods=["POST"])
        bp.add_url_rule("/v2/checkout/orders/<order_id>", "get_order", api(self._get_order), methods=["GET"])
        bp.add_url_rule("/v2/checkout/orders/<order_id>/capture", "capture_order",
                        api(self._capture_order, idempotent="capture"), methods=["POST"])
        bp.add_url_rule("/v2/payments/captures/<capture_id>", "get_capture", api(self._get_capture),
                        methods=["GET"])
        bp.add_url_rule("/v2/payments/captures/<capture_id>/refund", "refund_capture",
                        api(self._refund_capture, idempotent="refund"), methods=["POST"])
        bp.add_url_rule("/v2/payments/refunds/<refund_id>", "get_refund", api(self._get_refund), methods=["GET"])
        bp.add_url_rule("/v3/vault/payment-tokens/<token_id>", "get_payment_token", api(self._get_payment_token),
                        methods=["GET"])
        bp.add_url_rule("/v3/vault/payment-tokens/<token_id>", "delete_payment_token",
                        api(self._delete_payment_token), methods=["DELETE"])
        return bp

    # --- OAuth 2 ------------------------------------------------------------------------------

    def _token(self):
        if not self._basic_auth_ok():
            return _answer(401, {"error": "invalid_client", "error_description": "Client Authentication failed"})
        if request.form.get("grant_type") != "client_credentials":
            return _answer(400, {"error": "unsupported_grant_type",
                                 "error_description": "Grant Type is NULL or not supported"})
        return _answer(200, {
            "scope": "https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/payments/refund "
                     "https://uri.paypal.com/services/vault/payment-tokens/readwrite",
            "access_token": self.issue_token(), "token_type": "Bearer", "app_id": "APP-80W284485P519543T",
            "expires_in": TOKEN_LIFETIME_S, "nonce": f"{_now()}{secrets.token_urlsafe(16)}"})

    def _basic_auth_ok(self) -> bool:
        scheme, _, encoded = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "basic":
            return False
        try:
            client_id, _, secret = base64.b64decode(encoded, validate=True).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError):
            return False
        return (hmac.compare_digest(client_id.encode(), self._client_id.encode())
                and hmac.compare_digest(secret.encode(), self._client_secret.encode()))

    def _token_signature(self, payload: str) -> str:
        key = self._client_secret.encode()
        return hmac.new(key, f"{self._client_id}:{payload}".encode(), hashlib.sha256).hexdigest()

    def issue_token(self, lifetime_s: int = TOKEN_LIFETIME_S) -> str:
        payload = f"{int(time.time()) + lifetime_s}.{secrets.token_hex(8)}"
        return f"A21AA{payload}.{self._token_signature(payload)}"

    def _bearer_client(self) -> str:
        """The client whose live bearer token authorises this request."""
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.startswith("A21AA"):
            raise AUTHENTICATION_FAILURE
        payload, _, signature = token[5:].rpartition(".")
        expires = payload.partition(".")[0]
        if not (hmac.compare_digest(signature.encode(), self._token_signature(payload).encode())
                and expires.isdigit() and int(expires) > time.time()):
            raise AUTHENTICATION_FAILURE
        return self._client_id

    # --- orders ---------------------------------------------------------------------------------

    def _create_order(self, client_id: str):
        body = self._json()
        if body.get("intent") is None:
            raise _invalid("MISSING_REQUIRED_PARAMETER", "A required field / parameter is missing.", "/intent")
        if body["intent"] != "CAPTURE":  # AUTHORIZE exists at PayPal; the console never uses it
            raise _invalid("INVALID_PARAMETER_VALUE", "This sandbox supports intent CAPTURE only.", "/intent")
        units = body.get("purchase_units")
        if not isinstance(units, list) or not units:
            raise _invalid("MISSING_REQUIRED_PARAMETER", "A required field / parameter is missing.",
                           "/purchase_units")
        if len(units) != 1:
            raise _invalid("INVALID_ARRAY_MAX_ITEMS", "This sandbox takes one purchase unit.", "/purchase_units")
        unit = units[0] if isinstance(units[0], dict) else {}
        currency, cents = self._money(unit.get("amount"), "/purchase_units/@reference_id=='default'/amount")
        if cents <= 0:
            raise _unprocessable("CANNOT_BE_ZERO_OR_NEGATIVE", "Must be greater than zero.")
        wallet = (body.get("payment_source") or {}).get("paypal")
        if wallet is not None and not isinstance(wallet, dict):
            raise _invalid("INVALID_PARAMETER_SYNTAX", "The value of a field does not conform to the expected "
                           "format.", "/payment_source/paypal")
        if wallet and wallet.get("vault_id") is not None:
            return self._charge_token(client_id, str(wallet["vault_id"]), unit, currency, cents)
        vault = self._vault_instruction(wallet or {})
        context = (wallet or {}).get("experience_context") or body.get("application_context") or {}
        order_id = paypal_id()
        created = _now()
        self.context.ledger.add(SandboxPayment(
            id=order_id, provider=self.name, order_code=str(unit.get("invoice_id") or unit.get("custom_id") or ""),
            amount_cents=cents, currency=currency, description=str(unit.get("description") or ""),
            return_url=context.get("return_url"), cancel_url=context.get("cancel_url"),
            extra={"client_id": client_id, "status": PAYER_ACTION_REQUIRED if wallet is not None else CREATED,
                   "invoice_id": unit.get("invoice_id"), "custom_id": unit.get("custom_id"),
                   "reference_id": unit.get("reference_id") or "default", "create_time": created,
                   "update_time": created, **({"vault": vault} if vault else {})}))
        return 201, self._order_json(self.context.ledger.existing(order_id))

    def _get_order(self, client_id: str, order_id: str):
        return 200, self._order_json(self._order(client_id, order_id))

    def _capture_order(self, client_id: str, order_id: str):
        with self._lock:
            payment = self._order(client_id, order_id)
            status = payment.extra["status"]
            if status == COMPLETED:
                raise _unprocessable("ORDER_ALREADY_CAPTURED", "Order already captured. If 'intent=CAPTURE' only "
                                     "one capture per order is allowed.")
            if status == VOIDED:
                raise _unprocessable("ORDER_COMPLETED_OR_VOIDED", "Order is voided or completed and hence cannot "
                                     "be processed.")
            if status != APPROVED:
                raise _unprocessable("ORDER_NOT_APPROVED", "Payer has not yet approved the Order for payment. "
                                     "Please redirect the payer to the 'rel':'approve' url returned as part of the "
                                     "HATEOAS links within the Create Order call or provide a valid payment_source "
                                     "in the request.")
            self._check_invoice(payment.extra.get("invoice_id"))
            now = _now()
            capture_id = paypal_id()
            capture = {"id": capture_id, "status": COMPLETED, "amount_cents": payment.amount_cents,
                       "create_time": now, "update_time": now, "refunds": []}
            captured = self.context.ledger.transition(
                order_id, Status.PENDING, status=Status.PAID,
                extra={**payment.extra, "status": COMPLETED, "capture": capture, "update_time": now})
            if captured is None:  # closed meanwhile (the payer page's Fail)
                raise _unprocessable("ORDER_COMPLETED_OR_VOIDED", "Order is voided or completed and hence cannot "
                                     "be processed.")
            self._captures[capture_id] = order_id
            if "vault" in captured.extra:  # paid: the payer's PayPal is vaulted, as the order asked
                token = self._vault(client_id, captured)
                captured = self.context.ledger.update(order_id, extra={**captured.extra, "vault_token": token.id})
        return 201, self._order_json(captured)

    def _invoice_of(self, order_id: str) -> str | None:
        payment = self.context.ledger.get(order_id)
        return payment.extra.get("invoice_id") if payment else None

    def _check_invoice(self, invoice_id: str | None) -> None:
        if invoice_id and any(self._invoice_of(other) == invoice_id for other in self._captures.values()):
            raise _unprocessable("DUPLICATE_INVOICE_ID", "Duplicate Invoice ID detected. To avoid a potential "
                                 "duplicate transaction your account setting requires that Invoice Id be unique "
                                 "for each transaction.")

    # --- the vault ------------------------------------------------------------------------------

    @staticmethod
    def _vault_instruction(wallet: dict) -> dict | None:
        """What an order's `attributes.vault` asks for, checked; None when it asks for nothing."""
        vault = (wallet.get("attributes") or {}).get("vault")
        if vault is None:
            return None
        path = "/payment_source/paypal/attributes/vault"
        if not isinstance(vault, dict):
            raise _invalid("INVALID_PARAMETER_SYNTAX", "The value of a field does not conform to the expected "
                           "format.", path)
        for name, allowed in (("store_in_vault", ("ON_SUCCESS",)), ("usage_type", ("MERCHANT", "PLATFORM"))):
            if vault.get(name) is None:
                raise _invalid("MISSING_REQUIRED_PARAMETER", "A required field / parameter is missing.",
                               f"{path}/{name}")
            if vault[name] not in allowed:
                raise _invalid("INVALID_PARAMETER_VALUE", "The value of a field is invalid.", f"{path}/{name}")
        if vault.get("customer_type", "CONSUMER") not in ("CONSUMER", "BUSINESS"):
            raise _invalid("INVALID_PARAMETER_VALUE", "The value of a field is invalid.", f"{path}/customer_type")
        return {"usage_type": vault["usage_type"], "customer_type": vault.get("customer_type", "CONSUMER"),
                "usage_pattern": vault.get("usage_pattern")}

    def _vault(self, client_id: str, order: SandboxPayment) -> VaultToken:
        asked = order.extra["vault"]
        token = VaultToken(vault_id(), "".join(secrets.choice(string.ascii_letters) for _ in range(10)), client_id,
                           order.extra["payer_id"], order.id, asked["usage_type"], asked["customer_type"],
                           asked["usage_pattern"])
        self._tokens[token.id] = token
        return token

    def _live_token(self, client_id: str, token_id: str, field: str | None = None) -> VaultToken:
        token = self._tokens.get(token_id)
        if token is None or token.deleted or token.client_id != client_id:
            raise _error(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", "INVALID_RESOURCE_ID",
                         "Specified resource ID does not exist. Please check the resource ID and try again.", field)
        return token

    def _charge_token(self, client_id: str, token_id: str, unit: dict, currency: str, cents: int):
        """An order paid with a vaulted token: captured at once, without the payer."""
        invoice_id = unit.get("invoice_id")
        with self._lock:
            known = self._tokens.get(token_id)
            try:
                token = self._live_token(client_id, token_id, "/payment_source/paypal/vault_id")
                self._check_invoice(invoice_id)
                if token.declines:
                    raise _unprocessable("INSTRUMENT_DECLINED", "The instrument presented was either declined by "
                                         "the processor or bank, or it can't be used for this payment.")
            except _Refusal as refusal:
                if known is not None:
                    known.charges.append((str(invoice_id), refusal.body["details"][0]["issue"]))
                raise
            now, order_id, capture_id = _now(), paypal_id(), paypal_id()
            capture = {"id": capture_id, "status": COMPLETED, "amount_cents": cents, "create_time": now,
                       "update_time": now, "refunds": []}
            self.context.ledger.add(SandboxPayment(
                id=order_id, provider=self.name, order_code=str(invoice_id or unit.get("custom_id") or ""),
                amount_cents=cents, currency=currency, description=str(unit.get("description") or ""),
                status=Status.PAID,
                extra={"client_id": client_id, "status": COMPLETED, "invoice_id": invoice_id,
                       "custom_id": unit.get("custom_id"), "reference_id": unit.get("reference_id") or "default",
                       "create_time": now, "update_time": now, "payer_id": token.payer_id, "vault_id": token.id,
                       "capture": capture}))
            self._captures[capture_id] = order_id
            token.charges.append((str(invoice_id), capture_id))
        return 201, self._order_json(self.context.ledger.existing(order_id))

    def _get_payment_token(self, client_id: str, token_id: str):
        return 200, self._token_json(self._live_token(client_id, token_id))

    def _delete_payment_token(self, client_id: str, token_id: str):
        with self._lock:
            self._live_token(client_id, token_id).deleted = True
        return 204, None

    # --- captures and refunds -----------------------------------------------------------------

    def _get_capture(self, client_id: str, capture_id: str):
        payment = self._captured(client_id, capture_id)
        return 200, self._capture_json(payment)

    def _refund_capture(self, client_id: str, capture_id: str):
        body = self._json()
        with self._lock:
            payment = self._captured(client_id, capture_id)
            capture = payment.extra["capture"]
            remaining = payment.amount_cents - payment.refunded_cents
            if remaining <= 0:
                raise _unprocessable("CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded.")
            cents = remaining
            if body.get("amount") is not None:
                currency, cents = self._money(body["amount"], "/amount")
                if currency != payment.currency:
                    raise _unprocessable("REFUND_CURRENCY_MISMATCH", "Refund must be in the same currency as "
                                         "the capture.")
                if cents <= 0:
                    raise _unprocessable("CANNOT_BE_ZERO_OR_NEGATIVE", "Must be greater than zero.")
                if cents > remaining:
                    raise _unprocessable("REFUND_AMOUNT_EXCEEDED", "The refund amount must be less than or equal "
                                         "to the capture amount that has not yet been refunded.")
            now = _now()
            refund_id = paypal_id()
            # PENDING: accepted; PayPal pays it back later (finish_refund), read back with GET.
            refund = {"id": refund_id, "status": "PENDING", "amount_cents": cents,
                      "invoice_id": body.get("invoice_id") or payment.extra.get("invoice_id"),
                      "custom_id": body.get("custom_id"), "note_to_payer": body.get("note_to_payer"),
                      "create_time": now, "update_time": now}
            refunded = payment.refunded_cents + cents
            full = refunded >= payment.amount_cents
            capture = {**capture, "status": "REFUNDED" if full else "PARTIALLY_REFUNDED", "update_time": now,
                       "refunds": [*capture["refunds"], refund["id"]]}
            self.context.ledger.update(
                payment.id, refunded_cents=refunded, status=Status.REFUNDED if full else payment.status,
                refunds=(*payment.refunds, request.headers.get("PayPal-Request-Id") or refund_id),
                extra={**payment.extra, "capture": capture, "update_time": now})
            self._refunds[refund_id] = (payment.id, refund)
        self.context.refund_accepted("paypal", refund_id)
        return 201, self._refund_json(payment, refund)

    def finish_refund(self, refund_no: str, succeeded: bool, notify: bool = True) -> Delivery | None:
        """PayPal finishes a PENDING refund (by its id, or the merchant's custom_id): COMPLETED, or
        FAILED with the amount refundable again. PayPal's webhooks are not used by the console: the
        outcome is read back (GET /v2/payments/refunds/{id}), so nothing is sent."""
        with self._lock:
            refund_id = next((rid for rid, (_, r) in self._refunds.items() if refund_no in (rid, r.get("custom_id"))),
                             None)
            if refund_id is None:
                raise KeyError(refund_no)
            payment_id, refund = self._refunds[refund_id]
            if refund["status"] != "PENDING":
                return None
            self._refunds[refund_id] = (payment_id, {**refund, "status": COMPLETED if succeeded else "FAILED",
                                                     "update_time": _now()})
            if not succeeded:
                payment = self.context.ledger.existing(payment_id)
                refunded = payment.refunded_cents - refund["amount_cents"]
                capture = {**payment.extra["capture"], "status": "PARTIALLY_REFUNDED" if refunded else COMPLETED}
                self.context.ledger.update(payment_id, refunded_cents=refunded, status=Status.PAID,
                                           extra={**payment.extra, "capture": capture})
        return None

    def _get_refund(self, client_id: str, refund_id: str):
        found = self._refunds.get(refund_id)
        if found is None:
            raise _not_found()
        payment = self._order(client_id, found[0])
        return 200, self._refund_json(payment, found[1])

    # --- lookups and shapes ---------------------------------------------------------------------

    def _order(self, client_id: str, order_id: str) -> SandboxPayment:
        payment = self.context.ledger.get(order_id)
        if payment is None or payment.provider != self.name or payment.extra.get("client_id") != client_id:
            raise _not_found()
        return payment

    def _captured(self, client_id: str, capture_id: str) -> SandboxPayment:
        order_id = self._captures.get(capture_id)
        if order_id is None:
            raise _not_found()
        return self._order(client_id, order_id)

    @staticmethod
    def _json() -> dict:
        if not request.get_data():
            return {}
        try:
            body = json.loads(request.get_data())
        except ValueError as error:
            raise _error(400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates "
                         "schema.", "MALFORMED_REQUEST_JSON", "The request JSON is not well formed.") from error
        if not isinstance(body, dict):
            raise _invalid("MALFORMED_REQUEST_JSON", "The request JSON is not well formed.", "/")
        return body

    @staticmethod
    def _money(amount: object, field: str) -> tuple[str, int]:
        """(currency, cents) of a PayPal money object, whose value is a decimal string."""
        if not isinstance(amount, dict):
            raise _invalid("MISSING_REQUIRED_PARAMETER", "A required field / parameter is missing.", field)
        currency, value = amount.get("currency_code"), amount.get("value")
        if not isinstance(currency, str) or not _CURRENCY.match(currency):
            raise _invalid("INVALID_PARAMETER_VALUE", "The value of a field is invalid.", f"{field}/currency_code")
        if not isinstance(value, str):
            raise _invalid("INVALID_PARAMETER_SYNTAX", "The value of a field does not conform to the expected "
                           "format.", f"{field}/value")
        if not _VALUE.match(value):
            issue = "DECIMAL_PRECISION" if re.match(r"^[0-9]+\.[0-9]{3,}$", value) else "INVALID_PARAMETER_SYNTAX"
            raise _invalid(issue, "The value must be a decimal string with at most two decimals.", f"{field}/value")
        try:
            return currency, int(Decimal(value) * 100)
        except InvalidOperation as error:  # pragma: no cover (the pattern already checked it)
            raise _invalid("INVALID_PARAMETER_SYNTAX", "Not a number.", f"{field}/value") from error

    def _link(self, path: str, rel: str, method: str = "GET") -> dict:
        return {"href": f"{self._api_url}{path}", "rel": rel, "method": method}

    def _order_json(self, payment: SandboxPayment) -> dict:
        extra, status = payment.extra, payment.extra["status"]
        money = {"currency_code": payment.currency, "value": _value(payment.amount_cents)}
        unit: dict = {"reference_id": extra["reference_id"], "amount": money,
                      "payee": {"email_address": "merchant@example.com", "merchant_id": "SANDBOXMERCH1"}}
        for key in ("description", "custom_id", "invoice_id"):
            value = payment.description if key == "description" else extra.get(key)
            if value:
                unit[key] = value
        if "capture" in extra:
            unit["payments"] = {"captures": [self._capture_json(payment)]}
        order: dict = {"id": payment.id, "intent": "CAPTURE", "status": status, "purchase_units": [unit],
                       "create_time": extra["create_time"], "update_time": extra["update_time"]}
        if "payer_id" in extra:
            payer = _payer(extra["payer_id"])
            order["payer"] = payer
            order["payment_source"] = {"paypal": {"email_address": payer["email_address"],
                                                  "account_id": payer["payer_id"], "account_status": "VERIFIED",
                                                  "name": payer["name"], "address": payer["address"]}}
            if "vault_token" in extra:
                token = self._tokens[extra["vault_token"]]
                order["payment_source"]["paypal"]["attributes"] = {"vault": {
                    "id": token.id, "status": "VAULTED", "customer": {"id": token.customer_id},
                    "links": [*self._token_links(token), self._link(f"/v2/checkout/orders/{payment.id}", "up")]}}
        links = [self._link(f"/v2/checkout/orders/{payment.id}", "self")]
        if status in (CREATED, PAYER_ACTION_REQUIRED):
            rel = "payer-action" if status == PAYER_ACTION_REQUIRED else "approve"
            links.append({"href": self.context.payer_page(self.name, payment.id), "rel": rel, "method": "GET"})
        if status in (CREATED, PAYER_ACTION_REQUIRED, APPROVED):
            links.append(self._link(f"/v2/checkout/orders/{payment.id}", "update", "PATCH"))
            links.append(self._link(f"/v2/checkout/orders/{payment.id}/capture", "capture", "POST"))
        order["links"] = links
        return order

    def _token_links(self, token: VaultToken) -> list[dict]:
        path = f"/v3/vault/payment-tokens/{token.id}"
        return [self._link(path, "self"), self._link(path, "delete", "DELETE")]

    def _token_json(self, token: VaultToken) -> dict:
        payer = _payer(token.payer_id)
        paypal = {"usage_type": token.usage_type, "customer_type": token.customer_type,
                  "permit_multiple_payment_tokens": False, "email_address": payer["email_address"],
                  "payer_id": token.payer_id, "name": payer["name"], "address": payer["address"],
                  **({"usage_pattern": token.usage_pattern} if token.usage_pattern else {})}
        return {"id": token.id, "customer": {"id": token.customer_id}, "payment_source": {"paypal": paypal},
                "links": self._token_links(token)}

    def _capture_json(self, payment: SandboxPayment) -> dict:
        capture, extra = payment.extra["capture"], payment.extra
        body = {"id": capture["id"], "status": capture["status"],
                "amount": {"currency_code": payment.currency, "value": _value(capture["amount_cents"])},
                "final_capture": True, "seller_protection": {"status": "ELIGIBLE"},
                "create_time": capture["create_time"], "update_time": capture["update_time"]}
        for key in ("invoice_id", "custom_id"):
            if extra.get(key):
                body[key] = extra[key]
        body["links"] = [self._link(f"/v2/payments/captures/{capture['id']}", "self"),
                         self._link(f"/v2/payments/captures/{capture['id']}/refund", "refund", "POST"),
                         self._link(f"/v2/checkout/orders/{payment.id}", "up")]
        return body

    def _refund_json(self, payment: SandboxPayment, refund: dict) -> dict:
        body = {"id": refund["id"], "status": refund["status"],
                "amount": {"currency_code": payment.currency, "value": _value(refund["amount_cents"])},
                "create_time": refund["create_time"], "update_time": refund["update_time"]}
        for key in ("invoice_id", "custom_id", "note_to_payer"):
            if refund.get(key):
                body[key] = refund[key]
        capture_id = payment.extra["capture"]["id"]
        body["links"] = [self._link(f"/v2/payments/refunds/{refund['id']}", "self"),
                         self._link(f"/v2/payments/captures/{capture_id}", "up")]
        return body
