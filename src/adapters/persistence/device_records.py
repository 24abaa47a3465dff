"""Repositories of what hangs on a device besides its readings and alarms: the commands sent to
it, its maintenance records, and its operation log (device_events) as the detail page reads it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from adapters.persistence.models import (
    AccountRow,
    DeviceCommandRow,
    DeviceEventRow,
    DeviceMaintenanceRow,
    DeviceRow,
)
from adapters.persistence.results import rows_written
from core.devices.device_commands import CommandAnswer, CommandKind, CommandState, DeviceCommand, DeviceParams
from core.devices.events import DeviceEventEntry
from core.devices.model import MaintenanceRecord
from core.shared.paging import Page, PageRequest


def _command(row: DeviceCommandRow) -> DeviceCommand:
    return DeviceCommand(row.id, row.device_id, CommandKind(row.kind), DeviceParams.from_payload(row.payload),
                         row.account_id, row.sent_at, CommandState(row.state), row.error, row.answered_at)


class SqlAlchemyDeviceCommandRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, command: DeviceCommand) -> None:
        self._s.add(DeviceCommandRow(id=command.id, device_id=command.device_id, kind=str(command.kind),
                                     payload=command.params.as_payload(), account_id=command.account_id,
                                     sent_at=command.sent_at, state=str(command.state), error=command.error,
                                     answered_at=command.answered_at))
        self._s.flush()

    def _latest(self, device_id: int, kind: CommandKind, *states: CommandState) -> DeviceCommand | None:
        query = select(DeviceCommandRow).where(DeviceCommandRow.device_id == device_id,
                                               DeviceCommandRow.kind == str(kind))
        if states:
            query = query.where(DeviceCommandRow.state.in_([str(s) for s in states]))
        # answered_at orders acknowledgements: a late answer to an older command is not the newest
        order = (DeviceCommandRow.answered_at.desc(),) if states else ()
        row = self._s.scalars(query.order_by(*order, DeviceCommandRow.sent_at.desc()).limit(1)).first()
        return _command(row) if row else None

    def latest(self, device_id: int, kind: CommandKind) -> DeviceCommand | None:
        return self._latest(device_id, kind)

    def latest_acknowledged(self, device_id: int, kind: CommandKind) -> DeviceCommand | None:
        return self._latest(device_id, kind, CommandState.ACKNOWLEDGED)

    def mark_unsent(self, command_id: str) -> None:
        self._s.execute(update(DeviceCommandRow).where(DeviceCommandRow.id == command_id,
                                                       DeviceCommandRow.state == str(CommandState.PENDING))
                        .values(state=str(CommandState.UNSENT)))

    def answer(self, answer: CommandAnswer, at: datetime) -> bool:
        of_device = select(DeviceRow.id).where(DeviceRow.guid == answer.guid).scalar_subquery()
        state = CommandState.ACKNOWLEDGED if answer.ok else CommandState.FAILED
        result = self._s.execute(
            update(DeviceCommandRow)
            .where(DeviceCommandRow.id == answer.command_id, DeviceCommandRow.device_id == of_device,
                   or_(DeviceCommandRow.state == str(CommandState.PENDING),
                       DeviceCommandRow.state == str(CommandState.UNSENT)))
            .values(state=str(state), error=None if answer.ok else answer.error, answered_at=at))
        return rows_written(result) > 0


def _record(row: DeviceMaintenanceRow) -> MaintenanceRecord:
    return MaintenanceRecord(device_id=row.device_id, maintained_on=row.maintained_on, person=row.person,
                             reason=row.reason, content=row.content, approver=row.approver, standard=row.standard,
                             result=row.result, id=row.id, created_at=row.created_at, updated_at=row.updated_at)


class SqlAlchemyMaintenanceRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def page(self, device_id: int, request: PageRequest) -> Page[MaintenanceRecord]:
        where = DeviceMaintenanceRow.device_id == device_id
        total = self._s.scalar(select(func.count()).select_from(DeviceMaintenanceRow).where(where)) or 0
        rows = self._s.scalars(select(DeviceMaintenanceRow).where(where)
                               .order_by(DeviceMaintenanceRow.maintained_on.desc(), DeviceMaintenanceRow.id.desc())
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, [_record(r) for r in rows])

    def get(self, record_id: int) -> MaintenanceRecord | None:
        row = self._s.get(DeviceMaintenanceRow, record_id)
        return _record(row) if row else None

    def add(self, record: MaintenanceRecord) -> int:
        row = DeviceMaintenanceRow(device_id=record.device_id, maintained_on=record.maintained_on,
                                   person=record.person, approver=record.approver, reason=record.reason,
                                   content=record.content, standard=record.standard, result=record.result,
                                   created_at=record.created_at, updated_at=record.updated_at)
        self._s.add(row)
        self._s.flush()
        return row.id

    def update(self, record: MaintenanceRecord) -> None:
        self._s.execute(update(DeviceMaintenanceRow).where(DeviceMaintenanceRow.id == record.id).values(
            maintained_on=record.maintained_on, person=record.person, approver=record.approver,
            reason=record.reason, content=record.content, standard=record.standard, result=record.result,
            updated_at=record.updated_at))

    def delete(self, record_id: int) -> None:
        self._s.execute(delete(DeviceMaintenanceRow).where(DeviceMaintenanceRow.id == record_id))


def event_page(session: Session, device_id: int, guid: str, request: PageRequest) -> Page[DeviceEventEntry]:
    # The GUID too: on SQLite a deleted device's id can be given to a device added later.
    where = (DeviceEventRow.device_id == device_id) & (DeviceEventRow.device_guid == guid)
    total = session.scalar(select(func.count()).select_from(DeviceEventRow).where(where)) or 0
    rows = session.execute(
        select(DeviceEventRow.id, DeviceEventRow.kind, DeviceEventRow.at, DeviceEventRow.detail, AccountRow.user_name)
        .outerjoin(AccountRow, AccountRow.id == DeviceEventRow.account_id).where(where)
        .order_by(DeviceEventRow.at.desc(), DeviceEventRow.id.desc()).offset(request.offset).limit(request.page_size))
    return Page(request.start, request.page_size, total,
                [DeviceEventEntry(r.id, r.kind, r.at, r.detail, r.user_name) for r in rows])
