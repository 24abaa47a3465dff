from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from core.accounts.ports import AccountRepository
from core.devices.ports import DeviceRepository
from core.exports.readings import ExportReadingSource
from core.fda.model import (
    Endorsement,
    FdaReport,
    FdaSwitch,
    Manifestation,
    ReportFilter,
    SignableRecord,
    Signature,
    SignatureInput,
    Signer,
    SigningLock,
    Subject,
    TrailState,
)
from core.fda.trail import LinkedEntry, TrailRow
from core.inbox.ports import Inbox
from core.notifications.ports import OutboxRepository
from core.organizations.ports import OrganizationRepository
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction


class FdaSwitches(Protocol):
    """Whether FDA mode is on: an account's own (user_profiles.enable_fda) or an organization's
    (organizations.enable_fda)."""

    def is_on(self, subject: Subject) -> bool: ...

    def is_on_for_device(self, device_id: int) -> bool:
        """Whether the subject the device belongs to (its organization, else its owner) has FDA on."""
        ...

    def subject_of_device(self, device_id: int) -> Subject | None: ...

    def switches_of(self, account_id: int) -> list[FdaSwitch]:
        """The account's own switch, then those of the organizations it is a member of."""
        ...

    def set_on(self, subject: Subject, on: bool) -> None: ...




class RecordVersions(Protocol):
    """One kind of signable record (the container maps record types to these): the current version
    of a record the reader sees, or None (no such record, or one the reader may not see: the same
    answer)."""

    def version_of(self, record_id: str, reader_account_id: int) -> SignableRecord | None: ...


class SignatureReader(Protocol):
    """The signatures of one record, oldest first, each `valid` when it was signed on the version
    whose hash is `current_hash`."""

    def of_record(self, record_type: str, record_id: str, current_hash: str) -> list[Manifestation]: ...


# --- the audit trail (core.fda.trail) ----------------------------------------------------------


class AuditTrail(Protocol):
    """The subjects' chains, read. Links are written with the operation log's entries, in their
    transaction, by the persistence adapter that writes the log: never by a use case."""

    def head(self, chain_key: str) -> tuple[int, str | None]:
        """How many links the chain has, and the newest one's hash (None: no link yet)."""
        ...

    def linked(self, chain_key: str) -> Iterator[LinkedEntry]:
        """Every link of the chain, lowest seq first, with what the log holds now of what it covers."""
        ...

    def page(self, chain_key: str, since: datetime | None, until: datetime | None,
             request: PageRequest) -> Page[TrailRow]:
        """The chain's links whose entry's time is in [since, until), newest (highest seq) first."""
        ...

    def newest(self, chain_key: str, limit: int) -> Iterator[TrailRow]:
        """Up to `limit` links as page() lists them, read in batches."""
        ...


class TrailCheck(Protocol):
    """A subject's audit trail verified now, for a document that states it; None: it cannot be
    checked here."""

    def __call__(self, subject: Subject) -> TrailState | None: ...


class TrailUnitOfWork(Transaction, Protocol):
    @property
    def fda_switches(self) -> FdaSwitches: ...
    @property
    def fda_trail(self) -> AuditTrail: ...
    @property
    def organizations(self) -> OrganizationRepository: ...
    @property
    def accounts(self) -> AccountRepository: ...


# --- the periodic report (core.fda.reports) ---------------------------------------------------------


class FdaReportRepository(Protocol):
    """Periodic reports, each read with its device's current name and GUID and its maker's name."""

    def add(self, report: FdaReport) -> int:
        """The new report's id; core.fda.reports.ReportExists when the device has one of that
        very period already (two clicks of one request make one report)."""
        ...

    def get(self, report_id: int) -> FdaReport | None: ...

    def page(self, account_id: int, organization_ids: Collection[int], where: ReportFilter,
             request: PageRequest) -> Page[FdaReport]:
        """The reports of the account's own devices and of those organizations, newest first."""
        ...

    def device_holder(self, device_id: int) -> int | None:
        """The device's owner now (None: the device is gone)."""
        ...

    def content_hash(self, device_id: int, start: datetime, end: datetime, head: bytes) -> str:
        """The SHA-256 (hex) of `head` followed by each of the device's readings of [start, end] in
        time order, each as core.fda.reports.reading_bytes writes it: a report's version."""
        ...


class FdaReportsUnitOfWork(Transaction, Protocol):
    @property
    def fda_switches(self) -> FdaSwitches: ...
    @property
    def fda_reports(self) -> FdaReportRepository: ...
    @property
    def device_registry(self) -> DeviceRepository: ...
    @property
    def export_readings(self) -> ExportReadingSource: ...  # every reading of a period, a chunk at a time
    @property
    def signature_reader(self) -> SignatureReader: ...


