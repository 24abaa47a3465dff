"""A device's maintenance records (the maintenance tab): whoever may see the device reads them,
whoever may change it writes them, and every write is a line of the device's operation log."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta

from core.devices.events import DeviceEvent, DeviceEventEntry, DeviceEventKind
from core.devices.grants import Element, permitted
from core.devices.model import Device, MaintenanceRecord
from core.devices.ports import DevicesUnitOfWork
from core.shared.clock import Clock
from core.shared.errors import InvalidInput, NotFound
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest

# Spec seed 001 section 5: person 50, approver 20, reason 200, content 1000, standard 200, result 1000.
LIMITS = {"person": 50, "approver": 20, "reason": 200, "content": 1000, "standard": 200, "result": 1000}
REQUIRED = ("person", "reason", "content")
EARLIEST = date(2000, 1, 1)

REQUIRED_PROBLEM = N_("This field is required")
TOO_LONG_PROBLEM = N_("At most {max} characters")
DATE_PROBLEM = N_("The maintenance date may not be in the future")
EARLY_DATE_PROBLEM = N_("The maintenance date may not be before 2000")


@dataclass(frozen=True)
class MaintenanceInput:
    maintained_on: date
    person: str
    reason: str
    content: str
    approver: str | None = None
    standard: str | None = None
    result: str | None = None


def maintenance_problems(entry: MaintenanceInput, today: date) -> dict[str, tuple[str, dict[str, int]]]:
    """Per field (the API's names), the message id of what is wrong and its parameters."""
    problems: dict[str, tuple[str, dict[str, int]]] = {}
    for name, limit in LIMITS.items():
        value = (getattr(entry, name) or "").strip()
        if not value and name in REQUIRED:
            problems[name] = (REQUIRED_PROBLEM, {})
        elif len(value) > limit:
            problems[name] = (TOO_LONG_PROBLEM, {"max": limit})
    # a day's grace: the caller's today may be tomorrow in UTC
    if entry.maintained_on > today + timedelta(days=1):
        problems["maintainDate"] = (DATE_PROBLEM, {})
    elif entry.maintained_on < EARLIEST:
        problems["maintainDate"] = (EARLY_DATE_PROBLEM, {})
    return problems


def _cleaned(entry: MaintenanceInput, device_id: int) -> MaintenanceRecord:
    def text(value: str | None) -> str | None:
        return (value or "").strip() or None

    return MaintenanceRecord(device_id=device_id, maintained_on=entry.maintained_on, person=entry.person.strip(),
                             reason=entry.reason.strip(), content=entry.content.strip(),
                             approver=text(entry.approver), standard=text(entry.standard), result=text(entry.result))


def _describe(record: MaintenanceRecord) -> str:
    return f"{record.maintained_on.isoformat()} {record.person}"[:200]


class ListMaintenance:
    def __init__(self, uow: DevicesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, device_id: int, request: PageRequest) -> tuple[Device, Page[MaintenanceRecord]]:
        with self._uow as uow:
            device = permitted(uow.device_registry.visible(account_id, device_id), Element.MAINTENANCE)
            return device, uow.maintenance.page(device.id, request)


class _Writer:
    def __init__(self, uow: DevicesUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def _check(self, entry: MaintenanceInput) -> None:
        if problems := maintenance_problems(entry, self._clock.now().date()):
            raise InvalidInput.of({f: message for f, (message, _) in problems.items()},
                                  {f: params for f, (_, params) in problems.items()})

    def _record_of(self, uow: DevicesUnitOfWork, account_id: int, record_id: int) -> tuple[Device, MaintenanceRecord]:
        """The record and its device, when the caller may change the device; a record of a device
        the caller cannot see is answered like one that does not exist."""
        record = uow.maintenance.get(record_id)
        if record is None:
            raise NotFound()
        device = permitted(uow.device_registry.visible(account_id, record.device_id), Element.MAINTENANCE, operate=True)
        return device, record

    def _log(self, uow: DevicesUnitOfWork, device: Device, account_id: int, kind: DeviceEventKind,
             record: MaintenanceRecord) -> None:
        uow.device_events.record(DeviceEvent(device.id, device.guid, account_id, kind, self._clock.now(),
                                             _describe(record)))


class AddMaintenance(_Writer):
    def __call__(self, account_id: int, device_id: int, entry: MaintenanceInput) -> MaintenanceRecord:
        self._check(entry)
        now = self._clock.now()
        with self._uow as uow:
            device = permitted(uow.device_registry.visible(account_id, device_id), Element.MAINTENANCE, operate=True)
            record = replace(_cleaned(entry, device.id), created_at=now, updated_at=now)
            record = replace(record, id=uow.maintenance.add(record))
            self._log(uow, device, account_id, DeviceEventKind.MAINTENANCE_ADDED, record)
            uow.commit()
        return record


class ChangeMaintenance(_Writer):
    def __call__(self, account_id: int, record_id: int, entry: MaintenanceInput) -> MaintenanceRecord:
        self._check(entry)
        with self._uow as uow:
            device, old = self._record_of(uow, account_id, record_id)
            record = replace(_cleaned(entry, device.id), id=old.id, created_at=old.created_at,
                             updated_at=self._clock.now())
            uow.maintenance.update(record)
            self._log(uow, device, account_id, DeviceEventKind.MAINTENANCE_CHANGED, record)
            uow.commit()
        return record


class DeleteMaintenance(_Writer):
    def __call__(self, account_id: int, record_id: int) -> None:
        with self._uow as uow:
            device, record = self._record_of(uow, account_id, record_id)
            uow.maintenance.delete(record_id)
            self._log(uow, device, account_id, DeviceEventKind.MAINTENANCE_DELETED, record)
            uow.commit()


class ListDeviceEvents:
    """The operation log: whoever may see the device reads it."""

    def __init__(self, uow: DevicesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, device_id: int, request: PageRequest) -> Page[DeviceEventEntry]:
        with self._uow as uow:
            device = permitted(uow.device_registry.visible(account_id, device_id), Element.LOG)
            return uow.device_events.page(device.id, device.guid, request)
