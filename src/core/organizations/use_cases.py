"""Create, rename and dissolve organizations; invite, remove and re-role members; hand the
creator identity over. Who may do what is decided here from the caller's role in the
organization: a stranger learns nothing (404), a plain member may look but not manage (403)."""

from __future__ import annotations

from dataclasses import dataclass

from core.inbox.model import ORGANIZATION_INVITATION, MessageKind, SystemMessage
from core.inbox.posting import post
from core.organizations.custom_roles import assignable_role
from core.organizations.errors import (
    CreatorRoleFixed,
    NoInvitableAccount,
    NotAMember,
    OrganizationHoldsDevices,
)
from core.organizations.model import (
    INVITATION_LIFETIME,
    MANAGERS,
    Invitation,
    InvitationStatus,
    Invitee,
    Member,
    MyOrganization,
    Organization,
    invitee_term,
    organization_name,
    subject_of,
)
from core.organizations.ports import OrganizationsUnitOfWork
from core.permissions import roles
from core.shared.clock import Clock
from core.shared.errors import Forbidden, NotFound


def _role(uow: OrganizationsUnitOfWork, organization_id: int, account_id: int) -> str:
    """The caller's role; 404 for a stranger, as for an unknown organization."""
    role = uow.organizations.role_of(organization_id, account_id)
    if role is None:
        raise NotFound()
    return role


def _manager(uow: OrganizationsUnitOfWork, organization_id: int, account_id: int) -> str:
    role = _role(uow, organization_id, account_id)
    if role not in MANAGERS:
        raise Forbidden()
    return role


def _creator(uow: OrganizationsUnitOfWork, organization_id: int, account_id: int) -> None:
    if _role(uow, organization_id, account_id) != roles.ORG_CREATOR.code:
        raise Forbidden()


class ListMyOrganizations:
    def __init__(self, uow: OrganizationsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int) -> list[MyOrganization]:
        with self._uow as uow:
            return uow.organizations.mine(account_id)


class CreateOrganization:
    """The creator is its first member, with the creator's role."""

    def __init__(self, uow: OrganizationsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, name: str) -> Organization:
        name = organization_name(name)
        with self._uow as uow:
            created = uow.organizations.add(Organization(name, account_id, self._clock.now()))
            uow.organizations.add_member(created.stored_id, account_id, roles.ORG_CREATOR.code)
            uow.commit()
        return created


class RenameOrganization:
    def __init__(self, uow: OrganizationsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, organization_id: int, name: str) -> None:
        name = organization_name(name)
        with self._uow as uow:
            _manager(uow, organization_id, account_id)
            uow.organizations.rename(organization_id, name)
            uow.commit()


class DissolveOrganization:
    """Only its creator, and only when it holds no devices (they would be left without a team)."""

    def __init__(self, uow: OrganizationsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, organization_id: int) -> None:
        with self._uow as uow:
            _creator(uow, organization_id, account_id)
            if count := uow.organizations.device_count(organization_id):
                raise OrganizationHoldsDevices(count=count)
            uow.organizations.delete(organization_id)
            uow.commit()


@dataclass(frozen=True)
class Members:
    members: list[Member]
    invitations: list[Invitation]
    my_role: str


class ListMembers:
    """Every member sees who else is in; pending invitations only managers see."""

    def __init__(self, uow: OrganizationsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, organization_id: int) -> Members:
        with self._uow as uow:
            role = _role(uow, organization_id, account_id)
            pending = uow.invitations.pending(organization_id, self._clock.now()) if role in MANAGERS else []
            return Members(uow.organizations.members(organization_id), pending, role)


def _invitable(uow: OrganizationsUnitOfWork, organization_id: int, term: str) -> Invitee:
    found = uow.organizations.find_account(invitee_term(term))
    if found is None or uow.organizations.role_of(organization_id, found.account_id) is not None:
        raise NoInvitableAccount()
    return found


