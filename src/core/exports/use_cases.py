"""Asking for an export, writing it (a job), listing, downloading, deleting and purging exports,
and checking a report's verification code."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from core.devices.grants import Element, permitted
from core.devices.model import DeviceFilter, VipState
from core.exports import device_report, signed, stats
from core.exports.device_report import CHART_POINTS, TABLE_POINTS, Labels, local, unit_sign
from core.exports.model import (
    DEVICE_LIST_EXPORT_FAILED,
    EXPORT_FAILED,
    EXPORT_READY,
    GAVE_UP,
    KEPT_FOR,
    MAX_PENDING,
    MAX_SPAN,
    NEVER_FINISHED,
    ORDER_PROBLEM,
    SPAN_PROBLEM,
    Certificate,
    Export,
    ExportFormat,
    ExportKind,
    ExportStatus,
    safe_file_name,
)
from core.exports.ports import (
    ExportFiles,
    ExportRenderer,
    ExportsUnitOfWork,
    ReadingsSheet,
    Translate,
    TranslateInContext,
)
from core.exports.verification import group_code, normalise_code, verification_code
from core.fda.model import EXPORT, Meaning, SignatureInput, Signer
from core.fda.ports import ChangeSigning, TrailCheck
from core.inbox.model import MessageKind, SystemMessage
from core.inbox.posting import post
from core.shared.clock import Clock
from core.shared.edition import reading_languages
from core.shared.errors import InvalidInput, NotFound, RuleViolation
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest
from core.telemetry.downsample import Point

CHUNK = 5000  # readings read per transaction
LIST_PAGE = 200  # devices read per transaction
# An export still pending this long after it was asked for never reached a worker (the broker was
# down) or outlived its retries: it no longer counts against the account's limit.
STUCK_AFTER = timedelta(hours=1)
# An export still open this long after it was asked for will never be written, and the sweep
# (FailAbandonedExports) ends it as failed. Longer than the worst a live job can take: Redis hands
# a dead worker's job to another after an hour (VISIBILITY_TIMEOUT_S, entrypoints/jobs/app.py),
# whose retries then wait some minutes, and the longest export writes for a few minutes more.
GIVE_UP_AFTER = timedelta(hours=3)
DEVICE_GONE = N_("The device is no longer visible to this account")


class TooManyExports(RuleViolation):
    code = 1201
    message = N_("You already have {count} exports in progress; wait until one is ready")


class ExportNotFailed(RuleViolation):
    code = 1202
    message = N_("Only a failed export can be tried again")


@dataclass(frozen=True)
class RequestReadingsExport:
    account_id: int
    device_id: int
    since: datetime
    until: datetime
    format: ExportFormat
    language: str
    time_zone: str
    session_id: int = 0  # the caller's login session: a signature's re-authentication window is per session
    signature: SignatureInput | None = None  # FDA mode signs the export (core.fda.ports.ChangeSigning)


@dataclass(frozen=True)
class RequestDeviceListExport:
    account_id: int
    filters: dict[str, Any]  # DeviceFilter's fields, vip_state as a number
    language: str
    time_zone: str
    format: ExportFormat = ExportFormat.XLSX


def _new_id() -> str:
    return secrets.token_urlsafe(16)


class RequestExport:
    """Records the export, pending; the caller then sends its job (RunExport). Where FDA mode is
    on for the device's subject, a device's readings export is signed by who asks for it (meaning
    "authored" unless the signer says otherwise) in the transaction that records it: without a
    signature SignatureRequired (428), and a refused signature records nothing. The device list is
    not signed."""

    def __init__(self, uow: ExportsUnitOfWork, clock: Clock, signing: ChangeSigning | None = None) -> None:
        self._uow, self._clock, self._signing = uow, clock, signing

    def __call__(self, cmd: RequestReadingsExport | RequestDeviceListExport) -> Export:
        with self._uow as uow:
            if isinstance(cmd, RequestReadingsExport):
                if cmd.until <= cmd.since:
                    raise InvalidInput("endTime", ORDER_PROBLEM)
                if cmd.until - cmd.since > MAX_SPAN:
                    raise InvalidInput("endTime", SPAN_PROBLEM)
                device = permitted(uow.device_registry.visible(cmd.account_id, cmd.device_id), Element.CHART)
                export = Export(_new_id(), cmd.account_id, ExportKind.READINGS, cmd.format, self._clock.now(),
                                cmd.language, cmd.time_zone, device_id=device.id, since=cmd.since, until=cmd.until,
                                title=device.name)
                _admit_signed(uow, self._signing, export, Signer(cmd.account_id, cmd.session_id), cmd.signature)
            else:
                export = Export(_new_id(), cmd.account_id, ExportKind.DEVICE_LIST, cmd.format, self._clock.now(),
                                cmd.language, cmd.time_zone, filters=dict(cmd.filters))
                _admit(uow, export)
            uow.commit()
        return export


def _admit(uow: ExportsUnitOfWork, export: Export) -> None:
    """Records a new export unless its account has too many in progress."""
    open_now = uow.exports.count_open(export.account_id, export.created_at - STUCK_AFTER)
    if open_now >= MAX_PENDING:
        raise TooManyExports(count=open_now)
    uow.exports.add(export)


def _admit_signed(uow: ExportsUnitOfWork, signing: ChangeSigning | None, export: Export, signer: Signer,
                  given: SignatureInput | None) -> None:
    """Records a device's readings export, signed where FDA mode is on for the device's subject:
    the signature is checked before anything is recorded (a failed attempt is counted all the same),
    then binds the export as recorded."""
    assert export.device_id is not None
    passed = signing.check(signer, export.device_id, given) if signing is not None else None
    _admit(uow, export)
    if signing is not None and passed is not None:
        signing.sign(passed, EXPORT, export.id, meaning=Meaning.AUTHORED, reason=None)


class RetryExport:
    """Asks again for what a failed export asked, as a new export (pending: the caller sends its
    job), and deletes the failed one; the account's limit of exports in progress holds. The new
    export is another record: where FDA mode is on, it is signed as DeviceDataExport/create's."""

    def __init__(self, uow: ExportsUnitOfWork, clock: Clock, signing: ChangeSigning | None = None) -> None:
        self._uow, self._clock, self._signing = uow, clock, signing

    def __call__(self, account_id: int, export_id: str, session_id: int = 0,
                 signature: SignatureInput | None = None) -> Export:
        with self._uow as uow:
            failed = _owned(uow, account_id, export_id)
            if failed.status is not ExportStatus.FAILED:
                raise ExportNotFailed()
            title = failed.title
            if failed.kind is ExportKind.READINGS:
                assert failed.device_id is not None
                device = permitted(uow.device_registry.visible(account_id, failed.device_id), Element.CHART)
                title = device.name
            export = replace(failed, id=_new_id(), created_at=self._clock.now(), status=ExportStatus.PENDING,
                             progress=0, title=title, file_name=None, size=None, finished_at=None, error=None)
            if export.kind is ExportKind.READINGS:
                _admit_signed(uow, self._signing, export, Signer(account_id, session_id), signature)
            else:
                _admit(uow, export)
            uow.exports.delete(failed.id)
            uow.commit()
        return export


