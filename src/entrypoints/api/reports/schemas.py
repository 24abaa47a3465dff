from __future__ import annotations

from marshmallow import fields, validate

from core.exports.model import ExportFormat
from core.reports.model import EMAIL_MAX, MAX_DEVICES, MAX_RECIPIENTS, NAME_MAX, Frequency, Outcome
from entrypoints.api.devices.schemas import DEVICE_ID
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema
from entrypoints.api.validators import email_rule

OneOf, Length, Range = validate.OneOf, validate.Length, validate.Range
MAX_ID = 2**31 - 1
SCHEDULE_ID = fields.Integer(required=True, validate=Range(1, MAX_ID))


class ScheduleInputSchema(Schema):
    name = fields.String(required=True, validate=Length(1, NAME_MAX))
    frequency = fields.String(required=True, validate=OneOf([f.value for f in Frequency]))
    weekday = fields.Integer(load_default=None, allow_none=True, validate=Range(0, 6),
                             metadata={"description": "weekly: the day it is sent, 0 Monday ... 6 Sunday"})
    monthDay = fields.Integer(load_default=None, allow_none=True, validate=Range(1, 28),
                              metadata={"description": "monthly: the day of the month it is sent"})
    deviceIds = fields.List(DEVICE_ID, required=True, validate=Length(1, MAX_DEVICES),
                            metadata={"description": "devices the caller may change (a read-only member: 403)"})
    format = fields.String(required=True, validate=OneOf([f.value for f in ExportFormat]))
    recipients = fields.List(fields.String(validate=[Length(3, EMAIL_MAX), email_rule]), required=True,
                             validate=Length(1, MAX_RECIPIENTS),
                             metadata={"description": "e-mail addresses, each once whatever its case"})
    enabled = fields.Boolean(load_default=True)


class ScheduleUpdateSchema(ScheduleInputSchema):
    id = SCHEDULE_ID


class ScheduleIdQuery(Schema):
    id = SCHEDULE_ID


class SchedulePageQuery(PageQuery):
    sortField = fields.String(validate=OneOf(["id"]), metadata={"description": "newest first"})


class RunPageQuery(PageQuery):
    scheduleId = SCHEDULE_ID
    sortField = fields.String(validate=OneOf(["periodStart"]), metadata={"description": "latest first"})


class ScheduleSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    frequency = fields.String(required=True, validate=OneOf([f.value for f in Frequency]))
    weekday = fields.Integer(required=True, allow_none=True)
    monthDay = fields.Integer(required=True, allow_none=True)
    deviceIds = fields.List(fields.Integer(), required=True)
    devices = fields.List(fields.Nested(lambda: ScheduledDeviceSchema()), required=True, metadata={
        "description": "deviceIds with their names: those the caller still sees (a device deleted or no longer "
                       "shared since is left out)"})
    format = fields.String(required=True, validate=OneOf([f.value for f in ExportFormat]))
    recipients = fields.List(fields.String(), required=True)
    enabled = fields.Boolean(required=True)
    createdAt = LocalDateTime(required=True)


class ScheduledDeviceSchema(Schema):
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True)


class RunFileSchema(Schema):
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True)
    exportId = fields.String(required=True, allow_none=True,
                             metadata={"description": "the file in the download centre, kept a week"})
    fileName = fields.String(required=True, allow_none=True)
    size = fields.Integer(required=True, allow_none=True)
    error = fields.String(required=True, allow_none=True, metadata={"description": "in the request's language"})


class RunSchema(Schema):
    id = fields.Integer(required=True)
    periodStart = LocalDateTime(required=True)
    periodEnd = LocalDateTime(required=True)
    startedAt = LocalDateTime(required=True)
    finishedAt = LocalDateTime(required=True, allow_none=True)
    outcome = fields.String(required=True, validate=OneOf([o.value for o in Outcome]),
                            metadata={"description": "running (being written or sent; retried), ok, partial "
                                                     "(some device's file missing), failed"})
    files = fields.List(fields.Nested(RunFileSchema), required=True)
    sentTo = fields.List(fields.String(), required=True)
    attempts = fields.Integer(required=True)
    error = fields.String(required=True, allow_none=True, metadata={"description": "the mail server's last "
                                                                                   "refusal"})
