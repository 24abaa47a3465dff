from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class PageRequest:
    start: int = 1  # 1-based page number
    page_size: int = 10
    sort_field: str | None = None
    sort_order: str = "desc"

    @property
    def offset(self) -> int:
        return (self.start - 1) * self.page_size


@dataclass(frozen=True)
class Page(Generic[T]):
    start: int
    page_size: int
    total_count: int
    items: list[T]
