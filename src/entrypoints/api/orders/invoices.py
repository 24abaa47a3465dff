"""Invoices of paid orders (issue 19; spec seed 001 section 7: PayInvoice/applyBatchInvoice, PayOrder
selectOrderInvoice, updateInvoice, exportInvoice).

The customer asks for one invoice on paid orders of theirs in one currency (applyBatchInvoice),
each for what is still paid of it (charged less refunded), with one of their bills, copied into
the request; an order placed with applyFlag and a bill asks for its own as it is paid. They follow
their requests (myInvoices) and download an issued one's PDF (download).

The back office (the order desk's `order.recharge` permissions) lists every request
(selectOrderInvoice: query), the oldest waiting first, those waiting past three working days
marked overdue; issues one by uploading its PDF (PayInvoice/issue) or by recording that it was
sent to the mailbox or by post (updateInvoice), both edit, which makes its orders invoiced and
tells the customer (a system message and an e-mail to the bill's address, or the account's, in
their language); rejects one with a reason the customer reads (PayInvoice/reject: edit), after
which its orders may be asked for again; exports the list (exportInvoice: export) and downloads
any PDF (download: detail)."""

from __future__ import annotations

from flask import stream_with_context
from flask.views import MethodView

from adapters.spreadsheets.workbooks import streamed_listing
from core.ordering import errors as oe
from core.ordering.bills import BillMode, InvoiceType
from core.ordering.invoice_model import (
    DELIVERY_NAMES,
    INVOICE_STATUS_NAMES,
    MAX_PDF_BYTES,
    InvoiceFilter,
    InvoicePolicy,
    InvoiceRequest,
    InvoiceRequestStatus,
)
from core.ordering.model import Order
from core.shared.messages import N_
from core.shared.paging import PageRequest
from entrypoints.api import context
from entrypoints.api.framework import (
    XLSX,
    ApiBlueprint,
    ErrorEnvelope,
    caller_permissions,
    file_download,
    page_body,
    page_of,
    xlsx_download,
)
from entrypoints.api.orders import invoice_schemas as s

blp = ApiBlueprint("order_invoices", __name__, description="Invoices of paid orders: asked for by customers, issued "
                                                            "(PDF or mailbox) or rejected by the back office")

PERMISSION = "order.recharge"
# The upload's body: the PDF and the multipart's own few hundred bytes; more is 413 before it is read.
INVOICE_UPLOAD_BYTES = MAX_PDF_BYTES + 64 * 1024
NOT_FOUND = "no such invoice request, or another account's (the same answer)"
REQUEST_REFUSALS = (oe.OrderNotInvoiceable, oe.InvoiceCurrenciesDiffer, oe.OrderAlreadyInInvoice)
ISSUE_REFUSALS = (oe.InvoiceAlreadyDecided, oe.InvoicedAmountChanged)
NO_ORDER = "an order or a bill that is not the caller's, or does not exist (the same answer)"
SHEET_TITLE = N_("Invoices")
SHEET_HEADERS = (N_("Invoice request"), N_("Account"), N_("Orders"), N_("Amount"), N_("Currency"), N_("Status"),
                 N_("Requested"), N_("Due"), N_("Overdue"), N_("Invoice type"), N_("Company or name"),
                 N_("Tax number"), N_("Bank and account"), N_("Delivery"), N_("Recipient"), N_("E-mail"), N_("Phone"),
                 N_("Address"), N_("Issued or rejected"), N_("By"), N_("Invoice number"), N_("Issued as"),
                 N_("Reason"))
_WIDTHS = (10, 18, 28, 12, 10, 12, 18, 18, 10, 14, 28, 22, 28, 12, 16, 26, 16, 30, 18, 14, 20, 18, 30)
_t = context.translated


def _policy() -> InvoicePolicy:
    return context.container().invoice_policy()


def _bill(bill: dict) -> dict:
    return {name: bill.get(name) for name in s.InvoiceBillSchema().fields}


def _mine(request: InvoiceRequest) -> dict:
    """A request as its customer reads it."""
    policy, now = _policy(), context.container().clock().now()
    rejected = request.status is InvoiceRequestStatus.REJECTED
    return {"invoiceId": request.id, "status": int(request.status), "currency": request.currency,
            "amount": request.amount_cents,
            "orders": [{"orderId": o.order_id, "orderCode": o.order_code, "amount": o.amount_cents}
                       for o in request.orders],
            "bill": _bill(request.bill), "requestTime": request.requested_at,
            "dueTime": policy.due(request.requested_at), "overdue": policy.overdue(request, now),
            "decidedTime": request.decided_at, "delivery": int(request.delivery) if request.delivery else None,
            "invoiceNumber": request.invoice_number, "fileName": request.file.name if request.file else None,
            "fileSize": request.file.size if request.file else None,
            "rejectReason": request.decision_note if rejected else None}


