from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import UTC, datetime

from flask_smorest.fields import Upload
from marshmallow import ValidationError, fields, validate

from core.devices.access import Access
from core.devices.expiry import DEFAULT_FLAG, ExpiredFlag, ReminderFlag, is_lifelong
from core.devices.grants import BY_CODE as ELEMENTS
from core.devices.grants import Element, Grant
from core.devices.model import MAX_MARKERS, SORT_FIELDS, Scene, VipState
from core.devices.ownership import MAX_MOVE as MAX_ORGANIZATION_MOVE
from core.devices.removal import MAX_BATCH_DELETE
from core.devices.rules import (
    ENERGY_INTERVALS,
    GUID_MAX,
    GUID_MIN,
    GUID_PROBLEM,
    HISTORY_DEFAULT_POINTS,
    HISTORY_MAX_POINTS,
    NAME_MAX,
    PRECISION_MAX,
    REMARK_MAX,
    TEMPERATURE_UNITS,
    country_code_problem,
    device_name_problem,
)
from core.devices.scrapping import MAX_REASON_LENGTH, MAX_SCRAP_BATCH
from core.devices.sheets import MAX_SHEET_BYTES, MAX_SHEET_ROWS, RowOutcome
from core.shared.messages import N_
from entrypoints.api import context
from entrypoints.api.framework import MAX_PAGE_SIZE, LocalDateTime, PageQuery, Schema, local_isoformats
from entrypoints.api.json_text import FloatTexts, RawJSON, json_number
from entrypoints.api.validators import rule

OneOf, Range = validate.OneOf, validate.Range
MAX_ID = 2_147_483_647
EXPIRED_DIALOG_PAGE_SIZE = 5  # the dialog shows 5 rows a page
HISTORY_EARLIEST, HISTORY_LATEST = datetime(1970, 1, 1, tzinfo=UTC), datetime(2200, 1, 1, tzinfo=UTC)
INSTANT_PROBLEM = N_("Enter a time between the years 1970 and 2199")
OFFSET_PROBLEM = N_("Enter a time with its UTC offset, such as 2026-05-01T08:00:00+08:00")


class LocalDate(fields.Date):
    """The calendar date of an instant in the caller's time zone (YYYY-MM-DD). Lifelong service
    has a nominal date, the same in every zone (2099-12-31, not 2100-01-01 east of UTC)."""

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        zone = UTC if is_lifelong(value) else context.time_zone.get()
        return super()._serialize(value.astimezone(zone).date(), attr, obj, **kwargs)


class ExpiredDeviceQuery(Schema):
    accountId = fields.Integer(validate=Range(min=1, max=MAX_ID),
                               metadata={"description": "must be the caller's own account id (any other is "
                                                        "answered as unknown, 404); the caller when absent"})
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
    access = fields.Integer(required=True, validate=OneOf([int(Access.READ), int(Access.WRITE)]), metadata={
        "description": "the caller's access, as in the device list: 1 read only (not for a batch recharge, which "
                       "would be refused with 403), 2 read and change"})


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


# --- the device registry ------------------------------------------------------------------------

Length, Regexp = validate.Length, validate.Regexp
DEVICE_ID = fields.Integer(required=True, validate=Range(min=1, max=MAX_ID))
GUID = [Length(GUID_MIN, GUID_MAX), Regexp(r"^[A-Za-z0-9]+$", error=GUID_PROBLEM)]
TextRules = list[Callable[[str], object]]  # marshmallow validators and rule()s of a text field
NAME: TextRules = [Length(1, NAME_MAX), rule(device_name_problem)]
FLAG = [OneOf([0, 1])]
TEMPERATURE_UNIT_DOC = ("unit the client shows temperatures in: C Celsius, F Fahrenheit. Values are always "
                        "sent in Celsius; converting them (F = C x 9/5 + 32) is the client's job")


def country_code_rule(value: str) -> None:
    message = country_code_problem(value, context.container().settings().edition)
    if message:
        raise ValidationError(message)


