"""What every context's unit of work shares: one transaction. Each context declares in its own
`ports.py` the repositories its unit of work opens; this module knows none of them."""

from __future__ import annotations

from types import TracebackType
from typing import Protocol, Self


class Transaction(Protocol):
    """`with uow:` opens it; leaving the block without `commit()` rolls back."""

    def __enter__(self) -> Self: ...

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...
