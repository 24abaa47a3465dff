"""Alipay's 商家扣款 (merchant deduction) agreements: the recurring mechanism of automatic renewals
(core.ordering.payments.RecurringPayments), for a merchant with a sign scene (ALIPAY_AGREEMENT_SIGN_SCENE).

- The payment that asks for it is an alipay.trade.page.pay whose agreement_sign_params sign the
  agreement (personal product CYCLE_PAY_AUTH_P, product GENERAL_WITHHOLDING) under our agreement
  code as external_agreement_no, charged at most once a period of the order's months, at most
  what the order costs. Precreated (QR code) trades cannot sign one, so the payer's QR code is
  the page pay URL itself: the SDK signs it here, no call is made until the payer opens it.
- Alipay tells the agreement's signing (and its end) at sign_notify_url, our notify URL, and
  alipay.user.agreement.query says it: the mandate is the agreement_no of a NORMAL agreement.
- A renewal is charged with alipay.trade.pay (product GENERAL_WITHHOLDING) carrying
  agreement_params.agreement_no, under the renewal order's code (out_trade_no), so asking again
  for the same order is the same trade (Alipay answers ACQ.TRADE_HAS_SUCCESS: the query says it).
- alipay.user.agreement.unsign ends it."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from alipay.aop.api.domain.AccessParams import AccessParams
from alipay.aop.api.domain.AgreementParams import AgreementParams
from alipay.aop.api.domain.AlipayTradePagePayModel import AlipayTradePagePayModel
from alipay.aop.api.domain.AlipayTradePayModel import AlipayTradePayModel
from alipay.aop.api.domain.AlipayUserAgreementQueryModel import AlipayUserAgreementQueryModel
from alipay.aop.api.domain.AlipayUserAgreementUnsignModel import AlipayUserAgreementUnsignModel
from alipay.aop.api.domain.PeriodRuleParams import PeriodRuleParams
from alipay.aop.api.domain.SignParams import SignParams
from alipay.aop.api.request.AlipayTradePagePayRequest import AlipayTradePagePayRequest
from alipay.aop.api.request.AlipayTradePayRequest import AlipayTradePayRequest
from alipay.aop.api.request.AlipayUserAgreementQueryRequest import AlipayUserAgreementQueryRequest
from alipay.aop.api.request.AlipayUserAgreementUnsignRequest import AlipayUserAgreementUnsignRequest
from alipay.aop.api.response.AlipayTradePayResponse import AlipayTradePayResponse
from alipay.aop.api.response.AlipayUserAgreementQueryResponse import AlipayUserAgreementQueryResponse
from alipay.aop.api.response.AlipayUserAgreementUnsignResponse import AlipayUserAgreementUnsignResponse

from adapters.payments.alipay import (
    CURRENCY,
    SUCCESS_CODE,
    AlipayError,
    AlipayGateway,
    _cents,
    _subject,
    _yuan,
)
from adapters.payments.alipay_config import AlipayConfig
from core.devices.model import add_months
from core.ordering.model import agreement_order_code
from core.ordering.payments import (
    PAYMENT_VALIDITY,
    InvalidNotification,
    MandateEnded,
    Notification,
    PaymentRequest,
    PaymentResult,
    PaymentStart,
    Provider,
    RefundNotification,
)
from core.ordering.renewals import RENEW_BEFORE

log = logging.getLogger("coldchain.payments")

PERSONAL_PRODUCT_CODE = "CYCLE_PAY_AUTH_P"  # the payer's side of a periodic deduction agreement
PRODUCT_CODE = "GENERAL_WITHHOLDING"  # 商家扣款: what the agreement is signed for and charged with
SIGN_CHANNEL = "ALIPAYAPP"  # the payer signs in the Alipay app, where the QR code opens the page
AGREEMENT_NORMAL = "NORMAL"
AGREEMENT_NOT_EXIST = "USER_AGREEMENT_NOT_EXIST"
AGREEMENT_NOTICES = frozenset({"dut_user_sign", "dut_user_unsign"})
LAST_EXECUTE_DAY = 28  # a monthly period's execute_time: never after the 28th, which every month has
# A trade.pay answer that does not say the trade's fate: the query does.
IN_PROCESS_CODES = frozenset({"10003", "20000"})  # waiting for the payer; Alipay's unknown error
PAID_ALREADY = "ACQ.TRADE_HAS_SUCCESS"


class _BizContent:
    """A biz_content the SDK's model of the method cannot hold (its page pay's agreement_sign_params
    predate the periodic ones): the request serialises whatever has to_alipay_dict()."""

    def __init__(self, fields: dict[str, Any]) -> None:
        self._fields = fields

    def to_alipay_dict(self) -> dict[str, Any]:
        return self._fields


class AlipayAgreementGateway(AlipayGateway):
    def __init__(self, *args: Any, sign_scene: str, charge_wait: float = 5.0, **kwargs: Any) -> None:
        """`sign_scene` is the merchant's 签约场景码; `charge_wait` how long (seconds) charge() asks
        Alipay about a trade it is still processing."""
        super().__init__(*args, **kwargs)
        self._sign_scene, self._charge_wait = sign_scene, charge_wait

    def start_with_mandate(self, request: PaymentRequest, code: str) -> PaymentStart:
        if request.currency != CURRENCY:
            raise ValueError(f"Alipay takes {CURRENCY}, not {request.currency}")
        if request.amount_cents <= 0 or request.months <= 0:
            raise ValueError("the amount and the months renewed must be positive")
        model = AlipayTradePagePayModel()
        model.out_trade_no = request.order_code
        model.total_amount = _yuan(request.amount_cents)
        model.subject = _subject(request)
        model.product_code = "FAST_INSTANT_TRADE_PAY"
        model.timeout_express = f"{int(PAYMENT_VALIDITY[Provider.ALIPAY].total_seconds() // 60)}m"
        call = AlipayTradePagePayRequest(biz_model=_BizContent(
            {**model.to_alipay_dict(), "agreement_sign_params": self._sign_params(request, code).to_alipay_dict()}))
        call.notify_url = self._notify_url
        return PaymentStart(pay_qr_code=self._client.page_execute(call, http_method="GET"),
                            reference=request.order_code)

    def _sign_params(self, request: PaymentRequest, code: str) -> SignParams:
        """The agreement: charged once every `months`, first the day before the months paid for end
        (as the console charges a device whose service this order starts; a device with time left
        is charged later, within the period Alipay allows), at most the order's amount each time."""
        first = add_months(request.created_at, request.months) - RENEW_BEFORE
        period = PeriodRuleParams()
        period.period_type, period.period = "MONTH", request.months
        period.execute_time = first.replace(day=min(first.day, LAST_EXECUTE_DAY)).strftime("%Y-%m-%d")
        period.single_amount = _yuan(request.amount_cents)
        access = AccessParams()
        access.channel = SIGN_CHANNEL
        params = SignParams()
        params.personal_product_code, params.product_code = PERSONAL_PRODUCT_CODE, PRODUCT_CODE
        params.sign_scene, params.external_agreement_no = self._sign_scene, code
        params.access_params, params.period_rule_params = access, period
        params.sign_notify_url = self._notify_url
        return params

    def mandate(self, request: PaymentRequest, code: str) -> str | None:
        """The agreement_no of the agreement `code`, while it is NORMAL."""
        model = AlipayUserAgreementQueryModel()
        model.personal_product_code, model.sign_scene = PERSONAL_PRODUCT_CODE, self._sign_scene
        model.external_agreement_no = code
        response = self._execute(AlipayUserAgreementQueryRequest(biz_model=model), AlipayUserAgreementQueryResponse())
        if response.code != SUCCESS_CODE:
            if response.sub_code == AGREEMENT_NOT_EXIST:
                return None
            raise AlipayError(f"alipay.user.agreement.query: {self._failure(response)}")
        if response.external_agreement_no not in (None, code):
            raise AlipayError(f"alipay.user.agreement.query answered agreement {response.external_agreement_no}")
        return response.agreement_no if response.status == AGREEMENT_NORMAL else None

    def charge(self, mandate: str, request: PaymentRequest) -> PaymentResult:
        """Charges the renewal order under the agreement. A refusal (the agreement ended, the
        payer's balance short, more than the agreement allows) is not paid, with Alipay's sub_code."""
        if request.currency != CURRENCY:
            return PaymentResult(paid=False, error=f"currency {request.currency} is not {CURRENCY}")
        agreement = AgreementParams()
        agreement.agreement_no = mandate
        model = AlipayTradePayModel()
        model.out_trade_no = request.order_code
        model.total_amount = _yuan(request.amount_cents)
        model.subject = _subject(request)
        model.product_code = PRODUCT_CODE
        model.agreement_params = agreement
        call = AlipayTradePayRequest(biz_model=model)
        call.notify_url = self._notify_url
        response = self._execute(call, AlipayTradePayResponse())
        if response.code == SUCCESS_CODE:
            if response.out_trade_no != request.order_code:
                raise AlipayError(f"alipay.trade.pay answered for order {response.out_trade_no}")
            try:
                amount = _cents(response.total_amount)
            except ValueError as error:
                raise AlipayError(f"alipay.trade.pay: {error}") from error
            return PaymentResult(paid=True, amount_cents=amount, reference=response.trade_no,
                                 currency=response.trans_currency or CURRENCY)
        if response.code in IN_PROCESS_CODES or response.sub_code == PAID_ALREADY:
            return self._asked(request)
        return PaymentResult(paid=False, error=f"{response.sub_code}: {response.sub_msg}")

    def _asked(self, request: PaymentRequest) -> PaymentResult:
        """The trade's fate, asked while Alipay is still processing it (charge_wait at most)."""
        deadline = time.monotonic() + self._charge_wait
        result = self.query(request)
        while not result.paid and result.error == "WAIT_BUYER_PAY" and time.monotonic() < deadline:
            time.sleep(0.5)
            result = self.query(request)
        return result

    def cancel(self, mandate: str, code: str) -> None:
        """Unsigns the agreement; one Alipay no longer knows is ended already."""
        model = AlipayUserAgreementUnsignModel()
        model.agreement_no, model.personal_product_code = mandate, PERSONAL_PRODUCT_CODE
        response = self._execute(AlipayUserAgreementUnsignRequest(biz_model=model),
                                 AlipayUserAgreementUnsignResponse())
        if response.code != SUCCESS_CODE and response.sub_code != AGREEMENT_NOT_EXIST:
            raise AlipayError(f"alipay.user.agreement.unsign: {self._failure(response)}")

    def parse_notification(self, headers: Mapping[str, str],
                           body: bytes) -> Notification | RefundNotification | MandateEnded:
        """A trade's notification (of a payment, or a refund), or an agreement's: signed
        (dut_user_sign) or ended (dut_user_unsign)."""
        params = self._verified(body)
        if params.get("notify_type") in AGREEMENT_NOTICES:
            return self._agreement_result(params)
        return self._trade_or_refund(params)

    def _agreement_result(self, params: Mapping[str, str]) -> Notification | MandateEnded:
        """An agreement signed is no payment: it reaches the console as an unpaid notification of the
        order whose payment asked for the agreement, to be acknowledged and recorded (the agreement is
        recorded from alipay.user.agreement.query's answer, mandate(), which this only announces). An
        agreement ended (dut_user_unsign: by the payer in Alipay, or by us) ends the one under it."""
        if params.get("personal_product_code") != PERSONAL_PRODUCT_CODE or params.get("sign_scene") != self._sign_scene:
            raise InvalidNotification(f"an agreement of another product or scene: {params.get('sign_scene')!r}")
        order_code = agreement_order_code(params.get("external_agreement_no", ""))
        if order_code is None or not params.get("agreement_no"):
            raise InvalidNotification(f"an agreement not ours: {params.get('external_agreement_no')!r}")
        log.info("Alipay agreement %s of order %s: %s %s", params["agreement_no"], order_code, params["notify_type"],
                 params.get("status"))
        if params.get("notify_type") == "dut_user_unsign":
            return MandateEnded(params["external_agreement_no"], params["agreement_no"])
        return Notification(order_code=order_code, paid=False, amount_cents=0)


def alipay_gateway(config: AlipayConfig, notify_url: str) -> AlipayGateway:
    """The adapter of the configuration: with agreement pay when it names a sign scene."""
    args = (config.gateway_url, config.app_id, config.app_private_key, config.alipay_public_key, notify_url)
    if config.agreement_sign_scene is None:
        log.info("Alipay takes no automatic renewals: ALIPAY_AGREEMENT_SIGN_SCENE is not set")
        return AlipayGateway(*args)
    return AlipayAgreementGateway(*args, sign_scene=config.agreement_sign_scene)