class FindInvitee:
    """queryAccountByUEP: whether a user name, phone or e-mail names an account the organization
    may invite, and its masked name; an unknown account and a member get the same refusal."""

    def __init__(self, uow: OrganizationsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, organization_id: int, term: str) -> Invitee:
        with self._uow as uow:
            _manager(uow, organization_id, account_id)
            return _invitable(uow, organization_id, term)


@dataclass(frozen=True)
class Invite:
    account_id: int
    organization_id: int
    term: str
    role_code: str


class InviteMember:
    """The invitee is asked in the message centre; a new invitation replaces a pending one."""

    def __init__(self, uow: OrganizationsUnitOfWork, clock: Clock, default_language: str) -> None:
        self._uow, self._clock, self._language = uow, clock, default_language

    def __call__(self, command: Invite) -> tuple[Invitation, Invitee]:
        now = self._clock.now()
        with self._uow as uow:
            _manager(uow, command.organization_id, command.account_id)
            role = assignable_role(uow, command.organization_id, command.role_code)
            invitee = _invitable(uow, command.organization_id, command.term)
            organization = uow.organizations.get(command.organization_id)
            assert organization is not None  # the caller is a member of it
            inviter = next(m.user_name for m in uow.organizations.members(command.organization_id)
                           if m.account_id == command.account_id)
            uow.invitations.withdraw_open(command.organization_id, invitee.account_id, now)
            invitation = uow.invitations.add(Invitation(command.organization_id, invitee.account_id, role,
                                                        command.account_id, now, now + INVITATION_LIFETIME))
            post(uow, SystemMessage(invitee.account_id, MessageKind.INVITATION, ORGANIZATION_INVITATION,
                                    {"inviter": inviter, "organization": organization.name}, now,
                                    needs_decision=True, subject=subject_of(invitation.stored_id)),
                 self._language)
            uow.commit()
        return invitation, invitee


class WithdrawInvitation:
    def __init__(self, uow: OrganizationsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, invitation_id: int) -> None:
        with self._uow as uow:
            invitation = uow.invitations.get(invitation_id)
            if invitation is None:
                raise NotFound()
            _manager(uow, invitation.organization_id, account_id)
            uow.invitations.close(invitation_id, InvitationStatus.WITHDRAWN, self._clock.now())
            uow.commit()


def _member_role(uow: OrganizationsUnitOfWork, organization_id: int, member_id: int) -> str:
    role = uow.organizations.role_of(organization_id, member_id)
    if role is None:
        raise NotAMember()
    if role == roles.ORG_CREATOR.code:
        raise CreatorRoleFixed()
    return role


class RemoveMember:
    """deleteInOrganization: the member loses the organization's devices on their next request."""

    def __init__(self, uow: OrganizationsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, organization_id: int, member_id: int) -> None:
        with self._uow as uow:
            _manager(uow, organization_id, account_id)
            _member_role(uow, organization_id, member_id)
            uow.organizations.remove_member(organization_id, member_id)
            uow.commit()


class ChangeMemberRole:
    """updateRoleInOrganization: one of the organization type's roles, never the creator's."""

    def __init__(self, uow: OrganizationsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, organization_id: int, member_id: int, role_code: str) -> None:
        with self._uow as uow:
            _manager(uow, organization_id, account_id)
            role = assignable_role(uow, organization_id, role_code)
            _member_role(uow, organization_id, member_id)
            uow.organizations.set_role(organization_id, member_id, role)
            uow.commit()


class HandOverCreator:
    """updateAccountOrganizationRel: the creator makes another member the creator and stays on as
    an administrator."""

    def __init__(self, uow: OrganizationsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, organization_id: int, member_id: int) -> None:
        with self._uow as uow:
            _creator(uow, organization_id, account_id)
            _member_role(uow, organization_id, member_id)
            uow.organizations.set_role(organization_id, member_id, roles.ORG_CREATOR.code)
            uow.organizations.set_role(organization_id, account_id, roles.ORG_ADMIN.code)
            uow.organizations.set_creator(organization_id, member_id)
            uow.commit()
