from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import IntEnum

from core.shared.identity import Stored

TOKEN_LIFETIME = timedelta(days=7)  # 604800000 ms, spec seed 000 section 4


class AccountType(IntEnum):
    PERSONAL = 1
    ENTERPRISE = 2
    ENGINEER = 3
    DEALER = 4
    SYSTEM = 9


class AccountStatus(IntEnum):
    DISABLED = 0
    ENABLED = 1


class LoginType(IntEnum):
    PASSWORD = 1
    URL_AUTO_LOGIN = 4
    PLATFORM_SWITCH = 5
    REGISTRATION = 6


class CodePurpose(IntEnum):
    REGISTER = 1
    RESET_PASSWORD = 2
    BIND = 3
    LOGIN = 4  # a one-time code that logs the owner in without the password


@dataclass
class Account(Stored):
    id: int | None
    user_name: str
    password_hash: str
    phone: str | None = None
    email: str | None = None
    account_type: AccountType = AccountType.PERSONAL
    status: AccountStatus = AccountStatus.ENABLED
    real_name: str | None = None
    company: str | None = None
    photo_url: str | None = None
    created_at: datetime | None = None
    language: str | None = None  # of the first login, then the owner's choice: what messages to them are written in
    time_zone: str | None = None  # IANA name the owner chose; None: the edition's

    @property
    def enabled(self) -> bool:
        return self.status is AccountStatus.ENABLED


@dataclass
class UserProfile:
    account_id: int
    wallet_status: int = 0
    home_page: str | None = None
    elitech_identity: str | None = None
    elitech_industry: str | None = None
    enable_protect: int = 0
    enable_fda: int = 0


def digest(secret: str) -> str:
    """Tokens are 256-bit random values, so a plain SHA-256 is a safe way to store them."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass
class LoginSession(Stored):
    """An opaque bearer token. Only its digest is stored, so a database leak yields no tokens."""

    token_digest: str
    account_id: int
    created_at: datetime
    expires_at: datetime
    login_type: LoginType = LoginType.PASSWORD
    client_address: str | None = None
    revoked_at: datetime | None = None
    id: int | None = None

    @classmethod
    def open(cls, account_id: int, now: datetime, login_type: LoginType,
             client_address: str | None) -> tuple[IssuedToken, LoginSession]:
        token = secrets.token_urlsafe(32)
        session = cls(digest(token), account_id, now, now + TOKEN_LIFETIME, login_type, client_address)
        return IssuedToken(token, session.expires_at), session


@dataclass(frozen=True)
class IssuedToken:
    token: str
    expires_at: datetime


@dataclass(frozen=True)
class Principal:
    """Who is calling: the account behind a valid session, and what its roles let it do as the
    token check read them. It lives for one call, so a role or a session changed since shows at
    the next one."""

    account_id: int
    user_name: str
    session_id: int
    permissions: frozenset[str]


@dataclass(frozen=True)
class Bearer:
    """What a bearer token's session opens, as every call reads it: the session's lifetime, its
    account's name and status, and the permissions of the account's roles (its own and its roles
    in organizations)."""

    session_id: int
    account_id: int
    user_name: str
    expires_at: datetime
    revoked_at: datetime | None
    status: AccountStatus
    permissions: frozenset[str]

    def principal_at(self, now: datetime) -> Principal | None:
        """The caller the token stands for, unless its session ended or its account is disabled."""
        if self.revoked_at is not None or now >= self.expires_at or self.status is not AccountStatus.ENABLED:
            return None
        return Principal(self.account_id, self.user_name, self.session_id, self.permissions)
