"""WeChat Pay API v2 in the sandbox: the XML endpoints wechatpy calls (unified order, order query,
close order, refund), signed both ways with the merchant's API key (MD5, or HMAC-SHA256 when the
request says so), the payment-result notification, and the OAuth code-to-OpenID exchange; papay's
contracts and deductions are in wechat_papay.py.

The signing here is written from WeChat's rules (sorted `k=v` pairs of the non-empty fields joined
by `&`, then `&key=<API key>`, hashed, upper-case hex), not taken from wechatpy, so the tests check
the SDK against an independent implementation of the wire protocol."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from flask import Blueprint, Response, jsonify, request

from payment_sandbox.ledger import SandboxPayment, Status, new_id
from payment_sandbox.provider import Delivery, SandboxConfig, SandboxContext, deliver

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


NAME = "wechat"
BEIJING = timezone(timedelta(hours=8))
XML_CONTENT_TYPE = "text/xml; charset=utf-8"
# The error codes and messages WeChat Pay answers with.
SIGNERROR = ("SIGNERROR", "签名错误")
XML_FORMAT_ERROR = ("XML_FORMAT_ERROR", "XML格式错误")
APPID_NOT_EXIST = ("APPID_NOT_EXIST", "APPID不存在")
MCHID_NOT_EXIST = ("MCHID_NOT_EXIST", "MCHID不存在")
ORDERNOTEXIST = ("ORDERNOTEXIST", "订单不存在")
ORDERPAID = ("ORDERPAID", "该订单已支付")
ORDERCLOSED = ("ORDERCLOSED", "订单已关闭")
OUT_TRADE_NO_USED = ("OUT_TRADE_NO_USED", "商户订单号重复")
TRADE_STATE_DESC = {"SUCCESS": "支付成功", "REFUND": "转入退款", "NOTPAY": "未支付", "CLOSED": "已关闭",
                    "PAYERROR": "支付失败", "ACCEPT": "已接收，等待扣款", "PAY_FAIL": "扣款失败"}


class Refusal(Exception):
    """A business failure: answered with return_code SUCCESS, result_code FAIL and err_code."""

    def __init__(self, code: tuple[str, str] | str, description: str | None = None) -> None:
        self.err_code, self.description = (code, description or code) if isinstance(code, str) else code
        super().__init__(self.err_code)


def sign(fields: dict[str, str], key: str, sign_type: str = "MD5") -> str:
    """WeChat Pay v2's signature of `fields` (the `sign` field itself and empty values left out)."""
    pairs = "&".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "sign" and fields[k] not in (None, ""))
    message = f"{pairs}&key={key}".encode()
    if sign_type == "HMAC-SHA256":
        return hmac.new(key.encode(), message, hashlib.sha256).hexdigest().upper()
    return hashlib.md5(message).hexdigest().upper()  # noqa: S324 (WeChat Pay v2's signature)


def to_xml(fields: Mapping[str, object]) -> bytes:
    """WeChat's XML: one flat <xml> element, numbers bare and text in CDATA."""
    parts = ["<xml>"]
    for key, value in fields.items():
        if value is None:
            continue
        text = str(value)
        if not (isinstance(value, int) or text.isdigit()):
            text = "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"
        parts.append(f"<{key}>{text}</{key}>")
    parts.append("</xml>")
    return "".join(parts).encode()


def parse_xml(body: bytes) -> dict[str, str]:
    """The fields of a flat <xml> document; ValueError when it is not one."""
    if b"<!DOCTYPE" in body.upper() or b"<!ENTITY" in body.upper():
        raise ValueError("DTDs are not accepted")
    try:
        root = ElementTree.fromstring(body)  # noqa: S314 (no DTD, checked above)
    except ElementTree.ParseError as error:
        raise ValueError(str(error)) from error
    if root.tag != "xml" or any(len(child) for child in root):
        raise ValueError("not a flat <xml> document")
    return {child.tag: child.text or "" for child in root}


