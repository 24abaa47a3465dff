"""Shapes of the order back office (issue 19)."""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from core.ordering.model import HANDLING_REASON_MAX, ORDER_SORT_FIELDS, InvoiceStatus, PayStatus
from core.shared.edition import PayType
from core.shared.messages import N_
from entrypoints.api.alarms.schemas import ZonedDateTime
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema
from entrypoints.api.payment.schemas import ID, OrderDetailSchema, OrderLineSchema

Length = validate.Length
TEXT = r"^[^\x00-\x1f\x7f]*$"  # no control characters


class OrderFilterSchema(Schema):
    orderCode = fields.String(validate=[Length(1, 20), validate.Regexp(r"^[0-9A-Za-z]+$")],
                              metadata={"description": "part of the order code"})
    account = fields.String(validate=[Length(1, 200), validate.Regexp(TEXT)],
                            metadata={"description": "part of the payer's user name, phone or e-mail, any case"})
    device = fields.String(validate=[Length(1, 50), validate.Regexp(TEXT)],
                           metadata={"description": "part of a device's name (as ordered or now) or GUID"})
    payType = fields.Integer(validate=validate.OneOf([int(p) for p in PayType]))
    payStatus = fields.Integer(validate=validate.OneOf([int(s) for s in PayStatus]),
                               metadata={"description": "1 unpaid, 2 paid, 3 refunded, 4 closed, 5 partially refunded"})
    invoiceStatus = fields.Integer(validate=validate.OneOf([int(s) for s in InvoiceStatus]),
                                   metadata={"description": "0 not invoiced, 1 invoiced"})
    createdFrom = ZonedDateTime(metadata={"description": "placed at or after (ISO 8601; without an offset, in "
                                                         "X-Time-Zone)"})
    createdUntil = ZonedDateTime(metadata={"description": "placed before"})
    paidFrom = ZonedDateTime(metadata={"description": "paid at or after"})
    paidUntil = ZonedDateTime(metadata={"description": "paid before"})

    @validates_schema
    def _ranges(self, data, **_kwargs):
        for since, until in (("createdFrom", "createdUntil"), ("paidFrom", "paidUntil")):
            if data.get(since) and data.get(until) and data[since] >= data[until]:
                raise ValidationError(N_("The end must be after the start"), until)


class OrderPageQuery(PageQuery, OrderFilterSchema):
    sortField = fields.String(validate=validate.OneOf(ORDER_SORT_FIELDS),
                              metadata={"description": "default gmtCreate (newest first); ties by orderId"})


class PayerSchema(Schema):
    accountId = fields.Integer(required=True)
    userName = fields.String(required=True)
    phone = fields.String(required=True, allow_none=True)
    email = fields.String(required=True, allow_none=True)


class DeskOrderSchema(OrderDetailSchema):
    payer = fields.Nested(PayerSchema, required=True)
    paymentReference = fields.String(required=True, allow_none=True,
                                     metadata={"description": "the provider's id of the payment, from its start"})
    settlementReference = fields.String(required=True, allow_none=True, metadata={
        "description": "the provider's id of the money received (transaction, capture)"})
    handleable = fields.Boolean(required=True, metadata={"description": "manual handling is offered"})
    refundable = fields.Boolean(required=True)


class OrderIdQuery(Schema):
    orderId = fields.Integer(required=True, **ID)


class DeskLineSchema(OrderLineSchema):
    guid = fields.String(required=True, allow_none=True, metadata={"description": "null: deleted since"})
    beforeLevelName = fields.String(required=True, allow_none=True)
    beforeExpireTime = LocalDateTime(required=True, allow_none=True,
                                     metadata={"description": "the device's expiry when the order was placed"})
    afterExpireTime = LocalDateTime(required=True, allow_none=True,
                                    metadata={"description": "what settlement gave it (null: not paid)"})
    recomputed = fields.Boolean(required=True, metadata={
        "description": "the device had changed since the quote: its result was computed anew"})


class OrderEventSchema(Schema):
    at = LocalDateTime(required=True)
    kind = fields.String(required=True, metadata={"enum": [
        "pay", "close", "refund", "partialRefund", "refundRefused", "partialRefundRefused", "refundRequested",
        "refundRejected", "manualHandling"]})
    payStatus = fields.Integer(required=True, metadata={"description": "the state after it"})
    accountId = fields.Integer(required=True, allow_none=True,
                               metadata={"description": "who (null: the provider's notification or a job)"})
    userName = fields.String(required=True, allow_none=True)
    reason = fields.String(required=True, allow_none=True)
    detail = fields.Dict(required=True, allow_none=True, metadata={"description": "what the provider answered"})


