"""What our XLSX writers put in a cell: text stays text, and a control character XML cannot hold
is dropped instead of failing the whole file (the API fuzz found one in an operation-log export)."""

from __future__ import annotations

from io import BytesIO

from openpyxl import Workbook, load_workbook  # type: ignore[import-untyped]

from adapters.spreadsheets.cells import safe_cell


def test_formulas_are_text_and_unstorable_characters_go():
    assert safe_cell("=SUM(A1:A9)") == "'=SUM(A1:A9)"
    assert safe_cell("-1+1") == "'-1+1"
    assert safe_cell("\x13=HYPERLINK()") == "'=HYPERLINK()"  # what is left is checked again
    assert safe_cell("Dock\x13 cold\x8c room") == "Dock cold\x8c room"  # \x8c is storable
    assert safe_cell(4.5) == 4.5 and safe_cell(None) is None


def test_a_cleaned_cell_saves_and_reads_back():
    book = Workbook(write_only=True)
    sheet = book.create_sheet("t")
    sheet.append([safe_cell("a\x00b\x1fc"), safe_cell("Холодильник 𣳸")])
    out = BytesIO()
    book.save(out)
    row = next(load_workbook(BytesIO(out.getvalue())).active.iter_rows(values_only=True))
    assert row == ("abc", "Холодильник 𣳸")
