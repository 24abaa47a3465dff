"""FDA mode's switches, electronic signing and the signatures (issue 22, /fda): /api/device/FdaRecord/*.

A signing call answers its refusals in the caller's language: 428 no signature where FDA mode
needs one, 400 the user name is needed (or an unknown time zone), 403 a wrong user name or
password (with the attempts left), an endorsement that does not cover the signer or the record, or
a record the caller may not sign, 423 signing locked, 409 a second signer who must differ or an
approval before another person's review. The client shows `msg` in its signature dialog and reads
GET /FdaRecord/signingState again."""

from __future__ import annotations

from flask.views import MethodView

from core.fda.errors import ALREADY_OFF, ALREADY_ON, NOT_LOCKED, ReviewBeforeApproval, SignerMustDiffer
from core.fda.model import Signer
from core.fda.ports import SignatureFilter
from core.fda.switch import Switched, SwitchView
from entrypoints.api import context
from entrypoints.api.fda import blp
from entrypoints.api.fda import schemas as s
from entrypoints.api.fda.signature_schemas import (
    SIGNING_REFUSALS,
    SignatureRowSchema,
    documents_signing,
    signature_input,
    signature_row,
)
from entrypoints.api.framework import OK, ErrorEnvelope, envelope, page_body, page_of, page_request

UNKNOWN = "no such record or organization, or not the caller's (the same answer, so ids cannot be probed)"
NOT_MANAGER = "the caller is a member of the organization but neither its creator nor an administrator"


def _signer() -> Signer:
    principal = context.current_principal()
    return Signer(principal.account_id, principal.session_id)


def _switch_row(view: SwitchView) -> dict:
    subject = view.switch.subject
    return {"accountId": subject.account_id, "organizationId": subject.organization_id, "name": view.switch.name,
            "enabled": view.switch.on, "changeable": view.changeable}


def _switched(result: Switched, repeated: str) -> dict:
    """The envelope of a switch: a repeated one is no error, its msg says nothing was needed."""
    msg = OK["msg"] if result.changed else context.translated(repeated)
    return {"code": 0, "msg": msg, "data": {"enabled": result.on, "changed": result.changed}}


@blp.route("/FdaRecord/status")
class StatusView(MethodView):
    @blp.requires("fda:query")
    @blp.ok(s.FdaStatusSchema)
    def get(self):
        """FDA mode of the caller's own records, then of each organization it is a member of, with
        whether the caller may switch it (its own; an organization's creator and administrators)."""
        return {"subjects": [_switch_row(v) for v in context.container().fda_status()(context.caller_id())]}


@blp.route("/FdaRecord/signingState")
class SigningStateView(MethodView):
    @blp.requires("fda:query")
    @blp.ok(s.SigningStateSchema)
    def get(self):
        """What the caller's next signature takes: the user name too (the session's first signature,
        or the first after reauthMinutes without one), or whether signing is locked and until when."""
        state = context.container().signing_state()(_signer())
        return {"needsUserName": state.needs_user_name, "locked": state.locked_until is not None,
                "lockedUntil": state.locked_until.isoformat() if state.locked_until else None,
                "reauthMinutes": state.reauth_minutes, "userName": state.user_name}


@blp.route("/FdaRecord/enable")
class EnableView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=NOT_MANAGER)
    @blp.requires("fda:enable")
    @blp.arguments(s.EnableSchema)
    @blp.response(200, envelope(s.SwitchedSchema))
    @blp.alt_response(404, schema=ErrorEnvelope, description=UNKNOWN)
    def post(self, body):
        """Switch FDA mode on for the caller's own records, or an organization's. Already on:
        nothing changes, changed false, and msg says it was not needed (spec 001 section 4)."""
        result = context.container().enable_fda()(context.caller_id(), body["organizationId"])
        return _switched(result, ALREADY_ON)


