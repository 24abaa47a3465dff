from __future__ import annotations

from marshmallow import fields, validate

from core.waybills.errors import (
    DeviceOnAnotherTrip,
    LimitsLockedWhileRunning,
    NoDeviceBound,
    StateChangeRefused,
    TemplateNameTaken,
    WaybillFinished,
)
from core.waybills.model import (
    ADDRESS_MAX,
    CONTACTS_MAX,
    EMAIL_MAX,
    EXPRESS_MAX,
    MAX_BIND,
    PHONE_MAX,
    SHORT_MAX,
    TEMPLATE_NAME_MAX,
    WaybillState,
)
from core.waybills.sharing import CUSTOM, VALIDITIES
from core.waybills.statistics import ACTIVATION_ENERGY_RANGE, DEFAULT_ACTIVATION_ENERGY
from core.waybills.use_cases import ROUTE_POINTS
from entrypoints.api.devices.schemas import DEVICE_ID, Instant, PositionSchema
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

Length, Range, OneOf = validate.Length, validate.Range, validate.OneOf
MAX_ID = 2**31 - 1
WAYBILL_ID = fields.Integer(required=True, validate=Range(1, MAX_ID))
CHANGE_REFUSALS = (WaybillFinished, LimitsLockedWhileRunning)
STATE_REFUSALS = (StateChangeRefused, NoDeviceBound, DeviceOnAnotherTrip)
TEMPLATE_REFUSALS = (TemplateNameTaken,)
STATES = [int(s) for s in WaybillState]
STATE_TEXT = "0 not started, 1 in progress, 2 finished"


def _text(limit: int, description: str) -> fields.String:
    # The core trims and checks the length (core.waybills.rules); this bound only stops a huge value early.
    return fields.String(allow_none=True, validate=Length(max=limit * 5),
                         metadata={"description": f"{description}: up to {limit} characters once trimmed; empty or "
                                                  "null is none"})


def _limit(description: str) -> fields.Float:
    return fields.Float(allow_none=True, allow_nan=False, metadata={
        "description": f"{description} in °C, between -200 and 200; while the waybill is in progress it takes "
                       "precedence over its devices' temperature alarm limits"})


class ContactSchema(Schema):
    name = fields.String(required=True, validate=Length(max=SHORT_MAX * 5))
    phone = fields.String(allow_none=True, validate=Length(max=PHONE_MAX * 5))
    email = fields.String(allow_none=True, validate=Length(max=EMAIL_MAX * 5))


class ParticularsSchema(Schema):
    orderNum = _text(SHORT_MAX, "the waybill number (what the public quick query finds it by)")
    goodsName = _text(SHORT_MAX, "the goods")
    expressNumber = _text(EXPRESS_MAX, "the carrier's tracking number")
    coolerCode = _text(SHORT_MAX, "the cooler box's code")
    upperLimit = _limit("the upper limit, above the lower one")
    lowerLimit = _limit("the lower limit")
    senderName = _text(SHORT_MAX, "the sender")
    senderPhone = _text(PHONE_MAX, "the sender's phone (digits, + - and spaces)")
    senderAddress = _text(ADDRESS_MAX, "the sender's address")
    receiverName = _text(SHORT_MAX, "the receiver")
    receiverPhone = _text(PHONE_MAX, "the receiver's phone")
    receiverAddress = _text(ADDRESS_MAX, "the receiver's address")
    alarmContacts = fields.List(fields.Nested(ContactSchema), load_default=list,
                                validate=Length(max=CONTACTS_MAX * 2), metadata={
        "description": f"at most {CONTACTS_MAX}, each a name of 1 to {SHORT_MAX} characters with a phone or an "
                       "e-mail: they hear of the trip's alarms"})
    startTime = Instant(allow_none=True, metadata={
        "description": "the planned start: the trip starts then by itself (not after stopTime)"})
    stopTime = Instant(allow_none=True, metadata={"description": "the planned stop"})
    originFenceId = fields.Integer(allow_none=True, validate=Range(1, MAX_ID), metadata={
        "description": "a geofence: the trip starts when a device of it leaves the fence"})
    destinationFenceId = fields.Integer(allow_none=True, validate=Range(1, MAX_ID), metadata={
        "description": "a geofence: the trip finishes when a device of it enters the fence"})


class WaybillInsertSchema(ParticularsSchema):
    organizationId = fields.Integer(allow_none=True, validate=Range(1, MAX_ID), metadata={
        "description": "one of the caller's organizations where it changes devices: the waybill is the "
                       "organization's; null or left out: the caller's own. Not changed later"})


