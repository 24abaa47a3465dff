from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol

from core.platform.model import CustomPage, DictItem, MerchantConfig, MerchantField, Notice
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction


class CustomPageRepository(Protocol):
    def by_top_domains(self, domains: list[str]) -> list[CustomPage]: ...
    def all(self) -> list[CustomPage]: ...


class MerchantConfigRepository(Protocol):
    """Stores the secrets encrypted; gives them back decrypted to the core only."""

    def get(self, camp: int, provider: str) -> MerchantConfig | None: ...
    def save(self, config: MerchantConfig) -> None: ...
    def delete(self, camp: int, provider: str) -> bool: ...
    def owned(self) -> set[tuple[int, str]]:
        """(camp, provider) of every stored configuration."""
        ...


class MerchantFields(Protocol):
    """What each provider's merchant account is made of, as its adapter knows it."""

    def providers(self) -> tuple[str, ...]:
        """The providers of the edition, in the order they are offered."""
        ...

    def fields(self, provider: str) -> tuple[MerchantField, ...]: ...

    def problems(self, provider: str, values: Mapping[str, str]) -> dict[str, tuple[str, dict[str, Any]]]:
        """By field name, what is wrong with a value given (a message id and its parameters)."""
        ...


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
    @property
    def merchant_configs(self) -> MerchantConfigRepository: ...