def _desk(request: InvoiceRequest) -> dict:
    return {**_mine(request), "accountId": request.account_id, "userName": request.account_name or "",
            "automatic": request.requested_by is None, "decidedBy": request.decider_name}


def _invoiceable(order: Order) -> dict:
    return {"orderId": order.id, "orderCode": order.code, "orderDescription": order.description,
            "payStatus": int(order.status), "payTime": order.paid_at, "currency": order.currency,
            "amount": order.charged_cents - order.refunded_cents}


def _filter(query: dict) -> InvoiceFilter:
    status = query.get("status")
    return InvoiceFilter(InvoiceRequestStatus(status) if status else None, query.get("account"),
                         query.get("orderCode"), query.get("overdue"), query.get("requestedFrom"),
                         query.get("requestedUntil"))


# --- the customer ------------------------------------------------------------------------------------


@blp.route("/PayInvoice/applyBatchInvoice")
class ApplyInvoiceView(MethodView):
    @blp.arguments(s.ApplyInvoiceBody)
    @blp.ok(s.MyInvoiceSchema, refusals=REQUEST_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ORDER)
    def post(self, body):
        """Asks for one invoice on paid orders of the caller's, of one currency, with one of their
        bills (copied into the request: changing or deleting the bill later changes nothing). Each
        order is invoiced for what is still paid of it (charged less refunded). Refused: an order
        unpaid, closed or refunded whole (1141), orders of two currencies (1142), an order already
        in a request that is waiting or issued (1143: a rejected one lets it go). Promised within
        three working days (dueTime)."""
        request = context.container().request_invoice()(context.caller_id(), body["orderIds"], body["billId"])
        return _mine(request)


@blp.route("/PayInvoice/invoiceableOrders")
class InvoiceableOrdersView(MethodView):
    @blp.ok(s.InvoiceableOrderSchema, many=True)
    def get(self):
        """The caller's orders an invoice may be asked for now: paid (or partially refunded) with
        something still paid, in no waiting or issued request; most recently paid first, at most 200."""
        return [_invoiceable(o) for o in context.container().customer_invoices().invoiceable(context.caller_id())]


@blp.route("/PayInvoice/myInvoices")
class MyInvoicesView(MethodView):
    @blp.arguments(s.MyInvoicesQuery, location="query")
    @blp.ok(page_of(s.MyInvoiceSchema))
    def get(self, query):
        """The caller's invoice requests, newest first: waiting (with when it is due), issued (with
        its PDF to download, or sent to the mailbox) or rejected (with the reason)."""
        status = InvoiceRequestStatus(query["status"]) if query.get("status") else None
        page = context.container().customer_invoices().page(context.caller_id(), status,
                                                            PageRequest(query["start"], query["pageSize"]))
        return page_body(page, _mine)


@blp.route("/PayInvoice/download")
class InvoiceDownloadView(MethodView):
    @blp.arguments(s.InvoiceIdQuery, location="query")
    @blp.alt_response(200, success=True, content_type="application/pdf",
                      schema={"type": "string", "format": "binary"}, description="the PDF as uploaded, byte for byte")
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_FOUND}, or one without a PDF")
    def get(self, query):
        """An issued invoice's PDF, for the account that asked for it and for the back office
        (`order.recharge:detail`); anybody else gets 404, as for an unknown id."""
        operator = f"{PERMISSION}:detail" in caller_permissions()
        file = context.container().invoice_pdf()(query["invoiceId"], context.caller_id(), operator)
        return file_download(file.content, "application/pdf", file.name)


# --- the back office ---------------------------------------------------------------------------------


@blp.route("/PayOrder/selectOrderInvoice")
class InvoiceQueueView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.InvoicePageQuery, location="query")
    @blp.ok(page_of(s.DeskInvoiceSchema))
    def get(self, query):
        """Every account's invoice requests, the oldest first (sortOrder desc: the newest), by
        status, part of the account's name, phone or e-mail, part of an order's code, overdue
        (waiting three working days or more: Monday to Friday in the edition's time zone, no
        holiday calendar) and when asked for ([from, until))."""
        request = PageRequest(query["start"], query["pageSize"], query.get("sortField"), query.get("sortOrder", "asc"))
        return page_body(context.container().invoice_desk().page(_filter(query), request), _desk)


