from __future__ import annotations

from marshmallow import fields, validate

from core.devices.expiry import DEFAULT_FLAG, ExpiredFlag, ReminderFlag
from entrypoints.api import context
from entrypoints.api.framework import MAX_PAGE_SIZE, Schema

OneOf, Range = validate.OneOf, validate.Range
MAX_ID = 2_147_483_647
EXPIRED_DIALOG_PAGE_SIZE = 5  # the dialog shows 5 rows a page


class LocalDate(fields.Date):
    """The calendar date of an instant in the caller's time zone (YYYY-MM-DD)."""

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        return super()._serialize(value.astimezone(context.time_zone.get()).date(), attr, obj, **kwargs)


class ExpiredDeviceQuery(Schema):
    accountId = fields.Integer(validate=Range(min=1, max=MAX_ID),
                               metadata={"description": "must be the caller's own account id (403 otherwise); "
                                                        "the caller when absent"})
    expiredFlag = fields.Integer(load_default=int(DEFAULT_FLAG), validate=OneOf([int(f) for f in ExpiredFlag]),
                                 metadata={"description": "1 expired, 2 expires within 30 days (default), "
                                                          "3 within 90 days, 4 every device with an expiry date"})
    start = fields.Integer(load_default=1, validate=Range(min=1, max=1_000_000),
                           metadata={"description": "1-based page number"})
    pageSize = fields.Integer(load_default=EXPIRED_DIALOG_PAGE_SIZE, validate=Range(min=1, max=MAX_PAGE_SIZE))


class ExpiredDeviceSchema(Schema):
    id = fields.Integer(required=True)
    typeId = fields.Integer(required=True)
    deviceTypeName = fields.String(required=True)
    deviceName = fields.String(required=True)
    deviceGuid = fields.String(required=True)
    serviceExpiredDate = LocalDate(required=True, metadata={"description": "in the caller's X-Time-Zone"})


class ExpiredDevicePageSchema(Schema):
    items = fields.List(fields.Nested(ExpiredDeviceSchema), required=True, data_key="list",
                        metadata={"description": "by device type name, then expiry date, then id"})
    total = fields.Integer(required=True, metadata={"description": "all matching devices, not only this page"})


class ExpiredInfoQuery(Schema):
    type = fields.Integer(required=True, validate=OneOf([1]), metadata={"description": "1: service expiry"})


class ExpiredInfoSchema(Schema):
    id = fields.Integer(required=True, metadata={"description": "the caller's account id"})
    pushMessages = fields.String(required=True, allow_none=True,
                                 metadata={"description": "the warning in the request's language, or null"})
    expiredFlag = fields.Integer(required=True, validate=OneOf([int(f) for f in ReminderFlag]),
                                 metadata={"description": "1 some device has expired, 2 none has but some expire "
                                                          "within 30 days, 0 nothing to warn about"})
