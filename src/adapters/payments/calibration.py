"""Calibration applications paid and paid back through the console's payment gateways (the same
WeChat Pay, Alipay, Stripe and PayPal adapters as orders, and the development gateway and sandbox):
core.calibration.ports.ApplicationPayments, with the application number as the provider's order
code. The console's own merchant accounts take them (camp 0): the lab is the console's.

How each scene starts (ports.PayScene): NATIVE is the gateway's own start (WeChat's native QR,
Alipay's precreated QR, Stripe's client secret, PayPal's approve page); JSAPI is WeChat Pay inside
WeChat with the payer's OpenID; WAP is Alipay's mobile page, which sends the payer back to
RETURN_PAGE."""

from __future__ import annotations

from typing import Protocol, cast, runtime_checkable
from urllib.parse import quote, urlencode

from core.calibration.ports import (
    ApplicationPayment,
    ApplicationRefund,
    PaidAtProvider,
    PaymentStarted,
    PayScene,
    RefundAnswer,
)
from core.ordering.payments import (
    PaymentGateway,
    PaymentGateways,
    PaymentRequest,
    PaymentStart,
    RefundOutcome,
    RefundRequest,
)

# The mobile page the customer is sent back to from Alipay's (it asks confirmCalibration).
RETURN_PAGE = "/mobile/calibration/apply/success"
DETAIL_PAGE = "/mobile/calibration/detail/"  # where a payer who gives up at the provider goes back
_ANSWERS = {RefundOutcome.SUCCEEDED: RefundAnswer.SUCCEEDED, RefundOutcome.PENDING: RefundAnswer.PENDING,
            RefundOutcome.FAILED: RefundAnswer.FAILED}


class _InWeChat(Protocol):
    def start_jsapi(self, request: PaymentRequest, open_id: str) -> tuple[dict[str, str], str | None]: ...


class _OnMobilePage(Protocol):
    def start_wap(self, request: PaymentRequest, return_url: str) -> PaymentStart: ...


@runtime_checkable
class _Returning(Protocol):
    """A provider whose payer approves on its pages and comes back (PayPal): to the application's page."""

    def start_returning(self, request: PaymentRequest, return_url: str, cancel_url: str) -> PaymentStart: ...


def payment_request(payment: ApplicationPayment) -> PaymentRequest:
    """The gateways' request of an application: order_id 0, no order of ordering's stands behind it."""
    return PaymentRequest(0, payment.number, payment.amount_cents, payment.currency, payment.description,
                          payment.pay_type, payment.created_at, payment.reference)


class GatewayApplicationPayments:
    def __init__(self, gateways: PaymentGateways, public_base_url: str) -> None:
        self._gateways, self._base = gateways, public_base_url.rstrip("/")

    def _gateway(self, payment: ApplicationPayment | ApplicationRefund) -> PaymentGateway:
        return self._gateways.at(0)[payment.pay_type]

    def start(self, payment: ApplicationPayment) -> PaymentStarted:
        gateway, request = self._gateway(payment), payment_request(payment)
        if payment.scene is PayScene.JSAPI:
            assert payment.open_id, "the core asks a JSAPI payment with the payer's OpenID"
            fields, reference = cast(_InWeChat, gateway).start_jsapi(request, payment.open_id)
            return PaymentStarted(fields, reference)
        back = f"{self._base}{RETURN_PAGE}?{urlencode({'number': payment.number})}"  # the page's own query
        if payment.scene is PayScene.WAP:
            start = cast(_OnMobilePage, gateway).start_wap(request, back)
        elif isinstance(gateway, _Returning):
            cancelled = f"{self._base}{DETAIL_PAGE}{quote(payment.number)}"
            start = gateway.start_returning(request, back, cancelled)
        else:
            start = gateway.start(request)
        return PaymentStarted(start.payer_fields(), start.reference)

    def paid(self, payment: ApplicationPayment, payment_method: str | None = None) -> PaidAtProvider | None:
        gateway, request = self._gateway(payment), payment_request(payment)
        # a wallet's payment method (Stripe) is charged now, as ordering's confirmPay does
        result = gateway.confirm(request, payment_method) if payment_method else gateway.query(request)
        if result.approved and payment.reference:  # PayPal: approved by the payer, captured now
            result = gateway.confirm(request, payment.reference)
        if not result.paid:
            return None
        return PaidAtProvider(result.amount_cents, result.currency, result.reference)

    def close(self, payment: ApplicationPayment) -> None:
        self._gateway(payment).close(payment_request(payment))

    def refund(self, refund: ApplicationRefund) -> RefundAnswer:
        """Asked again with the same refund code, a provider answers the first refund (paid once);
        one it accepted earlier is then asked how it stands (the resume job finishes it so)."""
        gateway = self._gateway(refund)
        request = RefundRequest(refund.number, refund.refund_code, refund.amount_cents, refund.total_cents,
                                refund.currency, refund.pay_type, refund.reference)
        result = gateway.refund(request)
        if result.pending:
            result = gateway.refund_status(request, result.reference)
        return _ANSWERS[result.outcome]
