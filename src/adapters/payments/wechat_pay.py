"""WeChat Pay (pay type 1) through wechatpy: API v2, XML signed with the merchant's API key (MD5).

The payer scans a native QR code (`code_url` of a unified order); WeChat POSTs the payment result
to our notify URL. Amounts are fen, which are our cents, so they pass through unchanged.

Refunds go to `secapi/pay/refund`, which accepts them; WeChat tells their outcome later in a
refund notification to the same notify URL (its req_info encrypted with our API key's MD5), and
`pay/refundquery` answers it too. `secapi/pay/refund` at WeChat needs the merchant's API
certificate (TLS client certificate). wechatpy attaches it to every request when both `mch_cert` and `mch_key`
(file paths) are given, and sends none otherwise; the sandbox needs none, so both default to None."""

from __future__ import annotations

from collections.abc import Mapping

from wechatpy.exceptions import InvalidSignatureException, WeChatException, WeChatPayException
from wechatpy.oauth import WeChatOAuth
from wechatpy.pay import WeChatPay

from core.ordering.payments import (
    Acknowledgement,
    InvalidNotification,
    MandateEnded,
    Notification,
    PaymentRequest,
    PaymentResult,
    PaymentStart,
    RefundNotification,
    RefundOutcome,
    RefundRequest,
    RefundResult,
)

CURRENCY = "CNY"
# A refund notification's refund_status: CHANGE is WeChat's failure (the money could not be returned
# to the payer), REFUNDCLOSE a refund WeChat closed.
_REFUND_OUTCOMES = {"SUCCESS": RefundOutcome.SUCCEEDED, "CHANGE": RefundOutcome.FAILED,
                    "REFUNDCLOSE": RefundOutcome.FAILED}
BODY_MAX_BYTES = 128  # WeChat's limit on an order's `body`
ACK_CONTENT_TYPE = "text/xml"


def _ack(code: str, message: str) -> bytes:
    return (f"<xml><return_code><![CDATA[{code}]]></return_code>"
            f"<return_msg><![CDATA[{message}]]></return_msg></xml>").encode()


ACCEPTED, REFUSED = _ack("SUCCESS", "OK"), _ack("FAIL", "FAIL")


def _body(request: PaymentRequest) -> str:
    """The order's description, cut to WeChat's 128 bytes. wechatpy writes text into CDATA
    without escaping, so a `]]>` would end it early and let the text add fields: drop it."""
    text = (request.description or f"Order {request.order_code}").replace("]]>", "")
    return text.encode()[:BODY_MAX_BYTES].decode("utf-8", "ignore")


def _currency(data: Mapping[str, object]) -> str:
    """The currency of total_fee: fee_type, which WeChat leaves out for yuan (its default)."""
    return str(data.get("fee_type") or CURRENCY)


def _error(error: WeChatException) -> str:
    """WeChat's err_code and its description, e.g. `ORDERNOTEXIST: 订单不存在`."""
    if isinstance(error, WeChatPayException):
        code = error.errcode or error.return_code or "FAIL"
        message = error.errmsg or error.return_msg
    else:
        code, message = type(error).__name__, error.errmsg
    return f"{code}: {message}" if message and message != code else str(code)


