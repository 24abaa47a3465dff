"""Logging in and out, and checking the bearer token on every call."""

from __future__ import annotations

import math
from datetime import datetime

from core.accounts.captcha import Captcha
from core.accounts.commands import LogIn, SwitchPlatform
from core.accounts.failure_notice import failure_notice
from core.accounts.login_code import check_captcha, code_address
from core.accounts.model import Account, CodePurpose, IssuedToken, LoginSession, LoginType, Principal, digest
from core.accounts.ports import AccountsUnitOfWork, CaptchaRenderer, PasswordHasher
from core.accounts.registration import redeem_code
from core.accounts.throttling import (
    CAPTCHA_WINDOW,
    KEPT_FOR,
    NOTICE_WINDOW,
    PROTECTION,
    Failure,
    Hold,
    address_key,
    captcha_scopes,
    name_key,
    notice_due,
    pair_wait,
    under_distributed_attack,
)
from core.shared.clock import Clock
from core.shared.errors import (
    AccountDisabled,
    AccountProtected,
    BadCredentials,
    CaptchaRequired,
    NotAuthenticated,
    TooManyAttempts,
    WrongPassword,
    WrongVerificationCode,
)

MAX_TOKEN_LENGTH = 128


class CredentialCheck:
    """Checks a name and password under the throttling policy (core.accounts.throttling).
    Failures are recorded, and the owner told, in the caller's transaction; the caller commits
    before raising."""

    def __init__(self, hasher: PasswordHasher, default_language: str) -> None:
        self._hasher, self._default_language = hasher, default_language
        self._decoy_hash: str | None = None

    def _decoy(self) -> str:
        # Verifying against a real hash when the user does not exist keeps the answer time the
        # same, so timing does not tell which user names exist.
        if self._decoy_hash is None:
            self._decoy_hash = self._hasher.hash("decoy password, never valid")
        return self._decoy_hash

    def ensure_not_slowed(self, uow: AccountsUnitOfWork, name: str, address: str | None,
                          now: datetime) -> list[Failure]:
        """Refuses (429) while this address must still wait before trying this name again;
        returns the name's recent failures."""
        failures = uow.throttle.failures_of(name_key(name), now - KEPT_FOR)
        wait = pair_wait(failures, address_key(address), now)
        if wait is not None:
            raise TooManyAttempts(math.ceil(wait.total_seconds()))
        return failures

    @staticmethod
    def _protected(uow: AccountsUnitOfWork, name: str, now: datetime) -> bool:
        return uow.throttle.held_until(Hold.PROTECTED, name_key(name), now) is not None

    @staticmethod
    def _ask_for_captcha(uow: AccountsUnitOfWork, name: str, address: str | None, failures: list[Failure],
                         now: datetime) -> bool:
        """Whether the name or the address needs the image code now (asked for before, or due by
        the failures); each that does keeps needing it for CAPTCHA_WINDOW from now, since the
        client is about to be told to show it."""
        keys = {Hold.CAPTCHA_NAME: name_key(name), Hold.CAPTCHA_ADDRESS: address_key(address)}
        held = {hold for hold, key in keys.items() if uow.throttle.held_until(hold, key, now) is not None}
        names = uow.throttle.names_failing_from(address_key(address), now - CAPTCHA_WINDOW)
        asked = held | captcha_scopes(failures, names, now)
        for hold in asked:
            uow.throttle.hold(hold, keys[hold], now + CAPTCHA_WINDOW)
        return bool(asked)

    def refusal_without_captcha(self, uow: AccountsUnitOfWork, name: str, address: str | None, failures: list[Failure],
                                now: datetime) -> Exception | None:
        """Why a password login without the image code is refused (1015, 1014), if it is."""
        if self._protected(uow, name, now):
            return AccountProtected()
        if self._ask_for_captcha(uow, name, address, failures, now):
            return CaptchaRequired()
        return None

    def next_needs_captcha(self, uow: AccountsUnitOfWork, name: str, address: str | None, failures: list[Failure],
                           now: datetime) -> bool:
        """After a failure: whether the next login of the name from the address needs the image code."""
        return self._ask_for_captcha(uow, name, address, failures, now) or self._protected(uow, name, now)

    def record_failure(self, uow: AccountsUnitOfWork, name: str, address: str | None, account: Account | None,
                       now: datetime) -> list[Failure]:
        """Counts the failure; returns the name's recent failures, this one included."""
        key = name_key(name)
        uow.throttle.add_failure(key, address_key(address), now)
        failures = uow.throttle.failures_of(key, now - KEPT_FOR)
        if under_distributed_attack(failures, now):
            uow.throttle.hold(Hold.PROTECTED, key, now + PROTECTION)
        due = notice_due(failures, now)
        if account is not None and due is not None:
            self._tell_owner(uow, account, due, now)
        return failures

    def _tell_owner(self, uow: AccountsUnitOfWork, account: Account, failures: list[Failure], now: datetime) -> None:
        hold_key = f"account:{account.id}"  # once an hour whichever of the account's names is attacked
        if uow.throttle.held_until(Hold.NOTICE, hold_key, now) is not None:
            return
        message = failure_notice(account, failures, now, self._default_language)
        if message is not None:
            uow.outbox.add(message)
            uow.throttle.hold(Hold.NOTICE, hold_key, now + NOTICE_WINDOW)

    def verify(self, uow: AccountsUnitOfWork, account: Account | None, password: str) -> bool:
        if account is None:
            self._hasher.verify(self._decoy(), password)
            return False
        if not self._hasher.verify(account.password_hash, password):
            return False
        if self._hasher.needs_rehash(account.password_hash):
            uow.accounts.set_password_hash(account.stored_id, self._hasher.hash(password))
        return True

    @staticmethod
    def succeeded(uow: AccountsUnitOfWork, name: str, address: str | None) -> None:
        """The owner's own mistakes from this address are forgiven; failures from elsewhere stay
        counted, so a login by the owner does not lift what an attack set off."""
        uow.throttle.clear_pair(name_key(name), address_key(address))


