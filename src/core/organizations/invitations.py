"""What an answer to an invitation does: approved, the reader becomes a member with the invited
role at once; rejected, the invitation is closed. The inbox calls this through its AnswerHandler
port inside the transaction that records the answer, so both are stored or neither."""

from __future__ import annotations

from datetime import datetime

from core.inbox.model import Decision, SystemMessage
from core.organizations.errors import InvitationClosed
from core.organizations.model import InvitationStatus, invitation_id_of
from core.organizations.ports import OrganizationsUnitOfWork


class InvitationAnswers:
    """An AnswerHandler: `uow` is the unit of work of the answering use case, already open."""

    def __init__(self, uow: OrganizationsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, message: SystemMessage, decision: Decision, now: datetime) -> None:
        invitation_id = invitation_id_of(message.subject)
        if invitation_id is None:
            return
        invitations, organizations = self._uow.invitations, self._uow.organizations
        invitation = invitations.get(invitation_id)
        # An invitation of a dissolved organization is gone; one addressed to another account
        # cannot be, but is treated alike rather than trusted.
        if invitation is None or invitation.account_id != message.account_id:
            raise InvitationClosed()
        if decision is Decision.REJECTED:
            invitations.close(invitation_id, InvitationStatus.REJECTED, now)
            return
        if not invitation.open_at(now) or not invitations.close(invitation_id, InvitationStatus.ACCEPTED, now):
            raise InvitationClosed()
        if organizations.role_of(invitation.organization_id, invitation.account_id) is None:
            organizations.add_member(invitation.organization_id, invitation.account_id, invitation.role_code)
