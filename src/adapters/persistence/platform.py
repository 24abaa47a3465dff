"""Repositories of white-label pages, notices, dictionaries and the outbox."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session, sessionmaker

from adapters.persistence.models import CustomPageRow, DictItemRow, NoticeRow, OutboxMessageRow, PaymentConfigRow
from adapters.security.secret_box import SECRET_BOX, SecretBox
from core.notifications.model import MAX_DELIVERY_ATTEMPTS, Channel, OutboundMessage
from core.platform.model import CustomPage, DictItem, MerchantConfig, Notice
from core.shared.paging import Page, PageRequest

_PAGE_FIELDS = [f for f in CustomPage.__dataclass_fields__]


class SqlAlchemyCustomPageRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def by_top_domains(self, domains: list[str]) -> list[CustomPage]:
        rows = self._s.scalars(select(CustomPageRow).where(CustomPageRow.top_domain.in_(domains)))
        return [CustomPage(**{f: getattr(row, f) for f in _PAGE_FIELDS}) for row in rows]

    def all(self) -> list[CustomPage]:
        rows = self._s.scalars(select(CustomPageRow).order_by(CustomPageRow.default_camp, CustomPageRow.top_domain))
        return [CustomPage(**{f: getattr(row, f) for f in _PAGE_FIELDS}) for row in rows]


class SqlAlchemyMerchantConfigRepository:
    """Each camp's merchant accounts; the secrets sealed with the session's SecretBox."""

    def __init__(self, session: Session) -> None:
        self._s = session

    @property
    def _box(self) -> SecretBox:
        box = self._s.info.get(SECRET_BOX)
        if box is None:
            raise RuntimeError("the session factory was made without a SecretBox")
        return box

    def _row(self, camp: int, provider: str) -> PaymentConfigRow | None:
        return self._s.scalars(select(PaymentConfigRow).where(PaymentConfigRow.camp == camp,
                                                              PaymentConfigRow.provider == provider)).first()

    def get(self, camp: int, provider: str) -> MerchantConfig | None:
        row = self._row(camp, provider)
        if row is None:
            return None
        return MerchantConfig(row.camp, row.provider, dict(row.fields), self._box.open(row.sealed_secrets),
                              row.updated_at, row.updated_by)

    def save(self, config: MerchantConfig) -> None:
        row = self._row(config.camp, config.provider)
        if row is None:
            row = PaymentConfigRow(camp=config.camp, provider=config.provider)
            self._s.add(row)
        row.fields, row.sealed_secrets = dict(config.values), self._box.seal(config.secrets)
        assert config.updated_at is not None, "a stored configuration says when it was set"
        row.updated_at, row.updated_by = config.updated_at, config.updated_by
        self._s.flush()

    def delete(self, camp: int, provider: str) -> bool:
        row = self._row(camp, provider)
        if row is None:
            return False
        self._s.delete(row)
        self._s.flush()
        return True

    def owned(self) -> set[tuple[int, str]]:
        return {(camp, provider) for camp, provider in
                self._s.execute(select(PaymentConfigRow.camp, PaymentConfigRow.provider))}

    def versions(self, camp: int) -> dict[str, datetime]:
        """When each of the camp's accounts last changed (the gateways rebuild theirs then)."""
        return {provider: at for provider, at in self._s.execute(
            select(PaymentConfigRow.provider, PaymentConfigRow.updated_at).where(PaymentConfigRow.camp == camp))}


class SqlAlchemyNoticeRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def latest_in_force(self, camp: int, platform: int, notice_type: int, now: datetime) -> Notice | None:
        row = self._s.scalars(
            select(NoticeRow)
            .where(NoticeRow.camp == camp, NoticeRow.platform == platform, NoticeRow.notice_type == notice_type,
                   NoticeRow.published_at <= now,
                   or_(NoticeRow.expires_at.is_(None), NoticeRow.expires_at > now))
            .order_by(NoticeRow.published_at.desc(), NoticeRow.id.desc()).limit(1)
        ).first()
        return _notice(row) if row else None

    def page(self, request: PageRequest, notice_type: int | None) -> Page[Notice]:
        where = [NoticeRow.notice_type == notice_type] if notice_type is not None else []
        column = {"publishedAt": NoticeRow.published_at, "noticeId": NoticeRow.id}.get(
            request.sort_field or "noticeId", NoticeRow.id)
        order = column.asc() if request.sort_order == "asc" else column.desc()
        total = self._s.execute(select(func.count()).select_from(NoticeRow).where(*where)).scalar_one()
        rows = self._s.scalars(select(NoticeRow).where(*where).order_by(order, NoticeRow.id.desc())
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, [_notice(r) for r in rows])


def _notice(row: NoticeRow) -> Notice:
    return Notice(row.id, row.camp, row.platform, row.notice_type, dict(row.contents or {}), row.published_at,
                  row.expires_at)


class SqlAlchemyDictionaryRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def items(self, data_type: str) -> list[DictItem]:
        rows = self._s.scalars(select(DictItemRow).where(DictItemRow.data_type == data_type)
                               .order_by(DictItemRow.sort, DictItemRow.id))
        return [DictItem(r.data_type, r.data_code, r.data_value, dict(r.labels or {}), r.sort) for r in rows]

    def has(self, data_type: str, data_code: str) -> bool:
        return self._s.execute(select(func.count()).where(DictItemRow.data_type == data_type,
                                                          DictItemRow.data_code == data_code)).scalar_one() > 0


class SqlAlchemyOutboxRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, message: OutboundMessage) -> None:
        row = OutboxMessageRow(channel=message.channel.value, recipient=message.recipient,
                               template=message.template, params=message.params, language=message.language,
                               created_at=message.created_at, attempts=0)
        self._s.add(row)
        self._s.flush()
        message.id = row.id

    def pending(self, limit: int) -> Sequence[OutboundMessage]:
        query = (select(OutboxMessageRow)
                 .where(OutboxMessageRow.sent_at.is_(None), OutboxMessageRow.attempts < MAX_DELIVERY_ATTEMPTS)
                 .order_by(OutboxMessageRow.id).limit(limit))
        if self._s.get_bind().dialect.name == "postgresql":
            # Several servers may deliver at once; each row goes to exactly one of them.
            query = query.with_for_update(skip_locked=True)
        return [OutboundMessage(Channel(r.channel), r.recipient, r.template, dict(r.params), r.language,
                                r.created_at, r.sent_at, r.attempts, r.last_error, r.id)
                for r in self._s.scalars(query)]

    def save(self, message: OutboundMessage) -> None:
        row = self._s.get_one(OutboxMessageRow, message.stored_id)
        row.sent_at, row.attempts, row.last_error = message.sent_at, message.attempts, message.last_error


def merchant_accounts(session_factory: sessionmaker[Session]) -> Callable[[int], dict[str, tuple[datetime, dict]]]:
    """What the payment gateways read of a camp's own merchant accounts: by provider, when it last
    changed and its fields and secrets (adapters/payments/gateways.py CampGateways)."""

    def read(camp: int) -> dict[str, tuple[datetime, dict]]:
        with session_factory() as session:
            rows = session.scalars(select(PaymentConfigRow).where(PaymentConfigRow.camp == camp)).all()
            box = session.info.get(SECRET_BOX)
            return {row.provider: (row.updated_at, {**row.fields, **(box.open(row.sealed_secrets) if box else {})})
                    for row in rows}
    return read
