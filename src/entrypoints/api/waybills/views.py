"""Waybills (issue 20, /waybill/list and /waybill/detail/{waybillPk}): a shipment's record with its
limits and devices, from not started through in progress to finished. An account's own waybill is its
alone; an organization's is read by its members and changed by those who change its devices; a sharee
of one of its devices reads it. Binding takes devices the caller operates, 200 at most a call; a device
runs one trip at a time. The trip report gives the figures over the trip's span corrected to its
devices' data, with the mean kinetic temperature; share links let a receiver see the trip without an
account (entrypoints/api/waybills/public.py)."""

from __future__ import annotations

from flask.views import MethodView

from core.waybills.model import Contact, Particulars, Party, Template, WaybillState
from core.waybills.ports import WaybillFilter
from core.waybills.sharing import ShareLink
from core.waybills.use_cases import TripReport, WaybillView
from entrypoints.api import context
from entrypoints.api.devices.views import position_row
from entrypoints.api.framework import (
    XLSX,
    ApiBlueprint,
    ErrorEnvelope,
    page_body,
    page_of,
    page_request,
    xlsx_download,
)
from entrypoints.api.waybills import schemas as s
from entrypoints.api.waybills.documents import trip_pdf, waybill_sheet

blp = ApiBlueprint("waybills", __name__, description="Waybills: shipments, their limits, devices, reports and "
                                                     "share links")

PERMISSION = "waybill.list"
NOT_OWN = ("no such waybill, or one the caller does not see (another account's, an organization's it is not in, "
           "none of whose devices it sees): the same answer, so ids cannot be probed")
READ_ONLY = "the caller only reads it (a read-only member of its organization, a sharee of a device): nothing changes"


def particulars(body: dict) -> Particulars:
    return Particulars(
        body.get("orderNum"), body.get("goodsName"), body.get("expressNumber"), body.get("coolerCode"),
        body.get("upperLimit"), body.get("lowerLimit"),
        Party(body.get("senderName"), body.get("senderPhone"), body.get("senderAddress")),
        Party(body.get("receiverName"), body.get("receiverPhone"), body.get("receiverAddress")),
        tuple(Contact(c["name"], c.get("phone"), c.get("email")) for c in body.get("alarmContacts") or ()),
        body.get("startTime"), body.get("stopTime"), body.get("originFenceId"), body.get("destinationFenceId"))


def particulars_row(p: Particulars) -> dict:
    return {"orderNum": p.order_number, "goodsName": p.goods_name, "expressNumber": p.express_number,
            "coolerCode": p.cooler_code, "upperLimit": p.upper_limit, "lowerLimit": p.lower_limit,
            "senderName": p.sender.name, "senderPhone": p.sender.phone, "senderAddress": p.sender.address,
            "receiverName": p.receiver.name, "receiverPhone": p.receiver.phone,
            "receiverAddress": p.receiver.address,
            "alarmContacts": [{"name": c.name, "phone": c.phone, "email": c.email} for c in p.contacts],
            "startTime": p.planned_start, "stopTime": p.planned_stop, "originFenceId": p.origin_fence_id,
            "destinationFenceId": p.destination_fence_id}


def row(w) -> dict:
    return {"id": w.id, **particulars_row(w.particulars), "state": int(w.state), "startedAt": w.started_at,
            "finishedAt": w.finished_at, "createdAt": w.created_at, "organizationId": w.organization_id,
            "changeable": w.changeable,
            "devices": [{"deviceId": d.id, "deviceName": d.name, "deviceGuid": d.guid} for d in w.devices]}


def detail(view: WaybillView) -> dict:
    span = view.span
    return {**row(view.waybill), "corrected": bool(span and span.corrected),
            "spanStart": span.start if span else None, "spanEnd": span.end if span else None,
            "alarmCount": view.alarm_count}


def trip(report: TripReport) -> dict:
    """The receiver's view of a trip: what the public calls answer, and the base of the owner's."""
    w, span = report.waybill, report.view.span
    return {
        "orderNum": w.particulars.order_number, "goodsName": w.particulars.goods_name, "state": int(w.state),
        "upperLimit": w.particulars.upper_limit, "lowerLimit": w.particulars.lower_limit,
        "startedAt": w.started_at, "finishedAt": w.finished_at, "corrected": bool(span and span.corrected),
        "spanStart": span.start if span else None, "spanEnd": span.end if span else None,
        "alarmCount": report.view.alarm_count, "deltaH": report.activation_energy,
        "verificationCode": report.verification_code,
        "devices": [{
            "deviceName": d.device_name, "count": d.figures.count, "minimum": d.figures.minimum,
            "maximum": d.figures.maximum, "mean": d.figures.mean, "mkt": d.figures.mkt,
            "outOfRangeSeconds": int(d.figures.out_of_range.total_seconds()),
            "excursions": [{"above": e.above, "start": e.start, "end": e.end,
                            "seconds": int(e.duration.total_seconds()), "extreme": e.extreme}
                           for e in d.figures.excursions],
            "points": [{"ts": p.ts, "t": p.temperature} for p in d.chart if p.temperature is not None],
            "route": [position_row(p.position, p.ts) for p in d.route]}
            for d in report.devices]}


