"""The FDA periodic reports' table (core.fda.reports), imported at the end of models.py."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from adapters.persistence.models_base import Base


class FdaReportRow(Base):
    """A device's data over a period as a record to sign: what it was made of (device, period,
    the limits it judges by) and the SHA-256 of its content then. The ids are plain integers, no
    keys: a signed record outlives its device, owner and organization."""

    __tablename__ = "fda_reports"
    __table_args__ = (UniqueConstraint("device_id", "start_time", "end_time"),
                      Index("ix_fda_reports_owner_created", "owner_account_id", "created_at"),
                      Index("ix_fda_reports_organization_created", "organization_id", "created_at"))
    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(Integer)
    owner_account_id: Mapped[int] = mapped_column(Integer)
    organization_id: Mapped[int | None] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(String(100))
    start_time: Mapped[datetime]
    end_time: Mapped[datetime]
    time_zone: Mapped[str] = mapped_column(String(64))
    # [[probe, lower, upper], ...]: the alarm limits the report judges the period by
    limits: Mapped[list[list[Any]]] = mapped_column(JSON)
    created_by: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime]
    content_hash: Mapped[str] = mapped_column(String(64))
