"""WeChat Pay's papay (委托代扣) in the sandbox, for the merchant's one plan (contract template):
支付中签约 orders (pay/contractorder), whose payment signs a contract; papay/querycontract;
deductions under a contract (pay/pappayapply, pay/paporderquery); papay/deletecontract; and the
contract notification (change_type ADD when signed, DELETE when terminated), signed as WeChat
signs the payment results.

A deduction is taken at once, or refused as a contract set to decline says (decline()), or left
accepted but not yet deducted while its contract holds them (hold()): the payer page's Pay or
Fail then finishes it, as WeChat would later. querycontract and deletecontract take no nonce_str."""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from payment_sandbox.ledger import SandboxPayment, Status, new_id
from payment_sandbox.provider import Delivery, SandboxContext, deliver, deliver_later
from payment_sandbox.wechat import (
    BEIJING,
    NAME,
    ORDERCLOSED,
    ORDERPAID,
    OUT_TRADE_NO_USED,
    Refusal,
    _amount,
    _digits,
    open_id_for,
    sign,
    to_xml,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from payment_sandbox.wechat import WechatSandbox

CONTRACT_NOT_EXIST = ("CONTRACT_NOT_EXIST", "签约协议不存在或已解约")
SIGNED, UNSIGNED = "0", "1"  # querycontract's contract_state
BY_PAYER, BY_MERCHANT_API = "2", "3"  # contract_termination_mode
CONTRACT_FIELDS = ("contract_mchid", "contract_appid", "plan_id", "contract_code", "request_serial",
                   "contract_display_account", "contract_notify_url")
INT64_MAX = 2**63 - 1
EXPIRES = "2099-12-31 23:59:59"  # a contract without an end of its own


def _time() -> str:
    return datetime.now(UTC).astimezone(BEIJING).strftime("%Y-%m-%d %H:%M:%S")


@dataclass(frozen=True)
class Contract:
    contract_id: str
    contract_code: str
    request_serial: str
    display_account: str
    notify_url: str
    openid: str
    signed_at: str
    state: str = SIGNED
    terminated_at: str | None = None
    termination_mode: str | None = None
    termination_remark: str | None = None
    declining: str | None = None  # why its deductions fail (the payer's balance), for tests
    holding: bool = False  # its deductions wait to be finished on the payer page, for tests


class Papay:
    def __init__(self, wechat: WechatSandbox, context: SandboxContext, plan_id: str) -> None:
        self._wechat, self._context, self.plan_id = wechat, context, plan_id
        self._lock = threading.Lock()
        self._contracts: dict[str, Contract] = {}  # by contract_id

    def endpoints(self) -> dict[str, tuple[Callable[[dict[str, str]], dict[str, object]], bool]]:
        """The API's paths, each with its handler and whether it is nonceless."""
        return {"/pay/contractorder": (self._contract_order, False),
                "/papay/querycontract": (self._query_contract, True),
                "/pay/pappayapply": (self._apply_deduction, False),
                "/pay/paporderquery": (self._query_deduction, False),
                "/papay/deletecontract": (self._delete_contract, True)}

    # -- contracts ----------------------------------------------------------------------------------

    def contract(self, contract_id: str) -> Contract | None:
        with self._lock:
            return self._contracts.get(contract_id)

    def contract_of(self, contract_code: str) -> Contract | None:
        """The newest contract signed under the code."""
        with self._lock:
            found = [c for c in self._contracts.values() if c.contract_code == contract_code]
        return found[-1] if found else None

    def _change(self, contract_id: str, **changes: Any) -> Contract:
        with self._lock:
            contract = replace(self._contracts[contract_id], **changes)
            self._contracts[contract_id] = contract
            return contract

    def decline(self, contract_id: str, reason: str | None = "余额不足") -> None:
        """The contract's deductions fail for `reason` (None: they succeed again)."""
        self._change(contract_id, declining=reason)

    def hold(self, contract_id: str, holding: bool = True) -> None:
        """The contract's deductions stay accepted (ACCEPT) until finished on the payer page."""
        self._change(contract_id, holding=holding)

    def terminate_by_payer(self, contract_id: str) -> Delivery:
        """The payer ends the contract in WeChat: terminated, and the merchant told."""
        return self.tell(self._change(contract_id, state=UNSIGNED, terminated_at=_time(),
                                      termination_mode=BY_PAYER), "DELETE")

    def sign(self, payment: SandboxPayment) -> Contract | None:
        """The contract a paid 支付中签约 order asked for, signed by its payer."""
        asked = payment.extra.get("contract")
        if not asked:
            return None
        contract = Contract(_digits("Wx", 28), asked["contract_code"], asked["request_serial"],
                            asked["contract_display_account"], asked["contract_notify_url"],
                            payment.extra.get("openid") or open_id_for(self._wechat.api_key, f"payer:{payment.id}"),
                            _time())
        with self._lock:
            self._contracts[contract.contract_id] = contract
        return contract

    def _find(self, fields: dict[str, str]) -> Contract:
        """By contract_id, or plan_id and contract_code; only a signed contract."""
        if fields.get("contract_id"):
            contract = self.contract(fields["contract_id"])
        elif fields.get("plan_id") and fields.get("contract_code"):
            if fields["plan_id"] != self.plan_id:
                raise Refusal(*CONTRACT_NOT_EXIST)
            contract = self.contract_of(fields["contract_code"])
        else:
            raise Refusal("PARAM_ERROR", "contract_id和plan_id+contract_code必须填一个")
        if contract is None or contract.state != SIGNED:
            raise Refusal(*CONTRACT_NOT_EXIST)
        return contract

    # -- the API ------------------------------------------------------------------------------------

    def _contract_order(self, fields: dict[str, str]) -> dict[str, object]:
        for required in CONTRACT_FIELDS:
            if not fields.get(required):
                raise Refusal("PARAM_ERROR", f"缺少参数{required}")
        if fields["contract_mchid"] != self._wechat.mch_id or fields["contract_appid"] != self._wechat.app_id:
            raise Refusal("PARAM_ERROR", "contract_mchid和contract_appid必须与mch_id和appid一致")
        if fields["plan_id"] != self.plan_id:
            raise Refusal("PARAM_ERROR", "模板id不存在")
        serial, display = fields["request_serial"], fields["contract_display_account"]
        if not serial.isdigit() or int(serial) > INT64_MAX:
            raise Refusal("PARAM_ERROR", "request_serial: a whole number within Int64")
        if len(fields["contract_code"]) > 32 or len(display) > 32 or any(ord(c) > 0xFFFF for c in display):
            raise Refusal("PARAM_ERROR", "contract_code或contract_display_account参数错误")
        asked = {name: fields[name] for name in CONTRACT_FIELDS}
        payment = self._wechat.native_order(fields, contract=asked)
        result: dict[str, object] = {
            "trade_type": "NATIVE", "prepay_id": payment.id, "code_url": self._context.payer_page(NAME, payment.id),
            "plan_id": self.plan_id, "contract_code": asked["contract_code"], "request_serial": serial,
            "contract_display_account": display, "out_trade_no": payment.order_code}
        signed = self.contract_of(asked["contract_code"])
        if signed is not None and signed.state == SIGNED:
            return {**result, "contract_result_code": "FAIL", "contract_err_code": "CONTRACT_ALREADY_EXIST",
                    "contract_err_code_des": "该签约协议号已签约"}
        return {**result, "contract_result_code": "SUCCESS"}

    def _query_contract(self, fields: dict[str, str]) -> dict[str, object]:
        if fields.get("version") != "1.0":
            raise Refusal("PARAM_ERROR", "version: 1.0")
        if fields.get("contract_id"):
            contract = self.contract(fields["contract_id"])
        elif fields.get("plan_id") == self.plan_id and fields.get("contract_code"):
            contract = self.contract_of(fields["contract_code"])
        else:
            raise Refusal("PARAM_ERROR", "contract_id和plan_id+contract_code必须填一个")
        if contract is None:
            raise Refusal(*CONTRACT_NOT_EXIST)
        return {"contract_id": contract.contract_id, "plan_id": self.plan_id,
                "request_serial": contract.request_serial, "contract_code": contract.contract_code,
                "contract_display_account": contract.display_account, "contract_state": contract.state,
                "contract_signed_time": contract.signed_at, "contract_expired_time": EXPIRES,
                "contract_terminated_time": contract.terminated_at,
                "contract_termination_mode": contract.termination_mode,
                "contract_termination_remark": contract.termination_remark, "openid": contract.openid}

    def _apply_deduction(self, fields: dict[str, str]) -> dict[str, object]:
        for required in ("body", "out_trade_no", "total_fee", "spbill_create_ip", "notify_url", "contract_id"):
            if not fields.get(required):
                raise Refusal("PARAM_ERROR", f"缺少参数{required}")
        if fields.get("trade_type") != "PAP" or (fields.get("fee_type") or "CNY") != "CNY":
            raise Refusal("PARAM_ERROR", "trade_type: PAP, fee_type: CNY")
        total_fee, out_trade_no = _amount(fields, "total_fee"), fields["out_trade_no"]
        contract = self._find({"contract_id": fields["contract_id"]})
        with self._lock:
            existing = self._context.ledger.by_order(NAME, out_trade_no)
            if existing is not None:
                if existing.status in (Status.PAID, Status.REFUNDED):
                    raise Refusal(*ORDERPAID)
                if existing.status is not Status.PENDING:
                    raise Refusal(*ORDERCLOSED)
                if existing.amount_cents != total_fee or existing.extra.get("contract_id") != contract.contract_id:
                    raise Refusal(*OUT_TRADE_NO_USED)
                return {}  # the same deduction asked again, still being deducted
            payment = self._context.ledger.add(SandboxPayment(
                new_id("pap", 32), NAME, out_trade_no, total_fee, "CNY", description=fields["body"],
                notify_url=fields["notify_url"], extra={"trade_type": "PAP", "contract_id": contract.contract_id,
                                                        "openid": contract.openid}))
        if not contract.holding:
            if contract.declining:
                payment = self._context.ledger.update(payment.id, extra={**payment.extra,
                                                                          "failure": contract.declining})
            done = self._wechat.settle(payment, paid=not contract.declining)
            if done is not None and done.notify_url:  # told beside the answer, as WeChat does
                headers, body = self._wechat.notification(done)
                deliver_later(done.notify_url, body, headers)
        return {}

    def _query_deduction(self, fields: dict[str, str]) -> dict[str, object]:
        if not fields.get("out_trade_no"):
            raise Refusal("PARAM_ERROR", "缺少参数out_trade_no")
        payment = self._context.ledger.by_order(NAME, fields["out_trade_no"])
        if payment is None or payment.extra.get("trade_type") != "PAP":
            raise Refusal("ORDERNOTEXIST", "订单不存在")
        result = self._wechat.order_state(payment, fields)
        if payment.status in (Status.PAID, Status.REFUNDED):
            result.update(transaction_id=payment.extra["transaction_id"], time_end=payment.extra["time_end"],
                          openid=payment.extra["openid"], cash_fee=payment.amount_cents)
        elif payment.status is Status.FAILED:
            result["err_code_des"] = payment.extra.get("failure", "扣款失败")
        return result

    def _delete_contract(self, fields: dict[str, str]) -> dict[str, object]:
        if fields.get("version") != "1.0" or not fields.get("contract_termination_remark"):
            raise Refusal("PARAM_ERROR", "version: 1.0, contract_termination_remark必填")
        contract = self._find(fields)
        contract = self._change(contract.contract_id, state=UNSIGNED, terminated_at=_time(),
                                termination_mode=BY_MERCHANT_API,
                                termination_remark=fields["contract_termination_remark"])
        # told as WeChat tells it, beside the answer rather than before it
        deliver_later(contract.notify_url, self.notification_xml(contract, "DELETE"), {"Content-Type": "text/xml"})
        return {"contract_id": contract.contract_id, "plan_id": self.plan_id, "contract_code": contract.contract_code}

    # -- the contract notification --------------------------------------------------------------------

    def notification_xml(self, contract: Contract, change_type: str, *, key: str | None = None,
                         **overrides: object) -> bytes:
        """The signed contract notification; `key` signs instead of the API key (a forgery),
        `overrides` change fields before signing (None drops one)."""
        fields: dict[str, object] = {
            "return_code": "SUCCESS", "return_msg": "OK", "result_code": "SUCCESS", "mch_id": self._wechat.mch_id,
            "contract_code": contract.contract_code, "plan_id": self.plan_id, "openid": contract.openid,
            "change_type": change_type, "operate_time": contract.terminated_at or contract.signed_at,
            "contract_id": contract.contract_id, "contract_expired_time": EXPIRES,
            "request_serial": contract.request_serial, "nonce_str": secrets.token_hex(16),
            "contract_termination_mode": contract.termination_mode if change_type == "DELETE" else None,
            **overrides}
        fields = {k: v for k, v in fields.items() if v is not None}
        fields["sign"] = sign({k: str(v) for k, v in fields.items()}, key or self._wechat.api_key)
        return to_xml(fields)

    def tell(self, contract: Contract, change_type: str) -> Delivery:
        """Sends the contract notification to the contract's notify URL (standing in for the plan's
        termination URL, for its end)."""
        return deliver(contract.notify_url, self.notification_xml(contract, change_type), {"Content-Type": "text/xml"})
