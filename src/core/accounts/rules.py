"""Validation rules for accounts (spec seed 001 section 5).

Each rule returns None when the value is fine, or the message id of the problem, so the edge can
report it against the right field and the core can re-check it.
"""

from __future__ import annotations

import re

from core.shared.edition import Edition
from core.shared.messages import N_

USER_NAME_MIN, USER_NAME_MAX = 6, 50
PASSWORD_MIN, PASSWORD_MAX = 8, 20
# What a login form accepts for a password; longer input is refused before any hashing work.
LOGIN_PASSWORD_MAX = 128
# A user name, phone number or e-mail address as a login form takes it, also once normalised.
LOGIN_NAME_MAX = 200
EMAIL_MAX = 200
REAL_NAME_MAX = 20
COMPANY_MIN, COMPANY_MAX = 2, 50

_CJK = "\u4e00-\u9fa5"
_USER_NAME = re.compile(rf"^[A-Za-z{_CJK}][A-Za-z0-9_{_CJK}]*$")
_MAINLAND_PHONE = re.compile(r"^1[3-9]\d{9}$")
_FOREIGN_PHONE = re.compile(r"^\d{5,15}$")
_EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$")


def user_name_problem(name: str) -> str | None:
    if not USER_NAME_MIN <= len(name) <= USER_NAME_MAX:
        return N_("User name must be 6 to 50 characters")
    if not _USER_NAME.match(name):
        return N_("User name may hold Chinese characters, letters, digits and underscores, "
                  "and may not start with a digit or an underscore")
    return None


def password_problem(password: str) -> str | None:
    """The newer rule of the spec: 8-20 characters with a digit, an upper-case letter, a
    lower-case letter and a special character. Whitespace is never part of a password."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return N_("Password must be 8 to 20 characters")
    if any(ch.isspace() for ch in password):
        return N_("Password may not contain spaces")
    kinds = (
        any(ch.isdigit() for ch in password),
        any(ch.isupper() for ch in password),
        any(ch.islower() for ch in password),
        any(not ch.isalnum() for ch in password),
    )
    if not all(kinds):
        return N_("Weak password: use digits, upper-case and lower-case letters and a special character")
    return None


def phone_problem(phone: str, edition: Edition) -> str | None:
    pattern = _MAINLAND_PHONE if edition is Edition.DOMESTIC else _FOREIGN_PHONE
    if not pattern.match(phone):
        if edition is Edition.DOMESTIC:
            return N_("Enter an 11-digit mobile phone number")
        return N_("Enter a phone number of digits only")
    return None


def email_problem(email: str) -> str | None:
    if len(email) > EMAIL_MAX or not _EMAIL.match(email):
        return N_("Enter a valid e-mail address")
    return None


def real_name_problem(name: str) -> str | None:
    if not name.strip() or len(name) > REAL_NAME_MAX:
        return N_("Real name must be 1 to 20 characters")
    return None


def company_problem(company: str) -> str | None:
    if not COMPANY_MIN <= len(company.strip()) <= COMPANY_MAX:
        return N_("Company name must be 2 to 50 characters")
    return None


def password_change_problems(old: str, new: str, confirm: str) -> dict[str, str]:
    """The generic form's rules: the confirmation equals the new password once whitespace is
    trimmed, and the new password differs from the old one."""
    problems = {}
    rule = password_problem(new)
    if rule:
        problems["newPassword"] = rule
    elif new == old:
        problems["newPassword"] = N_("The new password must differ from the old one")
    if confirm.strip() != new.strip():
        problems["confirmPassword"] = N_("The two passwords do not match")
    return problems


def normalize_login_name(name: str) -> str:
    """The key under which failed logins are counted: the same for any spelling of one name."""
    return name.strip().casefold()
