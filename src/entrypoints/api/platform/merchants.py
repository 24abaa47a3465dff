"""Each white-label platform's merchant accounts (issue 19; spec seed 001 sections 3 and 7:
PayPdAliConfig/selectByCamp and updateAliConfig, PayPdWxConfig/selectByCamp and updateWxConfig).

A platform's camp (its defaultCamp) is paid to its own account at a provider where it has one, to
the console's otherwise; the console's own (camp 0) are its environment's, read here, never set. The generic calls
(PayPdConfig/*) take the provider; the spec's Alipay and WeChat calls are the same for theirs.
Secrets are stored encrypted and never given back: a secret field says whether it is set and its
last four characters. Reading and changing an account is `customized.list:payConfig`; the overview
(which camps have their own) is the platforms page's, `customized.list`."""

from __future__ import annotations

from flask.views import MethodView
from marshmallow import fields, validate

from adapters.payments.gateways import notify_url
from core.ordering.payments import Provider
from core.platform.merchants import MAX_CAMP, MerchantView
from entrypoints.api import context
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, Schema

blp = ApiBlueprint("merchant_configs", __name__, description="White-label platforms' merchant accounts at the "
                                                              "payment providers, by camp")

PERMISSION = "customized.list:payConfig"
PROVIDERS = [p.value for p in Provider]
MAX_VALUE = 8192


class CampQuery(Schema):
    camp = fields.Integer(required=True, validate=validate.Range(min=0, max=MAX_CAMP))


class ProviderQuery(CampQuery):
    provider = fields.String(required=True, validate=validate.OneOf(PROVIDERS))


class PlatformCampQuery(Schema):
    """A platform's camp: the console's own accounts (camp 0) are its environment's, not set here."""

    camp = fields.Integer(required=True, validate=validate.Range(min=1, max=MAX_CAMP))


class PlatformProviderQuery(PlatformCampQuery):
    provider = fields.String(required=True, validate=validate.OneOf(PROVIDERS))


class UpdateBody(PlatformCampQuery):
    values = fields.Dict(keys=fields.String(validate=validate.Length(max=40)),
                         values=fields.String(allow_none=True, validate=validate.Length(max=MAX_VALUE)),
                         required=True, validate=validate.Length(max=20), metadata={
                             "description": "by field name: a secret left out (or null, or empty) keeps the stored "
                                            "one; another field sent empty is cleared"})


class ProviderUpdateBody(UpdateBody):
    provider = fields.String(required=True, validate=validate.OneOf(PROVIDERS))


class FieldSchema(Schema):
    name = fields.String(required=True)
    secret = fields.Boolean(required=True)
    required = fields.Boolean(required=True)
    multiline = fields.Boolean(required=True)
    value = fields.String(metadata={"description": "a plain field's value (\"\" when empty)"})
    set = fields.Boolean(metadata={"description": "a secret: whether one is stored"})
    last4 = fields.String(allow_none=True, metadata={"description": "a secret: its last four characters"})


class MerchantSchema(Schema):
    camp = fields.Integer(required=True)
    provider = fields.String(required=True)
    own = fields.Boolean(required=True, metadata={"description": "false: the camp is paid to the console's account"})
    updatedAt = fields.String(required=True, allow_none=True)
    updatedBy = fields.String(required=True, allow_none=True)
    notifyUrl = fields.String(required=True, metadata={
        "description": "where the provider sends this account's notifications (register it at the provider)"})
    fields_ = fields.List(fields.Nested(FieldSchema), data_key="fields", required=True)


class PlatformSchema(Schema):
    topDomain = fields.String(required=True)
    title = fields.String(required=True)


class CampSchema(Schema):
    camp = fields.Integer(required=True)
    platforms = fields.List(fields.Nested(PlatformSchema), required=True)
    own = fields.Dict(keys=fields.String(), values=fields.Boolean(), required=True)


class OverviewSchema(Schema):
    providers = fields.List(fields.String(), required=True, metadata={"description": "the edition's, in order"})
    camps = fields.List(fields.Nested(CampSchema), required=True)


def _merchant(view: MerchantView) -> dict:
    shown = []
    for f in view.fields:
        spec = {"name": f.spec.name, "secret": f.spec.secret, "required": f.spec.required,
                "multiline": f.spec.multiline}
        shown.append({**spec, "set": f.last4 is not None, "last4": f.last4} if f.spec.secret
                     else {**spec, "value": f.value})
    console_url = context.container().settings().public_base_url
    return {"camp": view.camp, "provider": view.provider, "own": view.own,
            "updatedAt": context.local_text(view.updated_at, seconds=True) or None, "updatedBy": view.updated_by,
            "notifyUrl": notify_url(console_url, Provider(view.provider), view.camp), "fields_": shown}


