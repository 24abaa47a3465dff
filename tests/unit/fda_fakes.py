"""Fakes of core.fda's ports, and a world of accounts for the signing rules' unit tests: acme
creates the organization Acme (id 1), carol administers it, dave is a plain member, alice is a
stranger. Every demo password is "pw-<name>" (FakeHasher's transparent hashes)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from core.accounts.model import Account
from core.fda.model import Endorsement, SignableRecord, Signature, SigningLock, Subject, content_hash
from core.fda.ports import OrganizationRoleRef, SignatureFilter
from core.fda.signing import Signing, SigningPolicy
from core.inbox.model import Recipient
from core.organizations.model import Organization
from core.permissions import roles
from core.shared.paging import Page, PageRequest
from tests.support.clock import MutableClock
from tests.unit.fakes import (
    FakeAccountRepository,
    FakeHasher,
    FakeInbox,
    FakeOrganizations,
    FakeOutboxRepository,
    FakeTransaction,
)

ACME_ORG = 1
MEMBER_ROLE_ID, ADMIN_ROLE_ID, CREATOR_ROLE_ID = 3, 2, 1
ROLE_IDS = {roles.ORG_CREATOR.code: CREATOR_ROLE_ID, roles.ORG_ADMIN.code: ADMIN_ROLE_ID,
            roles.ORG_MEMBER.code: MEMBER_ROLE_ID}


class FakeSignatures:
    def __init__(self) -> None:
        self.rows: list[Signature] = []
        self.locks: dict[int, SigningLock] = {}
        self.sessions: dict[int, datetime] = {}
        self.unlocks: list[tuple[int, int, int]] = []

    def add(self, signature: Signature) -> Signature:
        stored = replace(signature, id=len(self.rows) + 1)
        self.rows.append(stored)
        return stored

    def of_records(self, record_type: str, record_ids: Collection[str]) -> dict[str, list[Signature]]:
        found: dict[str, list[Signature]] = {}
        for s in self.rows:
            if s.record_type == record_type and s.record_id in record_ids:
                found.setdefault(s.record_id, []).append(s)
        return found

    def page(self, subjects: Collection[Subject], where: SignatureFilter, request: PageRequest) -> Page[Signature]:
        mine = [s for s in reversed(self.rows) if s.subject in subjects]
        shown = mine[request.offset:request.offset + request.page_size]
        return Page(request.start, request.page_size, len(mine), shown)

    def lock_of(self, account_id: int) -> SigningLock:
        return self.locks.get(account_id, SigningLock())

    def save_lock(self, account_id: int, lock: SigningLock) -> None:
        self.locks[account_id] = lock

    def last_signed(self, session_id: int) -> datetime | None:
        return self.sessions.get(session_id)

    def signed_in_session(self, session_id: int, at: datetime) -> None:
        self.sessions[session_id] = at

    def unlocked(self, account_id: int, by_account_id: int, organization_id: int, at: datetime) -> None:
        self.unlocks.append((account_id, by_account_id, organization_id))


class FakeEndorsements:
    def __init__(self, organizations: FakeOrganizations) -> None:
        self.rows: dict[int, Endorsement] = {}
        self._organizations = organizations

    def page(self, subject: Subject, request: PageRequest) -> Page[Endorsement]:
        mine = [e for e in self.rows.values() if e.subject == subject]
        return Page(request.start, request.page_size, len(mine), mine)

    def get(self, endorsement_id: int) -> Endorsement | None:
        return self.rows.get(endorsement_id)

    def add(self, endorsement: Endorsement, at: datetime) -> Endorsement:
        endorsement.id = len(self.rows) + 1
        self.rows[endorsement.id] = endorsement
        return endorsement

    def update(self, endorsement: Endorsement, at: datetime) -> None:
        self.rows[endorsement.id or 0] = endorsement

    def delete(self, endorsement_id: int) -> None:
        self.rows.pop(endorsement_id, None)

    def roles(self, role_ids: Collection[int]) -> dict[int, OrganizationRoleRef]:
        known = {v: OrganizationRoleRef(v, k, None) for k, v in ROLE_IDS.items()}
        return {i: known[i] for i in role_ids if i in known}

    def role_id_of(self, organization_id: int, account_id: int) -> int | None:
        role = self._organizations.role_of(organization_id, account_id)
        return ROLE_IDS.get(role) if role else None


@dataclass
class FakeRecord:
    content: dict
    subject: Subject
    readers: frozenset[int]


class FakeRecords:
    """One record type's versions: the test changes a record's content to make a new version."""

    def __init__(self, record_type: str) -> None:
        self.record_type = record_type
        self.rows: dict[str, FakeRecord] = {}

    def version_of(self, record_id: str, reader_account_id: int) -> SignableRecord | None:
        record = self.rows.get(record_id)
        if record is None or reader_account_id not in record.readers:
            return None
        return SignableRecord(self.record_type, record_id, f"{self.record_type} {record_id}",
                              content_hash(record.content), record.subject)


class FakeSwitches:
    def __init__(self) -> None:
        self.on: set[Subject] = set()
        self.devices: dict[int, Subject] = {}

    def is_on(self, subject: Subject) -> bool:
        return subject in self.on

    def is_on_for_device(self, device_id: int) -> bool:
        return self.devices.get(device_id) in self.on

    def subject_of_device(self, device_id: int) -> Subject | None:
        return self.devices.get(device_id)

    def switches_of(self, account_id: int):
        return []

    def set_on(self, subject: Subject, on: bool) -> None:
        (self.on.add if on else self.on.discard)(subject)


class FakeDeviceRegistry:
    """organizations_of only: who changes an organization's devices (its creator and administrators)."""

    def __init__(self, organizations: FakeOrganizations) -> None:
        self._organizations = organizations

    def organizations_of(self, account_id: int) -> dict[int, bool]:
        return {o.organization_id: o.role_code in (roles.ORG_CREATOR.code, roles.ORG_ADMIN.code)
                for o in self._organizations.mine(account_id)}


