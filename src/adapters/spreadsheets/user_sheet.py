"""The back office's list of accounts as XLSX (workbooks.listing)."""

from __future__ import annotations

from collections.abc import Iterator

from adapters.spreadsheets.workbooks import listing


class XlsxUserSheet:
    def render(self, headers: list[str], rows: Iterator[list[object]]) -> bytes:
        return listing("Users", headers, rows)
