"""Paying a calibration application and cancelling it (spec 001 section 7: /payment/payment/wechatPay,
aliPay, confirmCalibration; /calibration/Application/cancel/apply), for the same callers as the
other calibration calls (views.caller: an account, the lab, a customer without an account by number
with the X-Calibration-Token header; the contact header only reads, so it neither pays nor cancels).

The spec lists wechatPay and aliPay as GET: they start a payment at the provider and record it on
the application, so they are POST here (never cached, prefetched or replayed by a browser, and in
the operation log as every change is). `scene` says where the payer is: `native` a QR code on a PC
(or Stripe's, PayPal's own start), `jsapi` inside WeChat with the OpenID of getOpenId, `wap`
Alipay's mobile page, which sends the payer back to the mobile success page; that page (and the
PC's, polling) asks confirmCalibration whether the application is paid. The providers' notifications
reach the console at /payment/notify/<provider> (adapters.payments.calibration_notifications)."""

from __future__ import annotations

from flask.views import MethodView
from marshmallow import fields, validate

from core.calibration.errors import (
    AlreadyCancelled,
    AlreadyReceived,
    AlreadyReturned,
    NotPayable,
    StatusChangeRefused,
    TokenRequired,
)
from core.calibration.ports import PayScene
from core.shared.edition import PayType
from core.shared.errors import PaymentFailed, PayTypeNotOffered
from entrypoints.api import context
from entrypoints.api.calibration import schemas as s
from entrypoints.api.calibration.views import NOT_YOURS, by_number, caller, ref, row, shown
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, Schema

blp = ApiBlueprint("calibration_payments", __name__,
                   description="Calibration: paying an application (WeChat Pay, Alipay, the international "
                               "edition's providers), its return page, and cancelling it with its refund")

PAY_REFUSALS = (NotPayable, PayTypeNotOffered, PaymentFailed, TokenRequired)
CANCEL_REFUSALS = (AlreadyCancelled, AlreadyReceived, AlreadyReturned, StatusChangeRefused, TokenRequired)
REFUND_STATES = ("0 nothing to pay back, 1 asked of the provider (pending), 2 paid back, 3 refused (the lab pays it "
                 "back)")


def _scene(*scenes: PayScene) -> fields.String:
    return fields.String(load_default=PayScene.NATIVE.value, validate=validate.OneOf([x.value for x in scenes]),
                         metadata={"description": "where the payer is: native (a QR code on a PC), jsapi (inside "
                                                  "WeChat, with openId), wap (Alipay's mobile page)"})


def _open_id() -> fields.String:
    return fields.String(validate=validate.Length(min=1, max=128), metadata={
        "description": "jsapi: the payer's OpenID (GET /payment/payment/getOpenId with WeChat's code)"})


class WechatPayBody(s.RefSchema):
    scene = _scene(PayScene.NATIVE, PayScene.JSAPI)
    openId = _open_id()


class AliPayBody(s.RefSchema):
    scene = _scene(PayScene.NATIVE, PayScene.WAP)


class PayBody(s.RefSchema):
    payType = fields.Integer(required=True, validate=validate.OneOf([int(p) for p in PayType]), metadata={
        "description": "one of the edition's pay types (1 WeChat Pay, 2 Alipay | 20 PayPal, 30 Google Pay, 40 card)"})
    scene = _scene(*PayScene)
    openId = _open_id()


def _optional(description: str) -> fields.String:
    return fields.String(metadata={"description": description})


class PaymentStartedSchema(Schema):
    applicationNumber = fields.String(required=True)
    payType = fields.Integer(required=True)
    scene = fields.String(required=True)
    totalFee = fields.Integer(required=True, metadata={"description": "cents"})
    currency = fields.String(required=True)
    payQrCode = _optional("native WeChat Pay and Alipay: the QR code's content")
    approveUrl = _optional("wap: Alipay's mobile page to open; PayPal: its approve page")
    clientSecret = _optional("Stripe: the payment intent's client secret")
    appId = _optional("jsapi: WeixinJSBridge getBrandWCPayRequest's appId")
    timeStamp = _optional("jsapi: its timeStamp")
    nonceStr = _optional("jsapi: its nonceStr")
    package = _optional("jsapi: its package (prepay_id=...)")
    signType = _optional("jsapi: its signType")
    paySign = _optional("jsapi: its paySign")
    payUrl = _optional("jsapi with the development backend: the pay link standing in for WeChat's sheet")


