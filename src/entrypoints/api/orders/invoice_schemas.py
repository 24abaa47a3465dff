"""Shapes of invoices (issue 19): the customer's requests and the back office's queue."""

from __future__ import annotations

from flask_smorest.fields import Upload
from marshmallow import ValidationError, fields, validate, validates_schema

from core.ordering.invoice_model import (
    INVOICE_NUMBER_MAX,
    MAX_ORDERS_PER_INVOICE,
    MAX_PDF_BYTES,
    REASON_MAX,
    InvoiceRequestStatus,
)
from core.shared.messages import N_
from entrypoints.api.alarms.schemas import ZonedDateTime
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema
from entrypoints.api.payment.schemas import ID

Length = validate.Length
TEXT = r"^[^\x00-\x1f\x7f]*$"  # no control characters
STATUSES = [int(s) for s in InvoiceRequestStatus]
STATUS_TEXT = "1 requested (waiting), 2 issued, 3 rejected"


class ApplyInvoiceBody(Schema):
    orderIds = fields.List(fields.Integer(**ID), required=True,
                           validate=Length(min=1, max=MAX_ORDERS_PER_INVOICE),
                           metadata={"description": "the caller's paid orders, of one currency"})
    billId = fields.Integer(required=True, **ID, metadata={"description": "one of the caller's bills"})


class MyInvoicesQuery(PageQuery):
    status = fields.Integer(validate=validate.OneOf(STATUSES), metadata={"description": STATUS_TEXT})
    sortField = fields.String(validate=validate.OneOf(["requestTime"]),
                              metadata={"description": "newest first whatever is asked"})


class InvoiceIdQuery(Schema):
    invoiceId = fields.Integer(required=True, **ID)


class InvoiceFilterSchema(Schema):
    status = fields.Integer(validate=validate.OneOf(STATUSES), metadata={"description": STATUS_TEXT})
    account = fields.String(validate=[Length(1, 200), validate.Regexp(TEXT)],
                            metadata={"description": "part of the account's user name, phone or e-mail, any case"})
    orderCode = fields.String(validate=[Length(1, 20), validate.Regexp(r"^[0-9A-Za-z]+$")],
                              metadata={"description": "part of the code of one of its orders"})
    overdue = fields.Boolean(metadata={"description": "true: waiting past three working days; false: the others"})
    requestedFrom = ZonedDateTime(metadata={"description": "asked for at or after (ISO 8601; without an offset, in "
                                                           "X-Time-Zone)"})
    requestedUntil = ZonedDateTime(metadata={"description": "asked for before"})

    @validates_schema
    def _range(self, data, **_kwargs):
        if data.get("requestedFrom") and data.get("requestedUntil") and data["requestedFrom"] >= data["requestedUntil"]:
            raise ValidationError(N_("The end must be after the start"), "requestedUntil")


class InvoicePageQuery(PageQuery, InvoiceFilterSchema):
    sortField = fields.String(validate=validate.OneOf(["requestTime", "amount"]),
                              metadata={"description": "default requestTime; ties by invoiceId"})
    sortOrder = fields.String(validate=validate.OneOf(["asc", "desc"]),
                              metadata={"description": "default asc: the oldest waiting first, as a queue"})


INVOICE_NUMBER = fields.String(validate=[Length(1, INVOICE_NUMBER_MAX), validate.Regexp(TEXT)], metadata={
    "description": "the invoice's own number (the tax system's), kept and shown with it"})


class IssueForm(Schema):
    invoiceId = fields.Integer(required=True, **ID)
    invoiceNumber = INVOICE_NUMBER


class IssueFiles(Schema):
    file = Upload(required=True, metadata={
        "maxLength": MAX_PDF_BYTES,
        "description": f"the invoice as a PDF (by its content: it starts with %PDF-) of at most {MAX_PDF_BYTES >> 20} "
                       "MB; anything else is 422 on `file`"})


