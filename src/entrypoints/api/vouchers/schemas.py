from __future__ import annotations

from marshmallow import fields, validate

from core.vouchers.model import (
    MAX_AMOUNT_CENTS,
    MAX_BATCH,
    MAX_MONTHS,
    REMARK_MAX,
    BatchStatus,
    CouponKind,
    VoucherState,
)
from entrypoints.api.alarms.schemas import ZonedDateTime
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

Length, Range, OneOf = validate.Length, validate.Range, validate.OneOf
MAX_ID = 2**31 - 1


def _id(**kwargs):
    return fields.Integer(validate=Range(1, MAX_ID), **kwargs)


STATES = "1 unused, 2 reserved by an unpaid order (coupons), 3 used"
# Bounded here so a huge value costs nothing; the core's rules (and their messages) decide the rest.
PREFIX = fields.String(load_default="", validate=Length(max=10), metadata={
    "description": "up to 2 capital letters or digits, put before every code"})
COUNT = fields.Integer(required=True, validate=Range(1, MAX_BATCH), metadata={
    "description": f"how many codes or cards, 1 to {MAX_BATCH:,} a batch"})
REMARK = fields.String(validate=Length(max=REMARK_MAX * 5), metadata={"description": "up to 200 characters"})


InstantField = ZonedDateTime  # an instant: with its offset, or in the caller's X-Time-Zone without one


class _Validity(Schema):
    startTime = InstantField(required=True)
    endTime = InstantField(required=True)


class CouponBatchBody(_Validity):
    prefix = PREFIX
    count = COUNT
    couponType = fields.Integer(required=True, validate=OneOf([int(k) for k in CouponKind]), metadata={
        "description": "1 an amount off (cents), 2 a percentage off"})
    amount = fields.Integer(required=True, validate=Range(1, MAX_AMOUNT_CENTS), metadata={
        "description": "cents off (couponType 1; whole yuan in the domestic edition), or percent off, 1 to 99 "
                       "(couponType 2)"})
    activityId = _id(allow_none=True)
    remark = fields.String(required=True, validate=Length(max=REMARK_MAX * 5), metadata={
        "description": "required, up to 200 characters"})


class CardBatchBody(_Validity):
    prefix = PREFIX
    count = COUNT
    levelId = _id(required=True, metadata={"description": "the level the cards give"})
    timeLength = fields.Integer(required=True, validate=Range(1, MAX_MONTHS), metadata={"description": "months"})
    activityId = _id(allow_none=True)
    remark = REMARK


class BatchUpdateBody(Schema):
    id = _id(required=True)
    status = fields.Integer(required=True, validate=OneOf([int(s) for s in BatchStatus]), metadata={
        "description": "1 enabled, 0 disabled (its unused codes or cards are refused)"})
    remark = REMARK


class BatchIdBody(Schema):
    id = _id(required=True)


class BatchItemsQuery(PageQuery):
    batchId = _id(required=True)
    useStatus = fields.Integer(validate=OneOf([int(s) for s in VoucherState]), metadata={"description": STATES})


class _Batch(Schema):
    id = fields.Integer(required=True)
    prefix = fields.String(required=True)
    count = fields.Integer(required=True)
    startTime = LocalDateTime(required=True)
    endTime = LocalDateTime(required=True)
    activityId = fields.Integer(required=True, allow_none=True)
    activityName = fields.String(required=True, allow_none=True)
    remark = fields.String(required=True)
    status = fields.Integer(required=True, metadata={"description": "1 enabled, 0 disabled"})
    createTime = LocalDateTime(required=True, allow_none=True)
    unusedCount = fields.Integer(required=True)
    usedCount = fields.Integer(required=True)


class CouponBatchSchema(_Batch):
    couponType = fields.Integer(required=True)
    amount = fields.Integer(required=True)
    currency = fields.String(required=True)
    reservedCount = fields.Integer(required=True)


class CardBatchSchema(_Batch):
    levelId = fields.Integer(required=True)
    levelName = fields.String(required=True, allow_none=True)
    timeLength = fields.Integer(required=True)


class CouponSchema(Schema):
    couponCode = fields.String(required=True)
    batchId = fields.Integer(required=True)
    couponType = fields.Integer(required=True)
    amount = fields.Integer(required=True)
    currency = fields.String(required=True)
    startTime = LocalDateTime(required=True)
    endTime = LocalDateTime(required=True)
    useStatus = fields.Integer(required=True, metadata={"description": STATES})
    userName = fields.String(required=True, allow_none=True, metadata={"description": "who reserved or used it"})
    orderCode = fields.String(required=True, allow_none=True)
    reserveTime = LocalDateTime(required=True, allow_none=True)
    useTime = LocalDateTime(required=True, allow_none=True)


class CardSchema(Schema):
    cardNumber = fields.String(required=True)
    batchId = fields.Integer(required=True)
    levelId = fields.Integer(required=True)
    levelName = fields.String(required=True, allow_none=True)
    timeLength = fields.Integer(required=True)
    startTime = LocalDateTime(required=True)
    endTime = LocalDateTime(required=True)
    useStatus = fields.Integer(required=True, metadata={"description": STATES})
    userName = fields.String(required=True, allow_none=True)
    deviceId = fields.Integer(required=True, allow_none=True)
    deviceName = fields.String(required=True, allow_none=True)
    orderCode = fields.String(required=True, allow_none=True)
    useTime = LocalDateTime(required=True, allow_none=True)


class NewCardSchema(Schema):
    cardNumber = fields.String(required=True)
    secret = fields.String(required=True, metadata={"description": "shown this once: only a digest is kept"})


class CreatedCardsSchema(CardBatchSchema):
    cards = fields.List(fields.Nested(NewCardSchema), required=True)


class CouponCheckBody(Schema):
    couponCode = fields.String(required=True, validate=Length(1, 40))
    totalFee = fields.Integer(required=True, validate=Range(0, 10**12), metadata={
        "description": "cents the order charges before the coupon (the quote's total)"})


class CouponQuoteSchema(Schema):
    couponCode = fields.String(required=True)
    couponType = fields.Integer(required=True)
    amount = fields.Integer(required=True)
    totalFee = fields.Integer(required=True, metadata={"description": "cents before the coupon"})
    couponFee = fields.Integer(required=True, metadata={"description": "cents the coupon takes off"})
    payFee = fields.Integer(required=True, metadata={"description": "cents charged: totalFee - couponFee"})
    currency = fields.String(required=True)


class RedeemCardBody(Schema):
    deviceId = _id(required=True)
    cardNumber = fields.String(required=True, validate=Length(1, 40))
    secret = fields.String(required=True, validate=Length(1, 40))


class RedeemedSchema(Schema):
    orderId = fields.Integer(required=True)
    orderCode = fields.String(required=True)
    levelName = fields.String(required=True)
    timeLength = fields.Integer(required=True)
    serviceExpiredDate = LocalDateTime(required=True, allow_none=True)


class MyPageQuery(PageQuery):
    pass


class NamedSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)


class ReferencesSchema(Schema):
    levels = fields.List(fields.Nested(NamedSchema), required=True)
    activities = fields.List(fields.Nested(NamedSchema), required=True)
