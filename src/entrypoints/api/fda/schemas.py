"""The FDA page's schemas (switches, signing, signatures, endorsements)."""

from __future__ import annotations

from marshmallow import fields, validate

from core.fda.endorsements import DESCRIPTION_MAX, MAX_ACCOUNTS, MAX_ROLES, MEANING_MAX, NAME_MAX, EndorsementInput
from core.fda.model import RECORD_ID_MAX, RECORD_TYPES, USER_NAME_MAX, Endorsement
from entrypoints.api.alarms.schemas import ZonedDateTime
from entrypoints.api.fda.signature_schemas import MAX_ID, MEANINGS, SignatureInputSchema, meaning_text, signature_field
from entrypoints.api.framework import PageQuery, Schema

Length, OneOf, Range = validate.Length, validate.OneOf, validate.Range


# --- the FDA page ------------------------------------------------------------------------------


class FdaSubjectQuery(Schema):
    organizationId = fields.Integer(allow_none=True, load_default=None, validate=Range(1, MAX_ID), metadata={
        "description": "an organization the caller belongs to; absent: the caller's own records"})


class SwitchRowSchema(Schema):
    accountId = fields.Integer(required=True, allow_none=True)
    organizationId = fields.Integer(required=True, allow_none=True)
    name = fields.String(required=True)
    enabled = fields.Boolean(required=True)
    changeable = fields.Boolean(required=True, metadata={
        "description": "the caller may switch it: its own, or an organization it is creator or administrator of"})


class FdaStatusSchema(Schema):
    subjects = fields.List(fields.Nested(SwitchRowSchema), required=True)


class EnableSchema(FdaSubjectQuery):
    pass


class DisableSchema(FdaSubjectQuery):
    signature = signature_field("needed while FDA mode is on: meaning approved (the default), with a reason")


class SwitchedSchema(Schema):
    enabled = fields.Boolean(required=True)
    changed = fields.Boolean(required=True, metadata={
        "description": "false: it already was so (the answer's msg says nothing was needed)"})


class SigningStateSchema(Schema):
    needsUserName = fields.Boolean(required=True)
    locked = fields.Boolean(required=True)
    lockedUntil = fields.String(required=True, allow_none=True, metadata={"description": "ISO 8601 in UTC"})
    reauthMinutes = fields.Integer(required=True)
    userName = fields.String(required=True, metadata={"description": "the caller's user name, to prefill and print"})


class SignSchema(Schema):
    recordType = fields.String(required=True, validate=OneOf(RECORD_TYPES))
    recordId = fields.String(required=True, validate=Length(1, RECORD_ID_MAX), metadata={
        "description": "the record's id (an FDA switch's: a:<accountId> or o:<organizationId>)"})
    signature = fields.Nested(SignatureInputSchema, required=True)


class RecordQuery(Schema):
    recordType = fields.String(required=True, validate=OneOf(RECORD_TYPES))
    recordId = fields.String(required=True, validate=Length(1, RECORD_ID_MAX))


class SignaturePageQuery(PageQuery):
    sortField = fields.String(validate=OneOf(["signedAt"]))
    organizationId = fields.Integer(allow_none=True, load_default=None, validate=Range(1, MAX_ID))
    signerName = fields.String(allow_none=True, load_default=None, validate=Length(max=USER_NAME_MAX), metadata={
        "description": "part of the signer's user name or printed name, any case"})
    meaning = fields.String(allow_none=True, load_default=None, validate=Length(max=MEANING_MAX))
    recordType = fields.String(allow_none=True, load_default=None, validate=OneOf(RECORD_TYPES))
    startTime = ZonedDateTime(allow_none=True, load_default=None, metadata={"description": "signed at or after"})
    endTime = ZonedDateTime(allow_none=True, load_default=None, metadata={"description": "signed before"})


class UnlockSchema(Schema):
    accountId = fields.Integer(required=True, validate=Range(1, MAX_ID))


class UnlockedSchema(Schema):
    locked = fields.Boolean(required=True)
    changed = fields.Boolean(required=True, metadata={"description": "false: signing was not locked"})


# --- endorsements ------------------------------------------------------------------------------


class EndorsementFields(Schema):
    name = fields.String(required=True, validate=Length(1, NAME_MAX))
    description = fields.String(allow_none=True, load_default=None, validate=Length(max=DESCRIPTION_MAX))
    meaning = fields.String(required=True, validate=Length(1, MEANING_MAX), metadata={
        "description": f"one of {', '.join(MEANINGS)}, or the endorsement's own words"})
    recordTypes = fields.List(fields.String(validate=OneOf(RECORD_TYPES)), required=True,
                              validate=Length(1, len(RECORD_TYPES)))
    roleIds = fields.List(fields.Integer(validate=Range(1, MAX_ID)), load_default=list, validate=Length(max=MAX_ROLES),
                          metadata={"description": "roles of the organization whose holders may sign"})
    accountIds = fields.List(fields.Integer(validate=Range(1, MAX_ID)), load_default=list,
                             validate=Length(max=MAX_ACCOUNTS), metadata={"description": "members who may sign"})
    distinctSigner = fields.Boolean(load_default=False, metadata={
        "description": "the signer must differ from every earlier valid signer of the record"})


class EndorsementInsertSchema(EndorsementFields):
    organizationId = fields.Integer(allow_none=True, load_default=None, validate=Range(1, MAX_ID))


class EndorsementUpdateSchema(EndorsementFields):
    id = fields.Integer(required=True, validate=Range(1, MAX_ID))


class EndorsementIdSchema(Schema):
    id = fields.Integer(required=True, validate=Range(1, MAX_ID))


class EndorsementPageQuery(PageQuery):
    sortField = fields.String(validate=OneOf(["name"]))
    organizationId = fields.Integer(allow_none=True, load_default=None, validate=Range(1, MAX_ID))


class EndorsementSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    description = fields.String(required=True, allow_none=True)
    meaning = fields.String(required=True)
    meaningText = fields.String(required=True, metadata={"description": "the meaning in the caller's language"})
    recordTypes = fields.List(fields.String(), required=True)
    roleIds = fields.List(fields.Integer(), required=True)
    accountIds = fields.List(fields.Integer(), required=True)
    distinctSigner = fields.Boolean(required=True)
    organizationId = fields.Integer(required=True, allow_none=True)


def endorsement_input(body: dict) -> EndorsementInput:
    return EndorsementInput(body["name"], body.get("description"), body["meaning"], tuple(body["recordTypes"]),
                            tuple(body["roleIds"]), tuple(body["accountIds"]), body["distinctSigner"])


def endorsement_row(e: Endorsement) -> dict:
    return {"id": e.id, "name": e.name, "description": e.description, "meaning": e.meaning,
            "meaningText": meaning_text(e.meaning), "recordTypes": list(e.record_types), "roleIds": list(e.role_ids),
            "accountIds": list(e.account_ids), "distinctSigner": e.distinct_signer,
            "organizationId": e.subject.organization_id}