class Login:
    def __init__(self, uow: AccountsUnitOfWork, credentials: CredentialCheck, clock: Clock, secret_key: bytes) -> None:
        self._uow, self._credentials, self._clock, self._key = uow, credentials, clock, secret_key

    def __call__(self, cmd: LogIn) -> IssuedToken:
        if cmd.login_code is not None:
            return self._with_code(cmd, cmd.login_code)
        now = self._clock.now()
        with self._uow as uow:
            failures = self._credentials.ensure_not_slowed(uow, cmd.user_name, cmd.client_address, now)
            if cmd.captcha_answer is not None:
                check_captcha(uow, cmd.captcha_id, cmd.captcha_answer, now, self._key)
            else:
                refusal = self._credentials.refusal_without_captcha(uow, cmd.user_name, cmd.client_address,
                                                                    failures, now)
                if refusal is not None:
                    uow.commit()  # the image code stays asked for
                    raise refusal
            account = uow.accounts.by_login_name(cmd.user_name)
            verified = self._credentials.verify(uow, account, cmd.password or "")  # hashes even for no account
            outcome: IssuedToken | Exception
            if account is None or not verified:
                failures = self._credentials.record_failure(uow, cmd.user_name, cmd.client_address, account, now)
                outcome = BadCredentials(captcha_required=self._credentials.next_needs_captcha(
                    uow, cmd.user_name, cmd.client_address, failures, now))
            elif not account.enabled:
                outcome = AccountDisabled()
            else:
                outcome = self._open(uow, account, cmd, now)
            uow.commit()
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def _with_code(self, cmd: LogIn, login_code: str) -> IssuedToken:
        """A one-time code sent to the owner stands for the password and the image code; it is
        not slowed per address, so an attacker sharing the owner's address cannot keep them out."""
        now = self._clock.now()
        with self._uow as uow:
            account = uow.accounts.by_login_name(cmd.user_name)
            channel, target = code_address(account, cmd.user_name)
            redeemed = redeem_code(uow, channel, target, CodePurpose.LOGIN, login_code, now, self._key)
            if not redeemed or account is None or not account.enabled:
                uow.commit()  # the check counts against the code
                raise AccountDisabled() if redeemed and account is not None else WrongVerificationCode()
            token = self._open(uow, account, cmd, now)
            uow.commit()
        return token

    def _open(self, uow: AccountsUnitOfWork, account: Account, cmd: LogIn, now: datetime) -> IssuedToken:
        self._credentials.succeeded(uow, cmd.user_name, cmd.client_address)
        if cmd.language and not account.language:
            # The first login gives the account the language it came in with; after that the
            # account's own (chosen in the header or on the account page) wins, and the console
            # takes it up on every browser the owner logs in from.
            uow.accounts.set_language(account.stored_id, cmd.language)
        token, session = LoginSession.open(account.stored_id, now, cmd.login_type, cmd.client_address)
        uow.sessions.add(session)
        return token


class SwitchToPlatform:
    """The user menu's Change platform: the caller confirms their own credentials and gets a new
    token for the other platform. Slowed per address like a login; its failures count too."""

    def __init__(self, uow: AccountsUnitOfWork, credentials: CredentialCheck, clock: Clock) -> None:
        self._uow, self._credentials, self._clock = uow, credentials, clock

    def __call__(self, cmd: SwitchPlatform) -> IssuedToken:
        now = self._clock.now()
        token = None
        with self._uow as uow:
            self._credentials.ensure_not_slowed(uow, cmd.user_name, cmd.client_address, now)
            caller = uow.accounts.get(cmd.account_id)
            named = uow.accounts.by_login_name(cmd.user_name)
            same = caller is not None and named is not None and named.id == caller.id
            if not self._credentials.verify(uow, caller if same else None, cmd.password):
                self._credentials.record_failure(uow, cmd.user_name, cmd.client_address, caller if same else None,
                                                 now)
            else:
                self._credentials.succeeded(uow, cmd.user_name, cmd.client_address)
                token, session = LoginSession.open(cmd.account_id, now, LoginType.PLATFORM_SWITCH,
                                                   cmd.client_address)
                uow.sessions.add(session)
            uow.commit()
        if token is None:
            raise WrongPassword()
        return token


class Authenticate:
    def __init__(self, uow: AccountsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, token: str | None) -> Principal:
        if not token or len(token) > MAX_TOKEN_LENGTH:
            raise NotAuthenticated()
        with self._uow as uow:
            bearer = uow.sessions.bearer(digest(token))
        principal = bearer.principal_at(self._clock.now()) if bearer is not None else None
        if principal is None:
            raise NotAuthenticated()
        return principal


class Logout:
    def __init__(self, uow: AccountsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, principal: Principal) -> None:
        with self._uow as uow:
            uow.sessions.revoke(principal.session_id, self._clock.now())
            uow.commit()


class IssueCaptcha:
    def __init__(self, uow: AccountsUnitOfWork, renderer: CaptchaRenderer, clock: Clock, secret_key: bytes) -> None:
        self._uow, self._renderer, self._clock, self._key = uow, renderer, clock, secret_key

    def __call__(self) -> tuple[str, bytes]:
        now = self._clock.now()
        text, captcha = Captcha.issue(now, self._key)
        with self._uow as uow:
            uow.captchas.purge_expired(now)
            uow.captchas.add(captcha)
            uow.commit()
        return captcha.id, self._renderer.render(text)
