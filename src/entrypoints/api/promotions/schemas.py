from __future__ import annotations

from flask_smorest.fields import Upload
from marshmallow import fields, validate

from core.promotions.model import (
    MAX_BONUS_MONTHS,
    MAX_COUNT,
    MAX_FEE_CENTS,
    MAX_OPTIONS,
    MAX_SHEET_BYTES,
    MAX_SHEET_ROWS,
    MAX_TARGETS,
    SEARCH_MAX,
    AlertKind,
    Nature,
    Status,
)
from core.shared.edition import LANGUAGES
from entrypoints.api.alarms.schemas import ZonedDateTime
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

Length, Range, OneOf = validate.Length, validate.Range, validate.OneOf
MAX_ID = 2**31 - 1
ID = fields.Integer(required=True, validate=Range(1, MAX_ID))
# Lengths are bounded here so a huge value costs nothing; the core's rules (and their messages) decide the rest.
NAME = fields.String(required=True, validate=Length(max=100), metadata={
    "description": "up to 20 characters, no emoji or invisible characters; the default name"})
NAMES = fields.Dict(keys=fields.String(validate=OneOf(LANGUAGES)), values=fields.String(validate=Length(max=100)),
                    load_default=dict, metadata={
                        "description": "the name per language (en-US zh-CN zh-TW ru-RU de-DE es-ES pt-PT); a "
                                       "language left out or empty falls back to the default name"})
NATURE_TEXT = "1 public (every customer), 2 directional (its target accounts only)"
STATUS_TEXT = "1 enabled, 0 stopped"
KIND_TEXT = "1 SMS, 2 voice"


class IdSchema(Schema):
    id = ID


class ActivityOptionSchema(Schema):
    levelYearId = ID
    activityDiscount = fields.Integer(load_default=100, validate=Range(1, 100), metadata={
        "description": "percent paid of the option's price while the activity is in force; 100 none"})
    presentationMonth = fields.Integer(load_default=0, validate=Range(0, MAX_BONUS_MONTHS),
                                       metadata={"description": "bonus months"})


class ActivityInSchema(Schema):
    name = NAME
    names = NAMES
    nature = fields.Integer(required=True, validate=OneOf([int(n) for n in Nature]),
                            metadata={"description": NATURE_TEXT})
    startTime = ZonedDateTime(required=True, metadata={"description": "in force from"})
    endTime = ZonedDateTime(required=True, metadata={"description": "in force until (excluded)"})
    options = fields.List(fields.Nested(ActivityOptionSchema), required=True, validate=Length(max=MAX_OPTIONS),
                          metadata={"description": "the year options (of service packages) it offers, once each"})
    accountIds = fields.List(fields.Integer(validate=Range(1, MAX_ID)), load_default=list,
                             validate=Length(max=MAX_TARGETS),
                             metadata={"description": "target accounts of a directional activity (ignored if public)"})


class ActivityUpdateSchema(ActivityInSchema):
    id = ID


class TargetAccountSchema(Schema):
    id = fields.Integer(required=True)
    userName = fields.String(required=True)
    phone = fields.String(required=True, allow_none=True)
    email = fields.String(required=True, allow_none=True)


class ActivityOptionOutSchema(Schema):
    levelYearId = fields.Integer(required=True)
    activityDiscount = fields.Integer(required=True)
    presentationMonth = fields.Integer(required=True)


class ActivitySchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True, metadata={"description": "in the request's language when it has one"})
    defaultName = fields.String(required=True)
    names = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    nature = fields.Integer(required=True, metadata={"description": NATURE_TEXT})
    status = fields.Integer(required=True, metadata={"description": STATUS_TEXT})
    startTime = LocalDateTime(required=True)
    endTime = LocalDateTime(required=True)
    createdAt = LocalDateTime(required=True)
    options = fields.List(fields.Nested(ActivityOptionOutSchema), required=True)
    accounts = fields.List(fields.Nested(TargetAccountSchema), required=True)


class ActivityPageQuery(PageQuery):
    name = fields.String(validate=Length(1, SEARCH_MAX), metadata={"description": "part of the name, any case"})
    status = fields.Integer(validate=OneOf([int(s) for s in Status]), metadata={"description": STATUS_TEXT})
    nature = fields.Integer(validate=OneOf([int(n) for n in Nature]), metadata={"description": NATURE_TEXT})


class OptionLabelSchema(Schema):
    levelYearId = fields.Integer(required=True)
    packageId = fields.Integer(required=True)
    packageName = fields.String(required=True)
    levelId = fields.Integer(required=True)
    levelName = fields.String(required=True)
    timeLength = fields.Integer(required=True, metadata={"description": "months"})
    currency = fields.String(required=True)
    serviceFee = fields.Integer(required=True, metadata={"description": "cents"})
    discount = fields.Integer(required=True)


class AccountSearchSchema(Schema):
    text = fields.String(required=True, validate=Length(max=SEARCH_MAX), metadata={
        "description": "part of a customer's user name, phone or e-mail"})


