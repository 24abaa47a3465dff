"""The back office's view of every account's orders (core.ordering.back_office): filtered,
sorted and paged in SQL, their payer joined, their lines loaded per page or batch."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, exists, func, or_, select
from sqlalchemy.orm import Session

from adapters.persistence.models import (
    AccountRow,
    DeviceRow,
    OrderEventRow,
    OrderLineRow,
    OrderRow,
    PaymentNotificationRow,
)
from adapters.persistence.ordering import fresh, lines_of, order_of, order_sort
from core.ordering.model import DeskOrder, OrderEvent, OrderFilter, Payer, PayStatus
from core.ordering.payments import NotificationRecord
from core.shared.paging import Page, PageRequest

_PAYER = (AccountRow.id, AccountRow.user_name, AccountRow.phone, AccountRow.email)


def _contains(column: Any, text: str) -> Any:
    return func.lower(column).contains(text.lower(), autoescape=True)


def _filtered(query: Select, where: OrderFilter) -> Select:
    if where.order_code:
        query = query.where(OrderRow.order_code.contains(where.order_code, autoescape=True))
    if where.account:
        query = query.where(or_(_contains(AccountRow.user_name, where.account),
                                AccountRow.phone.contains(where.account, autoescape=True),
                                _contains(AccountRow.email, where.account)))
    if where.device:
        # by the name it had when ordered, or its name or GUID now
        query = query.where(exists(
            select(OrderLineRow.id).outerjoin(DeviceRow, DeviceRow.id == OrderLineRow.device_id)
            .where(OrderLineRow.order_id == OrderRow.id,
                   or_(*(_contains(c, where.device)
                         for c in (OrderLineRow.device_name, DeviceRow.device_name, DeviceRow.guid))))))
    column: Any
    for column, value in ((OrderRow.pay_type, where.pay_type), (OrderRow.status, where.status),
                          (OrderRow.invoice_status, where.invoice_status)):
        if value is not None:
            query = query.where(column == int(value))
    for column, since, until in ((OrderRow.created_at, where.created_from, where.created_until),
                                 (OrderRow.paid_at, where.paid_from, where.paid_until)):
        if since is not None:
            query = query.where(column >= since)
        if until is not None:
            query = query.where(column < until)
    return query


class SqlAlchemyOrderDesk:
    def __init__(self, session: Session) -> None:
        self._s = session

    def _entries(self, query: Select) -> list[DeskOrder]:
        found = self._s.execute(fresh(query)).all()
        lines = lines_of(self._s, [row.OrderRow.id for row in found])
        return [DeskOrder(order_of(row.OrderRow, lines[row.OrderRow.id]),
                          Payer(row.id, row.user_name, row.phone, row.email)) for row in found]

    @staticmethod
    def _query(where: OrderFilter) -> Select:
        return _filtered(select(OrderRow, *_PAYER).join(AccountRow, AccountRow.id == OrderRow.account_id), where)

    def page(self, where: OrderFilter, request: PageRequest) -> Page[DeskOrder]:
        count = _filtered(select(func.count()).select_from(OrderRow)
                          .join(AccountRow, AccountRow.id == OrderRow.account_id), where)
        total: int = self._s.execute(count).scalar_one()
        items = self._entries(self._query(where).order_by(*order_sort(request))
                              .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, items)

    def batch(self, where: OrderFilter, before_id: int | None, limit: int) -> list[DeskOrder]:
        query = self._query(where)
        if before_id is not None:
            query = query.where(OrderRow.id < before_id)
        return self._entries(query.order_by(OrderRow.id.desc()).limit(limit))

    def entry(self, order_id: int) -> DeskOrder | None:
        found = self._entries(self._query(OrderFilter()).where(OrderRow.id == order_id))
        return found[0] if found else None

    def history(self, order_id: int) -> list[OrderEvent]:
        rows = self._s.execute(select(OrderEventRow, AccountRow.user_name)
                               .outerjoin(AccountRow, AccountRow.id == OrderEventRow.actor_account_id)
                               .where(OrderEventRow.order_id == order_id)
                               .order_by(OrderEventRow.at, OrderEventRow.id)).all()
        return [OrderEvent(r.OrderEventRow.order_id, r.OrderEventRow.at, r.OrderEventRow.kind,
                           PayStatus(r.OrderEventRow.status), r.OrderEventRow.actor_account_id,
                           r.OrderEventRow.reason, r.OrderEventRow.detail, r.user_name) for r in rows]

    def notifications(self, order_code: str) -> list[NotificationRecord]:
        rows = self._s.scalars(select(PaymentNotificationRow).where(PaymentNotificationRow.order_code == order_code)
                               .order_by(PaymentNotificationRow.received_at, PaymentNotificationRow.id))
        return [NotificationRecord(r.provider, r.received_at, r.verdict, r.body, r.order_code, r.amount_cents)
                for r in rows]

    def device_guids(self, device_ids: Sequence[int]) -> dict[int, str]:
        if not device_ids:
            return {}
        return dict(self._s.execute(select(DeviceRow.id, DeviceRow.guid).where(DeviceRow.id.in_(device_ids))).all())
