from __future__ import annotations

from types import TracebackType
from typing import Self

from sqlalchemy.orm import Session, sessionmaker

from adapters.persistence.accounts import (
    SqlAlchemyAccountRepository,
    SqlAlchemyCaptchaRepository,
    SqlAlchemyLoginThrottleRepository,
    SqlAlchemyPremiumRepository,
    SqlAlchemyRoleRepository,
    SqlAlchemySessionRepository,
    SqlAlchemyVerificationCodeRepository,
)
from adapters.persistence.alarms import SqlAlchemyAlarmRepository
from adapters.persistence.devices import (
    SqlAlchemyBrokerCredentialRepository,
    SqlAlchemyDeviceExpiryRepository,
    SqlAlchemyDeviceRepository,
)
from adapters.persistence.ordering import (
    SqlAlchemyAgreementRepository,
    SqlAlchemyBillRepository,
    SqlAlchemyCatalogueRepository,
    SqlAlchemyDeviceServiceRepository,
    SqlAlchemyOrderRepository,
    SqlAlchemyPaymentNotificationRepository,
)
from adapters.persistence.platform import (
    SqlAlchemyCustomPageRepository,
    SqlAlchemyDictionaryRepository,
    SqlAlchemyNoticeRepository,
    SqlAlchemyOutboxRepository,
)
from adapters.persistence.reading_history import SqlAlchemyReadingHistoryRepository
from adapters.persistence.readings import SqlAlchemyReadingRepository
from adapters.persistence.session_scope import SessionScope


class SqlAlchemyUnitOfWork:
    """One database transaction per `with` block; repositories share its session. Inside a
    SessionScope (an API request) the block holds the scope's session instead of making one:
    what it commits is committed and what it leaves uncommitted is rolled back, as ever, but
    reads share the request's one connection and transaction (session_scope.py)."""

    def __init__(self, session_factory: sessionmaker, scope: SessionScope | None = None) -> None:
        self._session_factory = session_factory
        self._scope = scope
        self._scoped = False
        self.session: Session | None = None

    def __enter__(self) -> Self:
        if self.session is not None:
            raise RuntimeError("a unit of work is not re-entrant; use a new one")
        shared = self._scope.join() if self._scope is not None else None
        self._scoped = shared is not None
        self.session = s = shared or self._session_factory()
        self.accounts = SqlAlchemyAccountRepository(s)
        self.roles = SqlAlchemyRoleRepository(s)
        self.premium = SqlAlchemyPremiumRepository(s)
        self.sessions = SqlAlchemySessionRepository(s)
        self.throttle = SqlAlchemyLoginThrottleRepository(s)
        self.codes = SqlAlchemyVerificationCodeRepository(s)
        self.captchas = SqlAlchemyCaptchaRepository(s)
        self.outbox = SqlAlchemyOutboxRepository(s)
        self.custom_pages = SqlAlchemyCustomPageRepository(s)
        self.notices = SqlAlchemyNoticeRepository(s)
        self.dictionary = SqlAlchemyDictionaryRepository(s)
        self.devices = SqlAlchemyDeviceExpiryRepository(s)
        self.device_registry = SqlAlchemyDeviceRepository(s)
        self.broker_credentials = SqlAlchemyBrokerCredentialRepository(s)
        self.history = SqlAlchemyReadingHistoryRepository(s)
        self.readings = SqlAlchemyReadingRepository(s)
        self.alarms = SqlAlchemyAlarmRepository(s)
        self.catalogue = SqlAlchemyCatalogueRepository(s)
        self.orders = SqlAlchemyOrderRepository(s)
        self.bills = SqlAlchemyBillRepository(s)
        self.agreements = SqlAlchemyAgreementRepository(s)
        self.payment_notifications = SqlAlchemyPaymentNotificationRepository(s)
        self.device_service = SqlAlchemyDeviceServiceRepository(s)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        session, self.session = self.session, None
        assert session is not None, "left a unit of work that was not entered"
        if self._scope is not None and self._scoped:
            self._scope.leave(session, failed=exc_type is not None)
            return
        try:
            session.rollback()
        finally:
            session.close()

    def commit(self) -> None:
        self.session.commit()

    def rollback(self) -> None:
        self.session.rollback()
