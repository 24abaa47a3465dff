"""The device detail's parameter settings, operation log and maintenance tabs (issue 16)."""

from __future__ import annotations

from flask.views import MethodView

from core.devices.device_commands import DeviceParams
from core.devices.events import DeviceEventEntry
from core.devices.grants import Element
from core.devices.maintenance import MaintenanceInput
from core.devices.model import MaintenanceRecord
from core.devices.params import ParamsView
from entrypoints.api import context
from entrypoints.api.devices import detail_schemas as s
from entrypoints.api.devices.schemas import DeviceIdQuery
from entrypoints.api.devices.views import NOT_VISIBLE, WRITE_REFUSED
from entrypoints.api.fda.signature_schemas import documents_signing, signature_input
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request

blp = ApiBlueprint("device_detail", __name__, description="Device detail: parameters, operation log, maintenance")



def _params(view: ParamsView) -> dict:
    latest = view.latest
    return {"desired": view.desired.as_payload(),
            "acknowledged": view.acknowledged.as_payload() if view.acknowledged else None,
            "state": str(view.state) if view.state else None, "commandId": latest.id if latest else None,
            "sentAt": latest.sent_at if latest else None, "answeredAt": latest.answered_at if latest else None,
            "error": latest.error if latest else None, "access": int(view.access)}


@blp.route("/DeviceParam/get")
class ParamsGetView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(DeviceIdQuery, location="query")
    @blp.ok(s.ParamsStateSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def get(self, query):
        """The device's parameters: those last asked for, those it last confirmed, and how the
        latest command stands (a command unanswered for 60 s is notAnswered)."""
        return _params(context.container().get_device_params()(context.caller_id(), query["deviceId"]))


@blp.route("/DeviceParam/save")
class ParamsSaveView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=WRITE_REFUSED)  # outermost: covers the permission
    @blp.requires("device.list:edit")
    @blp.arguments(s.ParamsSaveSchema)
    @blp.ok(s.ParamsStateSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    @documents_signing(blp)
    def post(self, body):
        """Save the device's parameters and send them to it: a `params` command on
        devices/{guid}/commands (QoS 1) with a new id, which the device answers on
        devices/{guid}/acks. Display precision and unit also become the console's display settings
        of the device at once. Upload interval 60 s to 24 h, record interval 10 s to 24 h and not
        longer than the upload interval. The change is a line of the operation log. Where FDA mode
        is on for the device the save is signed (`signature`) in its transaction: without one 428,
        and a refused signature changes nothing."""
        params = DeviceParams(body["displayPrecision"], body["temperatureUnit"], body["uploadInterval"],
                              body["recordInterval"])
        save = context.container().save_device_params()
        return _params(save(context.caller_id(), body["deviceId"], params,
                            session_id=context.current_principal().session_id,
                            signature=signature_input(body["signature"])))


def _event(entry: DeviceEventEntry) -> dict:
    return {"id": entry.id, "kind": entry.kind, "at": entry.at, "detail": entry.detail, "actorName": entry.actor_name}


@blp.route("/DeviceOperationLog/page")
class OperationLogView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(s.DevicePageRequest)
    @blp.ok(page_of(s.DeviceEventSchema))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, body):
        """What was done to the device and by whom, newest first: parameters, alarm limits,
        maintenance records, broker password rotations, data cleared, scrapped (with the reason) and
        restored. Times in the caller's zone."""
        page = context.container().list_device_events()(context.caller_id(), body["deviceId"], page_request(body))
        return page_body(page, _event)


def _maintenance(record: MaintenanceRecord) -> dict:
    return {"id": record.id, "deviceId": record.device_id, "maintainDate": record.maintained_on,
            "person": record.person, "approver": record.approver, "reason": record.reason,
            "content": record.content, "standard": record.standard, "result": record.result,
            "createdAt": record.created_at, "updatedAt": record.updated_at}


def _entry(body: dict) -> MaintenanceInput:
    return MaintenanceInput(maintained_on=body["maintainDate"], person=body["person"], reason=body["reason"],
                            content=body["content"], approver=body.get("approver"), standard=body.get("standard"),
                            result=body.get("result"))


@blp.route("/DeviceMaintenance/page")
class MaintenancePageView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(s.DevicePageRequest)
    @blp.ok(s.MaintenancePageSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, body):
        """The device's maintenance records, latest maintenance date first."""
        device, page = context.container().list_maintenance()(context.caller_id(), body["deviceId"], page_request(body))
        return {**page_body(page, _maintenance), "access": int(device.grant.access_to(Element.MAINTENANCE))}


@blp.route("/DeviceMaintenance/insert")
class MaintenanceInsertView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=WRITE_REFUSED)  # outermost: covers the permission
    @blp.requires("device.list:edit")
    @blp.arguments(s.MaintenanceInsertSchema)
    @blp.ok(s.MaintenanceSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, body):
        """Add a maintenance record: person (1-50), reason (1-200) and content (1-1000) required;
        approver (20), standard (200) and result (1000) optional; the date not in the future."""
        return _maintenance(context.container().add_maintenance()(context.caller_id(), body["deviceId"], _entry(body)))


@blp.route("/DeviceMaintenance/update")
class MaintenanceUpdateView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=WRITE_REFUSED)  # outermost: covers the permission
    @blp.requires("device.list:edit")
    @blp.arguments(s.MaintenanceUpdateSchema)
    @blp.ok(s.MaintenanceSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"no such record, or {NOT_VISIBLE}")
    def put(self, body):
        """Replace a maintenance record's fields, by the insert's rules."""
        return _maintenance(context.container().change_maintenance()(context.caller_id(), body["id"], _entry(body)))


@blp.route("/DeviceMaintenance/delete")
class MaintenanceDeleteView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=WRITE_REFUSED)  # outermost: covers the permission
    @blp.requires("device.list:edit")
    @blp.arguments(s.MaintenanceIdQuery, location="query")
    @blp.ok()
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"no such record, or {NOT_VISIBLE}")
    def delete(self, query):
        """Delete a maintenance record (a line of the operation log says who did)."""
        context.container().delete_maintenance()(context.caller_id(), query["id"])
