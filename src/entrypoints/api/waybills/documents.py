"""The waybills' files: the trip report as PDF (the device reports' renderer, adapters/exports) and the
list as XLSX (streamed, adapters/spreadsheets), every text in the caller's language and time zone.
The PDF ends with the waybill's electronic signatures (POST /FdaRecord/sign, recordType waybill),
each saying whether it still applies to the waybill as it is (21 CFR 11.50, 11.70)."""

from __future__ import annotations

from collections.abc import Iterator
from io import BytesIO

from flask import Response

from adapters.exports.renderer import ExportRenderer
from adapters.spreadsheets.workbooks import streamed_listing
from core.exports.device_report import Labels, signature_block
from core.exports.ports import MapFence, MapTrack, ProbeFigures, Report, RouteMap, SignatureBlock
from core.fda.model import WAYBILL
from core.shared.errors import NotAuthenticated, NotFound
from core.shared.messages import N_, NC_
from core.shared.paging import PageRequest
from core.waybills.model import WaybillState
from core.waybills.ports import WaybillFilter
from core.waybills.use_cases import DeviceFigures, TripReport
from entrypoints.api import context
from entrypoints.api.framework import file_download

TITLE = N_("Waybill trip report")
ONLY_THIS_SHIPMENT = N_("The results relate only to this shipment.")
VERIFICATION = N_("Verification code")
STATE_NAMES = {WaybillState.NOT_STARTED: N_("Not started"), WaybillState.IN_PROGRESS: N_("In progress"),
               WaybillState.FINISHED: N_("Finished")}
FACTS = (N_("Waybill number"), N_("Goods"), N_("State"), N_("Trip"), N_("Limits"), N_("Alarms"))
CORRECTED = N_("start and end corrected to the devices' data")
SUMMARY = (N_("Device"), N_("Readings"), N_("Minimum"), N_("Maximum"), N_("Mean"), N_("MKT"),
           N_("Time out of range"))
EXCURSIONS = N_("Excursions")
NO_EXCURSIONS = N_("No excursion")
START, END = N_("Start"), N_("End")
EXCURSION_COLUMNS = (N_("Device"), START, END, N_("Minutes"), N_("Extreme"), N_("Limit"))
CHART = N_("Temperature")
ROUTE = N_("Route")
NO_POSITIONS = N_("No positions were recorded on this trip")
ORIGIN, DESTINATION = N_("Origin"), N_("Destination")
METRES, KILOMETRES = N_("{value} m"), N_("{value} km")
NORTH = NC_("compass point", "N")  # the north arrow's letter
DEVICES = N_("Devices")
SHEET_COLUMNS = (N_("Waybill number"), N_("Goods"), N_("Tracking number"), N_("Cooler code"), N_("State"),
                 N_("Upper limit"), N_("Lower limit"), N_("Planned start"), N_("Planned stop"), N_("Started"),
                 N_("Finished"), N_("Devices"))
SHEET_TITLE = N_("Waybills")
SIGNED_STATEMENT = N_("Each signature is the legally binding equivalent of its signer's handwritten signature "
                      "(21 CFR Part 11). It applies to the waybill as it was signed: once the waybill changed, it no "
                      "longer applies.")
SIGNATURE_VOID = N_("No: the waybill changed after it was signed")
EXPORT_ROWS_MAX = 10_000


def _t(text: str) -> str:
    return context.translated(text)


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def _route_map(report: TripReport, charted: DeviceFigures | None) -> RouteMap:
    """The devices' routes, the charted one first (the first series colour is the chart's), and the
    waybill's fences by their part in the trip, not their names: the receiver reads the report too."""
    fences = [MapFence(_t(label), fence.areas, label == ORIGIN)
              for label, fence in ((ORIGIN, report.origin), (DESTINATION, report.destination))
              if fence is not None]
    settings = context.container().settings()
    return RouteMap(
        title=_t(ROUTE), tracks=[MapTrack(d.device_name, [(p.position.lat, p.position.lon) for p in d.route])
                                 for d in sorted(report.devices, key=lambda d: d is not charted)],
        fences=fences, start=_t(START), end=_t(END), no_positions=_t(NO_POSITIONS),
        metres=_t(METRES), kilometres=_t(KILOMETRES),
        north=context.container().translator().pgettext("compass point", NORTH, context.language.get()),
        tiles=context.container().map_tiles(), attribution=settings.map_tile_attribution)