@blp.route("/FdaRecord/disable")
class DisableView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=f"{NOT_MANAGER}; {SIGNING_REFUSALS[403]}")
    @blp.requires("fda:disable")
    @blp.arguments(s.DisableSchema)
    @blp.response(200, envelope(s.SwitchedSchema))
    @blp.alt_response(404, schema=ErrorEnvelope, description=UNKNOWN)
    @documents_signing(blp)
    def post(self, body):
        """Switch FDA mode off: signed by the caller (meaning approved, a reason required), the
        signature binding the switch's new state; both stay in the operation log and the trail.
        Already off: nothing changes, no signature is needed, and msg says so."""
        result = context.container().disable_fda()(_signer(), body["organizationId"],
                                                   signature_input(body["signature"]))
        return _switched(result, ALREADY_OFF)


@blp.route("/FdaRecord/sign")
class SignView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=SIGNING_REFUSALS[403])
    @blp.requires("fda")
    @blp.arguments(s.SignSchema)
    @blp.ok(SignatureRowSchema, refusals=[SignerMustDiffer, ReviewBeforeApproval])
    @blp.alt_response(404, schema=ErrorEnvelope, description=UNKNOWN)
    @documents_signing(blp, (400, 423))
    def post(self, body):
        """Sign a record as it now is (a waybill's or a report's approval): the signature binds its
        content's hash, so a later change of the record shows the signature as no longer valid.
        Who signs: who may change the record, or whom an endorsement of its owner names. A report
        is approved only after another person reviewed it; an endorsement with distinctSigner
        takes a signer who has not signed the record yet."""
        signed = context.container().sign_record()(_signer(), body["recordType"], body["recordId"],
                                                   signature_input(body["signature"]))
        return signature_row(signed)


@blp.route("/FdaRecord/recordSignatures")
class RecordSignaturesView(MethodView):
    @blp.requires("fda:query")
    @blp.arguments(s.RecordQuery, location="query")
    @blp.ok(SignatureRowSchema, many=True)
    @blp.alt_response(404, schema=ErrorEnvelope, description=UNKNOWN)
    def get(self, query):
        """A record's signatures, oldest first, each valid while the record is as it was signed."""
        found = context.container().record_signatures()(context.caller_id(), query["recordType"], query["recordId"])
        return [signature_row(m) for m in found]


@blp.route("/FdaRecord/signatures")
class SignaturesView(MethodView):
    @blp.requires("fda:query")
    @blp.arguments(s.SignaturePageQuery)
    @blp.ok(page_of(SignatureRowSchema))
    @blp.alt_response(404, schema=ErrorEnvelope, description=UNKNOWN)
    def post(self, body):
        """The signatures of the caller's records and its organizations' (or one organization's),
        newest first; filters: signer (part of the name), meaning, record type, signed in
        [startTime, endTime)."""
        where = SignatureFilter(body["signerName"], body["meaning"], body["recordType"], body["startTime"],
                                body["endTime"])
        page = context.container().list_signatures()(context.caller_id(), body["organizationId"], where,
                                                     page_request(body))
        return page_body(page, signature_row)


@blp.route("/FdaRecord/unlockSigning")
class UnlockView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description="the locked account itself (another administrator "
                                                              "unlocks it), or the caller lacks the permission")
    @blp.requires("fda")
    @blp.arguments(s.UnlockSchema)
    @blp.response(200, envelope(s.UnlockedSchema))
    @blp.alt_response(404, schema=ErrorEnvelope, description="not a member of an organization the caller "
                                                              "administers (as for an unknown account)")
    def post(self, body):
        """Lift an account's signing lock and clear its failed attempts: by the creator or an
        administrator of an organization the account is a member of. Not locked: nothing changes
        and msg says so."""
        unlocked = context.container().unlock_signing()(context.caller_id(), body["accountId"])
        msg = OK["msg"] if unlocked.changed else context.translated(NOT_LOCKED)
        return {"code": 0, "msg": msg, "data": {"locked": False, "changed": unlocked.changed}}
