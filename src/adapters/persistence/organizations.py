"""Organizations, their members (with role codes, stored as role ids) and their invitations."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import cast
from uuid import uuid4

from sqlalchemy import ColumnElement, delete, exists, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from adapters.persistence.models import (
    AccountRow,
    AssetRow,
    DeviceRow,
    OrganizationInvitationRow,
    OrganizationMemberRow,
    OrganizationRow,
    ProjectRow,
    RolePermissionRow,
    RoleRow,
)
from core.accounts.model import AccountStatus
from core.accounts.rules import normalize_login_name
from core.organizations.model import (
    CustomRole,
    Invitation,
    InvitationStatus,
    Invitee,
    Member,
    MyOrganization,
    Organization,
)
from core.organizations.ports import RoleNameTaken
from core.permissions.roles import CHANGE_DEVICES, RoleType

_Members = OrganizationMemberRow


class SqlAlchemyOrganizationRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def _role_id(self, code: str) -> int:
        return self._s.execute(select(RoleRow.id).where(RoleRow.code == code)).scalar_one()

    def add(self, organization: Organization) -> Organization:
        row = OrganizationRow(name=organization.name, creator_account_id=organization.creator_account_id,
                              created_at=organization.created_at)
        self._s.add(row)
        self._s.flush()
        organization.id = row.id
        return organization

    def get(self, organization_id: int) -> Organization | None:
        row = self._s.get(OrganizationRow, organization_id)
        return Organization(row.name, row.creator_account_id, row.created_at, row.id) if row else None

    def rename(self, organization_id: int, name: str) -> None:
        self._s.execute(update(OrganizationRow).where(OrganizationRow.id == organization_id).values(name=name))

    def delete(self, organization_id: int) -> None:
        # Explicitly, not by the foreign keys' cascade: SQLite enforces it only when told to.
        # Its projects and assets hold none of its devices: it has none left (DissolveOrganization).
        for table in (OrganizationInvitationRow, _Members, ProjectRow, AssetRow):
            self._s.execute(delete(table).where(table.organization_id == organization_id))
        custom = select(RoleRow.id).where(RoleRow.organization_id == organization_id).scalar_subquery()
        self._s.execute(delete(RolePermissionRow).where(RolePermissionRow.role_id.in_(custom)))
        self._s.execute(delete(RoleRow).where(RoleRow.organization_id == organization_id))
        self._s.execute(delete(OrganizationRow).where(OrganizationRow.id == organization_id))

    def device_count(self, organization_id: int) -> int:
        return self._s.scalar(select(func.count()).select_from(DeviceRow)
                              .where(DeviceRow.organization_id == organization_id)) or 0

    def mine(self, account_id: int) -> list[MyOrganization]:
        others = aliased(_Members)
        members = (select(func.count()).select_from(others)
                   .where(others.organization_id == OrganizationRow.id).correlate(OrganizationRow).scalar_subquery())
        devices = (select(func.count()).select_from(DeviceRow)
                   .where(DeviceRow.organization_id == OrganizationRow.id).scalar_subquery())
        changes = exists().where(RolePermissionRow.role_id == _Members.role_id,
                                 RolePermissionRow.permission_name == CHANGE_DEVICES)
        rows = self._s.execute(
            select(OrganizationRow.id, OrganizationRow.name, OrganizationRow.creator_account_id, RoleRow.code,
                   members.label("members"), devices.label("devices"), RoleRow.name.label("role_name"),
                   changes.label("changes"))
            .join(_Members, _Members.organization_id == OrganizationRow.id)
            .join(RoleRow, RoleRow.id == _Members.role_id)
            .where(_Members.account_id == account_id).order_by(OrganizationRow.id))
        return [MyOrganization(row.id, row.name, row.code, row.creator_account_id == account_id, row.members,
                               row.devices, row.role_name, bool(row.changes)) for row in rows]

    def role_of(self, organization_id: int, account_id: int) -> str | None:
        return self._s.scalar(select(RoleRow.code).join(_Members, _Members.role_id == RoleRow.id)
                              .where(_Members.organization_id == organization_id,
                                     _Members.account_id == account_id))

    def members(self, organization_id: int) -> list[Member]:
        rows = self._s.execute(
            select(AccountRow.id, AccountRow.user_name, AccountRow.real_name, RoleRow.code,
                   OrganizationRow.creator_account_id, RoleRow.name)
            .join_from(_Members, AccountRow, AccountRow.id == _Members.account_id)
            .join(RoleRow, RoleRow.id == _Members.role_id)
            .join(OrganizationRow, OrganizationRow.id == _Members.organization_id)
            .where(_Members.organization_id == organization_id).order_by(AccountRow.user_name_key))
        return [Member(id_, name, real, code, creator == id_, role_name)
                for id_, name, real, code, creator, role_name in rows]

    def add_member(self, organization_id: int, account_id: int, role_code: str) -> None:
        self._s.add(_Members(organization_id=organization_id, account_id=account_id,
                             role_id=self._role_id(role_code)))
        self._s.flush()

    def remove_member(self, organization_id: int, account_id: int) -> None:
        self._s.execute(delete(_Members).where(_Members.organization_id == organization_id,
                                               _Members.account_id == account_id))

    def set_role(self, organization_id: int, account_id: int, role_code: str) -> None:
        self._s.execute(update(_Members).where(_Members.organization_id == organization_id,
                                               _Members.account_id == account_id)
                        .values(role_id=self._role_id(role_code)))

    def set_creator(self, organization_id: int, account_id: int) -> None:
        self._s.execute(update(OrganizationRow).where(OrganizationRow.id == organization_id)
                        .values(creator_account_id=account_id))

    def find_account(self, term: str) -> Invitee | None:
        found = find_enabled_account(self._s, term)
        return Invitee(*found) if found else None


def find_enabled_account(session: Session, term: str) -> tuple[int, str] | None:
    """The id and user name of the enabled account whose user name (any case), phone or e-mail
    is the term: whom an invitation, a share or a transfer goes to."""
    row = session.execute(
        select(AccountRow.id, AccountRow.user_name)
        .where(or_(AccountRow.user_name_key == normalize_login_name(term), AccountRow.phone == term,
                   AccountRow.email == term),
               AccountRow.status == int(AccountStatus.ENABLED)).limit(1)).first()
    return (row.id, row.user_name) if row else None


def _invitation(row: OrganizationInvitationRow) -> Invitation:
    return Invitation(row.organization_id, row.account_id, row.role_code, row.inviter_account_id, row.created_at,
                      row.expires_at, InvitationStatus(row.status), row.id)


class SqlAlchemyInvitationRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, invitation: Invitation) -> Invitation:
        row = OrganizationInvitationRow(
            organization_id=invitation.organization_id, account_id=invitation.account_id,
            role_code=invitation.role_code, inviter_account_id=invitation.inviter_account_id,
            created_at=invitation.created_at, expires_at=invitation.expires_at, status=invitation.status.value)
        self._s.add(row)
        self._s.flush()
        invitation.id = row.id
        return invitation

    def get(self, invitation_id: int) -> Invitation | None:
        row = self._s.get(OrganizationInvitationRow, invitation_id)
        return _invitation(row) if row else None

    def pending(self, organization_id: int, now: datetime) -> list[Invitation]:
        rows = self._s.execute(
            select(OrganizationInvitationRow, AccountRow.user_name)
            .join(AccountRow, AccountRow.id == OrganizationInvitationRow.account_id)
            .where(OrganizationInvitationRow.organization_id == organization_id,
                   OrganizationInvitationRow.status == InvitationStatus.PENDING.value,
                   OrganizationInvitationRow.expires_at > now).order_by(OrganizationInvitationRow.id))
        return [replace(_invitation(row), invitee_name=name) for row, name in rows]

    def close(self, invitation_id: int, status: InvitationStatus, now: datetime) -> bool:
        # One conditional UPDATE: of two concurrent answers only one finds the row still pending.
        result = self._s.execute(
            update(OrganizationInvitationRow)
            .where(OrganizationInvitationRow.id == invitation_id,
                   OrganizationInvitationRow.status == InvitationStatus.PENDING.value)
            .values(status=status.value, closed_at=now).execution_options(synchronize_session=False))
        return int(result.rowcount) == 1  # type: ignore[attr-defined]

    def withdraw_open(self, organization_id: int, account_id: int, now: datetime) -> None:
        self._s.execute(
            update(OrganizationInvitationRow)
            .where(OrganizationInvitationRow.organization_id == organization_id,
                   OrganizationInvitationRow.account_id == account_id,
                   OrganizationInvitationRow.status == InvitationStatus.PENDING.value)
            .values(status=InvitationStatus.WITHDRAWN.value, closed_at=now)
            .execution_options(synchronize_session=False))


class SqlAlchemyOrganizationRoleRepository:
    """Custom roles are rows of `roles` with their organization, their permissions rows of
    `role_permissions`, like the built-in ones: the token check's union of held roles' permissions
    covers them with no change."""

    def __init__(self, session: Session) -> None:
        self._s = session

    def _read(self, *where: ColumnElement[bool]) -> list[CustomRole]:
        holders = (select(func.count()).select_from(_Members).where(_Members.role_id == RoleRow.id)
                   .correlate(RoleRow).scalar_subquery())
        rows = self._s.execute(select(RoleRow, holders.label("holders"))
                               .where(RoleRow.organization_id.is_not(None), *where).order_by(RoleRow.name_key))
        found = [(cast(RoleRow, row), int(cast(int, count))) for row, count in rows]
        held: dict[int, set[str]] = {row.id: set() for row, _ in found}
        if held:
            for role_id, name in self._s.execute(select(RolePermissionRow.role_id, RolePermissionRow.permission_name)
                                                 .where(RolePermissionRow.role_id.in_(held))):
                held[role_id].add(name)
        return [CustomRole(row.organization_id or 0, row.name, row.description, frozenset(held[row.id]), row.id,
                           row.code, count) for row, count in found]

    def of_organization(self, organization_id: int) -> list[CustomRole]:
        return self._read(RoleRow.organization_id == organization_id)

    def get(self, role_id: int) -> CustomRole | None:
        return next(iter(self._read(RoleRow.id == role_id)), None)

    def by_code(self, code: str) -> CustomRole | None:
        return next(iter(self._read(RoleRow.code == code)), None)

    def is_built_in(self, role_id: int) -> bool:
        return bool(self._s.scalar(select(RoleRow.built_in).where(RoleRow.id == role_id)))

    def built_in_ids(self) -> dict[str, int]:
        rows = self._s.execute(select(RoleRow.code, RoleRow.id).where(RoleRow.built_in.is_(True),
                                                                     RoleRow.organization_id.is_(None)))
        return {code: id_ for code, id_ in rows}

    def name_taken(self, organization_id: int, key: str, except_id: int | None = None) -> bool:
        query = select(RoleRow.id).where(RoleRow.organization_id == organization_id, RoleRow.name_key == key)
        if except_id is not None:
            query = query.where(RoleRow.id != except_id)
        return self._s.scalar(query.limit(1)) is not None

    def _flush(self) -> None:
        try:
            with self._s.begin_nested():
                self._s.flush()
        except IntegrityError as error:  # a concurrent request took the name first
            raise RoleNameTaken() from error

    def _grant(self, role_id: int, permissions: frozenset[str]) -> None:
        self._s.execute(delete(RolePermissionRow).where(RolePermissionRow.role_id == role_id))
        self._s.add_all(RolePermissionRow(role_id=role_id, permission_name=name) for name in sorted(permissions))
        self._s.flush()

    def add(self, role: CustomRole) -> CustomRole:
        # The code names the row, so it is known only once the row is: a unique stand-in first.
        row = RoleRow(code=f"pending_{uuid4().hex[:24]}", name=role.name, name_key=role.name.casefold(),
                      description=role.description, role_type=int(RoleType.CUSTOM), built_in=False,
                      organization_id=role.organization_id)
        self._s.add(row)
        self._flush()
        row.code = f"custom_{row.id}"
        self._s.flush()
        self._grant(row.id, role.permissions)
        role.id, role.code = row.id, row.code
        return role

    def update(self, role: CustomRole) -> None:
        row = self._s.get(RoleRow, role.id)
        assert row is not None
        row.name, row.name_key, row.description = role.name, role.name.casefold(), role.description
        self._flush()
        self._grant(row.id, role.permissions)

    def delete(self, role_id: int, now: datetime) -> None:
        code = self._s.scalar(select(RoleRow.code).where(RoleRow.id == role_id))
        self._s.execute(update(OrganizationInvitationRow)
                        .where(OrganizationInvitationRow.role_code == code,
                               OrganizationInvitationRow.status == InvitationStatus.PENDING.value)
                        .values(status=InvitationStatus.WITHDRAWN.value, closed_at=now)
                        .execution_options(synchronize_session=False))
        self._s.execute(delete(RolePermissionRow).where(RolePermissionRow.role_id == role_id))
        self._s.execute(delete(RoleRow).where(RoleRow.id == role_id))
