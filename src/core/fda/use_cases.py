"""Signing a record on its own (a waybill's or a report's approval), reading the signatures of
records and the subjects' list of them, the caller's signing state, and lifting a lock."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from core.fda.errors import NoSelfUnlock
from core.fda.model import Manifestation, SignatureInput, Signer, SigningLock, Subject
from core.fda.ports import FdaUnitOfWork, SignatureFilter
from core.fda.signing import Signing, SigningState
from core.organizations.model import MANAGERS
from core.shared.clock import Clock
from core.shared.errors import NotFound
from core.shared.paging import Page, PageRequest


class SignRecord:
    """POST /FdaRecord/sign: a signature on a record as it now is, by whoever may sign it."""

    def __init__(self, uow: FdaUnitOfWork, signing: Signing) -> None:
        self._uow, self._signing = uow, signing

    def __call__(self, signer: Signer, record_type: str, record_id: str, given: SignatureInput) -> Manifestation:
        with self._uow as uow:
            record = self._signing.record(record_type, record_id, signer.account_id)
            passed = self._signing.authenticate(signer, given)
            signature = self._signing.write(passed, record)
            uow.commit()
        return signature.manifestation(record.content_hash)


class RecordSignatures:
    """The signatures of records a reader sees, oldest first, each valid while the record is as it
    was signed."""

    def __init__(self, uow: FdaUnitOfWork, signing: Signing) -> None:
        self._uow, self._signing = uow, signing

    def __call__(self, reader_account_id: int, record_type: str, record_id: str) -> list[Manifestation]:
        with self._uow:
            record = self._signing.record(record_type, record_id, reader_account_id)
            return self._uow.signature_reader.of_record(record_type, record_id, record.content_hash)

    def of_many(self, reader_account_id: int, record_type: str,
                record_ids: Collection[str]) -> dict[str, list[Manifestation]]:
        """For a list of records the reader was shown (a page of alarms): the versions of only those
        that were signed are read."""
        with self._uow as uow:
            signed = uow.signatures.of_records(record_type, record_ids)
            source = self._signing.source(record_type)
            found: dict[str, list[Manifestation]] = {}
            for record_id, signatures in signed.items():
                record = source.version_of(record_id, reader_account_id)
                found[record_id] = [s.manifestation(record.content_hash if record else None) for s in signatures]
            return found


def _member_subjects(uow: FdaUnitOfWork, account_id: int, organization_id: int | None) -> list[Subject]:
    """The caller's own records and those of its organizations; one organization of theirs when
    asked (NotFound for another)."""
    organizations = [o.organization_id for o in uow.organizations.mine(account_id)]
    if organization_id is not None:
        if organization_id not in organizations:
            raise NotFound()
        return [Subject(organization_id=organization_id)]
    return [Subject(account_id=account_id)] + [Subject(organization_id=o) for o in organizations]


class ListSignatures:
    """The FDA page's signatures: of the caller's records and its organizations', newest first,
    each valid while its record is as signed (read as the caller sees it)."""

    def __init__(self, uow: FdaUnitOfWork, signing: Signing) -> None:
        self._uow, self._signing = uow, signing

    def __call__(self, account_id: int, organization_id: int | None, where: SignatureFilter,
                 request: PageRequest) -> Page[Manifestation]:
        with self._uow as uow:
            page = uow.signatures.page(_member_subjects(uow, account_id, organization_id), where, request)
            hashes: dict[tuple[str, str], str | None] = {}
            for s in page.items:
                key = (s.record_type, s.record_id)
                if key not in hashes:
                    source = uow.record_versions.get(s.record_type)
                    record = source.version_of(s.record_id, account_id) if source else None
                    hashes[key] = record.content_hash if record else None
            return Page(page.start, page.page_size, page.total_count,
                        [s.manifestation(hashes[(s.record_type, s.record_id)]) for s in page.items])


class GetSigningState:
    def __init__(self, uow: FdaUnitOfWork, signing: Signing) -> None:
        self._uow, self._signing = uow, signing

    def __call__(self, signer: Signer) -> SigningState:
        with self._uow:
            return self._signing.state(signer)


@dataclass(frozen=True)
class Unlocked:
    changed: bool


class UnlockSigning:
    """An administrator (creator or administrator role) of an organization the account is a member
    of lifts its signing lock and clears its failures; the unlock is kept in the operation log.
    Anybody else is answered as for an unknown account (404); the locked account itself may not."""

    def __init__(self, uow: FdaUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, caller_account_id: int, account_id: int) -> Unlocked:
        now = self._clock.now()
        with self._uow as uow:
            shared = [o.organization_id for o in uow.organizations.mine(account_id)]
            managed = [o for o in shared if uow.organizations.role_of(o, caller_account_id) in MANAGERS]
            if not managed:
                raise NotFound()
            if caller_account_id == account_id:
                raise NoSelfUnlock()
            lock = uow.signatures.lock_of(account_id)
            if not lock.locked_at(now) and not lock.failures:
                return Unlocked(False)
            uow.signatures.save_lock(account_id, SigningLock())
            uow.signatures.unlocked(account_id, caller_account_id, managed[0], now)
            uow.commit()
        return Unlocked(True)
