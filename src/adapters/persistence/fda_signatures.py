"""Signatures, signing locks and sessions, and endorsements (core.fda.ports)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from datetime import datetime

from sqlalchemy import ColumnElement, delete, func, insert, or_, select
from sqlalchemy.orm import Session

from adapters.persistence.database import upsert
from adapters.persistence.models import OrganizationMemberRow, RoleRow
from adapters.persistence.models_fda_signatures import (
    FdaEndorsementRow,
    FdaSignatureRow,
    FdaSigningLockRow,
    FdaSigningSessionRow,
    FdaSigningUnlockRow,
)
from core.fda.model import Endorsement, Manifestation, Signature, SigningLock, Subject
from core.fda.ports import OrganizationRoleRef, SignatureFilter
from core.permissions.roles import RoleType
from core.shared.paging import Page, PageRequest

_IN_BATCH = 500


def _signature(row: FdaSignatureRow) -> Signature:
    subject = Subject(row.subject_account_id, row.subject_organization_id)
    return Signature(row.record_type, row.record_id, row.record_label, row.content_sha256, subject,
                     row.signer_account_id, row.signer_login, row.signer_name, row.meaning, row.reason, row.signed_at,
                     row.time_zone, row.session_id, row.endorsement_id, row.endorsement_name, row.id)


def _of_subjects(subjects: Collection[Subject]) -> ColumnElement[bool]:
    accounts = sorted({s.account_id for s in subjects if s.account_id is not None})
    organizations = sorted({s.organization_id for s in subjects if s.organization_id is not None})
    return or_(FdaSignatureRow.subject_account_id.in_(accounts),
               FdaSignatureRow.subject_organization_id.in_(organizations))


class SqlAlchemySignatureRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, signature: Signature) -> Signature:
        s = signature
        row = FdaSignatureRow(
            record_type=s.record_type, record_id=s.record_id, record_label=s.record_label,
            content_sha256=s.content_hash, subject_account_id=s.subject.account_id,
            subject_organization_id=s.subject.organization_id, signer_account_id=s.signer_account_id,
            signer_login=s.signer_login[:50], signer_name=s.signer_name[:100], meaning=s.meaning[:50],
            reason=s.reason, signed_at=s.signed_at, time_zone=s.time_zone, session_id=s.session_id,
            endorsement_id=s.endorsement_id, endorsement_name=s.endorsement_name)
        self._s.add(row)
        self._s.flush()
        return replace(s, id=row.id)

    def of_records(self, record_type: str, record_ids: Collection[str]) -> dict[str, list[Signature]]:
        ids = list(dict.fromkeys(record_ids))
        found: dict[str, list[Signature]] = {}
        for i in range(0, len(ids), _IN_BATCH):
            rows = self._s.scalars(select(FdaSignatureRow).where(
                FdaSignatureRow.record_type == record_type, FdaSignatureRow.record_id.in_(ids[i:i + _IN_BATCH]))
                .order_by(FdaSignatureRow.id))
            for row in rows:
                found.setdefault(row.record_id, []).append(_signature(row))
        return found

    def page(self, subjects: Collection[Subject], where: SignatureFilter, request: PageRequest) -> Page[Signature]:
        query = select(FdaSignatureRow).where(_of_subjects(subjects))
        if where.signer:
            part = where.signer.lower()
            query = query.where(or_(func.lower(FdaSignatureRow.signer_login).contains(part, autoescape=True),
                                    func.lower(FdaSignatureRow.signer_name).contains(part, autoescape=True)))
        if where.meaning:
            query = query.where(FdaSignatureRow.meaning == where.meaning)
        if where.record_type:
            query = query.where(FdaSignatureRow.record_type == where.record_type)
        if where.since is not None:
            query = query.where(FdaSignatureRow.signed_at >= where.since)
        if where.until is not None:
            query = query.where(FdaSignatureRow.signed_at < where.until)
        total = self._s.scalar(select(func.count()).select_from(query.subquery())) or 0
        rows = self._s.scalars(query.order_by(FdaSignatureRow.signed_at.desc(), FdaSignatureRow.id.desc())
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, [_signature(r) for r in rows])

    def lock_of(self, account_id: int) -> SigningLock:
        row = self._s.get(FdaSigningLockRow, account_id)
        return SigningLock(row.failures, row.locked_until) if row is not None else SigningLock()

    def save_lock(self, account_id: int, lock: SigningLock) -> None:
        values = {"failures": lock.failures, "locked_until": lock.locked_until}
        self._s.execute(upsert(self._s, FdaSigningLockRow).values(account_id=account_id, **values)
                        .on_conflict_do_update(index_elements=["account_id"], set_=values))

    def last_signed(self, session_id: int) -> datetime | None:
        return self._s.scalar(select(FdaSigningSessionRow.last_signed_at)
                              .where(FdaSigningSessionRow.session_id == session_id))

    def signed_in_session(self, session_id: int, at: datetime) -> None:
        self._s.execute(upsert(self._s, FdaSigningSessionRow).values(session_id=session_id, last_signed_at=at)
                        .on_conflict_do_update(index_elements=["session_id"], set_={"last_signed_at": at}))

    def unlocked(self, account_id: int, by_account_id: int, organization_id: int, at: datetime) -> None:
        self._s.execute(insert(FdaSigningUnlockRow).values(account_id=account_id, organization_id=organization_id,
                                                           unlocked_by=by_account_id, unlocked_at=at))


class SqlAlchemySignatureReader:
    """core.fda.ports.SignatureReader over the signatures' table."""

    def __init__(self, session: Session) -> None:
        self._signatures = SqlAlchemySignatureRepository(session)

    def of_record(self, record_type: str, record_id: str, current_hash: str) -> list[Manifestation]:
        return [s.manifestation(current_hash)
                for s in self._signatures.of_records(record_type, [record_id]).get(record_id, [])]


