"""The export formats. CSV and XLSX take their rows as the job reads them and keep none: CSV is
written straight through; XLSX by openpyxl's write-only workbook, which streams each sheet's rows
to a temporary file and zips them at the end (already a dependency, so no second XLSX library).
The PDF report (reportlab) holds only what it prints: the summary, a sampled chart and table."""

from __future__ import annotations

import codecs
import csv
import io
import logging
import re
from collections.abc import Iterator, Sequence
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import IO, Any
from zoneinfo import ZoneInfo

from openpyxl import Workbook  # type: ignore[import-untyped]
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import LongTable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from core.exports.ports import ReadingsSheet, Report

log = logging.getLogger(__name__)

CJK_FONT = "STSong-Light"  # reportlab's built-in CID font: Chinese, and GB2312's Cyrillic and Latin
TEXT_FONT = "DejaVuSans"  # Latin, Cyrillic, Greek: Debian's fonts-dejavu-core
DEJAVU_PLACES = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/dejavu/DejaVuSans.ttf"),
    Path("/usr/local/share/fonts/DejaVuSans.ttf"),
)
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
_SHEET_TITLE_BAD = re.compile(r"[\[\]:*?/\\]")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
THEME = colors.HexColor("#ec6c00")


@cache
def fonts() -> tuple[str, str]:
    """(the font for text without CJK, the CJK font). Without DejaVu, STSong-Light writes it all:
    it has Latin and Cyrillic (GB2312's), if not every accent; so a missing font degrades the look,
    never the text."""
    pdfmetrics.registerFont(UnicodeCIDFont(CJK_FONT))
    for place in DEJAVU_PLACES:
        if place.is_file():
            pdfmetrics.registerFont(TTFont(TEXT_FONT, str(place)))
            return TEXT_FONT, CJK_FONT
    log.warning("DejaVuSans.ttf not found (Debian: fonts-dejavu-core); PDF reports are set in %s alone", CJK_FONT)
    return CJK_FONT, CJK_FONT


def font_for(text: str) -> str:
    text_font, cjk_font = fonts()
    return cjk_font if _CJK.search(text) else text_font


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
            writer.writerow(sheet.columns)
            writer.writerows(rows)
            text.flush()
        finally:
            text.detach()  # the caller closes the file

    def readings_xlsx(self, out: IO[bytes], sheet: ReadingsSheet, rows: Iterator[Sequence[str]]) -> None:
        book = Workbook(write_only=True)
        data = book.create_sheet(_sheet_title(sheet.title))
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
        story: list = [_para(report.title, 16, bold=True), Spacer(1, 4 * mm)]
        facts = [*report.facts, report.verification]
        story.append(_table([[_para(label, 9), _para(value, 9)] for label, value in facts], [45 * mm, 135 * mm],
                            header=False))
        story += [Spacer(1, 5 * mm), _para(report.summary_title, 12, bold=True), Spacer(1, 2 * mm)]
        summary = [[_para(c, 8, bold=True) for c in report.summary_columns]]
        summary += [[_para(v, 8) for v in (f.label, f.unit, f.minimum, f.maximum, f.mean, f.mkt, f.limits)]
                    for f in report.summary]
        story.append(_table(summary, [30 * mm, 16 * mm, 22 * mm, 22 * mm, 22 * mm, 22 * mm, 46 * mm]))
        story += [Spacer(1, 5 * mm), _para(report.chart_title, 12, bold=True), Spacer(1, 2 * mm)]
        for index, label in enumerate(report.chart_labels):
            series: list[tuple[datetime, float]] = []
            for ts, *values in report.chart:
                value = values[index]
                if value is not None:
                    series.append((ts, value))
            if series:
                story += [_chart(series, label, text_font, ZoneInfo(report.time_zone)), Spacer(1, 3 * mm)]
        story += [Spacer(1, 2 * mm), _para(report.excursions_title, 12, bold=True), Spacer(1, 2 * mm)]
        if report.excursions:
            rows = [[_para(c, 8, bold=True) for c in report.excursion_columns]]
            rows += [[_para(v, 8) for v in row] for row in report.excursions]
            story.append(_table(rows, [24 * mm, 36 * mm, 34 * mm, 34 * mm, 26 * mm, 26 * mm]))
        else:
            story.append(_para(report.no_excursions, 9))
        story += [Spacer(1, 5 * mm), _para(report.table_title, 12, bold=True), Spacer(1, 2 * mm)]
        if report.table_note:
            story += [_para(report.table_note, 8), Spacer(1, 2 * mm)]
        width = 180 * mm / max(1, len(report.table_columns))
        table = [[_para(c, 8, bold=True) for c in report.table_columns]]
        table += [[_para(v, 8) for v in row] for row in report.table]
        story.append(_table(table, [width] * len(report.table_columns), long=True))
        footer = f"{report.verification[0]}: {report.verification[1]}"
        if report.footer_note:
            footer = f"{report.footer_note}  {footer}"
        doc.build(story, onFirstPage=_footer(footer), onLaterPages=_footer(footer))


def _sheet_title(title: str) -> str:
    return _SHEET_TITLE_BAD.sub("_", title)[:31] or "Sheet"


def _para(text: str, size: float, bold: bool = False) -> Paragraph:
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    style = ParagraphStyle("p", fontName=font_for(text), fontSize=size, leading=size * 1.3,
                           textColor=THEME if bold else colors.black)
    return Paragraph(escaped, style)


def _table(rows: list[list], widths: list[float], header: bool = True, long: bool = False) -> Table:
    kind = LongTable if long else Table
    table = kind(rows, colWidths=widths, repeatRows=1 if header else 0)
    style: list[Any] = [("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#bbbbbb")),
             ("VALIGN", (0, 0), (-1, -1), "TOP"),
             ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]
    if header:
        style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#fbe3d1")))
    else:
        style.append(("BACKGROUND", (0, 0), (0, -1), colors.HexColor("#f5f5f5")))
    table.setStyle(TableStyle(style))
    return table


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
