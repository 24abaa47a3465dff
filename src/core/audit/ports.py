from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from core.audit.model import Operation, OperationFilter, Scope
from core.devices.ports import DeviceRepository
from core.organizations.ports import OrganizationRepository
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction


class OperationLog(Protocol):
    """Append-only: entries are added, never changed or removed (the database refuses both)."""

    def add(self, operation: Operation) -> int: ...

    def page(self, scope: Scope, where: OperationFilter, request: PageRequest) -> Page[Operation]:
        """The entries the scope reads that match, newest first, with their changes."""
        ...

    def newest(self, scope: Scope, where: OperationFilter, limit: int) -> Iterator[Operation]:
        """Up to `limit` entries as page() finds them, read in batches."""
        ...


class AuditUnitOfWork(Transaction, Protocol):
    @property
    def operation_log(self) -> OperationLog: ...
    @property
    def organizations(self) -> OrganizationRepository: ...
    @property
    def device_registry(self) -> DeviceRepository: ...


__all__ = ["AuditUnitOfWork", "OperationLog"]
