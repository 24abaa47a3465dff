"""The audit trail's calls (issue 22, 21 CFR 11.10(e); core.fda.trail), on the FDA blueprint:
verify a chain, list its links with their entries, export them as XLSX.

Whose chain: the caller's own records (no organizationId) or an organization's it is a member of;
another organization is 404, as one that does not exist. Verifying is for every member; the links'
entries (the list and the export) are for those who read the organization's operation log: its
creator and administrators (403 for other members)."""

from __future__ import annotations

from flask import stream_with_context
from flask.views import MethodView
from marshmallow import ValidationError, fields, validate, validates_schema

from adapters.spreadsheets.operation_sheet import trail_sheet
from core.fda.audit_trail import TrailWindow
from core.fda.trail import REASONS, Break, TrailRow, Verification
from core.shared.messages import N_
from entrypoints.api import context
from entrypoints.api.alarms.schemas import ZonedDateTime
from entrypoints.api.audit.schemas import OperationSchema
from entrypoints.api.audit.views import SHEET_HEADERS, SheetWords, operation_row, sheet_row
from entrypoints.api.fda import blp
from entrypoints.api.fda.trail_lines import verification_lines
from entrypoints.api.framework import (
    XLSX,
    ErrorEnvelope,
    LocalDateTime,
    PageQuery,
    Schema,
    page_body,
    page_of,
    page_request,
    xlsx_download,
)

READ = "fda:query"
MAX_ID = 2**31 - 1
NOT_A_MEMBER = ("no such organization, or one the caller is not a member of (the same answer, so ids cannot be "
                "probed)")
TRAIL_TITLE = N_("Audit trail")
TRAIL_HEADERS = (N_("Link"), *SHEET_HEADERS, N_("Previous hash"), N_("Hash"))


class TrailSubjectQuery(Schema):
    organizationId = fields.Integer(validate=validate.Range(1, MAX_ID), metadata={
        "description": "an organization the caller is a member of; absent: the caller's own records"})


class TrailPageQuery(PageQuery):
    organizationId = fields.Integer(validate=validate.Range(1, MAX_ID), metadata={
        "description": "an organization the caller manages (creator or administrator); absent: the caller's own"})
    startTime = ZonedDateTime(metadata={"description": "links of entries at or after this instant (ISO 8601; "
                                                       "without an offset, in X-Time-Zone)"})
    endTime = ZonedDateTime(metadata={"description": "links of entries before this instant"})
    sortField = fields.String(validate=validate.OneOf(["seq"]), metadata={"description": "newest link first, always"})

    @validates_schema
    def _range(self, data, **_kwargs):
        if data.get("startTime") and data.get("endTime") and data["startTime"] >= data["endTime"]:
            raise ValidationError(N_("The end must be after the start"), "endTime")


class TrailBrokenLinkSchema(Schema):
    seq = fields.Integer(required=True, metadata={"description": "the first link that does not hold"})
    operationId = fields.Integer(required=True, metadata={"description": "the operation-log entry it chains"})
    at = LocalDateTime(required=True, metadata={"description": "the entry's time"})
    reason = fields.String(required=True, metadata={"enum": [b.value for b in Break]})
    reasonText = fields.String(required=True, metadata={"description": "the reason in the request's language"})


class TrailVerificationSchema(Schema):
    verified = fields.Boolean(required=True, metadata={"description": "every link holds"})
    links = fields.Integer(required=True, metadata={"description": "how many links the chain has"})
    firstBroken = fields.Nested(TrailBrokenLinkSchema, required=True, allow_none=True)
    checkedAt = LocalDateTime(required=True)


class TrailRowSchema(Schema):
    seq = fields.Integer(required=True, metadata={"description": "the link's number in its chain, from 1"})
    hash = fields.String(required=True, metadata={"description": "SHA-256 (hex) of the link (core/fda/trail.py)"})
    previousHash = fields.String(required=True, metadata={"description": "the previous link's hash; 64 zeros "
                                                                         "for the first"})
    operation = fields.Nested(OperationSchema, required=True, allow_none=True, metadata={
        "description": "the entry as /base/OperationLog/page answers it, with the changes this link covers; "
                       "null when the entry is no longer in the log (the verification names that link)"})


