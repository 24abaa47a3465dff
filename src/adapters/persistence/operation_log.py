"""The operation log's entries, read by scope (core/audit); audit.py writes them."""

from __future__ import annotations

from collections.abc import Iterator

from sqlalchemy import Select, exists, func, select
from sqlalchemy.orm import Session

from adapters.persistence.audit import write_operation
from adapters.persistence.fda_trail import chain_entry
from adapters.persistence.log_rows import operation_of
from adapters.persistence.models import OperationChangeRow, OperationLogRow, OperationReaderRow
from core.audit.model import Operation, OperationFilter, Scope
from core.shared.paging import Page, PageRequest

_BATCH = 500


def _filtered(scope: Scope, where: OperationFilter) -> Select:
    log = OperationLogRow
    query = select(log.id)
    if not scope.everything:
        readers = OperationReaderRow
        whose = readers.account_id == scope.account_id
        if scope.organization_ids:
            whose = whose | readers.organization_id.in_(sorted(scope.organization_ids))
        query = query.where(exists().where(readers.operation_id == log.id, whose))
    if where.since is not None:
        query = query.where(log.at >= where.since)
    if where.until is not None:
        query = query.where(log.at < where.until)
    if where.user_name:
        query = query.where(func.lower(log.actor_name).contains(where.user_name.lower(), autoescape=True))
    if where.action:
        query = query.where(func.lower(log.action).contains(where.action.lower(), autoescape=True))
    if where.outcome is not None:
        query = query.where(log.outcome == where.outcome.value)
    change = OperationChangeRow
    on_object = []
    if where.object_type:
        on_object.append(change.object_type == where.object_type)
    if where.object_id:
        on_object.append(change.object_id == where.object_id)
    if where.device_id is not None:
        on_object.append(change.device_id == where.device_id)
    if on_object:
        query = query.where(exists().where(change.operation_id == log.id, *on_object))
    return query


class SqlAlchemyOperationLog:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, operation: Operation) -> int:
        """An entry without changes (a refused or failed attempt): its actor reads it, and so
        does the actor's trail while their FDA mode is on."""
        operation_id = write_operation(self._s.connection(), operation)
        if operation.actor_account_id is not None:
            chain_entry(self._s, operation_id, {(operation.actor_account_id, None)})
        return operation_id

    def _load(self, ids: list[int]) -> list[Operation]:
        if not ids:
            return []
        rows = {r.id: r for r in self._s.scalars(select(OperationLogRow).where(OperationLogRow.id.in_(ids)))}
        changes: dict[int, list[OperationChangeRow]] = {}
        for c in self._s.scalars(select(OperationChangeRow).where(OperationChangeRow.operation_id.in_(ids))
                                 .order_by(OperationChangeRow.id)):
            changes.setdefault(c.operation_id, []).append(c)
        return [operation_of(rows[i], changes.get(i, [])) for i in ids if i in rows]

    def page(self, scope: Scope, where: OperationFilter, request: PageRequest) -> Page[Operation]:
        query = _filtered(scope, where)
        total = self._s.scalar(select(func.count()).select_from(query.subquery())) or 0
        ids = list(self._s.scalars(query.order_by(OperationLogRow.at.desc(), OperationLogRow.id.desc())
                                   .offset(request.offset).limit(request.page_size)))
        return Page(request.start, request.page_size, total, self._load(ids))

    def newest(self, scope: Scope, where: OperationFilter, limit: int) -> Iterator[Operation]:
        ids = list(self._s.scalars(_filtered(scope, where)
                                   .order_by(OperationLogRow.at.desc(), OperationLogRow.id.desc()).limit(limit)))
        for i in range(0, len(ids), _BATCH):
            yield from self._load(ids[i:i + _BATCH])
