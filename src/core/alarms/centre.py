"""The message centre's alarm messages: list, handle once, count the untreated."""

from __future__ import annotations

from core.alarms.commands import DealWithAlarm
from core.alarms.management import ensure_access
from core.alarms.model import AlarmState
from core.alarms.ports import AlarmFilter, AlarmListing
from core.alarms.validation import RESULT_MAX
from core.devices.access import Access
from core.shared.clock import Clock
from core.shared.errors import AlarmAlreadyHandled, InvalidInput, NotFound
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest
from core.shared.unit_of_work import UnitOfWork


class ListAlarms:
    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, where: AlarmFilter, request: PageRequest) -> Page[AlarmListing]:
        with self._uow as uow:
            if where.device_id is not None:
                ensure_access(uow, account_id, where.device_id, Access.READ)
            return uow.alarms.alarm_page(account_id, where, request)


class DealAlarm:
    """Approve, refuse or defer an untreated alarm, with a result text; once only. Handling ends
    the alarm's escalation, so it needs the right to change the device."""

    def __init__(self, uow: UnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, cmd: DealWithAlarm) -> AlarmListing:
        result = (cmd.result or "").strip() or None
        if result is not None and len(result) > RESULT_MAX:
            raise InvalidInput("result", N_("Handling result must be at most 50 characters"))
        with self._uow as uow:
            listing = uow.alarms.alarm_listing(cmd.alarm_id, cmd.account_id)
            if listing is None:
                raise NotFound()
            ensure_access(uow, cmd.account_id, listing.alarm.device_id, Access.WRITE)
            if listing.alarm.state is AlarmState.TREATED:
                raise AlarmAlreadyHandled()
            if not uow.alarms.handle(cmd.alarm_id, cmd.handling, result, cmd.account_id, self._clock.now()):
                raise AlarmAlreadyHandled()  # someone else was quicker
            uow.commit()
            return uow.alarms.alarm_listing(cmd.alarm_id, cmd.account_id)


class CountUntreatedAlarms:
    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int) -> int:
        with self._uow as uow:
            return uow.alarms.count_untreated(account_id)
