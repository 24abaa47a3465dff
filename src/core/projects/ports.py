from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.devices.ports import DeviceRepository
from core.projects.model import Project
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction


class ProjectRepository(Protocol):
    def add(self, project: Project) -> int:
        """Raises NameTaken when the owner has a project of the same name_key (a race the use
        case's check lost)."""
        ...

    def get(self, account_id: int, project_id: int) -> Project | None:
        """The project, whoever's, with its counts of the devices in it the account sees and its
        organization's name; None when there is none (model.may_read decides who sees it)."""
        ...

    def name_taken(self, account_id: int, organization_id: int | None, key: str, except_id: int | None = None) -> bool:
        """Whether the owner (the organization; without one, the account's own projects) has a
        project of this name key."""
        ...

    def rename(self, project_id: int, name: str, remark: str | None) -> None:
        """Raises NameTaken as add does."""
        ...

    def delete(self, project_id: int) -> int:
        """The project; its devices are in no project after. The number of devices it had."""
        ...

    def page(self, account_id: int, organization_ids: Sequence[int], name: str | None,
             request: PageRequest) -> Page[Project]:
        """The account's own projects and those of the organizations, whose name holds `name` (any
        case), by name, with counts of the devices in each that the account sees."""
        ...

    def move(self, device_ids: Sequence[int], project_id: int | None) -> None:
        """Put the devices in the project (None: in none)."""
        ...


class NameTaken(Exception):
    """The database's unique (owner, name key) refused the name."""


class ProjectsUnitOfWork(Transaction, Protocol):
    @property
    def projects(self) -> ProjectRepository: ...
    @property
    def device_registry(self) -> DeviceRepository: ...


__all__ = ["NameTaken", "ProjectRepository", "ProjectsUnitOfWork"]
