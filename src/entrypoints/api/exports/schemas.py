from __future__ import annotations

from marshmallow import fields, validate

from core.exports.model import ID_LENGTH, ExportFormat, ExportKind, ExportStatus
from core.exports.verification import CODE_LENGTH
from entrypoints.api.devices.schemas import DEVICE_ID, DeviceFilterQuery, Instant
from entrypoints.api.fda.signature_schemas import signature_field
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

OneOf, Length = validate.OneOf, validate.Length
EXPORT_ID = fields.String(required=True, validate=Length(1, ID_LENGTH + 10),
                          metadata={"description": "the export's id, as create answered it"})


SIGNED_EXPORT = ("the electronic signature of who asks for the export (meaning authored unless the signer gives "
                 "another): needed where FDA mode is on for the device's organization, else its owner (428, code 2321 "
                 "without it); a refused signature records no export. Its files then state the signature and whether "
                 "the audit trail verified. One given while FDA mode is off is checked and signs as well")


class RetryExportSchema(Schema):
    """A retry's optional body: a failed readings export is asked for again as a new export, which
    FDA mode signs as DeviceDataExport/create's."""

    signature = signature_field(SIGNED_EXPORT)


class ReadingsExportSchema(Schema):
    deviceId = DEVICE_ID
    startTime = Instant(required=True, metadata={"description": "ISO 8601 with its UTC offset"})
    endTime = Instant(required=True, metadata={
        "description": "ISO 8601 with its UTC offset; after startTime, at most 366 days later"})
    format = fields.String(required=True, validate=OneOf([f.value for f in ExportFormat]),
                           metadata={"description": "csv, xlsx, or pdf (a report with summary, chart and "
                                                    "verification code)"})
    signature = signature_field(SIGNED_EXPORT)


class DeviceListExportSchema(DeviceFilterQuery):
    """The device list's filters (Device/page's), without paging: every matching device."""


class ExportIdQuery(Schema):
    id = EXPORT_ID


class ExportPageQuery(PageQuery):
    sortField = fields.String(validate=OneOf(["createdAt"]), metadata={"description": "newest first"})


class ExportSchema(Schema):
    id = fields.String(required=True)
    kind = fields.String(required=True, validate=OneOf([k.value for k in ExportKind]))
    format = fields.String(required=True, validate=OneOf([f.value for f in ExportFormat]))
    title = fields.String(required=True, metadata={"description": "the device's name, or empty for the list"})
    status = fields.String(required=True, validate=OneOf([s.value for s in ExportStatus]),
                           metadata={"description": "pending, running, ready (download it), failed (see error)"})
    progress = fields.Integer(required=True, metadata={"description": "percent written"})
    size = fields.Integer(required=True, allow_none=True, metadata={"description": "bytes, once ready"})
    fileName = fields.String(required=True, allow_none=True)
    deviceId = fields.Integer(required=True, allow_none=True)
    startTime = LocalDateTime(required=True, allow_none=True)
    endTime = LocalDateTime(required=True, allow_none=True)
    createdAt = LocalDateTime(required=True)
    finishedAt = LocalDateTime(required=True, allow_none=True)
    expiresAt = LocalDateTime(required=True, metadata={"description": "when the file and this record are deleted"})
    error = fields.String(required=True, allow_none=True, metadata={"description": "why it failed, in the "
                                                                                   "request's language"})


class ReadyCountSchema(Schema):
    count = fields.Integer(required=True, metadata={"description": "exports ready to download"})


class VerifyQuery(Schema):
    code = fields.String(required=True, validate=Length(1, CODE_LENGTH * 2),
                         metadata={"description": "as printed on the report; case, spaces and dashes do not matter"})


class VerificationSchema(Schema):
    genuine = fields.Boolean(required=True, metadata={"description": "the console issued a report with this code"})
    accountName = fields.String(allow_none=True)
    deviceGuid = fields.String(allow_none=True)
    deviceName = fields.String(allow_none=True)
    startTime = LocalDateTime(allow_none=True)
    endTime = LocalDateTime(allow_none=True)
    generatedAt = LocalDateTime(allow_none=True)
    readings = fields.Integer(allow_none=True)
    sha256 = fields.String(allow_none=True, metadata={"description": "of the PDF file as issued"})
