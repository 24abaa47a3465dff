from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Protocol

from core.accounts.model import AccountType
from core.accounts.ports import SessionRepository
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction
from core.useradmin.model import ManagedUser, SystemRole, UserChanges, UserFilter


class UserDirectory(Protocol):
    def get(self, account_id: int, *, deleted: bool = False) -> ManagedUser | None:
        """The account, live (or, with `deleted`, live or deleted); None when there is none."""
        ...

    def page(self, where: UserFilter, request: PageRequest) -> Page[ManagedUser]:
        """Accounts matching the filter, newest first."""
        ...

    def every(self, where: UserFilter, limit: int) -> Iterator[ManagedUser]:
        """Accounts matching the filter, newest first, at most `limit`, read as they are written."""
        ...

    def user_name_taken(self, user_name: str) -> bool:
        """Whatever the case, deleted accounts included (their names stay theirs)."""
        ...

    def contact_owner(self, phone: str | None, email: str | None) -> list[int]:
        """Ids of the accounts (deleted too) whose phone or e-mail is one of these."""
        ...

    def add(self, user_name: str, password_hash: str, changes: UserChanges, at: datetime) -> int:
        """A new enabled account with its system role and an empty profile; its id."""
        ...

    def change(self, account_id: int, changes: UserChanges) -> None: ...
    def set_type(self, account_id: int, account_type: AccountType, role_code: str) -> None: ...
    def set_password_hash(self, account_id: int, password_hash: str) -> None: ...

    def delete(self, account_id: int, at: datetime) -> None:
        """Marks the account deleted and disabled: it keeps its orders, devices' history and name."""
        ...

    def count_with_role(self, role_code: str) -> int:
        """Live accounts holding the system role."""
        ...

    def apply_as_contractor(self, account_id: int, agreement_version: str, at: datetime) -> None: ...
    def certify(self, account_id: int, certified: bool, at: datetime) -> None: ...

    def system_roles(self) -> list[SystemRole]: ...
    def roles_of(self, account_id: int) -> list[SystemRole]:
        """The account's system role(s), then the role it holds in each of its organizations (with
        the organization), oldest organization first."""
        ...


class UserAdminUnitOfWork(Transaction, Protocol):
    @property
    def user_directory(self) -> UserDirectory: ...
    @property
    def sessions(self) -> SessionRepository: ...


class UserSheet(Protocol):
    def render(self, headers: list[str], rows: Iterator[list[object]]) -> bytes:
        """An XLSX workbook of one sheet: the headers, then the rows."""
        ...