class WalletBody(s.RefSchema):
    paymentPlatformId = fields.String(required=True, validate=validate.Length(min=1, max=255), metadata={
        "description": "the payment method the wallet gave (Stripe's, as PayOrder/confirmPay takes it)"})


class PaidSchema(Schema):
    paid = fields.Boolean(required=True, metadata={
        "description": "the application is paid (status 2 or further up its ladder)"})
    application = fields.Nested(s.ApplicationSchema, required=True)


class CancelledSchema(Schema):
    application = fields.Nested(s.ApplicationSchema, required=True)
    refundFee = fields.Integer(required=True, metadata={"description": "cents paid back"})
    refundState = fields.Integer(required=True, metadata={"description": REFUND_STATES})


def _start(body: dict, pay_type: PayType) -> dict:
    who = caller()
    scene = PayScene(body.get("scene") or PayScene.NATIVE.value)
    begun = context.container().start_calibration_payment()(who, ref(body), pay_type, scene, body.get("openId"))
    application = begun.application  # as the payment was started for it: not read a second time
    return {**begun.payer_fields, "applicationNumber": application.number, "payType": int(pay_type),
            "scene": scene.value, "totalFee": application.total_cents, "currency": application.currency}


def _pay_doc(func):
    func = blp.ok(PaymentStartedSchema, refusals=PAY_REFUSALS)(func)
    return blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)(func)


@blp.route("/payment/payment/wechatPay")
class WechatPayView(MethodView):
    @by_number
    @blp.arguments(WechatPayBody)
    @_pay_doc
    def post(self, body):
        """Pays an unpaid application (now, or later from the list) by WeChat Pay: a native QR code
        on a PC, or inside WeChat (scene jsapi, openId) the parameters of WeixinJSBridge's sheet.
        Its customer or the lab; code 2208 once it is paid or cancelled."""
        return _start(body, PayType.WECHAT)


@blp.route("/payment/payment/aliPay")
class AliPayView(MethodView):
    @by_number
    @blp.arguments(AliPayBody)
    @_pay_doc
    def post(self, body):
        """Pays an unpaid application by Alipay: a precreated QR code on a PC, or (scene wap) Alipay's
        mobile page to open, which sends the payer back to /mobile/calibration/apply/success."""
        return _start(body, PayType.ALIPAY)


@blp.route("/payment/payment/calibrationPay")
class PayView(MethodView):
    @by_number
    @blp.arguments(PayBody)
    @_pay_doc
    def post(self, body):
        """Pays an unpaid application by any of the edition's pay types (the international edition's
        Stripe client secret or PayPal approve page; WeChat Pay and Alipay as their own calls do)."""
        return _start(body, PayType(body["payType"]))  # one of the pay types (the schema's); offered or not: the core


@blp.route("/payment/payment/confirmCalibration")
class ConfirmView(MethodView):
    @by_number
    @blp.arguments(s.RefQuery, location="query")
    @blp.ok(PaidSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def get(self, query):
        """The page the payer comes back to (and the PC's paying dialog, polling) asks whether the
        application is paid. Unpaid with a payment started, the provider is asked once, and what it
        took settles the application as its notification would (once, however often asked)."""
        who = caller()
        application = context.container().confirm_calibration_payment()(who, ref(query))
        return {"paid": application.paid_at is not None, "application": shown(application, who, query)}

    @by_number
    @blp.arguments(WalletBody)
    @blp.ok(PaidSchema, refusals=(PaymentFailed, TokenRequired))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """A wallet payment (30 Google Pay, 40 card payment-request button, started by calibrationPay):
        the provider charges the payment method and what it took settles the application at once;
        declined, 1112 and the application stays unpaid, to be paid again."""
        who = caller()
        application = context.container().confirm_calibration_payment()(who, ref(body), body["paymentPlatformId"])
        return {"paid": application.paid_at is not None, "application": shown(application, who, body)}


@blp.route("/calibration/Application/cancel/apply")
class CancelView(MethodView):
    @by_number
    @blp.arguments(s.RefSchema)
    @blp.ok(CancelledSchema, refusals=CANCEL_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """Cancels the application (cancel/check says whether it may, and what it pays back): by its
        customer until the devices are received (7), by the lab until they are returned (8). What was
        paid and not received is paid back through the provider it was paid with (refundState 1 while
        the provider has not finished; the refunds job asks again, paid once); a payment started and
        not made is withdrawn at its provider."""
        who = caller()
        cancelled = context.container().cancel_calibration()(who, ref(body))
        return {"application": row(cancelled.application, anonymous=who.anonymous),
                "refundFee": cancelled.refund_cents, "refundState": int(cancelled.refund_state)}

