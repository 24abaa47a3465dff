"""Invoices of paid orders (issue 19) through the API, on SQLite and PostgreSQL, orders paid through
the development gateway:

- alice pays an order and asks for its invoice with her bill (copied: editing it later changes
  nothing); the operator sees the request, overdue once three working days have passed, uploads the
  PDF; alice gets a system message and an e-mail at her bill's address, the order is invoiced, and
  she downloads exactly the bytes uploaded; a stranger gets 404 and the operator's export reads it;
- an order placed with an invoice asks for it by itself when paid; a rejected request tells the
  customer why and lets the order be asked for again; "sent to the mailbox" issues without a PDF;
- customers get 403 on the back office's calls; hostile input (control characters, surrogates,
  huge ids, a non-PDF, an oversize file) a 4xx in the caller's language that changes nothing.
"""

from __future__ import annotations

import threading
from io import BytesIO

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]
from sqlalchemy import select

from adapters.persistence.models import AccountRow, InvoiceRequestRow, OutboxMessageRow, SystemMessageRow
from adapters.persistence.ordering import SqlAlchemyOrderRepository
from core.ordering.errors import OrderAlreadyInInvoice
from core.ordering.invoice_model import INVOICE_ISSUED, INVOICE_REJECTED, MAX_PDF_BYTES
from entrypoints.api.framework import page_of
from entrypoints.api.orders import invoice_schemas as s
from tests.integration.test_recharge_api import ok, pay, refused
from tests.integration.test_unpaid_orders import my_orders, order_for

INV, ORD = "/payment/PayInvoice", "/payment/PayOrder"
PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n"
BILL = {"invoiceType": 2, "billMode": 2, "companyName": "Zhang Cold Store", "taxNumber": "91310000MA1FL0XX",
        "bankDeposit": "ICBC 6222 0000", "billUserName": "Alice Zhang", "billPhone": "13800000001",
        "billMail": "invoices@zhang.example"}


class Console:
    def __init__(self, api, container, clock) -> None:
        self.api, self.container, self.clock = api, container, clock


@pytest.fixture
def console(api, container, clock, recharge_demo) -> Console:
    return Console(api, container, clock)


def bill(console: Console, user: str = "alice", **changes) -> int:
    return ok(console.api.call("POST", "/payment/PayUserBill/insert", token=console.api.token(user),
                               json={**BILL, **changes}))["billId"]


def paid_order(console: Console, user: str = "alice", bill_id: int | None = None) -> dict:
    placed = order_for(console, user=user, bill=bill_id)
    ok(pay(console.api, placed))
    return placed


def apply(console: Console, order_ids: list, bill_id, user: str = "alice", language: str = "en-US"):
    return console.api.call("POST", f"{INV}/applyBatchInvoice", token=console.api.token(user),
                            json={"orderIds": order_ids, "billId": bill_id}, headers={"Accept-Language": language})


def queue(console: Console, user: str = "operator", **query) -> dict:
    return ok(console.api.call("GET", f"{ORD}/selectOrderInvoice", token=console.api.token(user), query=query),
              page_of(s.DeskInvoiceSchema))


def mine(console: Console, user: str = "alice") -> list[dict]:
    return ok(console.api.call("GET", f"{INV}/myInvoices", token=console.api.token(user)),
              page_of(s.MyInvoiceSchema))["data"]


def issue(console: Console, invoice_id, content: bytes = PDF, name: str = "Invoice 0042.pdf",
          user: str = "operator", language: str = "en-US", **form):
    return console.api.client.post(
        f"/api{INV}/issue", content_type="multipart/form-data",
        data={"invoiceId": str(invoice_id), **form, "file": (BytesIO(content), name, "application/pdf")},
        headers={"Authorization": f"Bearer {console.api.token(user)}", "Accept-Language": language})


def download(console: Console, invoice_id, user: str = "alice"):
    return console.api.client.get(f"/api{INV}/download", query_string={"invoiceId": invoice_id},
                                  headers={"Authorization": f"Bearer {console.api.token(user)}"})


def reject(console: Console, invoice_id, reason: str, user: str = "operator", language: str = "en-US"):
    return console.api.call("POST", f"{INV}/reject", token=console.api.token(user),
                            headers={"Accept-Language": language}, json={"invoiceId": invoice_id, "reason": reason})


