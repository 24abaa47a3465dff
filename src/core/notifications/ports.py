from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.notifications.model import OutboundMessage
from core.shared.transaction import Transaction


class OutboxRepository(Protocol):
    def add(self, message: OutboundMessage) -> None: ...
    def pending(self, limit: int) -> Sequence[OutboundMessage]: ...
    def save(self, message: OutboundMessage) -> None: ...


class MessageSender(Protocol):
    def send(self, message: OutboundMessage) -> None:
        """Deliver one message; raise to leave it pending for a later attempt."""
        ...


class NotificationsUnitOfWork(Transaction, Protocol):
    @property
    def outbox(self) -> OutboxRepository: ...
