"""Alipay's 商家扣款 (merchant deduction) agreements in the sandbox: signed by paying a page pay
trade that carries agreement_sign_params (personal product CYCLE_PAY_AUTH_P, product
GENERAL_WITHHOLDING, a period rule); alipay.user.agreement.query; alipay.trade.pay charging
under one (agreement_params.agreement_no), at most its single_amount a time; alipay.user.agreement.unsign;
and the agreement notifications (notify_type dut_user_sign, dut_user_unsign), signed as the trades' are.

The sandbox does not keep the period rule's dates: it charges whenever asked. A charge is taken
at once, or refused (its trade closed) as an agreement set to decline says (decline())."""

from __future__ import annotations

import re
import secrets
import threading
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from payment_sandbox.alipay import (
    _BUSINESS,
    _MISSING,
    BUYER_ID,
    BUYER_LOGON,
    CHINA,
    NAME,
    _cents,
    _error,
    _now,
    _success,
    _trans_currency,
    _yuan,
    new_trade_no,
)
from payment_sandbox.ledger import SandboxPayment, Status
from payment_sandbox.provider import Delivery, SandboxContext, deliver, deliver_later

if TYPE_CHECKING:
    from collections.abc import Callable

    from payment_sandbox.alipay import AlipaySandbox

PERSONAL_PRODUCT_CODE, PRODUCT_CODE = "CYCLE_PAY_AUTH_P", "GENERAL_WITHHOLDING"
CHANNELS = frozenset({"ALIPAYAPP", "QRCODE", "QRCODEORSMS"})  # access_params.channel
NORMAL, UNSIGN = "NORMAL", "UNSIGN"
NOT_EXIST = ("USER_AGREEMENT_NOT_EXIST", "用户协议不存在")
INVALID_TIME = "2115-12-31 23:59:59"  # an agreement without an end of its own
_SCENE = re.compile(r"[A-Z_]+\|[A-Z_]+")  # e.g. INDUSTRY|DIGITAL_MEDIA


def _invalid(message: str) -> dict[str, str]:
    return _error(_BUSINESS, "ACQ.INVALID_PARAMETER", f"参数无效: {message}")


@dataclass(frozen=True)
class Agreement:
    agreement_no: str
    external_agreement_no: str
    sign_scene: str
    period_type: str
    period: int
    execute_time: str
    single_cents: int
    notify_url: str | None
    sign_time: str
    status: str = NORMAL
    unsign_time: str | None = None
    declining: str | None = None  # the sub_code its charges are refused with (the payer's balance), for tests


