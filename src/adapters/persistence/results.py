"""What a statement run through a Session tells, typed: `Session.execute` is declared to return a
plain Result whatever it runs, while an INSERT, UPDATE or DELETE gives a CursorResult, which counts
the rows it wrote."""

from __future__ import annotations

from typing import Any

from sqlalchemy import CursorResult, Result


def rows_written(result: Result[Any]) -> int:
    """How many rows the INSERT, UPDATE or DELETE behind `result` wrote."""
    if not isinstance(result, CursorResult):
        raise TypeError(f"not the result of an INSERT, UPDATE or DELETE: {type(result).__name__}")
    return result.rowcount
