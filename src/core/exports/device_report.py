"""A device's data report over a period as a document (core.exports.ports.Report): its readings'
columns and rows, the per-probe summary with the mean kinetic temperature, the alarms of the
period, a chart and a table sampled to keep each probe's peaks. The download centre's PDF export
(use_cases.RunExport) and the FDA periodic report (core.fda.reports) print it; each adds its own
facts, code and sections.

Beside it, how a document states FDA mode's part (21 CFR 11.50, 11.10(e)): a signature's
manifestation (printed name, meaning, date and time with the signer's zone), the signatures'
section, and whether the subject's audit trail verified. The periodic report, the signed exports
and the waybill's trip report say them alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from core.devices.model import Device
from core.devices.ports import ReadingHistoryRepository
from core.exports import stats
from core.exports.ports import ProbeFigures, Report, SignatureBlock, Translate
from core.exports.readings import Excursion
from core.fda.model import Manifestation, TrailState, meaning_words
from core.shared.messages import N_
from core.telemetry.downsample import Point, fit, plan_buckets
from core.telemetry.model import HUMIDITY, TEMPERATURE

CHART_POINTS = 1500
TABLE_POINTS = 400  # about ten pages of the report


@dataclass(frozen=True)
class Labels:
    """The report's texts in the reader's language: `t(msgid, **params)`."""

    translate: Translate
    language: str

    def __call__(self, msgid: str, **params: object) -> str:
        return self.translate(msgid, self.language, **params)


class LocalTimes:
    """`local` for a year of readings: the zone's offset is looked up once per quarter hour of
    readings (zones change offset on a quarter hour at the finest), not converted reading by
    reading; only the current quarter's is kept, so a year costs no more memory than a day."""

    def __init__(self, zone: ZoneInfo) -> None:
        self._zone = zone
        self._key = -1
        self._offset = timedelta(0)

    def __call__(self, instant: datetime) -> str:
        key = int(instant.timestamp()) // 900
        if key != self._key:
            self._key, self._offset = key, instant.astimezone(self._zone).utcoffset() or timedelta(0)
        t = instant + self._offset
        return f"{t.year:04d}-{t.month:02d}-{t.day:02d} {t.hour:02d}:{t.minute:02d}:{t.second:02d}"


def local(instant: datetime, zone: ZoneInfo) -> str:
    return instant.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")


def unit_sign(unit: str) -> str:
    return "°F" if unit == "F" else "°C"


def figure(value: float | None, temperature: bool, unit: str, precision: int) -> str:
    if value is None:
        return "—"
    return stats.temperature_text(value, unit, precision) if temperature else stats.humidity_text(value, precision)


def columns(device: Device, t: Labels) -> list[str]:
    """The readings' columns: the time, then each probe the device has."""
    found = [t(N_("Time"))]
    if TEMPERATURE in device.probes:
        found.append(t(N_("Temperature ({unit})"), unit=unit_sign(device.temperature_unit)))
    if HUMIDITY in device.probes:
        found.append(t(N_("Humidity (%RH)")))
    return found


def row_writer(device: Device, zone: ZoneInfo) -> Callable[[Point], list[str]]:
    """A reading as a row of `columns`, in the device's unit and display precision."""
    precision, unit, stamp = device.display_precision, device.temperature_unit, LocalTimes(zone)

    def row(point: Point) -> list[str]:
        cells = [stamp(point.ts)]
        if TEMPERATURE in device.probes:
            cells.append(stats.temperature_text(point.temperature, unit, precision))
        if HUMIDITY in device.probes:
            cells.append(stats.humidity_text(point.humidity, precision))
        return cells

    return row


def summaries(device: Device) -> dict[str, stats.ProbeSummary]:
    """An empty summary per probe of the device, to be fed the period's readings."""
    return {probe: stats.ProbeSummary(kinetic=probe == TEMPERATURE) for probe in device.probes}


def sample(history: ReadingHistoryRepository, device: Device, since: datetime, until: datetime,
           max_points: int) -> tuple[list[Point], bool]:
    """Every reading of the period when they fit in `max_points`, else those holding each probe's
    extremes in equal time slices; and whether it was sampled. Inside an open unit of work."""
    plan = plan_buckets(since, until, max_points, device.probes)
    extremes, total = history.extremes(device.id, plan)
    if total <= max_points:
        return history.points(device.id, since, until), False
    return fit(extremes, plan, max_points), True


def limits_text(device: Device, probe: str, t: Labels) -> str:
    limit = next((lim for lim in device.limits if lim.probe == probe), None)
    if limit is None or not limit.enabled or (limit.lower_limit is None and limit.upper_limit is None):
        return t(N_("Not set"))
    temperature, unit, precision = probe == TEMPERATURE, device.temperature_unit, device.display_precision
    return (f"{figure(limit.lower_limit, temperature, unit, precision)} … "
            f"{figure(limit.upper_limit, temperature, unit, precision)}")


@dataclass(frozen=True)
class Readings:
    """What the period's readings gave: their count and summaries (every reading), the chart's
    and the table's samples, and the alarms of the period."""

    total: int
    summaries: dict[str, stats.ProbeSummary]
    chart: Sequence[Point]
    table: Sequence[Point]
    table_sampled: bool
    excursions: Sequence[Excursion]


