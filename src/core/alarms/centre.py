"""The message centre's alarm messages: list them, handle or defer them, count the untreated."""

from __future__ import annotations

from datetime import datetime

from core.alarms.commands import DealWithAlarm
from core.alarms.deferral import (
    DEFAULT_DEFER_MINUTES,
    DELAY_WITHOUT_DEFER,
    Deferral,
    defer_minutes_problem,
    deferred_until,
)
from core.alarms.management import ensure_access
from core.alarms.model import AlarmState, Handling
from core.alarms.ports import AlarmFilter, AlarmListing, AlarmsUnitOfWork
from core.alarms.validation import RESULT_MAX
from core.devices.grants import Element
from core.fda.model import ALARM, Meaning, Signer
from core.fda.ports import ChangeSigning
from core.shared.clock import Clock
from core.shared.errors import AlarmAlreadyHandled, InvalidInput, NotFound
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest


def _listing(uow: AlarmsUnitOfWork, alarm_id: int, account_id: int, now: datetime) -> AlarmListing:
    listing = uow.alarms.alarm_listing(alarm_id, account_id, now)
    if listing is None:
        raise NotFound()
    return listing

class ListAlarms:
    def __init__(self, uow: AlarmsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, where: AlarmFilter, request: PageRequest) -> Page[AlarmListing]:
        with self._uow as uow:
            if where.device_id is not None:
                ensure_access(uow, account_id, where.device_id, Element.ALARMS)
            return uow.alarms.alarm_page(account_id, where, request, self._clock.now())


class DealAlarm:
    """Approve or refuse an untreated alarm, once, with a result text; or defer it for a while,
    as often as needed (see core/alarms/deferral.py). Either silences the alarm's alerts, so it
    needs the right to change the device. Where FDA mode is on for the device, the handling is
    signed in its transaction (meaning "responsible" and the result as reason unless the signer
    says otherwise): a refused signature changes nothing."""

    def __init__(self, uow: AlarmsUnitOfWork, clock: Clock, signing: ChangeSigning | None = None) -> None:
        self._uow, self._clock, self._signing = uow, clock, signing

    def __call__(self, cmd: DealWithAlarm) -> AlarmListing:
        result = (cmd.result or "").strip() or None
        if result is not None and len(result) > RESULT_MAX:
            raise InvalidInput("result", N_("Handling result must be at most 50 characters"))
        minutes = self._defer_minutes(cmd)
        now = self._clock.now()
        with self._uow as uow:
            listing = _listing(uow, cmd.alarm_id, cmd.account_id, now)
            ensure_access(uow, cmd.account_id, listing.alarm.device_id, Element.ALARMS, operate=True)
            if listing.alarm.state is AlarmState.TREATED:
                raise AlarmAlreadyHandled()
            signer = Signer(cmd.account_id, cmd.session_id)
            passed = self._signing.check(signer, listing.alarm.device_id, cmd.signature) if self._signing else None
            if minutes is not None:
                done = uow.alarms.defer(Deferral(cmd.alarm_id, cmd.account_id, now, deferred_until(now, minutes),
                                                 result))
            else:
                done = uow.alarms.handle(cmd.alarm_id, cmd.handling, result, cmd.account_id, now)
            if not done:
                raise AlarmAlreadyHandled()  # someone else was quicker
            if self._signing is not None and passed is not None:
                self._signing.sign(passed, ALARM, str(cmd.alarm_id), meaning=Meaning.RESPONSIBLE, reason=result)
            uow.commit()
            return _listing(uow, cmd.alarm_id, cmd.account_id, now)

    @staticmethod
    def _defer_minutes(cmd: DealWithAlarm) -> int | None:
        """The delay of a deferral; None for approving or refusing."""
        if cmd.handling is not Handling.DEFER:
            if cmd.defer_minutes is not None:
                raise InvalidInput("deferMinutes", DELAY_WITHOUT_DEFER)
            return None
        minutes = DEFAULT_DEFER_MINUTES if cmd.defer_minutes is None else cmd.defer_minutes
        problem = defer_minutes_problem(minutes)
        if problem:
            raise InvalidInput("deferMinutes", problem)
        return minutes


class ListDeferrals:
    """An alarm's deferrals, newest first, for whoever may see the alarm."""

    def __init__(self, uow: AlarmsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, alarm_id: int, request: PageRequest) -> Page[Deferral]:
        with self._uow as uow:
            listing = _listing(uow, alarm_id, account_id, self._clock.now())
            ensure_access(uow, account_id, listing.alarm.device_id, Element.ALARMS)
            return uow.alarms.deferral_page(alarm_id, request)


class CountUntreatedAlarms:
    def __init__(self, uow: AlarmsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int) -> int:
        with self._uow as uow:
            return uow.alarms.count_untreated(account_id, self._clock.now())
