"""What a name or a short text typed by a person may hold, and a contact's phone and e-mail (a
waybill's parties, a calibration customer): the same rule for every context."""

from __future__ import annotations

import re
import unicodedata

from core.shared.messages import N_

# Control, format (ZWJ), surrogate, private-use and unassigned characters are invisible or
# unstorable; emoji and pictographs are "other symbols" (So). None belongs in a name.
_INVISIBLE = {"Cc", "Cf", "Cs", "Co", "Cn"}
_VARIATION_SELECTORS = range(0xFE00, 0xFE10)
# The older symbols a particular may hold ("2-8 °C", "©", "№ 2", "℃") are So too: pictographs
# start at the arrows (U+2190), and the letterlike block is below them.
_LETTERLIKE = range(0x2100, 0x2150)
_PICTOGRAPHS_FROM = 0x2190


def _refused(ch: str, symbols: bool) -> bool:
    category, point = unicodedata.category(ch), ord(ch)
    if category in _INVISIBLE or point in _VARIATION_SELECTORS:
        return True
    if category != "So":
        return False
    return not symbols or (point >= _PICTOGRAPHS_FROM and point not in _LETTERLIKE)


def has_refused_characters(text: str, *, symbols: bool = False) -> bool:
    """Whether the text holds an emoji, a control, format, surrogate or private-use character;
    with `symbols`, the older symbols ("°", "©", "№", "℃") are allowed, pictographs still not."""
    return any(_refused(ch, symbols) for ch in text)


# A contact's phone and e-mail as people write them on a form (an account's own are stricter:
# core.accounts.rules).
PHONE_MAX = 20
EMAIL_MAX = 100
PHONE_FORMAT = N_("A phone number is up to 20 digits, with + - and spaces")
EMAIL_FORMAT = N_("Enter a valid e-mail address")
_PHONE = re.compile(r"^\+?[0-9][0-9 \-]*$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def contact_phone_problem(phone: str) -> str | None:
    return None if len(phone) <= PHONE_MAX and _PHONE.match(phone) else PHONE_FORMAT


def contact_email_problem(email: str) -> str | None:
    return None if len(email) <= EMAIL_MAX and _EMAIL.match(email) else EMAIL_FORMAT
