"""The lab's reports of calibration applications (core.calibration.ports.ReportRepository): one
PDF an application, in the database as invoices' files are."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from adapters.persistence.models import CalibrationReportRow
from core.calibration.ports import ReportFile


class SqlAlchemyCalibrationReports:
    def __init__(self, session: Session) -> None:
        self._s = session

    def put(self, application_id: int, report: ReportFile, by_account_id: int | None) -> None:
        assert report.content is not None
        # Locked for the transaction: two uploads at once queue, and the last one stands whole.
        row = self._s.scalar(select(CalibrationReportRow).where(CalibrationReportRow.application_id == application_id)
                             .with_for_update())
        if row is None:
            row = CalibrationReportRow(application_id=application_id)
            self._s.add(row)
        row.file_name, row.size, row.sha256, row.content = report.name, report.size, report.sha256, report.content
        row.uploaded_at, row.uploaded_by = report.uploaded_at, by_account_id
        self._s.flush()

    def get(self, application_id: int) -> ReportFile | None:
        row = self._s.get(CalibrationReportRow, application_id)
        if row is None:
            return None
        return ReportFile(row.file_name, row.size, row.sha256, row.uploaded_at, row.content)
