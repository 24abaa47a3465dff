"""The caller's own account: accountInfo, scene permissions, profile."""

from __future__ import annotations

import functools
from zoneinfo import available_timezones

from core.accounts.commands import BindContact, ChangeBaseInfo, ChangeCredentials, ChangePreferences, UpdateProfile
from core.accounts.info import AccountInfo, PremiumState
from core.accounts.model import Account, CodePurpose, Principal
from core.accounts.password_policy import PasswordPolicy
from core.accounts.ports import AccountsUnitOfWork, PasswordHasher, PhotoStore
from core.accounts.registration import check_contact, check_new_password, redeem_code
from core.accounts.rules import company_problem, password_change_problems, real_name_problem
from core.accounts.session import CredentialCheck
from core.notifications.model import Channel
from core.permissions.scenes import available_scenes
from core.platform.model import IDENTITY, INDUSTRY
from core.shared.clock import Clock
from core.shared.edition import LANGUAGES, Edition
from core.shared.errors import (
    ContactAlreadyBound,
    ContactAlreadySet,
    InvalidInput,
    NotAuthenticated,
    NotFound,
    WrongPassword,
    WrongVerificationCode,
)
from core.shared.messages import N_


def _caller(uow: AccountsUnitOfWork, account_id: int) -> Account:
    """The signed-in caller's account; gone since the session began, the caller is signed out."""
    account = uow.accounts.get(account_id)
    if account is None:
        raise NotAuthenticated()
    return account


class GetAccountInfo:
    def __init__(self, uow: AccountsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, caller: Principal) -> AccountInfo:
        with self._uow as uow:
            stored = uow.account_info.of(caller.account_id)
        if stored is None:
            raise NotAuthenticated()  # gone since the token check
        return AccountInfo(
            account=stored.account,
            profile=stored.profile,
            permissions=sorted(caller.permissions),
            organizations=stored.organizations,
            premium=PremiumState.at(stored.premium_until, self._clock.now()),
            scenes=available_scenes(caller.permissions),
        )


class UpdateUserProfile:
    def __init__(self, uow: AccountsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, cmd: UpdateProfile) -> None:
        with self._uow as uow:
            for field, data_type, value in (("elitechIdentity", IDENTITY, cmd.elitech_identity),
                                            ("elitechIndustry", INDUSTRY, cmd.elitech_industry)):
                if value is not None and not uow.dictionary.has(data_type, value):
                    raise InvalidInput(field, N_("Choose one of the listed values"))
            profile = uow.accounts.profile(cmd.account_id)
            for attribute in ("elitech_identity", "elitech_industry", "home_page", "enable_protect"):
                value = getattr(cmd, attribute)
                if value is not None:
                    setattr(profile, attribute, value)
            uow.accounts.save_profile(profile)
            uow.commit()


class ChangeAccountBaseInfo:
    def __init__(self, uow: AccountsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, cmd: ChangeBaseInfo) -> None:
        problems = {}
        if cmd.real_name is not None and (problem := real_name_problem(cmd.real_name)):
            problems["realName"] = problem
        if cmd.company is not None and (problem := company_problem(cmd.company)):
            problems["company"] = problem
        if problems:
            raise InvalidInput.of(problems)
        with self._uow as uow:
            account = _caller(uow, cmd.account_id)
            uow.accounts.set_base_info(
                cmd.account_id,
                cmd.real_name.strip() if cmd.real_name is not None else account.real_name,
                cmd.company.strip() if cmd.company is not None else account.company,
            )
            uow.commit()