def requests_stored(console: Console) -> list[tuple[int, int]]:
    with console.container.session_factory()() as session:
        return [(r.id, r.status) for r in session.scalars(select(InvoiceRequestRow).order_by(InvoiceRequestRow.id))]


# --- the whole way -------------------------------------------------------------------------------------------


def test_an_operator_issues_an_invoice_that_alice_downloads(console):
    api, bill_id = console.api, bill(console)
    placed = paid_order(console)
    offered = ok(api.call("GET", f"{INV}/invoiceableOrders", token=api.token("alice")), s.InvoiceableOrderSchema,
                 many=True)
    assert [(o["orderId"], o["amount"], o["currency"]) for o in offered] == [
        (placed["orderId"], placed["totalFee"], "CNY")]

    made = ok(apply(console, [placed["orderId"]], bill_id), s.MyInvoiceSchema)
    assert (made["status"], made["amount"], made["overdue"], made["bill"]["companyName"]) == (
        1, placed["totalFee"], False, "Zhang Cold Store")
    assert ok(api.call("GET", f"{INV}/invoiceableOrders", token=api.token("alice"))) == []
    # her bill edited afterwards: the request keeps the copy it was asked with
    ok(api.call("PUT", "/payment/PayUserBill/update", token=api.token("alice"),
                json={**BILL, "billId": bill_id, "companyName": "Renamed Ltd"}))
    assert mine(console)[0]["bill"]["companyName"] == "Zhang Cold Store"

    [waiting] = queue(console)["data"]
    assert (waiting["invoiceId"], waiting["userName"], waiting["automatic"], waiting["overdue"]) == (
        made["invoiceId"], "alice", False, False)
    assert queue(console, overdue="true")["totalCount"] == 0
    console.clock.advance(days=5)  # three working days have passed, whatever the weekday
    assert [r["invoiceId"] for r in queue(console, overdue="true")["data"]] == [made["invoiceId"]]
    assert queue(console, overdue="false")["totalCount"] == 0

    reply = issue(console, made["invoiceId"], invoiceNumber="No 0042")
    assert reply.status_code == 200, reply.get_json()
    issued = reply.get_json()["data"]
    assert (issued["status"], issued["delivery"], issued["fileName"], issued["decidedBy"], issued["overdue"]) == (
        2, 1, "Invoice 0042.pdf", "operator", False)
    [order] = [o for o in my_orders(console)["data"] if o["orderId"] == placed["orderId"]]
    assert (order["applyFlag"], order["invoiceStatus"]) == (1, 1)

    with console.container.session_factory()() as session:
        [message] = session.scalars(select(SystemMessageRow).where(SystemMessageRow.template == INVOICE_ISSUED)).all()
        [mail] = session.scalars(select(OutboxMessageRow).where(OutboxMessageRow.template == INVOICE_ISSUED)).all()
    assert message.params["orderCode"] == placed["orderCode"] and mail.recipient == "invoices@zhang.example"
    inbox = ok(api.call("POST", "/base/BaseMessage/page", token=api.token("alice"), json={},
                        headers={"Accept-Language": "de-DE"}))["data"]
    assert any(placed["orderCode"] in m["content"] and "Rechnung" in m["content"] for m in inbox)

    got = download(console, made["invoiceId"])
    assert (got.status_code, got.mimetype, got.data) == (200, "application/pdf", PDF)
    assert "Invoice%200042.pdf" in got.headers["Content-Disposition"]
    assert download(console, made["invoiceId"], user="operator").data == PDF
    for stranger in ("acme", "bob"):
        assert download(console, made["invoiceId"], user=stranger).status_code == 404
    refused(api.call("GET", f"{INV}/download", token=api.token("alice"), query={"invoiceId": 999_999}), 404, 404)
    again = issue(console, made["invoiceId"])
    assert (again.status_code, again.get_json()["code"]) == (409, 1144)
    refused(api.call("POST", f"{ORD}/updateInvoice", token=api.token("operator"),
                     json={"invoiceId": made["invoiceId"]}), 409, 1144)


