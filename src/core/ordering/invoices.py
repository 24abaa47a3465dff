"""Invoices of paid orders (issue 19; spec seed 001 section 7 PayInvoice/applyBatchInvoice, PayOrder
selectOrderInvoice, updateInvoice, exportInvoice): the customer asks for one on paid orders with a
saved bill, or an order placed with applyFlag asks for one itself when it is paid; the back office
issues it (uploads the PDF, or records that it was sent to the mailbox) or rejects it with a
reason; the customer is told either way, and downloads the PDF.

Issuing is invoicing: the request's orders become invoiced (InvoiceStatus.INVOICED) in the
transaction that issues it, whether its PDF was uploaded (issue) or it was sent outside the
console (updateInvoice). A rejection frees the orders, which may be asked for again.

Every decision is one conditional write (requested -> issued or rejected), so a request is decided
once however many operators try; a request locks its orders first, so two requests racing for an
order queue and the second finds it covered (and a unique index on the covered orders stands
behind that).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from datetime import datetime

from core.inbox.model import MessageKind, SystemMessage
from core.inbox.posting import post
from core.ordering.bills import BillMode
from core.ordering.errors import (
    InvoiceAlreadyDecided,
    InvoiceCurrenciesDiffer,
    InvoicedAmountChanged,
    OrderAlreadyInInvoice,
    OrderNotInvoiceable,
)
from core.ordering.invoice_model import (
    FILE_NAME_MAX,
    INVOICE_ISSUED,
    INVOICE_REJECTED,
    INVOICE_SENT,
    MAX_ORDERS_PER_INVOICE,
    MAX_PDF_BYTES,
    PDF_SIGNATURE,
    REASON_MAX,
    Delivery,
    InvoicedOrder,
    InvoiceFile,
    InvoiceFilter,
    InvoicePolicy,
    InvoiceRequest,
    InvoiceRequestStatus,
    exact_amount,
    invoiceable_cents,
)
from core.ordering.model import Order
from core.ordering.ports import OrderingUnitOfWork
from core.shared.clock import Clock
from core.shared.errors import InvalidInput, NotFound
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest

EXPORT_BATCH = 500
MAX_INVOICEABLE = 200


def open_for_paid_order(uow: OrderingUnitOfWork, order: Order, paid_cents: int, now: datetime) -> None:
    """In the settling transaction: an order placed with applyFlag and a bill asks for its invoice
    as it is paid, with the bill it was placed with. Settlement happens once (a conditional write),
    so this does too."""
    if not order.apply_flag or not order.invoice or paid_cents <= 0 or uow.invoices.covering([order.stored_id]):
        return
    uow.invoices.add(InvoiceRequest(None, order.account_id, order.currency, paid_cents, dict(order.invoice),
                                    InvoiceRequestStatus.REQUESTED, now,
                                    (InvoicedOrder(order.stored_id, order.code, paid_cents),)))


def _order_ids(order_ids: Sequence[int]) -> list[int]:
    unique = sorted(set(order_ids))  # locked in id order: two requests never wait on each other
    if not unique:
        raise InvalidInput("orderIds", N_("Choose at least one paid order"))
    if len(unique) > MAX_ORDERS_PER_INVOICE:
        raise InvalidInput("orderIds", N_("At most {max} orders in one invoice"), max=MAX_ORDERS_PER_INVOICE)
    return unique


class RequestInvoice:
    """A customer asks for one invoice on paid orders of theirs in one currency, with one of their
    bills; each order for what is still paid of it."""

    def __init__(self, uow: OrderingUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, order_ids: Sequence[int], bill_id: int) -> InvoiceRequest:
        ids = _order_ids(order_ids)
        now = self._clock.now()
        with self._uow as uow:
            bill = uow.bills.get(account_id, bill_id)
            if bill is None:
                raise NotFound()
            orders = [uow.orders.lock(order_id) for order_id in ids]
            mine = [order for order in orders if order is not None and order.account_id == account_id]
            if len(mine) != len(ids):
                raise NotFound()  # another account's order is answered as one that does not exist
            covered = uow.invoices.covering(ids)
            for order in mine:
                if invoiceable_cents(order) <= 0:
                    raise OrderNotInvoiceable(orderCode=order.code)
                if order.stored_id in covered:
                    raise OrderAlreadyInInvoice(orderCode=order.code)
            if len({order.currency for order in mine}) > 1:
                raise InvoiceCurrenciesDiffer()
            lines = tuple(InvoicedOrder(o.stored_id, o.code, invoiceable_cents(o)) for o in mine)
            request = uow.invoices.add(InvoiceRequest(
                None, account_id, mine[0].currency, sum(line.amount_cents for line in lines), bill.snapshot(),
                InvoiceRequestStatus.REQUESTED, now, lines, requested_by=account_id))
            uow.orders.set_invoice_wanted(ids, True)
            uow.commit()
            stored = uow.invoices.get(request.stored_id)
        assert stored is not None
        return stored


def checked_pdf(content: bytes) -> bytes:
    """An invoice's file: a PDF (by its first bytes, whatever its name says) of at most MAX_PDF_BYTES."""
    if len(content) > MAX_PDF_BYTES:
        raise InvalidInput("file", N_("At most {max} MB"), max=MAX_PDF_BYTES >> 20)
    if not content.startswith(PDF_SIGNATURE):
        raise InvalidInput("file", N_("Upload the invoice as a PDF file"))
    return content


