"""A device's readings over a time range, for its chart."""

from __future__ import annotations

from dataclasses import dataclass

from core.devices.commands import QueryHistory
from core.devices.grants import Element, permitted
from core.devices.ports import DevicesUnitOfWork
from core.devices.rules import HISTORY_MAX_POINTS, HISTORY_MAX_SPAN, RANGE_ORDER_PROBLEM, RANGE_SPAN_PROBLEM
from core.shared.errors import InvalidInput
from core.telemetry.downsample import Point, fit, plan_buckets


@dataclass(frozen=True)
class History:
    points: list[Point]
    downsampled: bool
    total: int  # readings stored in the range


class GetDeviceHistory:
    """Every reading when they fit in `max_points`; otherwise the min and max of each probe per
    bucket (core.telemetry.downsample), which the database computes where it can."""

    def __init__(self, uow: DevicesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, query: QueryHistory) -> History:
        if query.until <= query.since:
            raise InvalidInput("endTime", RANGE_ORDER_PROBLEM)
        if query.until - query.since > HISTORY_MAX_SPAN:
            raise InvalidInput("endTime", RANGE_SPAN_PROBLEM)
        max_points = min(max(1, query.max_points), HISTORY_MAX_POINTS)
        with self._uow as uow:
            device = permitted(uow.device_registry.visible(query.account_id, query.device_id), Element.CHART)
            # The extremes first: over a long range (the chart's usual question) they are the
            # answer, and their pass counts the readings too; a range that fits is read again whole.
            plan = plan_buckets(query.since, query.until, max_points, device.probes)
            extremes, total = uow.history.extremes(device.id, plan)
            if total <= max_points:
                return History(uow.history.points(device.id, query.since, query.until), False, total)
            return History(fit(extremes, plan, max_points), True, total)