class ListExports:
    def __init__(self, uow: ExportsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, request: PageRequest) -> Page[Export]:
        with self._uow as uow:
            return uow.exports.page(account_id, request)


class CountReadyExports:
    def __init__(self, uow: ExportsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int) -> int:
        with self._uow as uow:
            return uow.exports.count_ready(account_id)


def _owned(uow: ExportsUnitOfWork, account_id: int, export_id: str) -> Export:
    """Another account's export is answered as one that does not exist."""
    export = uow.exports.get(export_id)
    if export is None or export.account_id != account_id:
        raise NotFound()
    return export


class GetExport:
    def __init__(self, uow: ExportsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, export_id: str) -> Export:
        with self._uow as uow:
            return _owned(uow, account_id, export_id)


@dataclass(frozen=True)
class ExportFile:
    path: str
    file_name: str
    format: ExportFormat


class GetExportFile:
    def __init__(self, uow: ExportsUnitOfWork, files: ExportFiles) -> None:
        self._uow, self._files = uow, files

    def __call__(self, account_id: int, export_id: str) -> ExportFile:
        with self._uow as uow:
            export = _owned(uow, account_id, export_id)
        path = self._files.path(export.stored_name) if export.status is ExportStatus.READY else None
        if path is None:
            raise NotFound()
        return ExportFile(path, export.file_name or export.stored_name, export.format)


