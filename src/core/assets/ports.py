from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.assets.model import Asset, Membership
from core.devices.ports import DeviceRepository
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction


class AssetRepository(Protocol):
    def add(self, asset: Asset) -> int: ...

    def get(self, account_id: int, asset_id: int) -> Asset | None:
        """The asset, whoever's, with its device count, its organization's name and the devices of
        it the account sees; None when there is none (core.shared.ownership.may_read decides who
        sees it)."""
        ...

    def update(self, asset: Asset) -> None:
        """Its particulars (not its state nor its devices)."""
        ...

    def delete(self, asset_id: int) -> None:
        """The asset; its devices are in none after."""
        ...

    def page(self, account_id: int, organization_ids: Sequence[int], keyword: str | None,
             request: PageRequest) -> Page[Asset]:
        """The account's own assets and those of the organizations, whose name or number holds
        `keyword` (any case), by name, with their device counts and organizations' names."""
        ...

    def bound(self, asset_id: int) -> list[int]:
        """The ids of all its devices, whoever sees them."""
        ...

    def memberships(self, device_ids: Sequence[int]) -> list[Membership]:
        """Of these devices, those in an asset (anyone's), with it."""
        ...

    def bind(self, asset_id: int, device_ids: Sequence[int]) -> None: ...

    def unbind(self, device_ids: Sequence[int]) -> None: ...

    def set_enabled(self, asset_id: int, enabled: bool) -> None: ...

    def hold(self, device_ids: Sequence[int]) -> None:
        """Disable the devices and switch off their alarm rules that are on, remembering which
        (so `release` turns those, and only those, back on)."""
        ...

    def release(self, device_ids: Sequence[int]) -> None:
        """Enable the devices and switch back on the rules `hold` switched off."""
        ...


class AssetsUnitOfWork(Transaction, Protocol):
    @property
    def assets(self) -> AssetRepository: ...
    @property
    def device_registry(self) -> DeviceRepository: ...


__all__ = ["AssetRepository", "AssetsUnitOfWork"]
