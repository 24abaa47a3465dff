"""The spreadsheet of devices to add (XLSX, through openpyxl), read defensively (workbooks.read_rows),
and its template."""

from __future__ import annotations

from collections.abc import Sequence
from io import BytesIO

from openpyxl import Workbook  # type: ignore[import-untyped]
from openpyxl.styles import Font  # type: ignore[import-untyped]

from adapters.spreadsheets.workbooks import UploadRules, read_rows
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
)

# GUID, name, type: anything to their right is ignored
RULES = UploadRules(3, MAX_SHEET_ROWS, MAX_UNPACKED_BYTES, NOT_A_SHEET, SHEET_TOO_BIG, TOO_MANY_ROWS, FORMULAS,
                    BAD_TEXT)


def _is_header(cells: list[str]) -> bool:
    return "guid" in cells[0].casefold()


class XlsxDeviceSheets:
    def read(self, data: bytes) -> list[SheetRow]:
        return [SheetRow(number, *texts) for number, texts in read_rows(data, RULES, _is_header)]

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