class Agreements:
    def __init__(self, alipay: AlipaySandbox, context: SandboxContext) -> None:
        self._alipay, self._context = alipay, context
        self._lock = threading.Lock()
        self._agreements: dict[str, Agreement] = {}  # by agreement_no

    def methods(self) -> dict[str, Callable[[dict[str, str], dict], dict[str, str]]]:
        return {"alipay.user.agreement.query": self._query, "alipay.trade.pay": self._pay,
                "alipay.user.agreement.unsign": self._unsign}

    # -- agreements ---------------------------------------------------------------------------------

    def get(self, agreement_no: str) -> Agreement | None:
        with self._lock:
            return self._agreements.get(agreement_no)

    def of(self, external_agreement_no: str) -> Agreement | None:
        """The newest agreement signed under the merchant's number."""
        with self._lock:
            found = [a for a in self._agreements.values() if a.external_agreement_no == external_agreement_no]
        return found[-1] if found else None

    def _change(self, agreement_no: str, **changes: Any) -> Agreement:
        with self._lock:
            agreement = replace(self._agreements[agreement_no], **changes)
            self._agreements[agreement_no] = agreement
            return agreement

    def decline(self, agreement_no: str, sub_code: str | None = "ACQ.BUYER_BALANCE_NOT_ENOUGH") -> None:
        """The agreement's charges are refused with `sub_code` (None: they succeed again)."""
        self._change(agreement_no, declining=sub_code)

    def terminate_by_payer(self, agreement_no: str) -> Delivery | None:
        """The payer unsigns it in the Alipay app: ended, and the merchant told."""
        return self.tell(self._change(agreement_no, status=UNSIGN, unsign_time=_now()), "dut_user_unsign")

    def asked(self, params: object, request: dict[str, str]) -> dict[str, Any]:
        """A page pay's agreement_sign_params, checked: what paying it signs, or Alipay's error."""
        if not isinstance(params, dict):
            return _invalid("agreement_sign_params")
        access, rule = params.get("access_params"), params.get("period_rule_params")
        if params.get("personal_product_code") != PERSONAL_PRODUCT_CODE or params.get("product_code") != PRODUCT_CODE:
            return _invalid(f"personal_product_code {PERSONAL_PRODUCT_CODE}, product_code {PRODUCT_CODE}")
        if not _SCENE.fullmatch(str(params.get("sign_scene", ""))):
            return _invalid("sign_scene")
        number = params.get("external_agreement_no")
        if not isinstance(number, str) or not 0 < len(number) <= 32:
            return _invalid("external_agreement_no")
        if not isinstance(access, dict) or access.get("channel") not in CHANNELS:
            return _invalid("access_params.channel")
        if not isinstance(rule, dict) or _rule_error(rule):
            return _invalid(f"period_rule_params: {_rule_error(rule) if isinstance(rule, dict) else 'missing'}")
        signed = self.of(number)
        if signed is not None and signed.status == NORMAL:
            return _error(_BUSINESS, "ACQ.AGREEMENT_HAS_SIGNED", "该协议号已签约")
        return {"external_agreement_no": number, "sign_scene": params["sign_scene"],
                "period_type": rule["period_type"], "period": rule["period"], "execute_time": rule["execute_time"],
                "single_cents": _cents(rule["single_amount"]),
                "notify_url": params.get("sign_notify_url") or request.get("notify_url")}

    def sign(self, payment: SandboxPayment) -> Agreement | None:
        """The agreement a paid trade asked for, signed by its payer."""
        asked = payment.extra.get("agreement")
        if not asked:
            return None
        number = datetime.now(CHINA).strftime("%Y%m%d") + "".join(str(secrets.randbelow(10)) for _ in range(12))
        agreement = Agreement(number, sign_time=_now(), **asked)
        with self._lock:
            self._agreements[agreement.agreement_no] = agreement
        self._context.ledger.update(payment.id, extra={**payment.extra, "agreement_no": agreement.agreement_no})
        return agreement

    def _find(self, biz: dict) -> Agreement | None:
        """By agreement_no, or personal_product_code and external_agreement_no; a NORMAL one."""
        if biz.get("agreement_no"):
            agreement = self.get(str(biz["agreement_no"]))
        elif biz.get("personal_product_code") == PERSONAL_PRODUCT_CODE and biz.get("external_agreement_no"):
            agreement = self.of(str(biz["external_agreement_no"]))
            if agreement is not None and biz.get("sign_scene") not in (None, agreement.sign_scene):
                agreement = None
        else:
            agreement = None
        return agreement if agreement is not None and agreement.status == NORMAL else None

    # -- the API ------------------------------------------------------------------------------------

    def _query(self, params: dict[str, str], biz: dict) -> dict[str, str]:
        if not biz.get("agreement_no") and not biz.get("external_agreement_no"):
            return _error(_MISSING, "isv.missing-agreement", "agreement_no和external_agreement_no不能同时为空")
        agreement = self._find(biz)
        if agreement is None:
            return _error(_BUSINESS, *NOT_EXIST)
        return _success(agreement_no=agreement.agreement_no, external_agreement_no=agreement.external_agreement_no,
                        personal_product_code=PERSONAL_PRODUCT_CODE, sign_scene=agreement.sign_scene,
                        status=agreement.status, principal_id=BUYER_ID, alipay_logon_id=BUYER_LOGON,
                        sign_time=agreement.sign_time, valid_time=agreement.sign_time, invalid_time=INVALID_TIME,
                        single_quota=_yuan(agreement.single_cents), next_deduct_time=agreement.execute_time)

    def _pay(self, params: dict[str, str], biz: dict) -> dict[str, str]:
        """alipay.trade.pay under an agreement (the sandbox takes no other: no auth_code)."""
        order_code, subject, cents = biz.get("out_trade_no"), biz.get("subject"), _cents(biz.get("total_amount"))
        agreement_params = biz.get("agreement_params")
        if not isinstance(order_code, str) or not 0 < len(order_code) <= 64 or not subject or cents is None:
            return _invalid("out_trade_no, subject, total_amount")
        if biz.get("product_code") != PRODUCT_CODE or not isinstance(agreement_params, dict):
            return _invalid(f"product_code {PRODUCT_CODE} with agreement_params")
        agreement = self._find({"agreement_no": agreement_params.get("agreement_no")})
        if agreement is None:
            return _error(_BUSINESS, "ACQ.AGREEMENT_NOT_EXIST", "用户协议不存在")
        if cents > agreement.single_cents:
            return _error(_BUSINESS, "ACQ.CYCLE_PAY_SINGLE_FEE_EXCEED", "周期扣款的单笔金额超过签约时限制")
        with self._lock:
            trade = self._context.ledger.by_order(NAME, order_code)
            if trade is not None:
                if trade.status in (Status.PAID, Status.REFUNDED):
                    return _error(_BUSINESS, "ACQ.TRADE_HAS_SUCCESS", "交易已被支付")
                return _error(_BUSINESS, "ACQ.TRADE_HAS_CLOSE", "交易已经关闭")
            now = _now()
            # a declined charge is a trade too, closed: asked again, it stays closed
            trade = self._context.ledger.add(SandboxPayment(
                id=new_trade_no(), provider=NAME, order_code=order_code, amount_cents=cents, currency="CNY",
                description=str(subject), notify_url=params.get("notify_url") or None,
                status=Status.FAILED if agreement.declining else Status.PAID,
                extra={"gmt_create": now, "agreement_no": agreement.agreement_no,
                       **({} if agreement.declining else {"gmt_payment": now})}))
        if agreement.declining:
            return _error(_BUSINESS, agreement.declining, "买家余额不足")
        if trade.notify_url:  # told beside the answer, as Alipay does
            headers, body = self._alipay.notification(trade)
            deliver_later(trade.notify_url, body, headers)
        amount = _yuan(cents)
        return _success(trade_no=trade.id, out_trade_no=order_code, buyer_logon_id=BUYER_LOGON,
                        buyer_user_id=BUYER_ID, total_amount=amount, receipt_amount=amount, buyer_pay_amount=amount,
                        invoice_amount=amount, point_amount="0.00", gmt_payment=now, **_trans_currency(trade))

    def _unsign(self, params: dict[str, str], biz: dict) -> dict[str, str]:
        if not biz.get("agreement_no") and not biz.get("external_agreement_no"):
            return _error(_MISSING, "isv.missing-agreement", "agreement_no和external_agreement_no不能同时为空")
        agreement = self._find(biz)
        if agreement is None:
            return _error(_BUSINESS, *NOT_EXIST)
        agreement = self._change(agreement.agreement_no, status=UNSIGN, unsign_time=_now())
        if agreement.notify_url:  # told beside the answer
            headers, body = self.notification(agreement, "dut_user_unsign")
            deliver_later(agreement.notify_url, body, headers)
        return _success()

    # -- the agreement notification -----------------------------------------------------------------

    def notification(self, agreement: Agreement, notify_type: str, **overrides: str) -> tuple[dict[str, str], bytes]:
        """The signed notification of the agreement's signing or end (headers, form body);
        `overrides` replace fields before signing (tests)."""
        return self._alipay.signed_notification({
            "notify_type": notify_type, "notify_id": secrets.token_hex(16), "notify_time": _now(),
            "app_id": self._alipay.app_id, "auth_app_id": self._alipay.app_id, "charset": "utf-8", "version": "1.0",
            "sign_type": "RSA2", "agreement_no": agreement.agreement_no,
            "external_agreement_no": agreement.external_agreement_no, "personal_product_code": PERSONAL_PRODUCT_CODE,
            "sign_scene": agreement.sign_scene, "status": agreement.status, "alipay_user_id": BUYER_ID,
            "alipay_logon_id": BUYER_LOGON, "sign_time": agreement.sign_time, "valid_time": agreement.sign_time,
            "invalid_time": INVALID_TIME, "unsign_time": agreement.unsign_time or "", **overrides})

    def tell(self, agreement: Agreement, notify_type: str) -> Delivery | None:
        """Sends the agreement's notification to its sign_notify_url, if it has one."""
        if not agreement.notify_url:
            return None
        headers, body = self.notification(agreement, notify_type)
        return deliver(agreement.notify_url, body, headers)


def _rule_error(rule: dict) -> str | None:
    """What is wrong with a period rule, as Alipay has it: DAY periods of 7 or more days, MONTH
    periods executed on the 28th at the latest, a single amount in yuan."""
    period_type, period = rule.get("period_type"), rule.get("period")
    shortest = 7 if period_type == "DAY" else 1
    if period_type not in ("DAY", "MONTH") or not isinstance(period, int) or period < shortest:
        return "period_type DAY (period >= 7) or MONTH (period >= 1)"
    try:
        execute = datetime.strptime(str(rule.get("execute_time")), "%Y-%m-%d")
    except ValueError:
        return "execute_time yyyy-MM-dd"
    if period_type == "MONTH" and execute.day > 28:
        return "execute_time after the 28th"
    if _cents(rule.get("single_amount")) is None:
        return "single_amount"
    return None