COUNTRY_CODE: TextRules = [Length(1, 4), country_code_rule]


class DevicePageQuery(PageQuery):
    sortField = fields.String(validate=OneOf(SORT_FIELDS),
                              metadata={"description": "default createdAt (newest first); ties by deviceId"})
    deviceName = fields.String(validate=Length(1, NAME_MAX),
                               metadata={"description": "part of the name, any case"})
    deviceGuid = fields.String(validate=[Length(1, GUID_MAX)], metadata={"description": "part of the GUID, any case"})
    typeId = fields.Integer(validate=Range(min=1, max=MAX_ID))
    status = fields.Integer(validate=FLAG, metadata={"description": "1 enabled, 0 disabled"})
    scene = fields.Integer(validate=OneOf([int(s) for s in Scene]),
                           metadata={"description": "the list's tab: 1 cold-chain monitoring, 2 smart cold storage, "
                                                    "3 smart freezer (from the device type's scenes)"})
    online = fields.Integer(validate=FLAG, metadata={"description": "1 online now, 0 not"})
    alarm = fields.Integer(validate=FLAG, metadata={"description": "1 alarming now, 0 not"})
    levelId = fields.Integer(validate=Range(min=1, max=MAX_ID))
    vipState = fields.Integer(validate=OneOf([int(s) for s in VipState]),
                              metadata={"description": "as vipInfo.state: 1 expires within 30 days, 2 expired, 0 "
                                                       "neither (lifelong, later, or no expiry)"})
    scrapped = fields.Integer(validate=FLAG, metadata={"description": "1 scrapped devices only, 0 those in service"})
    projectId = fields.Integer(validate=Range(min=0, max=MAX_ID), metadata={
        "description": "the devices in this project (Project/page's id); 0: those in no project"})
    calibrationDue = fields.Integer(validate=FLAG, metadata={
        "description": "1 devices whose calibration falls due within 30 days or is overdue (the due date an issued "
                       "calibration certificate set, Device/calibration), 0 the others"})


class DeviceFilterQuery(DevicePageQuery):
    """The device list's filters (Device/page's) without paging, for calls that take every
    matching device: the map's markers, the list's export."""

    class Meta(DevicePageQuery.Meta):
        exclude = ("start", "pageSize", "sortField", "sortOrder")


class DeviceMarkerSchema(Schema):
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True)
    lat = fields.Float(required=True, metadata={"description": "WGS 84 latitude of its last position, degrees"})
    lon = fields.Float(required=True, metadata={"description": "WGS 84 longitude, degrees"})
    status = fields.Integer(required=True, metadata={"description": "1 enabled, 0 disabled"})
    online = fields.Integer(required=True, metadata={"description": "1 online now, 0 not"})
    alarmState = fields.Integer(required=True, metadata={"description": "0 no alarm"})
    activatedAt = LocalDateTime(required=True, allow_none=True,
                                metadata={"description": "first reading; null: never reported (not enabled)"})
    scrappedAt = LocalDateTime(required=True, allow_none=True, metadata={"description": "null: in service"})


class DeviceMarkersSchema(Schema):
    markers = fields.List(fields.Nested(DeviceMarkerSchema), required=True,
                          metadata={"description": f"the first {MAX_MARKERS} by deviceId"})
    total = fields.Integer(required=True, metadata={"description": "devices of the filters that reported a position"})
    truncated = fields.Boolean(required=True, metadata={"description": "total is more than the markers given"})


class VipInfoSchema(Schema):
    state = fields.Integer(required=True, validate=OneOf([int(s) for s in VipState]),
                           metadata={"description": "1 service expires within 30 days, 2 expired, 0 otherwise; "
                                                    "lifelong service (year 2099 or later) is always 0"})


