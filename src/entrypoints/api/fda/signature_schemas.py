"""The two schemas every signed call shares: the `signature` a client sends and the SignatureRow it
reads back (signature_row), used by the FDA page's, the alarms', the devices' and the reports' calls.
It imports no other API package, so any of them may import it."""

from __future__ import annotations

from datetime import UTC

from marshmallow import fields, validate

from core.fda.model import (
    PASSWORD_MAX,
    REASON_MAX,
    RECORD_TYPES,
    TIME_ZONE_MAX,
    USER_NAME_MAX,
    Manifestation,
    Meaning,
    SignatureInput,
    meaning_words,
)
from entrypoints.api import context
from entrypoints.api.framework import ErrorEnvelope, Schema

Length, OneOf, Range = validate.Length, validate.OneOf, validate.Range
MAX_ID = 2_147_483_647
MEANINGS = [m.value for m in Meaning]


class SignatureInputSchema(Schema):
    """An electronic signature (21 CFR 11.50, 11.200): see GET /device/FdaRecord/signingState."""

    userName = fields.String(allow_none=True, load_default=None, validate=Length(max=USER_NAME_MAX), metadata={
        "description": "the signer's user name: needed on the session's first signature and after the "
                       "re-authentication window (signingState.needsUserName), checked whenever given"})
    password = fields.String(required=True, validate=Length(1, PASSWORD_MAX))
    meaning = fields.String(allow_none=True, load_default=None, validate=OneOf(MEANINGS), metadata={
        "description": "what the signature means; with endorsementId the endorsement's meaning applies"})
    endorsementId = fields.Integer(allow_none=True, load_default=None, validate=Range(1, MAX_ID), metadata={
        "description": "sign under an endorsement of the record's owner (who may sign, which records, meaning)"})
    reason = fields.String(allow_none=True, load_default=None, validate=Length(max=REASON_MAX))
    timeZone = fields.String(load_default="UTC", validate=Length(1, TIME_ZONE_MAX), metadata={
        "description": "the signer's IANA time zone (Europe/Berlin), shown with the signature; unknown: 400"})


def signature_input(body: dict | None) -> SignatureInput | None:
    if body is None:
        return None
    return SignatureInput(body["password"], body.get("userName"), body.get("meaning"), body.get("endorsementId"),
                          body.get("reason"), body.get("timeZone") or "UTC")


def signature_field(description: str, *, absent_only: bool = False) -> fields.Nested:
    """A signed call's optional `signature` (null or absent: none); `absent_only` for a body whose
    fields are all "absent: kept", which documents no defaults and no nulls."""
    if absent_only:
        return fields.Nested(SignatureInputSchema, metadata={"description": description})
    return fields.Nested(SignatureInputSchema, allow_none=True, load_default=None,
                         metadata={"description": description})


class SignatureRowSchema(Schema):
    """A signature's manifestation (11.50): printed name, date and time with the time zone, meaning."""

    id = fields.Integer(required=True)
    recordType = fields.String(required=True, metadata={"enum": list(RECORD_TYPES)})
    recordId = fields.String(required=True)
    recordLabel = fields.String(required=True)
    signerName = fields.String(required=True, metadata={"description": "printed name: real name, else user name"})
    signerLogin = fields.String(required=True)
    meaning = fields.String(required=True, metadata={"description": "a meaning's code, or an endorsement's words"})
    meaningText = fields.String(required=True, metadata={"description": "the meaning in the caller's language"})
    reason = fields.String(required=True, allow_none=True)
    signedAt = fields.String(required=True, metadata={"description": "ISO 8601 in UTC"})
    timeZone = fields.String(required=True)
    localTime = fields.String(required=True, metadata={"description": "signedAt in timeZone, with its offset"})
    endorsementId = fields.Integer(required=True, allow_none=True)
    endorsementName = fields.String(required=True, allow_none=True)
    valid = fields.Boolean(required=True, metadata={
        "description": "the record is still as it was signed (false: it changed since)"})


def meaning_text(meaning: str) -> str:
    """A meaning in the caller's language; an endorsement's own words as they are."""
    translator, language = context.container().translator(), context.language.get()
    return meaning_words(meaning, lambda message_context, msgid: translator.pgettext(message_context, msgid, language))


def signature_row(m: Manifestation) -> dict:
    return {"id": m.id, "recordType": m.record_type, "recordId": m.record_id, "recordLabel": m.record_label,
            "signerName": m.signer_name, "signerLogin": m.signer_login, "meaning": m.meaning,
            "meaningText": meaning_text(m.meaning), "reason": m.reason,
            "signedAt": m.signed_at.astimezone(UTC).isoformat(), "timeZone": m.time_zone,
            "localTime": m.local_signed_at.isoformat(),
            "endorsementId": m.endorsement_id, "endorsementName": m.endorsement_name, "valid": m.valid}


def signature_rows(field_description: str) -> fields.List:
    return fields.List(fields.Nested(SignatureRowSchema), required=True, metadata={"description": field_description})


# The answers of a signing call beside its own (documented with each call that signs).
SIGNING_REFUSALS = {
    400: "sign with the user name as well (the session's first signature, or the first after the "
         "re-authentication window; code 2322), or an unknown timeZone (2328)",
    403: "wrong user name or password, with the attempts left (2323); an endorsement that does not cover this "
         "signer or record (2325); a record the caller may not sign (2329)",
    423: "signing is locked after failed attempts (2324) until the lock ends or an administrator unlocks it",
    428: "FDA mode is on for the record's owner and no signature was given (2321)",
}


def documents_signing(blp, statuses: tuple[int, ...] = (400, 423, 428)):
    """The signing refusals on a view (those its other decorators do not document already)."""
    def decorator(func):
        for status in statuses:
            func = blp.alt_response(status, schema=ErrorEnvelope, description=SIGNING_REFUSALS[status])(func)
        return func

    return decorator
