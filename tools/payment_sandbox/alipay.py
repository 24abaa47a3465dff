"""Alipay's open platform gateway, as much of it as the console uses: alipay.trade.precreate, query,
close and refund at POST /alipay/gateway.do, alipay.trade.page.pay (the payer's browser opens it
and is sent on to the payer page), and the asynchronous notification of a paid trade; agreements
(商家扣款) and the trades charged under them are in alipay_agreement.py.

As Alipay does, it verifies the merchant's RSA2 signature (sorted `key=value` pairs joined with
`&`, `sign` and empty values left out) with the app's public key, answers
`{"<method with underscores>_response": {...}, "sign": "..."}` signed with "Alipay's" private key
over the exact text of the response object, and signs notifications over their sorted fields
without `sign` and `sign_type`. The signing here is written with `cryptography`, independently of
the SDK the adapter uses, so each side checks the other."""

from __future__ import annotations

import base64
import json
import re
import secrets
import threading
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from html import escape
from urllib.parse import urlencode

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey, RSAPublicKey
from flask import Blueprint, Response, redirect, request
from werkzeug.wrappers import Response as WerkzeugResponse

from payment_sandbox.ledger import SandboxPayment, Status
from payment_sandbox.provider import Delivery, SandboxConfig, SandboxContext, deliver

NAME = "alipay"
CHINA = timezone(timedelta(hours=8), "Asia/Shanghai")  # Alipay's times are Beijing time
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
_YUAN = re.compile(r"\d{1,10}(\.\d{1,2})?")
MAX_CENTS = 100_000_000_00
BUYER_ID, SELLER_ID, BUYER_LOGON = "2088102177846880", "2088101568338364", "sbx***@sandbox.com"
TRADE_STATUS = {Status.PENDING: "WAIT_BUYER_PAY", Status.PAID: "TRADE_SUCCESS", Status.FAILED: "TRADE_CLOSED",
                Status.CLOSED: "TRADE_CLOSED", Status.REFUNDED: "TRADE_CLOSED"}  # fully refunded: closed

_MISSING, _INVALID, _BUSINESS = "40001", "40002", "40004"
_MESSAGES = {_MISSING: "Missing Required Arguments", _INVALID: "Invalid Arguments", _BUSINESS: "Business Failed"}


def _error(code: str, sub_code: str, sub_msg: str) -> dict[str, str]:
    return {"code": code, "msg": _MESSAGES[code], "sub_code": sub_code, "sub_msg": sub_msg}


_INVALID_BIZ = _error(_INVALID, "isv.invalid-biz-content", "biz_content is not a JSON object")


def _biz(params: dict[str, str]) -> dict | None:
    """The request's biz_content; None when it is not a JSON object."""
    try:
        biz = json.loads(params.get("biz_content") or "{}")
    except ValueError:
        return None
    return biz if isinstance(biz, dict) else None


def _success(**fields: str) -> dict[str, str]:
    return {"code": "10000", "msg": "Success", **fields}


def _now() -> str:
    return datetime.now(CHINA).strftime(TIME_FORMAT)


def _yuan(cents: int) -> str:
    return str((Decimal(cents) / 100).quantize(Decimal("0.01")))


def _cents(value: object) -> int | None:
    """Alipay's amounts: yuan, at most two decimals, from 0.01 to 100000000."""
    if not isinstance(value, str) or not _YUAN.fullmatch(value):
        return None
    cents = int(Decimal(value) * 100)
    return cents if 0 < cents <= MAX_CENTS else None


def _trans_currency(payment: SandboxPayment) -> dict[str, str]:
    """Alipay names the currency of `total_amount` (trans_currency) only when it is not yuan, as on
    a cross-border trade."""
    return {} if payment.currency == "CNY" else {"trans_currency": payment.currency}


def _pem(body: str, label: str) -> bytes:
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----\n".encode()


def load_private_key(body: str) -> RSAPrivateKey:
    """A PKCS#1 key as Alipay's tools print it: the base64 body, no markers."""
    key = serialization.load_pem_private_key(_pem(body, "RSA PRIVATE KEY"), password=None)
    if not isinstance(key, RSAPrivateKey):
        raise ValueError("Alipay's keys are RSA keys")
    return key


def load_public_key(body: str) -> RSAPublicKey:
    """An SPKI public key as Alipay's tools print it: the base64 body, no markers."""
    key = serialization.load_pem_public_key(_pem(body, "PUBLIC KEY"))
    if not isinstance(key, RSAPublicKey):
        raise ValueError("Alipay's keys are RSA keys")
    return key