class AddTargetsSchema(Schema):
    activityId = ID
    accountIds = fields.List(fields.Integer(validate=Range(1, MAX_ID)), required=True,
                             validate=Length(1, MAX_TARGETS))


class ActivityOrdersQuery(PageQuery):
    id = ID


class DepositSchema(Schema):
    activityId = fields.Integer(required=True)
    name = fields.String(required=True)
    nature = fields.Integer(required=True)
    status = fields.Integer(required=True)
    startTime = LocalDateTime(required=True)
    endTime = LocalDateTime(required=True)
    paidOrders = fields.Integer(required=True)
    paidFees = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                           metadata={"description": "cents paid per currency"})


class ActivityOrderSchema(Schema):
    orderId = fields.Integer(required=True)
    orderCode = fields.String(required=True)
    userName = fields.String(required=True)
    orderDescription = fields.String(required=True)
    currency = fields.String(required=True)
    orderFee = fields.Integer(required=True)
    payFee = fields.Integer(required=True, allow_none=True)
    payStatus = fields.Integer(required=True, metadata={"description": "1 unpaid, 2 paid, 3 refunded, 4 closed"})
    payType = fields.Integer(required=True)
    deviceCount = fields.Integer(required=True)
    gmtCreate = LocalDateTime(required=True)
    payTime = LocalDateTime(required=True, allow_none=True)


# --- SMS and voice packages


class AlertListQuery(Schema):
    countryCode = fields.String(validate=Length(1, 4))
    kind = fields.Integer(validate=OneOf([int(k) for k in AlertKind]), metadata={"description": KIND_TEXT})


class AlertInSchema(Schema):
    kind = fields.Integer(required=True, validate=OneOf([int(k) for k in AlertKind]),
                          metadata={"description": KIND_TEXT})
    countryCode = fields.String(required=True, validate=Length(max=10), metadata={
        "description": "1 to 4 digits; at most 5 packages of a kind per country code"})
    packageName = NAME
    names = NAMES
    packageFee = fields.Integer(required=True, validate=Range(0, MAX_FEE_CENTS), metadata={"description": "cents"})
    currency = fields.String(required=True, validate=Length(max=10), metadata={"description": "CNY or USD"})
    smsCount = fields.Integer(required=True, validate=Range(1, MAX_COUNT),
                              metadata={"description": "messages or calls it gives"})
    discount = fields.Integer(load_default=100, validate=Range(1, 100), metadata={"description": "percent paid"})
    status = fields.Integer(load_default=1, validate=OneOf([int(s) for s in Status]),
                            metadata={"description": STATUS_TEXT})


class AlertUpdateSchema(AlertInSchema):
    packageId = ID


class AlertIdQuery(Schema):
    packageId = ID


class AlertPackageAdminSchema(Schema):
    packageId = fields.Integer(required=True)
    kind = fields.Integer(required=True, metadata={"description": KIND_TEXT})
    countryCode = fields.String(required=True)
    packageName = fields.String(required=True, metadata={"description": "in the request's language"})
    defaultName = fields.String(required=True)
    names = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    packageFee = fields.Integer(required=True)
    currency = fields.String(required=True)
    smsCount = fields.Integer(required=True)
    discount = fields.Integer(required=True)
    status = fields.Integer(required=True)
    sort = fields.Integer(required=True)


class AlertSortSchema(Schema):
    countryCode = fields.String(required=True, validate=Length(1, 4))
    kind = fields.Integer(required=True, validate=OneOf([int(k) for k in AlertKind]))
    ids = fields.List(fields.Integer(validate=Range(1, MAX_ID)), required=True, validate=Length(1, 5),
                      metadata={"description": "every package of the country code and kind, in the new order"})


class AlertSheetUploadSchema(Schema):
    file = Upload(required=True, metadata={
        "maxLength": MAX_SHEET_BYTES,
        "description": f"an XLSX of at most {MAX_SHEET_BYTES // 1024} KB whose first sheet lists, from row 2 (row 1 "
                       "is a header), one package a row: kind (SMS or voice), country code, name, fee in cents, "
                       f"currency, count, discount (empty: 100); at most {MAX_SHEET_ROWS} rows. Formulas are "
                       "refused."})


class ImportRowSchema(Schema):
    row = fields.Integer(required=True)
    packageName = fields.String(required=True)
    added = fields.Boolean(required=True)
    packageId = fields.Integer(required=True, allow_none=True)
    field = fields.String(required=True, allow_none=True, metadata={"description": "the cell refused"})
    message = fields.String(required=True, allow_none=True, metadata={
        "description": "why the row was refused, in the request's language"})


class ImportReportSchema(Schema):
    rows = fields.List(fields.Nested(ImportRowSchema), required=True)
    added = fields.Integer(required=True)
    refused = fields.Integer(required=True)


# --- what was sold over a period, what is in force

PAID_FEES = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                        metadata={"description": "cents paid per currency (ISO 4217)"})