def encrypt_req_info(plain: bytes, api_key: str) -> str:
    """WeChat's refund-notification encryption: AES-256-ECB under the lower-case hex MD5 of the
    API key (its 32 characters are the key's bytes), PKCS7 padding, base64."""
    key = hashlib.md5(api_key.encode()).hexdigest().encode()  # noqa: S324 (WeChat's rule)
    padder = padding.PKCS7(128).padder()
    encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()  # noqa: S305 (WeChat's rule)
    return base64.b64encode(encryptor.update(padder.update(plain) + padder.finalize()) + encryptor.finalize()).decode()


def open_id_for(key: str, seed: str) -> str:
    """A stable, OpenID-shaped id (28 characters starting with `o`) of a payer or an OAuth code."""
    digest = hmac.new(key.encode(), seed.encode(), hashlib.sha256).digest()
    return "o" + base64.urlsafe_b64encode(digest).decode()[:27]


def _digits(prefix: str, size: int) -> str:
    return prefix + "".join(secrets.choice("0123456789") for _ in range(size - len(prefix)))


def _now() -> str:
    return datetime.now(UTC).astimezone(BEIJING).strftime("%Y%m%d%H%M%S")


def _amount(fields: dict[str, str], name: str) -> int:
    value = fields.get(name, "")
    if not value.isdigit() or int(value) <= 0:
        raise Refusal("PARAM_ERROR", f"{name}参数错误: a positive whole number of fen")
    return int(value)


def _trade_state(payment: SandboxPayment) -> str:
    if payment.status is Status.REFUNDED or (payment.status is Status.PAID and payment.refunded_cents):
        return "REFUND"
    if payment.extra.get("trade_type") == "PAP":  # a deduction: accepted, then deducted or not
        return {Status.PENDING: "ACCEPT", Status.PAID: "SUCCESS", Status.CLOSED: "CLOSED",
                Status.FAILED: "PAY_FAIL"}[payment.status]
    return {Status.PENDING: "NOTPAY", Status.PAID: "SUCCESS", Status.CLOSED: "CLOSED",
            Status.FAILED: "PAYERROR"}[payment.status]


@dataclass(frozen=True)
class Merchant:
    app_id: str
    mch_id: str
    api_key: str


