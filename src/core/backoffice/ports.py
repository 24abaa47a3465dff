from __future__ import annotations

from datetime import datetime
from typing import Protocol

from core.backoffice.model import OperatorCounts
from core.shared.transaction import Transaction


class OperatorOverview(Protocol):
    def counts(self, day_start: datetime, day_end: datetime) -> OperatorCounts:
        """Customers (every account that is not a system one), devices, online and alarming ones
        of every customer; orders created in [day_start, day_end); revenue of those paid in it."""
        ...


class BackOfficeUnitOfWork(Transaction, Protocol):
    @property
    def operator_overview(self) -> OperatorOverview: ...
