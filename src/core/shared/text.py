"""What a name or a short text typed by a person may hold, the same rule for every context."""

from __future__ import annotations

import unicodedata

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
