"""Stripe: the wallets of the international edition (30 Google Pay, 40 the card payment-request
button), on the stripe SDK.

A payment is a PaymentIntent. start() creates it and hands its client secret to the web client,
whose wallet sheet (Stripe.js) yields a payment method; confirm() charges that payment method and
the order is settled on the answer. Stripe's webhook (`payment_intent.succeeded`, or
`payment_intent.payment_failed`) reaches the console as well, signed with the endpoint's secret.

Automatic renewal (the RecurringPayments port) saves the payer's payment method for off-session
use (docs.stripe.com/payments/save-during-payment): the first payment's intent is created for a
Customer of the agreement (found again by our agreement code in its metadata) with
`setup_future_usage: off_session`, so Stripe attaches the method the payer pays with to that
customer. The mandate is "<customer id>:<payment method id>". A renewal is a PaymentIntent created
and confirmed at once with both, `off_session: true`, under an idempotency key from the renewal
order's code; detaching the method ends it. Those intents carry the order's code in their
metadata like any other, so their webhooks settle the renewal order as they would any order.

Amounts: the port's integer cents are Stripe's smallest currency unit for USD (and every
two-decimal currency); the conversion for the others is at this edge, in Decimal.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from decimal import Decimal

import stripe

from core.ordering.model import PaymentFailure
from core.ordering.payments import (
    Acknowledgement,
    InvalidNotification,
    Notification,
    PaymentRequest,
    PaymentResult,
    PaymentStart,
    RefundNotification,
    RefundOutcome,
    RefundRequest,
    RefundResult,
)

log = logging.getLogger("coldchain.payments.stripe")

# Currencies whose smallest unit is not a hundredth (docs.stripe.com/currencies).
_ZERO_DECIMAL = frozenset({"bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx", "vnd", "vuv",
                           "xaf", "xof", "xpf"})
_THREE_DECIMAL = frozenset({"bhd", "jod", "kwd", "omr", "tnd"})
# A Refund's status (docs.stripe.com/api/refunds/object): pending and requires_action are accepted,
# not finished (the card network pays it back later, told by refund.updated); failed and canceled
# paid nothing back.
_REFUND_OUTCOMES = {"succeeded": RefundOutcome.SUCCEEDED, "pending": RefundOutcome.PENDING,
                    "requires_action": RefundOutcome.PENDING, "failed": RefundOutcome.FAILED,
                    "canceled": RefundOutcome.FAILED}
_REFUND_EVENTS = frozenset({"refund.created", "refund.updated", "refund.failed", "charge.refund.updated"})


def _refund_result(refund) -> RefundResult:
    outcome = _REFUND_OUTCOMES.get(str(refund.status), RefundOutcome.FAILED)
    error = None if outcome is RefundOutcome.SUCCEEDED else (getattr(refund, "failure_reason", None) or refund.status)
    return RefundResult(succeeded=outcome is RefundOutcome.SUCCEEDED, reference=refund.id,
                        error=None if outcome is RefundOutcome.PENDING else error,
                        pending=outcome is RefundOutcome.PENDING)


def _exponent(currency: str) -> int:
    currency = currency.lower()
    return 0 if currency in _ZERO_DECIMAL else 3 if currency in _THREE_DECIMAL else 2


def to_stripe_amount(cents: int, currency: str) -> int:
    """Cents (hundredths) → Stripe's integer amount in the currency's smallest unit."""
    amount = Decimal(cents).scaleb(_exponent(currency) - 2)
    if amount != amount.to_integral_value():
        raise ValueError(f"{cents} hundredths of {currency.upper()} is not a whole amount in its smallest unit")
    return int(amount)


def from_stripe_amount(amount: int, currency: str) -> int:
    """Stripe's integer amount → cents (hundredths), exactly."""
    cents = Decimal(amount).scaleb(2 - _exponent(currency))
    if cents != cents.to_integral_value():
        raise ValueError(f"{amount} in the smallest unit of {currency.upper()} is not a whole number of hundredths")
    return int(cents)


def card_failure(code: str | None) -> PaymentFailure:
    """Stripe's card error code in the console's words: Stripe's processing_error is its own
    failure; every other card error (card_declined, expired_card, incorrect_cvc, ...) is the
    card refused."""
    return PaymentFailure.FAILED if code == "processing_error" else PaymentFailure.DECLINED


def _header(headers: Mapping[str, str], name: str) -> str | None:
    """The header from the console's case-insensitive headers, or from a plain dict."""
    value = headers.get(name)
    if value is None:
        value = next((v for k, v in headers.items() if k.lower() == name.lower()), None)
    return value


