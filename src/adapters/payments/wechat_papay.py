"""WeChat Pay's papay (委托代扣) on API v2: the recurring mechanism of automatic renewals
(core.ordering.payments.RecurringPayments), for a merchant with a papay contract template (plan).

- The payment that asks for it is a 支付中签约 order (pay/contractorder): the native QR code a
  unified order gives, whose payer also signs the plan's contract under our contract code.
- WeChat tells the contract's result (and its end) at contract_notify_url, our notify URL, and
  papay/querycontract says it: the mandate is the contract_id of a signed contract.
- A renewal is deducted with pay/pappayapply under the contract_id and the renewal order's code
  (out_trade_no), so asking again for the same order is the same deduction. WeChat only accepts
  it there and deducts asynchronously: pay/paporderquery gives the result, asked for a few
  seconds. One still being deducted then is not paid (its trade_state the error); its payment
  notification settles the order once WeChat has deducted it.
- papay/deletecontract ends the contract.

querycontract and deletecontract carry no nonce_str (wechatpy sends none, as WeChat asks)."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from wechatpy.exceptions import WeChatPayException

from adapters.payments.wechat_pay import CURRENCY, WechatPayGateway, _body, _currency, _error
from adapters.payments.wechat_pay_config import WechatPayConfig
from core.ordering.model import agreement_order_code
from core.ordering.payments import (
    InvalidNotification,
    MandateEnded,
    Notification,
    PaymentRequest,
    PaymentResult,
    PaymentStart,
    RefundNotification,
)

log = logging.getLogger("coldchain.payments")

CONTRACT_SIGNED = "0"  # querycontract's contract_state; 1 is not signed, or terminated
CONTRACT_NOT_EXIST = "CONTRACT_NOT_EXIST"
PENDING_STATES = frozenset({"ACCEPT", "USERPAYING"})  # a deduction WeChat has yet to finish
DISPLAY_MAX_CHARS = 32  # contract_display_account's limit
TERMINATION_REMARK = "用户取消自动续费"  # deletecontract's reason: the customer cancelled the renewal


def _display_account(request: PaymentRequest) -> str:
    """What the contract page shows the payer as what they subscribe to: the order's description.
    WeChat refuses characters of four UTF-8 bytes (emoji) there."""
    text = "".join(c for c in _body(request) if ord(c) <= 0xFFFF)
    return text[:DISPLAY_MAX_CHARS] or request.order_code


class PapayRefused(Exception):
    """WeChat started the payment but refused to let it sign the contract, or answered a contract
    that is not ours."""


class WechatPapayGateway(WechatPayGateway):
    def __init__(self, *args: Any, plan_id: str, deduction_wait: float = 5.0, **kwargs: Any) -> None:
        """`plan_id` is the papay template; `deduction_wait` how long (seconds) charge() asks
        WeChat for the result of a deduction it accepted."""
        super().__init__(*args, **kwargs)
        self._plan_id, self._deduction_wait = plan_id, deduction_wait

    def start_with_mandate(self, request: PaymentRequest, code: str) -> PaymentStart:
        """A native 支付中签约 order: paying it signs the contract `code`. Raises PapayRefused when
        WeChat will not sign it, WeChatPayException when it refuses the order."""
        if request.currency.upper() != CURRENCY:
            raise ValueError(f"WeChat Pay takes {CURRENCY}, not {request.currency}")
        data = self._checked(self._pay.post("pay/contractorder", data={
            "appid": self._app_id, "contract_mchid": self._mch_id, "contract_appid": self._app_id,
            "out_trade_no": request.order_code, "body": _body(request), "total_fee": int(request.amount_cents),
            "spbill_create_ip": self._client_ip, "notify_url": self._notify_url, "trade_type": "NATIVE",
            "product_id": request.order_code, "plan_id": self._plan_id, "contract_code": code,
            # unique per merchant and only ordered by: the order's id
            "request_serial": int(request.order_id), "contract_display_account": _display_account(request),
            "contract_notify_url": self._notify_url}))
        if data.get("contract_result_code") != "SUCCESS":
            raise PapayRefused(f"pay/contractorder: {data.get('contract_err_code')}: "
                               f"{data.get('contract_err_code_des')}")
        return PaymentStart(pay_qr_code=data["code_url"], reference=data.get("prepay_id"))

    def mandate(self, request: PaymentRequest, code: str) -> str | None:
        """The contract_id of the contract `code`, once signed; None while it is not (or no longer)."""
        try:
            data = self._checked(self._pay.withhold.query_signing(plan_id=self._plan_id, contract_code=code))
        except WeChatPayException as error:
            if error.errcode == CONTRACT_NOT_EXIST:
                return None
            raise
        if data.get("contract_code") != code or data.get("plan_id") != self._plan_id:
            raise PapayRefused(f"papay/querycontract answered contract {data.get('contract_code')} of plan "
                               f"{data.get('plan_id')}")
        return data.get("contract_id") if data.get("contract_state") == CONTRACT_SIGNED else None

    def charge(self, mandate: str, request: PaymentRequest) -> PaymentResult:
        """Deducts the renewal order under the contract, then asks for the deduction's result. A
        refusal (the contract ended, the payer's balance short) is not paid, with WeChat's err_code;
        an answer without one (an HTTP error, WeChat's return_code FAIL) raises, as an outage does."""
        if request.currency.upper() != CURRENCY:
            return PaymentResult(paid=False, error=f"currency {request.currency} is not {CURRENCY}")
        try:
            self._checked(self._pay.post("pay/pappayapply", data={
                "appid": self._app_id, "body": _body(request), "out_trade_no": request.order_code,
                "total_fee": int(request.amount_cents), "fee_type": CURRENCY, "spbill_create_ip": self._client_ip,
                "notify_url": self._notify_url, "trade_type": "PAP", "contract_id": mandate}))
        except WeChatPayException as error:
            if error.errcode is None:  # no business answer: WeChat failed or could not be reached
                raise
            if error.errcode != "ORDERPAID":  # asked again for an order it deducted: its result below
                return PaymentResult(paid=False, error=_error(error))
        return self._deduction(request)

    def _deduction(self, request: PaymentRequest) -> PaymentResult:
        deadline = time.monotonic() + self._deduction_wait
        while True:
            try:
                data = self._checked(self._pay.withhold.query_order(out_trade_no=request.order_code))
            except WeChatPayException as error:
                if error.errcode is None:
                    raise
                return PaymentResult(paid=False, error=_error(error))
            state = data.get("trade_state") or "UNKNOWN"
            if state not in PENDING_STATES or time.monotonic() >= deadline:
                break
            time.sleep(0.5)
        amount = int(data.get("total_fee") or 0)
        if state == "SUCCESS":
            return PaymentResult(paid=True, amount_cents=amount, reference=data.get("transaction_id"),
                                 currency=_currency(data))
        return PaymentResult(paid=False, amount_cents=amount, error=state, pending=state in PENDING_STATES)

    def cancel(self, mandate: str, code: str) -> None:
        """Terminates the contract; one WeChat no longer knows as signed is ended already."""
        try:
            self._checked(self._pay.withhold.apply_cancel_signing(
                contract_id=mandate, contract_termination_remark=TERMINATION_REMARK))
        except WeChatPayException as error:
            if error.errcode != CONTRACT_NOT_EXIST:
                raise

    def parse_notification(self, headers: Mapping[str, str],
                           body: bytes) -> Notification | RefundNotification | MandateEnded:
        """A payment result, or a contract's: signed (change_type ADD) or terminated (DELETE); or a
        refund's (WechatPayGateway's)."""
        if b"<req_info>" in body:
            return super().parse_notification(headers, body)
        data = self._verified(body)
        return self._contract_result(data) if "change_type" in data else self._payment_result(data)

    def _contract_result(self, data: Mapping) -> Notification | MandateEnded:
        """A contract signed is no payment: it reaches the console as an unpaid notification of the
        order whose payment asked for the contract, to be acknowledged and recorded (the agreement is
        recorded from querycontract's answer, mandate(), which the notification only announces). A
        contract terminated (by the payer in WeChat, or by us) ends the agreement under it."""
        if data.get("mch_id") != self._mch_id or data.get("appid") not in (None, self._app_id):
            raise InvalidNotification("WeChat Pay contract notification for another merchant")
        if data.get("plan_id") != self._plan_id:
            raise InvalidNotification(f"WeChat Pay contract notification of another plan: {data.get('plan_id')}")
        if data.get("return_code") != "SUCCESS" or data.get("change_type") not in ("ADD", "DELETE"):
            raise InvalidNotification("WeChat Pay contract notification without a contract result")
        order_code = agreement_order_code(str(data.get("contract_code") or ""))
        if order_code is None:
            raise InvalidNotification(f"WeChat Pay contract notification of a contract not ours: "
                                      f"{data.get('contract_code')!r}")
        log.info("WeChat Pay contract %s of order %s: %s", data.get("contract_id"), order_code, data["change_type"])
        if data["change_type"] == "DELETE":
            return MandateEnded(str(data["contract_code"]), data.get("contract_id") or None)
        return Notification(order_code=order_code, paid=False, amount_cents=0)


def wechat_gateway(config: WechatPayConfig, notify_url: str) -> WechatPayGateway:
    """The adapter of the configuration: with papay when it names a plan."""
    args = (config.base_url, config.app_id, config.mch_id, config.api_key, notify_url)
    options: dict[str, Any] = {"mch_cert": config.mch_cert, "mch_key": config.mch_key,
                               "oauth_secret": config.oauth_secret}
    if config.papay_plan_id is None:
        log.info("WeChat Pay takes no automatic renewals: WECHAT_PAPAY_PLAN_ID is not set")
        return WechatPayGateway(*args, **options)
    return WechatPapayGateway(*args, plan_id=config.papay_plan_id, **options)
