"""A system message is written once, in the transaction of the event it tells of, as a template
and its parameters: it is rendered in the reader's language when read, so a reader who changes
language reads the old messages in the new one too."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from core.notifications.model import Channel
from core.shared.identity import Stored

# Templates of the messages this context knows of itself (others bring theirs: ORDER_PAID, ...).
ORGANIZATION_INVITATION = "organization_invitation"  # params: inviter, organization


class MessageKind(StrEnum):
    EXPIRY = "expiry"
    PAYMENT = "payment"
    EXPORT = "export"
    INVITATION = "invitation"
    GEOFENCE = "geofence"  # a device entered or left a fence (core/geofences)


class Decision(StrEnum):
    APPROVED = "approved"
    REJECTED = "rejected"


# What each kind sends besides the inbox until the owner says otherwise: expiry reminders went by
# SMS and e-mail before the inbox existed, so an owner who never opened the preferences keeps them.
DEFAULT_CHANNELS: dict[MessageKind, frozenset[Channel]] = {
    MessageKind.EXPIRY: frozenset({Channel.PHONE, Channel.EMAIL}),
    MessageKind.PAYMENT: frozenset({Channel.EMAIL}),
    MessageKind.EXPORT: frozenset(),
    MessageKind.INVITATION: frozenset({Channel.EMAIL}),
    MessageKind.GEOFENCE: frozenset(),  # a truck crosses fences all day: the inbox alone until asked
}
CHOOSABLE_CHANNELS = frozenset({Channel.PHONE, Channel.EMAIL})


@dataclass
class SystemMessage(Stored):
    account_id: int
    kind: MessageKind
    template: str
    params: dict[str, Any]
    created_at: datetime
    # An invitation asks its reader to approve or reject; the answer is given once.
    needs_decision: bool = False
    # What the message is about, for the feature that acts on its answer ("invitation:12").
    subject: str | None = None
    read_at: datetime | None = None
    decision: Decision | None = None
    decided_at: datetime | None = None
    id: int | None = None

    @property
    def read(self) -> bool:
        return self.read_at is not None


@dataclass(frozen=True)
class Recipient:
    """Where a message to an account may also go, and in which language."""

    phone: str | None
    email: str | None
    language: str | None
    channels: dict[MessageKind, frozenset[Channel]] = field(default_factory=dict)

    def channels_for(self, kind: MessageKind) -> frozenset[Channel]:
        return self.channels.get(kind, DEFAULT_CHANNELS[kind])


@dataclass(frozen=True)
class InboxQuery:
    kind: MessageKind | None = None
    unread_only: bool = False
