"""Alipay (pay type 2, domestic, CNY) on the official alipay-sdk-python: a precreated trade whose
QR code the payer scans, its asynchronous notification, query, close and refund.

Alipay speaks yuan as strings with two decimals ("99.00"); the port speaks integer cents. Every
answer of the gateway is signed by Alipay (RSA2): the SDK checks it with Alipay's public key
before we read it, and so do we for notifications, which the SDK has no helper for."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from http.client import HTTPConnection, HTTPSConnection
from typing import TypeVar
from urllib.parse import parse_qsl, urlsplit

from alipay.aop.api.AlipayClientConfig import AlipayClientConfig
from alipay.aop.api.DefaultAlipayClient import DefaultAlipayClient
from alipay.aop.api.domain.AlipayTradeCloseModel import AlipayTradeCloseModel
from alipay.aop.api.domain.AlipayTradeFastpayRefundQueryModel import AlipayTradeFastpayRefundQueryModel
from alipay.aop.api.domain.AlipayTradePrecreateModel import AlipayTradePrecreateModel
from alipay.aop.api.domain.AlipayTradeQueryModel import AlipayTradeQueryModel
from alipay.aop.api.domain.AlipayTradeRefundModel import AlipayTradeRefundModel
from alipay.aop.api.domain.AlipayTradeWapPayModel import AlipayTradeWapPayModel
from alipay.aop.api.request.AlipayTradeCloseRequest import AlipayTradeCloseRequest
from alipay.aop.api.request.AlipayTradeFastpayRefundQueryRequest import AlipayTradeFastpayRefundQueryRequest
from alipay.aop.api.request.AlipayTradePrecreateRequest import AlipayTradePrecreateRequest
from alipay.aop.api.request.AlipayTradeQueryRequest import AlipayTradeQueryRequest
from alipay.aop.api.request.AlipayTradeRefundRequest import AlipayTradeRefundRequest
from alipay.aop.api.request.AlipayTradeWapPayRequest import AlipayTradeWapPayRequest
from alipay.aop.api.response.AlipayTradeCloseResponse import AlipayTradeCloseResponse
from alipay.aop.api.response.AlipayTradeFastpayRefundQueryResponse import AlipayTradeFastpayRefundQueryResponse
from alipay.aop.api.response.AlipayTradePrecreateResponse import AlipayTradePrecreateResponse
from alipay.aop.api.response.AlipayTradeQueryResponse import AlipayTradeQueryResponse
from alipay.aop.api.response.AlipayTradeRefundResponse import AlipayTradeRefundResponse
from alipay.aop.api.util import WebUtils
from alipay.aop.api.util.SignatureUtils import get_sign_content, verify_with_rsa

from core.ordering.payments import (
    PAYMENT_VALIDITY,
    Acknowledgement,
    InvalidNotification,
    MandateEnded,
    Notification,
    PaymentRequest,
    PaymentResult,
    PaymentStart,
    Provider,
    RefundNotification,
    RefundOutcome,
    RefundRequest,
    RefundResult,
)

CURRENCY = "CNY"
SUCCESS_CODE = "10000"
PAID_STATUSES = frozenset({"TRADE_SUCCESS", "TRADE_FINISHED"})
TRADE_NOT_EXIST = "ACQ.TRADE_NOT_EXIST"
_YUAN = re.compile(r"\d{1,10}(\.\d{1,2})?")
_SUBJECT_FORBIDDEN = re.compile(r"[/=&]")  # Alipay refuses these in a subject
_SUBJECT_MAX = 256


def _http_connection(url: str, query_string: str, timeout: float):
    """Stands in for alipay-sdk-python 3.7's `util.WebUtils.get_http_connection`, which always
    connects to port 80 (443 for https) whatever the URL says, then fails adding the URL's int
    port to a str, so a gateway such as the sandbox's http://127.0.0.1:PORT cannot be reached.
    Same contract: (request target, unopened connection); the target is the path and query."""
    parts = urlsplit(url)
    if not parts.hostname:
        raise AlipayError(f"the Alipay gateway URL {url!r} names no host")
    connection_class = HTTPSConnection if parts.scheme == "https" else HTTPConnection
    return f"{parts.path or '/'}?{query_string}", connection_class(parts.hostname, parts.port, timeout=timeout)


# `WebUtils.do_post` (called by DefaultAlipayClient.execute) looks the helper up in its module at
# call time, so replacing the module attribute is enough. Harmless for URLs without a port.
WebUtils.get_http_connection = _http_connection


_Model = TypeVar("_Model", AlipayTradePrecreateModel, AlipayTradeWapPayModel)

class AlipayError(Exception):
    """Alipay refused a call, could not be reached, or answered something we cannot trust."""


def _yuan(cents: int) -> str:
    return str((Decimal(cents) / 100).quantize(Decimal("0.01")))


def _cents(yuan: str | None) -> int:
    """A yuan amount as Alipay writes it ("99.00") in cents; ValueError if it is not one."""
    if not isinstance(yuan, str) or not _YUAN.fullmatch(yuan):
        raise ValueError(f"not an amount in yuan: {yuan!r}")
    return int(Decimal(yuan) * 100)


def _subject(request: PaymentRequest) -> str:
    subject = _SUBJECT_FORBIDDEN.sub(" ", request.description or "").strip()
    return (subject or request.order_code)[:_SUBJECT_MAX]


class AlipayGateway:
    def __init__(self, gateway_url: str, app_id: str, app_private_key: str, alipay_public_key: str,
                 notify_url: str, *, timeout: float = 10.0) -> None:
        config = AlipayClientConfig()
        config.server_url = gateway_url
        config.app_id = app_id
        config.app_private_key = app_private_key  # PKCS#1, base64 body (or PEM)
        config.alipay_public_key = alipay_public_key  # SPKI, base64 body (or PEM)
        config.sign_type = "RSA2"
        config.charset = "utf-8"
        config.timeout = timeout
        # The SDK verifies each answer's signature with alipay_public_key unless skip_sign is set:
        # never set it. An empty or wrong key makes every answer fail verification (fail closed).
        config.skip_sign = False
        self._client = DefaultAlipayClient(config)
        self._app_id = app_id
        self._alipay_public_key = alipay_public_key
        self._notify_url = notify_url

    # --- calls to the gateway ------------------------------------------------------------------

    def _execute(self, request, response):
        """Sends the request; returns the parsed answer once its signature has been verified."""
        try:
            content = self._client.execute(request)  # raises if the answer's signature is not Alipay's
            response.parse_response_content(content)
        except Exception as error:  # the SDK raises RequestException, ResponseException, TimeoutError, ...
            raise AlipayError(f"{request.get_params().get('method')}: {error}") from error
        return response

    @staticmethod
    def _failure(response) -> str:
        return f"{response.code} {response.msg}: {response.sub_code} {response.sub_msg}"

    @staticmethod
    def _trade(model: _Model, request: PaymentRequest, product_code: str) -> _Model:
        """`model` holding the order's trade: its number, amount in yuan, subject and validity."""
        if request.currency != CURRENCY:
            raise ValueError(f"Alipay takes {CURRENCY}, not {request.currency}")
        if request.amount_cents <= 0:
            raise ValueError("the amount must be positive")
        model.out_trade_no = request.order_code
        model.total_amount = _yuan(request.amount_cents)
        model.subject = _subject(request)
        model.product_code = product_code
        # Alipay closes the trade when the console gives up on the order, so a payer cannot pay an
        # order the console has closed. (A precreated trade nobody scanned does not exist at
        # Alipay yet: closing it answers ACQ.TRADE_NOT_EXIST, see close().)
        model.timeout_express = f"{int(PAYMENT_VALIDITY[Provider.ALIPAY].total_seconds() // 60)}m"
        return model

    def start(self, request: PaymentRequest) -> PaymentStart:
        model = self._trade(AlipayTradePrecreateModel(), request, "FACE_TO_FACE_PAYMENT")
        call = AlipayTradePrecreateRequest(biz_model=model)
        call.notify_url = self._notify_url
        response = self._execute(call, AlipayTradePrecreateResponse())
        if response.code != SUCCESS_CODE or not response.qr_code:
            raise AlipayError(f"alipay.trade.precreate: {self._failure(response)}")
        if response.out_trade_no not in (None, request.order_code):
            raise AlipayError(f"alipay.trade.precreate answered for order {response.out_trade_no}")
        # Alipay's trade_no only exists once the payer has paid: until then the order is known by
        # our order number.
        return PaymentStart(pay_qr_code=response.qr_code, reference=request.order_code)

    def start_wap(self, request: PaymentRequest, return_url: str) -> PaymentStart:
        """A trade paid on Alipay's mobile page (alipay.trade.wap.pay) in a phone's browser: the
        signed page URL the payer opens (`approve_url`); Alipay sends them back to `return_url`
        and notifies as for a QR code. Nothing is sent to Alipay until the payer opens it."""
        model = self._trade(AlipayTradeWapPayModel(), request, "QUICK_WAP_WAY")
        call = AlipayTradeWapPayRequest(biz_model=model)
        call.notify_url, call.return_url = self._notify_url, return_url
        return PaymentStart(approve_url=self._client.page_execute(call, http_method="GET"),
                            reference=request.order_code)

    def confirm(self, request: PaymentRequest, payment_method_id: str) -> PaymentResult:
        return PaymentResult(paid=False, error="not supported")

    def query(self, request: PaymentRequest) -> PaymentResult:
        model = AlipayTradeQueryModel()
        model.out_trade_no = request.order_code
        response = self._execute(AlipayTradeQueryRequest(biz_model=model), AlipayTradeQueryResponse())
        if response.code != SUCCESS_CODE:
            if response.sub_code == TRADE_NOT_EXIST:  # not scanned yet, or never created
                return PaymentResult(paid=False, error=TRADE_NOT_EXIST)
            raise AlipayError(f"alipay.trade.query: {self._failure(response)}")
        if response.out_trade_no != request.order_code:
            raise AlipayError(f"alipay.trade.query answered for order {response.out_trade_no}")
        paid = response.trade_status in PAID_STATUSES
        try:
            amount = _cents(response.total_amount) if paid or response.total_amount else 0
        except ValueError as error:
            raise AlipayError(f"alipay.trade.query: {error}") from error
        return PaymentResult(paid=paid, amount_cents=amount, reference=response.trade_no,
                             error=None if paid else response.trade_status,
                             currency=response.trans_currency or CURRENCY)

    def close(self, request: PaymentRequest) -> None:
        model = AlipayTradeCloseModel()
        model.out_trade_no = request.order_code
        response = self._execute(AlipayTradeCloseRequest(biz_model=model), AlipayTradeCloseResponse())
        # A precreated trade that nobody scanned does not exist at Alipay: nothing to close, and
        # its QR code expires with timeout_express (set in start()).
        if response.code != SUCCESS_CODE and response.sub_code != TRADE_NOT_EXIST:
            raise AlipayError(f"alipay.trade.close: {self._failure(response)}")

    def refund(self, refund: RefundRequest) -> RefundResult:
        if refund.currency != CURRENCY:
            raise ValueError(f"Alipay takes {CURRENCY}, not {refund.currency}")
        model = AlipayTradeRefundModel()
        model.out_trade_no = refund.order_code
        model.refund_amount = _yuan(refund.amount_cents)
        # Alipay pays one out_request_no back once: a retry answers code 10000 with fund_change N.
        model.out_request_no = refund.refund_code
        response = self._execute(AlipayTradeRefundRequest(biz_model=model), AlipayTradeRefundResponse())
        if response.code != SUCCESS_CODE:
            return RefundResult(succeeded=False, error=f"{response.sub_code}: {response.sub_msg}")
        return RefundResult(succeeded=True, reference=response.trade_no)

    def refund_status(self, refund: RefundRequest, refund_reference: str | None) -> RefundResult:
        """alipay.trade.fastpay.refund.query by our refund code (out_request_no): REFUND_SUCCESS is
        paid back; an answer without it is a refund Alipay never made."""
        model = AlipayTradeFastpayRefundQueryModel()
        model.out_trade_no = refund.order_code
        model.out_request_no = refund.refund_code
        response = self._execute(AlipayTradeFastpayRefundQueryRequest(biz_model=model),
                                 AlipayTradeFastpayRefundQueryResponse())
        if response.code != SUCCESS_CODE:
            raise AlipayError(f"alipay.trade.fastpay.refund.query: {self._failure(response)}")
        if response.refund_status == "REFUND_SUCCESS":
            return RefundResult(succeeded=True, reference=response.trade_no or refund_reference)
        return RefundResult(succeeded=False, error=f"refund {response.refund_status or 'not made'}")

    # --- notifications ---------------------------------------------------------------------------

    def parse_notification(self, headers: Mapping[str, str],
                           body: bytes) -> Notification | RefundNotification | MandateEnded:
        """Alipay's asynchronous notification of a trade; one that tells of a refund (out_biz_no,
        refund_fee, gmt_refund) is that refund's outcome."""
        return self._trade_or_refund(self._verified(body))

    @classmethod
    def _trade_or_refund(cls, params: Mapping[str, str]) -> Notification | RefundNotification:
        if params.get("out_biz_no") and params.get("gmt_refund"):  # what Alipay adds after a refund
            return cls._refund_result(params)
        return cls._trade_result(params)

    @staticmethod
    def _refund_result(params: Mapping[str, str]) -> RefundNotification:
        """Alipay's refunds are final when answered: its notification confirms one paid back.
        refund_fee is all the trade's refunds so far, not this one's."""
        try:
            amount = _cents(params.get("refund_fee"))
        except ValueError as error:
            raise InvalidNotification(str(error)) from error
        return RefundNotification(refund_code=params["out_biz_no"], outcome=RefundOutcome.SUCCEEDED,
                                  amount_cents=amount, cumulative=True,
                                  currency=params.get("trans_currency") or params.get("currency") or CURRENCY,
                                  reference=params.get("trade_no") or None, order_code=params.get("out_trade_no"))

    def _verified(self, body: bytes) -> dict[str, str]:
        """A notification's fields: a form, signed (RSA2) with Alipay's key over its fields sorted by
        name, `sign` and `sign_type` left out, from Alipay to our app."""
        try:
            pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=True,
                              encoding="utf-8", errors="strict")
        except (UnicodeDecodeError, ValueError) as error:
            raise InvalidNotification(f"not a form: {error}") from error
        params = dict(pairs)
        if len(params) != len(pairs):
            raise InvalidNotification("a field appears twice")
        sign = params.pop("sign", "")
        sign_type = params.pop("sign_type", "")
        if not sign or sign_type != "RSA2":
            raise InvalidNotification(f"unsigned, or signed with {sign_type!r} instead of RSA2")
        try:
            valid = verify_with_rsa(self._alipay_public_key, get_sign_content(params).encode("utf-8"), sign)
        except Exception as error:  # rsa.VerificationError, a malformed signature or key
            raise InvalidNotification(f"bad signature: {error!r}") from error
        if not valid:
            raise InvalidNotification("bad signature")
        if params.get("app_id") != self._app_id:
            raise InvalidNotification(f"for another app: {params.get('app_id')!r}")
        return params

    @staticmethod
    def _trade_result(params: Mapping[str, str]) -> Notification:
        order_code, status = params.get("out_trade_no"), params.get("trade_status")
        if not order_code or not status:
            raise InvalidNotification("no out_trade_no or trade_status")
        try:
            amount = _cents(params.get("total_amount"))
        except ValueError as error:
            raise InvalidNotification(str(error)) from error
        # total_amount is in trans_currency on a cross-border trade (`currency` in older gateways'
        # notifications); Alipay names no currency for yuan.
        currency = params.get("trans_currency") or params.get("currency") or CURRENCY
        return Notification(order_code=order_code, paid=status in PAID_STATUSES, amount_cents=amount,
                            reference=params.get("trade_no") or None, currency=currency)

    @staticmethod
    def acknowledge(accepted: bool) -> Acknowledgement:
        # Alipay stops retrying only when it reads exactly "success"; anything else is retried.
        return Acknowledgement(200, b"success" if accepted else b"failure", "text/plain; charset=utf-8")
