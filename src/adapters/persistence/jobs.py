"""The record of job runs."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, delete, func, select
from sqlalchemy.orm import Session

from adapters.persistence.models import JobRunRow
from core.jobs.model import JobRun, Outcome


class SqlAlchemyJobRunRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, run: JobRun) -> None:
        row = JobRunRow(name=run.name, started_at=run.started_at, outcome=run.outcome.value)
        self._s.add(row)
        self._s.flush()
        run.id = row.id

    def save(self, run: JobRun) -> None:
        row = self._s.get_one(JobRunRow, run.id)
        row.finished_at, row.outcome, row.detail, row.error = run.finished_at, run.outcome.value, run.detail, run.error

    def recent(self, limit: int) -> list[JobRun]:
        rows = self._s.scalars(select(JobRunRow).order_by(JobRunRow.started_at.desc(), JobRunRow.id.desc())
                               .limit(limit))
        return [JobRun(r.name, r.started_at, r.finished_at, Outcome(r.outcome), r.detail, r.error, r.id) for r in rows]

    def last_started(self) -> dict[str, datetime]:
        rows = self._s.execute(select(JobRunRow.name, func.max(JobRunRow.started_at)).group_by(JobRunRow.name))
        # max() keeps the column's type, so the instants come back aware, in UTC, on every backend.
        return {name: started for name, started in rows}

    def delete_started_before(self, instant: datetime) -> int:
        result = cast(CursorResult[Any], self._s.execute(delete(JobRunRow).where(JobRunRow.started_at < instant)))
        return result.rowcount
