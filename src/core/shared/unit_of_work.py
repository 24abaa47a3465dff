from __future__ import annotations

from types import TracebackType
from typing import Protocol, Self

from core.accounts.ports import (
    AccountRepository,
    CaptchaRepository,
    LoginThrottleRepository,
    PremiumRepository,
    RoleRepository,
    SessionRepository,
    VerificationCodeRepository,
)
from core.alarms.ports import AlarmRepository
from core.devices.ports import (
    BrokerCredentialRepository,
    DeviceExpiryRepository,
    DeviceRepository,
    ReadingHistoryRepository,
)
from core.notifications.ports import OutboxRepository
from core.ordering.ports import (
    AgreementRepository,
    BillRepository,
    CatalogueRepository,
    DeviceServiceRepository,
    OrderRepository,
    PaymentNotificationRepository,
)
from core.platform.ports import CustomPageRepository, DictionaryRepository, NoticeRepository
from core.telemetry.ports import ReadingRepository


class UnitOfWork(Protocol):
    """One transaction. `with uow:` opens it; leaving the block without `commit()` rolls back."""

    accounts: AccountRepository
    roles: RoleRepository
    premium: PremiumRepository
    sessions: SessionRepository
    throttle: LoginThrottleRepository
    codes: VerificationCodeRepository
    captchas: CaptchaRepository
    outbox: OutboxRepository
    custom_pages: CustomPageRepository
    notices: NoticeRepository
    dictionary: DictionaryRepository
    devices: DeviceExpiryRepository
    device_registry: DeviceRepository
    broker_credentials: BrokerCredentialRepository
    history: ReadingHistoryRepository
    readings: ReadingRepository
    alarms: AlarmRepository
    catalogue: CatalogueRepository
    orders: OrderRepository
    bills: BillRepository
    agreements: AgreementRepository
    device_service: DeviceServiceRepository
    payment_notifications: PaymentNotificationRepository

    def __enter__(self) -> Self: ...
    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...
