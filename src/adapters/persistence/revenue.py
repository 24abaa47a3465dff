"""The recharge statistics' aggregations (core.ordering.statistics): each a GROUP BY in the database.
A period is given by its [start, end) instants, so it is the operator's day, week or month whatever
the database's own time zone, on PostgreSQL and SQLite alike.

On PostgreSQL the sums come from the rollup (revenue_rollup: per quarter of an hour in UTC, kept
by triggers) whenever every bound falls on a quarter hour, which every zone's midnight does since
1972; a year is then some 35,000 rows a pay type instead of a million orders and their lines (5 s
down to tens of ms in bench/revenue.py). Otherwise, and on SQLite, they come from the orders and
refunds themselves: the same answers, the same code, another _Sums."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import ARRAY, Integer, and_, cast, func, literal, select, union_all
from sqlalchemy.dialects.postgresql import array
from sqlalchemy.orm import Session

from adapters.persistence.models import (
    DeviceRow,
    OrderLineRow,
    OrderRefundRow,
    OrderRow,
    RevenuePaidRow,
    RevenueRefundedRow,
    RevenueRenewalRow,
)
from adapters.persistence.revenue_rollup import BUCKET_SECONDS
from adapters.persistence.types import UtcDateTime
from core.ordering.model import OrderKind, PayStatus
from core.ordering.refund_model import RefundStatus
from core.ordering.revenue import DeviceCounts, Figures, Period

# Paid at some time, whatever happened since: revenue counts the payment, refunds are deducted when made.
WAS_PAID = (int(PayStatus.PAID), int(PayStatus.PARTIALLY_REFUNDED), int(PayStatus.REFUNDED))
_SERVICE = int(OrderKind.SERVICE)


@dataclass(frozen=True)
class _Sums:
    """Where one figure (cents and a count) is summed from: the rows, the instant the range and the
    periods apply to, and the columns it can be grouped by (a new dimension is one more entry)."""

    source: Any  # a table, or a join
    at: Any
    cents: Any  # an aggregate
    count: Any  # an aggregate
    where: tuple = ()
    by: dict[str, Any] = field(default_factory=dict)


def _direct(currency: str) -> tuple[_Sums, _Sums, _Sums]:
    """Paid orders, refunds and service orders by level, from the orders themselves."""
    paid = _Sums(OrderRow, OrderRow.paid_at, func.sum(OrderRow.pay_fee_cents), func.count(),
                 (OrderRow.status.in_(WAS_PAID), OrderRow.currency == currency),
                 {"pay_type": OrderRow.pay_type, "camp": OrderRow.camp})
    refunded = _Sums(OrderRefundRow.__table__.join(OrderRow.__table__, OrderRow.id == OrderRefundRow.order_id),
                     OrderRefundRow.finished_at, func.sum(OrderRefundRow.amount_cents), func.count(),
                     (OrderRefundRow.status == int(RefundStatus.SUCCEEDED), OrderRefundRow.currency == currency),
                     {"pay_type": OrderRow.pay_type, "camp": OrderRow.camp})
    # a service order buys one level for all its devices: a hash aggregate of the lines names it
    level = (select(OrderLineRow.order_id, func.min(OrderLineRow.level_id).label("level_id"))
             .group_by(OrderLineRow.order_id).subquery("order_level"))
    by_level = _Sums(OrderRow.__table__.join(level, level.c.order_id == OrderRow.id), paid.at, paid.cents,
                     paid.count, (*paid.where, OrderRow.kind == _SERVICE, level.c.level_id.is_not(None)),
                     {"level": level.c.level_id})
    return paid, refunded, by_level


def _rolled(currency: str) -> tuple[_Sums, _Sums, _Sums]:
    """The same from the rollup (level 0: the order's lines name none)."""
    p, r = RevenuePaidRow, RevenueRefundedRow
    paid = _Sums(p, p.bucket, func.sum(p.cents), func.sum(p.orders), (p.currency == currency,),
                 {"pay_type": p.pay_type, "camp": p.camp})
    refunded = _Sums(r, r.bucket, func.sum(r.cents), func.sum(r.refunds), (r.currency == currency,),
                     {"pay_type": r.pay_type, "camp": r.camp})
    by_level = _Sums(p, p.bucket, paid.cents, paid.count, (*paid.where, p.kind == _SERVICE, p.level_id != 0),
                     {"level": p.level_id})
    return paid, refunded, by_level


def _merged(paid: dict[Any, tuple[Any, Any]], refunded: dict[Any, tuple[Any, Any]], key: Any) -> Figures:
    """One key's figures from its (cents, count) of payments and of refunds, zero where none."""
    cents, orders = paid.get(key, (0, 0))
    back, refunds = refunded.get(key, (0, 0))
    return Figures(int(cents or 0), int(orders), int(back or 0), int(refunds))


class SqlAlchemyRevenueQueries:
    def __init__(self, session: Session) -> None:
        self._s = session

    def _postgres(self) -> bool:
        return self._s.get_bind().dialect.name == "postgresql"

    def _rollup_answers(self, *bounds: datetime) -> bool:
        """On PostgreSQL, for bounds on quarter hours (whole buckets)."""
        return self._postgres() and all(b.timestamp() % BUCKET_SECONDS == 0 for b in bounds)

    def _sums(self, currency: str, *bounds: datetime) -> tuple[_Sums, _Sums, _Sums]:
        return _rolled(currency) if self._rollup_answers(*bounds) else _direct(currency)

    def _grouped(self, sums: _Sums, key: Any, start: datetime, end: datetime) -> dict[Any, tuple[int, int]]:
        """(cents, count) of `sums` in [start, end) by `key`."""
        rows = self._s.execute(select(key, sums.cents, sums.count).select_from(sums.source)
                               .where(sums.at >= start, sums.at < end, *sums.where).group_by(key))
        return {row[0]: (int(row[1] or 0), int(row[2])) for row in rows}

    def by_period(self, periods: Sequence[Period], currency: str) -> list[Figures]:
        bounds = [p.start for p in periods] + [periods[-1].end]
        paid, refunded, _ = self._sums(currency, *bounds)
        paid_in, refunded_in = self._bucketed(paid, bounds), self._bucketed(refunded, bounds)
        return [_merged(paid_in, refunded_in, i) for i in range(len(periods))]

    def _bucketed(self, sums: _Sums, bounds: list[datetime]) -> dict[int, tuple[int, int]]:
        """Sum and count by the period (0-based) `sums.at` falls in. PostgreSQL sorts each row into
        its period with width_bucket over the periods' bounds in one scan of the range; SQLite,
        which has no such function, joins a list of the periods by range."""
        if self._postgres():
            index = func.width_bucket(sums.at, cast(array([literal(b, UtcDateTime()) for b in bounds]),
                                                    ARRAY(UtcDateTime()))) - 1
            return self._grouped(sums, index, bounds[0], bounds[-1])
        spans = union_all(*(select(literal(i, Integer).label("idx"), literal(s, UtcDateTime()).label("s"),
                                   literal(e, UtcDateTime()).label("e")) for i, (s, e) in enumerate(zip(
                                       bounds, bounds[1:], strict=False)))).subquery("periods")
        joined = _Sums(spans.join(sums.source, and_(sums.at >= spans.c.s, sums.at < spans.c.e)), sums.at,
                       sums.cents, sums.count, sums.where)
        return self._grouped(joined, spans.c.idx, bounds[0], bounds[-1])

    def by_pay_type(self, start: datetime, end: datetime, currency: str) -> dict[int, Figures]:
        return self._by("pay_type", start, end, currency)

    def by_camp(self, start: datetime, end: datetime, currency: str) -> dict[int, Figures]:
        return self._by("camp", start, end, currency)

    def _by(self, dimension: str, start: datetime, end: datetime, currency: str) -> dict[int, Figures]:
        """Payments and refunds in the range by one of their dimensions."""
        paid, refunded, _ = self._sums(currency, start, end)
        paid_by, refunded_by = (self._grouped(s, s.by[dimension], start, end) for s in (paid, refunded))
        return {int(k): _merged(paid_by, refunded_by, k) for k in sorted(set(paid_by) | set(refunded_by))}

    def by_level(self, start: datetime, end: datetime, currency: str) -> dict[int, Figures]:
        *_, by_level = self._sums(currency, start, end)
        return {int(level): Figures(cents, orders)
                for level, (cents, orders) in sorted(self._grouped(by_level, by_level.by["level"], start, end).items())}

    def devices(self, start: datetime, end: datetime) -> DeviceCounts:
        new = self._s.scalar(select(func.count()).select_from(DeviceRow)
                             .where(DeviceRow.created_at >= start, DeviceRow.created_at < end))
        expired = self._s.scalar(select(func.count()).select_from(DeviceRow)
                                 .where(DeviceRow.service_expires_at >= start, DeviceRow.service_expires_at < end))
        return DeviceCounts(int(new or 0), self._renewed(start, end), int(expired or 0))

    def _renewed(self, start: datetime, end: datetime) -> int:
        """Distinct devices of the service orders paid in the range."""
        if self._rollup_answers(start, end):
            r = RevenueRenewalRow
            query = (select(func.count(func.distinct(r.device_id)))
                     .where(r.bucket >= start, r.bucket < end, r.lines > 0))
        else:
            query = (select(func.count(func.distinct(OrderLineRow.device_id)))
                     .join(OrderRow, OrderRow.id == OrderLineRow.order_id)
                     .where(OrderRow.status.in_(WAS_PAID), OrderRow.kind == _SERVICE,
                            OrderRow.paid_at >= start, OrderRow.paid_at < end))
        return int(self._s.scalar(query) or 0)
