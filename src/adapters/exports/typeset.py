"""The PDF reports' type, colours and building blocks, shared by the renderer, the route map and the
calibration documents: text without CJK in DejaVu Sans, CJK in reportlab's built-in CID font."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import LongTable, Paragraph, Table, TableStyle

log = logging.getLogger(__name__)

CJK_FONT = "STSong-Light"  # reportlab's built-in CID font: Chinese, and GB2312's Cyrillic and Latin
TEXT_FONT = "DejaVuSans"  # Latin, Cyrillic, Greek: Debian's fonts-dejavu-core
DEJAVU_PLACES = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/dejavu/DejaVuSans.ttf"),
    Path("/usr/local/share/fonts/DejaVuSans.ttf"),
)
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
THEME = colors.HexColor("#ec6c00")
# One colour per series (a device's chart line, its route): the theme's first, then apart from it and each other.
SERIES = (THEME, colors.HexColor("#1f77b4"), colors.HexColor("#2ca02c"), colors.HexColor("#9467bd"),
          colors.HexColor("#8c564b"), colors.HexColor("#e377c2"), colors.HexColor("#17becf"),
          colors.HexColor("#7f7f7f"))


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


def para(text: str, size: float, bold: bool = False, colour: Any = None) -> Paragraph:
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    style = ParagraphStyle("p", fontName=font_for(text), fontSize=size, leading=size * 1.3,
                           textColor=colour or (THEME if bold else colors.black))
    return Paragraph(escaped, style)


def grid(rows: list[list], widths: list[float], header: bool = True, long: bool = False) -> Table:
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


PageMarks = Callable[[Canvas, int, int], None]


def counted_pages(marks: PageMarks) -> type[Canvas]:
    """A canvas that knows the page count when it draws each page's marks (`marks(canvas, page,
    pages)`: "page 2 of 3", a header): pages are kept until the document is saved, then drawn."""

    class CountedCanvas(Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._kept: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._kept.append(dict(self.__dict__))
            self._startPage()  # type: ignore[attr-defined]  # reportlab's own start of a page; the stubs omit it

        def save(self) -> None:
            for number, state in enumerate(self._kept, start=1):
                self.__dict__.update(state)
                marks(self, number, len(self._kept))
                super().showPage()
            super().save()

    return CountedCanvas
