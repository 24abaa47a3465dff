"""The operator's order back office (issue 19, /operation/recharge; spec seed 001 section 7
PayOrder: selectOrderList, exportOrder, selectBackOrderDetail, handlingOrder). Every account's
orders, for whoever holds the page's `order.recharge` permissions (operators of every platform:
the back office is not scoped by platform, as user administration is not)."""

from __future__ import annotations

from datetime import datetime

from flask import stream_with_context
from flask.views import MethodView

from adapters.spreadsheets.workbooks import streamed_listing
from core.ordering import errors as oe
from core.ordering.back_office import LineService, OrderDossier, handleable, refundable
from core.ordering.model import (
    INVOICE_STATUS_NAMES,
    PAY_STATUS_NAMES,
    PAY_TYPE_NAMES,
    DeskOrder,
    InvoiceStatus,
    OrderEvent,
    OrderFilter,
    PayStatus,
)
from core.ordering.payments import NotificationRecord
from core.shared import errors as e
from core.shared.edition import PayType
from core.shared.messages import N_
from entrypoints.api import context
from entrypoints.api.framework import XLSX, ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request, xlsx_download
from entrypoints.api.orders import schemas as s
from entrypoints.api.orders.refunds import refund_row
from entrypoints.api.payment.views import order_detail, order_line

blp = ApiBlueprint("order_desk", __name__, description="Order back office: every account's orders, their export, "
                                                        "detail and manual handling")

PERMISSION = "order.recharge"
NO_ORDER = "no such order"
SHEET_TITLE = N_("Orders")
SHEET_HEADERS = (N_("Order code"), N_("Account"), N_("Phone"), N_("E-mail"), N_("Devices"), N_("Description"),
                 N_("Pay type"), N_("Payment status"), N_("Invoice"), N_("Order fee"), N_("Paid"), N_("Currency"),
                 N_("Coupon"), N_("Created"), N_("Paid at"), N_("Refunded at"), N_("Payment reference"))
_WIDTHS = (24, 18, 16, 24, 36, 28, 14, 14, 14, 12, 12, 10, 14, 18, 18, 18, 32)

_t = context.translated


def _local(moment: datetime | None) -> str:
    return context.local_text(moment, seconds=True)


def _filter(body: dict) -> OrderFilter:
    def of(kind, key):
        return None if body.get(key) is None else kind(body[key])

    return OrderFilter(body.get("orderCode"), body.get("account"), body.get("device"), of(PayType, "payType"),
                       of(PayStatus, "payStatus"), of(InvoiceStatus, "invoiceStatus"), body.get("createdFrom"),
                       body.get("createdUntil"), body.get("paidFrom"), body.get("paidUntil"))


def _row(entry: DeskOrder) -> dict:
    order, payer = entry.order, entry.payer
    return {**order_detail(order),
            "payer": {"accountId": payer.account_id, "userName": payer.user_name, "phone": payer.phone,
                      "email": payer.email},
            "paymentReference": order.payment_reference, "settlementReference": order.settlement_reference,
            "handleable": handleable(order), "refundable": refundable(order)}


def _line(line: LineService) -> dict:
    return {**order_line(line.line, line.level_name), "guid": line.guid, "beforeLevelName": line.before_level_name,
            "beforeExpireTime": line.before_expires_at, "afterExpireTime": line.after_expires_at,
            "recomputed": line.line.recomputed}


def _event(event: OrderEvent) -> dict:
    return {"at": event.at, "kind": event.kind, "payStatus": int(event.status), "accountId": event.actor_account_id,
            "userName": event.actor_name, "reason": event.reason, "detail": event.detail}


def _notification(record: NotificationRecord) -> dict:
    return {"provider": record.provider, "receivedAt": record.received_at, "verdict": record.verdict,
            "amount": record.amount_cents, "body": record.body}


def _dossier(dossier: OrderDossier) -> dict:
    return {**_row(dossier.entry), "invoice": dossier.entry.order.invoice,
            "lines": [_line(line) for line in dossier.lines], "history": [_event(ev) for ev in dossier.history],
            "notifications": [_notification(n) for n in dossier.notifications],
            "refunds": [refund_row(refund, dossier.entry.order) for refund in dossier.refunds]}


@blp.route("/PayOrder/selectOrderList")
class OrderListView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.OrderPageQuery)
    @blp.ok(page_of(s.DeskOrderSchema))
    def post(self, body):
        """Every account's orders, newest first (or by payTime, orderFee, orderCode), by part of
        the code, the payer's user name, phone or e-mail, a device's name or GUID, pay type,
        state, invoice state, and when placed or paid ([from, until))."""
        return page_body(context.container().list_desk_orders()(_filter(body), page_request(body)), _row)


def _sheet_row(entry: DeskOrder) -> list[object]:
    order, payer = entry.order, entry.payer
    return [order.code, payer.user_name, payer.phone or "", payer.email or "",
            ", ".join(line.device_name or str(line.device_id) for line in order.lines), order.description,
            _t(PAY_TYPE_NAMES[order.pay_type]), _t(PAY_STATUS_NAMES[order.status]),
            _t(INVOICE_STATUS_NAMES[order.invoice_status]), order.order_fee_cents / 100,
            "" if order.pay_fee_cents is None else order.pay_fee_cents / 100, order.currency, order.coupon_code or "",
            _local(order.created_at), _local(order.paid_at), _local(order.refunded_at),
            order.settlement_reference or order.payment_reference or ""]


@blp.route("/PayOrder/exportOrder")
class OrderExportView(MethodView):
    @blp.requires(f"{PERMISSION}:export")
    @blp.arguments(s.OrderFilterSchema)
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="every order the filter finds (no limit: read and written a batch at a time, "
                                  "streamed), highest id first; amounts in units of the currency, times in "
                                  "X-Time-Zone, headers and names in the request's language")
    def post(self, body):
        """The list of selectOrderList as an XLSX file."""
        entries = context.container().export_desk_orders()(_filter(body))
        chunks = streamed_listing(_t(SHEET_TITLE), [_t(h) for h in SHEET_HEADERS],
                                  (_sheet_row(entry) for entry in entries), _WIDTHS)
        return xlsx_download(stream_with_context(chunks), "orders.xlsx")


@blp.route("/PayOrder/selectBackOrderDetail")
class OrderDossierView(MethodView):
    @blp.requires(f"{PERMISSION}:detail")
    @blp.arguments(s.OrderIdQuery, location="query")
    @blp.ok(s.OrderDossierSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ORDER)
    def get(self, query):
        """One order whole: who placed it, what each device bought with its service before (as
        quoted) and after (as settled), the provider's references, the coupon, every notification
        its provider sent and every change of its state, when and by whom."""
        dossier = context.container().order_dossier()(query["orderId"], [context.language.get()])
        return _dossier(dossier)


@blp.route("/PayOrder/handlingOrder")
class OrderHandlingView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.HandlingBody)
    @blp.ok(s.DeskOrderSchema, refusals=(e.OrderNotRefundable, *oe.ERRORS))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ORDER)
    def post(self, body):
        """Manual handling: settles an unpaid or closed order whose provider, asked now, says it is
        paid in the order's amount and currency, exactly as its lost notification would have (once:
        a second call is refused with 1114), and records who and why in its history. Refused and
        nothing changed when the provider says unpaid (1131), another amount or currency (1132), or
        cannot be asked (1133); an order paid, refunded or paid by recharge card is refused (1114)."""
        order = context.container().handle_order()(context.caller_id(), body["orderId"], body["reason"])
        return _row(context.container().order_dossier()(order.stored_id, [context.language.get()]).entry)
