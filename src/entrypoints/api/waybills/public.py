"""The public quick query of waybills (/quick/query, /mobileQuick/waybill, /pcQuick/waybill: no login):
by waybill number or device GUID, by share link, and the check of a report's verification code. A
receiver sees the trip (status, limits, chart readings, excursions, report), never the owner's data.
Each client address gets 30 lookups in 10 minutes (429 with Retry-After after); a number nobody has
answers as one whose trips have not started: an empty list."""

from __future__ import annotations

from flask import request
from flask.views import MethodView

from core.waybills.errors import ShareLinkUnavailable
from entrypoints.api import context
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope
from entrypoints.api.waybills import schemas as s
from entrypoints.api.waybills.documents import trip_pdf
from entrypoints.api.waybills.views import trip

blp = ApiBlueprint("waybill_quick_query", __name__, description="The public quick query of waybills (no login)")

THROTTLED = "more than 30 lookups from the client address in 10 minutes: Retry-After says when to try again"
GONE = f"no such link; or code {ShareLinkUnavailable.code}: it has expired or been revoked"


def _address() -> str:
    return request.remote_addr or "unknown"


@blp.route("/QuickSearch/waybill")
class QuickWaybillView(MethodView):
    @blp.public
    @blp.arguments(s.QuickQuery, location="query")
    @blp.ok(s.QuickAnswerSchema)
    @blp.alt_response(429, schema=ErrorEnvelope, description=THROTTLED)
    def get(self, query):
        """The trips of a waybill number (at most 5, newest first) or a device's current or last trip."""
        found = context.container().waybill_quick_query()(_address(), query.get("number"), query.get("guid"))
        return {"waybills": [trip(r) for r in found]}


@blp.route("/QuickSearch/share")
class QuickShareView(MethodView):
    @blp.public
    @blp.arguments(s.TokenQuery, location="query")
    @blp.ok(s.TripSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=GONE)
    @blp.alt_response(429, schema=ErrorEnvelope, description=THROTTLED)
    def get(self, query):
        """The trip a share link shows; each open is recorded with its time and client address."""
        return trip(context.container().open_waybill_link()(_address(), query["token"]))


@blp.route("/QuickSearch/sharePdf")
class QuickSharePdfView(MethodView):
    @blp.public
    @blp.arguments(s.TokenQuery, location="query")
    @blp.alt_response(200, success=True, content_type="application/pdf", schema={"type": "string", "format": "binary"},
                      description="the trip report as PDF (not an envelope)")
    @blp.alt_response(404, schema=ErrorEnvelope, description=GONE)
    @blp.alt_response(429, schema=ErrorEnvelope, description=THROTTLED)
    def get(self, query):
        """The trip report a share link gives, as PDF."""
        return trip_pdf(context.container().open_waybill_link()(_address(), query["token"]))


@blp.route("/QuickSearch/verify")
class QuickVerifyView(MethodView):
    @blp.public
    @blp.arguments(s.CodeQuery, location="query")
    @blp.ok(s.VerifySchema)
    @blp.alt_response(429, schema=ErrorEnvelope, description=THROTTLED)
    def get(self, query):
        """Whether a trip report's verification code is this server's for the trip's readings as
        stored now; a valid one shows the trip."""
        found = context.container().verify_waybill_report()(_address(), query["code"])
        return {"valid": found.valid, "trip": trip(found.report) if found.report else None}
