"""Reading the operation log: a customer reads the entries of what they own and did, and of the
organizations they manage; an operator reads everybody's. Writing it is no use case's business:
the persistence adapter records every change of a request made through the API."""

from __future__ import annotations

from dataclasses import dataclass

from core.audit.model import EXPORT_MAX, Operation, OperationFilter, Scope
from core.audit.ports import AuditUnitOfWork
from core.devices.grants import Element, permitted
from core.organizations.model import MANAGERS
from core.shared.paging import Page, PageRequest


@dataclass(frozen=True)
class Reader:
    account_id: int
    operator: bool  # holds the back office's permission: reads every entry


def _scope(uow: AuditUnitOfWork, reader: Reader) -> Scope:
    if reader.operator:
        return Scope(reader.account_id, everything=True)
    managed = frozenset(o.organization_id for o in uow.organizations.mine(reader.account_id)
                        if o.role_code in MANAGERS or o.creator)
    return Scope(reader.account_id, organization_ids=managed)


class ListOperations:
    def __init__(self, uow: AuditUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, reader: Reader, where: OperationFilter, request: PageRequest) -> Page[Operation]:
        with self._uow as uow:
            return uow.operation_log.page(_scope(uow, reader), where, request)


class ExportOperations:
    """The entries of a filter as the list shows them, newest first, at most EXPORT_MAX."""

    def __init__(self, uow: AuditUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, reader: Reader, where: OperationFilter) -> list[Operation]:
        with self._uow as uow:
            return list(uow.operation_log.newest(_scope(uow, reader), where, EXPORT_MAX))


class ListDeviceOperations:
    """A device's entries, for whoever may see the device's operation log (its `log` element):
    every change of it or of what hangs on it (alarm rules, parameters, maintenance records),
    whoever made it."""

    def __init__(self, uow: AuditUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, device_id: int, request: PageRequest) -> Page[Operation]:
        with self._uow as uow:
            device = permitted(uow.device_registry.visible(account_id, device_id), Element.LOG)
            return uow.operation_log.page(Scope(account_id, everything=True), OperationFilter(device_id=device.id),
                                          request)


class RecordOperation:
    """An attempt that changed nothing (refused or failed), in a transaction of its own."""

    def __init__(self, uow: AuditUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, operation: Operation) -> int:
        with self._uow as uow:
            operation_id = uow.operation_log.add(operation)
            uow.commit()
        return operation_id
