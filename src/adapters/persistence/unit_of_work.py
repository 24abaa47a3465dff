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
from adapters.persistence.expiry_reminders import SqlAlchemyExpiryReminderRepository
from adapters.persistence.jobs import SqlAlchemyJobRunRepository
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


class SqlAlchemyUnitOfWork:
    """One database transaction per `with` block; repositories share its session."""

    def __init__(self, session_factory: sessionmaker) -> None:
        self._session_factory = session_factory
        self.session: Session | None = None

    def __enter__(self) -> Self:
        if self.session is not None:
            raise RuntimeError("a unit of work is not re-entrant; use a new one")
        self.session = s = self._session_factory()
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
        self.expiry_reminders = SqlAlchemyExpiryReminderRepository(s)
        self.job_runs = SqlAlchemyJobRunRepository(s)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        try:
            self.rollback()
        finally:
            self.session.close()
            self.session = None

    def commit(self) -> None:
        self.session.commit()

    def rollback(self) -> None:
        self.session.rollback()
