"""Where payment providers and returning payers reach the console (api-contract section 6):
notifications (answered as each provider expects, not in the envelope), PayPal's return and
cancel pages, refunds, and WeChat's OAuth code exchange."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Response, redirect, request
from flask.views import MethodView
from marshmallow import fields, validate
from werkzeug.wrappers import Response as Redirect

from core.ordering.payments import Acknowledgement, Provider
from core.shared import errors as e
from core.shared.edition import PayType
from core.shared.messages import N_
from entrypoints.api import context
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, Schema

blp = ApiBlueprint("payment_providers", __name__, description="Payment providers: notifications, PayPal's "
                                                               "return, refunds, WeChat OpenID")

MAX_NOTIFICATION_BYTES = 64 * 1024
_ANSWERS = {"200": {"description": "accepted (the provider stops retrying), or refused when the provider "
                                   "expects its failure answer with 200 (WeChat Pay, Alipay)",
                    "content": {t: {"schema": {"type": "string"}} for t in ("text/xml", "text/plain")}
                    | {"application/json": {"schema": {"type": "object"}}}},
            "400": {"description": "refused: bad signature, unknown order, wrong amount (the provider retries)",
                    "content": {"application/json": {"schema": {"type": "object"}}}}}


def _answer(ack: Acknowledgement) -> Response:
    return Response(ack.body, status=ack.status, content_type=ack.content_type)


def _notification(provider: Provider, camp: int = 0) -> Response:
    body = request.get_data(cache=False)[:MAX_NOTIFICATION_BYTES + 1]
    if len(body) > MAX_NOTIFICATION_BYTES:
        body = b""  # nobody's genuine notification is this large: refused as unreadable
    handle = context.container().handle_provider_notification()  # calibration's, then ordering's
    return _answer(handle(provider, request.headers, body, camp))


def _notify_doc(provider: Provider, check: str):
    return blp.doc(summary=f"{provider.value} payment notification", description=(
        f"Called by {provider.value.title()}, not by clients. {check} Every notification is recorded with its "
        "verdict; a paid order is settled once however often it is notified."),
        requestBody={"content": {"*/*": {"schema": {"type": "string"}}}}, responses=_ANSWERS)


@blp.route("/notify/wechat")
class WechatNotifyView(MethodView):
    @blp.public
    @_notify_doc(Provider.WECHAT, "XML signed with the merchant key; the amount and order must match.")
    def post(self):
        return _notification(Provider.WECHAT)


@blp.route("/notify/alipay")
class AlipayNotifyView(MethodView):
    @blp.public
    @_notify_doc(Provider.ALIPAY, "Form signed RSA2, checked with Alipay's public key; the amount and order "
                                  "must match.")
    def post(self):
        return _notification(Provider.ALIPAY)


@blp.route("/notify/stripe")
class StripeNotifyView(MethodView):
    @blp.public
    @_notify_doc(Provider.STRIPE, "Webhook event with its Stripe-Signature header.")
    def post(self):
        return _notification(Provider.STRIPE)


# A white-label platform's own merchant account notifies at its camp's path (the notifyUrl that
# PayPdConfig/selectByCamp shows): checked with that account's keys, about that camp's orders.
CAMP_PATH = "<int(min=1, max=1000000):camp>"


@blp.route(f"/notify/wechat/{CAMP_PATH}")
class WechatCampNotifyView(MethodView):
    @blp.public
    @_notify_doc(Provider.WECHAT, "As /notify/wechat, for a platform's own merchant account (its camp).")
    def post(self, camp: int):
        return _notification(Provider.WECHAT, camp)


@blp.route(f"/notify/alipay/{CAMP_PATH}")
class AlipayCampNotifyView(MethodView):
    @blp.public
    @_notify_doc(Provider.ALIPAY, "As /notify/alipay, for a platform's own merchant account (its camp).")
    def post(self, camp: int):
        return _notification(Provider.ALIPAY, camp)


@blp.route(f"/notify/stripe/{CAMP_PATH}")
class StripeCampNotifyView(MethodView):
    @blp.public
    @_notify_doc(Provider.STRIPE, "As /notify/stripe, for a platform's own merchant account (its camp).")
    def post(self, camp: int):
        return _notification(Provider.STRIPE, camp)


class PayPalReturnQuery(Schema):
    token = fields.String(required=True, validate=validate.Length(min=1, max=64),
                          metadata={"description": "PayPal's order id"})
    PayerID = fields.String(validate=validate.Length(max=64))


def _web(path: str, **query: object) -> Redirect:
    base = context.container().settings().public_base_url
    return redirect(f"{base}{path}?{urlencode(query)}", code=303)


@blp.route("/paypal/return")
class PayPalReturnView(MethodView):
    @blp.public
    @blp.arguments(PayPalReturnQuery, location="query")
    @blp.doc(responses={"303": {"description": "to /mobilePay/paypal/callback?orderId=&payStatus= (2 paid)"}})
    def get(self, query):
        """PayPal sends the payer back here after approving: the order is captured and settled
        on PayPal's capture answer (status COMPLETED, the amount of the order)."""
        try:
            order = context.container().complete_provider_return()(query["token"])
        except (e.NotFound, e.PaymentFailed):
            return _web("/mobilePay/paypal/callback", token=query["token"], payStatus=1, error=1)
        return _web("/mobilePay/paypal/callback", orderId=order.id, payStatus=int(order.status))


@blp.route("/paypal/cancel")
class PayPalCancelView(MethodView):
    @blp.public
    @blp.arguments(PayPalReturnQuery, location="query")
    @blp.doc(responses={"303": {"description": "to /mobilePay/paypal/cancel?token="}})
    def get(self, query):
        """The payer cancelled on PayPal's page: nothing is charged; the order stays unpaid and
        says it was cancelled (PayOrder/get's lastFailure), so the paying drawer offers a retry."""
        context.container().record_payer_cancellation()(query["token"])
        return _web("/mobilePay/paypal/cancel", token=query["token"])


class OpenIdQuery(Schema):
    code = fields.String(required=True, validate=validate.Length(min=1, max=128))


class OpenIdSchema(Schema):
    openId = fields.String(required=True)


@blp.route("/payment/getOpenId")
class OpenIdView(MethodView):
    @blp.public
    @blp.arguments(OpenIdQuery, location="query")
    @blp.ok(OpenIdSchema)
    @blp.alt_response(422, schema=ErrorEnvelope, description="WeChat refused the code")
    def get(self, query):
        """Exchanges the code of WeChat's authorisation page for the payer's OpenID (the mobile
        calibration pages inside WeChat need it to pay)."""
        gateway = context.container().payment_gateways().at(context.camp())[PayType.WECHAT]
        try:
            return {"openId": gateway.open_id(query["code"])}
        except Exception as error:  # WeChat refused the code (used, expired, forged) or did not answer
            raise e.InvalidInput("code", N_("This WeChat authorisation has expired, please try again")) from error
