"""Shapes of offline purchases and their review (issue 19)."""

from __future__ import annotations

from flask_smorest.fields import Upload
from marshmallow import fields, validate

from core.devices.sheets import MAX_SHEET_BYTES, MAX_SHEET_ROWS
from core.ordering.offline_model import MAX_OFFLINE_DEVICES, OFFLINE_PAY_TYPES, REMARK_MAX, OfflineStatus
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema
from entrypoints.api.payment.schemas import ID

Length = validate.Length
TEXT = r"^[^\x00-\x1f\x7f]*$"
COUNT = {"load_default": 0, "validate": validate.Range(min=0, max=1_000_000)}


class ContentFields(Schema):
    """What each device gets (also as the form fields of an upload: numbers as text)."""

    customer = fields.String(required=True, validate=[Length(1, 200), validate.Regexp(TEXT)],
                             metadata={"description": "the customer's user name, phone or e-mail"})
    levelId = fields.Integer(allow_none=True, validate=validate.Range(min=1, max=2_147_483_647))
    levelYearId = fields.Integer(allow_none=True, validate=validate.Range(min=1, max=2_147_483_647),
                                 metadata={"description": "the service time: one of the level's year options"})
    smsCount = fields.Integer(**COUNT)  # type: ignore[arg-type]
    voiceCount = fields.Integer(**COUNT)  # type: ignore[arg-type]


class DeviceListBody(ContentFields):
    guids = fields.List(fields.String(validate=Length(1, 32)), required=True,
                        validate=Length(1, MAX_OFFLINE_DEVICES))


class PurchaseBody(DeviceListBody):
    amount = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=10**12),
                            metadata={"description": "cents of the edition's currency paid by contract or transfer"})
    payType = fields.Integer(strict=True, required=True, validate=validate.OneOf([int(p) for p in OFFLINE_PAY_TYPES]),
                             metadata={"description": "60 offline (contract), 61 bank transfer"})
    remark = fields.String(load_default="", validate=[Length(0, REMARK_MAX), validate.Regexp(TEXT)])


class SheetForm(ContentFields):
    pass


class SheetFile(Schema):
    file = Upload(required=True, metadata={
        "maxLength": MAX_SHEET_BYTES,
        "description": f"an XLSX of at most {MAX_SHEET_BYTES // 1024} KB whose first sheet lists one device GUID a "
                       f"row in column A (row 1 may be the header); at most {MAX_SHEET_ROWS} rows"})


class RowCheckSchema(Schema):
    row = fields.Integer(required=True)
    guid = fields.String(required=True)
    deviceId = fields.Integer(required=True, allow_none=True)
    deviceName = fields.String(required=True, allow_none=True)
    problem = fields.Integer(required=True, allow_none=True, metadata={
        "description": "null: can be recharged; 1 unknown, 2 not the customer's, 3 level not offered for its type, "
                       "4 listed twice, 5 not a GUID"})
    message = fields.String(required=True, allow_none=True, metadata={"description": "the problem, in words"})


class DeviceCheckSchema(Schema):
    customerId = fields.Integer(required=True)
    customerName = fields.String(required=True)
    rows = fields.List(fields.Nested(RowCheckSchema), required=True)
    valid = fields.Integer(required=True, metadata={"description": "rows that can be recharged"})


class OfflineDeviceSchema(Schema):
    guid = fields.String(required=True)
    deviceId = fields.Integer(required=True, allow_none=True)
    deviceName = fields.String(required=True, allow_none=True)
    state = fields.Integer(required=True, metadata={"description": "0 not recharged, 1 recharged, 2 recharge failed"})
    reason = fields.String(required=True, allow_none=True, metadata={"description": "why it failed, in words"})
    expireTimeBefore = LocalDateTime(required=True, allow_none=True)
    expireTimeAfter = LocalDateTime(required=True, allow_none=True)


class PurchaseSchema(Schema):
    offlineId = fields.Integer(required=True)
    customerId = fields.Integer(required=True)
    customerName = fields.String(required=True)
    levelId = fields.Integer(required=True, allow_none=True)
    levelName = fields.String(required=True, allow_none=True)
    levelYearId = fields.Integer(required=True, allow_none=True)
    timeLength = fields.Integer(required=True, metadata={"description": "months of service per device"})
    smsCount = fields.Integer(required=True)
    voiceCount = fields.Integer(required=True)
    amount = fields.Integer(required=True, metadata={"description": "cents"})
    currency = fields.String(required=True)
    payType = fields.Integer(required=True)
    remark = fields.String(required=True)
    status = fields.Integer(required=True, metadata={"description": "1 awaiting review, 2 approved, 3 rejected"})
    createdBy = fields.String(required=True, allow_none=True)
    gmtCreate = LocalDateTime(required=True)
    reviewedBy = fields.String(required=True, allow_none=True)
    reviewedAt = LocalDateTime(required=True, allow_none=True)
    reviewNote = fields.String(required=True, allow_none=True)
    orderId = fields.Integer(required=True, allow_none=True, metadata={"description": "the paid order of its approval"})
    deviceCount = fields.Integer(required=True)
    rechargedCount = fields.Integer(required=True)
    failedCount = fields.Integer(required=True)


class PurchaseDetailSchema(PurchaseSchema):
    devices = fields.List(fields.Nested(OfflineDeviceSchema), required=True)


class PurchaseFilter(Schema):
    status = fields.Integer(validate=validate.OneOf([int(s) for s in OfflineStatus]))
    customer = fields.String(validate=[Length(1, 200), validate.Regexp(TEXT)])
    guid = fields.String(validate=[Length(1, 32), validate.Regexp(r"^[0-9A-Za-z]+$")])


class PurchasePageQuery(PageQuery, PurchaseFilter):
    pass


class PurchaseIdQuery(Schema):
    offlineId = fields.Integer(required=True, **ID)


class ReviewBody(Schema):
    offlineId = fields.Integer(required=True, **ID)
    approve = fields.Boolean(required=True, truthy={True}, falsy={False})
    note = fields.String(validate=[Length(0, REMARK_MAX), validate.Regexp(TEXT)])
