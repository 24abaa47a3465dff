"""Invoices on fakes, in milliseconds: working days and the overdue rule, a request on paid orders
with the bill copied, the refusals (unpaid, another's, two currencies, covered twice), the
invoice an order placed with applyFlag asks for as it is paid, issuing (PDF or mailbox: orders
invoiced, the customer told by message and e-mail) and rejecting (orders free again). The API,
SQLite and PostgreSQL are in tests/integration/test_invoices_api.py."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.inbox.model import MessageKind, Recipient
from core.notifications.model import Channel
from core.ordering.bills import Bill, BillMode, InvoiceType
from core.ordering.commands import CreateServiceOrder
from core.ordering.errors import (
    InvoiceAlreadyDecided,
    InvoiceCurrenciesDiffer,
    InvoicedAmountChanged,
    OrderAlreadyInInvoice,
    OrderNotInvoiceable,
)
from core.ordering.invoice_model import (
    INVOICE_ISSUED,
    INVOICE_REJECTED,
    INVOICE_SENT,
    MAX_PDF_BYTES,
    Delivery,
    InvoiceFilter,
    InvoicePolicy,
    InvoiceRequestStatus,
    add_working_days,
    subtract_working_days,
)
from core.ordering.invoices import (
    CustomerInvoices,
    InvoiceDesk,
    InvoicePdf,
    IssueInvoice,
    RejectInvoice,
    RequestInvoice,
)
from core.ordering.model import InvoiceStatus
from core.shared.edition import PayType
from core.shared.errors import InvalidInput, NotFound
from core.shared.paging import PageRequest
from tests.unit.test_ordering_use_cases import OPERATOR, OWNER, STANDARD, STRANGER, YEAR, Shop

SHANGHAI = ZoneInfo("Asia/Shanghai")
PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"


def at(text: str) -> datetime:
    """A local time in Shanghai, as an instant."""
    return datetime.fromisoformat(text).replace(tzinfo=SHANGHAI).astimezone(UTC)


# --- working days -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("requested", "due"), [
    ("2026-06-02 10:00", "2026-06-05 10:00"),  # Tuesday -> Friday
    ("2026-06-05 15:00", "2026-06-10 15:00"),  # Friday -> Wednesday: the weekend does not count
    ("2026-06-06 11:00", "2026-06-11 00:00"),  # Saturday -> the end of Wednesday
    ("2026-06-03 00:00", "2026-06-06 00:00"),  # Wednesday midnight -> the end of Friday
])
def test_an_invoice_is_due_three_working_days_after_it_was_asked_for(requested, due):
    assert add_working_days(at(requested), 3, SHANGHAI) == at(due)


def test_the_working_week_is_the_edition_s_own():
    # Friday 20:00 UTC is Saturday 04:00 in Shanghai: the Shanghai weekend has begun
    friday_evening = datetime(2026, 6, 5, 20, tzinfo=UTC)
    assert add_working_days(friday_evening, 3, ZoneInfo("UTC")) == datetime(2026, 6, 10, 20, tzinfo=UTC)
    assert add_working_days(friday_evening, 3, SHANGHAI) == at("2026-06-11 00:00")


@given(st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1)),
       st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1)))
def test_overdue_by_the_due_time_and_by_the_cutoff_say_the_same(requested, now):
    requested, now = requested.replace(tzinfo=UTC), now.replace(tzinfo=UTC)
    assert (now >= add_working_days(requested, 3, SHANGHAI)) == (requested <= subtract_working_days(now, 3, SHANGHAI))


# --- asking for one -----------------------------------------------------------------------------------


class Invoicing(Shop):
    """The shop with a bill of the customer's and the invoice use cases."""

    def __init__(self, mode: BillMode = BillMode.EMAIL) -> None:
        super().__init__()
        self.uow.inbox.recipients[OWNER] = Recipient("13800000001", "owner@example.com", "de-DE")
        self.bill = self.uow.bills.add(Bill(None, OWNER, InvoiceType.ENTERPRISE, mode, "Li Lei", "13800000001",
                                            company_name="Acme Cold Chain", tax_number="91310000MA1FL0XX",
                                            bank_deposit="ICBC 6222", bill_mail="tax@acme.example",
                                            bill_address="1 Dock Road"))
        self.ask = RequestInvoice(self.uow, self.clock)
        self.issue = IssueInvoice(self.uow, self.clock)
        self.reject = RejectInvoice(self.uow, self.clock)
        self.pdf = InvoicePdf(self.uow)
        self.desk = InvoiceDesk(self.uow, InvoicePolicy("Asia/Shanghai"), self.clock)

    def paid(self, **placed) -> int:
        order = self.place(CreateServiceOrder(OWNER, (self.device_id,), STANDARD.id, YEAR.id, STANDARD.package_id,
                                              PayType.WECHAT, YEAR.service_fee_cents, 10000, **placed))
        self.pay(order)
        return order.order_id