class MarkInvoicedBody(Schema):
    invoiceId = fields.Integer(required=True, **ID)
    invoiceNumber = INVOICE_NUMBER


class RejectInvoiceBody(Schema):
    invoiceId = fields.Integer(required=True, **ID)
    reason = fields.String(required=True, validate=[Length(1, REASON_MAX), validate.Regexp(
        r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$")], metadata={"description": "why: the customer reads it"})


class InvoicedOrderSchema(Schema):
    orderId = fields.Integer(required=True)
    orderCode = fields.String(required=True)
    amount = fields.Integer(required=True, metadata={"description": "cents invoiced of it: what was still paid"})


class InvoiceBillSchema(Schema):
    """The bill as it was when the invoice was asked for (PayUserBill's fields)."""

    billId = fields.Integer(required=True, allow_none=True, metadata={"description": "the bill it was copied from; "
                                                                                    "it may be changed or gone since"})
    invoiceType = fields.Integer(required=True, metadata={"description": "1 personal, 2 enterprise"})
    billMode = fields.Integer(required=True, metadata={"description": "1 postal address, 2 e-mail (3, 4 postal)"})
    companyName = fields.String(required=True, allow_none=True)
    taxNumber = fields.String(required=True, allow_none=True)
    personalName = fields.String(required=True, allow_none=True)
    bankDeposit = fields.String(required=True, allow_none=True)
    billUserName = fields.String(required=True, allow_none=True)
    billMail = fields.String(required=True, allow_none=True)
    billPhone = fields.String(required=True, allow_none=True)
    billAddress = fields.String(required=True, allow_none=True)


class MyInvoiceSchema(Schema):
    invoiceId = fields.Integer(required=True)
    status = fields.Integer(required=True, metadata={"description": STATUS_TEXT})
    currency = fields.String(required=True)
    amount = fields.Integer(required=True, metadata={"description": "cents: the sum of its orders'"})
    orders = fields.List(fields.Nested(InvoicedOrderSchema), required=True)
    bill = fields.Nested(InvoiceBillSchema, required=True)
    requestTime = LocalDateTime(required=True)
    dueTime = LocalDateTime(required=True, metadata={
        "description": "three working days (Monday to Friday, the edition's time zone, no holidays) after it was "
                       "asked for: the promised time of issue"})
    overdue = fields.Boolean(required=True, metadata={"description": "still waiting at dueTime"})
    decidedTime = LocalDateTime(required=True, allow_none=True, metadata={"description": "when issued or rejected"})
    delivery = fields.Integer(required=True, allow_none=True, metadata={
        "description": "an issued one's: 1 its PDF is here to download, 2 sent to the mailbox (or by post)"})
    invoiceNumber = fields.String(required=True, allow_none=True)
    fileName = fields.String(required=True, allow_none=True, metadata={"description": "its PDF's, to download"})
    fileSize = fields.Integer(required=True, allow_none=True, metadata={"description": "bytes"})
    rejectReason = fields.String(required=True, allow_none=True)


class DeskInvoiceSchema(MyInvoiceSchema):
    accountId = fields.Integer(required=True)
    userName = fields.String(required=True, metadata={"description": "the account's"})
    automatic = fields.Boolean(required=True, metadata={
        "description": "asked for by an order placed with applyFlag, as it was paid (not by a later request)"})
    decidedBy = fields.String(required=True, allow_none=True, metadata={"description": "the operator's user name"})


class InvoiceableOrderSchema(Schema):
    orderId = fields.Integer(required=True)
    orderCode = fields.String(required=True)
    orderDescription = fields.String(required=True)
    payStatus = fields.Integer(required=True, metadata={"description": "2 paid, 5 partially refunded"})
    payTime = LocalDateTime(required=True, allow_none=True)
    currency = fields.String(required=True)
    amount = fields.Integer(required=True, metadata={"description": "cents an invoice would cover: charged less "
                                                                    "refunded"})
