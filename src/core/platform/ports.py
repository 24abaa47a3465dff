from __future__ import annotations

from datetime import datetime
from typing import Protocol

from core.platform.model import CustomPage, DictItem, Notice
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction


class CustomPageRepository(Protocol):
    def by_top_domains(self, domains: list[str]) -> list[CustomPage]: ...


class NoticeRepository(Protocol):
    def latest_in_force(self, camp: int, platform: int, notice_type: int, now: datetime) -> Notice | None: ...
    def page(self, request: PageRequest, notice_type: int | None) -> Page[Notice]: ...


class DictionaryRepository(Protocol):
    def items(self, data_type: str) -> list[DictItem]: ...
    def has(self, data_type: str, data_code: str) -> bool: ...


class PlatformUnitOfWork(Transaction, Protocol):
    @property
    def custom_pages(self) -> CustomPageRepository: ...
    @property
    def notices(self) -> NoticeRepository: ...
    @property
    def dictionary(self) -> DictionaryRepository: ...
