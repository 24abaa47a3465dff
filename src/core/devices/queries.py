from __future__ import annotations

from core.devices.expiry import ExpiredFlag, ExpiringDevice, ExpiryReminder, ExpiryWindow
from core.devices.ports import DevicesUnitOfWork
from core.shared.clock import Clock
from core.shared.errors import NotFound
from core.shared.paging import Page, PageRequest


class ListExpiringDevices:
    """The expired-service dialog. `account_id` is the contract's field: a caller may only ask
    about itself; any other account is answered as one that does not exist."""

    def __init__(self, uow: DevicesUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, caller_id: int, flag: ExpiredFlag, request: PageRequest,
                 account_id: int | None = None) -> Page[ExpiringDevice]:
        if account_id is not None and account_id != caller_id:
            raise NotFound()
        window = ExpiryWindow.of(flag, self._clock.now())
        with self._uow as uow:
            return uow.devices.expiring_page(caller_id, window, request)


class GetExpiryReminder:
    def __init__(self, uow: DevicesUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int) -> ExpiryReminder:
        now = self._clock.now()
        with self._uow as uow:
            expired = uow.devices.count_expiring(account_id, ExpiryWindow.of(ExpiredFlag.EXPIRED, now))
            expiring = uow.devices.count_expiring(account_id, ExpiryWindow.of(ExpiredFlag.WITHIN_30_DAYS, now))
        return ExpiryReminder(account_id, expired, expiring)
