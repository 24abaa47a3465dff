from datetime import timedelta

import pytest

from core.accounts.commands import LogIn
from core.accounts.model import Account, AccountStatus
from core.accounts.session import Authenticate, CredentialCheck, Login, Logout
from core.shared.errors import AccountDisabled, BadCredentials, NotAuthenticated, TooManyAttempts
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeHasher, FakeUnitOfWork

PASSWORD = "Right#Pass2026"


@pytest.fixture
def world():
    uow, hasher, clock = FakeUnitOfWork(), FakeHasher(), MutableClock()
    uow.accounts.add(Account(None, "alice_01", hasher.hash(PASSWORD), phone="13800000001"))
    login = Login(uow, CredentialCheck(hasher), clock, b"key")
    return uow, hasher, clock, login


def attempt(login, password, name="alice_01", address="10.0.0.1"):
    return login(LogIn(name, password, client_address=address))


def test_a_right_password_opens_a_session_for_seven_days(world):
    uow, _, clock, login = world
    issued = attempt(login, PASSWORD)
    assert issued.expires_at == clock.now() + timedelta(days=7)
    assert Authenticate(uow, clock)(issued.token).user_name == "alice_01"


def test_the_stored_session_holds_only_a_digest_of_the_token(world):
    uow, _, _, login = world
    issued = attempt(login, PASSWORD)
    assert issued.token not in repr(uow.sessions.rows)


def test_five_failures_lock_the_name_even_for_the_right_password(world):
    _, _, clock, login = world
    for _ in range(5):
        with pytest.raises(BadCredentials):
            attempt(login, "wrong")
    with pytest.raises(TooManyAttempts) as refused:
        attempt(login, PASSWORD)
    assert refused.value.retry_after_seconds == 900
    clock.advance(minutes=15)
    assert attempt(login, PASSWORD).token


def test_the_lock_is_per_name_however_it_is_spelt(world):
    _, _, _, login = world
    for _ in range(5):
        with pytest.raises(BadCredentials):
            attempt(login, "wrong", name="ALICE_01 ")
    with pytest.raises(TooManyAttempts):
        attempt(login, PASSWORD, name="alice_01")


def test_an_unknown_name_costs_a_real_verification(world):
    _, hasher, _, login = world
    with pytest.raises(BadCredentials):
        attempt(login, "whatever", name="nobody_here")
    assert len(hasher.verified) == 1  # against the decoy hash, so timing matches a real user


def test_fifty_failures_from_one_address_lock_it(world):
    _, _, _, login = world
    for i in range(50):
        with pytest.raises(BadCredentials):
            attempt(login, "wrong", name=f"user_{i}", address="203.0.113.9")
    with pytest.raises(TooManyAttempts):
        attempt(login, PASSWORD, address="203.0.113.9")
    assert attempt(login, PASSWORD, address="203.0.113.10").token


def test_a_disabled_account_is_refused_only_after_its_password_is_right(world):
    uow, _, _, login = world
    uow.accounts.rows[1].status = AccountStatus.DISABLED
    with pytest.raises(BadCredentials):
        attempt(login, "wrong")
    with pytest.raises(AccountDisabled):
        attempt(login, PASSWORD)


def test_an_outdated_hash_is_upgraded_at_login(world):
    uow, hasher, _, login = world
    uow.accounts.rows[1].password_hash = f"v1:{PASSWORD}"
    attempt(login, PASSWORD)
    assert uow.accounts.rows[1].password_hash == hasher.hash(PASSWORD)


def test_logout_revokes_and_expiry_ends_a_session(world):
    uow, _, clock, login = world
    authenticate = Authenticate(uow, clock)
    first, second = attempt(login, PASSWORD), attempt(login, PASSWORD)
    Logout(uow, clock)(authenticate(first.token))
    with pytest.raises(NotAuthenticated):
        authenticate(first.token)
    assert authenticate(second.token)
    clock.advance(days=7)
    with pytest.raises(NotAuthenticated):
        authenticate(second.token)


@pytest.mark.parametrize("token", [None, "", "x" * 129, "not-a-token"])
def test_missing_or_unknown_tokens_are_not_authenticated(world, token):
    uow, _, clock, _ = world
    with pytest.raises(NotAuthenticated):
        Authenticate(uow, clock)(token)
