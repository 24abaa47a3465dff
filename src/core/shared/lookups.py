"""The rate limit of the public lookups (no login) by client address: the waybill quick query and
the calibration application an anonymous customer opens by its number. One log and one budget per
address, so that a client cannot double its guesses by switching between them."""

from __future__ import annotations

from datetime import datetime, timedelta

from core.shared.clock import Clock
from core.shared.errors import TooManyAttempts
from core.shared.ports import LookupLog, LookupsUnitOfWork

LOOKUPS_PER_WINDOW = 30
LOOKUP_WINDOW = timedelta(minutes=10)


def count_lookup(log: LookupLog, address: str, now: datetime) -> None:
    """Count this lookup; TooManyAttempts once the address made too many within the window."""
    if log.count_since(address, now - LOOKUP_WINDOW) >= LOOKUPS_PER_WINDOW:
        raise TooManyAttempts(int(LOOKUP_WINDOW.total_seconds()))
    log.record(address, now)


class CountLookup:
    """A public lookup counted in its own transaction, before the lookup itself (a refused or
    failed lookup counts too: that is what a guesser makes)."""

    def __init__(self, uow: LookupsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, address: str) -> None:
        with self._uow as uow:
            count_lookup(uow.waybill_lookups, address, self._clock.now())
            uow.commit()
