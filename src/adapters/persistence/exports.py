"""The download centre's exports, the certificates of PDF reports, and the readings an export
reads a chunk at a time."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from typing import cast

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from adapters.persistence.models import AlarmMessageRow, ExportCertificateRow, ExportRow, ReadingRow
from adapters.persistence.results import rows_written
from core.exports.model import Certificate, Export, ExportFormat, ExportKind, ExportStatus
from core.exports.readings import Excursion
from core.shared.paging import Page, PageRequest
from core.telemetry.downsample import Point

_READINGS = ReadingRow.__table__
_OPEN = (ExportStatus.PENDING.value, ExportStatus.RUNNING.value)


def _export(row: ExportRow) -> Export:
    return Export(id=row.id, account_id=row.account_id, kind=ExportKind(row.kind), format=ExportFormat(row.format),
                  created_at=row.created_at, language=row.language, time_zone=row.time_zone, device_id=row.device_id,
                  since=row.since, until=row.until, filters=dict(row.filters or {}), status=ExportStatus(row.status),
                  progress=row.progress, title=row.title, file_name=row.file_name, size=row.size,
                  finished_at=row.finished_at, error=row.error)


class SqlAlchemyExportRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, export: Export) -> None:
        self._s.add(ExportRow(
            id=export.id, account_id=export.account_id, kind=export.kind.value, format=export.format.value,
            device_id=export.device_id, since=export.since, until=export.until, filters=export.filters,
            language=export.language, time_zone=export.time_zone, status=export.status.value,
            progress=export.progress, title=export.title[:100], created_at=export.created_at))
        self._s.flush()

    def get(self, export_id: str) -> Export | None:
        row = self._s.get(ExportRow, export_id)
        return _export(row) if row is not None else None

    def save(self, export: Export, only_from: Collection[ExportStatus] = ()) -> bool:
        where = [ExportRow.id == export.id]
        if only_from:
            # One conditional UPDATE: PostgreSQL checks the status again once a concurrent writer's lock goes.
            where.append(ExportRow.status.in_([s.value for s in only_from]))
        result = self._s.execute(update(ExportRow).where(*where).values(
            status=export.status.value, progress=export.progress, title=export.title[:100],
            file_name=export.file_name, size=export.size, finished_at=export.finished_at,
            error=export.error[:200] if export.error else None))
        return rows_written(result) > 0

    def set_progress(self, export_id: str, percent: int) -> None:
        self._s.execute(update(ExportRow).where(ExportRow.id == export_id).values(progress=percent))

    def page(self, account_id: int, request: PageRequest) -> Page[Export]:
        total = self._s.scalar(select(func.count()).select_from(ExportRow).where(ExportRow.account_id == account_id))
        rows = self._s.scalars(select(ExportRow).where(ExportRow.account_id == account_id)
                               .order_by(ExportRow.created_at.desc(), ExportRow.id)
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total or 0, [_export(r) for r in rows])

    def count_open(self, account_id: int, since: datetime) -> int:
        return self._s.scalar(select(func.count()).select_from(ExportRow).where(
            ExportRow.account_id == account_id, ExportRow.status.in_(_OPEN), ExportRow.created_at >= since)) or 0

    def count_ready(self, account_id: int) -> int:
        return self._s.scalar(select(func.count()).select_from(ExportRow).where(
            ExportRow.account_id == account_id, ExportRow.status == ExportStatus.READY.value)) or 0

    def created_before(self, instant: datetime, limit: int) -> list[Export]:
        rows = self._s.scalars(select(ExportRow).where(ExportRow.created_at <= instant)
                               .order_by(ExportRow.created_at).limit(limit))
        return [_export(r) for r in rows]

    def open_created_before(self, instant: datetime, limit: int) -> list[Export]:
        rows = self._s.scalars(select(ExportRow).where(ExportRow.status.in_(_OPEN), ExportRow.created_at < instant)
                               .order_by(ExportRow.created_at).limit(limit))
        return [_export(r) for r in rows]

    def delete(self, export_id: str) -> None:
        self._s.execute(delete(ExportRow).where(ExportRow.id == export_id))

    def add_certificate(self, certificate: Certificate) -> None:
        self._s.add(ExportCertificateRow(
            code=certificate.code, export_id=certificate.export_id, account_name=certificate.account_name[:50],
            device_guid=certificate.device_guid, device_name=certificate.device_name[:50], since=certificate.since,
            until=certificate.until, generated_at=certificate.generated_at, readings=certificate.readings,
            sha256=certificate.sha256))
        self._s.flush()

    def set_certificate_digest(self, code: str, sha256: str) -> None:
        self._s.execute(update(ExportCertificateRow).where(ExportCertificateRow.code == code).values(sha256=sha256))

    def certificate(self, code: str) -> Certificate | None:
        row = self._s.get(ExportCertificateRow, code[:32])
        if row is None:
            return None
        return Certificate(row.code, row.export_id, row.account_name, row.device_guid, row.device_name, row.since,
                           row.until, row.generated_at, row.readings, row.sha256)


def _point(ts: object, temperature: object, humidity: object) -> Point:
    instant = cast(datetime, ts)
    return Point(instant if instant.tzinfo is UTC else instant.astimezone(UTC), cast(float | None, temperature),
                 cast(float | None, humidity))


class SqlAlchemyExportReadingSource:
    def __init__(self, session: Session) -> None:
        self._s = session

    def chunk(self, device_id: int, since: datetime, until: datetime, after: datetime | None,
              limit: int) -> list[Point]:
        # Keyset on the (device_id, ts) key: each chunk is one range scan of the key's index,
        # which carries the values on PostgreSQL (0015), however far into the period it starts.
        lower = _READINGS.c.ts > after if after is not None else _READINGS.c.ts >= since
        rows = self._s.execute(select(_READINGS.c.ts, _READINGS.c.temperature, _READINGS.c.humidity)
                               .where(_READINGS.c.device_id == device_id, lower, _READINGS.c.ts <= until)
                               .order_by(_READINGS.c.ts).limit(limit)).all()
        return [_point(ts, t, h) for ts, t, h in rows]

    def excursions(self, device_id: int, since: datetime, until: datetime) -> list[Excursion]:
        rows = self._s.scalars(select(AlarmMessageRow).where(
            AlarmMessageRow.device_id == device_id, AlarmMessageRow.started_at <= until,
            or_(AlarmMessageRow.ended_at.is_(None), AlarmMessageRow.ended_at >= since))
            .order_by(AlarmMessageRow.started_at, AlarmMessageRow.id))
        return [Excursion(r.probe, r.kind, r.limit_value, r.extreme_value, r.started_at, r.ended_at) for r in rows]