def test_the_export_reads_every_request_with_its_bill_in_the_operator_s_language(console):
    placed = paid_order(console)
    made = ok(apply(console, [placed["orderId"]], bill(console)))
    reply = console.api.client.post(f"/api{ORD}/exportInvoice", json={"status": 1}, headers={
        "Authorization": f"Bearer {console.api.token('operator')}", "Accept-Language": "ru-RU"})
    assert reply.status_code == 200 and reply.mimetype.endswith("spreadsheetml.sheet")
    rows = list(load_workbook(BytesIO(reply.data), read_only=True).active.iter_rows(values_only=True))
    assert rows[0][0] == "Запрос счёта" and len(rows) == 2
    row = rows[1]
    assert (row[0], row[1], row[2], row[3], row[5]) == (made["invoiceId"], "alice", placed["orderCode"],
                                                        placed["totalFee"] / 100, "Запрошен")
    assert "Zhang Cold Store" in row and "91310000MA1FL0XX" in row and "invoices@zhang.example" in row


# --- other ways -------------------------------------------------------------------------------------------------


def test_an_order_placed_with_an_invoice_asks_for_it_when_paid_and_is_sent_to_the_mailbox(console):
    bill_id = bill(console, billMode=1, billMail=None, billAddress="1 Dock Road, Shanghai")
    placed = paid_order(console, bill_id=bill_id)
    [waiting] = queue(console)["data"]
    assert (waiting["automatic"], waiting["orders"][0]["orderId"], waiting["bill"]["billAddress"]) == (
        True, placed["orderId"], "1 Dock Road, Shanghai")
    refused(apply(console, [placed["orderId"]], bill_id), 409, 1143)
    sent = ok(console.api.call("POST", f"{ORD}/updateInvoice", token=console.api.token("operator"),
                               json={"invoiceId": waiting["invoiceId"], "invoiceNumber": "SH-2026-77"}),
              s.DeskInvoiceSchema)
    assert (sent["status"], sent["delivery"], sent["fileName"], sent["invoiceNumber"]) == (2, 2, None, "SH-2026-77")
    assert download(console, waiting["invoiceId"]).status_code == 404  # nothing was uploaded
    with console.container.session_factory()() as session:
        mails = session.scalars(select(OutboxMessageRow.recipient).where(
            OutboxMessageRow.template == "invoice_sent")).all()
    assert mails == ["alice@example.com"]  # a postal bill: the account's own address is told


def test_a_rejected_request_tells_alice_why_and_she_asks_again(console):
    bill_id, placed = bill(console), paid_order(console)
    made = ok(apply(console, [placed["orderId"]], bill_id))
    rejected = ok(reject(console, made["invoiceId"], "The tax number does not match the company name"),
                  s.DeskInvoiceSchema)
    assert (rejected["status"], rejected["rejectReason"]) == (3, "The tax number does not match the company name")
    assert mine(console)[0]["rejectReason"] == rejected["rejectReason"]
    with console.container.session_factory()() as session:
        [message] = session.scalars(select(SystemMessageRow).where(SystemMessageRow.template == INVOICE_REJECTED))
    assert message.params["note"] == rejected["rejectReason"]
    refused(reject(console, made["invoiceId"], "again"), 409, 1144)
    again = ok(apply(console, [placed["orderId"]], bill_id))
    assert again["invoiceId"] != made["invoiceId"]


def test_two_requests_racing_for_one_order_leave_one(console, monkeypatch):
    if console.container.engine().dialect.name != "postgresql":
        pytest.skip("row locks decide the race on PostgreSQL; SQLite serializes every write")
    bill_id, placed = bill(console), paid_order(console)
    with console.container.session_factory()() as session:
        account = session.scalar(select(AccountRow.id).where(AccountRow.user_name == "alice"))
    barrier, real = threading.Barrier(2, timeout=20), SqlAlchemyOrderRepository.lock

    def lock(self, order_id):
        barrier.wait()  # both have read the bill; now both ask for the order's row
        return real(self, order_id)

    monkeypatch.setattr(SqlAlchemyOrderRepository, "lock", lock)
    results: list[object] = [None, None]

    def run(i: int) -> None:
        try:
            results[i] = console.container.request_invoice()(account, [placed["orderId"]], bill_id)
        except Exception as error:  # noqa: BLE001 - the loser's refusal is the result
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(type(r).__name__ for r in results) == ["InvoiceRequest", OrderAlreadyInInvoice.__name__], results
    assert len(requests_stored(console)) == 1


