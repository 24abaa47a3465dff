"""The organizations context's rules, in memory: who may manage, the invitation's one answer,
the creator's identity (issue 17)."""

from __future__ import annotations

import pytest

from core.inbox.model import Decision, MessageKind, Recipient
from core.inbox.use_cases import AnswerMessage
from core.organizations.errors import (
    CreatorRoleFixed,
    InvitationClosed,
    NoInvitableAccount,
    NotAMember,
    OrganizationHoldsDevices,
)
from core.organizations.invitations import InvitationAnswers
from core.organizations.model import Invitee, invitation_id_of, subject_of
from core.organizations.use_cases import (
    ChangeMemberRole,
    CreateOrganization,
    DissolveOrganization,
    FindInvitee,
    HandOverCreator,
    Invite,
    InviteMember,
    ListMembers,
    RemoveMember,
    RenameOrganization,
)
from core.shared.errors import Forbidden, InvalidInput, NotFound
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeOrganizationsUnitOfWork

OWNER, ADMIN, MEMBER, STRANGER, INVITEE = 1, 2, 3, 4, 5


@pytest.fixture
def clock():
    return MutableClock()


@pytest.fixture
def uow(clock):
    uow = FakeOrganizationsUnitOfWork()
    uow.organizations.accounts.update({OWNER: "acme", ADMIN: "carol", MEMBER: "bob", STRANGER: "eve", INVITEE: "alice"})
    for account in uow.organizations.accounts:
        uow.inbox.recipients[account] = Recipient(None, None, None)
    org = CreateOrganization(uow, clock)(OWNER, "  Acme  ")
    assert (org.stored_id, org.name) == (1, "Acme")
    uow.organizations.add_member(1, ADMIN, "org_admin")
    uow.organizations.add_member(1, MEMBER, "org_member")
    return uow


def invite(uow, clock, term="alice", role="org_member", by=OWNER):
    return InviteMember(uow, clock, "en-US")(Invite(by, 1, term, role))


def answer(uow, clock, decision=Decision.APPROVED, account=INVITEE):
    message = [m for m in uow.inbox.rows if m.account_id == account][-1]
    return AnswerMessage(uow, clock, (InvitationAnswers(uow),))(account, message.stored_id, decision)


def test_the_creator_is_the_first_member_with_the_creator_role(uow):
    assert uow.organizations.role_of(1, OWNER) == "org_creator"


@pytest.mark.parametrize("name", ["x", " x ", "y" * 51, "   ", "Acme \U0001F9CA", "Ac\u200dme", "Acme\x00"])
def test_an_organization_name_is_2_to_50_characters_without_emoji_or_controls(uow, clock, name):
    with pytest.raises(InvalidInput):
        CreateOrganization(uow, clock)(OWNER, name)
    with pytest.raises(InvalidInput):
        RenameOrganization(uow)(OWNER, 1, name)


def test_an_approved_invitation_makes_a_member_with_the_invited_role(uow, clock):
    invitation, invitee = invite(uow, clock, role="org_admin")
    assert invitee.masked_name == "a***e"
    [message] = [m for m in uow.inbox.rows if m.account_id == INVITEE]
    assert (message.kind, message.needs_decision, message.params) == (
        MessageKind.INVITATION, True, {"inviter": "acme", "organization": "Acme"})
    assert invitation_id_of(message.subject) == invitation.stored_id
    answer(uow, clock)
    assert uow.organizations.role_of(1, INVITEE) == "org_admin"


def test_a_rejected_invitation_makes_no_member(uow, clock):
    invite(uow, clock)
    answer(uow, clock, Decision.REJECTED)
    assert uow.organizations.role_of(1, INVITEE) is None


def test_an_expired_or_replaced_invitation_cannot_be_approved(uow, clock):
    invite(uow, clock)
    clock.advance(days=7)
    with pytest.raises(InvitationClosed):
        answer(uow, clock)
    first, _ = invite(uow, clock)
    first_message = uow.inbox.rows[-1]
    invite(uow, clock)
    with pytest.raises(InvitationClosed):
        AnswerMessage(uow, clock, (InvitationAnswers(uow),))(INVITEE, first_message.stored_id, Decision.APPROVED)
    assert uow.organizations.role_of(1, INVITEE) is None


