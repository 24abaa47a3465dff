"""The export formats. CSV and XLSX take their rows as the job reads them and keep none: CSV is
written straight through; XLSX by openpyxl's write-only workbook, which streams each sheet's rows
to a temporary file and zips them at the end (already a dependency, so no second XLSX library).
The PDF report (reportlab) holds only what it prints: the summary, a sampled chart and table."""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import IO
from zoneinfo import ZoneInfo

from openpyxl import Workbook  # type: ignore[import-untyped]
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, SimpleDocTemplate, Spacer

from adapters.exports.route_map import route_drawing
from adapters.exports.typeset import THEME, font_for, fonts, grid, para
from core.exports.ports import ReadingsSheet, Report, SignatureBlock

_SHEET_TITLE_BAD = re.compile(r"[\[\]:*?/\\]")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def _cell(value: str) -> str | float:
    """A figure as a number (so a spreadsheet sums it), anything else as text."""
    return float(value) if _NUMBER.match(value) else value


class ExportRenderer:
    def readings_csv(self, out: IO[bytes], sheet: ReadingsSheet, rows: Iterator[Sequence[str]]) -> None:
        # UTF-8 with a byte-order mark: Excel then reads Chinese and Cyrillic names right.
        out.write(codecs.BOM_UTF8)
        text = io.TextIOWrapper(out, encoding="utf-8", newline="", write_through=False)
        try:
            writer = csv.writer(text)
            writer.writerows(_header_lines(sheet))
            writer.writerow(sheet.columns)
            writer.writerows(rows)
            text.flush()
        finally:
            text.detach()  # the caller closes the file

    def readings_xlsx(self, out: IO[bytes], sheet: ReadingsSheet, rows: Iterator[Sequence[str]]) -> None:
        book = Workbook(write_only=True)
        data = book.create_sheet(_sheet_title(sheet.title))
        for line in _header_lines(sheet):
            data.append(line)
        data.append(list(sheet.columns))
        for row in rows:
            data.append([row[0], *(_cell(v) for v in row[1:])])
        about = book.create_sheet("Info")
        for label, value in sheet.facts:
            about.append([label, value])
        book.save(out)

    def table_xlsx(self, out: IO[bytes], title: str, columns: Sequence[str],
                   rows: Iterator[Sequence[str | int | None]]) -> None:
        book = Workbook(write_only=True)
        data = book.create_sheet(_sheet_title(title))
        data.append(list(columns))
        for row in rows:
            data.append(list(row))
        book.save(out)

    def report_pdf(self, out: IO[bytes], report: Report) -> None:
        text_font, _ = fonts()
        doc = SimpleDocTemplate(out, pagesize=A4, leftMargin=15 * mm, rightMargin=15 * mm, topMargin=15 * mm,
                                bottomMargin=15 * mm, title=report.title, author="Coldchain")
        story: list = [para(report.title, 16, bold=True), Spacer(1, 4 * mm)]
        facts = [*report.facts, report.verification]
        story.append(grid([[para(label, 9), para(value, 9)] for label, value in facts], [45 * mm, 135 * mm],
                            header=False))
        story += [Spacer(1, 5 * mm), para(report.summary_title, 12, bold=True), Spacer(1, 2 * mm)]
        summary = [[para(c, 8, bold=True) for c in report.summary_columns]]
        summary += [[para(v, 8) for v in (f.label, f.unit, f.minimum, f.maximum, f.mean, f.mkt, f.limits)]
                    for f in report.summary]
        story.append(grid(summary, [30 * mm, 16 * mm, 22 * mm, 22 * mm, 22 * mm, 22 * mm, 46 * mm]))
        story += [Spacer(1, 5 * mm), para(report.chart_title, 12, bold=True), Spacer(1, 2 * mm)]
        for index, label in enumerate(report.chart_labels):
            series: list[tuple[datetime, float]] = []
            for ts, *values in report.chart:
                value = values[index]
                if value is not None:
                    series.append((ts, value))
            if series:
                story += [_chart(series, label, text_font, ZoneInfo(report.time_zone)), Spacer(1, 3 * mm)]
        if report.route is not None:
            story += [Spacer(1, 2 * mm), para(report.route.title, 12, bold=True), Spacer(1, 2 * mm)]
            drawing = route_drawing(report.route, 180 * mm, 120 * mm)
            story.append(drawing if drawing is not None else para(report.route.no_positions, 9))
            story.append(Spacer(1, 3 * mm))
        story += [Spacer(1, 2 * mm), para(report.excursions_title, 12, bold=True), Spacer(1, 2 * mm)]
        if report.excursions:
            rows = [[para(c, 8, bold=True) for c in report.excursion_columns]]
            rows += [[para(v, 8) for v in row] for row in report.excursions]
            story.append(grid(rows, [24 * mm, 36 * mm, 34 * mm, 34 * mm, 26 * mm, 26 * mm]))
        else:
            story.append(para(report.no_excursions, 9))
        story += [Spacer(1, 5 * mm), para(report.table_title, 12, bold=True), Spacer(1, 2 * mm)]
        if report.table_note:
            story += [para(report.table_note, 8), Spacer(1, 2 * mm)]
        width = 180 * mm / max(1, len(report.table_columns))
        table = [[para(c, 8, bold=True) for c in report.table_columns]]
        table += [[para(v, 8) for v in row] for row in report.table]
        story.append(grid(table, [width] * len(report.table_columns), long=True))
        if report.signatures is not None:
            story += _signatures(report.signatures)
        footer = f"{report.verification[0]}: {report.verification[1]}"
        if report.footer_note:
            footer = f"{report.footer_note}  {footer}"
        doc.build(story, onFirstPage=_footer(footer), onLaterPages=_footer(footer))


