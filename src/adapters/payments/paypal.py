"""PayPal (pay type 20, the international edition) through PayPal's own SDK, paypal-server-sdk:
Orders v2 with intent CAPTURE.

The flow: start() creates an order and hands the payer its approve link; the payer approves on
PayPal's page and comes back to the console's return URL with `?token=<order id>`; the console
calls confirm() with that token, which captures the order. PayPal sends no signed notification on
this path and the SDK verifies none: the capture's answer (status COMPLETED, and its amount) is the
proof of payment. Reconciliation reads the order (query), and refunds go to the capture.

Idempotency: the order is created with `PayPal-Request-Id` = our order code, so a repeated start()
gets the same PayPal order back; an order captures once (a second capture is refused with
ORDER_ALREADY_CAPTURED, answered here from the existing capture); a refund carries
`PayPal-Request-Id` = our refund code, so a retried refund is not paid twice.

Automatic renewal (the RecurringPayments port) is PayPal's vault with purchase
(developer.paypal.com, "Save PayPal with the Orders API"): the first order asks PayPal to store the
payer's PayPal in its vault once the payment succeeds (`attributes.vault.store_in_vault:
ON_SUCCESS`, `usage_type: MERCHANT`); the payer approves both on PayPal's page, and the capture
answers with the payment token (`payment_source.paypal.attributes.vault.id`, status VAULTED), the
mandate. A renewal is an order paying with that token (`payment_source.paypal.vault_id`, a
merchant-initiated subsequent charge), which PayPal completes without the payer; its
`PayPal-Request-Id` is the renewal order's code, so the same order is never charged twice. Deleting
the token (`DELETE /v3/vault/payment-tokens/{id}`) ends it.

Errors: where PayPal answered the operation with a refusal (order not approved, voided, amount
exceeded...), confirm()/query()/refund() return an unpaid or failed result carrying PayPal's issue.
Where the outcome is unknown or the set-up is wrong (no answer in time, connection refused, client
credentials refused, PayPal's server errors), they raise PayPalError, as start() does: nothing is
to be concluded from such a call."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from decimal import Decimal, InvalidOperation

import requests
from paypalserversdk.api_helper import APIHelper
from paypalserversdk.configuration import Configuration, Environment, Server
from paypalserversdk.exceptions.api_exception import ApiException
from paypalserversdk.exceptions.error_exception import ErrorException
from paypalserversdk.exceptions.o_auth_provider_exception import OAuthProviderException
from paypalserversdk.http.api_response import ApiResponse
from paypalserversdk.http.auth.o_auth_2 import ClientCredentialsAuthCredentials
from paypalserversdk.models.amount_with_breakdown import AmountWithBreakdown
from paypalserversdk.models.checkout_payment_intent import CheckoutPaymentIntent
from paypalserversdk.models.money import Money
from paypalserversdk.models.order_request import OrderRequest
from paypalserversdk.models.payment_initiator import PaymentInitiator
from paypalserversdk.models.payment_source import PaymentSource
from paypalserversdk.models.paypal_experience_user_action import PaypalExperienceUserAction
from paypalserversdk.models.paypal_payment_token_customer_type import PaypalPaymentTokenCustomerType
from paypalserversdk.models.paypal_payment_token_usage_type import PaypalPaymentTokenUsageType
from paypalserversdk.models.paypal_wallet import PaypalWallet
from paypalserversdk.models.paypal_wallet_attributes import PaypalWalletAttributes
from paypalserversdk.models.paypal_wallet_context_shipping_preference import PaypalWalletContextShippingPreference
from paypalserversdk.models.paypal_wallet_experience_context import PaypalWalletExperienceContext
from paypalserversdk.models.paypal_wallet_stored_credential import PaypalWalletStoredCredential
from paypalserversdk.models.paypal_wallet_vault_instruction import PaypalWalletVaultInstruction
from paypalserversdk.models.purchase_unit_request import PurchaseUnitRequest
from paypalserversdk.models.refund_request import RefundRequest as PayPalRefundRequest
from paypalserversdk.models.store_in_vault_instruction import StoreInVaultInstruction
from paypalserversdk.models.stored_payment_source_usage_type import StoredPaymentSourceUsageType
from paypalserversdk.models.usage_pattern import UsagePattern
from paypalserversdk.paypal_serversdk_client import PaypalServersdkClient

from core.ordering.model import PaymentFailure
from core.ordering.payments import (
    Acknowledgement,
    InvalidNotification,
    Notification,
    PaymentRequest,
    PaymentResult,
    PaymentStart,
    RefundOutcome,
    RefundRequest,
    RefundResult,
)

CENT = Decimal("0.01")
PAID_CAPTURE_STATUSES = frozenset({"COMPLETED", "PARTIALLY_REFUNDED", "REFUNDED"})
# A refund's status: PENDING is accepted, PayPal pays it back later (read back by refund_status);
# CANCELLED and FAILED paid nothing back.
REFUND_OUTCOMES = {"COMPLETED": RefundOutcome.SUCCEEDED, "PENDING": RefundOutcome.PENDING}


def _refund_result(refund: object) -> RefundResult:
    status = _field(refund, "status")
    outcome = REFUND_OUTCOMES.get(status, RefundOutcome.FAILED)
    return RefundResult(succeeded=outcome is RefundOutcome.SUCCEEDED, reference=_field(refund, "id"),
                        error=f"refund {status}" if outcome is RefundOutcome.FAILED else None,
                        pending=outcome is RefundOutcome.PENDING)
DESCRIPTION_MAX = 127  # PayPal's limit on a purchase unit's description


class PayPalError(Exception):
    """PayPal could not be asked (no answer in time, connection refused), refused our client
    credentials, or failed on its side: the outcome of the call is unknown."""


def to_value(cents: int) -> str:
    """PayPal's amount: a decimal string with two decimals ("39.90")."""
    return str((Decimal(cents) / 100).quantize(CENT))