def link_row(link: ShareLink, now) -> dict:
    return {"shareId": link.id, "createdAt": link.created_at, "expiresAt": link.expires_at,
            "revokedAt": link.revoked_at, "active": link.usable(now),
            "opens": [{"at": o.at, "address": o.address} for o in link.opens]}


def template_row(t: Template) -> dict:
    return {"id": t.id, "templateName": t.name, "createdAt": t.created_at, **particulars_row(t.particulars)}


@blp.route("/Waybill/page")
class WaybillPageView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.WaybillPageQuery)
    @blp.ok(page_of(s.WaybillSchema))
    def post(self, body):
        """The waybills the caller sees (its own, its organizations', those with a device it sees),
        newest first, found by part of the number, goods or tracking number, by state or device."""
        where = WaybillFilter(body.get("keyword"), WaybillState(body["state"]) if "state" in body else None,
                              body.get("deviceId"))
        return page_body(context.container().list_waybills()(context.caller_id(), where, page_request(body)), row)


@blp.route("/Waybill/get")
class WaybillGetView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.WaybillIdSchema, location="query")
    @blp.ok(s.WaybillDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def get(self, query):
        """A waybill with its devices, its span corrected to their data and its alarm count."""
        return detail(context.container().get_waybill()(context.caller_id(), query["id"]))


@blp.route("/Waybill/insert")
class WaybillInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.WaybillInsertSchema)
    @blp.ok(s.WaybillDetailSchema)
    def post(self, body):
        """Make a waybill, not started and with no device; every text is trimmed and a field that
        breaks its rule is refused with 422 naming it (start after stop, upper limit not above the
        lower one, a text too long)."""
        return detail(context.container().create_waybill()(context.caller_id(), particulars(body),
                                                           body.get("organizationId")))


@blp.route("/Waybill/update")
class WaybillUpdateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.WaybillUpdateSchema)
    @blp.ok(s.WaybillDetailSchema, refusals=s.CHANGE_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    def put(self, body):
        """Replace a waybill's particulars (a field left out or empty is cleared). A finished one is a
        record (2104); one in progress keeps its limits (2105)."""
        return detail(context.container().update_waybill()(context.caller_id(), body["id"], particulars(body)))


@blp.route("/Waybill/delete")
class WaybillDeleteView(MethodView):
    @blp.requires(f"{PERMISSION}:delete")
    @blp.arguments(s.WaybillIdSchema, location="query")
    @blp.ok()
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    def delete(self, query):
        """Delete a waybill with its share links; its devices' readings and alarms stay."""
        context.container().delete_waybill()(context.caller_id(), query["id"])


@blp.route("/Waybill/updateState")
class WaybillStateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.StateSchema)
    @blp.ok(s.WaybillDetailSchema, refusals=s.STATE_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    def post(self, body):
        """Start (1) or finish (2) a waybill now: not started -> in progress -> finished only (2101).
        Starting needs a device (2103), each on no other trip in progress (2102)."""
        return detail(context.container().change_waybill_state()(context.caller_id(), body["id"],
                                                                 WaybillState(body["state"])))


@blp.route("/Waybill/batchBind")
class WaybillBindView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.WaybillBindSchema)
    @blp.ok(s.WaybillDetailSchema, refusals=s.CHANGE_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_OWN}; or a device the caller may not see")
    @blp.alt_response(403, schema=ErrorEnvelope, description=f"{READ_ONLY}; or a device it only reads")
    def post(self, body):
        """Put 1 to 200 devices on a waybill not yet started, all or none."""
        return detail(context.container().bind_waybill_devices()(context.caller_id(), body["id"], body["deviceIds"]))


@blp.route("/Waybill/unbind")
class WaybillUnbindView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.WaybillBindSchema)
    @blp.ok(s.WaybillDetailSchema, refusals=s.CHANGE_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_OWN}; or a device not on it")
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    def post(self, body):
        """Take devices off a waybill not yet started."""
        return detail(context.container().unbind_waybill_devices()(context.caller_id(), body["id"],
                                                                   body["deviceIds"]))