def document(device: Device, readings: Readings, t: Labels, time_zone: str, *, title: str,
             facts: Sequence[tuple[str, str]], verification: tuple[str, str], footer_note: str | None = None,
             signatures: SignatureBlock | None = None) -> Report:
    """The report of the device's readings: `facts` first, then the summary, the period's alarms,
    the chart, the table and (when given) the signatures."""
    zone = ZoneInfo(time_zone)
    precision, unit = device.display_precision, device.temperature_unit
    figures = []
    for probe, summary in readings.summaries.items():
        temperature = probe == TEMPERATURE
        minimum, maximum, mean = (figure(v if summary.count else None, temperature, unit, precision)
                                  for v in (summary.minimum, summary.maximum, summary.mean))
        figures.append(ProbeFigures(
            t(N_("Temperature")) if temperature else t(N_("Humidity")),
            unit_sign(unit) if temperature else "%RH", minimum, maximum, mean,
            figure(summary.mkt, temperature, unit, precision) if temperature else "", limits_text(device, probe, t)))
    kinds = {1: t(N_("Above the upper limit")), 2: t(N_("Below the lower limit"))}
    excursion_rows = []
    for ex in readings.excursions:
        temperature = ex.probe == TEMPERATURE
        excursion_rows.append([
            t(N_("Temperature")) if temperature else t(N_("Humidity")), kinds.get(ex.kind, str(ex.kind)),
            local(ex.started_at, zone), local(ex.ended_at, zone) if ex.ended_at else t(N_("ongoing")),
            figure(ex.limit_value, temperature, unit, precision),
            figure(ex.extreme_value, temperature, unit, precision)])
    note = None
    if readings.table_sampled:
        note = t(N_("{shown} of {total} readings shown: in each time slice, those holding each probe's minimum "
                    "and maximum"), shown=len(readings.table), total=readings.total)
    row = row_writer(device, zone)
    return Report(
        title=title, facts=facts, verification=verification,
        summary_title=t(N_("Summary")),
        summary_columns=[t(N_("Probe")), t(N_("Unit")), t(N_("Minimum")), t(N_("Maximum")), t(N_("Mean")),
                         t(N_("MKT")), t(N_("Limits"))],
        summary=figures, excursions_title=t(N_("Excursions")),
        excursion_columns=[t(N_("Probe")), t(N_("Kind")), t(N_("Start")), t(N_("End")), t(N_("Limit")),
                           t(N_("Extreme"))],
        excursions=excursion_rows, no_excursions=t(N_("No excursion in the period")),
        chart_title=t(N_("Chart")),
        chart=[(p.ts, None if p.temperature is None else stats.to_unit(p.temperature, unit), p.humidity)
               for p in readings.chart],
        chart_labels=(t(N_("Temperature ({unit})"), unit=unit_sign(unit)), t(N_("Humidity (%RH)"))),
        table_title=t(N_("Readings")), table_note=note, table_columns=columns(device, t),
        table=[row(p) for p in readings.table], time_zone=time_zone, footer_note=footer_note, signatures=signatures)


# --- FDA mode's statements --------------------------------------------------------------------------

InContext = Callable[[str, str], str]  # (message context, msgid) -> the text in the reader's language


def signed_when(signature: Manifestation) -> str:
    """When it was signed, in the signer's zone, with the offset and the zone's name (11.50(a)(2))."""
    when = signature.local_signed_at
    offset = when.strftime("%z")
    return f"{when:%Y-%m-%d %H:%M:%S} UTC{offset[:3]}:{offset[3:]} ({signature.time_zone})"


def signed_meaning(signature: Manifestation, in_context: InContext) -> str:
    """The meaning in the reader's language, with the endorsement it was signed under."""
    meaning = meaning_words(signature.meaning, in_context)
    if signature.endorsement_name and meaning != signature.endorsement_name:
        meaning = f"{meaning} ({signature.endorsement_name})"
    return meaning


def signature_line(signature: Manifestation, t: Labels, in_context: InContext) -> str:
    """A signature's manifestation on one line (a fact of a file): printed name and login, meaning,
    date and time with the zone, the reason; and, once the record changed, that it no longer applies."""
    parts = [f"{signature.signer_name} ({signature.signer_login})", signed_meaning(signature, in_context),
             signed_when(signature)]
    if signature.reason:
        parts.append(signature.reason)
    if not signature.valid:
        parts.append(t(N_("No longer applies: the record changed after it was signed")))
    return "; ".join(parts)


def signature_block(signatures: Sequence[Manifestation], t: Labels, in_context: InContext, *, statement: str,
                    void: str) -> SignatureBlock:
    """The signatures' section of a PDF: a row per signature, `void` in the last column of one that
    no longer applies to the record as printed."""
    yes = t(N_("Yes"))
    rows = [[f"{s.signer_name} ({s.signer_login})", signed_meaning(s, in_context), signed_when(s), s.reason or "",
             yes if s.valid else void] for s in signatures]
    return SignatureBlock(
        title=t(N_("Electronic signatures")), statement=statement,
        columns=[t(N_("Printed name")), t(N_("Meaning")), t(N_("Date and time")), t(N_("Reason")), t(N_("Applies"))],
        rows=rows, applies=[s.valid for s in signatures], none=t(N_("Not signed yet")))


def trail_line(state: TrailState | None, t: Labels, zone: ZoneInfo) -> str:
    """Whether the subject's audit trail verified when the document was made, and when it was checked."""
    if state is None:
        return t(N_("Not verified"))
    if state.verified:
        return t(N_("Verified: {links} entries, unbroken (checked {at})"), links=state.links,
                 at=local(state.checked_at, zone))
    return t(N_("Broken at entry {seq} (checked {at})"), seq=state.first_broken, at=local(state.checked_at, zone))
