"""Accounts' and organizations' projects and which devices are in them (core/projects)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adapters.persistence.devices import visible_to
from adapters.persistence.models import DeviceRow, OrganizationRow, ProjectRow
from adapters.persistence.results import rows_written
from core.projects.model import Project, name_key
from core.projects.ports import NameTaken
from core.shared.paging import Page, PageRequest


def _project(row: ProjectRow, organization_name: str | None, counts: tuple[int, int, int] = (0, 0, 0)) -> Project:
    return Project(row.id, row.owner_account_id, row.name, row.remark, row.created_at, *counts,
                   organization_id=row.organization_id, organization_name=organization_name)


_WITH_ORGANIZATION = (select(ProjectRow, OrganizationRow.name)
                      .outerjoin(OrganizationRow, OrganizationRow.id == ProjectRow.organization_id))


class SqlAlchemyProjectRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def _flush_unique(self) -> None:
        try:
            with self._s.begin_nested():
                self._s.flush()
        except IntegrityError as error:
            raise NameTaken() from error

    def add(self, project: Project) -> int:
        row = ProjectRow(owner_account_id=project.owner_account_id, organization_id=project.organization_id,
                         name=project.name, name_key=name_key(project.name), remark=project.remark,
                         created_at=project.created_at)
        self._s.add(row)
        self._flush_unique()
        return row.id

    def get(self, account_id: int, project_id: int) -> Project | None:
        found = self._s.execute(_WITH_ORGANIZATION.where(ProjectRow.id == project_id)).first()
        if found is None:
            return None
        row, organization_name = found
        return _project(row, organization_name, self._counts(account_id, [row.id]).get(row.id, (0, 0, 0)))

    def name_taken(self, account_id: int, organization_id: int | None, key: str, except_id: int | None = None) -> bool:
        owner = (ProjectRow.organization_id == organization_id if organization_id is not None
                 else and_(ProjectRow.organization_id.is_(None), ProjectRow.owner_account_id == account_id))
        query = select(ProjectRow.id).where(owner, ProjectRow.name_key == key)
        if except_id is not None:
            query = query.where(ProjectRow.id != except_id)
        return self._s.scalar(query.limit(1)) is not None

    def rename(self, project_id: int, name: str, remark: str | None) -> None:
        try:
            with self._s.begin_nested():
                self._s.execute(update(ProjectRow).where(ProjectRow.id == project_id)
                                .values(name=name, name_key=name_key(name), remark=remark))
        except IntegrityError as error:
            raise NameTaken() from error

    def delete(self, project_id: int) -> int:
        # Not left to ON DELETE SET NULL: SQLite enforces foreign keys only with its pragma on.
        released = rows_written(self._s.execute(update(DeviceRow).where(DeviceRow.project_id == project_id)
                                                .values(project_id=None)))
        self._s.execute(delete(ProjectRow).where(ProjectRow.id == project_id))
        return released

    def page(self, account_id: int, organization_ids: Sequence[int], name: str | None,
             request: PageRequest) -> Page[Project]:
        where = [or_(and_(ProjectRow.organization_id.is_(None), ProjectRow.owner_account_id == account_id),
                     ProjectRow.organization_id.in_(list(organization_ids)))]
        if name:
            where.append(func.lower(ProjectRow.name).contains(name.lower(), autoescape=True))
        total = self._s.scalar(select(func.count()).select_from(ProjectRow).where(*where)) or 0
        rows = list(self._s.execute(_WITH_ORGANIZATION.where(*where).order_by(ProjectRow.name_key, ProjectRow.id)
                                    .offset(request.offset).limit(request.page_size)))
        counts = self._counts(account_id, [r.id for r, _ in rows])
        return Page(request.start, request.page_size, total,
                    [_project(r, o, counts.get(r.id, (0, 0, 0))) for r, o in rows])

    def _counts(self, account_id: int, project_ids: list[int]) -> dict[int, tuple[int, int, int]]:
        """Each project's devices the account sees: all, online and alarming (those in service)."""
        if not project_ids:
            return {}
        in_service = DeviceRow.scrapped_at.is_(None)
        rows = self._s.execute(
            select(DeviceRow.project_id, func.count(),
                   func.count().filter(and_(in_service, DeviceRow.online.is_(True))),
                   func.count().filter(and_(in_service, DeviceRow.alarm_state != 0)))
            .where(DeviceRow.project_id.in_(project_ids), visible_to(account_id))
            .group_by(DeviceRow.project_id))
        # project_id is never null here: the query asks for those in the given projects.
        return {project_id: (int(a), int(b), int(c)) for project_id, a, b, c in rows if project_id is not None}

    def move(self, device_ids: Sequence[int], project_id: int | None) -> None:
        self._s.execute(update(DeviceRow).where(DeviceRow.id.in_(list(device_ids))).values(project_id=project_id))
