"""Managing an account's schedules, and the job that sends every schedule's due period."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from core.devices.access import Access, accessible
from core.exports.model import Export, ExportFormat, ExportKind, ExportStatus
from core.exports.ports import Translate
from core.reports.model import (
    ATTACH_LIMIT,
    DEVICE_GONE,
    MAX_ATTEMPTS,
    MAX_DEVICES,
    MAX_RECIPIENTS,
    Frequency,
    Outcome,
    Period,
    Run,
    RunFile,
    Schedule,
    due_periods,
)
from core.reports.ports import Attachment, ExportFiles, ReportMailer, ReportsUnitOfWork, WriteExport
from core.shared.clock import Clock
from core.shared.errors import InvalidInput, NotFound
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest

log = logging.getLogger("coldchain.reports")

DUPLICATE_RECIPIENT = N_("Each address may be given only once")
WEEKDAY_NEEDED = N_("Choose the day of the week it is sent")
MONTH_DAY_NEEDED = N_("Choose the day of the month it is sent (1-28)")
NO_FILE = N_("The file could not be written")
CONTENT_TYPES = {
    ExportFormat.CSV: "text/csv",
    ExportFormat.XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ExportFormat.PDF: "application/pdf",
}


@dataclass(frozen=True)
class ScheduleInput:
    name: str
    frequency: Frequency
    device_ids: Sequence[int]
    format: ExportFormat
    recipients: Sequence[str]
    enabled: bool = True
    weekday: int | None = None
    month_day: int | None = None


def _checked(cmd: ScheduleInput) -> tuple[list[int], list[str]]:
    """The devices without repeats, the addresses as given; the edge has bounded and shaped
    them, the rules across fields are checked here."""
    if cmd.frequency is Frequency.WEEKLY and cmd.weekday is None:
        raise InvalidInput("weekday", WEEKDAY_NEEDED)
    if cmd.frequency is Frequency.MONTHLY and (cmd.month_day is None or not 1 <= cmd.month_day <= 28):
        raise InvalidInput("monthDay", MONTH_DAY_NEEDED)
    seen: set[str] = set()
    for address in cmd.recipients:
        if address.casefold() in seen:
            raise InvalidInput("recipients", DUPLICATE_RECIPIENT)
        seen.add(address.casefold())
    devices = list(dict.fromkeys(cmd.device_ids))
    assert 1 <= len(devices) <= MAX_DEVICES and 1 <= len(cmd.recipients) <= MAX_RECIPIENTS
    return devices, list(cmd.recipients)


def _require_devices(uow: ReportsUnitOfWork, account_id: int, device_ids: list[int]) -> dict[int, str]:
    """Every device visible to the account (404 otherwise) and its to change (403 for a
    read-only member): a schedule sends the device's data away, as an export of it does not.
    Their names by id."""
    found = {d.id: d for d in uow.device_registry.visible_many(account_id, device_ids)}
    for device_id in device_ids:
        accessible(found.get(device_id), Access.WRITE)
    return {device_id: found[device_id].name for device_id in device_ids}


def _owned(uow: ReportsUnitOfWork, account_id: int, schedule_id: int) -> Schedule:
    schedule = uow.report_schedules.get(schedule_id)
    if schedule is None or schedule.account_id != account_id:
        raise NotFound()
    return schedule


def _apply(schedule: Schedule, cmd: ScheduleInput, devices: list[int], recipients: list[str]) -> None:
    schedule.name, schedule.frequency, schedule.format = cmd.name, cmd.frequency, cmd.format
    schedule.device_ids, schedule.recipients, schedule.enabled = devices, recipients, cmd.enabled
    schedule.weekday = cmd.weekday if cmd.frequency is Frequency.WEEKLY else None
    schedule.month_day = cmd.month_day if cmd.frequency is Frequency.MONTHLY else None


class CreateSchedule:
    def __init__(self, uow: ReportsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, cmd: ScheduleInput) -> Schedule:
        devices, recipients = _checked(cmd)
        with self._uow as uow:
            names = _require_devices(uow, account_id, devices)
            schedule = Schedule(None, account_id, "", cmd.frequency, [], cmd.format, [], True, self._clock.now())
            _apply(schedule, cmd, devices, recipients)
            schedule.device_names = names
            schedule.id = uow.report_schedules.add(schedule)
            uow.commit()
        return schedule


class UpdateSchedule:
    def __init__(self, uow: ReportsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, schedule_id: int, cmd: ScheduleInput) -> Schedule:
        devices, recipients = _checked(cmd)
        with self._uow as uow:
            schedule = _owned(uow, account_id, schedule_id)
            names = _require_devices(uow, account_id, devices)
            _apply(schedule, cmd, devices, recipients)
            schedule.device_names = names
            uow.report_schedules.save(schedule)
            uow.commit()
        return schedule


class DeleteSchedule:
    def __init__(self, uow: ReportsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, schedule_id: int) -> None:
        with self._uow as uow:
            _owned(uow, account_id, schedule_id)
            uow.report_schedules.delete(schedule_id)
            uow.commit()


class ListSchedules:
    def __init__(self, uow: ReportsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, request: PageRequest) -> Page[Schedule]:
        with self._uow as uow:
            page = uow.report_schedules.page(account_id, request)
            wanted = {device_id for schedule in page.items for device_id in schedule.device_ids}
            names = {d.id: d.name for d in uow.device_registry.visible_many(account_id, sorted(wanted))}
        for schedule in page.items:
            schedule.device_names = {i: names[i] for i in schedule.device_ids if i in names}
        return page


class ListRuns:
    def __init__(self, uow: ReportsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, schedule_id: int, request: PageRequest) -> Page[Run]:
        with self._uow as uow:
            _owned(uow, account_id, schedule_id)
            return uow.report_runs.page(schedule_id, request)


# --- the job -----------------------------------------------------------------------------------


class MailNotSent(Exception):
    """Some run's mail could not be sent: the job fails so that it is retried; the run resumes
    with the recipients that have not had it."""


@dataclass(frozen=True)
class _Owner:
    name: str
    language: str
    zone: ZoneInfo


class SendDueReports:
    """Every enabled schedule whose period is due and not yet sent, and the few periods before it
    that were missed (due_periods): one file per device written by the download centre, then one
    mail per recipient. Idempotent: a period's run is unique, a finished run is left alone, and an
    unfinished one (a worker died, the mail server refused) resumes where it stopped, writing no
    file and mailing no recipient twice."""

    BATCH = 200

    def __init__(self, uow: ReportsUnitOfWork, clock: Clock, write_export: WriteExport, files: ExportFiles,
                 mailer: ReportMailer, translate: Translate, default_language: str, default_zone: str,
                 download_url: str) -> None:
        self._uow, self._clock, self._write, self._files = uow, clock, write_export, files
        self._mailer, self._translate = mailer, translate
        self._default_language, self._default_zone, self._download_url = default_language, default_zone, download_url

    def __call__(self) -> str:
        after, sent, unsent = 0, 0, 0
        while True:
            with self._uow as uow:
                batch = uow.report_schedules.enabled_after(after, self.BATCH)
            for schedule in batch:
                try:
                    sent += self._run(schedule)
                except MailNotSent:
                    unsent += 1
            if len(batch) < self.BATCH:
                break
            after = batch[-1].id or 0
        if unsent:
            raise MailNotSent(f"{unsent} report(s) not sent yet; {sent} sent")
        return f"sent {sent} report(s)"

    def _owner(self, account_id: int) -> _Owner | None:
        with self._uow as uow:
            account = uow.accounts.get(account_id)
        if account is None:
            return None
        try:
            zone = ZoneInfo(account.time_zone or self._default_zone)
        except (ValueError, KeyError):
            zone = ZoneInfo(self._default_zone)
        return _Owner(account.user_name, account.language or self._default_language, zone)

    def _run(self, schedule: Schedule) -> int:
        """The reports of the schedule sent now, oldest period first; a period whose mail fails
        stops the later ones until the retry."""
        assert schedule.id is not None
        owner = self._owner(schedule.account_id)
        if owner is None:
            return 0
        now = self._clock.now()
        with self._uow as uow:
            last = uow.report_runs.latest(schedule.id)
        last_sent = Period(last.period_start, last.period_end) if last is not None else None
        return sum(self._run_period(schedule, owner, period)
                   for period in due_periods(schedule, now, owner.zone, last_sent))

    def _run_period(self, schedule: Schedule, owner: _Owner, period: Period) -> int:
        assert schedule.id is not None
        with self._uow as uow:
            run = uow.report_runs.claim(schedule.id, period, self._clock.now())
            uow.commit()
        if run.outcome.final:
            return 0
        run.attempts += 1
        self._write_files(schedule, run, owner)
        attachments, links = self._attachments(schedule, run)
        t = self._labels(owner.language)
        subject = t(N_("Scheduled report {name}"), name=schedule.name)
        body = self._body(schedule, run, owner, links)
        for recipient in schedule.recipients:
            if recipient.casefold() in (r.casefold() for r in run.sent_to):
                continue
            try:
                self._mailer.send(recipient, subject, body, attachments)
            except Exception as error:
                log.warning("report %s: mail to a recipient failed: %s", schedule.id, error)
                run.error = str(error)[:200] or type(error).__name__
                if run.attempts >= MAX_ATTEMPTS:
                    run.outcome, run.finished_at = Outcome.FAILED, self._clock.now()
                self._save(run)
                if run.outcome.final:
                    return 0
                raise MailNotSent() from error
            run.sent_to.append(recipient)
            self._save(run)  # recorded at once: a retry does not mail this recipient again
        written = [f for f in run.files if f.export_id is not None]
        run.outcome = (Outcome.OK if len(written) == len(run.files) else Outcome.PARTIAL if written
                       else Outcome.FAILED)
        run.finished_at, run.error = self._clock.now(), None
        self._save(run)
        return 1

    def _save(self, run: Run) -> None:
        with self._uow as uow:
            uow.report_runs.save(run)
            uow.commit()

    def _write_files(self, schedule: Schedule, run: Run, owner: _Owner) -> None:
        """Each device's file, recorded as it is written: a resumed run writes only those
        missing."""
        done = {f.device_id for f in run.files}
        for device_id in schedule.device_ids:
            if device_id in done:
                continue
            run.files.append(self._write_file(schedule, run, owner, device_id))
            self._save(run)

    def _write_file(self, schedule: Schedule, run: Run, owner: _Owner, device_id: int) -> RunFile:
        with self._uow as uow:
            device = uow.device_registry.visible(schedule.account_id, device_id)
            if device is None:
                return RunFile(device_id, error=DEVICE_GONE)
            export = Export(secrets.token_urlsafe(16), schedule.account_id, ExportKind.READINGS, schedule.format,
                            self._clock.now(), owner.language, owner.zone.key, device_id=device_id,
                            since=run.period_start, until=run.period_end, title=device.name)
            uow.exports.add(export)
            uow.commit()
        self._write(export.id)
        with self._uow as uow:
            written = uow.exports.get(export.id)
        if written is None or written.status is not ExportStatus.READY:
            return RunFile(device_id, device.name, error=(written.error if written and written.error else NO_FILE))
        return RunFile(device_id, device.name, written.id, written.file_name, written.size)

    def _attachments(self, schedule: Schedule, run: Run) -> tuple[list[Attachment], bool]:
        """The files to attach, or none and True when they are too big together (or one is
        gone): the mail then links to the download centre."""
        attachments, total = [], 0
        for f in run.files:
            if f.export_id is None:
                continue
            total += f.size or 0
            path = self._files.path(f"{f.export_id}.{schedule.format.value}")
            if path is None or total > ATTACH_LIMIT:
                return [], True
            attachments.append(Attachment(f.file_name or path, path, CONTENT_TYPES[schedule.format]))
        return attachments, False

    def _labels(self, language: str):  # type: ignore[no-untyped-def]
        def t(msgid: str, **params: object) -> str:
            return self._translate(msgid, language, **params)
        return t

    def _body(self, schedule: Schedule, run: Run, owner: _Owner, links: bool) -> str:
        t = self._labels(owner.language)
        start = run.period_start.astimezone(owner.zone).strftime("%Y-%m-%d %H:%M")
        end = run.period_end.astimezone(owner.zone).strftime("%Y-%m-%d %H:%M")
        lines = [t(N_("Scheduled report {name} of account {account}"), name=schedule.name, account=owner.name),
                 t(N_("Period: {start} to {end} ({zone})"), start=start, end=end, zone=owner.zone.key), ""]
        for f in run.files:
            if f.export_id is not None:
                lines.append(f"- {f.device_name}: {f.file_name}")
            else:
                lines.append(f"- {f.device_name or f.device_id}: {t(f.error or NO_FILE)}")
        lines.append("")
        if links:
            lines.append(t(N_("The files are too large to attach; download them within a week from the download "
                              "centre: {url}"), url=self._download_url))
        else:
            lines.append(t(N_("The files are attached.")))
        return "\n".join(lines)