class ElementPermission(Schema):
    """A device-level permission entry (spec 000 section 3: permissionCode, setStatus, viewStatus)."""

    code = fields.String(required=True, validate=OneOf(list(ELEMENTS)), metadata={
        "description": "a device element (a tab of its detail): " + ", ".join(ELEMENTS)})
    viewStatus = fields.Integer(required=True, validate=OneOf([0, 1]), metadata={"description": "1: visible"})
    setStatus = fields.Integer(required=True, validate=OneOf([0, 1]), metadata={
        "description": "1: operable (implies visible)"})


@functools.lru_cache(maxsize=512)
def permissions_of(grant: Grant) -> list[dict]:
    """A grant as the console's device-level directive reads it: one entry per element. Made once
    per grant (a page's rows share a handful), so the answer is shared: read it, never change it."""
    return [{"code": e.code, "viewStatus": int(grant.sees(e)), "setStatus": int(grant.operates(e))} for e in Element]


class DeviceSchema(Schema):
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True)
    deviceGuid = fields.String(required=True)
    typeId = fields.Integer(required=True)
    deviceTypeName = fields.String(required=True)
    typeScenes = fields.List(fields.Integer(), required=True,
                             metadata={"description": "1 cold-chain monitoring, 2 smart cold storage, 3 smart freezer"})
    levelId = fields.Integer(required=True, allow_none=True)
    levelName = fields.String(required=True, allow_none=True)
    serviceExpiredDate = LocalDate(required=True, allow_none=True,
                                   metadata={"description": "in the caller's X-Time-Zone; year 2099 or later is "
                                                            "lifelong"})
    vipInfo = fields.Nested(VipInfoSchema, required=True)
    smsCount = fields.Integer(required=True)
    voiceCount = fields.Integer(required=True)
    countryCode = fields.String(required=True, allow_none=True)
    simIccid = fields.String(required=True, allow_none=True)
    jcIccidStatus = fields.Integer(required=True, metadata={"description": "1: the SIM has an active data plan"})
    agreementStatus = fields.Integer(required=True, validate=OneOf([0, 1]),
                                     metadata={"description": "1: an auto-renew agreement is active"})
    nodeType = fields.Integer(required=True)
    status = fields.Integer(required=True, metadata={"description": "1 enabled, 0 disabled"})
    remark = fields.String(required=True, allow_none=True)
    ownerId = fields.Integer(required=True)
    ownerName = fields.String(required=True)
    isOwner = fields.Boolean(required=True, metadata={"description": "only the owner may delete the device or "
                                                                     "rotate its broker password"})
    access = fields.Integer(required=True, validate=OneOf([int(Access.READ), int(Access.WRITE)]), metadata={
        "description": "the caller's owner-level access: 2 for its owner, its organization's creator or an "
                       "administrator (rename, delete, scrap, credentials, share, transfer, move to a project); 1 for "
                       "everyone else (a member, a sharee), whose rights per element are `permissions`"})
    permissions = fields.List(fields.Nested(ElementPermission), required=True, metadata={
        "description": "the caller's rights on each element of the device (its detail's tabs): what the "
                       "console's device-level directive reads; every endpoint checks the same on the server"})
    sharedWithMe = fields.Boolean(required=True, metadata={
        "description": "the caller holds it through a share (core/sharing), under a template"})
    organizationId = fields.Integer(required=True, allow_none=True)
    organizationName = fields.String(required=True, allow_none=True)
    online = fields.Integer(required=True, validate=OneOf([0, 1]))
    alarmState = fields.Integer(required=True, metadata={"description": "0 normal, otherwise alarming"})
    lastReadingAt = LocalDateTime(required=True, allow_none=True)
    temperature = fields.Float(required=True, allow_none=True,
                               metadata={"description": "last reading, always in Celsius whatever temperatureUnit"})
    humidity = fields.Float(required=True, allow_none=True, metadata={"description": "last reading, % RH"})
    displayPrecision = fields.Integer(required=True, metadata={"description": "decimals to show, 0 to 4"})
    temperatureUnit = fields.String(required=True, validate=OneOf(TEMPERATURE_UNITS),
                                    metadata={"description": TEMPERATURE_UNIT_DOC})
    activatedAt = LocalDateTime(required=True, allow_none=True,
                                metadata={"description": "first reading; null: never reported (not enabled)"})
    createdAt = LocalDateTime(required=True)
    position = fields.Nested(lambda: PositionSchema(), required=True, allow_none=True,
                             metadata={"description": "where it last reported being; null: it never sent a position"})
    energy = fields.Boolean(required=True, metadata={"description": "its type has an energy meter (kWh): the "
                                                                    "detail offers the energy tab"})
    scrappedAt = LocalDateTime(required=True, allow_none=True, metadata={
        "description": "when its owner scrapped it (kept for its history; no alarms, recharge nor commands); "
                       "null: in service"})
    projectId = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the project it is grouped in (Device/changeProject); null: none"})
    projectName = fields.String(required=True, allow_none=True, metadata={
        "description": "that project's name, shown to whoever sees the device (as organizationName is)"})


