"""What every XLSX we read or write shares.

An upload is whatever a stranger sends: it is checked as a zip before openpyxl unpacks it, read in
openpyxl's streaming mode, one cell at a time, and given up on at the first sign of abuse (formulas,
more rows than allowed, text no database stores). A listing we write goes out in write-only mode,
its header bold and every text through safe_cell."""

from __future__ import annotations

import re
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from io import BytesIO
from typing import Any

from openpyxl import Workbook, load_workbook  # type: ignore[import-untyped]
from openpyxl.cell import WriteOnlyCell  # type: ignore[import-untyped]
from openpyxl.styles import Font  # type: ignore[import-untyped]
from openpyxl.utils import get_column_letter  # type: ignore[import-untyped]

from adapters.spreadsheets.cells import safe_cell
from core.devices.sheets import SheetRefused

# NUL and the other C0 controls but tab, and lone surrogates: no database stores them. XML 1.0 has
# no way to write them (a parser refuses the file first), so this only guards what openpyxl may
# make of escapes in a later version.
_CHUNK = 64 * 1024  # of a streamed listing
_UNSTORABLE = re.compile("[\x00-\x08\x0b-\x1f\ud800-\udfff]")


@dataclass(frozen=True)
class UploadRules:
    """How much an upload may hold, and what each refusal says (each context words its own)."""

    columns: int  # read from the left; anything to their right is ignored
    max_rows: int
    max_unpacked_bytes: int
    not_a_sheet: str
    too_big: str
    too_many_rows: str
    formulas: str
    bad_text: str

    @property
    def max_rows_scanned(self) -> int:
        """Rows read, empty ones included, before giving up: a million empty rows is abuse."""
        return 5 * self.max_rows


def _check_zip(data: bytes, rules: UploadRules) -> None:
    try:
        with zipfile.ZipFile(BytesIO(data)) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise SheetRefused(rules.not_a_sheet) from None
    if not any(e.filename == "xl/workbook.xml" for e in entries):
        raise SheetRefused(rules.not_a_sheet)
    if sum(e.file_size for e in entries) > rules.max_unpacked_bytes:
        raise SheetRefused(rules.too_big)


def _text(value: Any, rules: UploadRules) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # digits (a GUID, a fee) that Excel keeps as a number
    if isinstance(value, datetime | date | time):
        value = value.isoformat()
    text = str(value).strip()
    if _UNSTORABLE.search(text):
        raise SheetRefused(rules.bad_text)
    return text


def read_rows(data: bytes, rules: UploadRules, is_header: Callable[[list[str]], bool]) -> list[tuple[int, list[str]]]:
    """The non-empty rows of the first sheet as (row number, `rules.columns` texts), the first row
    skipped when `is_header` says so; SheetRefused for anything that is not such a sheet."""
    _check_zip(data, rules)
    try:
        workbook = load_workbook(BytesIO(data), read_only=True, data_only=False, keep_links=False)
    except Exception:  # openpyxl raises many kinds for a broken workbook; each means the same
        raise SheetRefused(rules.not_a_sheet) from None
    try:
        if not workbook.worksheets:
            raise SheetRefused(rules.not_a_sheet)
        return _rows(workbook.worksheets[0], rules, is_header)
    except SheetRefused:
        raise
    except Exception:
        raise SheetRefused(rules.not_a_sheet) from None
    finally:
        workbook.close()


def _rows(sheet: Any, rules: UploadRules, is_header: Callable[[list[str]], bool]) -> list[tuple[int, list[str]]]:
    rows: list[tuple[int, list[str]]] = []
    for number, cells in enumerate(sheet.iter_rows(min_col=1, max_col=rules.columns), start=1):
        if number > rules.max_rows_scanned:
            raise SheetRefused(rules.too_many_rows)
        if any(getattr(cell, "data_type", None) == "f" for cell in cells):
            raise SheetRefused(rules.formulas)
        texts = [_text(getattr(cell, "value", None), rules) for cell in cells]
        texts += [""] * (rules.columns - len(texts))
        if not any(texts) or (number == 1 and is_header(texts)):
            continue
        if len(rows) == rules.max_rows:
            raise SheetRefused(rules.too_many_rows)
        rows.append((number, texts))
    return rows


def listing(title: str, headers: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    """A sheet of `rows` under a bold header, written as the rows come (never held as cells)."""
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title[:31])
    write_rows(sheet, headers, rows)
    out = BytesIO()
    workbook.save(out)
    return out.getvalue()


def streamed_listing(title: str, headers: Sequence[str], rows: Iterable[Sequence[object]],
                     widths: Sequence[int] = (), preamble: Sequence[Sequence[object]] = ()) -> Iterator[bytes]:
    """`listing` for lists of any length: rows go to a temporary file as they come (openpyxl's
    write-only mode), which is then handed out in chunks, so no part of it is whole in memory.
    `preamble`: lines above the header (what the listing is, how it was checked)."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet(title[:31])
    for index, width in enumerate(widths):
        sheet.column_dimensions[get_column_letter(index + 1)].width = width
    write_rows(sheet, headers, rows, preamble)
    with tempfile.TemporaryFile() as out:
        book.save(out)
        out.seek(0)
        while chunk := out.read(_CHUNK):
            yield chunk


def write_rows(sheet: Any, headers: Sequence[str], rows: Iterable[Sequence[object]],
               preamble: Sequence[Sequence[object]] = ()) -> None:
    for line in preamble:
        sheet.append([safe_cell(v) for v in line])
    bold = []
    for header in headers:
        cell = WriteOnlyCell(sheet, value=header)
        cell.font = Font(bold=True)
        bold.append(cell)
    sheet.append(bold)
    for row in rows:
        sheet.append([safe_cell(v) for v in row])
