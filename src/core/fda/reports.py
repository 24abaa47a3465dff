"""The periodic report (issue 22): a device's data over a period, made a record that a reviewer and
then an approver sign (21 CFR 11.50, 11.70).

A report is its device's subject's record (the organization's, else the owner's): the owner and
the organization's administrators make one, while FDA mode is on for that subject; whoever sees the
subject's devices (the owner, the organization's members) reads it; a sharee of the device does
not. Its version is the SHA-256 of the device, the period, the limits it judges by and every
reading of the period, read again each time: a reading that arrives late changes the version, and
the signatures made on the earlier one no longer apply (the signature reader says which). Its
status follows from the signatures that apply: reviewed, then approved by another person.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from io import BytesIO
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.devices.model import ProbeLimits
from core.devices.ports import DeviceRepository
from core.exports import device_report, stats
from core.exports.device_report import InContext, Labels, local
from core.exports.model import MAX_SPAN, ORDER_PROBLEM, SPAN_PROBLEM, safe_file_name
from core.exports.ports import ExportRenderer, SignatureBlock, Translate, TranslateInContext
from core.fda.model import (
    REPORT,
    FdaReport,
    JudgedLimit,
    Manifestation,
    Meaning,
    ReportFilter,
    ReportStatus,
    SignableRecord,
    Subject,
)
from core.fda.ports import FdaReportRepository, FdaReportsUnitOfWork, TrailCheck
from core.shared.clock import Clock
from core.shared.errors import DomainError, Forbidden, InvalidInput, NotFound, RuleViolation
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest
from core.shared.text import has_refused_characters
from core.telemetry.downsample import Point, StreamedSample
from core.telemetry.model import HUMIDITY, TEMPERATURE

TITLE_MAX = 100
ID_MAX = 2**31 - 1
CHUNK = 5000  # readings read at a time
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)

PERIOD_NOT_OVER = N_("The period must be over: choose an end time that has passed")
TITLE_PROBLEM = N_("A title holds up to 100 characters, without emoji or control characters")
# Words of their own: "Reviewed" alone is already a column's "reviewed at" in the catalogues.
STATUS_TEXTS = {ReportStatus.DRAFT: N_("Draft"), ReportStatus.REVIEWED: N_("Reviewed, awaiting approval"),
                ReportStatus.APPROVED: N_("Approved")}
PROBE_NAMES = {TEMPERATURE: N_("Temperature"), HUMIDITY: N_("Humidity")}


class FdaModeOff(RuleViolation):
    code = 2391
    message = N_("FDA mode is off for this device's records: turn it on on the FDA page before making its reports")


class ReportExists(RuleViolation):
    code = 2392
    message = N_("This device already has a report of exactly this period")


class DeviceGone(RuleViolation):
    code = 2393
    message = N_("The device of this report no longer exists, and its readings went with it")


class NotTheDevicesManager(Forbidden):
    message = N_("Only the owner of the device or an administrator of its organization may make its reports")


ERRORS: tuple[type[DomainError], ...] = (FdaModeOff, ReportExists, DeviceGone)


# --- the rules ------------------------------------------------------------------------------------


def status_of(signatures: Sequence[Manifestation]) -> ReportStatus:
    """Approved once a valid approval follows a valid review by another person; reviewed with a
    valid review; else a draft. A signature that no longer applies counts for nothing."""
    reviewers: set[str] = set()
    for signature in signatures:
        if not signature.valid:
            continue
        if signature.meaning == Meaning.REVIEWED:
            reviewers.add(signature.signer_login)
        elif signature.meaning == Meaning.APPROVED and reviewers - {signature.signer_login}:
            return ReportStatus.APPROVED
    return ReportStatus.REVIEWED if reviewers else ReportStatus.DRAFT


# The report's version is the SHA-256 of its head, then of each reading of the period in time order.
# The head is text: the device (id, GUID), the period (microseconds since 1970, UTC) and the limits it
# judges by, each value as Python writes a float exactly ("-" for none). A reading is its instant
# (microseconds since 1970, 8 bytes, big-endian, signed), then its temperature and its humidity, each
# a byte 0 (none) or 1 followed by the IEEE 754 double, big-endian: 10 to 26 bytes. The database may compute the
# same digest itself (FdaReportRepository.content_hash; PostgreSQL does): these bytes are the contract.
_READING = struct.Struct(">q")
_VALUE = struct.Struct(">Bd")
_NONE = b"\x00"


def _number(value: float | None) -> str:
    return "-" if value is None else repr(value)


def content_head(device_id: int, guid: str, start: datetime, end: datetime, limits: Iterable[JudgedLimit]) -> bytes:
    head = [f"coldchain fda report 1\ndevice {device_id} {guid}\n"
            f"period {(start - _EPOCH) // _MICROSECOND} {(end - _EPOCH) // _MICROSECOND}\n"]
    head += [f"limit {lim.probe} {_number(lim.lower)} {_number(lim.upper)}\n"
             for lim in sorted(limits, key=lambda lim: lim.probe)]
    return "".join(head).encode()


def reading_bytes(point: Point) -> bytes:
    return (_READING.pack((point.ts - _EPOCH) // _MICROSECOND)
            + (_NONE if point.temperature is None else _VALUE.pack(1, point.temperature))
            + (_NONE if point.humidity is None else _VALUE.pack(1, point.humidity)))


class ContentHash:
    """The version, fed the period's readings in time order."""

    def __init__(self, head: bytes) -> None:
        self._sha = hashlib.sha256(head)

    def add(self, point: Point) -> None:
        self._sha.update(reading_bytes(point))

    def hexdigest(self) -> str:
        return self._sha.hexdigest()