def _file_name(name: str | None, request: InvoiceRequest) -> str:
    """The name the PDF is downloaded under: the uploaded file's, cleaned, else one of its own."""
    cleaned = "".join(c for c in (name or "") if c.isprintable() and c not in '\\/:*?"<>|').strip()
    if not cleaned.lower().endswith(".pdf"):
        cleaned = f"invoice-{request.stored_id}.pdf"
    return cleaned[-FILE_NAME_MAX:]


def _mailbox(request: InvoiceRequest) -> str | None:
    """The bill's e-mail address, where its mode is e-mail (the account's own otherwise)."""
    mail = request.bill.get("billMail")
    return mail if request.bill.get("billMode") == int(BillMode.EMAIL) and isinstance(mail, str) and mail else None


def _params(request: InvoiceRequest, **more: str) -> dict[str, str]:
    return {"orderCode": request.order_codes, "amount": exact_amount(request.amount_cents),
            "currency": request.currency, **more}


class IssueInvoice:
    """An operator issues a waiting request: with its PDF (`content`), which the customer downloads,
    or (None) recording that it was sent outside the console, to the bill's mailbox or address.
    Its orders become invoiced; the customer gets a system message and an e-mail (to the bill's
    address in e-mail mode, else the account's), in their language. Refused when an order was
    refunded since the request: the invoice would state more than is paid."""

    def __init__(self, uow: OrderingUnitOfWork, clock: Clock, default_language: str = "en-US") -> None:
        self._uow, self._clock, self._language = uow, clock, default_language

    def __call__(self, operator_id: int, invoice_id: int, content: bytes | None, *, file_name: str | None = None,
                 invoice_number: str | None = None) -> InvoiceRequest:
        pdf = None if content is None else checked_pdf(content)
        number = (invoice_number or "").strip() or None
        now = self._clock.now()
        with self._uow as uow:
            request = uow.invoices.get(invoice_id)
            if request is None:
                raise NotFound()
            if request.status is not InvoiceRequestStatus.REQUESTED:
                raise InvoiceAlreadyDecided()
            for line in request.orders:
                order = uow.orders.lock(line.order_id)
                if order is None or invoiceable_cents(order) < line.amount_cents:
                    raise InvoicedAmountChanged(orderCode=line.order_code)
            delivery = Delivery.MAILBOX if pdf is None else Delivery.PDF
            if not uow.invoices.decide(invoice_id, InvoiceRequestStatus.ISSUED, operator_id, now, delivery=delivery,
                                       invoice_number=number):
                raise InvoiceAlreadyDecided()
            if pdf is not None:
                uow.invoices.attach(invoice_id, InvoiceFile(_file_name(file_name, request), len(pdf),
                                                            hashlib.sha256(pdf).hexdigest(), pdf), now)
            uow.orders.mark_invoiced([line.order_id for line in request.orders])
            template = INVOICE_ISSUED if pdf is not None else INVOICE_SENT
            post(uow, SystemMessage(request.account_id, MessageKind.PAYMENT, template, _params(request), now),
                 self._language, delivery=True, email_to=_mailbox(request))
            uow.commit()
            issued = uow.invoices.get(invoice_id)
        assert issued is not None
        return issued


