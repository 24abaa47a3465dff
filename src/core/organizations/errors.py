"""The refusals of the organizations context (HTTP 409), each with its stable code."""

from __future__ import annotations

from core.shared.errors import DomainError, RuleViolation
from core.shared.messages import N_


class OrganizationHoldsDevices(RuleViolation):
    code = 1701
    message = N_("The organization still holds {count} devices: move them out before dissolving it")


class NoInvitableAccount(RuleViolation):
    """The same for an unknown account and for one that cannot be invited (already a member,
    already invited, the inviter), so the lookup reveals no more than a masked name."""

    code = 1702
    message = N_("No account that can be invited matches this user name, phone or e-mail")


class InvitationClosed(RuleViolation):
    code = 1703
    message = N_("This invitation has expired or was withdrawn")


class CreatorRoleFixed(RuleViolation):
    code = 1704
    message = N_("The creator keeps the creator's role: hand the organization over to another member first")


class NotAMember(RuleViolation):
    code = 1705
    message = N_("This account is not a member of the organization")


class BuiltInRoleFixed(RuleViolation):
    code = 1720
    message = N_("Built-in roles cannot be changed or deleted")


class RoleHeld(RuleViolation):
    code = 1721
    message = N_("{count} members hold this role: give them another role before deleting it")


ERRORS: tuple[type[DomainError], ...] = (
    OrganizationHoldsDevices, NoInvitableAccount, InvitationClosed, CreatorRoleFixed, NotAMember,
    BuiltInRoleFixed, RoleHeld)
