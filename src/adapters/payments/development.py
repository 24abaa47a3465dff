"""The development payment gateway: stands in for every provider when PAYMENT_BACKEND is
`development` (the default of `make run` and the tests), so an order can be paid with no
provider and no network.

Its QR code (or PayPal approve page) is a link to the console's own development pay endpoint,
signed with the server's secret over the order code and amount, so nobody can forge a payment
for another order or a different sum. Paying it also authorises automatic renewals, whose charges
succeed. A wallet confirmation succeeds unless the payment method
id starts with `fail`, which lets tests take the declined path."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from urllib.parse import urlencode

from core.ordering.model import PaymentFailure
from core.ordering.payments import (
    Acknowledgement,
    InvalidNotification,
    Notification,
    PaymentRequest,
    PaymentResult,
    PaymentStart,
    RefundRequest,
    RefundResult,
)
from core.shared.edition import PayType

PAY_PATH = "/api/payment/development/pay"
_QR_TYPES = frozenset({PayType.WECHAT, PayType.ALIPAY})


class DevelopmentPaymentGateway:
    def __init__(self, public_base_url: str, secret: bytes) -> None:
        self._base = public_base_url.rstrip("/")
        self._secret = secret

    def signature(self, order_code: str, amount_cents: int) -> str:
        message = f"development-pay:{order_code}:{amount_cents}".encode()
        return hmac.new(self._secret, message, hashlib.sha256).hexdigest()

    def verify(self, order_code: str, amount_cents: int, signature: str) -> bool:
        return hmac.compare_digest(self.signature(order_code, amount_cents).encode(), signature.encode())

    def pay_link(self, request: PaymentRequest) -> str:
        query = {"order": request.order_code, "amount": request.amount_cents,
                 "signature": self.signature(request.order_code, request.amount_cents)}
        return f"{self._base}{PAY_PATH}?{urlencode(query)}"

    def start(self, request: PaymentRequest) -> PaymentStart:
        link = self.pay_link(request)
        reference = f"dev-{request.order_code}"
        if request.pay_type in _QR_TYPES:
            return PaymentStart(pay_qr_code=link, reference=reference)
        if request.pay_type is PayType.PAYPAL:
            return PaymentStart(approve_url=link, reference=reference)
        secret = self.signature(request.order_code, request.amount_cents)[:24]
        return PaymentStart(client_secret=f"{reference}_secret_{secret}", reference=reference)

    def start_jsapi(self, request: PaymentRequest, open_id: str) -> tuple[dict[str, str], str | None]:
        """Inside WeChat: the pay link stands in for WeixinJSBridge's sheet (under `payUrl`)."""
        return {"payUrl": self.pay_link(request)}, f"dev-{request.order_code}"

    def start_wap(self, request: PaymentRequest, return_url: str) -> PaymentStart:
        return PaymentStart(approve_url=self.pay_link(request), reference=f"dev-{request.order_code}")

    def confirm(self, request: PaymentRequest, payment_method_id: str) -> PaymentResult:
        if payment_method_id.startswith("fail"):
            return PaymentResult(paid=False, error="card_declined", failure=PaymentFailure.DECLINED,
                                 attempt=payment_method_id)
        return PaymentResult(paid=True, amount_cents=request.amount_cents, reference=f"dev-{request.order_code}",
                             currency=request.currency)

    def query(self, request: PaymentRequest) -> PaymentResult:
        """Only the pay link pays here, and it settles at once: nothing is ever paid unseen."""
        return PaymentResult(paid=False)

    def close(self, request: PaymentRequest) -> None:
        """The pay link of a closed order finds it no longer payable."""

    def refund(self, refund: RefundRequest) -> RefundResult:
        return RefundResult(succeeded=True, reference=f"dev-{refund.refund_code}")

    def refund_status(self, refund: RefundRequest, refund_reference: str | None) -> RefundResult:
        """Every refund here is paid back at once."""
        return RefundResult(succeeded=True, reference=refund_reference or f"dev-{refund.refund_code}")

    def parse_notification(self, headers: Mapping[str, str], body: bytes) -> Notification:
        raise InvalidNotification("the development gateway sends no notifications")

    @staticmethod
    def acknowledge(accepted: bool) -> Acknowledgement:
        return Acknowledgement(200 if accepted else 400, b'{"received": %s}' % (b"true" if accepted else b"false"),
                               "application/json")

    # --- automatic renewal: the pay link stands in for the authorisation too -----------------------

    def start_with_mandate(self, request: PaymentRequest, code: str) -> PaymentStart:
        return self.start(request)

    def mandate(self, request: PaymentRequest, code: str) -> str | None:
        """Paying the link authorised the renewals (only a paid order is asked)."""
        return f"dev-mandate-{code}"

    def charge(self, mandate: str, request: PaymentRequest) -> PaymentResult:
        return PaymentResult(paid=True, amount_cents=request.amount_cents, reference=f"dev-{request.order_code}",
                             currency=request.currency)

    def cancel(self, mandate: str, code: str) -> None:
        """Nothing to end: only this console charges it."""

    def open_id(self, code: str) -> str:
        """The WeChat OpenID of an OAuth code: derived from it, stable, in development."""
        return "dev-openid-" + hashlib.sha256(code.encode()).hexdigest()[:16]