class WechatSandbox:
    """WeChat Pay for one merchant (the sandbox credentials' app id, merchant id and API key)."""

    name = NAME

    def __init__(self, context: SandboxContext, config: SandboxConfig) -> None:
        self._context = context
        credentials = config.credentials
        self.app_id, self.mch_id = credentials.wechat_app_id, credentials.wechat_mch_id
        self.api_key = credentials.wechat_api_key
        self.oauth_secret = credentials.wechat_api_key  # the sandbox's OAuth app secret is the API key
        # Every merchant WeChat knows, by mch_id: the credentials' and those added (a white-label
        # platform's own account); a payment is its merchant's, and told with its key.
        self.merchants: dict[str, Merchant] = {self.mch_id: Merchant(self.app_id, self.mch_id, self.api_key)}
        self._lock = threading.Lock()  # read-modify-write of a payment (re-order, close, refund, pay)
        self._by_transaction: dict[str, str] = {}  # transaction_id -> prepay id
        from payment_sandbox.wechat_papay import Papay  # here: it builds on this module

        self.papay = Papay(self, context, credentials.wechat_papay_plan_id)

    # -- the API ----------------------------------------------------------------------------------

    def blueprint(self) -> Blueprint:
        blueprint = Blueprint("wechat_sandbox", __name__)
        for path, handler in (("/pay/unifiedorder", self._unified_order), ("/pay/orderquery", self._order_query),
                              ("/pay/closeorder", self._close_order), ("/secapi/pay/refund", self._refund),
                              ("/pay/refundquery", self._refund_query)):
            blueprint.add_url_rule(path, path.strip("/").replace("/", "_"), self._api(handler), methods=["POST"])
        for path, (papay_handler, nonceless) in self.papay.endpoints().items():
            blueprint.add_url_rule(path, path.strip("/").replace("/", "_"), self._api(papay_handler, nonceless),
                                   methods=["POST"])
        blueprint.add_url_rule("/sns/oauth2/access_token", "oauth_access_token", self._access_token, methods=["GET"])
        return blueprint

    def _api(self, handler: Callable[[dict[str, str]], dict[str, object]],
             nonceless: bool = False) -> Callable[[], Response]:
        """Parse the XML, check the merchant and the signature, run `handler` and answer signed XML.
        A `nonceless` endpoint's request carries no nonce_str (papay's contract calls)."""

        def endpoint() -> Response:
            try:
                fields = parse_xml(request.get_data())
            except ValueError:
                return self._failure(*XML_FORMAT_ERROR)
            merchant = self.merchants.get(fields.get("mch_id", ""))
            if merchant is None:
                return self._failure(*MCHID_NOT_EXIST)
            if fields.get("appid") != merchant.app_id:
                return self._failure(*APPID_NOT_EXIST)
            sign_type = fields.get("sign_type") or "MD5"
            expected = sign(fields, merchant.api_key, sign_type)
            signed = hmac.compare_digest(fields.get("sign", "").encode(), expected.encode())
            if sign_type not in ("MD5", "HMAC-SHA256") or not (nonceless or fields.get("nonce_str")) or not signed:
                return self._failure(*SIGNERROR)
            try:
                result: dict[str, object] = {"result_code": "SUCCESS", **handler(fields)}
            except Refusal as refusal:
                result = {"result_code": "FAIL", "err_code": refusal.err_code, "err_code_des": refusal.description}
            return self._answer(result, sign_type, merchant)

        endpoint.__name__ = handler.__name__
        return endpoint

    def add_merchant(self, app_id: str, mch_id: str, api_key: str) -> None:
        """Another merchant WeChat knows (a white-label platform's own account)."""
        self.merchants[mch_id] = Merchant(app_id, mch_id, api_key)

    def merchant_of(self, payment: SandboxPayment) -> Merchant:
        return self.merchants.get(str(payment.extra.get("mch_id", self.mch_id))) or self.merchants[self.mch_id]

    def _answer(self, result: dict[str, object], sign_type: str = "MD5", merchant: Merchant | None = None) -> Response:
        merchant = merchant or self.merchants[self.mch_id]
        fields = {"return_code": "SUCCESS", "return_msg": "OK", "appid": merchant.app_id, "mch_id": merchant.mch_id,
                  "nonce_str": secrets.token_hex(16), **result}
        fields["sign"] = sign({k: str(v) for k, v in fields.items() if v is not None}, merchant.api_key, sign_type)
        return Response(to_xml(fields), 200, content_type=XML_CONTENT_TYPE)

    @staticmethod
    def _failure(err_code: str, message: str) -> Response:
        """A refused request (format, merchant, signature): return_code FAIL, unsigned, as WeChat
        answers; the err_code says why."""
        fields = {"return_code": "FAIL", "return_msg": message, "result_code": "FAIL", "err_code": err_code,
                  "err_code_des": message}
        return Response(to_xml(fields), 200, content_type=XML_CONTENT_TYPE)

    def _find(self, fields: dict[str, str]) -> SandboxPayment:
        transaction_id, out_trade_no = fields.get("transaction_id"), fields.get("out_trade_no")
        payment = None
        if transaction_id:
            prepay_id = self._by_transaction.get(transaction_id)
            payment = self._context.ledger.get(prepay_id) if prepay_id else None
        elif out_trade_no:
            payment = self._context.ledger.by_order(NAME, out_trade_no)
        else:
            raise Refusal("PARAM_ERROR", "transaction_id和out_trade_no必须填一个")
        if payment is None or (fields.get("mch_id") and self.merchant_of(payment).mch_id != fields["mch_id"]):
            raise Refusal(*ORDERNOTEXIST)  # another merchant's order is none of this one's business
        return payment

    def _unified_order(self, fields: dict[str, str]) -> dict[str, object]:
        if fields.get("trade_type") == "JSAPI":  # paid inside WeChat: the payer page stands in for its sheet
            if not fields.get("openid"):
                raise Refusal("PARAM_ERROR", "trade_type=JSAPI时，openid为必填参数")
            payment = self.native_order({**fields, "trade_type": "NATIVE", "product_id": fields["out_trade_no"]},
                                        trade_type="JSAPI", openid=fields["openid"])
            return {"trade_type": "JSAPI", "prepay_id": payment.id}
        payment = self.native_order(fields)
        return {"trade_type": "NATIVE", "prepay_id": payment.id,
                "code_url": self._context.payer_page(NAME, payment.id)}

    def native_order(self, fields: dict[str, str], **extra: object) -> SandboxPayment:
        """The payment of a native (QR code) order, new or the same unpaid one placed again; `extra`
        goes with a new one."""
        for required in ("body", "out_trade_no", "total_fee", "spbill_create_ip", "notify_url", "trade_type"):
            if not fields.get(required):
                raise Refusal("PARAM_ERROR", f"缺少参数{required}")
        if fields["trade_type"] != "NATIVE":
            raise Refusal("PARAM_ERROR", "trade_type: the sandbox takes NATIVE (QR code) and JSAPI orders only")
        if not fields.get("product_id"):
            raise Refusal("PARAM_ERROR", "trade_type=NATIVE时，product_id为必填参数")
        if (fields.get("fee_type") or "CNY") != "CNY":
            raise Refusal("PARAM_ERROR", "fee_type: CNY only")
        total_fee, out_trade_no = _amount(fields, "total_fee"), fields["out_trade_no"]
        with self._lock:
            existing = self._context.ledger.by_order(NAME, out_trade_no)
            if existing is not None and existing.status in (Status.PAID, Status.REFUNDED):
                raise Refusal(*ORDERPAID)
            if existing is not None and existing.status is Status.CLOSED:
                raise Refusal(*ORDERCLOSED)
            if existing is not None and existing.status is Status.PENDING:
                if existing.amount_cents != total_fee:
                    raise Refusal(*OUT_TRADE_NO_USED)
                payment = existing  # an unpaid order placed again: the same prepay
            else:
                payment = self._context.ledger.add(SandboxPayment(
                    new_id("wx", 32), NAME, out_trade_no, total_fee, "CNY", description=fields["body"],
                    notify_url=fields["notify_url"],
                    extra={"trade_type": "NATIVE", "mch_id": fields.get("mch_id", self.mch_id), **extra}))
        return payment

    def _order_query(self, fields: dict[str, str]) -> dict[str, object]:
        return self.order_state(self._find(fields), fields)

    @staticmethod
    def order_state(payment: SandboxPayment, fields: dict[str, str]) -> dict[str, object]:
        """What an order query answers of the payment."""
        state = _trade_state(payment)
        result: dict[str, object] = {
            "device_info": fields.get("device_info") or None, "out_trade_no": payment.order_code,
            "trade_type": payment.extra.get("trade_type", "NATIVE"), "trade_state": state,
            "trade_state_desc": TRADE_STATE_DESC[state], "total_fee": payment.amount_cents,
            "fee_type": payment.currency, "contract_id": payment.extra.get("contract_id")}
        if state in ("SUCCESS", "REFUND"):
            extra = payment.extra
            result.update(transaction_id=extra["transaction_id"], time_end=extra["time_end"], openid=extra["openid"],
                          is_subscribe="N", bank_type="OTHERS", cash_fee=payment.amount_cents)
        return result

    def _close_order(self, fields: dict[str, str]) -> dict[str, object]:
        if not fields.get("out_trade_no"):
            raise Refusal("PARAM_ERROR", "缺少参数out_trade_no")
        with self._lock:
            payment = self._find({"out_trade_no": fields["out_trade_no"], "mch_id": fields.get("mch_id", "")})
            if payment.status in (Status.PAID, Status.REFUNDED):
                raise Refusal(*ORDERPAID)
            if payment.status is Status.CLOSED:
                raise Refusal(*ORDERCLOSED)
            self._context.ledger.update(payment.id, status=Status.CLOSED)
        return {}

    def _refund(self, fields: dict[str, str]) -> dict[str, object]:
        out_refund_no = fields.get("out_refund_no")
        if not out_refund_no:
            raise Refusal("PARAM_ERROR", "缺少参数out_refund_no")
        total_fee, refund_fee = _amount(fields, "total_fee"), _amount(fields, "refund_fee")
        with self._lock:
            payment = self._find(fields)
            refunds: dict[str, dict[str, object]] = payment.extra.get("refunds", {})
            if out_refund_no in refunds:  # the same refund asked again: answered, not paid twice
                done = refunds[out_refund_no]
                if done["refund_fee"] != refund_fee or total_fee != payment.amount_cents:
                    raise Refusal("INVALID_REQUEST", "同一退款单号多次请求，退款金额与之前请求不一致")
                refund_id = str(done["refund_id"])
            else:
                if payment.status not in (Status.PAID, Status.REFUNDED):
                    raise Refusal("ERROR", f"订单状态错误: the order is {_trade_state(payment)}")
                if total_fee != payment.amount_cents:
                    raise Refusal("PARAM_ERROR", "订单金额total_fee与实际支付金额不一致")
                if payment.refunded_cents + refund_fee > payment.amount_cents:
                    raise Refusal("ERROR", "累计退款金额大于支付金额")
                refund_id = _digits("50", 29)
                refunded = payment.refunded_cents + refund_fee
                # Accepted, not finished: WeChat tells the outcome later in a refund notification
                # (finish_refund, driven by the sandbox's /refunds control), and in refund queries.
                self._context.ledger.update(
                    payment.id, refunded_cents=refunded, refunds=(*payment.refunds, out_refund_no),
                    status=Status.REFUNDED if refunded == payment.amount_cents else Status.PAID,
                    extra={**payment.extra, "refunds": {**refunds, out_refund_no: {
                        "refund_id": refund_id, "refund_fee": refund_fee, "status": "PROCESSING",
                        "notify_url": fields.get("notify_url") or payment.notify_url}}})
                self._context.refund_accepted(NAME, out_refund_no)
        return {"transaction_id": payment.extra["transaction_id"], "out_trade_no": payment.order_code,
                "out_refund_no": out_refund_no, "refund_id": refund_id, "refund_fee": refund_fee,
                "total_fee": payment.amount_cents, "cash_fee": payment.amount_cents, "cash_refund_fee": refund_fee,
                "refund_channel": None}

    def _refund_of(self, out_refund_no: str) -> tuple[SandboxPayment, dict[str, object]]:
        """The payment and the refund of the merchant's refund number; KeyError when unknown."""
        for payment in self._context.ledger.all(NAME):
            refund = payment.extra.get("refunds", {}).get(out_refund_no)
            if refund is not None:
                return payment, refund
        raise KeyError(out_refund_no)

    def _refund_query(self, fields: dict[str, str]) -> dict[str, object]:
        """pay/refundquery by out_refund_no (or refund_id): the refund's state, fields numbered _0."""
        wanted = fields.get("out_refund_no") or fields.get("refund_id")
        with self._lock:
            for payment in self._context.ledger.all(NAME) if wanted else [self._find(fields)]:
                found = [(no, r) for no, r in payment.extra.get("refunds", {}).items()
                         if not wanted or wanted in (no, r["refund_id"])]
                if found:
                    break
            else:
                raise Refusal("REFUNDNOTEXIST", "退款订单查询失败")
        result: dict[str, object] = {
            "transaction_id": payment.extra["transaction_id"], "out_trade_no": payment.order_code,
            "total_fee": payment.amount_cents, "cash_fee": payment.amount_cents, "refund_count": len(found)}
        for n, (no, refund) in enumerate(found):
            result.update({f"out_refund_no_{n}": no, f"refund_id_{n}": refund["refund_id"],
                           f"refund_fee_{n}": refund["refund_fee"], f"refund_status_{n}": refund["status"],
                           f"refund_success_time_{n}": refund.get("success_time")})
        return result

    def finish_refund(self, refund_no: str, succeeded: bool, notify: bool = True) -> Delivery | None:
        """WeChat finishes a refund it accepted: SUCCESS, or CHANGE (the money could not go back:
        what was reserved for it is refundable again), then its refund notification. KeyError for
        an unknown refund; None when it was finished already or nothing was sent."""
        with self._lock:
            payment, refund = self._refund_of(refund_no)
            if refund["status"] != "PROCESSING":
                return None
            done = {**refund, "status": "SUCCESS" if succeeded else "CHANGE",
                    "success_time": datetime.now(UTC).astimezone(BEIJING).strftime("%Y-%m-%d %H:%M:%S")}
            refunded = payment.refunded_cents - (0 if succeeded else int(str(refund["refund_fee"])))
            payment = self._context.ledger.update(
                payment.id, refunded_cents=refunded,
                status=Status.REFUNDED if refunded == payment.amount_cents else Status.PAID,
                extra={**payment.extra, "refunds": {**payment.extra["refunds"], refund_no: done}})
        if not notify or not done.get("notify_url"):
            return None
        headers, body = self.refund_notification(payment, refund_no)
        return deliver(str(done["notify_url"]), body, headers)

    def refund_notification(self, payment: SandboxPayment, refund_no: str, *, key: str | None = None,
                            **overrides: object) -> tuple[dict[str, str], bytes]:
        """The refund notification WeChat POSTs: the outer XML (unsigned) carries req_info, the
        refund's fields encrypted AES-256-ECB with the lower-case hex MD5 of the API key (PKCS7,
        base64). `key` encrypts instead of the merchant's API key (a forgery); `overrides`
        change the inner fields."""
        refund = payment.extra["refunds"][refund_no]
        inner: dict[str, object] = {
            "transaction_id": payment.extra["transaction_id"], "out_trade_no": payment.order_code,
            "refund_id": refund["refund_id"], "out_refund_no": refund_no, "total_fee": payment.amount_cents,
            "settlement_total_fee": payment.amount_cents, "refund_fee": refund["refund_fee"],
            "settlement_refund_fee": refund["refund_fee"], "refund_status": refund["status"],
            "success_time": refund.get("success_time"), "refund_recv_accout": "支付用户零钱",
            "refund_account": "REFUND_SOURCE_RECHARGE_FUNDS", "refund_request_source": "API", **overrides}
        plain = to_xml({k: v for k, v in inner.items() if v is not None}).replace(b"<xml>", b"<root>", 1)
        plain = plain[:-len(b"</xml>")] + b"</root>"
        merchant = self.merchant_of(payment)
        outer = {"return_code": "SUCCESS", "appid": merchant.app_id, "mch_id": merchant.mch_id,
                 "nonce_str": secrets.token_hex(16), "req_info": encrypt_req_info(plain, key or merchant.api_key)}
        return {"Content-Type": "text/xml"}, to_xml(outer)

    def _access_token(self):
        """OAuth (snsapi_base): a code for the payer's OpenID, the same OpenID for the same code.
        A code starting with `invalid` is refused, for tests of the failure path."""
        args = request.args
        merchant = next((m for m in self.merchants.values() if m.app_id == args.get("appid")), None)
        if merchant is None:
            return jsonify(errcode=40013, errmsg="invalid appid")
        secret = self.oauth_secret if merchant.mch_id == self.mch_id else merchant.api_key
        if not hmac.compare_digest(args.get("secret", "").encode(), secret.encode()):
            return jsonify(errcode=40125, errmsg="invalid appsecret")
        if args.get("grant_type") != "authorization_code":
            return jsonify(errcode=40002, errmsg="invalid grant_type")
        code = args.get("code", "")
        if not code:
            return jsonify(errcode=41008, errmsg="missing code")
        if code.startswith("invalid"):
            return jsonify(errcode=40029, errmsg="invalid code")
        token = hmac.new(self.api_key.encode(), f"access_token:{code}".encode(), hashlib.sha256).hexdigest()
        return jsonify(access_token=token, expires_in=7200, refresh_token=token[::-1],
                       openid=open_id_for(self.api_key, f"oauth:{code}"), scope="snsapi_base")

    # -- the payer page ---------------------------------------------------------------------------

    def complete(self, payment: SandboxPayment, paid: bool, notify: bool = True) -> Delivery | None:
        """The payer paid or failed (or, for a deduction, WeChat deducted it or could not); paying a
        支付中签约 order signs its contract too, told after the payment."""
        done = self.settle(payment, paid)
        if done is None:
            return None
        contract = self.papay.sign(done) if paid else None
        delivery = None
        if notify and done.notify_url:
            headers, body = self.notification(done)
            delivery = deliver(done.notify_url, body, headers)
        if notify and contract is not None:
            self.papay.tell(contract, "ADD")
        return delivery

    def settle(self, payment: SandboxPayment, paid: bool) -> SandboxPayment | None:
        """A pending payment paid or failed; None when it was no longer pending."""
        with self._lock:
            if paid:
                transaction_id = _digits("4200", 28)
                done = self._context.ledger.transition(payment.id, Status.PENDING, status=Status.PAID, extra={
                    **payment.extra, "transaction_id": transaction_id, "time_end": _now(),
                    "openid": payment.extra.get("openid") or open_id_for(self.api_key, f"payer:{payment.id}")})
                if done is not None:
                    self._by_transaction[transaction_id] = payment.id
            else:
                done = self._context.ledger.transition(payment.id, Status.PENDING, status=Status.FAILED)
        return done

    def after_payment_url(self, payment: SandboxPayment, paid: bool) -> str | None:
        return None

    # -- the notification -------------------------------------------------------------------------

    def notification_fields(self, payment: SandboxPayment, **overrides: object) -> dict[str, object]:
        """The payment-result notification's fields for `payment` as it stands, unsigned;
        `overrides` replace fields (a value of None drops one)."""
        extra, merchant = payment.extra, self.merchant_of(payment)
        fields: dict[str, object] = {
            "return_code": "SUCCESS", "return_msg": "OK", "appid": merchant.app_id, "mch_id": merchant.mch_id,
            "nonce_str": secrets.token_hex(16), "openid": extra.get("openid"), "is_subscribe": "N",
            "trade_type": extra.get("trade_type", "NATIVE"), "contract_id": extra.get("contract_id"),
            "bank_type": "OTHERS", "total_fee": payment.amount_cents,
            "fee_type": payment.currency,
            "out_trade_no": payment.order_code}
        if payment.status in (Status.PAID, Status.REFUNDED):
            fields.update(result_code="SUCCESS", cash_fee=payment.amount_cents,
                          transaction_id=extra["transaction_id"], time_end=extra["time_end"])
        else:
            fields.update(result_code="FAIL", err_code="PAYERROR", err_code_des=extra.get("failure", "支付失败"))
        fields.update(overrides)
        return {k: v for k, v in fields.items() if v is not None}

    def payment_result_xml(self, payment: SandboxPayment, *, key: str | None = None, **overrides: object) -> bytes:
        """The signed payment-result XML WeChat POSTs to the notify_url; `key` signs instead of the
        merchant's API key (a forgery), `overrides` change fields before signing."""
        fields = self.notification_fields(payment, **overrides)
        fields["sign"] = sign({k: str(v) for k, v in fields.items()}, key or self.merchant_of(payment).api_key)
        return to_xml(fields)

    def notification(self, payment: SandboxPayment, *, key: str | None = None,
                     **overrides: object) -> tuple[dict[str, str], bytes]:
        """The notification's (headers, body), as complete() sends it."""
        return {"Content-Type": "text/xml"}, self.payment_result_xml(payment, key=key, **overrides)
