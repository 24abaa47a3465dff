"""The sheet of device GUIDs an offline purchase takes (read as the device sheet is: device_sheet)."""

from __future__ import annotations

from collections.abc import Sequence
from io import BytesIO

from openpyxl import Workbook  # type: ignore[import-untyped]
from openpyxl.styles import Font  # type: ignore[import-untyped]


def offline_template(headers: Sequence[str]) -> bytes:
    """An empty sheet: GUID, then the device's name (for the reader only)."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Devices"
    sheet.append(list(headers))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    sheet.column_dimensions["A"].width = 28
    sheet.column_dimensions["B"].width = 32
    out = BytesIO()
    workbook.save(out)
    return out.getvalue()