def verification_body(v: Verification) -> dict:
    broken = v.first_broken
    translate = context.container().translator().translate
    return {"verified": v.verified, "links": v.links, "checkedAt": v.checked_at,
            "firstBroken": None if broken is None else {
                "seq": broken.seq, "operationId": broken.operation_id, "at": broken.at, "reason": broken.reason.value,
                "reasonText": translate(REASONS[broken.reason], context.language.get())}}


def _trail_row(row: TrailRow) -> dict:
    link = row.link
    return {"seq": link.seq, "hash": link.hash, "previousHash": link.previous_hash,
            "operation": None if row.operation is None else operation_row(row.operation)}


@blp.route("/FdaRecord/verify")
class FdaVerifyView(MethodView):
    @blp.requires(READ)
    @blp.arguments(TrailSubjectQuery, location="query")
    @blp.ok(TrailVerificationSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_A_MEMBER)
    def get(self, query):
        """Recompute the audit trail of the caller's own records, or of an organization it is a
        member of: every link's hash over its operation-log entry, the changes it covers and the
        previous link's hash. Answers whether every link holds, how many there are, and the first
        that does not: a link removed (linkMissing), changed (linkAltered), its entry or a change
        removed (entryMissing) or changed (entryChanged), a change added to a chained entry
        (changeAdded). A chain with no link (FDA mode never on) verifies, with 0 links."""
        return verification_body(context.container().verify_trail()(context.caller_id(),
                                                                      query.get("organizationId")))


@blp.route("/FdaRecord/trail")
class FdaTrailView(MethodView):
    @blp.requires(READ)
    @blp.arguments(TrailPageQuery)
    @blp.ok(page_of(TrailRowSchema))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_A_MEMBER)
    def post(self, body):
        """The audit trail's links, newest first, each with its operation-log entry (the changes it
        covers), filtered by the entry's time (startTime inclusive, endTime exclusive): the
        caller's own, or an organization's for its creator and administrators (403 for its other
        members, who may verify it)."""
        window = TrailWindow(body.get("startTime"), body.get("endTime"))
        page = context.container().list_trail()(context.caller_id(), body.get("organizationId"), window,
                                                 page_request(body))
        return page_body(page, _trail_row)


@blp.route("/FdaRecord/trail/export")
class FdaTrailExportView(MethodView):
    @blp.requires(READ)
    @blp.arguments(TrailSubjectQuery, location="query")
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="first lines: whose trail, whether it verified, its links, when it was "
                                  "checked, its first broken link and its newest link's hash (the anchor to keep); "
                                  "then the links, newest first (at most 50,000): number, the entry as the "
                                  "operation log's export writes it, previous hash and hash; times in X-Time-Zone, "
                                  "words in the request's language")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_A_MEMBER)
    def get(self, query):
        """The audit trail, verified now, as an XLSX: the caller's own, or an organization's for its
        creator and administrators (403 for its other members)."""
        export = context.container().export_trail()(context.caller_id(), query.get("organizationId"))
        language, zone = context.language.get(), context.time_zone.get()
        translator = context.container().translator()
        words = SheetWords(translator, language)
        rows = ([row.link.seq, *(sheet_row(row.operation, zone, words) if row.operation is not None
                                 else [row.link.at.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S"), "", "", "", "",
                                       "", ""]), row.link.previous_hash, row.link.hash] for row in export.rows)
        chunks = trail_sheet(translator.translate(TRAIL_TITLE, language),
                             [translator.translate(h, language) for h in TRAIL_HEADERS], rows,
                             verification_lines([export.verification], translator, language, zone))
        return xlsx_download(stream_with_context(chunks), "audit-trail.xlsx")