class ChangeAccountCredentials:
    """Password and/or phone (e-mail) change, confirmed by the current password, which is
    throttled like a login. A new password ends every other session of the account."""

    def __init__(self, uow: AccountsUnitOfWork, credentials: CredentialCheck, hasher: PasswordHasher,
                 policy: PasswordPolicy, clock: Clock, edition: Edition, secret_key: bytes) -> None:
        self._uow, self._credentials, self._hasher, self._clock = uow, credentials, hasher, clock
        self._policy, self._edition, self._key = policy, edition, secret_key

    def __call__(self, cmd: ChangeCredentials) -> None:
        problems = {}
        if cmd.new_password is not None:
            problems.update(password_change_problems(cmd.current_password, cmd.new_password,
                                                     cmd.confirm_password or ""))
        if cmd.new_contact is not None:
            try:
                check_contact(cmd.channel, cmd.new_contact, self._edition)
            except InvalidInput as error:
                problems.update(error.problems)
        if problems:
            raise InvalidInput.of(problems)
        now = self._clock.now()
        failure: Exception | None = None
        with self._uow as uow:
            account = _caller(uow, cmd.account_id)
            if cmd.new_password is not None:
                check_new_password(self._policy, cmd.new_password, account.user_name, field="newPassword")
            self._credentials.ensure_not_slowed(uow, account.user_name, cmd.client_address, now)
            if not self._credentials.verify(uow, account, cmd.current_password):
                self._credentials.record_failure(uow, account.user_name, cmd.client_address, account, now)
                failure = WrongPassword()
            elif cmd.new_contact is not None and not redeem_code(
                    uow, cmd.channel, cmd.new_contact, CodePurpose.BIND, cmd.code or "", now, self._key):
                failure = WrongVerificationCode()
            if failure is not None:
                uow.commit()  # the failure counts (throttling, code checks)
                raise failure
            if cmd.new_contact is not None:
                owner = uow.accounts.by_contact(cmd.channel, cmd.new_contact)
                if owner is not None and owner.id != account.id:
                    raise ContactAlreadyBound()
                uow.accounts.set_contact(cmd.account_id, cmd.channel, cmd.new_contact)
            if cmd.new_password is not None:
                uow.accounts.set_password_hash(cmd.account_id, self._hasher.hash(cmd.new_password))
                uow.sessions.revoke_all(cmd.account_id, now, keep_session_id=cmd.session_id)
            uow.commit()


class BindAccountContact:
    """Binds a phone or e-mail to a signed-in account that has none (after a third-party login),
    proven by a code sent to it. Replacing an existing one goes through ChangeAccountCredentials,
    which asks for the password: a session alone must not move the recovery channel."""

    def __init__(self, uow: AccountsUnitOfWork, clock: Clock, edition: Edition, secret_key: bytes) -> None:
        self._uow, self._clock, self._edition, self._key = uow, clock, edition, secret_key

    def __call__(self, cmd: BindContact) -> None:
        check_contact(cmd.channel, cmd.target, self._edition)
        now = self._clock.now()
        with self._uow as uow:
            account = _caller(uow, cmd.account_id)
            if (account.phone if cmd.channel is Channel.PHONE else account.email):
                raise ContactAlreadySet()
            if not redeem_code(uow, cmd.channel, cmd.target, CodePurpose.BIND, cmd.code, now, self._key):
                uow.commit()
                raise WrongVerificationCode()
            owner = uow.accounts.by_contact(cmd.channel, cmd.target)
            if owner is not None and owner.id != account.id:
                raise ContactAlreadyBound()
            uow.accounts.set_contact(cmd.account_id, cmd.channel, cmd.target)
            uow.commit()


@functools.cache
def _time_zones() -> frozenset[str]:
    return frozenset(available_timezones())


def time_zone_problem(name: str) -> str | None:
    return None if name in _time_zones() else N_("Choose a time zone from the list")


class ChangeAccountPreferences:
    """The language and time zone the console and the messages to the owner use."""

    def __init__(self, uow: AccountsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, cmd: ChangePreferences) -> None:
        problems = {}
        if cmd.language is not None and cmd.language not in LANGUAGES:
            problems["language"] = N_("Choose one of the listed values")
        if cmd.time_zone is not None and (problem := time_zone_problem(cmd.time_zone)):
            problems["timeZone"] = problem
        if problems:
            raise InvalidInput.of(problems)
        with self._uow as uow:
            account = _caller(uow, cmd.account_id)
            uow.accounts.set_preferences(cmd.account_id, cmd.language or account.language or LANGUAGES[0],
                                         cmd.time_zone if cmd.time_zone is not None else account.time_zone)
            uow.commit()


class ChangeAccountPhoto:
    """A new picture replaces the old, whose file goes once the new one is recorded."""

    def __init__(self, uow: AccountsUnitOfWork, photos: PhotoStore) -> None:
        self._uow, self._photos = uow, photos

    def __call__(self, account_id: int, data: bytes) -> str:
        name = self._photos.store(account_id, data)
        try:
            with self._uow as uow:
                old = _caller(uow, account_id).photo_url
                uow.accounts.set_photo(account_id, name)
                uow.commit()
        except BaseException:
            self._photos.discard(name)
            raise
        if old and old != name:
            self._photos.discard(old)
        return name


class GetAccountPhoto:
    def __init__(self, uow: AccountsUnitOfWork, photos: PhotoStore) -> None:
        self._uow, self._photos = uow, photos

    def __call__(self, account_id: int) -> bytes:
        with self._uow as uow:
            name = _caller(uow, account_id).photo_url
        data = self._photos.load(name) if name else None
        if data is None:
            raise NotFound()
        return data