def to_cents(value: str) -> int:
    amount = Decimal(value) * 100
    if amount != amount.to_integral_value():
        raise ValueError(f"PayPal amount {value!r} has fractions of a cent")
    return int(amount)


def _issue(error: ErrorException) -> str:
    """PayPal's most specific word for a refusal: the first detail's issue, else the error name."""
    details = getattr(error, "details", None) or []
    issue = getattr(details[0], "issue", None) if details else None
    return issue or getattr(error, "name", None) or f"HTTP {error.response_code}"


# PayPal's refusals of a capture in the console's words (PaymentFailure); other issues are FAILED.
_REFUSALS = {"INSTRUMENT_DECLINED": PaymentFailure.DECLINED, "TRANSACTION_REFUSED": PaymentFailure.DECLINED,
             "PAYER_CANNOT_PAY": PaymentFailure.DECLINED, "ORDER_COMPLETED_OR_VOIDED": PaymentFailure.CANCELLED}


def _failure(issue: str) -> PaymentFailure:
    return _REFUSALS.get(issue, PaymentFailure.FAILED)


def _field(model: object, name: str, default=None):
    # The SDK's models leave out the attributes a response did not carry (APIHelper.SKIP).
    value = getattr(model, name, default)
    return default if value is None else value


def _purchase_unit(request: PaymentRequest) -> PurchaseUnitRequest:
    """The order's purchase unit: its amount, and our order code as invoice id and custom id."""
    return PurchaseUnitRequest(
        amount=AmountWithBreakdown(currency_code=request.currency.upper(), value=to_value(request.amount_cents)),
        description=request.description[:DESCRIPTION_MAX] or APIHelper.SKIP,  # PayPal refuses ""
        custom_id=request.order_code, invoice_id=request.order_code)