class PeriodQuery(Schema):
    startTime = ZonedDateTime(required=True, metadata={"description": "orders paid from (included)"})
    endTime = ZonedDateTime(required=True, metadata={
        "description": "orders paid until (excluded); after startTime, at most five years later"})


class ServiceDepositQuery(PeriodQuery):
    packageId = fields.Integer(validate=Range(1, MAX_ID), metadata={"description": "one package's options only"})


class AlertDepositQuery(PeriodQuery):
    countryCode = fields.String(validate=Length(1, 4), metadata={"description": "one country code only"})


class PeriodSchema(Schema):
    # in UTC: a local offset of a far date can be a zone's old mean time (+08:05:43), which no
    # date-time format writes
    startTime = fields.AwareDateTime(required=True, metadata={"description": "the period's start, UTC"})
    endTime = fields.AwareDateTime(required=True, metadata={"description": "the period's end (excluded), UTC"})


class OptionSalesSchema(Schema):
    levelYearId = fields.Integer(required=True)
    packageId = fields.Integer(required=True, allow_none=True, metadata={
        "description": "null (with the names) when the option was deleted since"})
    packageName = fields.String(required=True, allow_none=True, metadata={"description": "in the request's language"})
    levelId = fields.Integer(required=True, allow_none=True)
    levelName = fields.String(required=True, allow_none=True, metadata={"description": "in the request's language"})
    timeLength = fields.Integer(required=True, allow_none=True, metadata={"description": "months"})
    orders = fields.Integer(required=True, metadata={"description": "paid orders"})
    devices = fields.Integer(required=True, metadata={"description": "devices those orders recharged"})
    paidFees = PAID_FEES


class ServiceDepositViewSchema(Schema):
    period = fields.Nested(PeriodSchema, required=True)
    rows = fields.List(fields.Nested(OptionSalesSchema), required=True, metadata={
        "description": "per year option that sold, by package, level and duration"})
    orders = fields.Integer(required=True)
    paidFees = PAID_FEES


class AlertSalesSchema(Schema):
    countryCode = fields.String(required=True)
    orders = fields.Integer(required=True)
    devices = fields.Integer(required=True)
    smsCount = fields.Integer(required=True, metadata={"description": "messages sold"})
    voiceCount = fields.Integer(required=True, metadata={"description": "calls sold"})
    paidFees = PAID_FEES


class AlertDepositViewSchema(Schema):
    period = fields.Nested(PeriodSchema, required=True)
    rows = fields.List(fields.Nested(AlertSalesSchema), required=True, metadata={"description": "per country code"})
    orders = fields.Integer(required=True)
    paidFees = PAID_FEES


class PriceChangeSchema(Schema):
    at = LocalDateTime(required=True)
    actorName = fields.String(required=True, allow_none=True)
    kind = fields.String(required=True, metadata={"description": "insert, update or delete"})
    field = fields.String(required=True, metadata={
        "description": "packageFee, currency, discount, activityDiscount or status"})
    old = fields.Raw(required=True, allow_none=True)
    new = fields.Raw(required=True, allow_none=True)


class AlertActivityDetailSchema(Schema):
    package = fields.Nested(AlertPackageAdminSchema, required=True)
    activityDiscount = fields.Integer(required=True, allow_none=True, metadata={
        "description": "percent paid while the package's activity discount stands; null without one"})
    discountNow = fields.Integer(required=True, metadata={
        "description": "percent charged now (the activity discount taking precedence, as the customer's drawer)"})
    priceNow = fields.Integer(required=True, metadata={"description": "cents one device pays now"})
    history = fields.List(fields.Nested(PriceChangeSchema), required=True, metadata={
        "description": "changes of its price terms, newest first (at most 50), from the operation log"})


class PackageIdQuery(Schema):
    packageId = ID


class OptionActivitySchema(Schema):
    activityId = fields.Integer(required=True)
    name = fields.String(required=True, metadata={"description": "in the request's language when it has one"})
    nature = fields.Integer(required=True, metadata={"description": NATURE_TEXT})
    startTime = LocalDateTime(required=True)
    endTime = LocalDateTime(required=True)
    activityDiscount = fields.Integer(required=True, metadata={"description": "percent paid on this option"})
    presentationMonth = fields.Integer(required=True, metadata={"description": "bonus months on this option"})
    inForce = fields.Boolean(required=True, metadata={"description": "false: enabled, starting later"})
    payFee = fields.Integer(required=True, metadata={"description": "cents of the service fee at its discount"})


class OptionInForceSchema(OptionLabelSchema):
    activities = fields.List(fields.Nested(OptionActivitySchema), required=True, metadata={
        "description": "enabled activities on the option not ended yet, the one in force first"})


class PackageActivityDetailSchema(Schema):
    packageId = fields.Integer(required=True)
    packageName = fields.String(required=True, metadata={"description": "in the request's language"})
    options = fields.List(fields.Nested(OptionInForceSchema), required=True, metadata={
        "description": "its year options still offered, by level, currency and duration"})