class _OAuth(WeChatOAuth):
    """wechatpy's OAuth client takes no time-out and passes none to requests, which then waits for
    ever: give every request one."""

    def __init__(self, *args, timeout: float, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.timeout = timeout

    def _request(self, method, url_or_endpoint, **kwargs):
        kwargs.setdefault("timeout", self.timeout)
        return super()._request(method, url_or_endpoint, **kwargs)


class WechatPayGateway:
    def __init__(self, base_url: str, app_id: str, mch_id: str, api_key: str, notify_url: str, *,
                 client_ip: str = "127.0.0.1", timeout: float = 10.0, oauth_secret: str | None = None,
                 oauth_base_url: str | None = None, mch_cert: str | None = None, mch_key: str | None = None) -> None:
        """`base_url` is WeChat Pay's API root (https://api.mch.weixin.qq.com/ or the sandbox's
        /wechat/). `client_ip` is sent as spbill_create_ip: without it wechatpy looks up WeChat's
        host name to find our address. `oauth_secret` is the official account's app secret (the
        sandbox takes the API key, the default). `oauth_base_url` defaults to WeChat's OAuth host
        with WeChat Pay's real base URL, and to `base_url` otherwise (the sandbox serves both)."""
        if not api_key.strip():
            # wechatpy leaves an empty key out of the signature: anybody could sign as WeChat.
            raise ValueError("WeChat Pay's API key is empty: notifications could not be verified")
        base_url = base_url if base_url.endswith("/") else base_url + "/"
        self._app_id, self._mch_id = app_id, mch_id
        self._notify_url, self._client_ip = notify_url, client_ip
        self._pay = WeChatPay(app_id, api_key, mch_id, mch_cert=mch_cert, mch_key=mch_key, timeout=timeout)
        self._pay.API_BASE_URL = base_url  # wechatpy builds every URL as f"{API_BASE_URL}{endpoint}"
        if oauth_base_url is None:
            oauth_base_url = WeChatOAuth.API_BASE_URL if base_url == WeChatPay.API_BASE_URL else base_url
        self._oauth_base_url = oauth_base_url if oauth_base_url.endswith("/") else oauth_base_url + "/"
        self._oauth_secret = api_key if oauth_secret is None else oauth_secret
        self._timeout = timeout

    def _checked(self, data: Mapping[str, str]) -> Mapping[str, str]:
        """WeChat's answer, once its signature and merchant are ours (wechatpy checks neither)."""
        if not self._pay.check_signature(dict(data)):
            raise InvalidSignatureException(errmsg="WeChat Pay's answer is not signed with our API key")
        if data.get("appid") != self._app_id or data.get("mch_id") != self._mch_id:
            raise InvalidSignatureException(errmsg="WeChat Pay's answer is for another merchant")
        return data

    def start(self, request: PaymentRequest) -> PaymentStart:
        """A native (QR code) order. Raises WeChatPayException when WeChat refuses it (e.g.
        ORDERPAID, OUT_TRADE_NO_USED) and requests' exceptions when it cannot be reached in time."""
        if request.currency.upper() != CURRENCY:
            raise ValueError(f"WeChat Pay takes {CURRENCY}, not {request.currency}")
        data = self._checked(self._pay.order.create(
            trade_type="NATIVE", body=_body(request), total_fee=int(request.amount_cents),
            out_trade_no=request.order_code, notify_url=self._notify_url, client_ip=self._client_ip,
            product_id=request.order_code, fee_type=CURRENCY))
        return PaymentStart(pay_qr_code=data["code_url"], reference=data.get("prepay_id"))

    def start_jsapi(self, request: PaymentRequest, open_id: str) -> tuple[dict[str, str], str | None]:
        """A JSAPI order, paid inside WeChat by the payer `open_id` (our official account's OpenID
        of them): the parameters WeixinJSBridge's getBrandWCPayRequest takes, signed with our API
        key, and WeChat's prepay_id. Raises as start() does."""
        if request.currency.upper() != CURRENCY:
            raise ValueError(f"WeChat Pay takes {CURRENCY}, not {request.currency}")
        data = self._checked(self._pay.order.create(
            trade_type="JSAPI", body=_body(request), total_fee=int(request.amount_cents),
            out_trade_no=request.order_code, notify_url=self._notify_url, client_ip=self._client_ip,
            user_id=open_id, fee_type=CURRENCY))
        prepay_id = data["prepay_id"]
        return {k: str(v) for k, v in self._pay.jsapi.get_jsapi_params(prepay_id).items()}, prepay_id

    def confirm(self, request: PaymentRequest, payment_method_id: str) -> PaymentResult:
        return PaymentResult(paid=False, error="not supported")

    def query(self, request: PaymentRequest) -> PaymentResult:
        """Paid only when trade_state is SUCCESS; otherwise `error` holds the trade_state (NOTPAY,
        CLOSED, REFUND, PAYERROR...) or WeChat's err_code (ORDERNOTEXIST)."""
        try:
            data = self._checked(self._pay.order.query(out_trade_no=request.order_code))
        except WeChatException as error:
            return PaymentResult(paid=False, error=_error(error))
        state = data.get("trade_state")
        amount = int(data.get("total_fee") or 0)
        if state == "SUCCESS":
            return PaymentResult(paid=True, amount_cents=amount, reference=data.get("transaction_id"),
                                 currency=_currency(data))
        return PaymentResult(paid=False, amount_cents=amount, error=state or "UNKNOWN")

    def close(self, request: PaymentRequest) -> None:
        """Closed, or already closed, or never ordered at WeChat: done. Raises WeChatPayException
        with errcode ORDERPAID when the payer paid meanwhile."""
        try:
            self._checked(self._pay.order.close(out_trade_no=request.order_code))
        except WeChatPayException as error:
            if error.errcode not in ("ORDERCLOSED", "ORDERNOTEXIST"):
                raise

    def refund(self, refund: RefundRequest) -> RefundResult:
        """By our order code (WeChat's out_trade_no); the refund code is out_refund_no, so a retry
        gets the first refund's answer and is not paid twice. WeChat's SUCCESS only accepts the
        refund: its outcome comes in a refund notification to our notify URL, or from
        refund_status, so the result is pending with WeChat's refund_id."""
        if refund.currency.upper() != CURRENCY:
            return RefundResult(succeeded=False, error=f"currency {refund.currency} is not {CURRENCY}")
        try:
            data = self._checked(self._pay.refund.apply(
                total_fee=int(refund.total_cents), refund_fee=int(refund.amount_cents),
                out_refund_no=refund.refund_code, out_trade_no=refund.order_code, fee_type=CURRENCY,
                notify_url=self._notify_url))
        except WeChatException as error:
            return RefundResult(succeeded=False, error=_error(error))
        return RefundResult(succeeded=False, pending=True, reference=data.get("refund_id"))

    def refund_status(self, refund: RefundRequest, refund_reference: str | None) -> RefundResult:
        """pay/refundquery by our refund code: refund_status_N SUCCESS is paid back, PROCESSING
        pending, CHANGE (the money could not be returned) and REFUNDCLOSE failed. A refund WeChat
        does not know (REFUNDNOTEXIST) was never made. Raises when WeChat does not answer."""
        try:
            data = self._checked(self._pay.refund.query(out_refund_no=refund.refund_code))
        except WeChatPayException as error:
            if error.errcode == "REFUNDNOTEXIST":
                return RefundResult(succeeded=False, error=_error(error))
            raise
        count = int(data.get("refund_count") or 0)
        n = next((n for n in range(count) if data.get(f"out_refund_no_{n}") == refund.refund_code), None)
        if n is None:
            raise InvalidSignatureException(errmsg=f"WeChat Pay answered without refund {refund.refund_code}")
        status, reference = data.get(f"refund_status_{n}"), data.get(f"refund_id_{n}") or refund_reference
        if status == "PROCESSING":
            return RefundResult(succeeded=False, pending=True, reference=reference)
        return RefundResult(succeeded=status == "SUCCESS", reference=reference,
                            error=None if status == "SUCCESS" else f"refund {status}")

    def _verified(self, body: bytes) -> dict:
        """A notification's fields, once its signature is our API key's."""
        try:
            return self._pay.parse_payment_result(body)
        except InvalidSignatureException as error:
            raise InvalidNotification("WeChat Pay notification: bad signature") from error
        except (ValueError, TypeError, AttributeError, KeyError) as error:  # not a flat <xml> document
            raise InvalidNotification("WeChat Pay notification: not WeChat's XML") from error

    def parse_notification(self, headers: Mapping[str, str],
                           body: bytes) -> Notification | RefundNotification | MandateEnded:
        """The payment-result notification, signed with our API key and addressed to us; or a
        refund notification, whose req_info only our API key decrypts."""
        if b"<req_info>" in body:  # a payment result has no such field
            return self._refund_result(body)
        return self._payment_result(self._verified(body))

    def _refund_result(self, body: bytes) -> RefundNotification:
        """The refund notification: unsigned, its fields encrypted with the MD5 of our API key
        (wechatpy decrypts, and checks our app id and merchant id): only WeChat can write it."""
        try:
            data = self._pay.parse_refund_notify_result(body)
            refund_code, status, amount = data["out_refund_no"], data["refund_status"], data["refund_fee"]
        except Exception as error:  # another merchant, not decryptable with our key, not WeChat's fields
            raise InvalidNotification("WeChat Pay refund notification: not ours") from error
        if not isinstance(amount, int) or status not in _REFUND_OUTCOMES:
            raise InvalidNotification(f"WeChat Pay refund notification: refund_status {status!r}")
        return RefundNotification(
            refund_code=refund_code, outcome=_REFUND_OUTCOMES[status], amount_cents=amount, currency=CURRENCY,
            reference=data.get("refund_id"), order_code=data.get("out_trade_no"),
            error=None if status == "SUCCESS" else f"refund {status}")

    def _payment_result(self, data: Mapping) -> Notification:
        if data.get("appid") != self._app_id or data.get("mch_id") != self._mch_id:
            raise InvalidNotification("WeChat Pay notification for another merchant")
        order_code = data.get("out_trade_no")
        if data.get("return_code") != "SUCCESS" or not order_code:
            raise InvalidNotification("WeChat Pay notification without a payment result")
        paid = data.get("result_code") == "SUCCESS"
        amount = data.get("total_fee")
        if paid and not isinstance(amount, int):
            raise InvalidNotification("WeChat Pay notification without total_fee")
        return Notification(order_code=order_code, paid=paid, amount_cents=amount if isinstance(amount, int) else 0,
                            reference=data.get("transaction_id"), currency=_currency(data))

    @staticmethod
    def acknowledge(accepted: bool) -> Acknowledgement:
        """WeChat stops retrying on return_code SUCCESS; FAIL asks it to send again later."""
        return Acknowledgement(200, ACCEPTED if accepted else REFUSED, ACK_CONTENT_TYPE)

    def open_id(self, code: str) -> str:
        """The OpenID of the WeChat user who authorised our official account with `code` (OAuth
        snsapi_base). Raises WeChatOAuthException when WeChat refuses the code."""
        oauth = _OAuth(self._app_id, self._oauth_secret, "", timeout=self._timeout)
        oauth.API_BASE_URL = self._oauth_base_url
        return oauth.fetch_access_token(code)["openid"]
