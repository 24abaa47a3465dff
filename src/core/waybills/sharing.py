"""Share links of a waybill (spec 001 section 9: valid 8 hours, 1 day, 3 days, 7 days or until a
chosen end) and the verification code printed on a trip report."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from core.shared.messages import N_

VALIDITIES = {"8h": timedelta(hours=8), "1d": timedelta(days=1), "3d": timedelta(days=3), "7d": timedelta(days=7)}
CUSTOM = "custom"
# Not in the spec: a custom end is at most a year ahead, a link for a trip, not a standing door.
CUSTOM_MAX = timedelta(days=366)
TOKEN_BYTES = 24  # 192 bits: guessing one is hopeless
END_REQUIRED = N_("Choose when the link ends")
END_NOT_AHEAD = N_("The end must be in the future and at most a year ahead")


def expiry(validity: str, now: datetime, custom_end: datetime | None) -> datetime | str:
    """When a link made `now` ends; the refusal's message (a str) when the custom end is wrong."""
    if validity != CUSTOM:
        return now + VALIDITIES[validity]
    if custom_end is None:
        return END_REQUIRED
    if not now < custom_end <= now + CUSTOM_MAX:
        return END_NOT_AHEAD
    return custom_end


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: str) -> str:
    """What is stored of a token: its SHA-256 (a token is random, so no salt nor slow hash is needed)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class ShareOpen:
    at: datetime
    address: str | None


@dataclass(frozen=True)
class ShareLink:
    id: int | None
    waybill_id: int
    token_digest: str
    created_by: int
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None = None
    opens: tuple[ShareOpen, ...] = ()

    def usable(self, now: datetime) -> bool:
        return self.revoked_at is None and now < self.expires_at


class ReportSeal:
    """The verification code of a trip report: an HMAC of the waybill's id and a digest of the data
    it shows, keyed with the application's secret, so the public check tells whether a report with
    this code and data came from here."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def code(self, waybill_id: int, data_digest: str) -> str:
        mac = hmac.new(self._secret, f"waybill:{waybill_id}:{data_digest}".encode(), hashlib.sha256)
        return mac.hexdigest()[:20].upper()


def data_digest(rows: list[tuple[int, datetime, float | None]]) -> str:
    """A digest of the report's readings (device, instant, temperature), in their order."""
    digest = hashlib.sha256()
    for device_id, ts, value in rows:
        digest.update(f"{device_id}|{ts.isoformat()}|{'' if value is None else repr(value)}\n".encode())
    return digest.hexdigest()