class RejectInvoice:
    """An operator rejects a waiting request, saying why; its orders may be asked for again, and
    the customer is told with the reason."""

    def __init__(self, uow: OrderingUnitOfWork, clock: Clock, default_language: str = "en-US") -> None:
        self._uow, self._clock, self._language = uow, clock, default_language

    def __call__(self, operator_id: int, invoice_id: int, reason: str) -> InvoiceRequest:
        reason = reason.strip()
        if not reason:
            raise InvalidInput("reason", N_("Say why the request is rejected"))
        if len(reason) > REASON_MAX:
            raise InvalidInput("reason", N_("At most {max} characters"), max=REASON_MAX)
        now = self._clock.now()
        with self._uow as uow:
            request = uow.invoices.get(invoice_id)
            if request is None:
                raise NotFound()
            for line in request.orders:
                uow.orders.lock(line.order_id)
            if not uow.invoices.decide(invoice_id, InvoiceRequestStatus.REJECTED, operator_id, now, note=reason):
                raise InvoiceAlreadyDecided()
            uow.orders.set_invoice_wanted([line.order_id for line in request.orders], False)
            post(uow, SystemMessage(request.account_id, MessageKind.PAYMENT, INVOICE_REJECTED,
                                    _params(request, note=reason), now), self._language)
            uow.commit()
            rejected = uow.invoices.get(invoice_id)
        assert rejected is not None
        return rejected


class CustomerInvoices:
    """A customer's own requests, and the orders they may still ask for one on."""

    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def page(self, account_id: int, status: InvoiceRequestStatus | None, request: PageRequest) -> Page[InvoiceRequest]:
        with self._uow as uow:
            return uow.invoices.of_account(account_id, status, request)

    def invoiceable(self, account_id: int) -> list[Order]:
        """What the account may ask an invoice for now: its paid orders with something still paid,
        in no waiting or issued request, most recently paid first (at most MAX_INVOICEABLE)."""
        with self._uow as uow:
            return uow.invoices.invoiceable(account_id, MAX_INVOICEABLE)


class InvoiceDesk:
    """Every account's requests for the back office: listed, and exported whole."""

    def __init__(self, uow: OrderingUnitOfWork, policy: InvoicePolicy, clock: Clock) -> None:
        self._uow, self._policy, self._clock = uow, policy, clock

    def page(self, where: InvoiceFilter, request: PageRequest) -> Page[InvoiceRequest]:
        with self._uow as uow:
            return uow.invoices.page(where, self._policy.overdue_cutoff(self._clock.now()), request)

    def export(self, where: InvoiceFilter) -> Iterator[InvoiceRequest]:
        """The whole filtered list, a batch at a time, each in its own short transaction."""
        cutoff = self._policy.overdue_cutoff(self._clock.now())
        before: int | None = None
        while True:
            with self._uow as uow:
                batch = uow.invoices.batch(where, cutoff, before, EXPORT_BATCH)
            yield from batch
            if len(batch) < EXPORT_BATCH:
                return
            before = batch[-1].stored_id


class InvoicePdf:
    """An issued request's PDF, for its account or for the back office (`operator`) only; to anyone
    else it is as if there were none."""

    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, invoice_id: int, account_id: int, operator: bool) -> InvoiceFile:
        with self._uow as uow:
            request = uow.invoices.get(invoice_id)
            if request is None or not (operator or request.account_id == account_id):
                raise NotFound()
            file = uow.invoices.file(invoice_id)
        if file is None or file.content is None:
            raise NotFound()
        return file
