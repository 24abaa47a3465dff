from __future__ import annotations

from typing import Protocol

from core.devices.expiry import ExpiringDevice, ExpiryWindow
from core.shared.paging import Page, PageRequest


class DeviceExpiryRepository(Protocol):
    """Devices visible to an account (its own and its organizations') by service expiry."""

    def count_expiring(self, account_id: int, window: ExpiryWindow) -> int: ...

    def expiring_page(self, account_id: int, window: ExpiryWindow, request: PageRequest) -> Page[ExpiringDevice]:
        """Sorted by device type name, then expiry, then id, so rows group by type."""
        ...
