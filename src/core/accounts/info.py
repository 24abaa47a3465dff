"""What the console needs to know about the caller right after login (accountInfo)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from core.accounts.model import AccountType, UserProfile
from core.permissions.scenes import Scene


@dataclass(frozen=True)
class OrganizationRole:
    organization_id: int
    organization_name: str
    role_id: int
    role_code: str
    role_name: str
    is_creator: bool


@dataclass(frozen=True)
class PremiumState:
    """state 1: an active premium membership, expired_count the whole days it has left;
    state 0: standard."""

    state: int
    expired_count: int

    @classmethod
    def at(cls, premium_until: datetime | None, now: datetime) -> PremiumState:
        if premium_until is None or premium_until <= now:
            return cls(0, 0)
        seconds = (premium_until - now).total_seconds()
        return cls(1, int(-(-seconds // 86400)))


@dataclass(frozen=True)
class BaseAccount:
    """The account as accountInfo shows it: no credentials, no status."""

    id: int
    user_name: str
    photo_url: str | None
    phone: str | None
    email: str | None
    account_type: AccountType
    real_name: str | None
    company: str | None
    language: str | None = None
    time_zone: str | None = None


@dataclass(frozen=True)
class StoredAccountInfo:
    """What accountInfo reads of the store; the permissions come with the caller."""

    account: BaseAccount
    profile: UserProfile
    organizations: list[OrganizationRole]
    premium_until: datetime | None


@dataclass(frozen=True)
class AccountInfo:
    account: BaseAccount
    profile: UserProfile
    permissions: list[str]
    organizations: list[OrganizationRole]
    premium: PremiumState
    scenes: list[Scene]