class PositionSchema(Schema):
    lat = fields.Float(required=True, metadata={"description": "WGS 84 latitude, degrees"})
    lon = fields.Float(required=True, metadata={"description": "WGS 84 longitude, degrees"})
    acc = fields.Float(required=True, allow_none=True, metadata={"description": "accuracy radius, metres"})
    ts = LocalDateTime(required=True, metadata={"description": "when the device was there"})


class ReadingSchema(Schema):
    ts = LocalDateTime(required=True)
    temperature = fields.Float(required=True, allow_none=True, metadata={"description": "Celsius"})
    humidity = fields.Float(required=True, allow_none=True, metadata={"description": "% RH"})


class ProbeSchema(Schema):
    probe = fields.String(required=True, metadata={"description": "t temperature (Celsius), h humidity (% RH)"})
    upperLimit = fields.Float(required=True, allow_none=True,
                              metadata={"description": "from the probe's alarm rule; null without one"})
    lowerLimit = fields.Float(required=True, allow_none=True)
    ruleEnabled = fields.Boolean(required=True, metadata={"description": "false also when there is no rule"})


class DeviceDetailSchema(DeviceSchema):
    lastSeenAt = LocalDateTime(required=True, allow_none=True)
    lastReading = fields.Nested(ReadingSchema, required=True, allow_none=True)
    probes = fields.List(fields.Nested(ProbeSchema), required=True,
                         metadata={"description": "the probes its type reports, with their alarm limits"})


class DeviceIdQuery(Schema):
    deviceId = DEVICE_ID


class DeviceInsertSchema(Schema):
    deviceGuid = fields.String(required=True, validate=GUID,
                               metadata={"description": "printed on the device: 8 to 32 letters and digits"})
    deviceName = fields.String(required=True, validate=NAME)
    typeId = fields.Integer(required=True, validate=Range(min=1, max=MAX_ID),
                            metadata={"description": "a published type whose addType is not 1 (app only)"})
    remark = fields.String(validate=Length(max=REMARK_MAX))
    countryCode = fields.String(validate=COUNTRY_CODE,
                                metadata={"description": "the edition's default when absent; always 86 on the "
                                                         "domestic edition"})
    displayPrecision = fields.Integer(load_default=1, validate=Range(min=0, max=PRECISION_MAX))
    temperatureUnit = fields.String(load_default="C", validate=OneOf(TEMPERATURE_UNITS),
                                    metadata={"description": TEMPERATURE_UNIT_DOC})


class DeviceUpdateSchema(Schema):
    deviceId = DEVICE_ID
    deviceName = fields.String(validate=NAME)
    remark = fields.String(validate=Length(max=REMARK_MAX), metadata={"description": "empty clears it"})
    displayPrecision = fields.Integer(validate=Range(min=0, max=PRECISION_MAX))
    temperatureUnit = fields.String(validate=OneOf(TEMPERATURE_UNITS), metadata={"description": TEMPERATURE_UNIT_DOC})
    countryCode = fields.String(validate=COUNTRY_CODE,
                                metadata={"description": "always 86 on the domestic edition"})


