from __future__ import annotations

from datetime import datetime
from typing import Protocol

from core.jobs.model import JobRun
from core.shared.transaction import Transaction


class JobRunRepository(Protocol):
    def add(self, run: JobRun) -> None:
        """Store a new run and give it its id."""
        ...

    def save(self, run: JobRun) -> None: ...

    def recent(self, limit: int) -> list[JobRun]:
        """The latest runs, newest first."""
        ...

    def last_started(self) -> dict[str, datetime]:
        """When each job last started, by name (jobs that never ran are absent)."""
        ...

    def delete_started_before(self, instant: datetime) -> int:
        """Forget the runs started before the instant; how many went."""
        ...


class JobsUnitOfWork(Transaction, Protocol):
    @property
    def job_runs(self) -> JobRunRepository: ...