def test_only_invitation_subjects_name_an_invitation():
    assert invitation_id_of("organization:demo") is None and invitation_id_of("invitation:x") is None
    assert invitation_id_of(subject_of(12)) == 12


@pytest.mark.parametrize("term", ["nobody", "bob", "acme"])
def test_the_lookup_refuses_alike_an_unknown_account_a_member_and_the_inviter(uow, term):
    with pytest.raises(NoInvitableAccount):
        FindInvitee(uow)(OWNER, 1, term)


def test_masked_names_show_only_the_first_and_last_character():
    assert [Invitee(1, n).masked_name for n in ("ab", "abc", "alice")] == ["a*b", "a*c", "a***e"]


@pytest.mark.parametrize("role", ["org_creator", "system_admin", "nonsense"])
def test_only_the_organization_s_assignable_roles_are_given(uow, clock, role):
    with pytest.raises(InvalidInput):
        invite(uow, clock, role=role)
    with pytest.raises(InvalidInput):
        ChangeMemberRole(uow)(OWNER, 1, MEMBER, role)


@pytest.mark.parametrize(("caller", "error"), [(MEMBER, Forbidden), (STRANGER, NotFound)])
def test_a_member_may_not_manage_and_a_stranger_learns_nothing(uow, clock, caller, error):
    for act in (lambda: invite(uow, clock, by=caller), lambda: RenameOrganization(uow)(caller, 1, "Mine"),
                lambda: RemoveMember(uow)(caller, 1, ADMIN),
                lambda: ChangeMemberRole(uow)(caller, 1, ADMIN, "org_member"),
                lambda: HandOverCreator(uow)(caller, 1, ADMIN), lambda: DissolveOrganization(uow)(caller, 1),
                lambda: FindInvitee(uow)(caller, 1, "alice")):
        with pytest.raises(error):
            act()
    assert uow.organizations.role_of(1, ADMIN) == "org_admin" and uow.organizations.get(1).name == "Acme"
    if caller == STRANGER:
        with pytest.raises(NotFound):
            ListMembers(uow, clock)(caller, 1)


def test_a_member_sees_the_members_but_not_the_pending_invitations(uow, clock):
    invite(uow, clock)
    seen = ListMembers(uow, clock)(MEMBER, 1)
    assert {m.user_name for m in seen.members} == {"acme", "carol", "bob"} and seen.invitations == []
    [pending] = ListMembers(uow, clock)(ADMIN, 1).invitations
    assert pending.invitee.masked_name == "a***e"


def test_an_administrator_manages_members_but_not_the_creator(uow):
    ChangeMemberRole(uow)(ADMIN, 1, MEMBER, "org_admin")
    with pytest.raises(CreatorRoleFixed):
        ChangeMemberRole(uow)(ADMIN, 1, OWNER, "org_member")
    with pytest.raises(CreatorRoleFixed):
        RemoveMember(uow)(ADMIN, 1, OWNER)
    with pytest.raises(NotAMember):
        RemoveMember(uow)(ADMIN, 1, STRANGER)
    with pytest.raises(Forbidden):
        HandOverCreator(uow)(ADMIN, 1, MEMBER)
    RemoveMember(uow)(ADMIN, 1, MEMBER)
    assert uow.organizations.role_of(1, MEMBER) is None


def test_the_creator_hands_over_and_stays_as_an_administrator(uow):
    HandOverCreator(uow)(OWNER, 1, MEMBER)
    assert (uow.organizations.role_of(1, MEMBER), uow.organizations.role_of(1, OWNER)) == ("org_creator", "org_admin")
    assert uow.organizations.get(1).creator_account_id == MEMBER
    with pytest.raises(Forbidden):
        DissolveOrganization(uow)(OWNER, 1)


def test_an_organization_holding_devices_is_not_dissolved(uow):
    uow.organizations.devices[1] = 3
    with pytest.raises(OrganizationHoldsDevices) as refused:
        DissolveOrganization(uow)(OWNER, 1)
    assert refused.value.params == {"count": 3}
    uow.organizations.devices[1] = 0
    DissolveOrganization(uow)(OWNER, 1)
    assert uow.organizations.get(1) is None and uow.organizations.mine(MEMBER) == []