class DeleteExport:
    def __init__(self, uow: ExportsUnitOfWork, files: ExportFiles) -> None:
        self._uow, self._files = uow, files

    def __call__(self, account_id: int, export_id: str) -> None:
        with self._uow as uow:
            export = _owned(uow, account_id, export_id)
            uow.exports.delete(export.id)
            uow.commit()
        self._files.delete(export.stored_name)


class PurgeExpiredExports:
    """Deletes the exports (file and record) older than a week; a certificate stays, so a
    report's code can still be checked."""

    BATCH = 500

    def __init__(self, uow: ExportsUnitOfWork, files: ExportFiles, clock: Clock) -> None:
        self._uow, self._files, self._clock = uow, files, clock

    def __call__(self) -> int:
        purged = 0
        while True:
            with self._uow as uow:
                stale = uow.exports.created_before(self._clock.now() - KEPT_FOR, self.BATCH)
                for export in stale:
                    self._files.delete(export.stored_name)
                    uow.exports.delete(export.id)
                uow.commit()
            purged += len(stale)
            if len(stale) < self.BATCH:
                return purged


class VerifyReport:
    """The facts a code was issued for, or None when no genuine report carries it."""

    def __init__(self, uow: ExportsUnitOfWork, key: bytes) -> None:
        self._uow, self._key = uow, key

    def __call__(self, code: str) -> Certificate | None:
        with self._uow as uow:
            certificate = uow.exports.certificate(normalise_code(code))
        if certificate is None:
            return None
        expected = verification_code(self._key, certificate.account_name, certificate.device_guid, certificate.since,
                                     certificate.until, certificate.generated_at, certificate.readings,
                                     certificate.export_id)
        return certificate if secrets.compare_digest(expected, certificate.code) else None


# --- how an export ends: told in the owner's inbox -----------------------------------------------

_OPEN = (ExportStatus.PENDING, ExportStatus.RUNNING)


def _end_failed(uow: ExportsUnitOfWork, export: Export, reason: str, now: datetime) -> bool:
    """Ends an open export as failed for `reason` (a msgid); False when it had ended or gone."""
    export.status, export.error, export.finished_at = ExportStatus.FAILED, reason, now
    return uow.exports.save(export, only_from=_OPEN)


def _tell(uow: ExportsUnitOfWork, export: Export, default_language: str) -> None:
    """The owner's system message that the export is ready or failed, in the transaction that
    ended it; rendered in the reader's language when read."""
    assert export.finished_at is not None
    if export.status is ExportStatus.READY:
        template, params = EXPORT_READY, {"file": export.file_name or export.stored_name}
    elif export.kind is ExportKind.READINGS:
        template, params = EXPORT_FAILED, {"device": export.title, "format": export.format.value.upper(),
                                           "reason": export.error or GAVE_UP}
    else:
        template, params = DEVICE_LIST_EXPORT_FAILED, {"reason": export.error or GAVE_UP}
    post(uow, SystemMessage(export.account_id, MessageKind.EXPORT, template, {**params, "exportId": export.id},
                            export.finished_at), default_language)


