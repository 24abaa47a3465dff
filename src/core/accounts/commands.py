from __future__ import annotations

from dataclasses import dataclass

from core.accounts.model import CodePurpose, LoginType
from core.notifications.model import Channel


@dataclass(frozen=True)
class LogIn:
    """A password login, or, with `login_code`, a login with a one-time code sent to the owner."""

    user_name: str
    password: str | None
    login_type: LoginType = LoginType.PASSWORD
    client_address: str | None = None
    captcha_id: str | None = None
    captcha_answer: str | None = None
    login_code: str | None = None
    language: str | None = None


@dataclass(frozen=True)
class RequestLoginCode:
    user_name: str
    captcha_id: str | None
    captcha_answer: str
    language: str
    client_address: str | None = None


@dataclass(frozen=True)
class SwitchPlatform:
    account_id: int
    user_name: str
    password: str
    client_address: str | None = None


@dataclass(frozen=True)
class SendCode:
    channel: Channel
    target: str
    purpose: CodePurpose
    language: str
    client_address: str | None = None


@dataclass(frozen=True)
class Register:
    user_name: str
    password: str
    channel: Channel
    target: str
    code: str
    client_address: str | None = None


@dataclass(frozen=True)
class ResetPassword:
    channel: Channel
    target: str
    code: str
    new_password: str


@dataclass(frozen=True)
class UpdateProfile:
    account_id: int
    elitech_identity: str | None = None
    elitech_industry: str | None = None
    home_page: str | None = None
    enable_protect: int | None = None


@dataclass(frozen=True)
class ChangePreferences:
    account_id: int
    language: str | None = None
    time_zone: str | None = None


@dataclass(frozen=True)
class ChangeBaseInfo:
    account_id: int
    real_name: str | None = None
    company: str | None = None


@dataclass(frozen=True)
class ChangeCredentials:
    """Change the password, or rebind the phone (or e-mail) with a code sent to the new one, or
    both; always confirmed with the current password."""

    account_id: int
    session_id: int
    current_password: str
    channel: Channel
    new_password: str | None = None
    confirm_password: str | None = None
    new_contact: str | None = None
    code: str | None = None
    client_address: str | None = None


@dataclass(frozen=True)
class BindContact:
    account_id: int
    channel: Channel
    target: str
    code: str
