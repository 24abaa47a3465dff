"""Making, renaming and deleting projects (an account's own or an organization's), and moving
devices in and out of them. Who reads and who changes a project is core.shared.ownership's rule,
from the caller's organizations as the device registry answers them (the right to change an
organization's devices is the right to change its projects)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.devices.access import Access, require
from core.projects.model import (
    MAX_MOVE,
    NOT_YOUR_ORGANIZATION,
    READ_ONLY_PROJECT,
    Project,
    clean_name,
    holds,
    name_key,
    name_problem,
    name_taken,
    remark_problem,
)
from core.projects.ports import NameTaken, ProjectsUnitOfWork
from core.shared.clock import Clock
from core.shared.errors import InvalidInput
from core.shared.ownership import Organizations, changeable, may_change, may_make_in, readable
from core.shared.paging import Page, PageRequest


@dataclass(frozen=True)
class ProjectInput:
    name: str
    remark: str | None = None
    organization_id: int | None = None  # whose project a new one is; None: the caller's own (not changed later)


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


def _organizations(uow: ProjectsUnitOfWork, account_id: int) -> Organizations:
    return uow.device_registry.organizations_of(account_id)


def _readable(uow: ProjectsUnitOfWork, account_id: int, project_id: int,
              organizations: Organizations | None = None) -> Project:
    if organizations is None:
        organizations = _organizations(uow, account_id)
    return readable(uow.projects.get(account_id, project_id), account_id, organizations)


def _changeable(uow: ProjectsUnitOfWork, account_id: int, project_id: int) -> Project:
    return changeable(_readable(uow, account_id, project_id), READ_ONLY_PROJECT)


class CreateProject:
    def __init__(self, uow: ProjectsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, cmd: ProjectInput) -> Project:
        name, remark = _checked(cmd)
        with self._uow as uow:
            if not may_make_in(cmd.organization_id, _organizations(uow, account_id)):
                raise InvalidInput("organizationId", NOT_YOUR_ORGANIZATION)
            taken = name_taken(cmd.organization_id)
            if uow.projects.name_taken(account_id, cmd.organization_id, name_key(name)):
                raise InvalidInput("projectName", taken)
            project = Project(None, account_id, name, remark, self._clock.now(), organization_id=cmd.organization_id)
            try:
                project_id = uow.projects.add(project)
            except NameTaken:
                raise InvalidInput("projectName", taken) from None
            uow.commit()
            return _readable(uow, account_id, project_id)


class UpdateProject:
    def __init__(self, uow: ProjectsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, project_id: int, cmd: ProjectInput, keep_remark: bool = False) -> Project:
        """A rename; the remark too, unless `keep_remark` (a client that sent only the name)."""
        name, remark = _checked(cmd)
        with self._uow as uow:
            current = _changeable(uow, account_id, project_id)
            if keep_remark:
                remark = current.remark
            if uow.projects.name_taken(current.owner_account_id, current.organization_id, name_key(name),
                                       except_id=project_id):
                raise InvalidInput("projectName", name_taken(current.organization_id))
            try:
                uow.projects.rename(project_id, name, remark)
            except NameTaken:
                raise InvalidInput("projectName", name_taken(current.organization_id)) from None
            uow.commit()
            return _readable(uow, account_id, project_id)


class DeleteProject:
    def __init__(self, uow: ProjectsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, project_id: int) -> int:
        """The number of devices that are now in no project."""
        with self._uow as uow:
            _changeable(uow, account_id, project_id)
            released = uow.projects.delete(project_id)
            uow.commit()
        return released


class GetProject:
    def __init__(self, uow: ProjectsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, project_id: int) -> Project:
        with self._uow as uow:
            return _readable(uow, account_id, project_id)


class ListProjects:
    def __init__(self, uow: ProjectsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, name: str | None, request: PageRequest) -> Page[Project]:
        with self._uow as uow:
            organizations = _organizations(uow, account_id)
            page = uow.projects.page(account_id, sorted(organizations), (name or "").strip() or None, request)
        for project in page.items:
            project.changeable = may_change(project, account_id, organizations)
        return page


class ChangeProject:
    """Moves devices into a project the caller may change, or out of any (project_id None): all or
    none. Each device must be the caller's to change (Access.WRITE): one it may not see is 404,
    one it only reads 403, as changing that device alone would answer. A device goes only into a
    project of its own owner's kind: an organization's device into that organization's projects,
    a device in no organization into personal ones (422 on projectId otherwise)."""

    def __init__(self, uow: ProjectsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, device_ids: Sequence[int], project_id: int | None) -> int:
        ids = list(dict.fromkeys(device_ids))
        assert 1 <= len(ids) <= MAX_MOVE  # the edge bounds the batch
        with self._uow as uow:
            project = _changeable(uow, account_id, project_id) if project_id is not None else None
            devices = {d.id: d for d in uow.device_registry.visible_many(account_id, ids)}
            for device_id in ids:
                found = devices.get(device_id)
                require(found.access if found else Access.NONE, Access.WRITE)
            if project is not None:
                for device_id in ids:
                    if problem := holds(project, devices[device_id].organization_id):
                        raise InvalidInput("projectId", problem)
            uow.projects.move(ids, project_id)
            uow.commit()
        return len(ids)
