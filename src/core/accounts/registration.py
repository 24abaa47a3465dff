"""Verification codes, sign-up and password recovery."""

from __future__ import annotations

import math
from datetime import timedelta

from core.accounts.commands import Register, ResetPassword, SendCode
from core.accounts.model import (
    Account,
    AccountType,
    CodePurpose,
    IssuedToken,
    LoginSession,
    LoginType,
    UserProfile,
)
from core.accounts.password_policy import PasswordPolicy
from core.accounts.ports import AccountsUnitOfWork, PasswordHasher
from core.accounts.rules import email_problem, phone_problem, user_name_problem
from core.accounts.verification import MAX_SENDS_PER_HOUR, RESEND_AFTER, VerificationCode
from core.notifications.model import VERIFICATION_CODE, Channel, OutboundMessage
from core.permissions.roles import PERSONAL_CUSTOMER
from core.shared.clock import Clock
from core.shared.edition import Edition
from core.shared.errors import (
    CodeSentTooOften,
    ContactAlreadyBound,
    InvalidInput,
    TooManyAttempts,
    UserAlreadyExists,
    WrongVerificationCode,
)


def check_contact(channel: Channel, target: str, edition: Edition) -> None:
    problem = phone_problem(target, edition) if channel is Channel.PHONE else email_problem(target)
    if problem:
        raise InvalidInput(channel.value, problem)


def check_new_password(policy: PasswordPolicy, password: str, user_name: str | None = None,
                       field: str = "accountPassword") -> None:
    problem = policy.problem(password, user_name)
    if problem:
        raise InvalidInput(field, problem)


class SendVerificationCode:
    def __init__(self, uow: AccountsUnitOfWork, clock: Clock, edition: Edition, secret_key: bytes) -> None:
        self._uow, self._clock, self._edition, self._key = uow, clock, edition, secret_key

    def __call__(self, cmd: SendCode) -> None:
        check_contact(cmd.channel, cmd.target, self._edition)
        now = self._clock.now()
        with self._uow as uow:
            owner = uow.accounts.by_contact(cmd.channel, cmd.target)
            if cmd.purpose in (CodePurpose.REGISTER, CodePurpose.BIND) and owner is not None:
                raise ContactAlreadyBound()
            last = uow.codes.latest(cmd.channel, cmd.target, cmd.purpose)
            if last is not None and now - last.created_at < RESEND_AFTER:
                wait = RESEND_AFTER - (now - last.created_at)
                raise CodeSentTooOften(seconds=math.ceil(wait.total_seconds()))
            if uow.codes.sent_since(cmd.channel, cmd.target, now - timedelta(hours=1)) >= MAX_SENDS_PER_HOUR:
                raise TooManyAttempts(3600)
            code, record = VerificationCode.issue(cmd.channel, cmd.target, cmd.purpose, now, self._key)
            uow.codes.add(record)
            # A recovery code for an address nobody owns is recorded (so the cool-down answers
            # alike) but never sent: the answer must not tell whether the account exists.
            if cmd.purpose is not CodePurpose.RESET_PASSWORD or owner is not None:
                uow.outbox.add(OutboundMessage(cmd.channel, cmd.target, VERIFICATION_CODE,
                                               {"code": code, "purpose": int(cmd.purpose)},
                                               cmd.language, now))
            uow.commit()


def redeem_code(uow: AccountsUnitOfWork, channel: Channel, target: str, purpose: CodePurpose, code: str, now,
                key: bytes) -> bool:
    record = uow.codes.latest(channel, target, purpose)
    if record is None:
        return False
    ok = record.redeem(code, now, key)
    uow.codes.save(record)
    return ok


class RegisterAccount:
    def __init__(self, uow: AccountsUnitOfWork, hasher: PasswordHasher, policy: PasswordPolicy, clock: Clock,
                 edition: Edition, secret_key: bytes) -> None:
        self._uow, self._hasher, self._policy, self._clock = uow, hasher, policy, clock
        self._edition, self._key = edition, secret_key

    def __call__(self, cmd: Register) -> IssuedToken:
        problem = user_name_problem(cmd.user_name)
        if problem:
            raise InvalidInput("userName", problem)
        check_new_password(self._policy, cmd.password, cmd.user_name)
        check_contact(cmd.channel, cmd.target, self._edition)
        now = self._clock.now()
        with self._uow as uow:
            if not redeem_code(uow, cmd.channel, cmd.target, CodePurpose.REGISTER, cmd.code, now, self._key):
                uow.commit()  # the failed check counts against the code
                raise WrongVerificationCode()
            if uow.accounts.user_name_taken(cmd.user_name):
                raise UserAlreadyExists()
            if uow.accounts.by_contact(cmd.channel, cmd.target) is not None:
                raise ContactAlreadyBound()
            account = uow.accounts.add(Account(
                id=None, user_name=cmd.user_name, password_hash=self._hasher.hash(cmd.password),
                phone=cmd.target if cmd.channel is Channel.PHONE else None,
                email=cmd.target if cmd.channel is Channel.EMAIL else None,
                account_type=AccountType.PERSONAL, created_at=now,
            ))
            uow.roles.assign(account.stored_id, PERSONAL_CUSTOMER.code)
            uow.accounts.save_profile(UserProfile(account.stored_id))
            token, session = LoginSession.open(account.stored_id, now, LoginType.REGISTRATION, cmd.client_address)
            uow.sessions.add(session)
            uow.commit()
        return token


class RecoverPassword:
    def __init__(self, uow: AccountsUnitOfWork, hasher: PasswordHasher, policy: PasswordPolicy, clock: Clock,
                 edition: Edition, secret_key: bytes) -> None:
        self._uow, self._hasher, self._policy, self._clock = uow, hasher, policy, clock
        self._edition, self._key = edition, secret_key

    def __call__(self, cmd: ResetPassword) -> None:
        check_new_password(self._policy, cmd.new_password)
        check_contact(cmd.channel, cmd.target, self._edition)
        now = self._clock.now()
        with self._uow as uow:
            redeemed = redeem_code(uow, cmd.channel, cmd.target, CodePurpose.RESET_PASSWORD, cmd.code, now, self._key)
            account = uow.accounts.by_contact(cmd.channel, cmd.target)
            if not redeemed or account is None:
                uow.commit()
                raise WrongVerificationCode()
            # Only now is the user name known; leaving without a commit keeps the code usable.
            check_new_password(self._policy, cmd.new_password, account.user_name)
            uow.accounts.set_password_hash(account.stored_id, self._hasher.hash(cmd.new_password))
            # A new password ends every session opened with the old one.
            uow.sessions.revoke_all(account.stored_id, now)
            uow.commit()
