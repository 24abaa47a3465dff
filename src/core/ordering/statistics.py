"""Recharge statistics (issue 19, /operation/rechargeStatistics): what an operator reads every
morning. Revenue of paid orders by day, week or month of the operator's time zone, refunds paid
back in each period deducted; the same by pay type and by level; devices new, renewed and expired
in the range. Every figure is one SQL aggregation over the periods' boundaries (computed here, in
the time zone, so a day is the operator's day), never a scan in Python."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from core.devices.model import add_months
from core.ordering.ports import OrderingUnitOfWork
from core.ordering.revenue import MAX_PERIODS, Figures, Granularity, Period, RechargeStatistics
from core.shared.errors import InvalidInput
from core.shared.messages import N_


def periods(first: date, last: date, granularity: Granularity, zone: ZoneInfo) -> list[Period]:
    """The periods covering the days [first, last] in the zone: whole weeks and months, the first
    and the last cut to the range."""
    if last < first:
        raise InvalidInput("endDate", N_("The end is before the start"))

    def at(day: date) -> datetime:
        return datetime.combine(day, time(), zone)

    starts: list[date] = []
    day = first
    while day <= last:
        starts.append(day)
        if granularity is Granularity.DAY:
            day = day + timedelta(days=1)
        elif granularity is Granularity.WEEK:
            day = day + timedelta(days=7 - day.weekday())
        else:
            day = add_months(datetime.combine(day.replace(day=1), time()), 1).date()
        if len(starts) > MAX_PERIODS:
            raise InvalidInput("startDate", N_("At most {max} periods: choose a shorter range or longer periods"),
                               max=MAX_PERIODS)
    bounds = [*starts, last + timedelta(days=1)]
    return [Period(at(a), at(b)) for a, b in zip(bounds, bounds[1:], strict=False)]


class GetRechargeStatistics:
    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, first: date, last: date, granularity: Granularity, zone: ZoneInfo,
                 currency: str) -> RechargeStatistics:
        spans = periods(first, last, granularity, zone)
        start, end = spans[0].start, spans[-1].end
        with self._uow as uow:
            figures = uow.revenue.by_period(spans, currency)
            total = Figures(sum(f.paid_cents for f in figures), sum(f.orders for f in figures),
                            sum(f.refunded_cents for f in figures), sum(f.refunds for f in figures))
            return RechargeStatistics(currency, list(zip(spans, figures, strict=True)), total,
                                      uow.revenue.by_pay_type(start, end, currency),
                                      uow.revenue.by_level(start, end, currency), uow.revenue.devices(start, end),
                                      uow.revenue.by_camp(start, end, currency))
