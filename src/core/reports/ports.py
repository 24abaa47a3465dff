from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from core.accounts.ports import AccountRepository
from core.devices.ports import DeviceRepository
from core.exports.ports import ExportFiles, ExportRepository
from core.reports.model import Period, Run, Schedule
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction


class ScheduleRepository(Protocol):
    def add(self, schedule: Schedule) -> int: ...

    def get(self, schedule_id: int) -> Schedule | None: ...

    def save(self, schedule: Schedule) -> None: ...

    def delete(self, schedule_id: int) -> None:
        """The schedule and its runs."""
        ...

    def page(self, account_id: int, request: PageRequest) -> Page[Schedule]:
        """The account's schedules, newest first."""
        ...

    def enabled_after(self, after_id: int, limit: int) -> list[Schedule]:
        """Enabled schedules of every account with an id above `after_id`, by id: the job reads them a batch at a
        time."""
        ...


class RunRepository(Protocol):
    def claim(self, schedule_id: int, period: Period, now: datetime) -> Run:
        """The schedule's run of the period: a new one, or the one already recorded (unique per
        schedule and period start), so a period is never run twice over."""
        ...

    def save(self, run: Run) -> None: ...

    def latest(self, schedule_id: int) -> Run | None:
        """The schedule's run of the latest period, None before its first."""
        ...

    def page(self, schedule_id: int, request: PageRequest) -> Page[Run]:
        """The schedule's runs, the latest period first."""
        ...


@dataclass(frozen=True)
class Attachment:
    file_name: str
    path: str
    content_type: str


class ReportMailer(Protocol):
    def send(self, recipient: str, subject: str, body: str, attachments: Sequence[Attachment]) -> None:
        """Raises when the mail server did not take the mail."""
        ...


class WriteExport(Protocol):
    """Writes one recorded export's file (the download centre's RunExport)."""

    def __call__(self, export_id: str, /) -> str: ...


class ReportsUnitOfWork(Transaction, Protocol):
    @property
    def report_schedules(self) -> ScheduleRepository: ...
    @property
    def report_runs(self) -> RunRepository: ...
    @property
    def exports(self) -> ExportRepository: ...
    @property
    def device_registry(self) -> DeviceRepository: ...
    @property
    def accounts(self) -> AccountRepository: ...


__all__ = ["Attachment", "ExportFiles", "ReportMailer", "ReportsUnitOfWork", "RunRepository", "ScheduleRepository",
           "WriteExport"]
