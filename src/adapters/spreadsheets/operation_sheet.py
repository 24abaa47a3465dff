"""The operation log as an XLSX, streamed (workbooks.streamed_listing)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from adapters.spreadsheets.workbooks import streamed_listing

_WIDTHS = (20, 18, 16, 24, 28, 60, 12)


def operation_sheet(title: str, headers: Sequence[str], rows: Iterable[Sequence[object]]) -> Iterator[bytes]:
    return streamed_listing(title, headers, rows, _WIDTHS)
