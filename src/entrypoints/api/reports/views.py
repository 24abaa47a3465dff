"""Scheduled reports (the data centre's scheduled backup, /service/scheduledBackup): an account's
schedules that mail chosen devices' readings of the last day, week or month, and their runs."""

from __future__ import annotations

from flask.views import MethodView

from core.exports.model import ExportFormat
from core.reports.model import Frequency, Run, Schedule
from core.reports.use_cases import ScheduleInput
from entrypoints.api import context
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request
from entrypoints.api.reports import schemas as s

blp = ApiBlueprint("reports", __name__, description="Scheduled reports")

PERMISSION = "dataCenter.scheduledBackup"
NOT_OWN = "no such schedule, or another account's (the same answer, so ids cannot be probed)"
NOT_VISIBLE = "a device that does not exist or the caller may not see"



def _input(body: dict) -> ScheduleInput:
    return ScheduleInput(body["name"], Frequency(body["frequency"]), body["deviceIds"], ExportFormat(body["format"]),
                         body["recipients"], body["enabled"], body["weekday"], body["monthDay"])


def _row(x: Schedule) -> dict:
    return {"id": x.id, "name": x.name, "frequency": x.frequency.value, "weekday": x.weekday,
            "monthDay": x.month_day, "deviceIds": x.device_ids, "format": x.format.value,
            "recipients": x.recipients, "enabled": x.enabled, "createdAt": x.created_at,
            "devices": [{"deviceId": i, "deviceName": name} for i, name in x.device_names.items()]}


def _run(r: Run) -> dict:
    translate, language = context.container().translator().translate, context.language.get()
    files = [{"deviceId": f.device_id, "deviceName": f.device_name, "exportId": f.export_id,
              "fileName": f.file_name, "size": f.size, "error": translate(f.error, language) if f.error else None}
             for f in r.files]
    return {"id": r.id, "periodStart": r.period_start, "periodEnd": r.period_end, "startedAt": r.started_at,
            "finishedAt": r.finished_at, "outcome": r.outcome.value, "files": files, "sentTo": r.sent_to,
            "attempts": r.attempts, "error": r.error}


@blp.route("/ScheduledReport/page")
class SchedulePageView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.SchedulePageQuery)
    @blp.ok(page_of(s.ScheduleSchema))
    def post(self, body):
        """The caller's scheduled reports, newest first."""
        return page_body(context.container().list_schedules()(context.caller_id(), page_request(body)), _row)


@blp.route("/ScheduledReport/insert")
class ScheduleInsertView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.ScheduleInputSchema)
    @blp.ok(s.ScheduleSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, body):
        """Schedule a report: each chosen device's readings of the previous day (daily, sent after
        local midnight), the 7 days before the chosen weekday (weekly) or the previous calendar
        month (monthly, sent on monthDay), in the account's time zone, as one CSV, XLSX or PDF file
        per device, mailed to the recipients: attached up to 5 MB in all, otherwise as a link to
        the download centre, where the files are kept a week. The first period sent is the one
        whose sending day begins after the schedule is made."""
        return _row(context.container().create_schedule()(context.caller_id(), _input(body)))


@blp.route("/ScheduledReport/update")
class ScheduleUpdateView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.ScheduleUpdateSchema)
    @blp.ok(s.ScheduleSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_OWN}; or {NOT_VISIBLE}")
    def post(self, body):
        """Change a schedule, or enable and disable it (a disabled one sends nothing)."""
        return _row(context.container().update_schedule()(context.caller_id(), body["id"], _input(body)))


@blp.route("/ScheduledReport/delete")
class ScheduleDeleteView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.ScheduleIdQuery, location="query")
    @blp.ok()
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def delete(self, query):
        """Delete a schedule and its runs (files already in the download centre stay their week)."""
        context.container().delete_schedule()(context.caller_id(), query["id"])


@blp.route("/ScheduledReport/runs")
class RunPageView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.RunPageQuery)
    @blp.ok(page_of(s.RunSchema))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def post(self, body):
        """A schedule's runs, the latest period first: outcome, each device's file or why there is
        none, and who has had the mail."""
        runs = context.container().list_report_runs()(context.caller_id(), body["scheduleId"], page_request(body))
        return page_body(runs, _run)
