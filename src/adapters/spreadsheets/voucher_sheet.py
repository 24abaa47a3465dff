"""A batch of coupons or recharge cards as XLSX (workbooks.listing: every text through safe_cell,
so no code can become a formula)."""

from __future__ import annotations

from collections.abc import Iterator

from adapters.spreadsheets.workbooks import listing


class XlsxVoucherSheet:
    def render(self, headers: list[str], rows: Iterator[list[object]]) -> bytes:
        return listing("Batch", headers, rows)