class WaybillUpdateSchema(ParticularsSchema):
    id = WAYBILL_ID


class WaybillIdSchema(Schema):
    id = WAYBILL_ID


class ReportQuery(Schema):
    id = WAYBILL_ID
    deltaH = fields.Float(load_default=DEFAULT_ACTIVATION_ENERGY, validate=Range(*ACTIVATION_ENERGY_RANGE),
                          metadata={"description": "the activation energy ΔH of the mean kinetic temperature in "
                                                  "J/mol (default 83144)"})


class WaybillPageQuery(PageQuery):
    sortField = fields.String(validate=OneOf(["createdAt"]))
    keyword = fields.String(validate=Length(1, EXPRESS_MAX), metadata={
        "description": "part of the waybill number, goods name or tracking number, any case"})
    state = fields.Integer(validate=OneOf(STATES), metadata={"description": STATE_TEXT})
    deviceId = fields.Integer(validate=Range(1, MAX_ID), metadata={"description": "waybills with this device"})


class WaybillExportQuery(Schema):
    keyword = WaybillPageQuery._declared_fields["keyword"]
    state = WaybillPageQuery._declared_fields["state"]


class StateSchema(Schema):
    id = WAYBILL_ID
    state = fields.Integer(required=True, validate=OneOf([int(WaybillState.IN_PROGRESS), int(WaybillState.FINISHED)]),
                           metadata={"description": "1 start now, 2 finish now"})


class WaybillBindSchema(Schema):
    id = WAYBILL_ID
    deviceIds = fields.List(DEVICE_ID, required=True, validate=Length(1, MAX_BIND), metadata={
        "description": f"1 to {MAX_BIND} device ids, each the caller's to operate, of the waybill's owner's kind"})


class WaybillShareSchema(Schema):
    id = WAYBILL_ID
    validity = fields.String(required=True, validate=OneOf([*VALIDITIES, CUSTOM]), metadata={
        "description": "8h, 1d, 3d, 7d, or custom (then endTime)"})
    endTime = Instant(allow_none=True, metadata={"description": "the custom end, at most a year ahead"})


class ShareIdSchema(Schema):
    shareId = fields.Integer(required=True, validate=Range(1, MAX_ID))


class WaybillDeviceSchema(Schema):
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True)
    deviceGuid = fields.String(required=True)


class ParticularsOutSchema(Schema):
    orderNum = fields.String(allow_none=True)
    goodsName = fields.String(allow_none=True)
    expressNumber = fields.String(allow_none=True)
    coolerCode = fields.String(allow_none=True)
    upperLimit = fields.Float(allow_none=True)
    lowerLimit = fields.Float(allow_none=True)
    senderName = fields.String(allow_none=True)
    senderPhone = fields.String(allow_none=True)
    senderAddress = fields.String(allow_none=True)
    receiverName = fields.String(allow_none=True)
    receiverPhone = fields.String(allow_none=True)
    receiverAddress = fields.String(allow_none=True)
    alarmContacts = fields.List(fields.Nested(ContactSchema))
    startTime = LocalDateTime(allow_none=True)
    stopTime = LocalDateTime(allow_none=True)
    originFenceId = fields.Integer(allow_none=True)
    destinationFenceId = fields.Integer(allow_none=True)


class WaybillSchema(ParticularsOutSchema):
    id = fields.Integer(required=True)
    state = fields.Integer(required=True, metadata={"description": STATE_TEXT})
    startedAt = LocalDateTime(allow_none=True, metadata={"description": "when the trip started"})
    finishedAt = LocalDateTime(allow_none=True)
    createdAt = LocalDateTime(required=True)
    organizationId = fields.Integer(allow_none=True)
    changeable = fields.Boolean(required=True, metadata={
        "description": "the caller may change it (false: a read-only member of its organization, a sharee)"})
    devices = fields.List(fields.Nested(WaybillDeviceSchema), required=True)


class WaybillDetailSchema(WaybillSchema):
    corrected = fields.Boolean(required=True, metadata={
        "description": "the trip's start or end lay outside its devices' data: spanStart and spanEnd are the "
                       "first and last readings inside the trip (spec: auto-corrected to the device time)"})
    spanStart = LocalDateTime(allow_none=True)
    spanEnd = LocalDateTime(allow_none=True)
    alarmCount = fields.Integer(required=True, metadata={"description": "alarms its devices raised on the trip"})


class AlarmCountSchema(Schema):
    alarmCount = fields.Integer(required=True)