def content_hash(device_id: int, guid: str, start: datetime, end: datetime, limits: Iterable[JudgedLimit],
                 readings: Iterable[Point]) -> str:
    digest = ContentHash(content_head(device_id, guid, start, end, limits))
    for point in readings:
        digest.add(point)
    return digest.hexdigest()


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def label(report: FdaReport) -> str:
    """What a list of signatures shows of the record: the device and the period, in the zone it
    was chosen in."""
    zone = _zone(report.time_zone)
    period = f"{report.start.astimezone(zone):%Y-%m-%d %H:%M} – {report.end.astimezone(zone):%Y-%m-%d %H:%M}"
    return f"{report.device_name or f'#{report.device_id}'} {period}"








# --- reading reports --------------------------------------------------------------------------------


def _readings(uow: FdaReportsUnitOfWork, device_id: int, start: datetime, end: datetime) -> Iterator[Point]:
    """Every reading of the period in time order, a chunk at a time: a year is never held."""
    after: datetime | None = None
    while True:
        chunk = uow.export_readings.chunk(device_id, start, end, after, CHUNK)
        yield from chunk
        if len(chunk) < CHUNK:
            return
        after = chunk[-1].ts


def _reads(devices: DeviceRepository, report: FdaReport, account_id: int) -> bool:
    """The report's subject's people read it: the owning account, or the organization's members
    whose role sees its devices."""
    if report.organization_id is None:
        return report.owner_account_id == account_id
    return report.organization_id in devices.organizations_of(account_id)


def _readable(reports: FdaReportRepository, devices: DeviceRepository, report_id: int, account_id: int) -> FdaReport:
    """Another's report is answered as one that does not exist."""
    report = reports.get(report_id) if 0 < report_id <= ID_MAX else None
    if report is None or not _reads(devices, report, account_id):
        raise NotFound()
    return report


def _head(report: FdaReport) -> bytes:
    return content_head(report.device_id, report.device_guid or "", report.start, report.end, report.limits)


def _version(reports: FdaReportRepository, report: FdaReport) -> SignableRecord:
    digest = reports.content_hash(report.device_id, report.start, report.end, _head(report))
    return SignableRecord(REPORT, str(report.id), label(report), digest, report.subject)


@dataclass(frozen=True)
class ReportView:
    report: FdaReport
    version: SignableRecord
    signatures: Sequence[Manifestation]  # oldest first, each saying whether it applies to `version`

    @property
    def status(self) -> ReportStatus:
        return status_of(self.signatures)


def _view(uow: FdaReportsUnitOfWork, report: FdaReport) -> ReportView:
    """The report with its current version and its signatures, inside the open unit of work."""
    version = _version(uow.fda_reports, report)
    return ReportView(report, version,
                      uow.signature_reader.of_record(REPORT, version.record_id, version.content_hash))


