"""Share links and the public quick query (no login): a receiver sees the trip's status, limits,
readings, excursions and report, never the owner's data (the parties' phones and addresses, its
other waybills). Lookups are limited per client address, and a number nobody has answers exactly as
a number whose waybill is not started does not exist: an empty list."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import datetime

from core.shared.clock import Clock
from core.shared.errors import InvalidInput, NotFound
from core.shared.lookups import count_lookup
from core.waybills.errors import ShareLinkUnavailable
from core.waybills.model import Waybill
from core.waybills.ports import WaybillsUnitOfWork
from core.waybills.sharing import ReportSeal, ShareLink, expiry, new_token, token_digest
from core.waybills.statistics import DEFAULT_ACTIVATION_ENERGY
from core.waybills.use_cases import TripReport, changeable, trip_report

MATCHES_MAX = 5  # waybills a number shows at most (numbers are the owners', not unique)


@dataclass(frozen=True)
class NewShareLink:
    link: ShareLink
    token: str  # given once, never stored


class CreateShareLink:
    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, waybill_id: int, validity: str, custom_end: datetime | None) -> NewShareLink:
        now = self._clock.now()
        ends = expiry(validity, now, custom_end)
        if isinstance(ends, str):
            raise InvalidInput("endTime", ends)
        token = new_token()
        with self._uow as uow:
            changeable(uow, account_id, waybill_id)
            link = ShareLink(None, waybill_id, token_digest(token), account_id, now, ends)
            link_id = uow.waybill_links.add(link)
            uow.commit()
        return NewShareLink(ShareLink(link_id, waybill_id, link.token_digest, account_id, now, ends), token)


class ListShareLinks:
    def __init__(self, uow: WaybillsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, waybill_id: int) -> list[ShareLink]:
        with self._uow as uow:
            changeable(uow, account_id, waybill_id)
            return uow.waybill_links.of_waybill(waybill_id)


class RevokeShareLink:
    """At once: the next open of the link is refused. Revoking a revoked link changes nothing."""

    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, link_id: int) -> None:
        with self._uow as uow:
            link = uow.waybill_links.get(link_id)
            if link is None:
                raise NotFound()
            changeable(uow, account_id, link.waybill_id)
            if link.revoked_at is None:
                uow.waybill_links.revoke(link_id, self._clock.now())
                uow.commit()


def _limit(uow: WaybillsUnitOfWork, address: str, now: datetime) -> None:
    count_lookup(uow.waybill_lookups, address, now)


class QuickQuery:
    """By order number or device GUID: the receiver's view of each trip found (started ones only: a
    trip not started has nothing to show, and answers as a miss)."""

    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock, seal: ReportSeal) -> None:
        self._uow, self._clock, self._seal = uow, clock, seal

    def __call__(self, address: str, number: str | None, guid: str | None,
                 activation_energy: float = DEFAULT_ACTIVATION_ENERGY) -> list[TripReport]:
        now = self._clock.now()
        with self._uow as uow:
            _limit(uow, address, now)
            uow.commit()
            found: list[Waybill] = []
            if number:
                found = uow.waybills.by_number(number.strip(), MATCHES_MAX)
            elif guid:
                latest = uow.waybills.latest_of_guid(guid.strip())
                found = [latest] if latest is not None else []
            return [trip_report(uow, w, now, self._seal, activation_energy) for w in found]


class OpenShareLink:
    """The waybill a share link shows, each open recorded with its time and client address."""

    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock, seal: ReportSeal) -> None:
        self._uow, self._clock, self._seal = uow, clock, seal

    def __call__(self, address: str, token: str, activation_energy: float = DEFAULT_ACTIVATION_ENERGY) -> TripReport:
        now = self._clock.now()
        with self._uow as uow:
            _limit(uow, address, now)
            uow.commit()
            link = uow.waybill_links.by_digest(token_digest(token))
            if link is None:
                raise NotFound()
            if not link.usable(now):
                raise ShareLinkUnavailable()
            waybill = uow.waybills.get(link.waybill_id)
            if waybill is None:
                raise NotFound()
            assert link.id is not None
            uow.waybill_links.record_open(link.id, now, address)
            report = trip_report(uow, waybill, now, self._seal, activation_energy)
            uow.commit()
            return report


@dataclass(frozen=True)
class Verification:
    valid: bool
    report: TripReport | None = None


class VerifyReport:
    """Whether a report's verification code ("<waybill id>-<seal>") matches the waybill's readings as
    stored now; a valid code shows the receiver's view of the trip, an invalid one nothing."""

    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock, seal: ReportSeal) -> None:
        self._uow, self._clock, self._seal = uow, clock, seal

    def __call__(self, address: str, code: str) -> Verification:
        now = self._clock.now()
        with self._uow as uow:
            _limit(uow, address, now)
            uow.commit()
            number, _, mac = code.strip().partition("-")
            if not number.isdigit() or len(number) > 10 or not mac:
                return Verification(False)
            waybill = uow.waybills.get(int(number))
            if waybill is None:
                return Verification(False)
            report = trip_report(uow, waybill, now, self._seal)
            if hmac.compare_digest(report.verification_code, f"{int(number)}-{mac.upper()}"):
                return Verification(True, report)
            return Verification(False)