class FailExport:
    """Ends as failed an export whose job Celery gave up on (its retries spent), and tells the
    owner; an export that has ended, or is gone, is left alone."""

    def __init__(self, uow: ExportsUnitOfWork, clock: Clock, default_language: str) -> None:
        self._uow, self._clock, self._language = uow, clock, default_language

    def __call__(self, export_id: str, reason: str = GAVE_UP) -> bool:
        with self._uow as uow:
            export = uow.exports.get(export_id)
            if export is None or not _end_failed(uow, export, reason, self._clock.now()):
                return False
            _tell(uow, export, self._language)
            uow.commit()
        return True


class FailAbandonedExports:
    """The sweep: ends as failed every export still open GIVE_UP_AFTER after it was asked for, and
    tells each owner. The job engine's hook (FailExport) answers sooner when Celery gives up, but
    only a sweep catches the exports whose job will never run again without saying so: a worker
    killed for good, a broker that lost or never took the job, a hook that failed itself because
    the database was what had failed."""

    BATCH = 200

    def __init__(self, uow: ExportsUnitOfWork, clock: Clock, default_language: str) -> None:
        self._uow, self._clock, self._language = uow, clock, default_language

    def __call__(self) -> int:
        failed = 0
        while True:
            now = self._clock.now()
            with self._uow as uow:
                stale = uow.exports.open_created_before(now - GIVE_UP_AFTER, self.BATCH)
                for export in stale:
                    if _end_failed(uow, export, NEVER_FINISHED, now):
                        _tell(uow, export, self._language)
                        failed += 1
                uow.commit()
            if len(stale) < self.BATCH:
                return failed


# --- writing an export (the job) -------------------------------------------------------------


class _Abandoned(Exception):
    """The export was deleted, or ended as failed, while its job ran."""


@dataclass
class _Progress:
    uow: ExportsUnitOfWork
    export_id: str
    total: int
    low: int = 0  # the percent this phase starts at
    high: int = 99
    done: int = 0
    shown: int = field(default=-1)

    def advance(self, rows: int) -> None:
        self.done += rows
        share = self.done / self.total if self.total else 1.0
        percent = self.low + int((self.high - self.low) * min(1.0, share))
        if percent != self.shown:
            with self.uow as uow:
                current = uow.exports.get(self.export_id)
                if current is None or not current.status.open:  # deleted, or failed by the sweep
                    raise _Abandoned()
                uow.exports.set_progress(self.export_id, percent)
                uow.commit()
            self.shown = percent


