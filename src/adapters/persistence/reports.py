"""Scheduled reports and their runs (core/reports)."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adapters.persistence.models import ReportRunRow, ReportScheduleRow
from core.exports.model import ExportFormat
from core.reports.model import Frequency, Outcome, Period, Run, RunFile, Schedule
from core.shared.paging import Page, PageRequest


def _schedule(row: ReportScheduleRow) -> Schedule:
    return Schedule(id=row.id, account_id=row.account_id, name=row.name, frequency=Frequency(row.frequency),
                    device_ids=list(row.device_ids), format=ExportFormat(row.format), recipients=list(row.recipients),
                    enabled=row.enabled, created_at=row.created_at, weekday=row.weekday, month_day=row.month_day)


def _values(schedule: Schedule) -> dict[str, object]:
    return {"name": schedule.name, "frequency": schedule.frequency.value, "weekday": schedule.weekday,
            "month_day": schedule.month_day, "device_ids": list(schedule.device_ids),
            "format": schedule.format.value, "recipients": list(schedule.recipients), "enabled": schedule.enabled}


class SqlAlchemyScheduleRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, schedule: Schedule) -> int:
        row = ReportScheduleRow(account_id=schedule.account_id, created_at=schedule.created_at, **_values(schedule))
        self._s.add(row)
        self._s.flush()
        return row.id

    def get(self, schedule_id: int) -> Schedule | None:
        row = self._s.get(ReportScheduleRow, schedule_id)
        return _schedule(row) if row is not None else None

    def save(self, schedule: Schedule) -> None:
        self._s.execute(update(ReportScheduleRow).where(ReportScheduleRow.id == schedule.id)
                        .values(**_values(schedule)))

    def delete(self, schedule_id: int) -> None:
        # Not left to the foreign key: SQLite enforces it only with its pragma on.
        self._s.execute(delete(ReportRunRow).where(ReportRunRow.schedule_id == schedule_id))
        self._s.execute(delete(ReportScheduleRow).where(ReportScheduleRow.id == schedule_id))

    def page(self, account_id: int, request: PageRequest) -> Page[Schedule]:
        where = ReportScheduleRow.account_id == account_id
        total = self._s.scalar(select(func.count()).select_from(ReportScheduleRow).where(where))
        rows = self._s.scalars(select(ReportScheduleRow).where(where).order_by(ReportScheduleRow.id.desc())
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total or 0, [_schedule(r) for r in rows])

    def enabled_after(self, after_id: int, limit: int) -> list[Schedule]:
        rows = self._s.scalars(select(ReportScheduleRow)
                               .where(ReportScheduleRow.enabled.is_(True), ReportScheduleRow.id > after_id)
                               .order_by(ReportScheduleRow.id).limit(limit))
        return [_schedule(r) for r in rows]


def _run(row: ReportRunRow) -> Run:
    return Run(id=row.id, schedule_id=row.schedule_id, period_start=row.period_start, period_end=row.period_end,
               started_at=row.started_at, outcome=Outcome(row.outcome),
               files=[RunFile(**f) for f in row.files], sent_to=list(row.sent_to), attempts=row.attempts,
               finished_at=row.finished_at, error=row.error)


class SqlAlchemyRunRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def _find(self, schedule_id: int, start: datetime) -> ReportRunRow | None:
        return self._s.scalar(select(ReportRunRow).where(ReportRunRow.schedule_id == schedule_id,
                                                         ReportRunRow.period_start == start))

    def claim(self, schedule_id: int, period: Period, now: datetime) -> Run:
        row = self._find(schedule_id, period.start)
        if row is None:
            try:
                # Two workers claiming at once: the unique key lets one in, the other reads its row.
                with self._s.begin_nested():
                    self._s.add(ReportRunRow(schedule_id=schedule_id, period_start=period.start,
                                             period_end=period.end, started_at=now, outcome=Outcome.RUNNING.value,
                                             files=[], sent_to=[], attempts=0))
            except IntegrityError:
                pass
            row = self._find(schedule_id, period.start)
        assert row is not None
        return _run(row)

    def save(self, run: Run) -> None:
        self._s.execute(update(ReportRunRow).where(ReportRunRow.id == run.id).values(
            outcome=run.outcome.value, files=[asdict(f) for f in run.files], sent_to=list(run.sent_to),
            attempts=run.attempts, finished_at=run.finished_at, error=run.error[:200] if run.error else None))

    def latest(self, schedule_id: int) -> Run | None:
        row = self._s.scalars(select(ReportRunRow).where(ReportRunRow.schedule_id == schedule_id)
                              .order_by(ReportRunRow.period_start.desc()).limit(1)).first()
        return _run(row) if row is not None else None

    def page(self, schedule_id: int, request: PageRequest) -> Page[Run]:
        where = ReportRunRow.schedule_id == schedule_id
        total = self._s.scalar(select(func.count()).select_from(ReportRunRow).where(where))
        rows = self._s.scalars(select(ReportRunRow).where(where).order_by(ReportRunRow.period_start.desc())
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total or 0, [_run(r) for r in rows])
