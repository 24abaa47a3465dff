"""Exports to the download centre (/consumer/download): a device's readings as CSV, XLSX or a
PDF report, and the device list as XLSX, written by a job; and the check of a report's code."""

from __future__ import annotations

from dataclasses import asdict

from flask import send_file
from flask.views import MethodView

from core.exports.model import Certificate, Export, ExportFormat
from core.exports.use_cases import ExportNotFailed, RequestDeviceListExport, RequestReadingsExport, TooManyExports
from entrypoints.api import context
from entrypoints.api.devices.views import device_filter
from entrypoints.api.exports import schemas as s
from entrypoints.api.fda.signature_schemas import SIGNING_REFUSALS, documents_signing, signature_input
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request
from entrypoints.jobs.app import send_export

blp = ApiBlueprint("exports", __name__, description="Data exports and the download centre")

NOT_VISIBLE = "no such device, or not one the caller may see (the same answer, so ids cannot be probed)"
NOT_OWN = "no such export, or another account's (the same answer, so ids cannot be probed)"
MEDIA_TYPES = {ExportFormat.CSV: "text/csv",
               ExportFormat.XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
               ExportFormat.PDF: "application/pdf"}



def _row(x: Export) -> dict:
    error = None
    if x.error:
        error = context.translated(x.error)
    return {"id": x.id, "kind": x.kind.value, "format": x.format.value, "title": x.title, "status": x.status.value,
            "progress": x.progress, "size": x.size, "fileName": x.file_name, "deviceId": x.device_id,
            "startTime": x.since, "endTime": x.until, "createdAt": x.created_at, "finishedAt": x.finished_at,
            "expiresAt": x.expires_at, "error": error}


def _started(export: Export) -> dict:
    send_export(context.jobs(), export.id)
    # As it is now: a job run at once (APP_ENV=test runs it in this request) has moved it on.
    return _row(context.container().get_export()(export.account_id, export.id))


def _zone_name() -> str:
    return str(context.time_zone.get())


@blp.route("/DeviceDataExport/create")
class ReadingsExportView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=f"the caller lacks `device.detail`; "
                                                              f"{SIGNING_REFUSALS[403]}")
    @blp.requires("device.detail")
    @blp.arguments(s.ReadingsExportSchema)
    @blp.ok(s.ExportSchema, refusals=(TooManyExports,))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    @documents_signing(blp)
    def post(self, body):
        """Export a device's readings from startTime to endTime (both included, at most 366 days) as
        CSV, XLSX or a PDF report. Anyone who may see the device may export it (a member of its
        organization too). The file is written by a job: the answer is the export, pending; poll
        DeviceDataExport/get for its progress, then download it. Values are in the device's unit and
        display precision, times in the request's X-Time-Zone. An account has at most 3 exports in
        progress at once (1201). The file is kept 7 days.

        Where FDA mode is on for the device's organization (else its owner), the export is signed
        by the caller (`signature`, meaning authored) in the transaction that records it: without
        one 428 (2321), and a refused signature (wrong password 403, locked 423) records nothing.
        Every file of it then states the signature's manifestation (printed name, date and time
        with the signer's time zone, meaning) and whether the audit trail verified when it was
        written, with the trail's newest hash: CSV and XLSX in lines above the columns (and the
        XLSX's Info sheet), the PDF among its facts."""
        export = context.container().request_export()(RequestReadingsExport(
            context.caller_id(), body["deviceId"], body["startTime"], body["endTime"], ExportFormat(body["format"]),
            context.language.get(), _zone_name(), context.current_principal().session_id,
            signature_input(body["signature"])))
        return _started(export)


@blp.route("/DeviceDataExport/createDeviceList")
class DeviceListExportView(MethodView):
    @blp.requires("device.list:export")
    @blp.arguments(s.DeviceListExportSchema)
    @blp.ok(s.ExportSchema, refusals=(TooManyExports,))
    def post(self, body):
        """Export the device list as XLSX: every device Device/page would list with these filters
        (not just one page), with its status, last reading in its unit, alarm, level and expiry."""
        filters = {k: (int(v) if k == "vip_state" and v is not None else v)
                   for k, v in asdict(device_filter(body)).items() if k != "now"}
        export = context.container().request_export()(RequestDeviceListExport(
            context.caller_id(), filters, context.language.get(), _zone_name()))
        return _started(export)