def test_a_customer_asks_for_an_invoice_of_a_paid_order_with_a_copy_of_the_bill():
    shop = Invoicing()
    order_id = shop.paid()
    request = shop.ask(OWNER, [order_id, order_id], shop.bill.stored_id)
    assert (request.status, request.amount_cents, request.currency, request.requested_by) == (
        InvoiceRequestStatus.REQUESTED, 10000, "CNY", OWNER)
    assert [(o.order_id, o.amount_cents) for o in request.orders] == [(order_id, 10000)]
    assert request.bill["companyName"] == "Acme Cold Chain" and request.bill["billId"] == shop.bill.id
    assert shop.uow.orders.rows[order_id].apply_flag  # an invoice is wanted
    shop.uow.bills.update(replace(shop.bill, company_name="Renamed"))
    assert shop.uow.invoices.get(request.stored_id).bill["companyName"] == "Acme Cold Chain"


def test_a_partially_refunded_order_is_invoiced_for_what_is_still_paid():
    shop = Invoicing()
    order_id = shop.paid()
    shop.refund(order_id, 2500)
    request = shop.ask(OWNER, [order_id], shop.bill.stored_id)
    assert request.amount_cents == 7500


def test_only_the_customer_s_paid_orders_of_one_currency_not_yet_covered_are_invoiced():
    shop = Invoicing()
    paid, unpaid = shop.paid(), shop.order().order_id
    with pytest.raises(OrderNotInvoiceable):
        shop.ask(OWNER, [paid, unpaid], shop.bill.stored_id)
    with pytest.raises(NotFound):  # another's bill, or another's order: as if unknown
        shop.ask(STRANGER, [paid], shop.bill.stored_id)
    with pytest.raises(NotFound):
        shop.ask(OWNER, [paid, 999], shop.bill.stored_id)
    with pytest.raises(InvalidInput):
        shop.ask(OWNER, [], shop.bill.stored_id)
    dollars = shop.paid()
    shop.uow.orders.rows[dollars] = replace(shop.uow.orders.rows[dollars], currency="USD")
    with pytest.raises(InvoiceCurrenciesDiffer):
        shop.ask(OWNER, [paid, dollars], shop.bill.stored_id)
    shop.ask(OWNER, [paid], shop.bill.stored_id)
    with pytest.raises(OrderAlreadyInInvoice):
        shop.ask(OWNER, [paid], shop.bill.stored_id)
    assert [o.stored_id for o in CustomerInvoices(shop.uow).invoiceable(OWNER)] == [dollars]


def test_an_order_placed_with_an_invoice_asks_for_it_once_when_it_is_paid():
    shop = Invoicing()
    placed = shop.place(CreateServiceOrder(OWNER, (shop.device_id,), STANDARD.id, YEAR.id, STANDARD.package_id,
                                           PayType.WECHAT, YEAR.service_fee_cents, 10000, apply_flag=True,
                                           bill_id=shop.bill.stored_id))
    assert shop.uow.invoices.rows == {}  # unpaid: nothing to invoice yet
    shop.pay(placed)
    shop.pay(placed)  # a repeated notification
    [request] = shop.uow.invoices.rows.values()
    assert (request.requested_by, request.amount_cents, request.bill["taxNumber"]) == (None, 10000,
                                                                                        "91310000MA1FL0XX")
    with pytest.raises(OrderAlreadyInInvoice):
        shop.ask(OWNER, [placed.order_id], shop.bill.stored_id)


# --- issuing and rejecting ----------------------------------------------------------------------------


def test_issuing_with_a_pdf_invoices_the_orders_and_tells_the_customer_by_message_and_at_the_bill_s_mailbox():
    shop = Invoicing()
    order_id = shop.paid()
    request = shop.ask(OWNER, [order_id], shop.bill.stored_id)
    shop.uow.inbox.set_channels(OWNER, {MessageKind.PAYMENT: frozenset()})  # e-mail copies off: delivered anyway
    issued = shop.issue(OPERATOR, request.stored_id, PDF, file_name="../Rechnung 7.pdf", invoice_number="No 0042")
    assert (issued.status, issued.delivery, issued.decided_by, issued.invoice_number) == (
        InvoiceRequestStatus.ISSUED, Delivery.PDF, OPERATOR, "No 0042")
    assert issued.file is not None and (issued.file.name, issued.file.size) == ("..Rechnung 7.pdf", len(PDF))
    assert shop.uow.orders.rows[order_id].invoice_status is InvoiceStatus.INVOICED
    message = shop.uow.inbox.rows[-1]
    assert (message.template, message.params["amount"], message.params["currency"]) == (INVOICE_ISSUED, "100.00",
                                                                                       "CNY")
    [mail] = [m for m in shop.uow.outbox.rows if m.template == INVOICE_ISSUED]
    assert (mail.channel, mail.recipient, mail.language) == (Channel.EMAIL, "tax@acme.example", "de-DE")
    assert shop.pdf(request.stored_id, OWNER, operator=False).content == PDF
    assert shop.pdf(request.stored_id, STRANGER, operator=True).content == PDF
    with pytest.raises(NotFound):
        shop.pdf(request.stored_id, STRANGER, operator=False)
    with pytest.raises(InvoiceAlreadyDecided):
        shop.issue(OPERATOR, request.stored_id, None)


