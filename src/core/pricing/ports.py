from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from core.devices.ports import DeviceRepository
from core.pricing.model import AlertPackage, Level, ServiceItem
from core.shared.transaction import Transaction


class CatalogueRepository(Protocol):
    def levels_for_type(self, type_id: int, account_id: int, now: datetime, currency: str,
                        languages: Sequence[str] = ()) -> list[Level]:
        """The levels of the enabled packages of a device type, in catalogue order, with their
        year options priced in `currency` only (a level priced only in other currencies is not
        offered), each option carrying the activity in force at `now` that offers it to the
        account (public, or directed at the account; the lowest discount when several do).
        Retired options (sold, then repriced) are not offered. Names and descriptions in the first
        of `languages` holding one, else the level's own (the platform's default language)."""
        ...

    def items(self, languages: Sequence[str] = ()) -> list[ServiceItem]:
        """Every service item, in catalogue order, named as levels_for_type names levels."""
        ...

    def level_names(self, level_ids: Sequence[int], languages: Sequence[str]) -> dict[int, str]:
        """Level id -> its name, as levels_for_type names it."""
        ...

    def alert_packages(self, country_code: str, currency: str) -> list[AlertPackage]:
        """The enabled SMS and voice packages of a country code priced in `currency`, in
        catalogue order."""
        ...

    def alert_package(self, package_id: int, currency: str) -> AlertPackage | None:
        """An enabled package priced in `currency`."""
        ...


class PricingUnitOfWork(Transaction, Protocol):
    """The catalogue, and the device registry: a device is priced for a caller who sees it."""

    @property
    def catalogue(self) -> CatalogueRepository: ...
    @property
    def device_registry(self) -> DeviceRepository: ...