class NotificationSchema(Schema):
    provider = fields.String(required=True)
    receivedAt = LocalDateTime(required=True)
    verdict = fields.String(required=True)
    amount = fields.Integer(required=True, allow_none=True, metadata={"description": "cents, as the provider said"})
    body = fields.String(required=True, metadata={"description": "as received (at most 64 KiB)"})


class OrderDossierSchema(DeskOrderSchema):
    lines = fields.List(fields.Nested(DeskLineSchema), required=True)  # type: ignore[assignment]
    invoice = fields.Dict(required=True, allow_none=True, metadata={"description": "the bill as it was placed"})
    history = fields.List(fields.Nested(OrderEventSchema), required=True, metadata={"description": "oldest first"})
    notifications = fields.List(fields.Nested(NotificationSchema), required=True,
                                metadata={"description": "every provider notification about it, oldest first"})
    refunds = fields.List(fields.Nested(lambda: RefundSchema()), required=True,
                          metadata={"description": "every refund asked for, oldest first"})


class HandlingBody(Schema):
    orderId = fields.Integer(required=True, **ID)
    reason = fields.String(required=True, validate=[Length(1, HANDLING_REASON_MAX), validate.Regexp(
        r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$")], metadata={"description": "why (kept in its history)"})


# --- refunds ---------------------------------------------------------------------------------------

REASON = [Length(1, HANDLING_REASON_MAX), validate.Regexp(r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$")]


class RefundPreviewBody(Schema):
    orderId = fields.Integer(required=True, **ID)
    amount = fields.Integer(strict=True, validate=validate.Range(min=1, max=10**12), metadata={
        "description": "cents of the order's currency; by default all that may still be refunded"})


class RefundBody(RefundPreviewBody):
    reason = fields.String(required=True, validate=REASON, metadata={"description": "why (kept with the refund)"})


class RefundDecisionBody(Schema):
    refundId = fields.Integer(required=True, **ID)
    note = fields.String(validate=[Length(0, HANDLING_REASON_MAX), validate.Regexp(TEXT)])


class TakeBackSchema(Schema):
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True, allow_none=True, metadata={"description": "as ordered"})
    levelBefore = fields.String(required=True, allow_none=True, metadata={"description": "the level's name"})
    levelAfter = fields.String(required=True, allow_none=True)
    expireTimeBefore = LocalDateTime(required=True, allow_none=True)
    expireTimeAfter = LocalDateTime(required=True, allow_none=True)
    monthsTaken = fields.Float(required=True, metadata={"description": "months of service taken back"})
    smsTaken = fields.Integer(required=True)
    voiceTaken = fields.Integer(required=True)
    smsUsed = fields.Integer(required=True, metadata={"description": "what could not be taken back: used"})
    voiceUsed = fields.Integer(required=True)
    restored = fields.Boolean(required=True, metadata={"description": "put back as it was before the order"})


class RefundQuoteSchema(Schema):
    orderId = fields.Integer(required=True)
    amount = fields.Integer(required=True, metadata={"description": "cents"})
    refundable = fields.Integer(required=True, metadata={
        "description": "cents that may still be refunded: paid, less refunded and awaiting approval"})
    currency = fields.String(required=True)
    needsApproval = fields.Boolean(required=True, metadata={"description": "above the approval amount: a second "
                                                                           "operator must approve it"})
    takeBacks = fields.List(fields.Nested(TakeBackSchema), required=True)


class RefundSchema(Schema):
    refundId = fields.Integer(required=True)
    orderId = fields.Integer(required=True)
    orderCode = fields.String(required=True)
    refundCode = fields.String(required=True, metadata={"description": "ours, as the provider knows it"})
    amount = fields.Integer(required=True, metadata={"description": "cents"})
    currency = fields.String(required=True)
    reason = fields.String(required=True)
    status = fields.Integer(required=True, metadata={
        "description": "1 awaiting approval, 2 processing, 3 succeeded, 4 failed (refused by the provider: all "
                       "given back), 5 rejected"})
    requestedBy = fields.String(required=True, allow_none=True)
    requestedAt = LocalDateTime(required=True)
    decidedBy = fields.String(required=True, allow_none=True)
    decidedAt = LocalDateTime(required=True, allow_none=True)
    decisionNote = fields.String(required=True, allow_none=True)
    providerReference = fields.String(required=True, allow_none=True)
    error = fields.String(required=True, allow_none=True)
    finishedAt = LocalDateTime(required=True, allow_none=True)
    takeBacks = fields.List(fields.Nested(TakeBackSchema), required=True)
    payStatus = fields.Integer(required=True, metadata={"description": "the order's state now"})
    refundedFee = fields.Integer(required=True, metadata={"description": "cents of the order paid back so far"})
