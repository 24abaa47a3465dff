"""Login throttling policy.

After 5 failures for one login name within 15 minutes that name is refused for 15 minutes; after
50 failures from one client address within 15 minutes that address is refused for 15 minutes.
Failures are counted by the name as typed, so the answer never tells whether the account exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum


class ThrottleScope(StrEnum):
    ACCOUNT = "account"
    ADDRESS = "address"


@dataclass(frozen=True)
class ThrottleRule:
    scope: ThrottleScope
    max_failures: int
    window: timedelta
    lock_for: timedelta


ACCOUNT_RULE = ThrottleRule(ThrottleScope.ACCOUNT, 5, timedelta(minutes=15), timedelta(minutes=15))
ADDRESS_RULE = ThrottleRule(ThrottleScope.ADDRESS, 50, timedelta(minutes=15), timedelta(minutes=15))
RULES = (ACCOUNT_RULE, ADDRESS_RULE)
