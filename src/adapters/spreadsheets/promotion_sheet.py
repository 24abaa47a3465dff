"""SMS/voice packages read from an uploaded XLSX (workbooks.read_rows), and the lists of promotions
written as XLSX."""

from __future__ import annotations

from collections.abc import Iterator

from adapters.spreadsheets.workbooks import UploadRules, listing, read_rows
from core.promotions.model import (
    BAD_TEXT,
    FORMULAS,
    MAX_SHEET_ROWS,
    MAX_UNPACKED_BYTES,
    NOT_A_SHEET,
    SHEET_TOO_BIG,
    TOO_MANY_ROWS,
    ImportRow,
)

# kind, country code, name, fee (cents), currency, count, discount
RULES = UploadRules(7, MAX_SHEET_ROWS, MAX_UNPACKED_BYTES, NOT_A_SHEET, SHEET_TOO_BIG, TOO_MANY_ROWS, FORMULAS,
                    BAD_TEXT)


def _is_header(cells: list[str]) -> bool:
    return not cells[1].isdigit() and not cells[3].isdigit()


class XlsxPromotionSheets:
    def read(self, data: bytes) -> list[ImportRow]:
        return [ImportRow(number, tuple(texts)) for number, texts in read_rows(data, RULES, _is_header)]

    def render(self, headers: list[str], rows: Iterator[list[object]]) -> bytes:
        return listing("Sheet1", headers, rows)
