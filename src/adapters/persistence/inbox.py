"""System messages and the channels each account keeps on for them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, case, delete, func, select, update
from sqlalchemy.orm import Session

from adapters.persistence.models import AccountRow, MessageChannelRow, SystemMessageRow
from core.inbox.model import Decision, InboxQuery, MessageKind, Recipient, SystemMessage
from core.notifications.model import Channel
from core.shared.paging import Page, PageRequest


def _message(row: SystemMessageRow) -> SystemMessage:
    return SystemMessage(account_id=row.account_id, kind=MessageKind(row.kind), template=row.template,
                         params=dict(row.params), created_at=row.created_at, needs_decision=row.needs_decision,
                         subject=row.subject, read_at=row.read_at,
                         decision=Decision(row.decision) if row.decision else None, decided_at=row.decided_at,
                         id=row.id)


class SqlAlchemyInbox:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, message: SystemMessage) -> SystemMessage:
        row = SystemMessageRow(account_id=message.account_id, kind=message.kind.value, template=message.template,
                               params=message.params, created_at=message.created_at,
                               needs_decision=message.needs_decision, subject=message.subject)
        self._s.add(row)
        self._s.flush()
        message.id = row.id
        return message

    def recipient(self, account_id: int) -> Recipient | None:
        account = self._s.execute(select(AccountRow.phone, AccountRow.email, AccountRow.language)
                                  .where(AccountRow.id == account_id)).first()
        if account is None:
            return None
        channels = {}
        for kind, names in self._s.execute(select(MessageChannelRow.kind, MessageChannelRow.channels)
                                           .where(MessageChannelRow.account_id == account_id)):
            if kind in MessageKind.__members__.values():
                channels[MessageKind(kind)] = frozenset(Channel(n) for n in names.split(",") if n)
        return Recipient(account.phone, account.email, account.language, channels)

    def _where(self, account_id: int, query: InboxQuery) -> list:
        conditions = [SystemMessageRow.account_id == account_id]
        if query.kind is not None:
            conditions.append(SystemMessageRow.kind == query.kind.value)
        if query.unread_only:
            conditions.append(SystemMessageRow.read_at.is_(None))
        return conditions

    def page(self, account_id: int, query: InboxQuery, paging: PageRequest) -> Page[SystemMessage]:
        where = self._where(account_id, query)
        total = self._s.scalar(select(func.count()).select_from(SystemMessageRow).where(*where)) or 0
        # A message still awaiting its answer (an invitation) stays on the first page, above the
        # newer payment results that would otherwise push it out of sight.
        awaiting = case((and_(SystemMessageRow.needs_decision.is_(True), SystemMessageRow.decision.is_(None)), 0),
                        else_=1)
        rows = self._s.scalars(select(SystemMessageRow).where(*where).order_by(awaiting, SystemMessageRow.id.desc())
                               .offset(paging.offset).limit(paging.page_size))
        return Page(paging.start, paging.page_size, total, [_message(r) for r in rows])

    def get(self, account_id: int, message_id: int) -> SystemMessage | None:
        row = self._s.scalars(select(SystemMessageRow).where(SystemMessageRow.id == message_id,
                                                             SystemMessageRow.account_id == account_id)).first()
        if row is not None:
            self._s.refresh(row)  # a decision written by this transaction's UPDATE shows
        return _message(row) if row is not None else None

    def unread_count(self, account_id: int) -> int:
        return self._s.scalar(select(func.count()).select_from(SystemMessageRow).where(
            *self._where(account_id, InboxQuery(unread_only=True)))) or 0

    def mark_read(self, account_id: int, message_ids: list[int] | None, now: datetime) -> int:
        where = self._where(account_id, InboxQuery(unread_only=True))
        if message_ids is not None:
            where.append(SystemMessageRow.id.in_(message_ids))
        result = self._s.execute(update(SystemMessageRow).where(*where).values(read_at=now)
                                 .execution_options(synchronize_session=False))
        return int(result.rowcount)  # type: ignore[attr-defined]

    def decide(self, account_id: int, message_id: int, decision: Decision, now: datetime) -> bool:
        # Conditional on no answer yet: of two answers racing, PostgreSQL lets the second wait for
        # the first and then match no row.
        result = self._s.execute(
            update(SystemMessageRow)
            .where(SystemMessageRow.id == message_id, SystemMessageRow.account_id == account_id,
                   SystemMessageRow.needs_decision.is_(True), SystemMessageRow.decision.is_(None))
            .values(decision=decision.value, decided_at=now)
            .execution_options(synchronize_session=False))
        return int(result.rowcount) == 1  # type: ignore[attr-defined]

    def set_channels(self, account_id: int, channels: dict[MessageKind, frozenset[Channel]]) -> None:
        if not channels:
            return
        self._s.execute(delete(MessageChannelRow).where(MessageChannelRow.account_id == account_id,
                                                        MessageChannelRow.kind.in_([k.value for k in channels])))
        for kind, chosen in channels.items():
            self._s.add(MessageChannelRow(account_id=account_id, kind=kind.value,
                                          channels=",".join(sorted(c.value for c in chosen))))
        self._s.flush()
