"""The audit trail's table (core.fda.trail; migration 0051_fda_trail)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from adapters.persistence.models_base import Base


class FdaTrailLinkRow(Base):
    """One link of a subject's chain ("a:12", "o:3"): an operation-log entry (or a later batch of
    its changes) with the change rows it covers, the previous link's hash and its own. Append-only
    as the log is: triggers refuse UPDATE and DELETE, and on PostgreSQL the application's role
    holds neither (nor TRUNCATE)."""

    __tablename__ = "fda_trail_links"
    __table_args__ = (UniqueConstraint("chain_key", "seq"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    chain_key: Mapped[str] = mapped_column(String(24))
    seq: Mapped[int] = mapped_column(Integer)
    operation_id: Mapped[int] = mapped_column(ForeignKey("operation_log.id"), index=True)
    at: Mapped[datetime]  # the entry's time, for the trail's time filter
    change_ids: Mapped[list[int]] = mapped_column(JSON)
    previous_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))
