"""Image captcha: a short text shown as a picture, checked once within a few minutes."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from core.accounts.secrets_digest import keyed_digest

CAPTCHA_LIFETIME = timedelta(minutes=5)
# No 0/O, 1/I/L or 2/Z look-alikes: people should not fail on the font.
_ALPHABET = "3456789ABCDEFGHJKMNPQRSTUVWXY"
CAPTCHA_LENGTH = 4


@dataclass
class Captcha:
    id: str
    answer_digest: str
    expires_at: datetime

    @classmethod
    def issue(cls, now: datetime, key: bytes) -> tuple[str, Captcha]:
        text = "".join(secrets.choice(_ALPHABET) for _ in range(CAPTCHA_LENGTH))
        return text, cls(secrets.token_urlsafe(16), keyed_digest(key, text), now + CAPTCHA_LIFETIME)

    def accepts(self, answer: str, now: datetime, key: bytes) -> bool:
        return now < self.expires_at and hmac.compare_digest(
            self.answer_digest, keyed_digest(key, answer.strip().upper()))