def _refund_notification(event_type: str, refund) -> RefundNotification:
    """A `refund.*` (or the older `charge.refund.updated`) event about one of our refunds: its
    outcome, amount and currency as Stripe says."""
    metadata = getattr(refund, "metadata", None)
    if not metadata or "refund_code" not in metadata:
        raise InvalidNotification(f"{refund.id} is not one of our refunds")
    try:
        amount = from_stripe_amount(int(refund.amount), refund.currency)
    except (ValueError, TypeError, AttributeError) as error:
        raise InvalidNotification(f"unreadable amount in {event_type}") from error
    result = _refund_result(refund)
    return RefundNotification(refund_code=str(metadata["refund_code"]), outcome=result.outcome, amount_cents=amount,
                              currency=str(refund.currency), reference=refund.id,
                              order_code=str(metadata["order_code"]) if "order_code" in metadata else None,
                              error=result.error)


class StripeGateway:
    def __init__(self, api_base: str, secret_key: str, webhook_secret: str, *, timeout: float = 10.0) -> None:
        # No retries (max_network_retries=0): a caller that gives up after `timeout` seconds sees
        # the failure at once; each timeout covers connecting and reading separately.
        self._client = stripe.StripeClient(
            secret_key, base_addresses={"api": api_base.rstrip("/")}, max_network_retries=0,
            http_client=stripe.RequestsClient(timeout=timeout))
        self._webhook_secret = webhook_secret

    @property
    def _intents(self):
        return self._client.v1.payment_intents

    # --- the payment --------------------------------------------------------------------------------

    def start(self, request: PaymentRequest) -> PaymentStart:
        """The order's PaymentIntent. Its idempotency key is the order's code, so a start retried
        (after a time-out, say) gets the same intent back instead of a second one (Stripe keeps
        idempotency keys for 24 hours)."""
        return self._start(request, f"payment-intent-{request.order_code}")

    def _intent_params(self, request: PaymentRequest, **metadata: str) -> dict:
        currency = request.currency.lower()
        return {
            "amount": to_stripe_amount(request.amount_cents, currency),
            "currency": currency,
            "description": request.description,
            "metadata": {"order_code": request.order_code, "order_id": str(request.order_id), **metadata},
            # Google Pay and the payment-request button both yield card payment methods. Not
            # automatic_payment_methods: with it Stripe requires a return_url to confirm server-side.
            "payment_method_types": ["card"],
        }

    def _start(self, request: PaymentRequest, idempotency_key: str, metadata: dict[str, str] | None = None,
               **extra: str) -> PaymentStart:
        intent = self._intents.create({**self._intent_params(request, **(metadata or {})), **extra},
                                      {"idempotency_key": idempotency_key})
        # Offline, in the local sandbox, Stripe.js and its wallet sheet cannot load: the sandbox
        # adds its payer page (which stands in for the sheet) to the intent as `sandbox_payer_url`,
        # a field real Stripe never sends, and the web client opens it as the approve URL.
        return PaymentStart(client_secret=intent.client_secret, reference=intent.id,
                            approve_url=getattr(intent, "sandbox_payer_url", None))

    def confirm(self, request: PaymentRequest, payment_method_id: str) -> PaymentResult:
        """Charges the payment method the wallet gave. A declined card (or a payment method Stripe
        refuses) is an unpaid result with Stripe's code; an outage raises."""
        intent_id = request.reference or self._find(request.order_code) or self.start(request).reference
        try:
            intent = self._intents.confirm(intent_id, {"payment_method": payment_method_id})
        except stripe.CardError as error:
            details = error.error
            return PaymentResult(paid=False, reference=intent_id, error=error.code or "card_declined",
                                 failure=card_failure(error.code), attempt=getattr(details, "charge", None))
        except stripe.InvalidRequestError as error:
            if error.code == "payment_intent_unexpected_state":  # paid already (on another tab), or canceled
                result = self._result(self._intents.retrieve(intent_id))
                if result.paid:
                    return result
            return PaymentResult(paid=False, reference=intent_id, error=error.code or "invalid_request")
        return self._result(intent)

    def query(self, request: PaymentRequest) -> PaymentResult:
        intent_id = request.reference or self._find(request.order_code)
        if intent_id is None:
            return PaymentResult(paid=False, error="not_found")
        return self._result(self._intents.retrieve(intent_id))

    def close(self, request: PaymentRequest) -> None:
        """Cancels the intent; one canceled already, or never created, is fine. One that has
        succeeded cannot be withdrawn: Stripe's InvalidRequestError (payment_intent_unexpected_state)
        is raised, and the caller should query it and settle."""
        intent_id = request.reference or self._find(request.order_code)
        if intent_id is None:
            return
        try:
            self._intents.cancel(intent_id, {"cancellation_reason": "abandoned"})
        except stripe.InvalidRequestError as error:
            if error.code == "resource_missing":
                return
            unexpected = error.code == "payment_intent_unexpected_state"
            if unexpected and self._intents.retrieve(intent_id).status == "canceled":
                return
            raise

    def refund(self, refund: RefundRequest) -> RefundResult:
        """Pays `amount_cents` back. The idempotency key comes from our refund code, so a retried
        refund is not paid twice; since Stripe forgets idempotency keys after 24 hours, a refund
        already made under this code (in its metadata) is looked up first."""
        intent_id = refund.reference or self._find(refund.order_code)
        if intent_id is None:
            return RefundResult(succeeded=False, error="payment_not_found")
        earlier = next((r for r in self._client.v1.refunds.list({"payment_intent": intent_id, "limit": 100}).data
                        if r.metadata and "refund_code" in r.metadata
                        and r.metadata["refund_code"] == refund.refund_code), None)
        try:
            made = earlier or self._client.v1.refunds.create({
                "payment_intent": intent_id,
                "amount": to_stripe_amount(refund.amount_cents, refund.currency),
                "reason": "requested_by_customer",
                "metadata": {"order_code": refund.order_code, "refund_code": refund.refund_code},
            }, {"idempotency_key": f"refund-{refund.refund_code}"})
        except (stripe.InvalidRequestError, stripe.CardError) as error:
            return RefundResult(succeeded=False, error=error.code or "invalid_request")
        except stripe.IdempotencyError:  # this refund code was used for another amount or payment
            return RefundResult(succeeded=False, error="idempotency_error")
        return _refund_result(made)

    def refund_status(self, refund: RefundRequest, refund_reference: str | None) -> RefundResult:
        """The Refund as Stripe shows it now (by its id, else found by our refund code)."""
        if refund_reference:
            return _refund_result(self._client.v1.refunds.retrieve(refund_reference))
        intent_id = refund.reference or self._find(refund.order_code)
        made = next((r for r in self._client.v1.refunds.list({"payment_intent": intent_id, "limit": 100}).data
                     if r.metadata and "refund_code" in r.metadata
                     and r.metadata["refund_code"] == refund.refund_code), None) if intent_id else None
        return _refund_result(made) if made is not None else RefundResult(succeeded=False, error="refund_not_found")

    def _find(self, order_code: str) -> str | None:
        """The newest intent of the order, when its id was never stored (its start's answer lost)."""
        found = self._intents.search({"query": f"metadata['order_code']:'{order_code}'", "limit": 1})
        return found.data[0].id if found.data else None

    @staticmethod
    def _result(intent) -> PaymentResult:
        paid = intent.status == "succeeded"
        failure = getattr(intent, "last_payment_error", None)
        error = None if paid else (getattr(failure, "code", None) if failure else None) or intent.status
        return PaymentResult(paid=paid, amount_cents=from_stripe_amount(intent.amount_received or 0, intent.currency),
                             reference=intent.id, error=error, currency=intent.currency)

    # --- automatic renewal: a payment method saved for off-session charges ---------------------------

    def start_with_mandate(self, request: PaymentRequest, code: str) -> PaymentStart:
        """The order's intent, for the agreement's customer, saving the method it is paid with. Its
        idempotency key is not start()'s: a payment started again plainly (ResumePayment, after this
        start's answer was lost) is then a second intent rather than Stripe's idempotency error."""
        return self._start(request, f"payment-intent-{request.order_code}-saving", {"agreement_code": code},
                           customer=self._customer(code), setup_future_usage="off_session")

    def mandate(self, request: PaymentRequest, code: str) -> str | None:
        """"<customer>:<payment method>" once the payer has paid the order's saving intent and Stripe
        has attached the method to the agreement's customer; None before (or for a plain payment)."""
        intent_id = request.reference or self._find(request.order_code)
        if intent_id is None:
            return None
        intent = self._intents.retrieve(intent_id)
        metadata = getattr(intent, "metadata", None) or {}
        customer, method = getattr(intent, "customer", None), getattr(intent, "payment_method", None)
        if (intent.status != "succeeded" or getattr(intent, "setup_future_usage", None) != "off_session"
                or "agreement_code" not in metadata or metadata["agreement_code"] != code
                or not isinstance(customer, str) or not isinstance(method, str)):
            return None
        if self._client.v1.payment_methods.retrieve(method).customer != customer:
            return None  # detached since
        return f"{customer}:{method}"

    def charge(self, mandate: str, request: PaymentRequest) -> PaymentResult:
        """An intent created and confirmed off-session with the saved method. Its idempotency key is
        the order's code, so the same order charged again gets the first answer (a charge, or its
        decline) and is never charged twice. A decline (card_declined, or authentication_required
        when the bank wants the payer) or a method Stripe no longer takes is an unpaid result."""
        customer, _, method = mandate.partition(":")
        if not customer.startswith("cus_") or not method.startswith("pm_"):
            return PaymentResult(paid=False, error="invalid_mandate")
        params = {**self._intent_params(request), "customer": customer, "payment_method": method,
                  "off_session": True, "confirm": True}
        try:
            intent = self._intents.create(params, {"idempotency_key": f"off-session-{request.order_code}"})
        except stripe.CardError as error:
            details = error.error
            declined = getattr(details, "payment_intent", None)  # the intent the decline left unpaid
            return PaymentResult(paid=False, reference=getattr(declined, "id", None),
                                 error=error.code or "card_declined", failure=card_failure(error.code),
                                 attempt=getattr(details, "charge", None))
        except stripe.InvalidRequestError as error:  # the method detached, the customer deleted...
            return PaymentResult(paid=False, error=error.code or "invalid_request")
        return self._result(intent)

    def cancel(self, mandate: str, code: str) -> None:
        """Detaches the saved method from the customer: Stripe charges it no more. One detached
        already (or unknown to Stripe) is fine."""
        _, _, method = mandate.partition(":")
        if not method.startswith("pm_"):
            return
        try:
            self._client.v1.payment_methods.detach(method)
        except stripe.InvalidRequestError as error:
            if error.code == "resource_missing" or self._client.v1.payment_methods.retrieve(method).customer is None:
                return
            raise

    def _customer(self, code: str) -> str:
        """The agreement's Customer: found by the code in its metadata (a start retried after its
        intent failed), else created under an idempotency key from the code."""
        found = self._client.v1.customers.search({"query": f"metadata['agreement_code']:'{code}'", "limit": 1})
        if found.data:
            return found.data[0].id
        return self._client.v1.customers.create(
            {"description": f"Automatic renewal {code}", "metadata": {"agreement_code": code}},
            {"idempotency_key": f"customer-{code}"}).id

    # --- webhooks -------------------------------------------------------------------------------------

    def parse_notification(self, headers: Mapping[str, str], body: bytes) -> Notification | RefundNotification:
        """A webhook event, its Stripe-Signature checked (HMAC-SHA256 under the endpoint's secret,
        the timestamp within Stripe's 5 minutes' tolerance).

        Every `payment_intent.*` event about one of our orders is a Notification, paid only for
        `payment_intent.succeeded`: a failed or canceled payment is acknowledged (Stripe stops
        resending it) and changes nothing. Events about anything else carry no order of ours and
        are refused as InvalidNotification; the endpoint should be subscribed to
        payment_intent.succeeded and payment_intent.payment_failed only, so none arrive."""
        signature = _header(headers, "Stripe-Signature")
        if not signature:
            raise InvalidNotification("no Stripe-Signature header")
        try:
            event = self._client.construct_event(body, signature, self._webhook_secret)
        except stripe.SignatureVerificationError as error:
            raise InvalidNotification(f"Stripe-Signature refused: {error.user_message or error}") from error
        except (ValueError, TypeError, AttributeError, KeyError) as error:  # signed, but not an event
            raise InvalidNotification(f"not a Stripe event: {error}") from error
        event_type = str(getattr(event, "type", ""))
        intent = getattr(getattr(event, "data", None), "object", None)
        if event_type in _REFUND_EVENTS and getattr(intent, "object", None) == "refund":
            return _refund_notification(event_type, intent)
        if getattr(intent, "object", None) != "payment_intent" or not event_type.startswith("payment_intent."):
            raise InvalidNotification(f"{event_type or 'an event without a type'} is not about a payment intent")
        assert intent is not None  # its "object" was "payment_intent" just above
        metadata = getattr(intent, "metadata", None)
        if not metadata or "order_code" not in metadata:
            raise InvalidNotification(f"{intent.id} is not one of our orders' payment intents")
        paid = event_type == "payment_intent.succeeded" and getattr(intent, "status", None) == "succeeded"
        try:
            amount = from_stripe_amount(int(intent.amount_received or 0), intent.currency)
        except (ValueError, TypeError, AttributeError) as error:
            raise InvalidNotification(f"unreadable amount in {getattr(event, 'id', 'the event')}") from error
        # A payment the payer tried and the card refused (the wallet sheet, or its stand-in page).
        refusal = getattr(intent, "last_payment_error", None) if event_type == "payment_intent.payment_failed" else None
        return Notification(order_code=str(metadata["order_code"]), paid=paid, amount_cents=amount,
                            reference=intent.id, currency=str(intent.currency),
                            failure=card_failure(getattr(refusal, "code", None)) if refusal else None,
                            attempt=(getattr(refusal, "charge", None) or getattr(intent, "latest_charge", None))
                            if refusal else None)

    @staticmethod
    def acknowledge(accepted: bool) -> Acknowledgement:
        """Stripe wants a 2xx to stop resending; anything else is retried for up to three days."""
        if accepted:
            return Acknowledgement(200, b'{"received": true}', "application/json")
        return Acknowledgement(400, b'{"received": false}', "application/json")