@blp.route("/PayInvoice/issue")
class InvoiceIssueView(MethodView):
    @blp.accepts_body(INVOICE_UPLOAD_BYTES)
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.IssueFiles, location="files")
    @blp.arguments(s.IssueForm, location="form")
    @blp.ok(s.DeskInvoiceSchema, refusals=ISSUE_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def post(self, files, form):
        """Issues a waiting request with its PDF (multipart: `file`, `invoiceId`, `invoiceNumber`):
        the customer downloads it. Its orders become invoiced (invoiceStatus 1), and the customer is
        told (system message, and an e-mail to the bill's address in e-mail mode, else the
        account's, in their language). Refused: not a PDF or over 5 MB (422 on `file`; a body over
        the upload's limit is 413), decided already (1144), an order refunded since it was asked
        for (1145: reject it, and the customer asks again)."""
        upload = files["file"]
        content = upload.stream.read(MAX_PDF_BYTES + 1)
        request = context.container().issue_invoice()(context.caller_id(), form["invoiceId"], content,
                                                      file_name=upload.filename,
                                                      invoice_number=form.get("invoiceNumber"))
        return _desk(request)


@blp.route("/PayOrder/updateInvoice")
class InvoiceSentView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.MarkInvoicedBody)
    @blp.ok(s.DeskInvoiceSchema, refusals=ISSUE_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def post(self, body):
        """Marks a waiting request invoiced without a PDF here: its invoice was sent to the bill's
        mailbox (or by post). As issuing, its orders become invoiced and the customer is told;
        the same refusals (1144, 1145)."""
        request = context.container().issue_invoice()(context.caller_id(), body["invoiceId"], None,
                                                      invoice_number=body.get("invoiceNumber"))
        return _desk(request)


@blp.route("/PayInvoice/reject")
class InvoiceRejectView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.RejectInvoiceBody)
    @blp.ok(s.DeskInvoiceSchema, refusals=(oe.InvoiceAlreadyDecided,))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def post(self, body):
        """Rejects a waiting request with a reason (the customer reads it, in a system message
        too); its orders may be asked for again. Decided already: 1144."""
        return _desk(context.container().reject_invoice()(context.caller_id(), body["invoiceId"], body["reason"]))


def _sheet_row(request: InvoiceRequest) -> list[object]:
    policy, bill = _policy(), request.bill
    enterprise = bill.get("invoiceType") == int(InvoiceType.ENTERPRISE)
    by_mail = bill.get("billMode") == int(BillMode.EMAIL)
    issued = request.status is InvoiceRequestStatus.ISSUED
    return [request.id, request.account_name or "", request.order_codes, request.amount_cents / 100, request.currency,
            _t(INVOICE_STATUS_NAMES[request.status]), context.local_text(request.requested_at),
            context.local_text(policy.due(request.requested_at)),
            _t(N_("Yes")) if policy.overdue(request, context.container().clock().now()) else "",
            _t(N_("Enterprise") if enterprise else N_("Personal")),
            (bill.get("companyName") if enterprise else bill.get("personalName")) or "",
            bill.get("taxNumber") or "", bill.get("bankDeposit") or "",
            _t(N_("E-mail") if by_mail else N_("Post")), bill.get("billUserName") or "", bill.get("billMail") or "",
            bill.get("billPhone") or "", bill.get("billAddress") or "", context.local_text(request.decided_at),
            request.decider_name or "", request.invoice_number or "",
            _t(DELIVERY_NAMES[request.delivery]) if issued and request.delivery else "",
            request.decision_note or ""]


@blp.route("/PayOrder/exportInvoice")
class InvoiceExportView(MethodView):
    @blp.requires(f"{PERMISSION}:export")
    @blp.arguments(s.InvoiceFilterSchema)
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="every request the filter finds (no limit: read a batch at a time, streamed), "
                                  "highest id first, with its bill; amounts in units of the currency, times in "
                                  "X-Time-Zone, headers and names in the request's language")
    def post(self, body):
        """The list of selectOrderInvoice as an XLSX file."""
        requests = context.container().invoice_desk().export(_filter(body))
        chunks = streamed_listing(_t(SHEET_TITLE), [_t(h) for h in SHEET_HEADERS],
                                  (_sheet_row(r) for r in requests), _WIDTHS)
        return xlsx_download(stream_with_context(chunks), "invoices.xlsx")
