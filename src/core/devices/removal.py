"""Deleting devices, one or a batch, and clearing a device's data. Both destroy records, so each
is recorded as a device event (who, when, what) that outlives the device, and both are refused
while FDA mode keeps the device's records (core.fda: its organization's, else its owner's)."""

from __future__ import annotations

from collections.abc import Sequence

from core.devices.access import owned_devices
from core.devices.events import DeviceEvent, DeviceEventKind
from core.devices.model import Device
from core.devices.ports import BrokerAccess, DevicesUnitOfWork
from core.devices.registry import READINGS_DELETED_PER_BATCH, delete_all_readings
from core.fda.model import Subject
from core.shared.clock import Clock
from core.shared.errors import InvalidInput, RecordsKeptByFda
from core.shared.messages import N_

MAX_BATCH_DELETE = 200
BATCH_SIZE_PROBLEM = N_("Choose 1 to 200 devices")


def refuse_kept_records(uow: DevicesUnitOfWork, devices: Sequence[Device]) -> None:
    """RecordsKeptByFda, naming the first device whose subject has FDA mode on."""
    subjects = {d.id: Subject.of_device(d.owner_account_id, d.organization_id) for d in devices}
    on = {s for s in set(subjects.values()) if uow.fda_switches.is_on(s)}
    kept = next((d for d in devices if subjects[d.id] in on), None)
    if kept is not None:
        raise RecordsKeptByFda(device=kept.name)


class DeleteDevices:
    """All or nothing: when one of the devices is not the caller's to delete (not visible: 404;
    visible but not owned: 403, as for one device; FDA mode keeping its records: 409), none is
    deleted, so a batch never half happens. Only the owner deletes a device: its organization's
    administrators change it, but it is not theirs to remove. The devices go in one transaction;
    their readings (which have no foreign key, for the sake of ingest) follow in batches, so no
    transaction holds millions of rows. Once the devices are gone the broker refuses their logins
    and closes their connections. Readings a worker still writes for one afterwards are swept by
    `coldchain retention`."""

    def __init__(self, uow: DevicesUnitOfWork, broker: BrokerAccess, clock: Clock,
                 batch_size: int = READINGS_DELETED_PER_BATCH) -> None:
        self._uow, self._broker, self._clock, self._batch_size = uow, broker, clock, batch_size

    def __call__(self, account_id: int, device_ids: Sequence[int]) -> int:
        """Returns how many readings went with the devices."""
        ids = list(dict.fromkeys(device_ids))
        if not 1 <= len(ids) <= MAX_BATCH_DELETE:
            raise InvalidInput("deviceIds", BATCH_SIZE_PROBLEM)
        now = self._clock.now()
        with self._uow as uow:
            devices = owned_devices(uow.device_registry.visible_many(account_id, ids), ids, account_id)
            refuse_kept_records(uow, devices)
            for device in devices:
                uow.device_registry.delete(device.id)
                uow.device_events.record(DeviceEvent(device.id, device.guid, account_id, DeviceEventKind.DELETED, now))
            uow.commit()
        self._broker.revoke([d.guid for d in devices])
        return sum(delete_all_readings(self._uow, d.id, None, self._batch_size) for d in devices)


class DeleteDevice:
    """One device, by the batch's rules."""

    def __init__(self, uow: DevicesUnitOfWork, broker: BrokerAccess, clock: Clock,
                 batch_size: int = READINGS_DELETED_PER_BATCH) -> None:
        self._many = DeleteDevices(uow, broker, clock, batch_size)

    def __call__(self, account_id: int, device_id: int) -> int:
        return self._many(account_id, [device_id])


class ClearDeviceData:
    """Delete a device's readings and alarm records, keeping the device, its settings, limits and
    login: for a logger that moves to a new use. Only its owner may: the readings are the records
    an audit asks for, and an administrator of its organization, who changes the device, may no
    more destroy them than delete it. The alarm records and the record of the act go in one
    transaction, the readings after it in batches."""

    def __init__(self, uow: DevicesUnitOfWork, clock: Clock, batch_size: int = READINGS_DELETED_PER_BATCH) -> None:
        self._uow, self._clock, self._batch_size = uow, clock, batch_size

    def __call__(self, account_id: int, device_id: int) -> tuple[int, int]:
        """Returns (readings, alarm records) deleted."""
        with self._uow as uow:
            [device] = owned_devices(uow.device_registry.visible_many(account_id, [device_id]), [device_id], account_id)
            refuse_kept_records(uow, [device])
            alarms = uow.device_registry.clear_records(device.id)
            uow.device_events.record(DeviceEvent(device.id, device.guid, account_id, DeviceEventKind.DATA_CLEARED,
                                                 self._clock.now(), f"alarms={alarms}"))
            uow.commit()
        return delete_all_readings(self._uow, device.id, None, self._batch_size), alarms
