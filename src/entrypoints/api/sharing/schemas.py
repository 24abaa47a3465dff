from __future__ import annotations

from marshmallow import fields, validate

from core.devices.grants import BY_CODE
from core.sharing.model import ACCOUNT_MAX, MAX_DEVICES, TEMPLATE_NAME_MAX
from entrypoints.api.devices.schemas import DEVICE_ID, ElementPermission, Instant
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

Length, Range, OneOf = validate.Length, validate.Range, validate.OneOf
MAX_ID = 2**31 - 1
ID = fields.Integer(required=True, validate=Range(1, MAX_ID))
DEVICE_IDS = fields.List(DEVICE_ID, required=True, validate=Length(1, MAX_DEVICES), metadata={
    "description": f"1 to {MAX_DEVICES} device ids (a repeated id counts once); each must be the caller's own "
                   "(owner's rights), all or none"})
ACCOUNT = fields.String(required=True, validate=Length(max=ACCOUNT_MAX * 5), metadata={
    "description": f"the other account's user name (any case), phone or e-mail; 2 to {ACCOUNT_MAX} characters "
                   "once trimmed"})
END_TIME = Instant(load_default=None, allow_none=True, metadata={
    "description": "when the share ends (ISO 8601 with its offset), in the future; null: until revoked"})


PERMISSIONS = fields.List(fields.Nested(ElementPermission), required=True, validate=Length(max=len(BY_CODE) * 2),
                          metadata={"description": "an entry per element granted; an element left out is neither "
                                                   "visible nor operable"})


class TemplateInputSchema(Schema):
    name = fields.String(required=True, validate=Length(max=TEMPLATE_NAME_MAX * 5), metadata={
        "description": f"1 to {TEMPLATE_NAME_MAX} characters once trimmed, no emoji; unique among the caller's and "
                       "the built-in templates whatever the case"})
    permissions = PERMISSIONS


class TemplateUpdateSchema(TemplateInputSchema):
    id = ID


class TemplateIdQuery(Schema):
    id = ID


class TemplateSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True, metadata={"description": "a built-in one's in the reader's language"})
    builtIn = fields.Boolean(required=True)
    permissions = fields.List(fields.Nested(ElementPermission), required=True, metadata={
        "description": "every element, in the detail's tab order"})
    shares = fields.Integer(required=True, metadata={"description": "the caller's active shares under it"})


class TemplateListSchema(Schema):
    list = fields.List(fields.Nested(TemplateSchema), required=True)


class EmptySchema(Schema):
    pass


class ShareSchema(Schema):
    deviceIds = DEVICE_IDS
    account = ACCOUNT
    templateId = ID
    endTime = END_TIME


class AccountSchema(Schema):
    id = fields.Integer(required=True)
    userName = fields.String(required=True)


class SharedSchema(Schema):
    shared = fields.Integer(required=True)
    account = fields.Nested(AccountSchema, required=True)


class SharePageQuery(PageQuery):
    direction = fields.String(required=True, validate=OneOf(["mine", "withMe"]), metadata={
        "description": "mine: what the caller shared (unrevoked); withMe: what is shared with the caller now"})
    keyword = fields.String(validate=Length(max=100), metadata={
        "description": "part of the device's name or serial, or of the other person's user name"})


class ShareRowSchema(Schema):
    id = fields.Integer(required=True)
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True)
    deviceGuid = fields.String(required=True)
    ownerName = fields.String(required=True)
    shareeName = fields.String(required=True)
    templateId = fields.Integer(required=True)
    templateName = fields.String(required=True)
    createdAt = LocalDateTime(required=True)
    endTime = LocalDateTime(required=True, allow_none=True)
    active = fields.Boolean(required=True, metadata={"description": "false once past its end time"})


class ShareUpdateSchema(Schema):
    id = ID
    templateId = ID
    endTime = END_TIME


class RevokeSchema(Schema):
    ids = fields.List(fields.Integer(validate=Range(1, MAX_ID)), required=True, validate=Length(1, MAX_DEVICES))


class RevokedSchema(Schema):
    revoked = fields.Integer(required=True)


class TransferPreviewQuery(Schema):
    deviceIds = DEVICE_IDS


class TransferPreviewSchema(Schema):
    devices = fields.Integer(required=True)
    shares = fields.Integer(required=True, metadata={"description": "active shares the transfer drops"})
    projects = fields.Integer(required=True, metadata={"description": "devices that leave a project"})
    organizations = fields.Integer(required=True, metadata={"description": "devices that leave an organization"})


class TransferSchema(Schema):
    deviceIds = DEVICE_IDS
    account = ACCOUNT


class TransferredSchema(Schema):
    transferred = fields.Integer(required=True)
    sharesDropped = fields.Integer(required=True)
    account = fields.Nested(AccountSchema, required=True)