class ExcursionSchema(Schema):
    above = fields.Boolean(required=True)
    start = LocalDateTime(required=True)
    end = LocalDateTime(required=True)
    seconds = fields.Integer(required=True)
    extreme = fields.Float(required=True)


class ChartPointSchema(Schema):
    ts = LocalDateTime(required=True)
    t = fields.Float(required=True)


class DeviceFiguresSchema(Schema):
    deviceName = fields.String(required=True)
    count = fields.Integer(required=True)
    minimum = fields.Float(allow_none=True)
    maximum = fields.Float(allow_none=True)
    mean = fields.Float(allow_none=True)
    mkt = fields.Float(allow_none=True, metadata={"description": "mean kinetic temperature in °C"})
    outOfRangeSeconds = fields.Integer(required=True)
    excursions = fields.List(fields.Nested(ExcursionSchema), required=True)
    points = fields.List(fields.Nested(ChartPointSchema), required=True, metadata={
        "description": "the chart: at most 2000 readings, the peaks kept"})
    route = fields.List(fields.Nested(PositionSchema), required=True, metadata={
        "description": f"where the device went over the trip's span, in time order: the positions its readings "
                       f"carried (telemetry lat, lon, acc), at most {ROUTE_POINTS}: evenly spaced ones and the last "
                       "when more were stored; empty when none carried a position"})


class TripSchema(Schema):
    """What a receiver sees: no party's phone or address, no device GUID, nothing of other waybills."""

    orderNum = fields.String(allow_none=True)
    goodsName = fields.String(allow_none=True)
    state = fields.Integer(required=True, metadata={"description": STATE_TEXT})
    upperLimit = fields.Float(allow_none=True)
    lowerLimit = fields.Float(allow_none=True)
    startedAt = LocalDateTime(allow_none=True)
    finishedAt = LocalDateTime(allow_none=True)
    corrected = fields.Boolean(required=True)
    spanStart = LocalDateTime(allow_none=True)
    spanEnd = LocalDateTime(allow_none=True)
    alarmCount = fields.Integer(required=True)
    deltaH = fields.Float(required=True)
    verificationCode = fields.String(required=True, metadata={
        "description": "printed on the PDF; GET /device/QuickSearch/verify checks it"})
    devices = fields.List(fields.Nested(DeviceFiguresSchema), required=True)


class OwnerTripSchema(TripSchema):
    waybill = fields.Nested(WaybillDetailSchema, required=True)


class QuickQuery(Schema):
    number = fields.String(validate=Length(1, SHORT_MAX * 2), metadata={"description": "a waybill number"})
    guid = fields.String(validate=Length(1, 32), metadata={"description": "a device GUID: its current or last trip"})


class TokenQuery(Schema):
    token = fields.String(required=True, validate=Length(1, 100))


class CodeQuery(Schema):
    code = fields.String(required=True, validate=Length(1, 40))


class QuickAnswerSchema(Schema):
    waybills = fields.List(fields.Nested(TripSchema), required=True, metadata={
        "description": "the trips found, at most 5; empty for a number nobody has"})


class VerifySchema(Schema):
    valid = fields.Boolean(required=True)
    trip = fields.Nested(TripSchema, allow_none=True)


class ShareOpenSchema(Schema):
    at = LocalDateTime(required=True)
    address = fields.String(allow_none=True)


class ShareLinkSchema(Schema):
    shareId = fields.Integer(required=True)
    createdAt = LocalDateTime(required=True)
    expiresAt = LocalDateTime(required=True)
    revokedAt = LocalDateTime(allow_none=True)
    active = fields.Boolean(required=True)
    opens = fields.List(fields.Nested(ShareOpenSchema), required=True, metadata={
        "description": "each open of the link, newest first, with the client address"})


class NewShareLinkSchema(ShareLinkSchema):
    token = fields.String(required=True, metadata={
        "description": "shown once: the server keeps only its digest. The receiver opens "
                       "GET /device/QuickSearch/share?token=..."})


class WaybillTemplateInputSchema(ParticularsSchema):
    templateName = fields.String(required=True, validate=Length(1, TEMPLATE_NAME_MAX * 5), metadata={
        "description": f"1 to {TEMPLATE_NAME_MAX} characters, unique among the caller's templates"})


class WaybillTemplateUpdateSchema(WaybillTemplateInputSchema):
    id = WAYBILL_ID


class WaybillTemplateSchema(ParticularsOutSchema):
    id = fields.Integer(required=True)
    templateName = fields.String(required=True)
    createdAt = LocalDateTime(required=True)


class WaybillTemplatePageQuery(PageQuery):
    pass