# --- who may, and hostile input ---------------------------------------------------------------------------------


def test_orders_and_bills_of_others_are_unknown_and_unpaid_orders_are_refused(console):
    alice_bill, placed = bill(console), paid_order(console)
    refused(apply(console, [placed["orderId"]], alice_bill, user="acme"), 404, 404)
    refused(apply(console, [placed["orderId"]], bill(console, user="acme")), 404, 404)
    unpaid = order_for(console, guid="RCW360A0000002")
    refused(apply(console, [placed["orderId"], unpaid["orderId"]], alice_bill, language="de-DE"), 409, 1141)
    assert requests_stored(console) == []


@pytest.mark.parametrize("user", ["alice", "acme", "bob"])
def test_customers_reach_none_of_the_back_office_s_calls(console, user):
    placed = paid_order(console)
    made = ok(apply(console, [placed["orderId"]], bill(console)))
    api, token = console.api, console.api.token(user)
    for method, path, kwargs in (("GET", f"{ORD}/selectOrderInvoice", {"query": {}}),
                                 ("POST", f"{ORD}/exportInvoice", {"json": {}}),
                                 ("POST", f"{ORD}/updateInvoice", {"json": {"invoiceId": made["invoiceId"]}}),
                                 ("POST", f"{INV}/reject", {"json": {"invoiceId": made["invoiceId"], "reason": "x"}})):
        assert api.call(method, path, token=token, **kwargs).status == 403, (user, path)
    assert issue(console, made["invoiceId"], user=user).status_code == 403
    assert requests_stored(console) == [(made["invoiceId"], 1)]


@pytest.mark.parametrize("body", [
    {"orderIds": [], "billId": 1}, {"orderIds": [2**63], "billId": 1}, {"orderIds": [10**30], "billId": 1},
    {"orderIds": ["\ud800"], "billId": 1}, {"orderIds": [1] * 101, "billId": 1}, {"orderIds": [1], "billId": -1},
    {"orderIds": [1], "billId": 1, "extra": True}, {"orderIds": "1", "billId": 1},
])
def test_hostile_requests_are_refused_in_the_caller_s_language(console, body):
    reply = console.api.call("POST", f"{INV}/applyBatchInvoice", token=console.api.token("alice"), json=body,
                             headers={"Accept-Language": "zh-CN"})
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert requests_stored(console) == []


def test_hostile_decisions_and_files_are_refused_and_change_nothing(console):
    placed = paid_order(console)
    made = ok(apply(console, [placed["orderId"]], bill(console)))
    invoice_id = made["invoiceId"]
    for reason in ("", "   ", "x" * 201, "a\x07b", "\ud800"):
        assert reject(console, invoice_id, reason).status == 422, reason
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
    not_pdf = issue(console, invoice_id, png, name="invoice.pdf", language="ru-RU")
    assert not_pdf.status_code == 422 and "PDF" in not_pdf.get_json()["errors"]["file"][0]
    assert not_pdf.get_json()["msg"] != "" and "Загрузите" in not_pdf.get_json()["errors"]["file"][0]
    too_big = issue(console, invoice_id, PDF + b"0" * MAX_PDF_BYTES, language="de-DE")
    assert too_big.status_code == 422 and "5 MB" in too_big.get_json()["errors"]["file"][0]
    assert issue(console, invoice_id, PDF + b"0" * (2 * MAX_PDF_BYTES)).status_code == 413
    for form in ({"invoiceNumber": "a\x00b"}, {"invoiceNumber": "x" * 41}):
        assert issue(console, invoice_id, **form).status_code == 422, form
    for invoice in ("99999999999999999999999", "-1", "abc"):
        assert issue(console, invoice).status_code == 422, invoice
    assert issue(console, 999_999).status_code == 404
    for query in ({"overdue": "maybe"}, {"status": 9}, {"account": "\x00"}, {"pageSize": 10_000},
                  {"sortField": "password"}, {"requestedFrom": "2026-05-01T00:00:00Z",
                                              "requestedUntil": "2026-04-01T00:00:00Z"}):
        assert console.api.call("GET", f"{ORD}/selectOrderInvoice", token=console.api.token("operator"),
                                query=query).status == 422, query
    assert requests_stored(console) == [(invoice_id, 1)] and download(console, invoice_id).status_code == 404
