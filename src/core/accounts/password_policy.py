"""What a new password must not be (issue 13, item 9), on top of the spec's lengths and classes
(rules.password_problem): one of the most common passwords, or something holding the user name
or the product's name. Everything that sets a password (sign-up, recovery, change) asks this."""

from __future__ import annotations

import re
from collections.abc import Container

from core.accounts.rules import password_problem
from core.shared.messages import N_

PRODUCT_NAMES = ("coldchain", "elitech")
# Substitutions people make to dress up a word ("P@ssw0rd"), undone before comparing.
_LEET = str.maketrans({"@": "a", "4": "a", "3": "e", "1": "i", "!": "i", "0": "o", "$": "s", "5": "s",
                       "7": "t", "+": "t"})
# Digits and symbols around a word ("Password1!", "#Summer2024") do not make it less common.
_AROUND = re.compile(r"^[\W\d_]+|[\W\d_]+$")
MIN_WORD = 4  # shorter cores ("ab" of "ab123456!") say nothing about the password
MIN_USER_NAME = 3

COMMON = N_("This password is one of the most common ones and easy to guess; choose another")
HOLDS_USER_NAME = N_("The password may not contain the user name")
HOLDS_PRODUCT_NAME = N_("The password may not contain the product name")


def _spellings(text: str) -> set[str]:
    folded = text.casefold()
    return {folded, folded.translate(_LEET)}


def _cores(password: str) -> set[str]:
    cores = set()
    for spelling in _spellings(password):
        cores.add(spelling)
        core = _AROUND.sub("", spelling)
        if len(core) >= MIN_WORD:
            cores.add(core)
    return cores


class PasswordPolicy:
    def __init__(self, common_passwords: Container[str], product_names: tuple[str, ...] = PRODUCT_NAMES) -> None:
        self._common, self._products = common_passwords, product_names

    def problem(self, password: str, user_name: str | None = None) -> str | None:
        """None when the password may be used, else the message id of the first problem."""
        basic = password_problem(password)
        if basic:
            return basic
        spellings = _spellings(password)
        if user_name and len(user_name.strip()) >= MIN_USER_NAME:
            name = user_name.strip().casefold()
            if any(n in s for n in (name, name[::-1]) for s in spellings):
                return HOLDS_USER_NAME
        if any(product in s for product in self._products for s in spellings):
            return HOLDS_PRODUCT_NAME
        if any(core in self._common for core in _cores(password)):
            return COMMON
        return None