def _endorsement(row: FdaEndorsementRow) -> Endorsement:
    return Endorsement(Subject(row.account_id, row.organization_id), row.name, row.description, row.meaning,
                       tuple(row.record_types), tuple(row.role_ids), tuple(row.account_ids), bool(row.distinct_signer),
                       row.id)


class SqlAlchemyEndorsementRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    @staticmethod
    def _of(subject: Subject) -> ColumnElement[bool]:
        if subject.organization_id is not None:
            return FdaEndorsementRow.organization_id == subject.organization_id
        return (FdaEndorsementRow.account_id == subject.account_id) & FdaEndorsementRow.organization_id.is_(None)

    def page(self, subject: Subject, request: PageRequest) -> Page[Endorsement]:
        query = select(FdaEndorsementRow).where(self._of(subject))
        total = self._s.scalar(select(func.count()).select_from(query.subquery())) or 0
        rows = self._s.scalars(query.order_by(FdaEndorsementRow.name, FdaEndorsementRow.id)
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, [_endorsement(r) for r in rows])

    def get(self, endorsement_id: int) -> Endorsement | None:
        row = self._s.get(FdaEndorsementRow, endorsement_id)
        return _endorsement(row) if row is not None else None

    @staticmethod
    def _values(e: Endorsement) -> dict:
        return {"account_id": e.subject.account_id, "organization_id": e.subject.organization_id, "name": e.name,
                "description": e.description, "meaning": e.meaning, "record_types": list(e.record_types),
                "role_ids": list(e.role_ids), "account_ids": list(e.account_ids),
                "distinct_signer": e.distinct_signer}

    def add(self, endorsement: Endorsement, at: datetime) -> Endorsement:
        row = FdaEndorsementRow(**self._values(endorsement), created_at=at, updated_at=at)
        self._s.add(row)
        self._s.flush()
        endorsement.id = row.id
        return endorsement

    def update(self, endorsement: Endorsement, at: datetime) -> None:
        row = self._s.get(FdaEndorsementRow, endorsement.id)
        if row is None:
            return
        for key, value in self._values(endorsement).items():
            setattr(row, key, value)
        row.updated_at = at
        self._s.flush()

    def delete(self, endorsement_id: int) -> None:
        self._s.execute(delete(FdaEndorsementRow).where(FdaEndorsementRow.id == endorsement_id))

    def roles(self, role_ids: Collection[int]) -> dict[int, OrganizationRoleRef]:
        ids = sorted(set(role_ids))
        if not ids:
            return {}
        rows = self._s.execute(select(RoleRow.id, RoleRow.code, RoleRow.organization_id).where(
            RoleRow.id.in_(ids), RoleRow.role_type.in_([int(RoleType.ORGANIZATION), int(RoleType.CUSTOM)])))
        return {r.id: OrganizationRoleRef(r.id, r.code, r.organization_id) for r in rows}

    def role_id_of(self, organization_id: int, account_id: int) -> int | None:
        return self._s.scalar(select(OrganizationMemberRow.role_id).where(
            OrganizationMemberRow.organization_id == organization_id, OrganizationMemberRow.account_id == account_id))
