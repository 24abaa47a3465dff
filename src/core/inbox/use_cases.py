from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.inbox.model import CHOOSABLE_CHANNELS, Decision, InboxQuery, MessageKind, SystemMessage
from core.inbox.ports import AnswerHandler, InboxUnitOfWork
from core.notifications.model import Channel
from core.shared.clock import Clock
from core.shared.errors import MessageAlreadyAnswered, MessageNeedsNoAnswer, NotAuthenticated, NotFound
from core.shared.paging import Page, PageRequest


@dataclass(frozen=True)
class InboxPage:
    page: Page[SystemMessage]
    unread: int


class ListSystemMessages:
    def __init__(self, uow: InboxUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, query: InboxQuery, paging: PageRequest) -> InboxPage:
        with self._uow as uow:
            return InboxPage(uow.inbox.page(account_id, query, paging), uow.inbox.unread_count(account_id))


class MarkMessagesRead:
    def __init__(self, uow: InboxUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, message_ids: list[int] | None) -> int:
        """Ids of messages that are not the caller's are passed over, as unknown ones are."""
        with self._uow as uow:
            marked = uow.inbox.mark_read(account_id, message_ids, self._clock.now())
            uow.commit()
        return marked


class AnswerMessage:
    """Approve or reject what a message asks; the first answer stands (409 for a second one,
    whether it agrees or not). The handlers act on it in the same transaction (an approved
    invitation makes its reader a member), so an answer and its effect are stored together."""

    def __init__(self, uow: InboxUnitOfWork, clock: Clock, handlers: Sequence[AnswerHandler] = ()) -> None:
        self._uow, self._clock, self._handlers = uow, clock, tuple(handlers)

    def __call__(self, account_id: int, message_id: int, decision: Decision) -> SystemMessage:
        now = self._clock.now()
        with self._uow as uow:
            message = uow.inbox.get(account_id, message_id)
            if message is None:
                raise NotFound()
            if not message.needs_decision:
                raise MessageNeedsNoAnswer()
            if message.decision is not None or not uow.inbox.decide(account_id, message_id, decision, now):
                raise MessageAlreadyAnswered()
            for handle in self._handlers:
                handle(message, decision, now)
            uow.inbox.mark_read(account_id, [message_id], now)
            uow.commit()
            answered = uow.inbox.get(account_id, message_id)
        assert answered is not None
        return answered


class GetMessageChannels:
    def __init__(self, uow: InboxUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int) -> dict[MessageKind, frozenset[Channel]]:
        with self._uow as uow:
            recipient = uow.inbox.recipient(account_id)
        if recipient is None:
            raise NotAuthenticated()
        return {kind: recipient.channels_for(kind) for kind in MessageKind}


class SetMessageChannels:
    """Which kinds of system message also go by e-mail or SMS; kinds not named keep theirs."""

    def __init__(self, uow: InboxUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, channels: dict[MessageKind, frozenset[Channel]]) -> None:
        with self._uow as uow:
            uow.inbox.set_channels(account_id, {k: v & CHOOSABLE_CHANNELS for k, v in channels.items()})
            uow.commit()