def test_an_invoice_sent_to_the_mailbox_of_a_postal_bill_tells_the_account_s_own_address():
    shop = Invoicing(BillMode.ADDRESS)
    request = shop.ask(OWNER, [shop.paid()], shop.bill.stored_id)
    sent = shop.issue(OPERATOR, request.stored_id, None)
    assert (sent.delivery, sent.file) == (Delivery.MAILBOX, None)
    [mail] = [m for m in shop.uow.outbox.rows if m.template == INVOICE_SENT]
    assert mail.recipient == "owner@example.com"
    with pytest.raises(NotFound):
        shop.pdf(request.stored_id, OWNER, operator=False)


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 a zip", b"<html>%PDF-</html>", PDF + b"x" * MAX_PDF_BYTES])
def test_only_a_pdf_of_at_most_five_megabytes_issues_an_invoice(content):
    shop = Invoicing()
    request = shop.ask(OWNER, [shop.paid()], shop.bill.stored_id)
    with pytest.raises(InvalidInput) as refused:
        shop.issue(OPERATOR, request.stored_id, content)
    assert refused.value.field == "file"
    assert shop.uow.invoices.get(request.stored_id).status is InvoiceRequestStatus.REQUESTED


def test_an_order_refunded_after_the_request_stops_its_invoice_until_asked_again():
    shop = Invoicing()
    order_id = shop.paid()
    request = shop.ask(OWNER, [order_id], shop.bill.stored_id)
    shop.refund(order_id, 1000)
    with pytest.raises(InvoicedAmountChanged):
        shop.issue(OPERATOR, request.stored_id, PDF)
    assert shop.uow.orders.rows[order_id].invoice_status is InvoiceStatus.NOT_INVOICED


def test_a_rejected_request_tells_the_customer_why_and_frees_its_orders():
    shop = Invoicing()
    order_id = shop.paid()
    request = shop.ask(OWNER, [order_id], shop.bill.stored_id)
    with pytest.raises(InvalidInput):
        shop.reject(OPERATOR, request.stored_id, "   ")
    rejected = shop.reject(OPERATOR, request.stored_id, " The tax number does not match the company ")
    assert (rejected.status, rejected.decision_note) == (InvoiceRequestStatus.REJECTED,
                                                         "The tax number does not match the company")
    message = shop.uow.inbox.rows[-1]
    assert (message.template, message.params["note"]) == (INVOICE_REJECTED, rejected.decision_note)
    assert not shop.uow.orders.rows[order_id].apply_flag
    with pytest.raises(InvoiceAlreadyDecided):
        shop.issue(OPERATOR, request.stored_id, PDF)
    again = shop.ask(OWNER, [order_id], shop.bill.stored_id)
    assert again.stored_id != request.stored_id


def test_the_desk_finds_the_requests_overdue_after_three_working_days():
    shop = Invoicing()
    shop.clock.advance(days=1)  # Monday 1 June 2026, 20:00 in Shanghai
    request = shop.ask(OWNER, [shop.paid()], shop.bill.stored_id)
    overdue = InvoiceFilter(overdue=True)
    assert shop.desk.page(overdue, PageRequest()).total_count == 0
    shop.clock.advance(days=2, hours=23)  # Thursday 19:00: not yet
    assert shop.desk.page(overdue, PageRequest()).total_count == 0
    shop.clock.advance(hours=1)
    assert [r.stored_id for r in shop.desk.page(overdue, PageRequest()).items] == [request.stored_id]
    assert InvoicePolicy("Asia/Shanghai").overdue(request, shop.clock.now())
    shop.issue(OPERATOR, request.stored_id, PDF)
    assert shop.desk.page(overdue, PageRequest()).total_count == 0
    assert [r.stored_id for r in shop.desk.export(InvoiceFilter(status=InvoiceRequestStatus.ISSUED))] == [
        request.stored_id]