def _by(provider: str | None = None):
    """The calls of one provider (the spec's Alipay and WeChat ones) or of any (PayPdConfig)."""

    def get(query: dict) -> dict:
        return _merchant(context.container().get_merchant_config()(query["camp"], provider or query["provider"]))

    def put(body: dict) -> dict:
        by = context.current_principal().user_name
        return _merchant(context.container().save_merchant_config()(
            body["camp"], provider or body["provider"], body["values"], by))

    def delete(query: dict) -> dict:
        return _merchant(context.container().delete_merchant_config()(query["camp"], provider or query["provider"]))
    return get, put, delete


NOT_FOUND = "a provider the edition does not offer"
_any_get, _any_put, _any_delete = _by()


@blp.route("/PayPdConfig/overview")
class OverviewView(MethodView):
    @blp.requires("customized.list")  # whether a camp has its own account is no secret: the page's list
    @blp.ok(OverviewSchema)
    def get(self):
        """Every camp (0, the console's, and each platform's), its platforms and, by provider of the
        edition, whether it has its own merchant account."""
        container = context.container()
        camps = container.merchant_overview()()
        return {"providers": list(container.merchant_fields().providers()),
                "camps": [{"camp": c.camp, "own": c.own,
                           "platforms": [{"topDomain": d, "title": t} for d, t in c.platforms]} for c in camps]}


@blp.route("/PayPdConfig/selectByCamp")
class ConfigView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(ProviderQuery, location="query")
    @blp.ok(MerchantSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def get(self, query):
        """The camp's account at the provider: its fields (secrets as set or not, and their last
        four characters), who changed it when, and where the provider is to notify it."""
        return _any_get(query)


@blp.route("/PayPdConfig/update")
class UpdateView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(ProviderUpdateBody)
    @blp.ok(MerchantSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def put(self, body):
        """Sets the camp's own account at the provider (422 by field: values.<name>): its next
        orders are paid to it, and its notifications checked with its keys."""
        return _any_put(body)


@blp.route("/PayPdConfig/delete")
class DeleteView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(PlatformProviderQuery, location="query")
    @blp.ok(MerchantSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def delete(self, query):
        """The camp is paid to the console's account at the provider again (its unpaid orders
        placed before are still asked about and refunded through the account they were paid to
        only while it is kept: delete an account once its orders are settled)."""
        return _any_delete(query)


def _spec_calls(provider: Provider, prefix: str, update: str, fields_doc: str) -> None:
    """The spec's calls of one provider's accounts: PayPdConfig/selectByCamp and update for it."""
    get_, put_, _ = _by(provider.value)
    name = provider.value.title()

    class ConfigView(MethodView):
        @blp.requires(PERMISSION)
        @blp.arguments(CampQuery, location="query")
        @blp.ok(MerchantSchema)
        @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
        def get(self, query):
            return get_(query)

    class UpdateView(MethodView):
        @blp.requires(PERMISSION)
        @blp.arguments(UpdateBody)
        @blp.ok(MerchantSchema)
        @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
        def put(self, body):
            return put_(body)

    ConfigView.get.__doc__ = f"PayPdConfig/selectByCamp for {PROVIDER_NAMES[provider]}."
    UpdateView.put.__doc__ = f"PayPdConfig/update for {PROVIDER_NAMES[provider]}: {fields_doc}."
    blp.route(f"/{prefix}/selectByCamp", endpoint=f"{name}ConfigView")(ConfigView)
    blp.route(f"/{prefix}/{update}", endpoint=f"{name}UpdateView")(UpdateView)


PROVIDER_NAMES = {Provider.ALIPAY: "Alipay", Provider.WECHAT: "WeChat Pay"}
_spec_calls(Provider.ALIPAY, "PayPdAliConfig", "updateAliConfig",
            "appId, privateKey (the application's RSA2 private key), alipayPublicKey, agreementSignScene "
            "(automatic renewals)")
_spec_calls(Provider.WECHAT, "PayPdWxConfig", "updateWxConfig",
            "appId, mchId, apiKey (API v2), papayPlanId (automatic renewals), mchCert and mchKey (PEM, for "
            "refunds), oauthSecret (the official account's)")
