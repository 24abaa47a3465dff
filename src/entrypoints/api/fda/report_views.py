"""The periodic report (issue 22, FDA.md's REPORTS part): a device's data over a past period made a
record, signed by a reviewer and then an approver (the signing calls: POST /FdaRecord/sign with
recordType "report"). Made by the device's owner or its organization's administrators while FDA
mode is on for its records; read by the owner and the organization's members, not by a sharee."""

from __future__ import annotations

from flask.views import MethodView
from marshmallow import fields, validate

from core.fda.model import ReportFilter, ReportStatus
from core.fda.reports import (
    ERRORS,
    ID_MAX,
    TITLE_MAX,
    MakeReport,
    ReportView,
)
from entrypoints.api import context
from entrypoints.api.devices.schemas import DEVICE_ID, Instant
from entrypoints.api.fda import blp
from entrypoints.api.fda.signature_schemas import signature_row, signature_rows
from entrypoints.api.framework import (
    ErrorEnvelope,
    LocalDateTime,
    PageQuery,
    Schema,
    file_download,
    page_body,
    page_of,
    page_request,
)

Length, Range, OneOf = validate.Length, validate.Range, validate.OneOf
READ, MAKE = "fda:query", "fda"
NOT_OWN = ("no such report, or one the caller does not read (another account's, an organization's whose devices "
           "it does not see, a shared device's): the same answer, so ids cannot be probed")
REPORT_ID = fields.Integer(required=True, validate=Range(1, ID_MAX), metadata={"description": "the report's id"})


class FdaReportInsertSchema(Schema):
    deviceId = DEVICE_ID
    startTime = Instant(required=True, metadata={"description": "the period's start, ISO 8601 with its offset"})
    endTime = Instant(required=True, metadata={
        "description": "the period's end: after startTime, at most 366 days later, and passed already"})
    title = fields.String(allow_none=True, validate=Length(max=TITLE_MAX), metadata={
        "description": f"up to {TITLE_MAX} characters once trimmed; empty or null: the device's name and the "
                       "period's dates"})


class FdaReportPageQuery(PageQuery):
    organizationId = fields.Integer(allow_none=True, validate=Range(1, ID_MAX), metadata={
        "description": "only that organization's reports (one whose devices the caller does not see: none)"})
    deviceId = fields.Integer(allow_none=True, validate=Range(1, ID_MAX), metadata={
        "description": "only that device's reports"})
    sortField = fields.String(validate=OneOf(["createdAt"]), metadata={"description": "newest first"})


class FdaReportIdQuery(Schema):
    id = REPORT_ID


class FdaReportSchema(Schema):
    id = fields.Integer(required=True)
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True, metadata={"description": "the device's name now; empty once deleted"})
    title = fields.String(required=True)
    startTime = LocalDateTime(required=True)
    endTime = LocalDateTime(required=True)
    createdAt = LocalDateTime(required=True)
    createdBy = fields.String(required=True, metadata={"description": "its maker's printed name"})
    status = fields.String(required=True, validate=OneOf([s.value for s in ReportStatus]), metadata={
        "description": "draft; reviewed (a valid review); approved (a valid approval after a valid review by "
                       "another person)"})
    signatures = signature_rows("oldest first, each saying whether it applies to the report as it is now (false "
                                "once a late reading changed it)")


def row(view: ReportView) -> dict:
    r = view.report
    return {"id": r.id, "deviceId": r.device_id, "deviceName": r.device_name or "", "title": r.title,
            "startTime": r.start, "endTime": r.end, "createdAt": r.created_at, "createdBy": r.creator_name,
            "status": view.status.value, "signatures": [signature_row(s) for s in view.signatures]}


@blp.route("/FdaReport/insert")
class FdaReportInsertView(MethodView):
    @blp.requires(MAKE)
    @blp.arguments(FdaReportInsertSchema)
    @blp.ok(FdaReportSchema, refusals=ERRORS)
    @blp.alt_response(403, schema=ErrorEnvelope, description="the caller only reads the device (a member who does "
                                                             "not manage its organization's devices, a sharee)")
    @blp.alt_response(404, schema=ErrorEnvelope, description="no such device, or one the caller does not see")
    def post(self, body):
        """Make the report of a device's past period (a draft), on its readings as they are now.
        409 when FDA mode is off for the device's records or the device has a report of exactly
        this period; 422 for a period that ends before it starts, spans more than 366 days or has
        not ended yet."""
        made = context.container().create_fda_report()(MakeReport(
            context.caller_id(), body["deviceId"], body["startTime"], body["endTime"], body.get("title"),
            str(context.time_zone.get())))
        return row(made)


@blp.route("/FdaReport/page")
class FdaReportPageView(MethodView):
    @blp.requires(READ)
    @blp.arguments(FdaReportPageQuery)
    @blp.ok(page_of(FdaReportSchema))
    def post(self, body):
        """The reports of the caller's own devices and of the organizations whose devices it sees,
        newest first, each with its status and signatures as they apply to it now."""
        where = ReportFilter(body.get("organizationId"), body.get("deviceId"))
        return page_body(context.container().list_fda_reports()(context.caller_id(), where, page_request(body)), row)


@blp.route("/FdaReport/get")
class FdaReportGetView(MethodView):
    @blp.requires(READ)
    @blp.arguments(FdaReportIdQuery, location="query")
    @blp.ok(FdaReportSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def get(self, query):
        """A report with its status and signatures, each saying whether it applies to the report's
        content now."""
        return row(context.container().get_fda_report()(context.caller_id(), query["id"]))


@blp.route("/FdaReport/download")
class FdaReportDownloadView(MethodView):
    @blp.requires(READ)
    @blp.arguments(FdaReportIdQuery, location="query")
    @blp.alt_response(200, success=True, content_type="application/pdf", schema={"type": "string", "format": "binary"},
                      description="the report as PDF (not an envelope)")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(409, schema=ErrorEnvelope, description="2393: the report's device was deleted")
    def get(self, query):
        """The report as a PDF in the caller's language and time zone: device, period, minimum,
        maximum, mean, mean kinetic temperature, time out of range, the period's alarms, chart,
        readings, the audit trail's verification, the content's SHA-256 and each signature's
        printed name, meaning, date and time with its time zone and whether it still applies."""
        pdf = context.container().fda_report_pdf()(context.caller_id(), query["id"], context.language.get(),
                                                   str(context.time_zone.get()))
        return file_download(pdf.content, "application/pdf", pdf.file_name)