def _signatures(waybill_id: int | None) -> SignatureBlock | None:
    """The waybill's signatures as the caller reads them (None: it has none, and the PDF has no
    such section). A share link's PDF has no caller to read them as: it shows none, and gives
    no signer's login to whoever holds the link."""
    if waybill_id is None:
        return None
    try:
        found = context.container().record_signatures()(context.caller_id(), WAYBILL, str(waybill_id))
    except (NotFound, NotAuthenticated):
        return None
    if not found:
        return None
    translator, language = context.container().translator(), context.language.get()
    t = Labels(translator.translate, language)
    return signature_block(found, t, lambda message_context, msgid: translator.pgettext(message_context, msgid,
                                                                                          language),
                           statement=t(SIGNED_STATEMENT), void=t(SIGNATURE_VOID))


def trip_pdf(report: TripReport) -> Response:
    w = report.waybill
    p, span = w.particulars, report.view.span
    trip_text = ""
    if span is not None:
        trip_text = f"{context.local_text(span.start)} – {context.local_text(span.end)}"
        if span.corrected:
            trip_text += f" ({_t(CORRECTED)})"
    limits = f"{_number(p.lower_limit)} … {_number(p.upper_limit)} °C"
    facts = list(zip([_t(f) for f in FACTS], [p.order_number or "", p.goods_name or "", _t(STATE_NAMES[w.state]),
                                              trip_text, limits, str(report.view.alarm_count)], strict=True))
    # The renderer's summary has the device reports' seven columns: device, readings, min, max, mean, MKT, out of range.
    summary = [ProbeFigures(d.device_name, str(d.figures.count), _number(d.figures.minimum),
                            _number(d.figures.maximum), _number(d.figures.mean), _number(d.figures.mkt),
                            f"{int(d.figures.out_of_range.total_seconds() // 60)} min") for d in report.devices]
    excursions = [[d.device_name, context.local_text(e.start), context.local_text(e.end),
                   str(int(e.duration.total_seconds() // 60)), _number(e.extreme),
                   _number(p.upper_limit if e.above else p.lower_limit)]
                  for d in report.devices for e in d.figures.excursions]
    charted = next((d for d in report.devices if d.chart), None)
    chart = [(pt.ts, pt.temperature, None) for pt in charted.chart] if charted else []
    document = Report(
        title=_t(TITLE), facts=facts, verification=(_t(VERIFICATION), report.verification_code),
        summary_title=_t(SUMMARY[0]), summary_columns=[_t(c) for c in SUMMARY], summary=summary,
        excursions_title=_t(EXCURSIONS), excursion_columns=[_t(c) for c in EXCURSION_COLUMNS],
        excursions=excursions, no_excursions=_t(NO_EXCURSIONS), chart_title=_t(CHART),
        chart=chart, chart_labels=(charted.device_name if charted else "", ""), table_title=_t(DEVICES),
        table_note=_t(ONLY_THIS_SHIPMENT), table_columns=[_t(SUMMARY[0]), _t(SUMMARY[1])],
        table=[[d.device_name, str(d.figures.count)] for d in report.devices], time_zone=str(context.time_zone.get()),
        footer_note=_t(ONLY_THIS_SHIPMENT), route=_route_map(report, charted), signatures=_signatures(w.id))
    out = BytesIO()
    ExportRenderer().report_pdf(out, document)
    name = f"waybill-{w.id}.pdf"
    return file_download(out.getvalue(), "application/pdf", name)


def waybill_sheet(account_id: int, where: WaybillFilter) -> Iterator[bytes]:
    page = context.container().list_waybills()(account_id, where, PageRequest(1, EXPORT_ROWS_MAX))
    # Made here, in the request: the streamed workbook is written after the view returns.
    rows = [[w.particulars.order_number, w.particulars.goods_name, w.particulars.express_number,
             w.particulars.cooler_code, _t(STATE_NAMES[w.state]), w.particulars.upper_limit,
             w.particulars.lower_limit, context.local_text(w.particulars.planned_start),
             context.local_text(w.particulars.planned_stop), context.local_text(w.started_at),
             context.local_text(w.finished_at), ", ".join(d.name for d in w.devices)] for w in page.items]
    return streamed_listing(_t(SHEET_TITLE), [_t(c) for c in SHEET_COLUMNS], rows)