@dataclass(frozen=True)
class SignatureFilter:
    """The signatures list's filters; `signer` is part of the signer's user name or printed name, any case."""

    signer: str | None = None
    meaning: str | None = None
    record_type: str | None = None
    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True)
class OrganizationRoleRef:
    """A role an endorsement may name: a built-in organization role (organization None) or a
    custom role of one organization."""

    role_id: int
    code: str
    organization_id: int | None


class SignatureRepository(Protocol):
    """Signatures are only ever added (the database refuses UPDATE and DELETE); beside them, each
    account's failed attempts and each login session's last signature."""

    def add(self, signature: Signature) -> Signature: ...
    def of_records(self, record_type: str, record_ids: Collection[str]) -> dict[str, list[Signature]]:
        """Each record's signatures, oldest first (a record without any is left out)."""
        ...
    def page(self, subjects: Collection[Subject], where: SignatureFilter, request: PageRequest) -> Page[Signature]:
        """The signatures of records of these subjects, newest first."""
        ...
    def lock_of(self, account_id: int) -> SigningLock: ...
    def save_lock(self, account_id: int, lock: SigningLock) -> None: ...
    def last_signed(self, session_id: int) -> datetime | None:
        """When the login session last signed; None: never."""
        ...
    def signed_in_session(self, session_id: int, at: datetime) -> None: ...
    def unlocked(self, account_id: int, by_account_id: int, organization_id: int, at: datetime) -> None:
        """Keep an administrator's unlock (a row the operation log records)."""
        ...


class EndorsementRepository(Protocol):
    def page(self, subject: Subject, request: PageRequest) -> Page[Endorsement]: ...
    def get(self, endorsement_id: int) -> Endorsement | None: ...
    def add(self, endorsement: Endorsement, at: datetime) -> Endorsement: ...
    def update(self, endorsement: Endorsement, at: datetime) -> None: ...
    def delete(self, endorsement_id: int) -> None: ...
    def roles(self, role_ids: Collection[int]) -> dict[int, OrganizationRoleRef]:
        """Those of the ids that are organization roles (built-in or custom), by id."""
        ...
    def role_id_of(self, organization_id: int, account_id: int) -> int | None:
        """The role the account holds in the organization; None for a non-member."""
        ...


class FdaUnitOfWork(Transaction, Protocol):
    """The FDA context's transaction: its own repositories, the records' versions by record type,
    the accounts (a signer's password), the organizations (their administrators) and the inbox (a
    lock's alert)."""

    @property
    def fda_switches(self) -> FdaSwitches: ...
    @property
    def signatures(self) -> SignatureRepository: ...
    @property
    def signature_reader(self) -> SignatureReader: ...
    @property
    def endorsements(self) -> EndorsementRepository: ...
    @property
    def record_versions(self) -> Mapping[str, RecordVersions]: ...
    @property
    def accounts(self) -> AccountRepository: ...
    @property
    def organizations(self) -> OrganizationRepository: ...
    @property
    def device_registry(self) -> DeviceRepository: ...
    @property
    def inbox(self) -> Inbox: ...
    @property
    def outbox(self) -> OutboxRepository: ...


@dataclass(frozen=True)
class Authenticated:
    """A signer whose credentials were just checked: what `ChangeSigning.sign` needs."""

    signer: Signer
    given: SignatureInput
    at: datetime


class ChangeSigning(Protocol):
    """A change that FDA mode makes signed (an alarm's handling, a device's parameters or alarm
    limits), signed in the transaction that makes it: `check` before the change, `sign` after it on
    the record's new version. Built on the use case's own unit of work, already entered."""

    def check(self, signer: Signer, device_id: int, given: SignatureInput | None) -> Authenticated | None:
        """None when the device's subject has FDA off and no signature was given; SignatureRequired
        (428) when it is on and none was given; else the signer authenticated. A failed attempt is
        counted and committed before the refusal is raised: call it before changing anything."""
        ...

    def sign(self, passed: Authenticated, record_type: str, record_id: str, *, meaning: str,
             reason: str | None) -> Signature:
        """The signature of the record's version as it now is, with the given meaning and reason
        unless the signer gave their own."""
        ...


__all__ = ["AuditTrail", "Authenticated", "ChangeSigning", "EndorsementRepository", "FdaReportRepository",
           "FdaReportsUnitOfWork", "FdaSwitches", "FdaUnitOfWork", "OrganizationRoleRef", "RecordVersions",
           "SignatureFilter", "SignatureReader", "SignatureRepository", "TrailCheck", "TrailUnitOfWork"]
