"""Tables of electronic signatures (issue 22, migration 0052): the signatures (append-only, as the
operation log), the endorsements, each account's failed signing attempts and lock, each login
session's last signature, and administrators' unlocks. Imported at the bottom of models.py."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from adapters.persistence.models_base import Base


class FdaSignatureRow(Base):
    """One signature: no foreign keys, it outlives the account, the device and the record it binds
    (the record's label, the signer's names and the endorsement's name are kept as they were)."""

    __tablename__ = "fda_signatures"
    __table_args__ = (Index("ix_fda_signatures_record", "record_type", "record_id", "id"),
                      Index("ix_fda_signatures_account_signed_at", "subject_account_id", "signed_at"),
                      Index("ix_fda_signatures_organization_signed_at", "subject_organization_id", "signed_at"))
    id: Mapped[int] = mapped_column(primary_key=True)
    record_type: Mapped[str] = mapped_column(String(20))
    record_id: Mapped[str] = mapped_column(String(64))
    record_label: Mapped[str] = mapped_column(String(200))
    content_sha256: Mapped[str] = mapped_column(String(64))  # the record version's (core.fda.model.content_hash)
    subject_account_id: Mapped[int | None] = mapped_column(Integer)
    subject_organization_id: Mapped[int | None] = mapped_column(Integer)
    signer_account_id: Mapped[int] = mapped_column(Integer)
    signer_login: Mapped[str] = mapped_column(String(50))
    signer_name: Mapped[str] = mapped_column(String(100))
    meaning: Mapped[str] = mapped_column(String(50))
    reason: Mapped[str | None] = mapped_column(String(200))
    signed_at: Mapped[datetime]
    time_zone: Mapped[str] = mapped_column(String(64))
    session_id: Mapped[int | None] = mapped_column(Integer)
    endorsement_id: Mapped[int | None] = mapped_column(Integer)
    endorsement_name: Mapped[str | None] = mapped_column(String(50))


class FdaEndorsementRow(Base):
    __tablename__ = "fda_endorsements"
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    organization_id: Mapped[int | None] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"),
                                                        index=True)
    name: Mapped[str] = mapped_column(String(50))
    description: Mapped[str | None] = mapped_column(String(50))
    meaning: Mapped[str] = mapped_column(String(50))
    record_types: Mapped[list[Any]] = mapped_column(JSON)
    role_ids: Mapped[list[Any]] = mapped_column(JSON)
    account_ids: Mapped[list[Any]] = mapped_column(JSON)
    distinct_signer: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class FdaSigningLockRow(Base):
    """An account's consecutive failed signing attempts, and its lock (bookkeeping)."""

    __tablename__ = "fda_signing_locks"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
                                            autoincrement=False)
    failures: Mapped[int] = mapped_column(SmallInteger, default=0)
    locked_until: Mapped[datetime | None]


class FdaSigningSessionRow(Base):
    """When a login session last signed: the re-authentication window runs from it (bookkeeping)."""

    __tablename__ = "fda_signing_sessions"
    session_id: Mapped[int] = mapped_column(ForeignKey("login_sessions.id", ondelete="CASCADE"), primary_key=True,
                                            autoincrement=False)
    last_signed_at: Mapped[datetime]


class FdaSigningUnlockRow(Base):
    """An administrator lifted an account's signing lock: kept for the operation log."""

    __tablename__ = "fda_signing_unlocks"
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, index=True)
    organization_id: Mapped[int] = mapped_column(Integer)
    unlocked_by: Mapped[int] = mapped_column(Integer)
    unlocked_at: Mapped[datetime]