def sign_content(params: dict[str, str], *, leave_out: tuple[str, ...]) -> bytes:
    """Alipay's string to sign: the non-empty fields, sorted by name, as k=v joined with &."""
    pairs = sorted((k, v) for k, v in params.items() if k not in leave_out and v not in (None, ""))
    return "&".join(f"{k}={v}" for k, v in pairs).encode("utf-8")


def rsa2_sign(key: RSAPrivateKey, message: bytes) -> str:
    return base64.b64encode(key.sign(message, padding.PKCS1v15(), hashes.SHA256())).decode("ascii")


def rsa2_verify(key: RSAPublicKey, message: bytes, signature: str) -> bool:
    try:
        key.verify(base64.b64decode(signature, validate=True), message, padding.PKCS1v15(), hashes.SHA256())
    except (InvalidSignature, ValueError):
        return False
    return True


def new_trade_no() -> str:
    """Alipay's trade numbers: 28 digits, the date first."""
    return datetime.now(CHINA).strftime("%Y%m%d") + "2200" + "".join(str(secrets.randbelow(10)) for _ in range(16))


class AlipaySandbox:
    name = NAME

    def __init__(self, context: SandboxContext, config: SandboxConfig) -> None:
        credentials = config.credentials
        self._context = context
        self.app_id = credentials.alipay_app_id
        self._app_public_key = load_public_key(credentials.alipay_app_public_key)
        self._private_key = load_private_key(credentials.alipay_private_key)
        self._lock = threading.Lock()  # one change at a time: a retried refund must not pay twice
        from payment_sandbox.alipay_agreement import Agreements  # here: it builds on this module

        self.agreements = Agreements(self, context)
        self._methods = {"alipay.trade.precreate": self._precreate, "alipay.trade.query": self._query,
                         "alipay.trade.close": self._close, "alipay.trade.refund": self._refund,
                         "alipay.trade.fastpay.refund.query": self._refund_query,
                         **self.agreements.methods()}
        self._pages = {"alipay.trade.page.pay": self._page_pay,  # opened by the payer's browser
                       "alipay.trade.wap.pay": self._wap_pay}

    # --- the gateway -------------------------------------------------------------------------------

    def blueprint(self) -> Blueprint:
        blueprint = Blueprint("alipay_sandbox", __name__)
        blueprint.add_url_rule("/gateway.do", "gateway", self._gateway, methods=["GET", "POST"])
        return blueprint

    def _gateway(self) -> WerkzeugResponse:
        # The SDK sends the common parameters in the query string and biz_content in the form (a
        # page's URL carries both in its query string).
        params = {**request.args.to_dict(), **request.form.to_dict()}
        method = params.get("method", "")
        if method in self._pages:
            return self._page(params, method)
        key = f"{method.replace('.', '_')}_response" if method in self._methods else "error_response"
        answer = self._check(params, method)
        if answer is None:
            biz = _biz(params)
            answer = _INVALID_BIZ if biz is None else self._methods[method](params, biz)
        return self._answer(key, answer)

    def _page(self, params: dict[str, str], method: str) -> WerkzeugResponse:
        """A page the payer's browser opens: on to the payer page, or Alipay's error page."""
        answer: SandboxPayment | dict[str, str] | None = self._check(params, method)
        if answer is None:
            biz = _biz(params)
            answer = _INVALID_BIZ if biz is None else self._pages[method](params, biz)
        if isinstance(answer, SandboxPayment):
            return redirect(self._context.payer_page(NAME, answer.id), code=302)
        page = (f"<!doctype html><title>支付宝 - 错误</title><h1>{escape(answer['sub_code'])}</h1>"
                f"<p>{escape(answer['sub_msg'])}</p>")
        return Response(page, status=400, content_type="text/html; charset=utf-8")

    def _check(self, params: dict[str, str], method: str) -> dict[str, str] | None:
        """The gateway's checks, in Alipay's order, before any business."""
        if not method:
            return _error(_MISSING, "isv.missing-method", "缺少方法名参数")
        if method not in self._methods and method not in self._pages:
            return _error(_INVALID, "isv.invalid-method", "不存在的方法名")
        if not params.get("app_id"):
            return _error(_MISSING, "isv.missing-app-id", "缺少AppID参数")
        if params["app_id"] != self.app_id:
            return _error(_INVALID, "isv.invalid-app-id", "无效的AppID参数")
        if not params.get("sign"):
            return _error(_MISSING, "isv.missing-signature", "缺少签名参数")
        if not params.get("sign_type"):
            return _error(_MISSING, "isv.missing-signature-type", "缺少签名类型参数")
        if params["sign_type"] != "RSA2":
            return _error(_INVALID, "isv.invalid-signature-type", "无效的签名类型参数")
        if not params.get("timestamp"):
            return _error(_MISSING, "isv.missing-timestamp", "缺少时间戳参数")
        try:
            datetime.strptime(params["timestamp"], TIME_FORMAT)
        except ValueError:
            return _error(_INVALID, "isv.invalid-timestamp", "非法的时间戳参数")
        if params.get("charset", "utf-8").lower() != "utf-8":
            return _error(_INVALID, "isv.invalid-charset", "字符集错误")
        content = sign_content(params, leave_out=("sign",))
        if not rsa2_verify(self._app_public_key, content, params["sign"]):
            return _error(_INVALID, "isv.invalid-signature",
                          f"验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配，网关生成的验签字符串为：{content.decode()}")
        return None

    def _answer(self, key: str, content: dict[str, str]) -> Response:
        """Alipay's answer: the response object and, beside it, the signature of its exact text."""
        text = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
        signature = rsa2_sign(self._private_key, text.encode("utf-8"))
        body = f'{{"{key}":{text},"sign":"{signature}"}}'
        return Response(body.encode("utf-8"), status=200, content_type="application/json;charset=utf-8")

    def _find(self, biz: dict) -> SandboxPayment | None:
        trade_no, order_code = biz.get("trade_no"), biz.get("out_trade_no")
        if trade_no:
            payment = self._context.ledger.get(str(trade_no))
            if payment is None or payment.provider != NAME or (order_code and payment.order_code != order_code):
                return None
            return payment
        return self._context.ledger.by_order(NAME, str(order_code)) if order_code else None

    def _precreate(self, params: dict[str, str], biz: dict) -> dict[str, str]:
        trade = self._trade(params, biz)
        if not isinstance(trade, SandboxPayment):
            return trade
        return _success(out_trade_no=trade.order_code, qr_code=self._context.payer_page(NAME, trade.id))

    def _page_pay(self, params: dict[str, str], biz: dict) -> SandboxPayment | dict[str, str]:
        """A trade paid on Alipay's pages; with agreement_sign_params, paying it signs the agreement."""
        if biz.get("product_code") != "FAST_INSTANT_TRADE_PAY":
            return _error(_BUSINESS, "ACQ.INVALID_PARAMETER", "product_code: FAST_INSTANT_TRADE_PAY")
        extra: dict[str, object] = {}
        if "agreement_sign_params" in biz:
            asked = self.agreements.asked(biz["agreement_sign_params"], params)
            if "sub_code" in asked:
                return asked
            extra["agreement"] = asked
        return self._trade(params, biz, extra)

    def _wap_pay(self, params: dict[str, str], biz: dict) -> SandboxPayment | dict[str, str]:
        """A trade paid on Alipay's mobile pages (a phone's browser)."""
        if biz.get("product_code") != "QUICK_WAP_WAY":
            return _error(_BUSINESS, "ACQ.INVALID_PARAMETER", "product_code: QUICK_WAP_WAY")
        return self._trade(params, biz, {"return_url": params["return_url"]} if params.get("return_url") else None)

    def _trade(self, params: dict[str, str], biz: dict,
               extra: dict[str, object] | None = None) -> SandboxPayment | dict[str, str]:
        """The trade of a precreate or a page: new, or the same unpaid one asked for again."""
        order_code, subject, cents = biz.get("out_trade_no"), biz.get("subject"), _cents(biz.get("total_amount"))
        if not isinstance(order_code, str) or not 0 < len(order_code) <= 64 or not subject or cents is None:
            return _error(_BUSINESS, "ACQ.INVALID_PARAMETER", "参数无效")
        with self._lock:
            payment = self._context.ledger.by_order(NAME, order_code)
            if payment is not None:
                if payment.status in (Status.PAID, Status.REFUNDED):
                    return _error(_BUSINESS, "ACQ.TRADE_HAS_SUCCESS", "交易已被支付")
                if payment.status is not Status.PENDING:
                    return _error(_BUSINESS, "ACQ.TRADE_HAS_CLOSE", "交易已经关闭")
                if payment.amount_cents != cents:
                    return _error(_BUSINESS, "ACQ.CONTEXT_INCONSISTENT", "交易信息被篡改")
            else:
                payment = self._context.ledger.add(SandboxPayment(
                    id=new_trade_no(), provider=NAME, order_code=order_code, amount_cents=cents, currency="CNY",
                    description=str(subject), notify_url=params.get("notify_url") or None,
                    extra={"gmt_create": _now(), "timeout_express": biz.get("timeout_express"), **(extra or {})}))
        return payment

    def _query(self, params: dict[str, str], biz: dict) -> dict[str, str]:
        payment = self._find(biz)
        if payment is None:
            return _error(_BUSINESS, "ACQ.TRADE_NOT_EXIST", "交易不存在")
        amount = _yuan(payment.amount_cents)
        fields = {"trade_no": payment.id, "out_trade_no": payment.order_code,
                  "trade_status": TRADE_STATUS[payment.status], "total_amount": amount,
                  **_trans_currency(payment)}
        if "gmt_payment" in payment.extra:
            fields.update(buyer_logon_id=BUYER_LOGON, buyer_user_id=BUYER_ID, buyer_pay_amount=amount,
                          receipt_amount=amount, invoice_amount=amount, point_amount="0.00",
                          send_pay_date=payment.extra["gmt_payment"])
        return _success(**fields)

    def _close(self, params: dict[str, str], biz: dict) -> dict[str, str]:
        with self._lock:
            payment = self._find(biz)
            if payment is None:
                return _error(_BUSINESS, "ACQ.TRADE_NOT_EXIST", "交易不存在")
            if self._context.ledger.transition(payment.id, Status.PENDING, status=Status.CLOSED) is None:
                return _error(_BUSINESS, "ACQ.TRADE_STATUS_ERROR", "交易状态不合法")
        return _success(trade_no=payment.id, out_trade_no=payment.order_code)

    def _refund(self, params: dict[str, str], biz: dict) -> dict[str, str]:
        cents = _cents(biz.get("refund_amount"))
        if cents is None:
            return _error(_BUSINESS, "ACQ.INVALID_PARAMETER", "参数无效")
        with self._lock:
            payment = self._find(biz)
            if payment is None:
                return _error(_BUSINESS, "ACQ.TRADE_NOT_EXIST", "交易不存在")
            request_no = str(biz.get("out_request_no") or payment.order_code)
            fund_change = "N"  # the same out_request_no is paid back once: a retry changes nothing
            if request_no not in payment.refunds:
                if payment.status is not Status.PAID:
                    return _error(_BUSINESS, "ACQ.TRADE_STATUS_ERROR", "交易状态不合法")
                if cents > payment.amount_cents - payment.refunded_cents:
                    return _error(_BUSINESS, "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL", "退款金额超限")
                refunded = payment.refunded_cents + cents
                payment = self._context.ledger.update(
                    payment.id, refunded_cents=refunded, refunds=(*payment.refunds, request_no),
                    status=Status.REFUNDED if refunded == payment.amount_cents else Status.PAID,
                    extra={**payment.extra, f"refund:{request_no}": _now(), f"amount:{request_no}": _yuan(cents)})
                fund_change = "Y"
        return _success(trade_no=payment.id, out_trade_no=payment.order_code, buyer_logon_id=BUYER_LOGON,
                        fund_change=fund_change, refund_fee=_yuan(payment.refunded_cents),
                        gmt_refund_pay=payment.extra[f"refund:{request_no}"], buyer_user_id=BUYER_ID)

    def _refund_query(self, params: dict[str, str], biz: dict) -> dict[str, str]:
        """alipay.trade.fastpay.refund.query: a refund made (Alipay's are synchronous) answers
        refund_status REFUND_SUCCESS; one never made answers no refund fields."""
        request_no = str(biz.get("out_request_no") or "")
        with self._lock:
            payment = self._find(biz)
            if payment is None:
                return _error(_BUSINESS, "ACQ.TRADE_NOT_EXIST", "交易不存在")
        if not request_no or request_no not in payment.refunds:
            return _success(trade_no=payment.id, out_trade_no=payment.order_code)
        return _success(trade_no=payment.id, out_trade_no=payment.order_code, out_request_no=request_no,
                        total_amount=_yuan(payment.amount_cents), refund_amount=payment.extra[f"amount:{request_no}"],
                        refund_status="REFUND_SUCCESS", gmt_refund_pay=payment.extra[f"refund:{request_no}"])

    def finish_refund(self, refund_no: str, succeeded: bool, notify: bool = True) -> Delivery | None:
        """Alipay's refunds are final when answered; what comes later is the trade's asynchronous
        notification with the refund's fields (out_biz_no, refund_fee: all refunded so far,
        gmt_refund; trade_status TRADE_SUCCESS, or TRADE_CLOSED once all is refunded). A refund
        cannot fail afterwards here: `succeeded` False is refused (ValueError)."""
        payment = next((p for p in self._context.ledger.all(NAME) if refund_no in p.refunds), None)
        if payment is None:
            raise KeyError(refund_no)
        if not succeeded:
            raise ValueError("an Alipay refund is final when answered")
        if not notify or not payment.notify_url:
            return None
        headers, body = self.refund_notification(payment, refund_no)
        return deliver(payment.notify_url, body, headers)

    def refund_notification(self, payment: SandboxPayment, refund_no: str,
                            **overrides: str) -> tuple[dict[str, str], bytes]:
        """The signed trade notification Alipay sends after a refund (headers, form body)."""
        return self.notification(payment, out_biz_no=refund_no, refund_fee=_yuan(payment.refunded_cents),
                                 gmt_refund=payment.extra[f"refund:{refund_no}"] + ".000", **overrides)

    # --- the payer page and the notification ----------------------------------------------------------

    def complete(self, payment: SandboxPayment, paid: bool, notify: bool = True) -> Delivery | None:
        """The payer paid (or gave up: Alipay sends no notification for that, the trade waits
        until it times out; here it is closed). Paying a trade that asks for an agreement signs it,
        told after the trade."""
        with self._lock:
            changes = {"status": Status.PAID, "extra": {**payment.extra, "gmt_payment": _now()}} if paid else \
                {"status": Status.FAILED}
            settled = self._context.ledger.transition(payment.id, Status.PENDING, **changes)
        if settled is None or not paid:
            return None
        agreement = self.agreements.sign(settled)
        delivery = None
        if notify and settled.notify_url:
            headers, body = self.notification(settled)
            delivery = deliver(settled.notify_url, body, headers)
        if notify and agreement is not None:
            self.agreements.tell(agreement, "dut_user_sign")
        return delivery

    def notification(self, payment: SandboxPayment, **overrides: str) -> tuple[dict[str, str], bytes]:
        """The signed asynchronous notification of the payment as Alipay POSTs it to the notify_url
        (headers, form body). `overrides` replace fields before signing (tests)."""
        amount = _yuan(payment.amount_cents)
        fields = {
            "notify_time": _now(), "notify_type": "trade_status_sync", "notify_id": secrets.token_hex(16),
            "app_id": self.app_id, "auth_app_id": self.app_id, "charset": "utf-8", "version": "1.0",
            "sign_type": "RSA2", "trade_no": payment.id, "out_trade_no": payment.order_code,
            "subject": payment.description, "buyer_id": BUYER_ID, "buyer_logon_id": BUYER_LOGON,
            "seller_id": SELLER_ID, "total_amount": amount, "receipt_amount": amount, "buyer_pay_amount": amount,
            "invoice_amount": amount, "point_amount": "0.00", "trade_status": TRADE_STATUS[payment.status],
            "gmt_create": payment.extra.get("gmt_create", ""), "gmt_payment": payment.extra.get("gmt_payment", ""),
            **_trans_currency(payment), **overrides,
        }
        return self.signed_notification(fields)

    def signed_notification(self, fields: dict[str, str]) -> tuple[dict[str, str], bytes]:
        """A notification of these fields as Alipay POSTs it (headers, form body), signed over
        those that are not empty, sign_type left out."""
        fields = {k: v for k, v in fields.items() if v not in (None, "")}
        fields["sign"] = rsa2_sign(self._private_key, sign_content(fields, leave_out=("sign", "sign_type")))
        headers = {"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"}
        return headers, urlencode(fields).encode("ascii")

    def after_payment_url(self, payment: SandboxPayment, paid: bool) -> str | None:
        """A mobile page's payer goes back to the merchant's return_url once paid, with the trade's
        keys appended as Alipay appends them (its signature left out: the merchant asks the trade,
        never trusts the return); a failed one stays on Alipay's page, as there."""
        back = payment.extra.get("return_url")
        if not paid or not isinstance(back, str):
            return None
        keys = {"out_trade_no": payment.order_code, "trade_no": payment.id, "total_amount": _yuan(payment.amount_cents),
                "method": "alipay.trade.wap.pay.return"}
        return f"{back}{'&' if '?' in back else '?'}{urlencode(keys)}"
