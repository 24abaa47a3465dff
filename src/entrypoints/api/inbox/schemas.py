from __future__ import annotations

from marshmallow import fields, validate

from core.inbox.model import Decision, MessageKind
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

Length, OneOf, Range = validate.Length, validate.OneOf, validate.Range
MAX_ID = 2**31 - 1
KINDS = [k.value for k in MessageKind]
TARGET_DOWNLOADS = "downloads"
KIND_DESCRIPTION = "expiry (service expiry reminders), payment (payment results), export (exports ready), " \
                   "invitation (invitations, which ask for an answer), geofence (a device entered or left a fence)"


class MessagePageQuery(PageQuery):
    kind = fields.String(validate=OneOf(KINDS), metadata={"description": KIND_DESCRIPTION})
    unread = fields.Boolean(load_default=False, metadata={"description": "only the unread ones"})


class SystemMessageSchema(Schema):
    messageId = fields.Integer(required=True)
    kind = fields.String(required=True, metadata={"description": KIND_DESCRIPTION})
    title = fields.String(required=True, metadata={"description": "in the request's language"})
    content = fields.String(required=True, metadata={"description": "in the request's language"})
    target = fields.String(required=True, allow_none=True, validate=OneOf([TARGET_DOWNLOADS]),
                           metadata={"description": "the page that acts on it, for a link: downloads (the "
                                                    "download centre, for an export); null for none"})
    createdAt = LocalDateTime(required=True)
    read = fields.Boolean(required=True)
    needsDecision = fields.Boolean(required=True, metadata={"description": "it asks to approve or reject"})
    decision = fields.String(required=True, allow_none=True, metadata={"description": "approved, rejected or null"})
    decidedAt = LocalDateTime(required=True, allow_none=True)


class ReadSchema(Schema):
    messageIds = fields.List(fields.Integer(validate=Range(min=1, max=MAX_ID)), validate=Length(1, 200),
                             metadata={"description": "the messages to mark read; all of the caller's when absent"})


class ReadResultSchema(Schema):
    marked = fields.Integer(required=True, metadata={"description": "messages newly marked read"})


class AnswerSchema(Schema):
    messageId = fields.Integer(required=True, validate=Range(min=1, max=MAX_ID))
    decision = fields.String(required=True, validate=OneOf([d.value for d in Decision]))


class ChannelChoiceSchema(Schema):
    kind = fields.String(required=True, validate=OneOf(KINDS), metadata={"description": KIND_DESCRIPTION})
    email = fields.Boolean(required=True, metadata={"description": "also by e-mail"})
    phone = fields.Boolean(required=True, metadata={"description": "also by SMS"})


class ChannelsSchema(Schema):
    channels = fields.List(fields.Nested(ChannelChoiceSchema), required=True,
                           validate=Length(1, len(KINDS)))


