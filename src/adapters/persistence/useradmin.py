"""Accounts as the back office manages them (core/useradmin)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import Select, delete, func, or_, select, update
from sqlalchemy.orm import Session

from adapters.persistence.models import (
    AccountRoleRow,
    AccountRow,
    OrganizationMemberRow,
    OrganizationRow,
    PermissionRow,
    RolePermissionRow,
    RoleRow,
    UserProfileRow,
)
from core.accounts.model import AccountStatus, AccountType
from core.permissions.roles import RoleType
from core.shared.paging import Page, PageRequest
from core.useradmin.model import ContractorState, ManagedUser, SystemRole, UserChanges, UserFilter

_SYSTEM = int(RoleType.SYSTEM)


def _system_role_code(account_id):  # a correlated subquery: the account's system role
    return (select(func.min(RoleRow.code)).join(AccountRoleRow, AccountRoleRow.role_id == RoleRow.id)
            .where(AccountRoleRow.account_id == account_id, RoleRow.role_type == _SYSTEM)
            .correlate(AccountRow).scalar_subquery())


def _query() -> Select:
    return (select(AccountRow, _system_role_code(AccountRow.id).label("role_code"),
                   UserProfileRow.elitech_identity, UserProfileRow.elitech_industry)
            .outerjoin(UserProfileRow, UserProfileRow.account_id == AccountRow.id))


def _user(found: Any) -> ManagedUser:
    row, role_code, identity, industry = found
    return ManagedUser(row.id, row.user_name, row.real_name, row.phone, row.email, row.company,
                       AccountType(row.account_type), role_code, row.created_at, identity, industry, row.deleted_at,
                       row.contractor_state or ContractorState.NONE, row.contractor_applied_at,
                       row.contractor_agreement)


def _contains(column, text: str):
    return func.lower(column).contains(text.lower(), autoescape=True)


class SqlAlchemyUserDirectory:
    def __init__(self, session: Session) -> None:
        self._s = session

    def _filtered(self, query: Select, where: UserFilter) -> Select:
        query = query.where(AccountRow.deleted_at.is_not(None) if where.deleted else AccountRow.deleted_at.is_(None))
        if where.user_name:
            query = query.where(or_(_contains(AccountRow.user_name, where.user_name),
                                    _contains(AccountRow.real_name, where.user_name)))
        if where.phone:
            query = query.where(_contains(AccountRow.phone, where.phone))
        if where.email:
            query = query.where(_contains(AccountRow.email, where.email))
        if where.account_type is not None:
            query = query.where(AccountRow.account_type == where.account_type)
        if where.role_code:
            query = query.where(_system_role_code(AccountRow.id) == where.role_code)
        return query

    def get(self, account_id: int, *, deleted: bool = False) -> ManagedUser | None:
        query = _query().where(AccountRow.id == account_id)
        if not deleted:
            query = query.where(AccountRow.deleted_at.is_(None))
        found = self._s.execute(query).first()
        return _user(found) if found else None

    def page(self, where: UserFilter, request: PageRequest) -> Page[ManagedUser]:
        total = self._s.scalar(self._filtered(select(func.count()).select_from(AccountRow), where)) or 0
        rows = self._s.execute(self._filtered(_query(), where)
                               .order_by(AccountRow.created_at.desc(), AccountRow.id.desc())
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, [_user(r) for r in rows])

    def every(self, where: UserFilter, limit: int) -> Iterator[ManagedUser]:
        query = self._filtered(_query(), where).order_by(AccountRow.created_at.desc(), AccountRow.id.desc())
        for found in self._s.execute(query.limit(limit).execution_options(yield_per=500)):
            yield _user(found)

    def user_name_taken(self, user_name: str) -> bool:
        key = user_name.strip().casefold()
        return self._s.scalar(select(AccountRow.id).where(AccountRow.user_name_key == key).limit(1)) is not None

    def contact_owner(self, phone: str | None, email: str | None) -> list[int]:
        matches = []
        if phone:
            matches.append(AccountRow.phone == phone)
        if email:
            matches.append(func.lower(AccountRow.email) == email.lower())
        if not matches:
            return []
        return list(self._s.scalars(select(AccountRow.id).where(or_(*matches))))

    def _set_role(self, account_id: int, role_code: str) -> None:
        system_roles = select(RoleRow.id).where(RoleRow.role_type == _SYSTEM)
        self._s.execute(delete(AccountRoleRow).where(AccountRoleRow.account_id == account_id,
                                                     AccountRoleRow.role_id.in_(system_roles)))
        role_id = self._s.scalar(select(RoleRow.id).where(RoleRow.code == role_code))
        if role_id is None:
            raise LookupError(f"role {role_code} is not installed; run `coldchain migrate`")
        self._s.add(AccountRoleRow(account_id=account_id, role_id=role_id))

    def add(self, user_name: str, password_hash: str, changes: UserChanges, at: datetime) -> int:
        row = AccountRow(user_name=user_name, user_name_key=user_name.casefold(), password_hash=password_hash,
                         phone=changes.phone, email=changes.email, account_type=int(changes.account_type),
                         status=int(AccountStatus.ENABLED), real_name=changes.real_name, company=changes.company,
                         created_at=at, contractor_state=0)
        self._s.add(row)
        self._s.flush()
        self._s.add(UserProfileRow(account_id=row.id, wallet_status=0, enable_protect=0, enable_fda=0))
        self._set_role(row.id, changes.role_code)
        self._s.flush()
        return row.id

    def change(self, account_id: int, changes: UserChanges) -> None:
        self._s.execute(update(AccountRow).where(AccountRow.id == account_id).values(
            real_name=changes.real_name, phone=changes.phone, email=changes.email, company=changes.company,
            account_type=int(changes.account_type)))
        self._set_role(account_id, changes.role_code)

    def set_type(self, account_id: int, account_type: AccountType, role_code: str) -> None:
        self._s.execute(update(AccountRow).where(AccountRow.id == account_id).values(account_type=int(account_type)))
        self._set_role(account_id, role_code)

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        self._s.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash))

    def delete(self, account_id: int, at: datetime) -> None:
        self._s.execute(update(AccountRow).where(AccountRow.id == account_id)
                        .values(deleted_at=at, status=int(AccountStatus.DISABLED)))

    def count_with_role(self, role_code: str) -> int:
        return self._s.scalar(
            select(func.count(func.distinct(AccountRow.id)))
            .join(AccountRoleRow, AccountRoleRow.account_id == AccountRow.id)
            .join(RoleRow, RoleRow.id == AccountRoleRow.role_id)
            .where(RoleRow.code == role_code, AccountRow.deleted_at.is_(None))) or 0

    def apply_as_contractor(self, account_id: int, agreement_version: str, at: datetime) -> None:
        current = self._s.scalar(select(AccountRow.contractor_state).where(AccountRow.id == account_id))
        state = current if current == ContractorState.CERTIFIED else ContractorState.APPLIED
        self._s.execute(update(AccountRow).where(AccountRow.id == account_id).values(
            account_type=int(AccountType.ENGINEER), contractor_state=state, contractor_applied_at=at,
            contractor_agreement=agreement_version))

    def certify(self, account_id: int, certified: bool, at: datetime) -> None:
        self._s.execute(update(AccountRow).where(AccountRow.id == account_id).values(
            contractor_state=ContractorState.CERTIFIED if certified else ContractorState.APPLIED,
            contractor_certified_at=at if certified else None))

    def _roles(self, role_ids: Select) -> list[SystemRole]:
        rows = list(self._s.scalars(select(RoleRow).where(RoleRow.id.in_(role_ids)).order_by(RoleRow.id)))
        grants: dict[int, list[str]] = {r.id: [] for r in rows}
        for role_id, name in self._s.execute(
                select(RolePermissionRow.role_id, RolePermissionRow.permission_name)
                .join(PermissionRow, PermissionRow.name == RolePermissionRow.permission_name)
                .where(RolePermissionRow.role_id.in_(list(grants))).order_by(RolePermissionRow.permission_name)):
            grants[role_id].append(name)
        return [SystemRole(r.id, r.code, r.name, r.description, r.role_type, tuple(grants[r.id])) for r in rows]

    def system_roles(self) -> list[SystemRole]:
        return self._roles(select(RoleRow.id).where(RoleRow.role_type == _SYSTEM))

    def roles_of(self, account_id: int) -> list[SystemRole]:
        held = self._roles(select(AccountRoleRow.role_id).where(AccountRoleRow.account_id == account_id))
        memberships = list(self._s.execute(
            select(OrganizationMemberRow.role_id, OrganizationRow.id, OrganizationRow.name)
            .join(OrganizationRow, OrganizationRow.id == OrganizationMemberRow.organization_id)
            .where(OrganizationMemberRow.account_id == account_id).order_by(OrganizationRow.id)))
        by_id = {r.id: r for r in self._roles(select(OrganizationMemberRow.role_id)
                                              .where(OrganizationMemberRow.account_id == account_id))}
        return held + [replace(by_id[role_id], organization_id=org_id, organization_name=org_name)
                       for role_id, org_id, org_name in memberships if role_id in by_id]
