"""Schemas of the device detail's parameter, operation log and maintenance tabs."""

from __future__ import annotations

from marshmallow import fields, validate

from core.devices.device_commands import RECORD_INTERVAL_S, UPLOAD_INTERVAL_S, CommandState
from core.devices.maintenance import LIMITS
from core.devices.rules import PRECISION_MAX, TEMPERATURE_UNITS
from entrypoints.api.devices.schemas import DEVICE_ID, MAX_ID, TEMPERATURE_UNIT_DOC
from entrypoints.api.fda.signature_schemas import signature_field
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

Length, Range, OneOf = validate.Length, validate.Range, validate.OneOf


class ParamsSchema(Schema):
    displayPrecision = fields.Integer(required=True, validate=Range(min=0, max=PRECISION_MAX),
                                      metadata={"description": "decimals shown, 0 to 4"})
    temperatureUnit = fields.String(required=True, validate=OneOf(TEMPERATURE_UNITS),
                                    metadata={"description": TEMPERATURE_UNIT_DOC})
    uploadInterval = fields.Integer(required=True, validate=Range(*UPLOAD_INTERVAL_S),
                                    metadata={"description": "seconds between two uploads of the device"})
    recordInterval = fields.Integer(required=True, validate=Range(*RECORD_INTERVAL_S),
                                    metadata={"description": "seconds between two readings it records; not "
                                                             "longer than uploadInterval"})


class ParamsSaveSchema(ParamsSchema):
    deviceId = DEVICE_ID
    signature = signature_field("the saver's electronic signature: needed where FDA mode is on for the device (428 "
                                "without it), meaning authored unless given; it binds the device's parameters and "
                                "alarm limits as they then stand (record deviceParams)")


class ParamsStateSchema(Schema):
    desired = fields.Nested(ParamsSchema, required=True,
                            metadata={"description": "the latest parameters asked for (the device's defaults "
                                                     "when none was ever sent)"})
    acknowledged = fields.Nested(ParamsSchema, required=True, allow_none=True,
                                 metadata={"description": "the latest the device confirmed; null: none yet"})
    state = fields.String(required=True, allow_none=True, validate=OneOf([str(s) for s in CommandState]),
                          metadata={"description": "of the latest command: pending (sent, waiting for the "
                                                   "device, at most 60 s), acknowledged, failed (the device said "
                                                   "no: see error), unsent (the broker could not be reached), "
                                                   "notAnswered (no answer within 60 s); null: never sent"})
    commandId = fields.String(required=True, allow_none=True)
    sentAt = LocalDateTime(required=True, allow_none=True)
    answeredAt = LocalDateTime(required=True, allow_none=True)
    error = fields.String(required=True, allow_none=True, metadata={"description": "the device's own words"})
    access = fields.Integer(required=True, metadata={"description": "the caller's: 1 read, 2 write"})


class DevicePageRequest(PageQuery):
    deviceId = DEVICE_ID


class DeviceEventSchema(Schema):
    id = fields.Integer(required=True)
    kind = fields.String(required=True, metadata={
        "description": "data_cleared, deleted, params_changed, limits_changed, maintenance_added, "
                       "maintenance_changed, maintenance_deleted, credentials_rotated"})
    at = LocalDateTime(required=True, metadata={"description": "in the caller's time zone (X-Time-Zone)"})
    detail = fields.String(required=True, allow_none=True)
    actorName = fields.String(required=True, allow_none=True,
                              metadata={"description": "who did it; null when that account is gone"})


def _text(name: str, required: bool) -> fields.String:
    limit = LIMITS[name]
    if required:
        return fields.String(required=True, validate=Length(1, limit), metadata={"description": f"1 to {limit}"})
    return fields.String(allow_none=True, validate=Length(max=limit),
                         metadata={"description": f"up to {limit}; empty or null: none"})


class MaintenanceFieldsSchema(Schema):
    maintainDate = fields.Date(required=True,
                               metadata={"description": "YYYY-MM-DD, not in the future", "maxLength": 10})
    person = _text("person", True)
    approver = _text("approver", False)
    reason = _text("reason", True)
    content = _text("content", True)
    standard = _text("standard", False)
    result = _text("result", False)


class MaintenanceInsertSchema(MaintenanceFieldsSchema):
    deviceId = DEVICE_ID


class MaintenanceUpdateSchema(MaintenanceFieldsSchema):
    id = fields.Integer(required=True, validate=Range(min=1, max=MAX_ID))


class MaintenanceIdQuery(Schema):
    id = fields.Integer(required=True, validate=Range(min=1, max=MAX_ID))


class MaintenanceSchema(Schema):
    id = fields.Integer(required=True)
    deviceId = fields.Integer(required=True)
    maintainDate = fields.Date(required=True)
    person = fields.String(required=True)
    approver = fields.String(required=True, allow_none=True)
    reason = fields.String(required=True)
    content = fields.String(required=True)
    standard = fields.String(required=True, allow_none=True)
    result = fields.String(required=True, allow_none=True)
    createdAt = LocalDateTime(required=True)
    updatedAt = LocalDateTime(required=True)


class MaintenancePageSchema(Schema):
    start = fields.Integer(required=True)
    pageSize = fields.Integer(required=True)
    totalCount = fields.Integer(required=True)
    data = fields.List(fields.Nested(MaintenanceSchema), required=True)
    access = fields.Integer(required=True, metadata={"description": "the caller's to the device: 1 read, 2 write"})
