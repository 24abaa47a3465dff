"""Endorsements (issue 22, /fda): who may sign which records of the caller or of an organization,
and what the signature means: /api/device/FdaEndorsement/*. An organization's are read by its
members and changed by its creator and administrators; a stranger's are unknown ids (404)."""

from __future__ import annotations

from flask.views import MethodView

from entrypoints.api import context
from entrypoints.api.fda import blp
from entrypoints.api.fda import schemas as s
from entrypoints.api.framework import ErrorEnvelope, page_body, page_of, page_request

UNKNOWN = "no such endorsement or organization, or not the caller's (the same answer, so ids cannot be probed)"
READ_ONLY = "a member of the organization who is neither its creator nor an administrator, or lacks the permission"


@blp.route("/FdaEndorsement/page")
class EndorsementPageView(MethodView):
    @blp.requires("fda:query")
    @blp.arguments(s.EndorsementPageQuery)
    @blp.ok(page_of(s.EndorsementSchema))
    @blp.alt_response(404, schema=ErrorEnvelope, description=UNKNOWN)
    def post(self, body):
        """The endorsements of the caller's own records, or of an organization it is a member of, by name."""
        page = context.container().list_endorsements()(context.caller_id(), body["organizationId"],
                                                       page_request(body))
        return page_body(page, s.endorsement_row)


@blp.route("/FdaEndorsement/insert")
class EndorsementInsertView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    @blp.requires("fda")
    @blp.arguments(s.EndorsementInsertSchema)
    @blp.ok(s.EndorsementSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=UNKNOWN)
    def post(self, body):
        """Add an endorsement: name and description up to 50, a meaning (reviewed, approved,
        responsible, authored, or its own words up to 50), the record types it signs, and who may
        sign under it: members named, or holders of roles of the organization (neither: whoever may
        sign the record). An endorsement of the caller's own records names nobody but the caller."""
        added = context.container().add_endorsement()(context.caller_id(), body["organizationId"],
                                                      s.endorsement_input(body))
        return s.endorsement_row(added)


@blp.route("/FdaEndorsement/update")
class EndorsementUpdateView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    @blp.requires("fda")
    @blp.arguments(s.EndorsementUpdateSchema)
    @blp.ok(s.EndorsementSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=UNKNOWN)
    def post(self, body):
        """Replace an endorsement's settings (every field, as on insert); signatures made under it
        keep the name they were made with."""
        changed = context.container().change_endorsement()(context.caller_id(), body["id"], s.endorsement_input(body))
        return s.endorsement_row(changed)


@blp.route("/FdaEndorsement/delete")
class EndorsementDeleteView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    @blp.requires("fda")
    @blp.arguments(s.EndorsementIdSchema)
    @blp.ok()
    @blp.alt_response(404, schema=ErrorEnvelope, description=UNKNOWN)
    def post(self, body):
        """Delete an endorsement: nobody signs under it any more; signatures made under it stay."""
        context.container().delete_endorsement()(context.caller_id(), body["id"])
