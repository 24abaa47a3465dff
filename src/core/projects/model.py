"""A project and the rules of its name."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime

from core.shared.messages import N_

NAME_MIN, NAME_MAX = 2, 20  # spec 001 section 5
REMARK_MAX = 200
MAX_MOVE = 200  # devices one changeProject moves

NAME_LENGTH = N_("A project name is 2 to 20 characters")
NAME_CHARACTERS = N_("A project name may not hold emoji or control characters")
NAME_TAKEN = N_("You already have a project of this name")
REMARK_CHARACTERS = N_("The remark may not hold emoji or control characters")

# Emoji and pictographs are "other symbols" (So); control, format (ZWJ, variation selectors' kin),
# surrogate and private-use characters are invisible or unstorable. None belongs in a name.
_REFUSED_CATEGORIES = {"So", "Cc", "Cf", "Cs", "Co", "Cn"}
_VARIATION_SELECTORS = range(0xFE00, 0xFE10)


def _refused(text: str) -> bool:
    return any(unicodedata.category(ch) in _REFUSED_CATEGORIES or ord(ch) in _VARIATION_SELECTORS
               for ch in text)


def clean_name(name: str) -> str:
    """The name as stored: trimmed. Raises nothing; name_problem says what is wrong."""
    return name.strip()


def name_problem(name: str) -> str | None:
    """What is wrong with a (trimmed) project name, None when nothing is."""
    if not NAME_MIN <= len(name) <= NAME_MAX:
        return NAME_LENGTH
    if _refused(name):
        return NAME_CHARACTERS
    return None


def remark_problem(remark: str) -> str | None:
    return REMARK_CHARACTERS if _refused(remark.replace("\n", " ")) else None


def name_key(name: str) -> str:
    """What makes two names the same for one owner: case-insensitive, as people read them."""
    return name.casefold()


@dataclass
class Project:
    id: int | None
    owner_account_id: int
    name: str
    remark: str | None
    created_at: datetime
    device_count: int = 0  # its devices the reader sees (filled when read, not stored)
    online_count: int = 0
    alarm_count: int = 0
