"""The verification code printed on a PDF report: an HMAC of the facts it states, so the console
can tell a genuine report from an edited or forged one (only the console holds the key)."""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import datetime

CODE_LENGTH = 20  # 100 bits of the HMAC, in base32 without padding


def _facts(account_name: str, device_guid: str, since: datetime, until: datetime, generated_at: datetime,
           readings: int, nonce: str) -> bytes:
    return "|".join((account_name, device_guid, since.isoformat(), until.isoformat(), generated_at.isoformat(),
                     str(readings), nonce)).encode()


def verification_code(key: bytes, account_name: str, device_guid: str, since: datetime, until: datetime,
                      generated_at: datetime, readings: int, nonce: str) -> str:
    digest = hmac.new(key, b"export-report|" + _facts(account_name, device_guid, since, until, generated_at,
                                                      readings, nonce), hashlib.sha256).digest()
    return base64.b32encode(digest).decode()[:CODE_LENGTH]


def normalise_code(text: str) -> str:
    """As a person types it: any case, with spaces or dashes between groups."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def group_code(code: str) -> str:
    """Read aloud in groups of four."""
    return "-".join(code[i:i + 4] for i in range(0, len(code), 4))
