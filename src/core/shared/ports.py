"""What the shared use cases (core.shared.lookups) need of the unit of work."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from core.shared.transaction import Transaction


class LookupLog(Protocol):
    """The public lookups by client address, for their rate limit."""

    def count_since(self, address: str, since: datetime) -> int: ...

    def record(self, address: str, at: datetime) -> None: ...


class LookupsUnitOfWork(Transaction, Protocol):
    @property
    def waybill_lookups(self) -> LookupLog: ...  # named after its first user; the log is the public calls'


__all__ = ["LookupLog", "LookupsUnitOfWork"]
