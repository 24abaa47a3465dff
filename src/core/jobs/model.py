from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

DETAIL_LENGTH = 500
ERROR_LENGTH = 1000


class Outcome(StrEnum):
    # A run left "running" with no end was cut short (its worker killed); the broker hands the
    # job to another worker, whose run is recorded on its own.
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


@dataclass
class JobRun:
    """One run of one job: a retry is a run of its own."""

    name: str
    started_at: datetime
    finished_at: datetime | None = None
    outcome: Outcome = Outcome.RUNNING
    detail: str | None = None  # what it did, in a few words
    error: str | None = None
    id: int | None = None

    def succeed(self, at: datetime, detail: str | None) -> None:
        self.finished_at, self.outcome = at, Outcome.SUCCEEDED
        self.detail = detail[:DETAIL_LENGTH] if detail else None

    def fail(self, at: datetime, error: BaseException) -> None:
        self.finished_at, self.outcome = at, Outcome.FAILED
        self.error = f"{type(error).__name__}: {error}"[:ERROR_LENGTH]
