"""Device sharing and transfer (issue 17): permission templates (DevicePermissionModel), sharing
devices with another account under one, the sharer list (/consumer/sharer), revoking, and
transferring devices to another account. What a sharee may then do on each device is checked by
every device endpoint from the grant the database computes (core/devices/grants.py)."""

from __future__ import annotations

from flask.views import MethodView

from core.devices.grants import Grant
from core.sharing import model as m
from core.sharing.model import Recipient, ShareView, Template
from core.sharing.use_cases import ShareDevices, TemplateInput, TransferDevices
from entrypoints.api import context
from entrypoints.api.devices.schemas import permissions_of
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request
from entrypoints.api.sharing import schemas as s

blp = ApiBlueprint("sharing", __name__, description="Device permission templates, sharing and transfer")

SHARER = "consumer.sharer"
NOT_OWN = "no such template or share, or another account's (the same answer, so ids cannot be probed)"
NOT_VISIBLE = "a device the caller may not see: then nothing changes"
NOT_OWNER = ("a device the caller sees but does not own (a member, a sharee, an administrator of its organization), "
             "or the permission is lacking")



def _grant(entries: list[dict]) -> Grant:
    return m.grant_of([(e["code"], bool(e["viewStatus"]), bool(e["setStatus"])) for e in entries])


def _template_name(name: str, built_in: bool) -> str:
    """A built-in template's name is a message id, in the reader's language; one's own is as typed."""
    return context.translated(name) if built_in else name


def _template(t: Template) -> dict:
    return {"id": t.id, "name": _template_name(t.name, t.built_in), "builtIn": t.built_in,
            "permissions": permissions_of(t.grant), "shares": t.shares}


def _account(r: Recipient) -> dict:
    return {"id": r.account_id, "userName": r.user_name}


def _share_row(v: ShareView) -> dict:
    return {"id": v.id, "deviceId": v.device_id, "deviceName": v.device_name, "deviceGuid": v.device_guid,
            "ownerName": v.owner_name, "shareeName": v.sharee_name, "templateId": v.template_id,
            "templateName": _template_name(v.template_name, v.built_in_template), "createdAt": v.created_at,
            "endTime": v.ends_at, "active": v.active}


@blp.route("/DevicePermissionModel/list")
class TemplateListView(MethodView):
    @blp.requires(SHARER)
    @blp.arguments(s.EmptySchema)
    @blp.ok(s.TemplateListSchema)
    def post(self, _body):
        """The built-in templates (View only, Full control), then the caller's own by name."""
        return {"list": [_template(t) for t in context.container().list_templates()(context.caller_id())]}


@blp.route("/DevicePermissionModel/insert")
class TemplateInsertView(MethodView):
    @blp.requires(f"{SHARER}:add")
    @blp.arguments(s.TemplateInputSchema)
    @blp.ok(s.TemplateSchema, refusals=(m.TemplateNameTaken,))
    def post(self, body):
        """Make a permission template: per element of a device, visible and operable."""
        cmd = TemplateInput(body["name"], _grant(body["permissions"]))
        return _template(context.container().save_template()(context.caller_id(), cmd))


@blp.route("/DevicePermissionModel/update")
class TemplateUpdateView(MethodView):
    @blp.requires(f"{SHARER}:edit")
    @blp.arguments(s.TemplateUpdateSchema)
    @blp.ok(s.TemplateSchema, refusals=(m.TemplateNameTaken, m.BuiltInTemplate))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def put(self, body):
        """Change one of the caller's templates; every share under it follows at once."""
        cmd = TemplateInput(body["name"], _grant(body["permissions"]), body["id"])
        return _template(context.container().save_template()(context.caller_id(), cmd))


