"""Scrapping devices (retired: broken, lost, decommissioned) and restoring one.

A scrapped device stays in the console with its history, readable and exportable, but is out of
service: it counts only as scrapped on the home page, raises no alarm and gets no expiry
reminder, cannot be recharged nor sent parameters (model.in_service), and its broker login is
disabled, kept with its password, so restoring it lets the same device connect again. Only its
owner does either, and each is a line of the device's operation log (the reason with it)."""

from __future__ import annotations

from collections.abc import Sequence

from core.devices.access import OWNER_ONLY, Access, accessible, owned_devices
from core.devices.events import DeviceEvent, DeviceEventKind
from core.devices.ports import BrokerAccess, DevicesUnitOfWork
from core.devices.removal import BATCH_SIZE_PROBLEM, MAX_BATCH_DELETE
from core.shared.clock import Clock
from core.shared.errors import Forbidden, InvalidInput
from core.shared.messages import N_

MAX_SCRAP_BATCH = MAX_BATCH_DELETE
MAX_REASON_LENGTH = 200  # what the operation log keeps of it
REASON_TOO_LONG = N_("At most {max} characters")


class ScrapDevices:
    """All or nothing, by the batch delete's rules (404 for a device the caller cannot see, 403 for
    one it does not own); a device already scrapped is left as it was, with its first reason."""

    def __init__(self, uow: DevicesUnitOfWork, broker: BrokerAccess, clock: Clock) -> None:
        self._uow, self._broker, self._clock = uow, broker, clock

    def __call__(self, account_id: int, device_ids: Sequence[int], reason: str | None = None) -> list[int]:
        """The ids of the devices scrapped now."""
        ids = list(dict.fromkeys(device_ids))
        if not 1 <= len(ids) <= MAX_SCRAP_BATCH:
            raise InvalidInput("deviceIds", BATCH_SIZE_PROBLEM)
        reason = (reason or "").strip() or None
        if reason is not None and len(reason) > MAX_REASON_LENGTH:
            raise InvalidInput("reason", REASON_TOO_LONG, max=MAX_REASON_LENGTH)
        now = self._clock.now()
        with self._uow as uow:
            devices = owned_devices(uow.device_registry.visible_many(account_id, ids), ids, account_id)
            fresh = [d for d in devices if not d.scrapped]
            uow.device_registry.set_scrapped([d.id for d in fresh], now)
            for device in fresh:
                uow.device_events.record(DeviceEvent(device.id, device.guid, account_id, DeviceEventKind.SCRAPPED,
                                                     now, reason))
            uow.commit()
        self._broker.disable([d.guid for d in fresh])
        return [d.id for d in fresh]


class RestoreDevice:
    """Back in service, as it was before (its service expiry did not wait for it); restoring a
    device that is in service changes nothing."""

    def __init__(self, uow: DevicesUnitOfWork, broker: BrokerAccess, clock: Clock) -> None:
        self._uow, self._broker, self._clock = uow, broker, clock

    def __call__(self, account_id: int, device_id: int) -> bool:
        """Whether it was scrapped (and is restored now)."""
        with self._uow as uow:
            device = accessible(uow.device_registry.visible(account_id, device_id), Access.WRITE)
            if not device.owned_by(account_id):
                raise Forbidden(OWNER_ONLY)
            if not device.scrapped:
                return False
            uow.device_registry.set_scrapped([device.id], None)
            uow.device_events.record(DeviceEvent(device.id, device.guid, account_id, DeviceEventKind.RESTORED,
                                                 self._clock.now()))
            uow.commit()
        self._broker.enable([device.guid])
        return True