@blp.route("/DeviceDataExport/page")
class ExportPageView(MethodView):
    @blp.requires("consumer.download")
    @blp.arguments(s.ExportPageQuery)
    @blp.ok(page_of(s.ExportSchema))
    def post(self, body):
        """The caller's exports, newest first, with their status and progress."""
        return page_body(context.container().list_exports()(context.caller_id(), page_request(body)), _row)


@blp.route("/DeviceDataExport/get")
class ExportView(MethodView):
    @blp.requires("consumer.download")
    @blp.arguments(s.ExportIdQuery, location="query")
    @blp.ok(s.ExportSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def get(self, query):
        """One of the caller's exports: poll it while it is pending or running."""
        return _row(context.container().get_export()(context.caller_id(), query["id"]))


@blp.route("/DeviceDataExport/readyCount")
class ReadyCountView(MethodView):
    @blp.requires("consumer.download")
    @blp.ok(s.ReadyCountSchema)
    def get(self):
        """How many of the caller's exports are ready: the header's badge."""
        return {"count": context.container().count_ready_exports()(context.caller_id())}


@blp.route("/DeviceDataExport/download")
class DownloadView(MethodView):
    @blp.requires("consumer.download")
    @blp.arguments(s.ExportIdQuery, location="query")
    @blp.alt_response(200, success=True, content_type="application/octet-stream",
                      schema={"type": "string", "format": "binary"},
                      description="the file (CSV, XLSX or PDF), streamed, as an attachment")
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_OWN}; or not ready yet")
    def get(self, query):
        """The export's file, only to the account that asked for it."""
        found = context.container().get_export_file()(context.caller_id(), query["id"])
        reply = send_file(found.path, mimetype=MEDIA_TYPES[found.format], as_attachment=True,
                          download_name=found.file_name, conditional=False, etag=False, max_age=0)
        reply.headers["Cache-Control"] = "private, no-store"
        reply.headers["X-Content-Type-Options"] = "nosniff"
        return reply


@blp.route("/DeviceDataExport/delete")
class DeleteExportView(MethodView):
    @blp.requires("consumer.download")
    @blp.arguments(s.ExportIdQuery, location="query")
    @blp.ok()
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def delete(self, query):
        """Delete one of the caller's exports and its file (one in progress is abandoned)."""
        context.container().delete_export()(context.caller_id(), query["id"])


@blp.route("/DeviceDataExport/retry")
class RetryExportView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=f"the caller lacks `consumer.download`; "
                                                              f"{SIGNING_REFUSALS[403]}")
    @blp.requires("consumer.download")
    @blp.arguments(s.ExportIdQuery, location="query")
    @blp.arguments(s.RetryExportSchema, required=False)
    @blp.ok(s.ExportSchema, refusals=(ExportNotFailed, TooManyExports))
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_OWN}; or its device is no longer visible")
    @documents_signing(blp)
    def post(self, query, body):
        """Try a failed export again: the same request as a new export (the answer, pending, then
        written by a job as DeviceDataExport/create's), and the failed one deleted. Only a failed
        export (1202), within the limit of exports in progress (1201). The new export is another
        record: where FDA mode is on for its device's organization (else its owner), a readings export is signed as
        DeviceDataExport/create's (the body's `signature`; 428 without it, and a refused signature
        changes nothing)."""
        principal = context.current_principal()
        return _started(context.container().retry_export()(
            context.caller_id(), query["id"], principal.session_id, signature_input(body.get("signature"))))


def _certificate(c: Certificate | None) -> dict:
    if c is None:
        return {"genuine": False}
    return {"genuine": True, "accountName": c.account_name, "deviceGuid": c.device_guid, "deviceName": c.device_name,
            "startTime": c.since, "endTime": c.until, "generatedAt": c.generated_at, "readings": c.readings,
            "sha256": c.sha256}


@blp.route("/DeviceDataExport/verify")
class VerifyView(MethodView):
    @blp.public
    @blp.arguments(s.VerifyQuery, location="query")
    @blp.ok(s.VerificationSchema)
    def get(self, query):
        """Whether a PDF report's verification code is genuine, and what the report covers: the
        account, device, period, when it was made, how many readings and the file's sha256. Anyone
        holding a report may check it (no login). A code keeps working after the file is deleted."""
        return _certificate(context.container().verify_report()(query["code"]))