class ReportVersions:
    """core.fda.ports.RecordVersions for "report", on the signing transaction's repositories: the
    current version of a report its reader reads, or None (no such report, or another's)."""

    def __init__(self, reports: FdaReportRepository, devices: DeviceRepository) -> None:
        self._reports, self._devices = reports, devices

    def version_of(self, record_id: str, reader_account_id: int) -> SignableRecord | None:
        if not (record_id.isascii() and record_id.isdigit()) or len(record_id) > 10:
            return None
        try:
            return _version(self._reports, _readable(self._reports, self._devices, int(record_id), reader_account_id))
        except NotFound:
            return None


@dataclass(frozen=True)
class MakeReport:
    account_id: int
    device_id: int
    start: datetime
    end: datetime
    title: str | None
    time_zone: str  # the caller's: the period's dates are read in it


def _title(cmd: MakeReport, device_name: str) -> str:
    title = (cmd.title or "").strip()
    if not title:
        zone = _zone(cmd.time_zone)
        return f"{device_name} {cmd.start.astimezone(zone):%Y-%m-%d} – {cmd.end.astimezone(zone):%Y-%m-%d}"[
            :TITLE_MAX]
    if len(title) > TITLE_MAX or has_refused_characters(title, symbols=True):
        raise InvalidInput("title", TITLE_PROBLEM)
    return title


class CreateReport:
    """Makes the report of a device's past period, on the version its readings have now."""

    def __init__(self, uow: FdaReportsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, cmd: MakeReport) -> ReportView:
        now = self._clock.now()
        if cmd.end <= cmd.start:
            raise InvalidInput("endTime", ORDER_PROBLEM)
        if cmd.end - cmd.start > MAX_SPAN:
            raise InvalidInput("endTime", SPAN_PROBLEM)
        if cmd.end > now:
            raise InvalidInput("endTime", PERIOD_NOT_OVER)
        with self._uow as uow:
            device = uow.device_registry.visible(cmd.account_id, cmd.device_id)
            if device is None:
                raise NotFound()
            if device.grant.shared or not device.grant.owner:  # a member who only reads, a sharee
                raise NotTheDevicesManager()
            title = _title(cmd, device.name)
            subject = Subject.of_device(device.owner_account_id, device.organization_id)
            if not uow.fda_switches.is_on(subject):
                raise FdaModeOff()
            limits = tuple(JudgedLimit(lim.probe, lim.lower_limit, lim.upper_limit) for lim in device.limits
                           if lim.enabled and (lim.lower_limit is not None or lim.upper_limit is not None))
            report = FdaReport(None, device.id, device.owner_account_id, device.organization_id, title,
                               cmd.start, cmd.end, cmd.time_zone, limits, cmd.account_id, now, "",
                               device.name, device.guid)
            version = _version(uow.fda_reports, report)
            report = replace(report, content_hash=version.content_hash)
            report_id = uow.fda_reports.add(report)
            uow.commit()
            made = uow.fda_reports.get(report_id)
            assert made is not None
            version = replace(version, record_id=str(report_id))
            return ReportView(made, version, uow.signature_reader.of_record(REPORT, version.record_id,
                                                                            version.content_hash))


class ListReports:
    """The reports of the caller's subjects (its own devices', and those of the organizations whose
    devices it sees), newest first; a filter by another's organization or device finds none."""

    def __init__(self, uow: FdaReportsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, where: ReportFilter, request: PageRequest) -> Page[ReportView]:
        with self._uow as uow:
            organizations = uow.device_registry.organizations_of(account_id)
            if where.organization_id is not None and where.organization_id not in organizations:
                return Page(request.start, request.page_size, 0, [])
            page = uow.fda_reports.page(account_id, list(organizations), where, request)
            return Page(page.start, page.page_size, page.total_count, [_view(uow, r) for r in page.items])


class GetReport:
    def __init__(self, uow: FdaReportsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, report_id: int) -> ReportView:
        with self._uow as uow:
            return _view(uow, _readable(uow.fda_reports, uow.device_registry, report_id, account_id))


# --- the PDF -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReportFile:
    file_name: str
    content: bytes


