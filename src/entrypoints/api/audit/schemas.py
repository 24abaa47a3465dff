from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from core.audit.model import Outcome
from core.shared.messages import N_
from entrypoints.api.alarms.schemas import ZonedDateTime
from entrypoints.api.devices.schemas import DEVICE_ID
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

Length = validate.Length
TEXT = r"^[^\x00-\x1f\x7f]*$"  # no control characters


class OperationFilterSchema(Schema):
    since = ZonedDateTime(metadata={"description": "entries at or after this instant (ISO 8601; without an offset, "
                                                   "in X-Time-Zone)"})
    until = ZonedDateTime(metadata={"description": "entries before this instant"})
    userName = fields.String(validate=[Length(1, 50), validate.Regexp(TEXT)],
                             metadata={"description": "part of the acting user's name at the time, any case"})
    objectType = fields.String(validate=[Length(1, 50), validate.Regexp(r"^[A-Za-z_]+$")],
                               metadata={"description": "what was changed: device, alarmRule, project, account..."})
    objectId = fields.String(validate=[Length(1, 64), validate.Regexp(r"^[0-9A-Za-z/_-]+$")],
                             metadata={"description": "the changed object's id (with objectType)"})
    action = fields.String(validate=[Length(1, 100), validate.Regexp(r"^[A-Za-z0-9._-]+$")],
                           metadata={"description": "part of the call's name, e.g. Device.update"})
    outcome = fields.String(validate=validate.OneOf([o.value for o in Outcome]))

    @validates_schema
    def _range(self, data, **_kwargs):
        if data.get("since") and data.get("until") and data["since"] >= data["until"]:
            raise ValidationError(N_("The end must be after the start"), "until")


class OperationPageQuery(PageQuery, OperationFilterSchema):
    sortField = fields.String(validate=validate.OneOf(["at"]), metadata={"description": "newest first, always"})


class DeviceOperationPageQuery(PageQuery):
    deviceId = DEVICE_ID


class ChangeSchema(Schema):
    objectType = fields.String(required=True)
    objectId = fields.String(required=True, allow_none=True)
    objectLabel = fields.String(required=True, allow_none=True, metadata={"description": "its name when it changed"})
    kind = fields.String(required=True, metadata={"enum": ["insert", "update", "delete"]})
    fields_ = fields.Dict(data_key="fields", attribute="fields", keys=fields.String(),
                          values=fields.List(fields.Raw(allow_none=True)), required=True,
                          metadata={"description": "{field: [old, new]}; null where the object was added or "
                                                   "removed; secrets written \"***\""})
    deviceId = fields.Integer(required=True, allow_none=True)


class OperationSchema(Schema):
    id = fields.Integer(required=True)
    at = LocalDateTime(required=True)
    accountId = fields.Integer(required=True, allow_none=True, metadata={"description": "who acted (null: no login)"})
    userName = fields.String(required=True, allow_none=True, metadata={"description": "their name at the time"})
    clientAddress = fields.String(required=True, allow_none=True)
    action = fields.String(required=True, metadata={"description": "the call: its URL's resource and verb"})
    method = fields.String(required=True)
    outcome = fields.String(required=True, metadata={"enum": [o.value for o in Outcome]})
    status = fields.Integer(required=True, metadata={"description": "the HTTP status answered"})
    changes = fields.List(fields.Nested(ChangeSchema), required=True)


def _labels(what: str) -> fields.Dict:
    return fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                       metadata={"description": f"{what} -> its label in the request's language"})


class OperationLabelsSchema(Schema):
    action = _labels("a call's name (an entry's `action`, e.g. Device.update)")
    object = _labels("an object type (a change's `objectType`, e.g. alarmRule)")
    field = _labels("a column's name (a key of a change's `fields`, e.g. upper_limit)")
