"""What any text may become in a cell of an XLSX we write."""

from __future__ import annotations

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE  # type: ignore[import-untyped]

_FORMULA_START = ("=", "+", "-", "@")  # a spreadsheet would run such text as a formula


def safe_cell(value: object) -> object:
    """Text written as text: a formula's first character is escaped, never run, and the control
    characters XML cannot hold (which openpyxl refuses) are dropped rather than failing the file."""
    if not isinstance(value, str):
        return value
    text: str = ILLEGAL_CHARACTERS_RE.sub("", value)
    return "'" + text if text.startswith(_FORMULA_START) else text
