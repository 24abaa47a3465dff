"""Messages to people (codes now, alerts later) are written to an outbox in the same transaction
as the change that caused them, then delivered; a crash between the two never loses or invents
one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from core.shared.identity import Stored


class Channel(StrEnum):
    PHONE = "phone"
    EMAIL = "email"
    VOICE = "voice"  # a call to a phone, reading the text out (alarm alerts)


VERIFICATION_CODE = "verification_code"
MAX_DELIVERY_ATTEMPTS = 5


@dataclass
class OutboundMessage(Stored):
    channel: Channel
    recipient: str
    template: str
    params: dict[str, Any]
    language: str
    created_at: datetime
    sent_at: datetime | None = None
    attempts: int = 0
    last_error: str | None = None
    id: int | None = None