@blp.route("/DevicePermissionModel/delete")
class TemplateDeleteView(MethodView):
    @blp.requires(f"{SHARER}:delete")
    @blp.arguments(s.TemplateIdQuery, location="query")
    @blp.ok(s.EmptySchema, refusals=(m.TemplateInUse, m.BuiltInTemplate))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def delete(self, query):
        """Delete one of the caller's templates that no unrevoked share uses."""
        context.container().delete_template()(context.caller_id(), query["id"])
        return {}


@blp.route("/Device/share")
class ShareDevicesView(MethodView):
    @blp.requires("device.list:edit")
    @blp.arguments(s.ShareSchema)
    @blp.ok(s.SharedSchema, refusals=(m.NoSuchAccount, m.NotYourself))
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_VISIBLE}; or not a template of the caller's")
    @blp.alt_response(403, schema=ErrorEnvelope, description=NOT_OWNER)
    def post(self, body):
        """Share devices with another account under a template until endTime (null: until
        revoked). Sharing a device again with the same account replaces its template and end time."""
        cmd = ShareDevices(body["deviceIds"], body["account"], body["templateId"], body["endTime"])
        shared, recipient = context.container().share_devices()(context.caller_id(), cmd)
        return {"shared": shared, "account": _account(recipient)}


@blp.route("/DeviceShare/page")
class SharePageView(MethodView):
    @blp.requires(SHARER)
    @blp.arguments(s.SharePageQuery)
    @blp.ok(page_of(s.ShareRowSchema))
    def post(self, body):
        """What the caller shared (direction mine) or what is shared with it now (withMe), newest first."""
        page = context.container().list_shares()(context.caller_id(), body["direction"], body.get("keyword"),
                                                 page_request(body))
        return page_body(page, _share_row)


@blp.route("/DeviceShare/update")
class ShareUpdateView(MethodView):
    @blp.requires(f"{SHARER}:edit")
    @blp.arguments(s.ShareUpdateSchema)
    @blp.ok(s.EmptySchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def put(self, body):
        """Change the template or the end time of a share the caller made."""
        context.container().change_share()(context.caller_id(), body["id"], body["templateId"], body["endTime"])
        return {}


@blp.route("/DeviceShare/revoke")
class ShareRevokeView(MethodView):
    @blp.requires(f"{SHARER}:delete")
    @blp.arguments(s.RevokeSchema)
    @blp.ok(s.RevokedSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_OWN}: then none is revoked")
    def post(self, body):
        """Revoke shares the caller made, or leave shares made with it; at once, all or none."""
        return {"revoked": context.container().revoke_shares()(context.caller_id(), body["ids"])}


@blp.route("/Device/transferPreview")
class TransferPreviewView(MethodView):
    @blp.requires("device.list:edit")
    @blp.arguments(s.TransferPreviewQuery)
    @blp.ok(s.TransferPreviewSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    @blp.alt_response(403, schema=ErrorEnvelope, description=NOT_OWNER)
    def post(self, body):
        """What a transfer of these devices would take away, to say before it is confirmed."""
        p = context.container().preview_transfer()(context.caller_id(), body["deviceIds"])
        return {"devices": p.devices, "shares": p.shares, "projects": p.projects, "organizations": p.organizations}


@blp.route("/Device/transfer")
class TransferView(MethodView):
    @blp.requires("device.list:edit")
    @blp.arguments(s.TransferSchema)
    @blp.ok(s.TransferredSchema, refusals=(m.NoSuchAccount, m.NotYourself))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    @blp.alt_response(403, schema=ErrorEnvelope, description=NOT_OWNER)
    def post(self, body):
        """Give devices to another account, all or none: their readings, alarms, alarm rules and
        service go with them; they leave their organization, project and auto-renewal; their
        alarm recipients (the old owner's people) and shares are dropped; the caller loses them at once."""
        transferred, dropped, recipient = context.container().transfer_devices()(
            context.caller_id(), TransferDevices(body["deviceIds"], body["account"]))
        return {"transferred": transferred, "sharesDropped": dropped, "account": _account(recipient)}
