"""The spreadsheet of devices to add (XLSX, through openpyxl), read defensively: an upload is
whatever a stranger sends, so it is checked as a zip before openpyxl unpacks it, read in
openpyxl's streaming mode, one cell at a time, and given up on at the first sign of abuse."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Sequence
from datetime import date, datetime, time
from io import BytesIO
from typing import Any

from openpyxl import Workbook, load_workbook  # type: ignore[import-untyped]
from openpyxl.styles import Font  # type: ignore[import-untyped]

from core.devices.model import DeviceType, format_type_code
from core.devices.ports import SheetRow
from core.devices.sheets import (
    BAD_TEXT,
    FORMULAS,
    MAX_SHEET_ROWS,
    MAX_UNPACKED_BYTES,
    NOT_A_SHEET,
    SHEET_TOO_BIG,
    TOO_MANY_ROWS,
    SheetRefused,
)

COLUMNS = 3  # GUID, name, type: anything to their right is ignored
# Rows read, empty ones included, before giving up: a sheet of a million empty rows is abuse.
MAX_ROWS_SCANNED = 5 * MAX_SHEET_ROWS
# NUL and the other C0 controls but tab, and lone surrogates: no database stores them. XML 1.0 has
# no way to write them (a parser refuses the file first), so this only guards what openpyxl may
# make of escapes in a later version.
_UNSTORABLE = re.compile("[\x00-\x08\x0b-\x1f\ud800-\udfff]")


def _check_zip(data: bytes) -> None:
    try:
        with zipfile.ZipFile(BytesIO(data)) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise SheetRefused(NOT_A_SHEET) from None
    if not any(e.filename == "xl/workbook.xml" for e in entries):
        raise SheetRefused(NOT_A_SHEET)
    if sum(e.file_size for e in entries) > MAX_UNPACKED_BYTES:
        raise SheetRefused(SHEET_TOO_BIG)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # a GUID of digits, which Excel keeps as a number
    if isinstance(value, datetime | date | time):
        value = value.isoformat()
    text = str(value).strip()
    if _UNSTORABLE.search(text):
        raise SheetRefused(BAD_TEXT)
    return text


def _is_header(cells: list[str]) -> bool:
    return "guid" in cells[0].casefold()


class XlsxDeviceSheets:
    def read(self, data: bytes) -> list[SheetRow]:
        _check_zip(data)
        try:
            workbook = load_workbook(BytesIO(data), read_only=True, data_only=False, keep_links=False)
        except Exception:  # openpyxl raises many kinds for a broken workbook; each means the same
            raise SheetRefused(NOT_A_SHEET) from None
        try:
            if not workbook.worksheets:
                raise SheetRefused(NOT_A_SHEET)
            return self._rows(workbook.worksheets[0])
        except SheetRefused:
            raise
        except Exception:
            raise SheetRefused(NOT_A_SHEET) from None
        finally:
            workbook.close()

    @staticmethod
    def _rows(sheet: Any) -> list[SheetRow]:
        rows: list[SheetRow] = []
        for number, cells in enumerate(sheet.iter_rows(min_col=1, max_col=COLUMNS), start=1):
            if number > MAX_ROWS_SCANNED:
                raise SheetRefused(TOO_MANY_ROWS)
            if any(getattr(cell, "data_type", None) == "f" for cell in cells):
                raise SheetRefused(FORMULAS)
            texts = [_text(getattr(cell, "value", None)) for cell in cells]
            texts += [""] * (COLUMNS - len(texts))
            if not any(texts) or (number == 1 and _is_header(texts)):
                continue
            if len(rows) == MAX_SHEET_ROWS:
                raise SheetRefused(TOO_MANY_ROWS)
            rows.append(SheetRow(number, *texts))
        return rows

    def template(self, headers: Sequence[str], types: Sequence[DeviceType]) -> bytes:
        workbook = Workbook()
        sheet = workbook.active
        sheet.title = "Devices"
        sheet.append(list(headers))
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for column, width in zip("ABC", (28, 32, 28), strict=True):
            sheet.column_dimensions[column].width = width
        reference = workbook.create_sheet("Types")
        reference.append([headers[2], ""])
        for device_type in types:
            reference.append([format_type_code(device_type.code), device_type.name])
        reference.column_dimensions["A"].width = 14
        reference.column_dimensions["B"].width = 36
        out = BytesIO()
        workbook.save(out)
        return out.getvalue()
