"""Steps of features/ordering/invoices.feature: a customer's invoice requests and the back office's
queue through the HTTP API, on the demo data (the order steps are features/ordering/steps.py's)."""

from __future__ import annotations

from io import BytesIO

from features.ordering.steps import _console, _ok
from pytest_bdd import parsers, then, when
from sqlalchemy import select

from adapters.persistence import models as m

INV, ORD = "/payment/PayInvoice", "/payment/PayOrder"
PDF = b"%PDF-1.7\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n"


def _waiting(console, world, user: str) -> dict:
    """The one request of `user` the back office lists as waiting."""
    page = _ok(console.api.call("GET", f"{ORD}/selectOrderInvoice", token=world["tokens"]["operator"],
                                query={"status": 1}))
    [request] = [r for r in page["data"] if r["userName"] == user]
    return request


@when(parsers.parse("{user} asks for an invoice of the order with her saved details"))
def _asks(api, container, clock, world, user):
    console = _console(world, api, container, clock)
    reply = console.api.call("POST", f"{INV}/applyBatchInvoice", token=world["tokens"][user],
                             json={"orderIds": [world["order"]["orderId"]], "billId": world["bills"][user]})
    world["replies"].append(reply)
    if reply.status == 200:
        world["invoice"] = reply.data


@then(parsers.re(r"the back office sees (?P<user>[a-z]+)'s invoice request of (?P<cents>\d+) cents in "
                 r"(?P<currency>[A-Z]{3}), (?P<late>not overdue|overdue)"))
def _sees(api, container, clock, world, user, cents, currency, late):
    request = _waiting(_console(world, api, container, clock), world, user)
    assert (request["amount"], request["currency"], request["overdue"]) == (int(cents), currency, late == "overdue")
    assert [o["orderId"] for o in request["orders"]] == [world["order"]["orderId"]]
    world["invoice"] = request


@when("the operator issues the invoice with its PDF")
def _issues(api, container, clock, world):
    console = _console(world, api, container, clock)
    reply = console.api.client.post(
        f"/api{INV}/issue", content_type="multipart/form-data",
        data={"invoiceId": str(world["invoice"]["invoiceId"]), "file": (BytesIO(PDF), "invoice.pdf")},
        headers={"Authorization": f"Bearer {world['tokens']['operator']}"})
    assert reply.status_code == 200, reply.get_json()


@when(parsers.parse('the operator rejects the request because "{reason}"'))
def _rejects(api, container, clock, world, reason):
    _ok(_console(world, api, container, clock).api.call("POST", f"{INV}/reject", token=world["tokens"]["operator"],
                                                        json={"invoiceId": world["invoice"]["invoiceId"],
                                                              "reason": reason}))


@then("the order is invoiced")
def _invoiced(api, container, clock, world):
    order = _ok(_console(world, api, container, clock).api.call("POST", f"{ORD}/selectOrderDetail", token=world[
        "tokens"]["alice"], json={"orderId": world["order"]["orderId"]}))
    assert order["invoiceStatus"] == 1


@then(parsers.parse("{user} has a message that her invoice is issued"))
def _message(api, container, clock, world, user):
    messages = _ok(_console(world, api, container, clock).api.call(
        "POST", "/base/BaseMessage/page", token=world["tokens"][user], json={}))["data"]
    assert any(world["order"]["orderCode"] in m["content"] and "issued" in m["content"] for m in messages)


@then(parsers.parse("an e-mail about the issued invoice is queued for {mail}"))
def _mail(api, container, clock, world, mail):
    with _console(world, api, container, clock).container.session_factory()() as session:
        recipients = session.scalars(select(m.OutboxMessageRow.recipient).where(
            m.OutboxMessageRow.template == "invoice_issued")).all()
    assert recipients == [mail]


def _download(console, world, user: str):
    return console.api.client.get(f"/api{INV}/download", query_string={"invoiceId": world["invoice"]["invoiceId"]},
                                  headers={"Authorization": f"Bearer {console.api.token(user)}"})


@then(parsers.parse("{user} downloads exactly the PDF the operator uploaded"))
def _downloads(api, container, clock, world, user):
    reply = _download(_console(world, api, container, clock), world, user)
    assert (reply.status_code, reply.mimetype, reply.data) == (200, "application/pdf", PDF)


@then(parsers.parse("{user} cannot download alice's invoice"))
def _cannot_download(api, container, clock, world, user):
    assert _download(_console(world, api, container, clock), world, user).status_code == 404


@then(parsers.parse('{user} reads that her request was rejected because "{reason}"'))
def _reads_rejection(api, container, clock, world, user, reason):
    [request] = _ok(_console(world, api, container, clock).api.call(
        "GET", f"{INV}/myInvoices", token=world["tokens"][user]))["data"]
    assert (request["status"], request["rejectReason"]) == (3, reason)