class RunExport:
    """Writes one export's file. Idempotent: a ready export is left alone; one cut short (its
    worker died, or a retry) is written again from the start into a fresh file, which replaces
    nothing until it is whole."""

    def __init__(self, uow: ExportsUnitOfWork, files: ExportFiles, renderer: ExportRenderer, clock: Clock,
                 translate: Translate, key: bytes, default_language: str, notify: bool = True, *,
                 trail: TrailCheck | None = None, translate_in_context: TranslateInContext | None = None) -> None:
        """`notify`: tell the owner in the inbox when the file is ready or failed (a scheduled
        report's files are not: its mail tells). `trail` verifies a subject's audit trail and
        `translate_in_context` says a signature's meaning, for the files FDA mode has a part in."""
        self._uow, self._files, self._renderer = uow, files, renderer
        self._clock, self._translate, self._key = clock, translate, key
        self._language, self._notify = default_language, notify
        self._trail, self._in_context = trail, translate_in_context

    def __call__(self, export_id: str) -> str:
        with self._uow as uow:
            export = uow.exports.get(export_id)
            if export is None or not export.status.open:
                return f"export {export_id}: nothing to do"
            export.status, export.progress = ExportStatus.RUNNING, 0
            if not uow.exports.save(export, only_from=_OPEN):
                return f"export {export_id}: nothing to do"
            uow.commit()
        handle = self._files.create(export.stored_name)
        try:
            if export.kind is ExportKind.READINGS:
                written = self._readings(export, handle)
            else:
                written = self._device_list(export, handle)
        except (_Abandoned, NotFound) as error:
            self._files.discard(handle)
            if isinstance(error, NotFound):
                self._fail(export, DEVICE_GONE)
            return f"export {export_id}: abandoned"
        except BaseException:
            self._files.discard(handle)
            raise
        size = self._files.publish(handle, export.stored_name)
        with self._uow as uow:
            export.status, export.progress, export.size = ExportStatus.READY, 100, size
            export.finished_at, export.file_name = self._clock.now(), written.file_name
            if not uow.exports.save(export, only_from=_OPEN):
                current = uow.exports.get(export.id)
                if current is None or current.status is ExportStatus.FAILED:  # deleted or failed meanwhile
                    self._files.delete(export.stored_name)
                return f"export {export_id}: abandoned"
            if written.certificate is not None:
                uow.exports.add_certificate(written.certificate)
                uow.exports.set_certificate_digest(written.certificate.code, self._files.digest(export.stored_name))
            if self._notify:
                _tell(uow, export, self._language)
            uow.commit()
        return f"export {export_id}: {written.rows} row(s), {size} bytes"

    def _fail(self, export: Export, reason: str) -> None:
        with self._uow as uow:
            if _end_failed(uow, export, reason, self._clock.now()) and self._notify:
                _tell(uow, export, self._language)
            uow.commit()

    # --- a device's readings

    def _readings(self, export: Export, out: Any) -> _Written:
        assert export.device_id is not None and export.since is not None and export.until is not None
        with self._uow as uow:
            device = permitted(uow.device_registry.visible(export.account_id, export.device_id), Element.CHART)
            total = uow.history.count(device.id, export.since, export.until)
            account = uow.accounts.get(export.account_id)
            fda = signed.signed_part(uow, export)
        account_name = account.user_name if account else ""
        t = Labels(self._translate, export.language)
        zone = ZoneInfo(export.time_zone)
        file_name = safe_file_name(device.name, local(export.since, zone)[:10], local(export.until, zone)[:10],
                                   extension=export.format.value)
        facts = [(t(N_("Account")), account_name), (t(N_("Device")), device.name), (t(N_("GUID")), device.guid),
                 (t(N_("Period")), f"{local(export.since, zone)} – {local(export.until, zone)}"),
                 (t(N_("Time zone")), export.time_zone), (t(N_("Readings")), str(total))]
        header = self._statement(fda, export.language, t, zone) if fda is not None else []
        row = device_report.row_writer(device, zone)

        if export.format is ExportFormat.PDF:
            generated_at = self._clock.now()
            progress = _Progress(self._uow, export.id, total, 0, 80)
            summaries = device_report.summaries(device)
            for point in self._points(device.id, export.since, export.until, progress):
                for probe, summary in summaries.items():
                    summary.add(point.value(probe))
            code = verification_code(self._key, account_name, device.guid, export.since, export.until, generated_at,
                                     total, export.id)
            certificate = Certificate(code, export.id, account_name, device.guid, device.name, export.since,
                                      export.until, generated_at, total)
            with self._uow as uow:
                chart, _ = device_report.sample(uow.history, device, export.since, export.until, CHART_POINTS)
                table, sampled = device_report.sample(uow.history, device, export.since, export.until, TABLE_POINTS)
                excursions = uow.export_readings.excursions(device.id, export.since, export.until)
            readings = device_report.Readings(total, summaries, chart, table, sampled, excursions)
            report = device_report.document(
                device, readings, t, export.time_zone, title=t(N_("Device data report")),
                facts=[*facts, (t(N_("Generated")), local(generated_at, zone)), *header],
                verification=(t(N_("Verification code")), group_code(code)))
            self._renderer.report_pdf(out, report)
            return _Written(file_name, total, certificate)
        progress = _Progress(self._uow, export.id, total)
        rows = (row(point) for point in self._points(device.id, export.since, export.until, progress))
        sheet = ReadingsSheet(t(N_("Device data export")), [*facts, *header], device_report.columns(device, t), header)
        if export.format is ExportFormat.CSV:
            self._renderer.readings_csv(out, sheet, rows)
        else:
            self._renderer.readings_xlsx(out, sheet, rows)
        return _Written(file_name, total)

    def _statement(self, fda: signed.Signed, language: str, t: Labels, zone: ZoneInfo) -> list[tuple[str, str]]:
        """FDA mode's lines: the signatures, and the subject's audit trail verified now (outside
        any open transaction: the verification opens its own)."""
        trail = self._trail(fda.subject) if self._trail is not None else None
        in_context = self._in_context

        def words(message_context: str, msgid: str) -> str:
            return in_context(message_context, msgid, language) if in_context is not None else msgid

        return signed.statement(fda, trail, t, words, zone)

    def _points(self, device_id: int, since: datetime, until: datetime, progress: _Progress) -> Iterator[Point]:
        """Every reading of the period, a chunk per short transaction: nothing holds the period in
        memory, and no transaction stays open while the file is written."""
        after: datetime | None = None
        while True:
            with self._uow as uow:
                chunk = uow.export_readings.chunk(device_id, since, until, after, CHUNK)
            yield from chunk
            progress.advance(len(chunk))
            if len(chunk) < CHUNK:
                return
            after = chunk[-1].ts

    # --- the device list

    def _device_list(self, export: Export, out: Any) -> _Written:
        t = Labels(self._translate, export.language)
        zone = ZoneInfo(export.time_zone)
        filters = dict(export.filters)
        if filters.get("vip_state") is not None:
            filters["vip_state"] = VipState(filters["vip_state"])
        where = DeviceFilter(**filters, now=self._clock.now())
        with self._uow as uow:
            total = uow.device_registry.page(export.account_id, where, PageRequest(1, 1)).total_count
        progress = _Progress(self._uow, export.id, total)
        yes, no = t(N_("Yes")), t(N_("No"))
        online, offline, scrapped = t(N_("Online")), t(N_("Offline")), t(N_("Scrapped"))

        def rows() -> Iterator[list[str | int | None]]:
            start = 1
            while True:
                with self._uow as uow:
                    page = uow.device_registry.page(export.account_id, where, PageRequest(start, LIST_PAGE))
                    levels = uow.catalogue.level_names([d.level_id for d in page.items if d.level_id is not None],
                                                       reading_languages(export.language, self._language))
                for d in page.items:
                    yield [d.name, d.guid, d.type_name, scrapped if d.scrapped else online if d.online else offline,
                           local(d.last_reading_at, zone) if d.last_reading_at else "",
                           _with_sign(stats.temperature_text(d.last_temperature, d.temperature_unit,
                                                             d.display_precision), d.temperature_unit),
                           stats.humidity_text(d.last_humidity, d.display_precision),
                           yes if d.alarm_state else no, levels.get(d.level_id or 0, d.level_name or ""),
                           local(d.service_expires_at, zone)[:10] if d.service_expires_at else "",
                           d.organization_name or "", d.remark or ""]
                progress.advance(len(page.items))
                if len(page.items) < LIST_PAGE:
                    return
                start += 1

        columns = [t(N_("Device name")), t(N_("GUID")), t(N_("Device type")), t(N_("Status")), t(N_("Last reading")),
                   t(N_("Temperature")), t(N_("Humidity (%RH)")), t(N_("Alarm")), t(N_("Service level")),
                   t(N_("Service expiry")), t(N_("Organization")), t(N_("Remark"))]
        self._renderer.table_xlsx(out, t(N_("Device list")), columns, rows())
        return _Written(safe_file_name(t(N_("Device list")), local(export.created_at, zone)[:10], extension="xlsx"),
                        progress.done)


@dataclass(frozen=True)
class _Written:
    file_name: str
    rows: int
    certificate: Certificate | None = None


def _with_sign(text: str, unit: str) -> str:
    return f"{text} {unit_sign(unit)}" if text else ""

