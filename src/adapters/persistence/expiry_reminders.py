"""Devices due an expiry reminder, and the record of the reminders sent."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from sqlalchemy import and_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from adapters.persistence.models import DeviceRow, ExpiryReminderRow
from core.devices.expiry_reminders import ReminderCandidate


class SqlAlchemyExpiryReminderRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def candidates(self, since: datetime, until: datetime) -> list[ReminderCandidate]:
        rows = self._s.execute(
            select(DeviceRow.id, DeviceRow.device_name, DeviceRow.guid, DeviceRow.service_expires_at,
                   DeviceRow.country_code, DeviceRow.owner_account_id)
            .where(DeviceRow.owner_account_id.is_not(None), DeviceRow.scrapped_at.is_(None),
                   DeviceRow.service_expires_at >= since, DeviceRow.service_expires_at <= until)
            .order_by(DeviceRow.id)).all()
        sent: dict[int, set[int]] = defaultdict(set)
        if rows:
            reminders = self._s.execute(
                select(ExpiryReminderRow.device_id, ExpiryReminderRow.stage)
                .join(DeviceRow, and_(DeviceRow.id == ExpiryReminderRow.device_id,
                                      DeviceRow.service_expires_at == ExpiryReminderRow.expires_at))
                .where(DeviceRow.service_expires_at >= since, DeviceRow.service_expires_at <= until))
            for device_id, stage in reminders:
                sent[device_id].add(stage)
        return [ReminderCandidate(r.id, r.device_name, r.guid, r.service_expires_at, r.owner_account_id,
                                  r.country_code, frozenset(sent[r.id])) for r in rows]

    def record(self, device_id: int, expires_at: datetime, stage: int, at: datetime) -> bool:
        postgres = self._s.get_bind().dialect.name == "postgresql"
        # On PostgreSQL a concurrent insert of the same key waits for the other transaction and
        # then does nothing: one of two runs writes the reminder.
        statement = ((pg_insert if postgres else sqlite_insert)(ExpiryReminderRow)
                     .values(device_id=device_id, expires_at=expires_at, stage=stage, sent_at=at)
                     .on_conflict_do_nothing()
                     .returning(ExpiryReminderRow.device_id))
        return self._s.execute(statement).first() is not None
