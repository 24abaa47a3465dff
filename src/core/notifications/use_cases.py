from __future__ import annotations

import logging

from core.notifications.model import MAX_DELIVERY_ATTEMPTS
from core.notifications.ports import MessageSender, NotificationsUnitOfWork
from core.shared.clock import Clock

log = logging.getLogger(__name__)


class DeliverPendingMessages:
    """Sends what the outbox holds. Safe to run from several places: a message is marked sent
    in the same transaction that read it, and one that fails is retried a few times."""

    def __init__(self, uow: NotificationsUnitOfWork, sender: MessageSender, clock: Clock) -> None:
        self._uow, self._sender, self._clock = uow, sender, clock

    def __call__(self, limit: int = 50) -> int:
        sent = 0
        with self._uow as uow:
            for message in uow.outbox.pending(limit):
                message.attempts += 1
                try:
                    self._sender.send(message)
                except Exception as error:  # a provider failure must not stop the others
                    message.last_error = str(error)[:500]
                    log.warning("delivery of message %s failed (attempt %s of %s): %s",
                                message.id, message.attempts, MAX_DELIVERY_ATTEMPTS, error)
                else:
                    message.sent_at = self._clock.now()
                    sent += 1
                uow.outbox.save(message)
            uow.commit()
        return sent
