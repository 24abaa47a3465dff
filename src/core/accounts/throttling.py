"""Login throttling policy: slow an attacker down, never lock the owner out (issue 13, item 8).

Failures are counted by the login name as typed (case-folded) and the client address:

- **One (name, address) pair**: a first slip is free; each further failure within an hour
  doubles the wait before that pair may try again (1 s, 2 s, 4 s ... at most 5 minutes; HTTP 429
  with Retry-After). An attacker's address never slows the owner's.
- **One name, from anywhere**: after 3 failures within 15 minutes a password login for the name
  must carry a right image code (1014); the right password with it gets in, even mid-attack.
- **One address, many names**: failures for 10 names or more within 15 minutes (spraying, or a
  busy office behind one NAT) ask every login from that address for the image code; nobody
  behind it is refused.
- **Once asked, kept**: the failure that brings either rule into force is answered with
  `captchaRequired`, so the login page shows the image code exactly when the server wants it; from
  that answer (and from each 1014) the name or address keeps needing the image code for 15
  minutes, even if the failures that caused it age out meanwhile.
- **Distributed attack**: 10 failures from 5 addresses or more for one name within an hour protect
  the name for an hour after the latest of them: the password alone is refused (1015), the
  password with the image code or a one-time code sent to the owner gets in.
- **The owner is told** (e-mail, else SMS) after 5 failures within an hour, at most once an hour.

Names that do not exist are counted and answered the same way, so answers tell nobody which
names exist.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

PAIR_WINDOW = timedelta(hours=1)
PAIR_FREE_FAILURES = 1  # the owner retyping at once after a slip is not kept waiting
PAIR_FIRST_WAIT = timedelta(seconds=1)
PAIR_MAX_WAIT = timedelta(minutes=5)

CAPTCHA_WINDOW = timedelta(minutes=15)
CAPTCHA_AFTER_NAME_FAILURES = 3
CAPTCHA_AFTER_ADDRESS_NAMES = 10

ATTACK_WINDOW = timedelta(hours=1)
ATTACK_FAILURES = 10
ATTACK_ADDRESSES = 5
PROTECTION = timedelta(hours=1)

NOTICE_WINDOW = timedelta(hours=1)
NOTICE_AFTER_FAILURES = 5

# The longest window any rule looks back over: older failures can be forgotten.
KEPT_FOR = max(PAIR_WINDOW, CAPTCHA_WINDOW, ATTACK_WINDOW, NOTICE_WINDOW)
# Every rule is decided by a handful of failures: under a flood only the latest are read.
FAILURES_EXAMINED = 1000
NAME_KEY_MAX = 200
UNKNOWN_ADDRESS = "unknown"


class Hold(StrEnum):
    """Time-limited marks kept per name or account."""

    PROTECTED = "protected"  # a distributed attack: password-only logins refused until then
    NOTICE = "notice"  # the owner was told: no other notice until then
    # The image code was asked for this name (key: the name key) or this address (key: the
    # address): logins without it are refused until then. Two scopes, so no typed name can
    # stand for an address.
    CAPTCHA_NAME = "captchaName"
    CAPTCHA_ADDRESS = "captchaAddress"


@dataclass(frozen=True)
class Failure:
    address: str
    at: datetime


def name_key(name: str) -> str:
    """The key failures of a login name are counted under: the same for any spelling, and never
    longer than the column that holds it (case-folding can double a name's length)."""
    key = name.strip().casefold()
    if len(key) > NAME_KEY_MAX:
        return "sha256:" + hashlib.sha256(key.encode(errors="surrogatepass")).hexdigest()
    return key


def address_key(address: str | None) -> str:
    return address or UNKNOWN_ADDRESS


def pair_wait(failures: list[Failure], address: str, now: datetime) -> timedelta | None:
    """How long this address must still wait before trying this name again, if at all."""
    mine = [f.at for f in failures if f.address == address and f.at > now - PAIR_WINDOW]
    if len(mine) <= PAIR_FREE_FAILURES:
        return None
    wait = min(PAIR_FIRST_WAIT * 2 ** (len(mine) - PAIR_FREE_FAILURES - 1), PAIR_MAX_WAIT)
    remaining = max(mine) + wait - now
    return remaining if remaining > timedelta(0) else None


def under_distributed_attack(failures: list[Failure], now: datetime) -> bool:
    recent = [f for f in failures if f.at > now - ATTACK_WINDOW]
    return len(recent) >= ATTACK_FAILURES and len({f.address for f in recent}) >= ATTACK_ADDRESSES


def captcha_scopes(failures: list[Failure], names_failing_from_address: int, now: datetime) -> set[Hold]:
    """Which of the name (its failures) and the address (its failing names) ask for the image code."""
    scopes = set()
    if sum(1 for f in failures if f.at > now - CAPTCHA_WINDOW) >= CAPTCHA_AFTER_NAME_FAILURES:
        scopes.add(Hold.CAPTCHA_NAME)
    if names_failing_from_address >= CAPTCHA_AFTER_ADDRESS_NAMES:
        scopes.add(Hold.CAPTCHA_ADDRESS)
    return scopes


def notice_due(failures: list[Failure], now: datetime) -> list[Failure] | None:
    """The failures to tell the owner about, when there are enough of them."""
    recent = [f for f in failures if f.at > now - NOTICE_WINDOW]
    return recent if len(recent) >= NOTICE_AFTER_FAILURES else None
