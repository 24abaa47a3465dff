"""An organization, its members with their roles, and the invitations it sends."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from core.permissions import roles
from core.shared.errors import InvalidInput
from core.shared.identity import Stored
from core.shared.messages import N_
from core.shared.text import has_refused_characters

NAME_MIN, NAME_MAX = 2, 50  # spec section 5: organization name 2-50
INVITEE_MIN, INVITEE_MAX = 2, 20  # spec section 5: the invitee's name (user name, phone or e-mail) 2-20
INVITATION_LIFETIME = timedelta(days=7)

# Roles a member may be given; the creator's role passes only by hand-over.
ASSIGNABLE_ROLES = (roles.ORG_ADMIN.code, roles.ORG_MEMBER.code)
# Roles whose holders manage members, invitations and the name.
MANAGERS = frozenset({roles.ORG_CREATOR.code, roles.ORG_ADMIN.code})


def organization_name(value: str) -> str:
    name = value.strip()
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise InvalidInput("organizationName", N_("The organization name must be {min}-{max} characters"),
                           min=NAME_MIN, max=NAME_MAX)
    if has_refused_characters(name):
        raise InvalidInput("organizationName", N_("An organization name may not hold emoji or control characters"))
    return name


def invitee_term(value: str) -> str:
    term = value.strip()
    if not INVITEE_MIN <= len(term) <= INVITEE_MAX:
        raise InvalidInput("uep", N_("Enter the invitee's user name, phone or e-mail ({min}-{max} characters)"),
                           min=INVITEE_MIN, max=INVITEE_MAX)
    return term


@dataclass
class Organization(Stored):
    name: str
    creator_account_id: int
    created_at: datetime
    id: int | None = None


@dataclass
class CustomRole:
    """A role an organization made for its members (core/organizations/custom_roles.py)."""

    organization_id: int
    name: str
    description: str | None
    permissions: frozenset[str]
    id: int | None = None
    code: str = ""  # given by the repository: what members and invitations refer to
    holders: int = 0  # the members holding it (read, not stored)


@dataclass(frozen=True)
class MyOrganization:
    """An organization the reader belongs to, with the reader's role in it."""

    organization_id: int
    name: str
    role_code: str
    creator: bool
    members: int
    devices: int
    role_name: str = ""  # as stored: a built-in role's English name (to translate), a custom role's own
    changes_devices: bool = False  # the role changes its devices (and so its projects and assets)


@dataclass(frozen=True)
class Member:
    account_id: int
    user_name: str
    real_name: str | None
    role_code: str
    creator: bool
    role_name: str = ""  # as MyOrganization's


@dataclass(frozen=True)
class Invitee:
    account_id: int
    user_name: str

    @property
    def masked_name(self) -> str:
        """Enough for the inviter to recognise whom they found, not enough to learn a name."""
        name = self.user_name
        return name[0] + "*" * max(1, len(name) - 2) + (name[-1] if len(name) > 1 else "")


class InvitationStatus(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    WITHDRAWN = "withdrawn"


@dataclass
class Invitation(Stored):
    organization_id: int
    account_id: int
    role_code: str
    inviter_account_id: int
    created_at: datetime
    expires_at: datetime
    status: InvitationStatus = InvitationStatus.PENDING
    id: int | None = None
    invitee_name: str | None = None  # read with the pending ones, for the inviter's list (masked there)

    @property
    def invitee(self) -> Invitee:
        return Invitee(self.account_id, self.invitee_name or "")

    def open_at(self, now: datetime) -> bool:
        return self.status is InvitationStatus.PENDING and now < self.expires_at


SUBJECT_PREFIX = "invitation:"


def subject_of(invitation_id: int) -> str:
    return f"{SUBJECT_PREFIX}{invitation_id}"


def invitation_id_of(subject: str | None) -> int | None:
    if not subject or not subject.startswith(SUBJECT_PREFIX):
        return None
    rest = subject.removeprefix(SUBJECT_PREFIX)
    return int(rest) if rest.isdigit() else None