def _duration(span: timedelta, t: Labels) -> str:
    minutes = int(span.total_seconds() // 60)
    return t(N_("{hours} h {minutes} min"), hours=minutes // 60, minutes=minutes % 60)


class ReportPdf:
    """The report as a PDF in the reader's language and time zone: the device's data report
    (summary with MKT, the period's alarms, chart, readings) with the time out of range, the
    report's status and version, the audit trail's verification and every signature's
    manifestation, saying whether it still applies."""

    def __init__(self, uow: FdaReportsUnitOfWork, renderer: ExportRenderer, translate: Translate,
                 translate_in_context: TranslateInContext, clock: Clock, trail: TrailCheck) -> None:
        self._uow, self._renderer, self._clock, self._trail = uow, renderer, clock, trail
        self._translate, self._in_context = translate, translate_in_context

    def __call__(self, account_id: int, report_id: int, language: str, time_zone: str) -> ReportFile:
        t, zone = Labels(self._translate, language), _zone(time_zone)
        with self._uow as uow:
            report = _readable(uow.fda_reports, uow.device_registry, report_id, account_id)
            holder = uow.fda_reports.device_holder(report.device_id)
            device = uow.device_registry.visible(holder, report.device_id) if holder is not None else None
            if device is None:
                raise DeviceGone()
            # judged by the limits the report was made with, not the device's present ones
            device = replace(device, limits=tuple(ProbeLimits(lim.probe, lim.upper, lim.lower, True)
                                                  for lim in report.limits))
            # one pass over the period's readings gives the version, the figures and the samples
            digest = ContentHash(_head(report))
            summaries = device_report.summaries(device)
            outside = {lim.probe: stats.TimeOutOfRange(lim.upper, lim.lower) for lim in report.limits
                       if lim.probe in device.probes}
            chart = StreamedSample(report.start, report.end, device_report.CHART_POINTS, device.probes)
            table = StreamedSample(report.start, report.end, device_report.TABLE_POINTS, device.probes)
            total = 0
            for point in _readings(uow, report.device_id, report.start, report.end):
                digest.add(point)
                total += 1
                for probe, summary in summaries.items():
                    summary.add(point.value(probe))
                for probe, span in outside.items():
                    span.add(point.ts, point.value(probe))
                chart.add(point)
                table.add(point)
            excursions = uow.export_readings.excursions(device.id, report.start, report.end)
            signatures = uow.signature_reader.of_record(REPORT, str(report.id), digest.hexdigest())
        outside_text = "; ".join(f"{t(PROBE_NAMES.get(probe, probe))} {_duration(span.total, t)}"
                                 for probe, span in outside.items()) or t(N_("No limits set"))
        facts = [(t(N_("Report number")), str(report.id)), (t(N_("Device")), device.name), (t(N_("GUID")), device.guid),
                 (t(N_("Period")), f"{local(report.start, zone)} – {local(report.end, zone)}"),
                 (t(N_("Time zone")), time_zone), (t(N_("Readings")), str(total)),
                 (t(N_("Time out of range")), outside_text),
                 (t(N_("Status")), t(STATUS_TEXTS[status_of(signatures)])),
                 (t(N_("Created")), f"{local(report.created_at, zone)} {report.creator_name}".strip()),
                 (t(N_("Generated")), local(self._clock.now(), zone)),
                 (t(N_("Audit trail")), device_report.trail_line(self._trail(report.subject), t, zone))]
        table_points, sampled = table.result()
        readings = device_report.Readings(total, summaries, chart.result()[0], table_points, sampled, excursions)
        document = device_report.document(
            device, readings, t, time_zone,
            title=report.title, facts=facts, verification=(t(N_("Content (SHA-256)")), digest.hexdigest()),
            signatures=self._block(signatures, t, lambda context, msgid: self._in_context(context, msgid, language)))
        out = BytesIO()
        self._renderer.report_pdf(out, document)
        name = safe_file_name(t(N_("Report")), str(report.id), device.name, local(report.start, zone)[:10],
                              extension="pdf")
        return ReportFile(name, out.getvalue())

    @staticmethod
    def _block(signatures: Sequence[Manifestation], t: Labels, in_context: InContext) -> SignatureBlock:
        return device_report.signature_block(
            signatures, t, in_context, void=t(N_("No: the report changed after it was signed")),
            statement=t(N_("Each signature is the legally binding equivalent of its signer's handwritten "
                           "signature (21 CFR Part 11). It applies to the content it was made on: once the "
                           "report's content (SHA-256 above) changed, it no longer applies.")))
