"""core.fda.ports.FdaReportRepository: the periodic reports, each read with its device's current
name and GUID (none once the device is gone) and its maker's printed name."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Select, and_, func, or_, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adapters.persistence.devices import SqlAlchemyDeviceRepository
from adapters.persistence.models import AccountRow, DeviceRow, ReadingRow
from adapters.persistence.models_fda_reports import FdaReportRow
from core.fda.model import FdaReport, JudgedLimit, ReportFilter
from core.fda.reports import ContentHash, ReportExists, ReportVersions
from core.shared.paging import Page, PageRequest
from core.telemetry.downsample import Point

_READINGS = ReadingRow.__table__
# core.fda.reports.reading_bytes in SQL, digested where the readings are: a year of them would
# otherwise cross the wire and be read one by one in Python (seconds) for each report of a list.
_PG_CONTENT_HASH = text("""
SELECT encode(sha256(CAST(:head AS bytea) || coalesce(string_agg(
    int8send(CAST(extract(epoch FROM ts) * 1000000 AS bigint))
    || CASE WHEN temperature IS NULL THEN CAST('\\x00' AS bytea)
            ELSE CAST('\\x01' AS bytea) || float8send(temperature) END
    || CASE WHEN humidity IS NULL THEN CAST('\\x00' AS bytea)
            ELSE CAST('\\x01' AS bytea) || float8send(humidity) END,
    CAST('' AS bytea) ORDER BY ts), CAST('' AS bytea))), 'hex')
FROM readings WHERE device_id = :device_id AND ts >= :start AND ts <= :end
""")

_COLUMNS = (FdaReportRow, DeviceRow.device_name, DeviceRow.guid, AccountRow.real_name, AccountRow.user_name)


def _select() -> Select:
    return (select(*_COLUMNS)
            .outerjoin(DeviceRow, DeviceRow.id == FdaReportRow.device_id)
            .outerjoin(AccountRow, AccountRow.id == FdaReportRow.created_by))


def _report(row: Any) -> FdaReport:
    r: FdaReportRow = row[0]
    return FdaReport(
        r.id, r.device_id, r.owner_account_id, r.organization_id, r.title, r.start_time, r.end_time, r.time_zone,
        tuple(JudgedLimit(probe, lower, upper) for probe, lower, upper in r.limits), r.created_by, r.created_at,
        r.content_hash, device_name=row.device_name, device_guid=row.guid,
        creator_name=row.real_name or row.user_name or "")


class SqlAlchemyFdaReportRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, report: FdaReport) -> int:
        row = FdaReportRow(device_id=report.device_id, owner_account_id=report.owner_account_id,
                           organization_id=report.organization_id, title=report.title, start_time=report.start,
                           end_time=report.end, time_zone=report.time_zone,
                           limits=[[lim.probe, lim.lower, lim.upper] for lim in report.limits],
                           created_by=report.created_by, created_at=report.created_at,
                           content_hash=report.content_hash)
        self._s.add(row)
        try:
            with self._s.begin_nested():
                self._s.flush()
        except IntegrityError as error:  # the same period, made by a request running alongside
            raise ReportExists() from error
        return row.id

    def get(self, report_id: int) -> FdaReport | None:
        row = self._s.execute(_select().where(FdaReportRow.id == report_id)).first()
        return _report(row) if row is not None else None

    def page(self, account_id: int, organization_ids: Collection[int], where: ReportFilter,
             request: PageRequest) -> Page[FdaReport]:
        conditions: list[Any] = [or_(and_(FdaReportRow.organization_id.is_(None),
                                          FdaReportRow.owner_account_id == account_id),
                                     FdaReportRow.organization_id.in_(list(organization_ids)))]
        if where.organization_id is not None:
            conditions.append(FdaReportRow.organization_id == where.organization_id)
        if where.device_id is not None:
            conditions.append(FdaReportRow.device_id == where.device_id)
        total = self._s.scalar(select(func.count()).select_from(FdaReportRow).where(*conditions)) or 0
        rows = self._s.execute(_select().where(*conditions)
                               .order_by(FdaReportRow.created_at.desc(), FdaReportRow.id.desc())
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, [_report(row) for row in rows])

    def device_holder(self, device_id: int) -> int | None:
        return self._s.scalar(select(DeviceRow.owner_account_id).where(DeviceRow.id == device_id))

    def content_hash(self, device_id: int, start: datetime, end: datetime, head: bytes) -> str:
        if self._s.get_bind().dialect.name == "postgresql":
            return str(self._s.execute(_PG_CONTENT_HASH, {"head": head, "device_id": device_id, "start": start,
                                                          "end": end}).scalar_one())
        digest = ContentHash(head)
        rows = self._s.execute(select(_READINGS.c.ts, _READINGS.c.temperature, _READINGS.c.humidity)
                               .where(_READINGS.c.device_id == device_id, _READINGS.c.ts >= start,
                                      _READINGS.c.ts <= end)
                               .order_by(_READINGS.c.ts).execution_options(yield_per=5000))
        for ts, temperature, humidity in rows:
            digest.add(Point(cast(datetime, ts), cast(float | None, temperature), cast(float | None, humidity)))
        return digest.hexdigest()


def report_versions(session: Session) -> ReportVersions:
    """The reports' source of versions (core.fda.ports.RecordVersions) on the session."""
    return ReportVersions(SqlAlchemyFdaReportRepository(session), SqlAlchemyDeviceRepository(session))
