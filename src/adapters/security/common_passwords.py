"""The most common passwords, from the frequency lists zxcvbn ships (30,000 passwords of leaked
sets, lower-cased, most frequent first); bundled with the package, never fetched at run time."""

from __future__ import annotations

from functools import cache


@cache
def common_passwords() -> frozenset[str]:
    # Imported on first use: the module holds all of zxcvbn's lists (about 0.8 MB of source).
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(FREQUENCY_LISTS["passwords"])
