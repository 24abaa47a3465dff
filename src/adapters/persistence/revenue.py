"""The recharge statistics' aggregations (core.ordering.statistics): each a GROUP BY in the database.
A period is given by its [start, end) instants, so it is the operator's day, week or month whatever
the database's own time zone, on PostgreSQL and SQLite alike."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ARRAY, Integer, and_, cast, func, literal, select, union_all
from sqlalchemy.dialects.postgresql import array
from sqlalchemy.orm import Session

from adapters.persistence.models import DeviceRow, OrderLineRow, OrderRefundRow, OrderRow
from adapters.persistence.types import UtcDateTime
from core.ordering.model import OrderKind, PayStatus
from core.ordering.refund_model import RefundStatus
from core.ordering.revenue import DeviceCounts, Figures, Period

# Paid at some time, whatever happened since: revenue counts the payment, refunds are deducted when made.
WAS_PAID = (int(PayStatus.PAID), int(PayStatus.PARTIALLY_REFUNDED), int(PayStatus.REFUNDED))


def _paid(currency: str, start: datetime, end: datetime):
    return and_(OrderRow.status.in_(WAS_PAID), OrderRow.currency == currency, OrderRow.paid_at >= start,
                OrderRow.paid_at < end)


def _refunded(currency: str, start: datetime, end: datetime):
    return and_(OrderRefundRow.status == int(RefundStatus.SUCCEEDED), OrderRefundRow.currency == currency,
                OrderRefundRow.finished_at >= start, OrderRefundRow.finished_at < end)


def _merged(paid: dict[Any, tuple[Any, Any]], refunded: dict[Any, tuple[Any, Any]], key: Any) -> Figures:
    """One key's figures from its (cents, count) of payments and of refunds, zero where none."""
    cents, orders = paid.get(key, (0, 0))
    back, refunds = refunded.get(key, (0, 0))
    return Figures(int(cents or 0), int(orders), int(back or 0), int(refunds))


class SqlAlchemyRevenueQueries:
    def __init__(self, session: Session) -> None:
        self._s = session

    def by_period(self, periods: Sequence[Period], currency: str) -> list[Figures]:
        paid = self._bucketed(periods, OrderRow.paid_at, OrderRow.pay_fee_cents,
                              (OrderRow.status.in_(WAS_PAID), OrderRow.currency == currency))
        refunded = self._bucketed(periods, OrderRefundRow.finished_at, OrderRefundRow.amount_cents,
                                  (OrderRefundRow.status == int(RefundStatus.SUCCEEDED),
                                   OrderRefundRow.currency == currency))
        return [_merged(paid, refunded, i) for i in range(len(periods))]

    def _bucketed(self, periods: Sequence[Period], at: Any, cents: Any, where: tuple) -> dict[int, tuple[int, int]]:
        """Sum and count of `cents` by the period `at` falls in (0-based). PostgreSQL sorts each row
        into its period with width_bucket over the periods' bounds in one scan of the range; SQLite,
        which has no such function, joins a list of the periods by range."""
        bounds = [p.start for p in periods] + [periods[-1].end]
        in_range = (at >= bounds[0], at < bounds[-1], *where)
        if self._s.get_bind().dialect.name == "postgresql":
            bucket = func.width_bucket(at, cast(array([literal(b, UtcDateTime()) for b in bounds]),
                                                ARRAY(UtcDateTime()))) - 1
            rows = self._s.execute(select(bucket, func.sum(cents), func.count()).where(*in_range).group_by(bucket))
        else:
            spans = union_all(*(select(literal(i, Integer).label("idx"), literal(p.start, UtcDateTime()).label("s"),
                                       literal(p.end, UtcDateTime()).label("e")) for i, p in enumerate(periods))
                              ).subquery("periods")
            rows = self._s.execute(select(spans.c.idx, func.sum(cents), func.count()).select_from(spans)
                                   .join(at.class_, and_(at >= spans.c.s, at < spans.c.e)).where(*in_range)
                                   .group_by(spans.c.idx))
        return {int(row[0]): (int(row[1] or 0), int(row[2])) for row in rows}

    def by_pay_type(self, start: datetime, end: datetime, currency: str) -> dict[int, Figures]:
        paid = {p: (c, n) for p, c, n in self._s.execute(
            select(OrderRow.pay_type, func.sum(OrderRow.pay_fee_cents), func.count())
            .where(_paid(currency, start, end)).group_by(OrderRow.pay_type))}
        refunded = {p: (c, n) for p, c, n in self._s.execute(
            select(OrderRow.pay_type, func.sum(OrderRefundRow.amount_cents), func.count())
            .join(OrderRow, OrderRow.id == OrderRefundRow.order_id)
            .where(_refunded(currency, start, end)).group_by(OrderRow.pay_type))}
        return {int(p): _merged(paid, refunded, p) for p in sorted(set(paid) | set(refunded))}

    def by_level(self, start: datetime, end: datetime, currency: str) -> dict[int, Figures]:
        # a service order buys one level for all its devices: a hash aggregate of the lines names it
        level = (select(OrderLineRow.order_id, func.min(OrderLineRow.level_id).label("level_id"))
                 .group_by(OrderLineRow.order_id).subquery("order_level"))
        rows = self._s.execute(select(level.c.level_id, func.sum(OrderRow.pay_fee_cents), func.count())
                               .join(level, level.c.order_id == OrderRow.id)
                               .where(_paid(currency, start, end), OrderRow.kind == int(OrderKind.SERVICE))
                               .group_by(level.c.level_id))
        return {int(row[0]): Figures(int(row[1] or 0), int(row[2])) for row in rows if row[0] is not None}

    def devices(self, start: datetime, end: datetime) -> DeviceCounts:
        new = self._s.scalar(select(func.count()).select_from(DeviceRow)
                             .where(DeviceRow.created_at >= start, DeviceRow.created_at < end))
        expired = self._s.scalar(select(func.count()).select_from(DeviceRow)
                                 .where(DeviceRow.service_expires_at >= start, DeviceRow.service_expires_at < end))
        renewed = self._s.scalar(select(func.count(func.distinct(OrderLineRow.device_id)))
                                 .join(OrderRow, OrderRow.id == OrderLineRow.order_id)
                                 .where(OrderRow.status.in_(WAS_PAID), OrderRow.kind == int(OrderKind.SERVICE),
                                        OrderRow.paid_at >= start, OrderRow.paid_at < end))
        return DeviceCounts(int(new or 0), int(renewed or 0), int(expired or 0))
