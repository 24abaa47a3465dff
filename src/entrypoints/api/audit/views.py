"""The operation log (issue 17, /operation/log): every change made through the API, who made it,
when, from where, old and new values, and refused or failed attempts. A customer reads the entries
they made, those of what they own(ed) when it changed, and those of the organizations they manage;
an operator reads all. A device's detail shows the device's entries to whoever may read it. The
calls', object types' and columns' labels (labels.py) are served to the console and written in the
export, in the caller's language."""

from __future__ import annotations

from datetime import tzinfo
from typing import Any

from flask import stream_with_context
from flask.views import MethodView

from adapters.i18n import Translator
from adapters.spreadsheets.operation_sheet import operation_sheet
from core.audit.model import Operation, OperationFilter, Outcome
from core.audit.use_cases import Reader
from core.shared.errors import Forbidden
from core.shared.messages import N_
from entrypoints.api import context
from entrypoints.api.audit import schemas as s
from entrypoints.api.audit.labels import labels_in
from entrypoints.api.fda.trail_lines import verification_lines
from entrypoints.api.framework import (
    XLSX,
    ApiBlueprint,
    ErrorEnvelope,
    caller_permissions,
    page_body,
    page_of,
    page_request,
    xlsx_download,
)

blp = ApiBlueprint("operation_log", __name__, description="The operation log: changes made through the API")
device_blp = ApiBlueprint("device_operation_log", __name__, description="A device's operation log")

PERMISSION = "operation.log"
# The back office's permission to read every account's entries (the operators' system management).
OPERATOR_PERMISSION = "operation.system.manage"
NOT_VISIBLE = "no such device, or one the caller may not see (the same answer, so ids cannot be probed)"

OUTCOMES = {Outcome.SUCCEEDED: N_("Succeeded"), Outcome.REFUSED: N_("Refused"), Outcome.FAILED: N_("Failed")}
SHEET_HEADERS = (N_("Time"), N_("User"), N_("Address"), N_("Action"), N_("Object"), N_("Changes"), N_("Outcome"))
SHEET_TITLE = N_("Operation log")


def _reader(needed: str) -> Reader:
    permissions = caller_permissions()
    operator = OPERATOR_PERMISSION in permissions
    if not operator and needed not in permissions:
        raise Forbidden()
    return Reader(context.caller_id(), operator)


def _filter(body: dict) -> OperationFilter:
    outcome = body.get("outcome")
    return OperationFilter(since=body.get("since"), until=body.get("until"), user_name=body.get("userName"),
                           object_type=body.get("objectType"), object_id=body.get("objectId"),
                           action=body.get("action"), outcome=Outcome(outcome) if outcome else None)


def operation_row(o: Operation) -> dict:
    """An entry as the log's pages answer it (OperationSchema)."""
    return {"id": o.id, "at": o.at, "accountId": o.actor_account_id, "userName": o.actor_name,
            "clientAddress": o.client_address, "action": o.action, "method": o.method, "outcome": o.outcome.value,
            "status": o.status,
            "changes": [{"objectType": c.object_type, "objectId": c.object_id, "objectLabel": c.label, "kind": c.kind,
                         "fields": c.fields, "deviceId": c.device_id} for c in o.changes]}


_DENIED = {403: "the caller holds neither `operation.log` nor the back office's `operation.system.manage`"}


@blp.route("/OperationLog/page")
class OperationLogPageView(MethodView):
    @blp.arguments(s.OperationPageQuery)
    @blp.ok(page_of(s.OperationSchema))
    @blp.alt_response(403, schema=ErrorEnvelope, description=_DENIED[403])
    def post(self, body):
        """The entries the caller may read, newest first, filtered by time (since inclusive, until
        exclusive), acting user's name, object (type, and id), call and outcome. A customer reads
        what they did, what they owned when it changed, and their managed organizations' entries;
        an operator reads every entry. Secrets are never shown ("***")."""
        page = context.container().list_operations()(_reader(PERMISSION), _filter(body), page_request(body))
        return page_body(page, operation_row)


def _value(value: Any) -> str:
    return "" if value is None else str(value)


class SheetWords:
    """What an export writes in the caller's language: outcomes, and the calls', object types' and
    columns' labels (a code without one as it is)."""

    def __init__(self, translator: Translator, language: str) -> None:
        self.outcome = {k: translator.translate(v, language) for k, v in OUTCOMES.items()}
        self.labels = labels_in(language, translator)

    def label(self, group: str, code: str) -> str:
        return self.labels[group].get(code, code)


def sheet_row(o: Operation, zone: tzinfo, words: SheetWords) -> list[object]:
    """An entry as the log's export writes it (SHEET_HEADERS)."""
    objects = "; ".join(f"{words.label('object', c.object_type)} {c.label or c.object_id or ''}".strip()
                        for c in o.changes)
    changes = "\n".join(f"{words.label('field', name)}: {_value(old)} -> {_value(new)}" for c in o.changes
                        for name, (old, new) in c.fields.items())
    return [o.at.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S"), o.actor_name or "", o.client_address or "",
            words.label("action", o.action), objects, changes[:32_000], words.outcome[o.outcome]]


@blp.route("/OperationLog/export")
class OperationLogExportView(MethodView):
    @blp.arguments(s.OperationFilterSchema)
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="the entries as the page lists them (newest first, at most 50,000), times in "
                                  "X-Time-Zone; headers, outcomes, and the labels of calls, object types and "
                                  "fields (GET /OperationLog/labels) in the request's language. When FDA mode is "
                                  "on for the caller's own records or an organization whose log it reads, the "
                                  "first lines say, for each, whether its audit trail verified, when, and its "
                                  "first broken link (GET /device/FdaRecord/verify)")
    @blp.alt_response(403, schema=ErrorEnvelope, description=_DENIED[403])
    def post(self, body):
        """The filter's entries as an XLSX; `operation.log:export` (or the back office's
        permission) is needed."""
        operations = context.container().export_operations()(_reader(f"{PERMISSION}:export"), _filter(body))
        language, zone = context.language.get(), context.time_zone.get()
        translator = context.container().translator()
        words = SheetWords(translator, language)
        rows = [sheet_row(o, zone, words) for o in operations]
        trails = context.container().verify_reader_trails()(context.caller_id())
        chunks = operation_sheet(translator.translate(SHEET_TITLE, language),
                                 [translator.translate(h, language) for h in SHEET_HEADERS], rows,
                                 preamble=verification_lines(trails, translator, language, zone))
        return xlsx_download(stream_with_context(chunks), "operation-log.xlsx")


@blp.route("/OperationLog/labels")
class OperationLabelsView(MethodView):
    @blp.ok(s.OperationLabelsSchema)
    def get(self):
        """The labels the log shows in the request's language (Accept-Language): of each recorded
        call by its name, each object type and each column a change names; a code without one is
        shown as it is. For every signed-in caller: whoever reads the log, or a device's changes
        from its detail, reads them (they are the product's words, no one's data)."""
        return labels_in(context.language.get(), context.container().translator())


@device_blp.route("/DeviceOperationLog/changes")
class DeviceOperationLogView(MethodView):
    @device_blp.requires("device.detail")
    @device_blp.arguments(s.DeviceOperationPageQuery)
    @device_blp.ok(page_of(s.OperationSchema))
    @device_blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, body):
        """The operation log's entries that changed the device or what hangs on it (alarm rules,
        parameters, maintenance records...), newest first, whoever made them; for whoever may read
        the device."""
        page = context.container().list_device_operations()(context.caller_id(),
                                                             body["deviceId"], page_request(body))
        return page_body(page, operation_row)