@blp.route("/Waybill/alarmCount")
class WaybillAlarmCountView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.WaybillIdSchema, location="query")
    @blp.ok(s.AlarmCountSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def get(self, query):
        """How many alarms the waybill's devices raised on its trip (0 before it starts)."""
        return {"alarmCount": context.container().count_waybill_alarms()(context.caller_id(), query["id"])}


@blp.route("/Waybill/report")
class WaybillReportView(MethodView):
    @blp.requires(f"{PERMISSION}:detail")
    @blp.arguments(s.ReportQuery, location="query")
    @blp.ok(s.OwnerTripSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def get(self, query):
        """The trip report's data: per device, the minimum, maximum, mean, mean kinetic temperature,
        time out of range and excursions over the corrected span, with the chart's readings."""
        report = context.container().trip_report()(context.caller_id(), query["id"], query["deltaH"])
        return {**trip(report), "waybill": detail(report.view)}


@blp.route("/Waybill/reportPdf")
class WaybillReportPdfView(MethodView):
    @blp.requires(f"{PERMISSION}:detail")
    @blp.arguments(s.ReportQuery, location="query")
    @blp.alt_response(200, success=True, content_type="application/pdf", schema={"type": "string", "format": "binary"},
                      description="the trip report as PDF (not an envelope)")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def get(self, query):
        """The trip report as a PDF, with its chart, its verification code and the statement that its
        results relate only to this shipment."""
        return trip_pdf(context.container().trip_report()(context.caller_id(), query["id"], query["deltaH"]))


@blp.route("/Waybill/export")
class WaybillExportView(MethodView):
    @blp.requires(f"{PERMISSION}:export")
    @blp.arguments(s.WaybillExportQuery)
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="the waybills the caller sees as XLSX (not an envelope), streamed")
    def post(self, body):
        """Every waybill the caller sees matching the filters, as a spreadsheet."""
        where = WaybillFilter(body.get("keyword"), WaybillState(body["state"]) if "state" in body else None)
        return xlsx_download(waybill_sheet(context.caller_id(), where), "waybills.xlsx")


@blp.route("/Waybill/share")
class WaybillShareView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.WaybillShareSchema)
    @blp.ok(s.NewShareLinkSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    def post(self, body):
        """A link for the receiver, valid 8 hours, 1 day, 3 days, 7 days or until a chosen end. Its
        token is given once: the server keeps only its digest."""
        made = context.container().create_waybill_link()(context.caller_id(), body["id"], body["validity"],
                                                          body.get("endTime"))
        return {**link_row(made.link, context.container().clock().now()), "token": made.token}


@blp.route("/Waybill/shareList")
class WaybillShareListView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.WaybillIdSchema, location="query")
    @blp.ok(s.ShareLinkSchema, many=True)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    def get(self, query):
        """The waybill's share links, newest first, each with who opened it (client address) and when."""
        now = context.container().clock().now()
        return [link_row(link, now) for link in
                context.container().list_waybill_links()(context.caller_id(), query["id"])]


@blp.route("/Waybill/shareRevoke")
class WaybillShareRevokeView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.ShareIdSchema)
    @blp.ok()
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"no such link, or {NOT_OWN}")
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    def post(self, body):
        """Revoke a share link at once: its next open is refused (2106)."""
        context.container().revoke_waybill_link()(context.caller_id(), body["shareId"])


# --- templates -------------------------------------------------------------------------------------


@blp.route("/WaybillTemplate/page")
class TemplatePageView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.WaybillTemplatePageQuery)
    @blp.ok(page_of(s.WaybillTemplateSchema))
    def post(self, body):
        """The caller's waybill templates by name."""
        page = context.container().list_waybill_templates()(context.caller_id(), page_request(body))
        return page_body(page, template_row)


@blp.route("/WaybillTemplate/get")
class TemplateGetView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.WaybillIdSchema, location="query")
    @blp.ok(s.WaybillTemplateSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description="no such template of the caller's")
    def get(self, query):
        return template_row(context.container().get_waybill_template()(context.caller_id(), query["id"]))


@blp.route("/WaybillTemplate/insert")
class TemplateInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.WaybillTemplateInputSchema)
    @blp.ok(s.WaybillTemplateSchema, refusals=s.TEMPLATE_REFUSALS)
    def post(self, body):
        """A template of the caller's to fill new waybills with, by the waybill's rules."""
        return template_row(context.container().save_waybill_template()(
            context.caller_id(), None, body["templateName"], particulars(body)))


@blp.route("/WaybillTemplate/update")
class TemplateUpdateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.WaybillTemplateUpdateSchema)
    @blp.ok(s.WaybillTemplateSchema, refusals=s.TEMPLATE_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description="no such template of the caller's")
    def put(self, body):
        return template_row(context.container().save_waybill_template()(
            context.caller_id(), body["id"], body["templateName"], particulars(body)))


@blp.route("/WaybillTemplate/delete")
class TemplateDeleteView(MethodView):
    @blp.requires(f"{PERMISSION}:delete")
    @blp.arguments(s.WaybillIdSchema, location="query")
    @blp.ok()
    @blp.alt_response(404, schema=ErrorEnvelope, description="no such template of the caller's")
    def delete(self, query):
        context.container().delete_waybill_template()(context.caller_id(), query["id"])
