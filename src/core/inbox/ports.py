from __future__ import annotations

from datetime import datetime
from typing import Protocol

from core.inbox.model import Decision, InboxQuery, MessageKind, Recipient, SystemMessage
from core.notifications.model import Channel
from core.notifications.ports import OutboxRepository
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction


class Inbox(Protocol):
    """The system messages of every account. A feature that tells an account of something lists
    it in its own unit of work and posts through core.inbox.posting.post."""

    def add(self, message: SystemMessage) -> SystemMessage: ...
    def recipient(self, account_id: int) -> Recipient | None:
        """None when there is no such account."""
        ...
    def page(self, account_id: int, query: InboxQuery, paging: PageRequest) -> Page[SystemMessage]: ...
    def get(self, account_id: int, message_id: int) -> SystemMessage | None:
        """The account's message; another account's is None, as an unknown one is."""
        ...
    def unread_count(self, account_id: int) -> int: ...
    def mark_read(self, account_id: int, message_ids: list[int] | None, now: datetime) -> int:
        """Marks the account's messages (all when None) read; the number newly read."""
        ...
    def decide(self, account_id: int, message_id: int, decision: Decision, now: datetime) -> bool:
        """Records the answer unless one was given: False when another answer came first, even
        one a moment ago in a concurrent transaction."""
        ...
    def set_channels(self, account_id: int, channels: dict[MessageKind, frozenset[Channel]]) -> None: ...


class AnswerHandler(Protocol):
    """What a feature does with the answer to a message about its subject (an invitation), in
    the transaction that records the answer: raising a DomainError refuses the answer, and then
    nothing is recorded. A handler passes over subjects that are not its own."""

    def __call__(self, message: SystemMessage, decision: Decision, now: datetime) -> None: ...


class InboxUnitOfWork(Transaction, Protocol):
    @property
    def inbox(self) -> Inbox: ...
    @property
    def outbox(self) -> OutboxRepository: ...