def _signatures(block: SignatureBlock) -> list:
    """The manifestations, kept together on one page where they fit; one that no longer applies
    is set in grey and says so in its last column."""
    story: list = [Spacer(1, 5 * mm), para(block.title, 12, bold=True), Spacer(1, 2 * mm),
                   para(block.statement, 8), Spacer(1, 2 * mm)]
    if not block.rows:
        return [KeepTogether(story + [para(block.none, 9)])]
    void = colors.HexColor("#888888")
    rows = [[para(c, 8, bold=True) for c in block.columns]]
    rows += [[para(v, 8, colour=None if applies else void) for v in row]
             for row, applies in zip(block.rows, block.applies, strict=True)]
    width = 180 * mm / max(1, len(block.columns))
    return [KeepTogether(story + [grid(rows, [width] * len(block.columns))])]


def _header_lines(sheet: ReadingsSheet) -> list[list[str]]:
    """The lines above a sheet's columns (label, value), then an empty line; none without them."""
    if not sheet.header:
        return []
    return [[label, value] for label, value in sheet.header] + [[]]


def _sheet_title(title: str) -> str:
    return _SHEET_TITLE_BAD.sub("_", title)[:31] or "Sheet"


def _chart(series: list[tuple[datetime, float]], label: str, font: str, zone: ZoneInfo) -> Drawing:
    drawing = Drawing(180 * mm, 55 * mm)
    plot = LinePlot()
    # reportlab's stubs type the plot's box as int; points are floats throughout.
    plot.x, plot.y, plot.width, plot.height = int(14 * mm), int(8 * mm), int(162 * mm), int(40 * mm)
    plot.data = [[(ts.timestamp(), value) for ts, value in series]]
    plot.lines[0].strokeColor = THEME
    plot.lines[0].strokeWidth = 0.7
    low, high = min(v for _, v in series), max(v for _, v in series)
    margin = max(0.5, (high - low) * 0.08)
    plot.yValueAxis.valueMin, plot.yValueAxis.valueMax = low - margin, high + margin
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = series[0][0].timestamp(), series[-1][0].timestamp()
    span = series[-1][0] - series[0][0]
    pattern = "%H:%M" if span.total_seconds() <= 86400 else "%m-%d"
    plot.xValueAxis.labelTextFormat = lambda x: datetime.fromtimestamp(x, zone).strftime(pattern)
    plot.yValueAxis.labelTextFormat = "%.1f"
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName, axis.labels.fontSize = font, 7
    drawing.add(plot)
    drawing.add(String(14 * mm, 51 * mm, label, fontName=font_for(label), fontSize=8))
    return drawing


def _footer(text: str):
    def draw(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFont(font_for(text), 7)  # a translated note may be CJK
        canvas.drawString(15 * mm, 8 * mm, text)
        canvas.drawRightString(A4[0] - 15 * mm, 8 * mm, str(doc.page))
        canvas.restoreState()
    return draw
