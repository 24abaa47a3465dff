"""The geofence engine's hook: a device leaving its waybill's origin starts the trip, and entering its
destination finishes it. The engine (another context) calls a port with exactly `crossed`'s
signature; the container wires this class behind it."""

from __future__ import annotations

from datetime import datetime

from core.waybills.errors import DeviceOnAnotherTrip, NoDeviceBound
from core.waybills.model import WaybillState
from core.waybills.ports import Rejudge, WaybillsUnitOfWork
from core.waybills.use_cases import move


class WaybillFenceRules:
    def __init__(self, uow: WaybillsUnitOfWork, rejudge: Rejudge) -> None:
        self._uow, self._rejudge = uow, rejudge

    def crossed(self, device_id: int, fence_id: int, entered: bool, at: datetime) -> None:
        """Start, at `at`, a not-started waybill of the device whose origin is the fence when the
        device leaves it; finish, at `at`, one in progress whose destination is the fence when it
        enters it. A waybill that cannot start (a device on another trip) waits for its owner. The
        crossing was confirmed a few readings after `at`: those readings are judged again by the
        limits that hold from `at`."""
        moved: set[int] = set()
        with self._uow as uow:
            for waybill in uow.waybills.of_device_at_fence(device_id, fence_id):
                p = waybill.particulars
                if not entered and waybill.state is WaybillState.NOT_STARTED and p.origin_fence_id == fence_id:
                    target = WaybillState.IN_PROGRESS
                elif entered and waybill.state is WaybillState.IN_PROGRESS and p.destination_fence_id == fence_id:
                    target = WaybillState.FINISHED
                else:
                    continue
                when = at if waybill.started_at is None else max(at, waybill.started_at)
                try:
                    if move(uow, waybill, target, when):
                        moved.update(waybill.device_ids)
                except (NoDeviceBound, DeviceOnAnotherTrip):
                    continue
            uow.commit()
        if moved:
            self._rejudge(sorted(moved), at)
