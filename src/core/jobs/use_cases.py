"""Running a job so that it leaves a record, and reading the records back."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import timedelta

from core.jobs.model import JobRun
from core.jobs.ports import JobsUnitOfWork
from core.shared.clock import Clock

log = logging.getLogger(__name__)
# The frequent jobs leave thousands of records a day; two weeks tell what went wrong lately.
RUNS_KEPT_FOR = timedelta(days=14)


class RecordedRun:
    """Runs one job between two short transactions of its own: the record says "running" while
    the job works (so a run cut short stays visible), then how it ended. The job's exception is
    raised again for the caller to retry."""

    def __init__(self, uow: JobsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, name: str, job: Callable[[], str | None]) -> str | None:
        run = JobRun(name, self._clock.now())
        with self._uow as uow:
            uow.job_runs.add(run)
            uow.commit()
        try:
            detail = job()
        except Exception as error:
            run.fail(self._clock.now(), error)
            self._finish(run)
            raise
        run.succeed(self._clock.now(), detail)
        self._finish(run)
        return detail

    def _finish(self, run: JobRun) -> None:
        try:
            with self._uow as uow:
                uow.job_runs.save(run)
                uow.commit()
        except Exception:  # the job's own outcome (or error) matters more than its record
            log.exception("could not record the end of job run %s (%s)", run.id, run.name)


class ListJobRuns:
    def __init__(self, uow: JobsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, limit: int = 20) -> list[JobRun]:
        with self._uow as uow:
            return uow.job_runs.recent(limit)


class PruneJobRuns:
    def __init__(self, uow: JobsUnitOfWork, clock: Clock, kept_for: timedelta = RUNS_KEPT_FOR) -> None:
        self._uow, self._clock, self._kept_for = uow, clock, kept_for

    def __call__(self) -> int:
        with self._uow as uow:
            deleted = uow.job_runs.delete_started_before(self._clock.now() - self._kept_for)
            uow.commit()
        return deleted


class OverdueJobs:
    """The jobs whose last start is longer ago than their period, or that never ran: what beat
    sends once when it starts. Beat runs a daily job only at its hour, so a console that is not
    up then (a laptop under `make run`, a production beat restarted at the wrong time) would
    otherwise skip retention for the day; and a fresh console shows every job at work at once."""

    def __init__(self, uow: JobsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, periods: Mapping[str, timedelta]) -> list[str]:
        with self._uow as uow:
            last = uow.job_runs.last_started()
        now = self._clock.now()
        return [name for name, period in periods.items() if name not in last or now - last[name] >= period]
