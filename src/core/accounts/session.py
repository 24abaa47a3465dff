"""Logging in and out, and checking the bearer token on every call."""

from __future__ import annotations

import math
from datetime import datetime

from core.accounts.captcha import Captcha
from core.accounts.commands import LogIn, SwitchPlatform
from core.accounts.model import Account, IssuedToken, LoginSession, LoginType, Principal, digest
from core.accounts.ports import CaptchaRenderer, PasswordHasher
from core.accounts.rules import normalize_login_name
from core.accounts.throttling import RULES, ThrottleScope
from core.shared.clock import Clock
from core.shared.errors import (
    AccountDisabled,
    BadCredentials,
    NotAuthenticated,
    TooManyAttempts,
    WrongCaptcha,
    WrongPassword,
)
from core.shared.unit_of_work import UnitOfWork

MAX_TOKEN_LENGTH = 128


class CredentialCheck:
    """Checks a name and password under the throttling policy. Failures are counted and locks
    set in the caller's transaction; the caller commits before raising."""

    def __init__(self, hasher: PasswordHasher) -> None:
        self._hasher = hasher
        self._decoy_hash: str | None = None

    def _decoy(self) -> str:
        # Verifying against a real hash when the user does not exist keeps the answer time the
        # same, so timing does not tell which user names exist.
        if self._decoy_hash is None:
            self._decoy_hash = self._hasher.hash("decoy password, never valid")
        return self._decoy_hash

    @staticmethod
    def _keys(name: str, address: str | None) -> dict[ThrottleScope, str]:
        return {ThrottleScope.ACCOUNT: normalize_login_name(name),
                ThrottleScope.ADDRESS: address or "unknown"}

    def ensure_not_locked(self, uow: UnitOfWork, name: str, address: str | None, now: datetime) -> None:
        until = [uow.throttle.locked_until(scope, key, now) for scope, key in self._keys(name, address).items()]
        latest = max((u for u in until if u is not None), default=None)
        if latest is not None:
            raise TooManyAttempts(math.ceil((latest - now).total_seconds()))

    def record_failure(self, uow: UnitOfWork, name: str, address: str | None, now: datetime) -> None:
        keys = self._keys(name, address)
        for rule in RULES:
            key = keys[rule.scope]
            uow.throttle.add_failure(rule.scope, key, now)
            if uow.throttle.failures_since(rule.scope, key, now - rule.window) >= rule.max_failures:
                uow.throttle.lock(rule.scope, key, now + rule.lock_for)

    def verify(self, uow: UnitOfWork, account: Account | None, password: str) -> bool:
        if account is None:
            self._hasher.verify(self._decoy(), password)
            return False
        if not self._hasher.verify(account.password_hash, password):
            return False
        if self._hasher.needs_rehash(account.password_hash):
            uow.accounts.set_password_hash(account.id, self._hasher.hash(password))
        return True

    def succeeded(self, uow: UnitOfWork, name: str) -> None:
        uow.throttle.clear_failures(ThrottleScope.ACCOUNT, normalize_login_name(name))


class Login:
    def __init__(self, uow: UnitOfWork, credentials: CredentialCheck, clock: Clock, secret_key: bytes) -> None:
        self._uow, self._credentials, self._clock, self._key = uow, credentials, clock, secret_key

    def __call__(self, cmd: LogIn) -> IssuedToken:
        now = self._clock.now()
        failure: Exception | None = None
        token = None
        with self._uow as uow:
            self._credentials.ensure_not_locked(uow, cmd.user_name, cmd.client_address, now)
            if cmd.captcha_answer is not None:
                captcha = uow.captchas.take(cmd.captcha_id) if cmd.captcha_id else None
                if captcha is None or not captcha.accepts(cmd.captcha_answer, now, self._key):
                    uow.commit()  # the captcha is spent either way
                    raise WrongCaptcha()
            account = uow.accounts.by_login_name(cmd.user_name)
            if not self._credentials.verify(uow, account, cmd.password):
                self._credentials.record_failure(uow, cmd.user_name, cmd.client_address, now)
                failure = BadCredentials()
            elif not account.enabled:
                failure = AccountDisabled()
            else:
                self._credentials.succeeded(uow, cmd.user_name)
                token, session = LoginSession.open(account.id, now, cmd.login_type, cmd.client_address)
                uow.sessions.add(session)
            uow.commit()
        if failure is not None:
            raise failure
        return token


class SwitchToPlatform:
    """The user menu's Change platform: the caller confirms their own credentials and gets a new
    token for the other platform. Throttled like a login."""

    def __init__(self, uow: UnitOfWork, credentials: CredentialCheck, clock: Clock) -> None:
        self._uow, self._credentials, self._clock = uow, credentials, clock

    def __call__(self, cmd: SwitchPlatform) -> IssuedToken:
        now = self._clock.now()
        token = None
        with self._uow as uow:
            self._credentials.ensure_not_locked(uow, cmd.user_name, cmd.client_address, now)
            caller = uow.accounts.get(cmd.account_id)
            named = uow.accounts.by_login_name(cmd.user_name)
            same = caller is not None and named is not None and named.id == caller.id
            if not self._credentials.verify(uow, caller if same else None, cmd.password):
                self._credentials.record_failure(uow, cmd.user_name, cmd.client_address, now)
            else:
                self._credentials.succeeded(uow, cmd.user_name)
                token, session = LoginSession.open(caller.id, now, LoginType.PLATFORM_SWITCH,
                                                   cmd.client_address)
                uow.sessions.add(session)
            uow.commit()
        if token is None:
            raise WrongPassword()
        return token


class Authenticate:
    def __init__(self, uow: UnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, token: str | None) -> Principal:
        if not token or len(token) > MAX_TOKEN_LENGTH:
            raise NotAuthenticated()
        with self._uow as uow:
            session = uow.sessions.by_digest(digest(token))
            if session is None or not session.is_valid_at(self._clock.now()):
                raise NotAuthenticated()
            account = uow.accounts.get(session.account_id)
            if account is None or not account.enabled:
                raise NotAuthenticated()
            return Principal(account.id, account.user_name, session.id)


class Logout:
    def __init__(self, uow: UnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, principal: Principal) -> None:
        with self._uow as uow:
            uow.sessions.revoke(principal.session_id, self._clock.now())
            uow.commit()


class IssueCaptcha:
    def __init__(self, uow: UnitOfWork, renderer: CaptchaRenderer, clock: Clock, secret_key: bytes) -> None:
        self._uow, self._renderer, self._clock, self._key = uow, renderer, clock, secret_key

    def __call__(self) -> tuple[str, bytes]:
        now = self._clock.now()
        text, captcha = Captcha.issue(now, self._key)
        with self._uow as uow:
            uow.captchas.purge_expired(now)
            uow.captchas.add(captcha)
            uow.commit()
        return captcha.id, self._renderer.render(text)
