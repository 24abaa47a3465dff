from __future__ import annotations

from datetime import datetime
from types import TracebackType
from typing import Protocol, Self

from core.jobs.model import JobRun


class JobRunRepository(Protocol):
    def add(self, run: JobRun) -> None:
        """Store a new run and give it its id."""
        ...

    def save(self, run: JobRun) -> None: ...

    def recent(self, limit: int) -> list[JobRun]:
        """The latest runs, newest first."""
        ...

    def delete_started_before(self, instant: datetime) -> int:
        """Forget the runs started before the instant; how many went."""
        ...


class JobsUnitOfWork(Protocol):
    """The transaction the jobs' record needs, and only that."""

    @property
    def job_runs(self) -> JobRunRepository: ...

    def __enter__(self) -> Self: ...
    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...
    def commit(self) -> None: ...