class FakeSignatureReader:
    def __init__(self, signatures: FakeSignatures) -> None:
        self._signatures = signatures

    def of_record(self, record_type: str, record_id: str, current_hash: str):
        return [s.manifestation(current_hash)
                for s in self._signatures.of_records(record_type, [record_id]).get(record_id, [])]


class FakeFdaUnitOfWork(FakeTransaction):
    def __init__(self) -> None:
        self.commits = 0
        self.accounts = FakeAccountRepository()
        self.organizations = FakeOrganizations()
        self.signatures = FakeSignatures()
        self.signature_reader = FakeSignatureReader(self.signatures)
        self.endorsements = FakeEndorsements(self.organizations)
        self.fda_switches = FakeSwitches()
        self.device_registry = FakeDeviceRegistry(self.organizations)
        self.inbox = FakeInbox()
        self.outbox = FakeOutboxRepository()
        self.record_versions = {t: FakeRecords(t) for t in ("waybill", "report", "alarm", "fda")}


class World:
    """The accounts, the organization and a signing service on one fake unit of work."""

    def __init__(self) -> None:
        self.uow = FakeFdaUnitOfWork()
        self.clock = MutableClock(datetime(2026, 5, 1, 8, 0, tzinfo=UTC))
        self.hasher = FakeHasher()
        self.ids: dict[str, int] = {}
        for name in ("acme", "carol", "dave", "alice"):
            account = self.uow.accounts.add(Account(None, name, self.hasher.hash(f"pw-{name}"),
                                                    email=f"{name}@example.com"))
            self.ids[name] = account.stored_id
            self.uow.organizations.accounts[account.stored_id] = name
            self.uow.inbox.recipients[account.stored_id] = Recipient(None, f"{name}@example.com", "en-US")
        self.uow.organizations.add(Organization("Acme", self.ids["acme"], self.clock.now()))
        for name, role in (("acme", roles.ORG_CREATOR), ("carol", roles.ORG_ADMIN), ("dave", roles.ORG_MEMBER)):
            self.uow.organizations.add_member(ACME_ORG, self.ids[name], role.code)
        self.signing = Signing(self.uow, self.hasher, self.clock, SigningPolicy(), "en-US")

    def record(self, record_type: str, record_id: str, subject: Subject, *readers: str, **content) -> FakeRecords:
        source = self.uow.record_versions[record_type]
        source.rows[record_id] = FakeRecord(dict(content), subject, frozenset(self.ids[r] for r in readers))
        return source
