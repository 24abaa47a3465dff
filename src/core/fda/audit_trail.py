"""Reading and verifying the audit trail (core.fda.trail).

Who reads which chain: an account its own; an organization's, its members verify (whether the
records they work on are intact is theirs to know) while its entries (the trail's list and export)
are read by those who read the organization's operation log: its creator and administrators."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from core.audit.model import EXPORT_MAX
from core.fda.model import FdaSwitch, Subject
from core.fda.ports import TrailUnitOfWork
from core.fda.trail import TrailRow, Verification, first_broken
from core.organizations.model import MANAGERS
from core.shared.clock import Clock
from core.shared.errors import Forbidden, NotFound
from core.shared.paging import Page, PageRequest


def _switch(uow: TrailUnitOfWork, account_id: int, organization_id: int | None, entries: bool) -> FdaSwitch:
    """The caller's own switch, or that of an organization it is a member of (404 otherwise: the
    same answer as for no such organization); reading the entries (`entries`) of an
    organization's takes its creator or an administrator (403)."""
    switches = uow.fda_switches.switches_of(account_id)
    if organization_id is None:
        found = next((s for s in switches if s.subject.account_id == account_id), None)
    else:
        found = next((s for s in switches if s.subject.organization_id == organization_id), None)
    if found is None:
        raise NotFound()
    if entries and organization_id is not None and not _manages(uow, account_id, organization_id):
        raise Forbidden()
    return found


def _manages(uow: TrailUnitOfWork, account_id: int, organization_id: int) -> bool:
    if uow.organizations.role_of(organization_id, account_id) in MANAGERS:
        return True
    organization = uow.organizations.get(organization_id)
    return organization is not None and organization.creator_account_id == account_id


def _verify(uow: TrailUnitOfWork, switch: FdaSwitch, now: datetime) -> Verification:
    key = switch.subject.key
    links, head = uow.fda_trail.head(key)
    return Verification(switch.subject, switch.name, links, first_broken(uow.fda_trail.linked(key)), now, head)


class VerifyTrail:
    """Recompute the chain of the caller's own records, or of an organization it is a member of."""

    def __init__(self, uow: TrailUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, organization_id: int | None) -> Verification:
        with self._uow as uow:
            return _verify(uow, _switch(uow, account_id, organization_id, entries=False), self._clock.now())


class VerifyReaderTrails:
    """The chains of what an operation-log reader reads, whose FDA mode is on: its own, and those
    of the organizations whose log it reads (it manages them). For the log's export."""

    def __init__(self, uow: TrailUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int) -> list[Verification]:
        with self._uow as uow:
            now = self._clock.now()
            return [_verify(uow, s, now) for s in uow.fda_switches.switches_of(account_id)
                    if s.on and (s.subject.organization_id is None
                                 or _manages(uow, account_id, s.subject.organization_id))]


class CheckTrail:
    """A subject's chain recomputed for a document that states it (the periodic report's PDF)."""

    def __init__(self, uow: TrailUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, subject: Subject) -> Verification:
        with self._uow as uow:
            return _verify(uow, FdaSwitch(subject, uow.fda_switches.is_on(subject), ""), self._clock.now())


class VerifySubjectTrail:
    """The command line's: any account's (by its login name) or organization's chain, no caller."""

    def __init__(self, uow: TrailUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_name: str | None = None, organization_id: int | None = None) -> Verification:
        with self._uow as uow:
            if account_name is not None:
                account = uow.accounts.by_login_name(account_name)
                if account is None or account.id is None:
                    raise NotFound()
                switch = FdaSwitch(Subject(account_id=account.id), uow.fda_switches.is_on(
                    Subject(account_id=account.id)), account.user_name)
            else:
                organization = uow.organizations.get(organization_id) if organization_id is not None else None
                if organization is None or organization.id is None:
                    raise NotFound()
                subject = Subject(organization_id=organization.id)
                switch = FdaSwitch(subject, uow.fda_switches.is_on(subject), organization.name)
            return _verify(uow, switch, self._clock.now())


@dataclass(frozen=True)
class TrailWindow:
    since: datetime | None = None
    until: datetime | None = None


class ListTrail:
    """A chain's links with their entries, newest first, for who reads the subject's log."""

    def __init__(self, uow: TrailUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, organization_id: int | None, window: TrailWindow,
                 request: PageRequest) -> Page[TrailRow]:
        with self._uow as uow:
            switch = _switch(uow, account_id, organization_id, entries=True)
            return uow.fda_trail.page(switch.subject.key, window.since, window.until, request)


@dataclass(frozen=True)
class TrailExport:
    verification: Verification
    rows: list[TrailRow]  # newest first, at most EXPORT_MAX


class ExportTrail:
    """The chain verified, then its newest links (at most EXPORT_MAX), in one transaction."""

    def __init__(self, uow: TrailUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, organization_id: int | None) -> TrailExport:
        with self._uow as uow:
            switch = _switch(uow, account_id, organization_id, entries=True)
            verification = _verify(uow, switch, self._clock.now())
            rows: Iterator[TrailRow] = uow.fda_trail.newest(switch.subject.key, EXPORT_MAX)
            return TrailExport(verification, list(rows))
