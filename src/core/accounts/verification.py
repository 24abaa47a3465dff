"""One-time verification codes sent to a phone or an e-mail address."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from core.accounts.model import CodePurpose
from core.accounts.secrets_digest import keyed_digest
from core.notifications.model import Channel

CODE_DIGITS = 6
CODE_LIFETIME = timedelta(minutes=10)
RESEND_AFTER = timedelta(seconds=60)
MAX_SENDS_PER_HOUR = 10
MAX_CHECKS = 5


@dataclass
class VerificationCode:
    channel: Channel
    target: str
    purpose: CodePurpose
    code_digest: str
    created_at: datetime
    expires_at: datetime
    attempts: int = 0
    consumed_at: datetime | None = None
    id: int | None = None

    @classmethod
    def issue(cls, channel: Channel, target: str, purpose: CodePurpose, now: datetime,
              key: bytes) -> tuple[str, VerificationCode]:
        code = f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
        return code, cls(channel, target, purpose, keyed_digest(key, code), now, now + CODE_LIFETIME)

    def usable_at(self, now: datetime) -> bool:
        return self.consumed_at is None and now < self.expires_at and self.attempts < MAX_CHECKS

    def redeem(self, code: str, now: datetime, key: bytes) -> bool:
        """Single use: a right code is consumed; a wrong one counts against the code's checks."""
        if not self.usable_at(now):
            return False
        if hmac.compare_digest(self.code_digest, keyed_digest(key, code)):
            self.consumed_at = now
            return True
        self.attempts += 1
        return False
