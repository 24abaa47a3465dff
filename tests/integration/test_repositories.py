"""Repositories against the real databases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from adapters.persistence.models import OrganizationMemberRow, OrganizationRow, RoleRow
from core.accounts.model import Account, AccountStatus, CodePurpose, LoginSession, LoginType, digest
from core.accounts.throttling import Failure, Hold
from core.accounts.verification import VerificationCode
from core.notifications.model import Channel, OutboundMessage
from core.permissions import roles
from core.shared.errors import UserAlreadyExists


def new_account(uow, name: str, **kw) -> Account:
    return uow.accounts.add(Account(id=None, user_name=name, password_hash="x", created_at=datetime.now(UTC), **kw))


def test_user_names_are_unique_whatever_their_case(container):
    with container.uow() as uow:
        new_account(uow, "carol_01")
        uow.commit()
    with container.uow() as uow, pytest.raises(UserAlreadyExists):
        new_account(uow, "Carol_01")


def test_an_account_is_found_by_name_phone_or_email(container):
    with container.uow() as uow:
        account = new_account(uow, "carol_01", phone="13912345678", email="Carol@Example.com")
        uow.commit()
    with container.uow() as uow:
        for name in ("CAROL_01", "13912345678", "carol@example.com", " carol_01 "):
            assert uow.accounts.by_login_name(name).id == account.id
        assert uow.accounts.by_login_name("carol") is None
        assert uow.accounts.by_contact(Channel.EMAIL, "CAROL@example.com").id == account.id


def test_sessions_keep_their_times_in_utc_and_revoke(container, clock):
    with container.uow() as uow:
        account = new_account(uow, "carol_01")
        issued, session = LoginSession.open(account.id, clock.now(), LoginType.PASSWORD, "10.0.0.1")
        uow.sessions.add(session)
        uow.commit()
    with container.uow() as uow:
        bearer = uow.sessions.bearer(session.token_digest)
        assert bearer.expires_at == issued.expires_at and bearer.expires_at.tzinfo is not None
        assert bearer.principal_at(clock.now()).account_id == account.id
        uow.sessions.revoke(bearer.session_id, clock.now())
        uow.commit()
    with container.uow() as uow:
        assert uow.sessions.bearer(session.token_digest).principal_at(clock.now()) is None


def test_a_bearer_holds_the_permissions_of_the_account_s_roles_and_of_its_roles_in_organizations(container, clock):
    with container.uow() as uow:
        member, loner = new_account(uow, "carol_01"), new_account(uow, "dave_001")
        uow.roles.assign(member.id, roles.PERSONAL_CUSTOMER.code)
        digests = {}
        for account in (member, loner):
            _, session = LoginSession.open(account.id, clock.now(), LoginType.PASSWORD, None)
            uow.sessions.add(session)
            digests[account.user_name] = session.token_digest
        uow.commit()
    with container.session_factory()() as s:
        organization = OrganizationRow(name="Acme", creator_account_id=loner.id, created_at=clock.now())
        s.add(organization)
        s.flush()
        s.add(OrganizationMemberRow(organization_id=organization.id, account_id=member.id,
                                    role_id=s.scalar(select(RoleRow.id).where(RoleRow.code == roles.ORG_MEMBER.code))))
        s.commit()
    with container.uow() as uow:
        held = uow.sessions.bearer(digests["carol_01"])
        assert held.permissions == roles.PERSONAL_CUSTOMER.permissions | roles.ORG_MEMBER.permissions
        assert held.user_name == "carol_01" and held.status is AccountStatus.ENABLED
        assert uow.sessions.bearer(digests["dave_001"]).permissions == frozenset()
        assert uow.sessions.bearer(digest("no such token")) is None
        [membership] = uow.account_info.of(member.id).organizations
        assert (membership.organization_name, membership.role_code, membership.is_creator) == (
            "Acme", roles.ORG_MEMBER.code, False)
        assert uow.account_info.of(loner.id).organizations == []  # what it is a member of, not what it created
        assert uow.account_info.of(10_000) is None


def test_leaving_a_unit_of_work_without_commit_rolls_back(container):
    with container.uow() as uow:
        new_account(uow, "carol_01")
    with container.uow() as uow:
        assert uow.accounts.by_login_name("carol_01") is None


def test_units_of_work_of_a_request_share_its_session_but_never_uncommitted_work(container):
    scope = container.session_scope()
    token = scope.open()
    try:
        with container.uow() as first:
            new_account(first, "carol_01")  # left without commit
            shared = first.session
        with container.uow() as second, pytest.raises(LookupError):
            assert second.session is shared
            new_account(second, "dave_001")
            raise LookupError("a refusal after a write")
        with container.uow() as third:
            assert third.session is shared
            assert third.accounts.by_login_name("carol_01") is None
            assert third.accounts.by_login_name("dave_001") is None
            new_account(third, "erin_001")
            third.commit()
            with container.uow() as nested:  # a use case inside another: a session of its own
                assert nested.session is not shared
    finally:
        scope.close(token)
    with container.uow() as uow:
        assert uow.accounts.by_login_name("erin_001") is not None
        assert uow.accounts.by_login_name("carol_01") is None and uow.accounts.by_login_name("dave_001") is None


def test_a_unit_of_work_builds_a_repository_on_first_use_and_only_inside_its_block(container):
    uow = container.uow()
    with uow:
        accounts = uow.accounts
        assert uow.accounts is accounts and set(uow._repositories) == {"accounts"}
    assert uow._repositories == {}
    with pytest.raises(RuntimeError):
        uow.orders  # noqa: B018  the transaction is over
    with uow:
        assert uow.accounts is not accounts  # a new transaction, a new session


def test_login_failures_are_kept_by_name_and_address_and_forgotten_after_an_hour(container, clock):
    now = clock.now()
    with container.uow() as uow:
        uow.throttle.add_failure("carol", "10.0.0.1", now - timedelta(hours=2))
        uow.throttle.add_failure("carol", "10.0.0.1", now - timedelta(minutes=5))
        uow.throttle.add_failure("carol", "10.0.0.2", now)  # this one also forgets the two-hour-old one
        uow.throttle.add_failure("dave", "10.0.0.2", now)
        uow.commit()
    with container.uow() as uow:
        assert sorted(uow.throttle.failures_of("carol", now - timedelta(days=1)), key=lambda f: f.at) == [
            Failure("10.0.0.1", now - timedelta(minutes=5)), Failure("10.0.0.2", now)]
        assert uow.throttle.failures_of("carol", now - timedelta(minutes=1)) == [Failure("10.0.0.2", now)]
        assert uow.throttle.names_failing_from("10.0.0.2", now - timedelta(minutes=1)) == 2
        assert uow.throttle.names_failing_from("10.0.0.1", now - timedelta(minutes=1)) == 0
        uow.throttle.clear_pair("carol", "10.0.0.2")
        uow.commit()
    with container.uow() as uow:
        assert uow.throttle.failures_of("carol", now - timedelta(days=1)) == [
            Failure("10.0.0.1", now - timedelta(minutes=5))]
        assert uow.throttle.failures_of("dave", now - timedelta(days=1)) == [Failure("10.0.0.2", now)]


def test_a_hold_lasts_until_its_end_and_can_be_renewed(container, clock):
    now = clock.now()
    with container.uow() as uow:
        uow.throttle.hold(Hold.PROTECTED, "carol", now + timedelta(hours=1))
        uow.commit()
    with container.uow() as uow:
        assert uow.throttle.held_until(Hold.PROTECTED, "carol", now) == now + timedelta(hours=1)
        assert uow.throttle.held_until(Hold.NOTICE, "carol", now) is None
        assert uow.throttle.held_until(Hold.PROTECTED, "carol", now + timedelta(hours=1)) is None
        uow.throttle.hold(Hold.PROTECTED, "carol", now + timedelta(hours=2))
        uow.commit()
    with container.uow() as uow:
        assert uow.throttle.held_until(Hold.PROTECTED, "carol", now + timedelta(hours=1)) == now + timedelta(hours=2)


def test_the_latest_code_is_the_one_checked(container, clock):
    key = b"k"
    with container.uow() as uow:
        first, a = VerificationCode.issue(Channel.PHONE, "13912345678", CodePurpose.REGISTER, clock.now(), key)
        uow.codes.add(a)
        second, b = VerificationCode.issue(Channel.PHONE, "13912345678", CodePurpose.REGISTER,
                                           clock.now() + timedelta(seconds=61), key)
        uow.codes.add(b)
        uow.commit()
    with container.uow() as uow:
        latest = uow.codes.latest(Channel.PHONE, "13912345678", CodePurpose.REGISTER)
        assert latest.id == b.id
        assert uow.codes.sent_since(Channel.PHONE, "13912345678", clock.now() - timedelta(hours=1)) == 2


def test_the_outbox_hands_out_each_pending_message_until_sent(container, clock):
    with container.uow() as uow:
        for n in range(3):
            uow.outbox.add(OutboundMessage(Channel.PHONE, f"1391234567{n}", "verification_code", {"code": "1"},
                                           "zh-CN", clock.now()))
        uow.commit()
    with container.uow() as uow:
        pending = uow.outbox.pending(2)
        assert [m.recipient for m in pending] == ["13912345670", "13912345671"]
        pending[0].sent_at = clock.now()
        uow.outbox.save(pending[0])
        uow.commit()
    with container.uow() as uow:
        assert [m.recipient for m in uow.outbox.pending(10)] == ["13912345671", "13912345672"]