class BrokerLoginSchema(Schema):
    username = fields.String(required=True, metadata={"description": "the device's GUID"})
    password = fields.String(required=True, metadata={"description": "shown this once; only a hash is kept"})


class DeviceAddedSchema(Schema):
    device = fields.Nested(DeviceDetailSchema, required=True)
    credentials = fields.Nested(BrokerLoginSchema, required=True,
                                metadata={"description": "the device's MQTT login, shown this once"})


class BrokerCredentialSchema(Schema):
    username = fields.String(required=True)
    issuedAt = LocalDateTime(required=True, metadata={"description": "when the current password was issued"})


def _sane_instant(value: datetime) -> None:
    try:
        utc = value.astimezone(UTC)
    except OverflowError:
        utc = None
    if utc is None or not HISTORY_EARLIEST <= utc < HISTORY_LATEST:
        raise ValidationError(INSTANT_PROBLEM)


class Instant(fields.AwareDateTime):
    """An ISO 8601 instant with its offset, such as 2026-05-01T08:00:00+08:00."""

    MAX_LENGTH = 40

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("error_messages", {})["invalid_awareness"] = OFFSET_PROBLEM
        kwargs["metadata"] = {"maxLength": self.MAX_LENGTH, **kwargs.get("metadata", {})}
        super().__init__(validate=_sane_instant, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and len(value) > self.MAX_LENGTH:
            raise self.make_error("invalid", input=value, obj_type=self.OBJ_TYPE)
        return super()._deserialize(value, attr, data, **kwargs)


class HistoryQuery(Schema):
    deviceId = DEVICE_ID
    startTime = Instant(required=True, metadata={"description": "ISO 8601 with its UTC offset"})
    endTime = Instant(required=True, metadata={
        "description": "ISO 8601 with its UTC offset; after startTime, at most 366 days later"})
    maxPoints = fields.Integer(load_default=HISTORY_DEFAULT_POINTS, validate=Range(min=1, max=HISTORY_MAX_POINTS),
                               metadata={"description": "most points to return (default 2000)"})


class ReadingList(fields.List):
    """Readings as ReadingSchema writes them, without its per-field machinery (a tenth of its
    cost), and as JSON text (a third less again): a chart asks for thousands at a time."""

    def __init__(self, **kwargs) -> None:
        super().__init__(fields.Nested(ReadingSchema), **kwargs)

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        times = local_isoformats(context.time_zone.get(), [p.ts for p in value])
        floats = FloatTexts()
        return RawJSON("[" + ",".join([
            f'{{"ts":"{ts}","temperature":{floats[t] if t.__class__ is float else json_number(t)},'
            f'"humidity":{floats[h] if h.__class__ is float else json_number(h)}}}'
            for ts, (_, t, h) in zip(times, value, strict=True)]) + "]")


class HistorySchema(Schema):
    points = ReadingList(required=True,
                         metadata={"description": "in time order; when downsampled, the readings holding each probe's "
                                                  "minimum and maximum in each of equal time buckets"})
    downsampled = fields.Boolean(required=True, metadata={"description": "false: every stored reading"})
    total = fields.Integer(required=True, metadata={"description": "readings stored in the range"})


class TrackQuery(HistoryQuery):
    pass


class TrackSchema(Schema):
    points = fields.List(fields.Nested(PositionSchema), required=True,
                         metadata={"description": "in time order; when downsampled, evenly spaced fixes and the last"})
    downsampled = fields.Boolean(required=True, metadata={"description": "false: every stored position"})
    total = fields.Integer(required=True, metadata={"description": "readings with a position in the range"})


class EnergyQuery(Schema):
    deviceId = DEVICE_ID
    startTime = Instant(required=True, metadata={"description": "ISO 8601 with its UTC offset"})
    endTime = Instant(required=True, metadata={
        "description": "ISO 8601 with its UTC offset; after startTime, at most 92 days later"})
    interval = fields.String(load_default="hour", validate=OneOf(ENERGY_INTERVALS),
                             metadata={"description": "hour or day (days of the caller's X-Time-Zone)"})


class EnergyBucketSchema(Schema):
    ts = LocalDateTime(required=True, metadata={"description": "the hour's or day's start"})
    kwh = fields.Float(required=True, metadata={"description": "energy used in it, kWh"})


class EnergySchema(Schema):
    unit = fields.String(required=True, metadata={"description": "always kWh"})
    interval = fields.String(required=True)
    buckets = fields.List(fields.Nested(EnergyBucketSchema), required=True)
    total = fields.Float(required=True, metadata={"description": "kWh used in the range"})


class HomeCountsQuery(Schema):
    scene = fields.Integer(validate=OneOf([int(s) for s in Scene]), metadata={"description": "only this tab's devices"})


class HomeCountsSchema(Schema):
    total = fields.Integer(required=True)
    online = fields.Integer(required=True)
    offline = fields.Integer(required=True, metadata={"description": "reported before, not online now"})
    alarm = fields.Integer(required=True)
    disabled = fields.Integer(required=True)
    expired = fields.Integer(required=True, metadata={"description": "service expired (never lifelong)"})
    notEnabled = fields.Integer(required=True, metadata={"description": "never reported; online + offline + "
                                                                        "notEnabled + scrapped = total"})
    scrapped = fields.Integer(required=True, metadata={"description": "retired by their owner; counted in no other "
                                                                      "figure but total"})


class RevenueSchema(Schema):
    currency = fields.String(required=True, metadata={"description": "ISO 4217"})
    payFee = fields.Integer(required=True, metadata={"description": "cents"})


class OperatorHomeCountsSchema(Schema):
    customers = fields.Integer(required=True, metadata={"description": "accounts that are not system ones"})
    devices = fields.Integer(required=True, metadata={"description": "every customer's devices"})
    online = fields.Integer(required=True)
    alarm = fields.Integer(required=True)
    ordersToday = fields.Integer(required=True, metadata={"description": "orders created today (X-Time-Zone)"})
    paidOrdersToday = fields.Integer(required=True, metadata={"description": "orders paid today, not refunded"})
    revenueToday = fields.List(fields.Nested(RevenueSchema), required=True,
                               metadata={"description": "paid today and not refunded, one row per currency"})


class TypeListQuery(Schema):
    scene = fields.Integer(validate=OneOf([int(s) for s in Scene]))


class DeviceTypeSchema(Schema):
    typeId = fields.Integer(required=True)
    typeName = fields.String(required=True)
    typeCode = fields.String(required=True, metadata={"description": "hexadecimal, such as 0x8001"})
    seriesName = fields.String(required=True, allow_none=True)
    addType = fields.Integer(required=True, metadata={"description": "0 anywhere, 1 app only (not addable here), "
                                                                     "2 platform only"})
    scenes = fields.List(fields.Integer(), required=True)
    probes = fields.List(fields.String(), required=True, metadata={"description": "t temperature, h humidity"})


# --- adding and removing many, clearing data, connecting ------------------------------------------


class BatchDeleteSchema(Schema):
    deviceIds = fields.List(DEVICE_ID, required=True, validate=Length(1, MAX_BATCH_DELETE), metadata={
        "description": f"1 to {MAX_BATCH_DELETE} device ids (a repeated id counts once)"})


class ScrapSchema(Schema):
    deviceIds = fields.List(DEVICE_ID, required=True, validate=Length(1, MAX_SCRAP_BATCH), metadata={
        "description": f"1 to {MAX_SCRAP_BATCH} device ids (a repeated id counts once)"})
    reason = fields.String(validate=Length(max=MAX_REASON_LENGTH), allow_none=True, metadata={
        "description": "why (broken, lost, decommissioned...): kept in each device's operation log"})


class ChangeOrganizationSchema(Schema):
    deviceIds = fields.List(DEVICE_ID, required=True, validate=Length(1, MAX_ORGANIZATION_MOVE), metadata={
        "description": f"1 to {MAX_ORGANIZATION_MOVE} device ids (a repeated id counts once)"})
    organizationId = fields.Integer(required=True, allow_none=True, validate=Range(1, MAX_ID), metadata={
        "description": "one of the caller's organizations where it changes devices (its creator or an "
                       "administrator); null takes the devices out of any organization"})


class OrganizationChangedSchema(Schema):
    moved = fields.Integer(required=True, metadata={"description": "devices now in the organization (or in none)"})


class ScrappedSchema(Schema):
    scrapped = fields.Integer(required=True, metadata={"description": "devices scrapped now (those already "
                                                                      "scrapped are left as they were)"})


class RestoredSchema(Schema):
    restored = fields.Boolean(required=True, metadata={"description": "false: the device was in service"})


class BatchDeletedSchema(Schema):
    deleted = fields.Integer(required=True, metadata={"description": "devices deleted: all of those asked for"})


class DataClearedSchema(Schema):
    readings = fields.Integer(required=True, metadata={"description": "readings deleted"})
    alarms = fields.Integer(required=True, metadata={"description": "alarm records deleted"})


class SheetUploadSchema(Schema):
    # maxLength of a binary string counts its bytes: the published bound of what a client may send.
    file = Upload(required=True, metadata={
        "maxLength": MAX_SHEET_BYTES,
        "description": f"an XLSX of at most {MAX_SHEET_BYTES // 1024} KB whose first sheet lists, from row 2 (row "
                       "1 is the header when its first cell says GUID), one device a row: GUID, name (the GUID "
                       f"when empty), type code (0x8001) or name (typeId's when empty); at most {MAX_SHEET_ROWS} "
                       "rows. Formulas are refused."})


class SheetTypeSchema(Schema):
    typeId = fields.Integer(validate=Range(min=1, max=MAX_ID), metadata={
        "description": "the type of rows that name none"})


class SheetRowReportSchema(Schema):
    row = fields.Integer(required=True, metadata={"description": "the row's number in the sheet"})
    deviceGuid = fields.String(required=True)
    outcome = fields.String(required=True, validate=OneOf([o.value for o in RowOutcome]), metadata={
        "description": "added; alreadyAdded (by anyone, or higher in the sheet); unknownType; invalid"})
    message = fields.String(required=True, allow_none=True,
                            metadata={"description": "why not added, in the request's language"})
    deviceId = fields.Integer(required=True, allow_none=True)
    credentials = fields.Nested(BrokerLoginSchema, required=True, allow_none=True,
                                metadata={"description": "an added device's MQTT login, shown this once"})


class SheetReportSchema(Schema):
    rows = fields.List(fields.Nested(SheetRowReportSchema), required=True, metadata={"description": "in sheet order"})
    added = fields.Integer(required=True)


class TopicsSchema(Schema):
    telemetry = fields.String(required=True, metadata={"description": "the device publishes readings (QoS 1)"})
    status = fields.String(required=True, metadata={
        "description": "the device publishes online/offline, retained; its last will is offline"})
    commands = fields.String(required=True, metadata={"description": "the device subscribes: commands (QoS 1)"})
    acks = fields.String(required=True, metadata={"description": "the device answers commands (QoS 1)"})


class ConnectionSchema(Schema):
    host = fields.String(required=True)
    port = fields.Integer(required=True)
    tls = fields.Boolean(required=True, metadata={"description": "true: MQTT over TLS (mqtts)"})
    topics = fields.Nested(TopicsSchema, required=True, metadata={
        "description": "with {guid} standing for the device's GUID, which is also its user name and client id"})
    examplePayload = fields.String(required=True, metadata={"description": "one reading, as JSON"})
