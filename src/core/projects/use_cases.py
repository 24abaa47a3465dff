"""Making, renaming and deleting an account's projects, and moving devices in and out of them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.devices.access import Access, require
from core.projects.model import (
    MAX_MOVE,
    NAME_TAKEN,
    Project,
    clean_name,
    name_key,
    name_problem,
    remark_problem,
)
from core.projects.ports import NameTaken, ProjectsUnitOfWork
from core.shared.clock import Clock
from core.shared.errors import InvalidInput, NotFound
from core.shared.paging import Page, PageRequest


@dataclass(frozen=True)
class ProjectInput:
    name: str
    remark: str | None = None


def _checked(cmd: ProjectInput) -> tuple[str, str | None]:
    """The trimmed name and remark (an empty remark is none), or InvalidInput naming the field."""
    name, remark = clean_name(cmd.name), (cmd.remark or "").strip() or None
    problem = name_problem(name)
    if problem:
        raise InvalidInput("projectName", problem)
    problem = remark_problem(remark) if remark else None
    if problem:
        raise InvalidInput("remark", problem)
    return name, remark


def _owned(uow: ProjectsUnitOfWork, account_id: int, project_id: int) -> Project:
    project = uow.projects.owned(account_id, project_id)
    if project is None:
        raise NotFound()
    return project


class CreateProject:
    def __init__(self, uow: ProjectsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, cmd: ProjectInput) -> Project:
        name, remark = _checked(cmd)
        with self._uow as uow:
            if uow.projects.name_taken(account_id, name_key(name)):
                raise InvalidInput("projectName", NAME_TAKEN)
            project = Project(None, account_id, name, remark, self._clock.now())
            try:
                project.id = uow.projects.add(project)
            except NameTaken:
                raise InvalidInput("projectName", NAME_TAKEN) from None
            uow.commit()
        return project


class UpdateProject:
    def __init__(self, uow: ProjectsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, project_id: int, cmd: ProjectInput, keep_remark: bool = False) -> Project:
        """A rename; the remark too, unless `keep_remark` (a client that sent only the name)."""
        name, remark = _checked(cmd)
        with self._uow as uow:
            current = _owned(uow, account_id, project_id)
            if keep_remark:
                remark = current.remark
            if uow.projects.name_taken(account_id, name_key(name), except_id=project_id):
                raise InvalidInput("projectName", NAME_TAKEN)
            try:
                uow.projects.rename(project_id, name, remark)
            except NameTaken:
                raise InvalidInput("projectName", NAME_TAKEN) from None
            uow.commit()
            return _owned(uow, account_id, project_id)


class DeleteProject:
    def __init__(self, uow: ProjectsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, project_id: int) -> int:
        """The number of devices that are now in no project."""
        with self._uow as uow:
            _owned(uow, account_id, project_id)
            released = uow.projects.delete(project_id)
            uow.commit()
        return released


class GetProject:
    def __init__(self, uow: ProjectsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, project_id: int) -> Project:
        with self._uow as uow:
            return _owned(uow, account_id, project_id)


class ListProjects:
    def __init__(self, uow: ProjectsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, name: str | None, request: PageRequest) -> Page[Project]:
        with self._uow as uow:
            return uow.projects.page(account_id, (name or "").strip() or None, request)


class ChangeProject:
    """Moves devices into one of the caller's projects, or out of any (project_id None): all or
    none. Each device must be the caller's to change (Access.WRITE): one it may not see is 404,
    one it only reads 403, as changing that device alone would answer."""

    def __init__(self, uow: ProjectsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, device_ids: Sequence[int], project_id: int | None) -> int:
        ids = list(dict.fromkeys(device_ids))
        assert 1 <= len(ids) <= MAX_MOVE  # the edge bounds the batch
        with self._uow as uow:
            if project_id is not None:
                _owned(uow, account_id, project_id)
            access = {d.id: d.access for d in uow.device_registry.visible_many(account_id, ids)}
            for device_id in ids:
                require(access.get(device_id, Access.NONE), Access.WRITE)
            uow.projects.move(ids, project_id)
            uow.commit()
        return len(ids)
