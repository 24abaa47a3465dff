"""Invoice requests (core.ordering.invoices): a decision is one conditional write, so a request is
issued or rejected once however many operators try; the partial unique index on the covered
orders (uq_invoice_orders_active_order) keeps an order in one waiting or issued request whatever
writes. Lists never read a PDF's content: `file` alone does."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, exists, func, not_, or_, select, update
from sqlalchemy.orm import Session, aliased

from adapters.persistence.models import AccountRow, InvoiceFileRow, InvoiceOrderRow, InvoiceRequestRow, OrderRow
from adapters.persistence.ordering import fresh, lines_of, order_of, write
from adapters.persistence.results import rows_written
from core.ordering.invoice_model import (
    Delivery,
    InvoicedOrder,
    InvoiceFile,
    InvoiceFilter,
    InvoiceRequest,
    InvoiceRequestStatus,
)
from core.ordering.model import PAID_STATES, Order
from core.shared.paging import Page, PageRequest

_DECIDER = aliased(AccountRow)
_SORT: dict[str, Any] = {"requestTime": InvoiceRequestRow.requested_at, "amount": InvoiceRequestRow.amount_cents}
_PAID = sorted(int(s) for s in PAID_STATES)


def _contains(column: Any, text: str) -> Any:
    return func.lower(column).contains(text.lower(), autoescape=True)


def _overdue(cutoff: datetime) -> Any:
    return and_(InvoiceRequestRow.status == int(InvoiceRequestStatus.REQUESTED),
                InvoiceRequestRow.requested_at <= cutoff)


def _filtered(query: Select, where: InvoiceFilter, cutoff: datetime) -> Select:
    if where.status is not None:
        query = query.where(InvoiceRequestRow.status == int(where.status))
    if where.account:
        query = query.where(or_(_contains(AccountRow.user_name, where.account),
                                AccountRow.phone.contains(where.account, autoescape=True),
                                _contains(AccountRow.email, where.account)))
    if where.order_code:
        query = query.where(exists(select(InvoiceOrderRow.id).where(
            InvoiceOrderRow.invoice_id == InvoiceRequestRow.id,
            InvoiceOrderRow.order_code.contains(where.order_code, autoescape=True))))
    if where.overdue is not None:
        query = query.where(_overdue(cutoff) if where.overdue else not_(_overdue(cutoff)))
    if where.requested_from is not None:
        query = query.where(InvoiceRequestRow.requested_at >= where.requested_from)
    if where.requested_until is not None:
        query = query.where(InvoiceRequestRow.requested_at < where.requested_until)
    return query


class SqlAlchemyInvoiceRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    @staticmethod
    def _query() -> Select:
        return (select(InvoiceRequestRow, AccountRow.user_name, _DECIDER.user_name.label("decider"),
                       InvoiceFileRow.file_name, InvoiceFileRow.size, InvoiceFileRow.sha256)
                .join(AccountRow, AccountRow.id == InvoiceRequestRow.account_id)
                .outerjoin(_DECIDER, _DECIDER.id == InvoiceRequestRow.decided_by)
                .outerjoin(InvoiceFileRow, InvoiceFileRow.invoice_id == InvoiceRequestRow.id))

    def _requests(self, query: Select) -> list[InvoiceRequest]:
        found = self._s.execute(fresh(query)).all()
        lines: dict[int, list[InvoicedOrder]] = defaultdict(list)
        ids = [row.InvoiceRequestRow.id for row in found]
        if ids:
            for line in self._s.scalars(select(InvoiceOrderRow).where(InvoiceOrderRow.invoice_id.in_(ids))
                                        .order_by(InvoiceOrderRow.id)):
                lines[line.invoice_id].append(InvoicedOrder(line.order_id, line.order_code, line.amount_cents))
        requests = []
        for row in found:
            r = row.InvoiceRequestRow
            file = InvoiceFile(row.file_name, row.size, row.sha256) if row.file_name is not None else None
            requests.append(InvoiceRequest(
                r.id, r.account_id, r.currency, r.amount_cents, dict(r.bill or {}), InvoiceRequestStatus(r.status),
                r.requested_at, tuple(lines[r.id]), r.requested_by, r.decided_by, r.decided_at, r.decision_note,
                Delivery(r.delivery) if r.delivery is not None else None, r.invoice_number, file, row.user_name,
                row.decider))
        return requests

    def add(self, request: InvoiceRequest) -> InvoiceRequest:
        bill_id = request.bill.get("billId")
        row = InvoiceRequestRow(account_id=request.account_id, currency=request.currency,
                                amount_cents=request.amount_cents, bill=request.bill,
                                bill_id=bill_id if isinstance(bill_id, int) else None, status=int(request.status),
                                requested_at=request.requested_at, requested_by=request.requested_by)
        self._s.add(row)
        self._s.flush()
        self._s.add_all([InvoiceOrderRow(invoice_id=row.id, order_id=o.order_id, order_code=o.order_code,
                                         amount_cents=o.amount_cents, active=True) for o in request.orders])
        self._s.flush()
        return InvoiceRequest(row.id, request.account_id, request.currency, request.amount_cents, request.bill,
                              request.status, request.requested_at, request.orders, request.requested_by)

    def get(self, invoice_id: int) -> InvoiceRequest | None:
        found = self._requests(self._query().where(InvoiceRequestRow.id == invoice_id))
        return found[0] if found else None

    def covering(self, order_ids: Sequence[int]) -> dict[int, int]:
        if not order_ids:
            return {}
        return dict(self._s.execute(select(InvoiceOrderRow.order_id, InvoiceOrderRow.invoice_id).where(
            InvoiceOrderRow.order_id.in_(order_ids), InvoiceOrderRow.active.is_(True))).all())

    def decide(self, invoice_id: int, status: InvoiceRequestStatus, operator_id: int, at: datetime, *,
               delivery: Delivery | None = None, invoice_number: str | None = None,
               note: str | None = None) -> bool:
        result = self._s.execute(write(update(InvoiceRequestRow).where(
            InvoiceRequestRow.id == invoice_id, InvoiceRequestRow.status == int(InvoiceRequestStatus.REQUESTED))
            .values(status=int(status), decided_by=operator_id, decided_at=at, decision_note=note,
                    delivery=int(delivery) if delivery is not None else None, invoice_number=invoice_number)))
        if rows_written(result) != 1:
            return False
        if status is InvoiceRequestStatus.REJECTED:
            self._s.execute(write(update(InvoiceOrderRow).where(InvoiceOrderRow.invoice_id == invoice_id)
                                  .values(active=False)))
        return True

    def attach(self, invoice_id: int, file: InvoiceFile, at: datetime) -> None:
        assert file.content is not None
        self._s.add(InvoiceFileRow(invoice_id=invoice_id, file_name=file.name, size=file.size, sha256=file.sha256,
                                   content=file.content, created_at=at))
        self._s.flush()

    def file(self, invoice_id: int) -> InvoiceFile | None:
        row = self._s.get(InvoiceFileRow, invoice_id)
        return InvoiceFile(row.file_name, row.size, row.sha256, bytes(row.content)) if row is not None else None

    def invoiceable(self, account_id: int, limit: int) -> list[Order]:
        still_paid = func.coalesce(OrderRow.pay_fee_cents, OrderRow.order_fee_cents) - OrderRow.refunded_cents
        rows = self._s.scalars(fresh(select(OrderRow).where(
            OrderRow.account_id == account_id, OrderRow.status.in_(_PAID), still_paid > 0,
            ~exists(select(InvoiceOrderRow.id).where(InvoiceOrderRow.order_id == OrderRow.id,
                                                     InvoiceOrderRow.active.is_(True))))
            .order_by(OrderRow.paid_at.desc(), OrderRow.id.desc()).limit(limit))).all()
        lines = lines_of(self._s, [row.id for row in rows])
        return [order_of(row, lines[row.id]) for row in rows]

    def of_account(self, account_id: int, status: InvoiceRequestStatus | None,
                   request: PageRequest) -> Page[InvoiceRequest]:
        where = [InvoiceRequestRow.account_id == account_id]
        if status is not None:
            where.append(InvoiceRequestRow.status == int(status))
        total = self._s.execute(select(func.count()).select_from(InvoiceRequestRow).where(*where)).scalar_one()
        items = self._requests(self._query().where(*where)
                               .order_by(InvoiceRequestRow.requested_at.desc(), InvoiceRequestRow.id.desc())
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, items)

    def page(self, where: InvoiceFilter, overdue_cutoff: datetime, request: PageRequest) -> Page[InvoiceRequest]:
        count = _filtered(select(func.count()).select_from(InvoiceRequestRow)
                          .join(AccountRow, AccountRow.id == InvoiceRequestRow.account_id), where, overdue_cutoff)
        total: int = self._s.execute(count).scalar_one()
        column = _SORT[request.sort_field or "requestTime"]
        ascending = request.sort_order != "desc"
        order: list[Any] = [column.asc() if ascending else column.desc(),
                            InvoiceRequestRow.id.asc() if ascending else InvoiceRequestRow.id.desc()]
        items = self._requests(_filtered(self._query(), where, overdue_cutoff).order_by(*order)
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, items)

    def batch(self, where: InvoiceFilter, overdue_cutoff: datetime, before_id: int | None,
              limit: int) -> list[InvoiceRequest]:
        query = _filtered(self._query(), where, overdue_cutoff)
        if before_id is not None:
            query = query.where(InvoiceRequestRow.id < before_id)
        return self._requests(query.order_by(InvoiceRequestRow.id.desc()).limit(limit))
