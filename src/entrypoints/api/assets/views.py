"""Assets (issue 17, /asset/list and /asset/detail/{id}): a thing an account or an organization
keeps cold, with its particulars and at most five devices. An account's own asset is its alone;
an organization's is read by its members and changed (particulars, state, devices, deletion) by
those who change its devices, its creator and administrators, as its projects are. A device goes
in only if the caller may change it, of the asset's owner's kind, and in one asset at most.
Disabling an asset disables its devices and switches off their alarm rules; enabling it turns back
on the ones it switched off (core/assets/use_cases.SetAssetState)."""

from __future__ import annotations

from flask.views import MethodView

from core.assets.model import Asset, Attribute
from core.assets.use_cases import AssetInput
from entrypoints.api import context
from entrypoints.api.assets import schemas as s
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request

blp = ApiBlueprint("assets", __name__, description="Assets: cold things and the devices watching them")

PERMISSION = "asset.list"
NOT_OWN = ("no such asset, or one the caller does not see: another account's, or an organization's it is not in "
           "(the same answer, so ids cannot be probed)")
READ_ONLY_ASSET = "an organization's asset the caller only reads (a read-only member): nothing changes"
DEVICE_HIDDEN = "or a device the caller may not see (or, to unbind, not in the asset): then nothing changes"
READ_ONLY = ("the caller may only read one of the devices (a member of its organization) or the asset, or lacks the "
             "permission: then nothing changes")



def _input(body: dict) -> AssetInput:
    return AssetInput(body["assetName"], body.get("assetType"), body.get("assetNumber"), body.get("brand"),
                      body.get("model"), body.get("volume"),
                      tuple(Attribute(a["key"], a["value"]) for a in body.get("customs") or ()), body.get("remark"),
                      body.get("organizationId"))


def _row(a: Asset) -> dict:
    return {"id": a.id, "assetName": a.name, "assetType": a.asset_type, "assetNumber": a.number, "brand": a.brand,
            "model": a.model, "volume": a.volume, "customs": [{"key": p.key, "value": p.value} for p in a.attributes],
            "remark": a.remark, "enabled": a.enabled, "createdAt": a.created_at, "deviceCount": a.device_count,
            "organizationId": a.organization_id, "organizationName": a.organization_name, "changeable": a.changeable}


def _detail(a: Asset) -> dict:
    return {**_row(a), "devices": [
        {"deviceId": d.id, "deviceName": d.name, "deviceGuid": d.guid, "deviceTypeName": d.type_name,
         "online": d.online, "alarming": d.alarming, "enabled": d.enabled} for d in a.devices]}


@blp.route("/Asset/page")
class AssetPageView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.AssetPageQuery)
    @blp.ok(page_of(s.AssetSchema))
    def post(self, body):
        """The caller's own assets and those of its organizations by name, found by part of the name
        or number (any case), with how many devices each has."""
        page = context.container().list_assets()(context.caller_id(), body.get("keyword"), page_request(body))
        return page_body(page, _row)


@blp.route("/Asset/get")
class AssetView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.AssetIdSchema, location="query")
    @blp.ok(s.AssetDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def get(self, query):
        """An asset the caller sees, with its devices."""
        return _detail(context.container().get_asset()(context.caller_id(), query["id"]))


@blp.route("/Asset/insert")
class AssetInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.AssetInsertSchema)
    @blp.ok(s.AssetDetailSchema)
    def post(self, body):
        """Make an asset, enabled and with no device: the caller's own, or one of an organization
        where the caller changes devices (422 on organizationId otherwise). Every text is trimmed;
        a field that breaks its rule is refused with 422 naming it."""
        return _detail(context.container().create_asset()(context.caller_id(), _input(body)))


@blp.route("/Asset/update")
class AssetUpdateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.AssetUpdateSchema)
    @blp.ok(s.AssetDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY_ASSET)
    def put(self, body):
        """Replace an asset's particulars (a field left out or empty is cleared), by the insert's
        rules; its state and devices stay."""
        return _detail(context.container().update_asset()(context.caller_id(), body["id"], _input(body)))


@blp.route("/Asset/delete")
class AssetDeleteView(MethodView):
    @blp.requires(f"{PERMISSION}:delete")
    @blp.arguments(s.AssetIdSchema, location="query")
    @blp.ok(s.AssetDeletedSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY_ASSET)
    def delete(self, query):
        """Delete an asset; its devices stay, in no asset (those of a disabled one enabled again, with
        the alarm rules it had switched off)."""
        return {"released": context.container().delete_asset()(context.caller_id(), query["id"])}


@blp.route("/Asset/enable")
class AssetEnableView(MethodView):
    @blp.requires(f"{PERMISSION}:enable")
    @blp.arguments(s.AssetIdSchema)
    @blp.ok(s.AssetDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY_ASSET)
    def put(self, body):
        """Enable an asset: its devices are enabled and the alarm rules disabling switched off are on
        again, in one transaction. Enabling an enabled asset changes nothing."""
        return _detail(context.container().set_asset_state()(context.caller_id(), body["id"], True))


@blp.route("/Asset/disable")
class AssetDisableView(MethodView):
    @blp.requires(f"{PERMISSION}:disable")
    @blp.arguments(s.AssetIdSchema)
    @blp.ok(s.AssetDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY_ASSET)
    def put(self, body):
        """Disable an asset: its devices are disabled and every alarm rule of theirs that is on is
        switched off (no alarm, no notification) until it is enabled, in one transaction."""
        return _detail(context.container().set_asset_state()(context.caller_id(), body["id"], False))


@blp.route("/Asset/bindDevice")
class AssetBindView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.BindSchema)
    @blp.ok(s.AssetDetailSchema, refusals=s.BIND_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_OWN}; {DEVICE_HIDDEN}")
    def post(self, body):
        """Put devices in an asset the caller may change, all or none. Each must be the caller's to
        change, of the asset's owner's kind (an organization's device only in that organization's
        assets, a device in no organization only in personal ones: 422 on deviceIds) and in no
        other asset, and the asset holds five at most. Bound to a disabled asset, a
        device is disabled with its alarm rules at once."""
        return _detail(context.container().bind_asset_devices()(context.caller_id(), body["id"], body["deviceIds"]))


@blp.route("/Asset/unbindDevice")
class AssetUnbindView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.BindSchema)
    @blp.ok(s.AssetDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_OWN}; {DEVICE_HIDDEN}")
    def post(self, body):
        """Take devices out of an asset the caller may change, all or none. Leaving a disabled asset, a
        device is enabled again with the alarm rules the asset had switched off."""
        return _detail(context.container().unbind_asset_devices()(context.caller_id(), body["id"], body["deviceIds"]))
