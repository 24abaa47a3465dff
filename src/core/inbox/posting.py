"""The one way a message reaches an inbox, used by every feature that tells an account of
something: the message is stored, and copies go by the channels the owner keeps on for its kind,
through the outbox of the same transaction."""

from __future__ import annotations

from typing import Protocol

from core.inbox.model import SystemMessage
from core.inbox.ports import Inbox
from core.notifications.model import Channel, OutboundMessage
from core.notifications.ports import OutboxRepository


class PostingUnitOfWork(Protocol):
    @property
    def inbox(self) -> Inbox: ...
    @property
    def outbox(self) -> OutboxRepository: ...


def post(uow: PostingUnitOfWork, message: SystemMessage, default_language: str, *, delivery: bool = False,
         email_to: str | None = None) -> SystemMessage | None:
    """Stores the message and queues its copies; None when the account is gone. `delivery`: the
    message delivers what the account asked for (an issued invoice), so its e-mail goes whatever
    the owner chose for the kind, to `email_to` when given (the invoice's own mailbox) instead of
    the account's address."""
    recipient = uow.inbox.recipient(message.account_id)
    if recipient is None:
        return None
    stored = uow.inbox.add(message)
    chosen = recipient.channels_for(message.kind) | ({Channel.EMAIL} if delivery else set())
    for channel, target in ((Channel.PHONE, recipient.phone), (Channel.EMAIL, email_to or recipient.email)):
        if channel in chosen and target:
            uow.outbox.add(OutboundMessage(channel, target, message.template, dict(message.params),
                                           recipient.language or default_language, message.created_at))
    return stored
