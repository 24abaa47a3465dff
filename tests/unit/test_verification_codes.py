from datetime import timedelta

import pytest

from core.accounts.commands import Register, ResetPassword, SendCode
from core.accounts.model import Account, CodePurpose, LoginSession, LoginType
from core.accounts.password_policy import PasswordPolicy
from core.accounts.registration import RecoverPassword, RegisterAccount, SendVerificationCode
from core.accounts.verification import VerificationCode
from core.notifications.model import Channel
from core.shared.edition import Edition
from core.shared.errors import (
    CodeSentTooOften,
    ContactAlreadyBound,
    InvalidInput,
    TooManyAttempts,
    WrongVerificationCode,
)
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeHasher, FakeUnitOfWork

KEY = b"secret"
POLICY = PasswordPolicy({"password", "qwerty"})


@pytest.fixture
def world():
    uow, clock = FakeUnitOfWork(), MutableClock()
    uow.accounts.add(Account(None, "alice_01", "v2:Old#Pass2026", phone="13800000001"))
    return uow, clock, SendVerificationCode(uow, clock, Edition.DOMESTIC, KEY)


def send(sender, target="13912345678", purpose=CodePurpose.REGISTER):
    sender(SendCode(Channel.PHONE, target, purpose, "zh-CN"))


def test_a_code_is_six_digits_single_use_and_lives_ten_minutes():
    clock = MutableClock()
    code, record = VerificationCode.issue(Channel.PHONE, "139", CodePurpose.REGISTER, clock.now(), KEY)
    assert len(code) == 6 and code.isdigit() and code not in record.code_digest
    assert not record.redeem(code, clock.now() + timedelta(minutes=10), KEY)
    assert record.redeem(code, clock.now(), KEY)
    assert not record.redeem(code, clock.now(), KEY)


def test_five_wrong_checks_burn_a_code():
    clock = MutableClock()
    code, record = VerificationCode.issue(Channel.PHONE, "139", CodePurpose.REGISTER, clock.now(), KEY)
    for _ in range(5):
        assert not record.redeem("x", clock.now(), KEY)
    assert not record.redeem(code, clock.now(), KEY)


def test_a_sent_code_goes_to_the_outbox_in_the_caller_s_language(world):
    uow, _, sender = world
    send(sender)
    (message,) = uow.outbox.rows
    assert (message.recipient, message.language, message.template) == ("13912345678", "zh-CN", "verification_code")
    assert uow.codes.rows[0].redeem(message.params["code"], uow.codes.rows[0].created_at, KEY)


def test_one_code_a_minute_and_ten_an_hour(world):
    _, clock, sender = world
    send(sender)
    with pytest.raises(CodeSentTooOften) as soon:
        send(sender)
    assert soon.value.params == {"seconds": 60}
    for _ in range(9):
        clock.advance(seconds=60)
        send(sender)
    clock.advance(seconds=60)
    with pytest.raises(TooManyAttempts):
        send(sender)


def test_a_bound_number_gets_no_sign_up_code(world):
    _, _, sender = world
    with pytest.raises(ContactAlreadyBound):
        send(sender, target="13800000001")


def test_a_recovery_code_for_a_number_nobody_owns_is_recorded_but_never_sent(world):
    uow, _, sender = world
    send(sender, target="13999999999", purpose=CodePurpose.RESET_PASSWORD)
    assert len(uow.codes.rows) == 1 and uow.outbox.rows == []


@pytest.mark.parametrize("edition,phone,ok", [
    (Edition.DOMESTIC, "13912345678", True), (Edition.DOMESTIC, "12025550123", False),
    (Edition.INTERNATIONAL, "12025550123", True), (Edition.INTERNATIONAL, "+12025550123", False),
])
def test_the_phone_pattern_depends_on_the_edition(edition, phone, ok):
    sender = SendVerificationCode(FakeUnitOfWork(), MutableClock(), edition, KEY)
    if ok:
        sender(SendCode(Channel.PHONE, phone, CodePurpose.REGISTER, "en-US"))
    else:
        with pytest.raises(InvalidInput):
            sender(SendCode(Channel.PHONE, phone, CodePurpose.REGISTER, "en-US"))


def test_sign_up_gives_the_personal_customer_role_and_a_session(world):
    uow, clock, sender = world
    send(sender)
    code = uow.outbox.rows[0].params["code"]
    issued = RegisterAccount(uow, FakeHasher(), POLICY, clock, Edition.DOMESTIC, KEY)(
        Register("carol_01", "New#Pass2026", Channel.PHONE, "13912345678", code))
    account = uow.accounts.by_login_name("carol_01")
    assert uow.roles.assigned[account.id] == {"customer_personal"}
    assert issued.token and account.password_hash == "v2:New#Pass2026"


def test_recovery_sets_the_password_and_revokes_sessions(world):
    uow, clock, sender = world
    _, session = LoginSession.open(1, clock.now(), LoginType.PASSWORD, None)
    uow.sessions.add(session)
    send(sender, target="13800000001", purpose=CodePurpose.RESET_PASSWORD)
    code = uow.outbox.rows[0].params["code"]
    recover = RecoverPassword(uow, FakeHasher(), POLICY, clock, Edition.DOMESTIC, KEY)
    with pytest.raises(InvalidInput):
        recover(ResetPassword(Channel.PHONE, "13800000001", code, "weak"))
    recover(ResetPassword(Channel.PHONE, "13800000001", code, "New#Pass2026"))
    assert uow.accounts.rows[1].password_hash == "v2:New#Pass2026"
    assert session.revoked_at == clock.now()
    with pytest.raises(WrongVerificationCode):
        recover(ResetPassword(Channel.PHONE, "13800000001", code, "Other#Pass2026"))