class PayPalGateway:
    def __init__(self, base_url: str, client_id: str, client_secret: str, return_url: str, cancel_url: str, *,
                 timeout: float = 10.0) -> None:
        self._return_url, self._cancel_url = return_url, cancel_url
        credentials = ClientCredentialsAuthCredentials(
            o_auth_client_id=client_id, o_auth_client_secret=client_secret,
            # The SDK's default token fetch swallows the token endpoint's refusal (wrong client id
            # or secret) and only says "OAuthToken is undefined or expired" later; fetching the
            # token through this provider lets PayPal's own answer (invalid_client) through.
            o_auth_token_provider=lambda _expired, auth: auth.fetch_token())
        config = Configuration(timeout=timeout, max_retries=0, environment=Environment.SANDBOX,
                               client_credentials_auth_credentials=credentials)
        # The SDK has no base-URL option, only its two environments' URLs in a class attribute:
        # this instance's own table points "the" environment at the configured URL (the local
        # sandbox in development, https://api-m.paypal.com or api-m.sandbox.paypal.com for real).
        config.environments = {Environment.SANDBOX: {Server.DEFAULT: base_url.rstrip("/")}}
        self._client = PaypalServersdkClient(config=config)

    # --- the port -------------------------------------------------------------------------------

    def start(self, request: PaymentRequest) -> PaymentStart:
        return self._start(request)

    def start_returning(self, request: PaymentRequest, return_url: str, cancel_url: str) -> PaymentStart:
        """An order whose payer comes back to a page of the payment's own (a calibration
        application's), not to the console's order return: that page asks for the capture."""
        return self._start(request, back=(return_url, cancel_url))

    def _start(self, request: PaymentRequest, attributes: PaypalWalletAttributes | None = None,
               back: tuple[str, str] | None = None) -> PaymentStart:
        return_url, cancel_url = back or (self._return_url, self._cancel_url)
        experience = PaypalWalletExperienceContext(
            return_url=return_url, cancel_url=cancel_url,
            user_action=PaypalExperienceUserAction.PAY_NOW,  # the capture follows the return at once
            shipping_preference=PaypalWalletContextShippingPreference.NO_SHIPPING)  # a service, nothing shipped
        wallet = PaypalWallet(experience_context=experience, attributes=attributes or APIHelper.SKIP)
        body = OrderRequest(intent=CheckoutPaymentIntent.CAPTURE, purchase_units=[_purchase_unit(request)],
                            payment_source=PaymentSource(paypal=wallet))
        try:
            order = self._call(lambda: self._client.orders.create_order(
                {"body": body, "paypal_request_id": request.order_code, "prefer": "return=minimal"}))
        except ErrorException as error:
            raise PayPalError(f"PayPal refused the order {request.order_code}: {_issue(error)}") from error
        links = {link.rel: link.href for link in _field(order, "links", [])}
        approve_url = links.get("payer-action") or links.get("approve")
        if not approve_url:
            raise PayPalError(f"PayPal's order {order.id} has no approve link (status {_field(order, 'status')})")
        return PaymentStart(approve_url=approve_url, reference=order.id)

    def confirm(self, request: PaymentRequest, payment_method_id: str) -> PaymentResult:
        """Captures the PayPal order `payment_method_id` (the return URL's token) the payer approved."""
        token = payment_method_id
        if request.reference:
            if token != request.reference:
                return PaymentResult(paid=False, error="the PayPal order is not this order's")
        else:  # the start was not recorded: the order must at least be ours
            try:
                order = self._call(lambda: self._client.orders.get_order({"id": token}))
            except ErrorException as error:
                return PaymentResult(paid=False, error=_issue(error))
            if self._unit(order, request.order_code) is None:
                return PaymentResult(paid=False, error="the PayPal order is not this order's")
        try:
            order = self._call(lambda: self._client.orders.capture_order(
                {"id": token, "prefer": "return=representation"}))
        except ErrorException as error:
            if _issue(error) != "ORDER_ALREADY_CAPTURED":
                return PaymentResult(paid=False, error=_issue(error), failure=_failure(_issue(error)), attempt=token)
            # Captured before (a repeated return, or reconciliation got there first): no second
            # charge, the existing capture is the answer.
            order = self._call(lambda: self._client.orders.get_order({"id": token}))
        return self._order_result(order, request)

    def query(self, request: PaymentRequest) -> PaymentResult:
        """The order's state: COMPLETED is paid (with its capture); otherwise not paid, with
        PayPal's order status as the error (APPROVED: the payer approved and the order awaits
        its capture, which confirm() does)."""
        if not request.reference:
            return PaymentResult(paid=False, error="no PayPal order")
        try:
            order = self._call(lambda: self._client.orders.get_order({"id": request.reference}))
        except ErrorException as error:
            if error.response_code != 404:
                return PaymentResult(paid=False, error=_issue(error))
            # Once settled, the order's reference is the capture id (what confirm() reported).
            try:
                capture = self._call(lambda: self._client.payments.get_captured_payment(
                    {"capture_id": request.reference}))
            except ErrorException:
                return PaymentResult(paid=False, error=_issue(error))
            return self._capture_result(capture, request)
        return self._order_result(order, request)

    def close(self, request: PaymentRequest) -> None:
        # Nothing to call: PayPal has no way to withdraw an uncaptured CAPTURE order; it expires
        # on its own if nobody captures it, and only the console captures (on the payer's return
        # or in reconciliation), so an order the console has closed is never captured.
        return None

    def refund(self, refund: RefundRequest) -> RefundResult:
        if not refund.reference:
            return RefundResult(succeeded=False, error="no PayPal capture to refund")
        body = PayPalRefundRequest(
            amount=Money(currency_code=refund.currency.upper(), value=to_value(refund.amount_cents)),
            invoice_id=refund.order_code, custom_id=refund.refund_code)
        try:
            result = self._call(lambda: self._client.payments.refund_captured_payment(
                {"capture_id": refund.reference, "paypal_request_id": refund.refund_code, "body": body,
                 "prefer": "return=representation"}))
        except ErrorException as error:
            return RefundResult(succeeded=False, error=_issue(error))
        return _refund_result(result)

    def refund_status(self, refund: RefundRequest, refund_reference: str | None) -> RefundResult:
        """A PENDING refund read back (GET /v2/payments/refunds/{id}): PayPal sends the console no
        notification, so this is how its outcome is known."""
        if not refund_reference:
            return self.refund(refund)  # its PayPal-Request-Id answers the first refund again
        try:
            result = self._call(lambda: self._client.payments.get_refund({"refund_id": refund_reference}))
        except ErrorException as error:
            raise PayPalError(f"PayPal refused to show the refund {refund_reference}: {_issue(error)}") from error
        return _refund_result(result)

    def parse_notification(self, headers: Mapping[str, str], body: bytes) -> Notification:
        # PayPal's checkout reaches the console through the payer's return (captured by confirm());
        # no PayPal notification is expected, and none could be verified without a webhook id.
        raise InvalidNotification("PayPal sends no notifications to this endpoint")

    @staticmethod
    def acknowledge(accepted: bool) -> Acknowledgement:
        return Acknowledgement(200 if accepted else 400, b"{}", "application/json")

    # --- automatic renewal: PayPal's vault, saved with the first payment ------------------------

    def start_with_mandate(self, request: PaymentRequest, code: str) -> PaymentStart:
        """The order, asking PayPal to vault the payer's PayPal for the merchant's later charges
        once it is paid (the payer approves both on the same page)."""
        vault = PaypalWalletVaultInstruction(
            store_in_vault=StoreInVaultInstruction.ON_SUCCESS, usage_type=PaypalPaymentTokenUsageType.MERCHANT,
            customer_type=PaypalPaymentTokenCustomerType.CONSUMER,
            usage_pattern=UsagePattern.SUBSCRIPTION_PREPAID)  # a year's service, charged before it
        return self._start(request, PaypalWalletAttributes(vault=vault))

    def mandate(self, request: PaymentRequest, code: str) -> str | None:
        """The payment token PayPal vaulted when the order was captured; None before (or when the
        order asked for none)."""
        if not request.reference:
            return None
        try:
            order = self._call(lambda: self._client.orders.get_order({"id": request.reference}), gone=(404,))
        except ErrorException as error:
            raise PayPalError(f"PayPal refused to show the order {request.reference}: {_issue(error)}") from error
        if order is None or _field(order, "status") != "COMPLETED" or self._unit(order, request.order_code) is None:
            return None
        paypal = _field(_field(order, "payment_source"), "paypal")
        vault = _field(_field(paypal, "attributes"), "vault")
        return _field(vault, "id") if _field(vault, "status") == "VAULTED" else None

    def charge(self, mandate: str, request: PaymentRequest) -> PaymentResult:
        """An order paid with the payment token, which PayPal completes at once without the payer.
        Its PayPal-Request-Id is the order's code: asked again, PayPal answers with the first
        order. A refusal (INSTRUMENT_DECLINED, a token deleted since) is an unpaid result."""
        wallet = PaypalWallet(vault_id=mandate, stored_credential=PaypalWalletStoredCredential(
            payment_initiator=PaymentInitiator.MERCHANT, usage=StoredPaymentSourceUsageType.SUBSEQUENT,
            usage_pattern=UsagePattern.SUBSCRIPTION_PREPAID))
        body = OrderRequest(intent=CheckoutPaymentIntent.CAPTURE, purchase_units=[_purchase_unit(request)],
                            payment_source=PaymentSource(paypal=wallet))
        try:
            order = self._call(lambda: self._client.orders.create_order(
                {"body": body, "paypal_request_id": request.order_code, "prefer": "return=representation"}))
        except ErrorException as error:
            issue = _issue(error)
            return PaymentResult(paid=False, error=issue, failure=_failure(issue))
        return self._order_result(order, request)

    def cancel(self, mandate: str, code: str) -> None:
        """Deletes the payment token; one deleted already is fine."""
        try:
            self._call(lambda: self._client.vault.delete_payment_token(mandate), gone=(404,))
        except ErrorException as error:
            raise PayPalError(f"PayPal refused to delete the payment token: {_issue(error)}") from error

    # --- helpers --------------------------------------------------------------------------------

    @staticmethod
    def _call(operation: Callable[[], ApiResponse], gone: Collection[int] = ()):
        """The body of the SDK call's answer (None for a status in `gone`: what was asked for is
        not there); ErrorException for PayPal's refusals of the operation itself, PayPalError
        where nothing can be concluded."""
        try:
            return operation().body
        except OAuthProviderException as error:
            reason = getattr(error, "error_description", None) or getattr(error, "error", None) or error.reason
            raise PayPalError(f"PayPal refused the client credentials: {getattr(error, 'error', '')} "
                              f"({reason})") from error
        except ApiException as error:
            if error.response_code in gone:
                return None
            if not isinstance(error, ErrorException):
                raise PayPalError(f"PayPal answered HTTP {error.response_code}: {error.reason}") from error
            if error.response_code == 401:
                raise PayPalError(f"PayPal refused the access token: {_issue(error)}") from error
            if error.response_code >= 500:
                raise PayPalError(f"PayPal failed: HTTP {error.response_code} {_issue(error)}") from error
            raise
        except requests.RequestException as error:
            raise PayPalError(f"PayPal did not answer: {error.__class__.__name__}: {error}") from error

    @staticmethod
    def _unit(order: object, order_code: str):
        """The order's purchase unit for our order code (invoice id), None if it is not ours."""
        for unit in _field(order, "purchase_units", []):
            if order_code in (_field(unit, "invoice_id"), _field(unit, "custom_id")):
                return unit
        return None

    def _order_result(self, order: object, request: PaymentRequest) -> PaymentResult:
        status = _field(order, "status")
        if status != "COMPLETED":
            # APPROVED: the payer approved but never came back; reconciliation captures it.
            return PaymentResult(paid=False, error=status or "no order status", approved=status == "APPROVED")
        unit = self._unit(order, request.order_code)
        if unit is None:
            return PaymentResult(paid=False, error="the PayPal order is not this order's")
        captures = _field(_field(unit, "payments"), "captures", [])
        if not captures:
            return PaymentResult(paid=False, error="the PayPal order has no capture")
        return self._capture_result(captures[-1], request)

    @staticmethod
    def _capture_result(capture: object, request: PaymentRequest) -> PaymentResult:
        capture_id, status = _field(capture, "id"), _field(capture, "status")
        invoice_id = _field(capture, "invoice_id")
        if invoice_id is not None and invoice_id != request.order_code:
            return PaymentResult(paid=False, error="the PayPal capture is not this order's")
        if status not in PAID_CAPTURE_STATUSES:  # PENDING (held for review), DECLINED, FAILED
            return PaymentResult(paid=False, reference=capture_id, error=f"capture {status}")
        amount = _field(capture, "amount")
        try:
            cents = to_cents(amount.value)
        except (AttributeError, TypeError, ValueError, InvalidOperation):
            return PaymentResult(paid=False, reference=capture_id, error="the capture carries no valid amount")
        # What PayPal captured, whatever was asked: the console compares amount and currency with
        # the order's when it settles.
        return PaymentResult(paid=True, amount_cents=cents, reference=capture_id, currency=amount.currency_code)
