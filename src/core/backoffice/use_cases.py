from __future__ import annotations

from datetime import UTC, datetime, time, timedelta, tzinfo

from core.backoffice.model import OperatorCounts
from core.backoffice.ports import BackOfficeUnitOfWork
from core.shared.clock import Clock


def day_bounds(now: datetime, zone: tzinfo) -> tuple[datetime, datetime]:
    """Today in the operator's time zone, as UTC instants: an operator in Shanghai closes the
    day at midnight in Shanghai, not in London. Across a daylight-saving change the day is 23 or
    25 hours long, so the end is the next local midnight, not start + 24 h."""
    local = now.astimezone(zone)
    start = datetime.combine(local.date(), time(), tzinfo=zone)
    end = datetime.combine(local.date() + timedelta(days=1), time(), tzinfo=zone)
    return start.astimezone(UTC), end.astimezone(UTC)


class CountOperatorHome:
    def __init__(self, uow: BackOfficeUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, zone: tzinfo) -> OperatorCounts:
        start, end = day_bounds(self._clock.now(), zone)
        with self._uow as uow:
            return uow.operator_overview.counts(start, end)
