"""One sender for the outbox that hands each message to the provider of its channel."""

from __future__ import annotations

from collections.abc import Mapping

from core.notifications.model import Channel, OutboundMessage
from core.notifications.ports import MessageSender


class ChannelRouter:
    def __init__(self, senders: Mapping[Channel, MessageSender]) -> None:
        self._senders = dict(senders)

    def send(self, message: OutboundMessage) -> None:
        sender = self._senders.get(message.channel)
        if sender is None:
            raise LookupError(f"no sender is configured for {message.channel.value} messages")
        sender.send(message)
