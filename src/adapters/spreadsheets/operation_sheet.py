"""The operation log, and an audit trail's links, as an XLSX, streamed (workbooks.streamed_listing)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from adapters.spreadsheets.workbooks import streamed_listing

_WIDTHS = (20, 18, 16, 24, 28, 60, 12)
_TRAIL_WIDTHS = (8, *_WIDTHS, 66, 66)  # the link's number first, its two hashes last


def operation_sheet(title: str, headers: Sequence[str], rows: Iterable[Sequence[object]],
                    preamble: Sequence[Sequence[object]] = ()) -> Iterator[bytes]:
    return streamed_listing(title, headers, rows, _WIDTHS, preamble)


def trail_sheet(title: str, headers: Sequence[str], rows: Iterable[Sequence[object]],
                preamble: Sequence[Sequence[object]]) -> Iterator[bytes]:
    return streamed_listing(title, headers, rows, _TRAIL_WIDTHS, preamble)
