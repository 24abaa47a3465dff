"""The one unit of work behind every context's port (AccountsUnitOfWork, OrderingUnitOfWork, ...):
it has every repository any of them lists, and so satisfies each structurally. A repository is
built on its first use inside the `with` block, so a transaction that reads only orders builds
only the order repository."""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar, overload

from sqlalchemy.orm import Session, sessionmaker

from adapters.persistence.accounts import (
    SqlAlchemyAccountInfoRepository,
    SqlAlchemyAccountRepository,
    SqlAlchemyCaptchaRepository,
    SqlAlchemyLoginThrottleRepository,
    SqlAlchemyRoleRepository,
    SqlAlchemySessionRepository,
    SqlAlchemyVerificationCodeRepository,
)
from adapters.persistence.alarms import SqlAlchemyAlarmRepository
from adapters.persistence.assets import SqlAlchemyAssetRepository
from adapters.persistence.backoffice import SqlAlchemyOperatorOverview
from adapters.persistence.calibration import (
    SqlAlchemyApplicationRepository,
    SqlAlchemyCalibratedDevices,
    SqlAlchemyCalibrationReminders,
    SqlAlchemyCertificateNumbers,
    SqlAlchemyCertificateRepository,
    SqlAlchemyPriceRepository,
)
from adapters.persistence.calibration_reports import SqlAlchemyCalibrationReports
from adapters.persistence.catalogue import SqlAlchemyCatalogueAdmin
from adapters.persistence.device_records import SqlAlchemyDeviceCommandRepository, SqlAlchemyMaintenanceRepository
from adapters.persistence.devices import (
    SqlAlchemyBrokerCredentialRepository,
    SqlAlchemyDeviceEventRepository,
    SqlAlchemyDeviceExpiryRepository,
    SqlAlchemyDeviceRepository,
)
from adapters.persistence.expiry_reminders import SqlAlchemyExpiryReminderRepository
from adapters.persistence.exports import SqlAlchemyExportReadingSource, SqlAlchemyExportRepository
from adapters.persistence.fda_records import record_version_sources
from adapters.persistence.fda_reports import SqlAlchemyFdaReportRepository
from adapters.persistence.fda_signatures import (
    SqlAlchemyEndorsementRepository,
    SqlAlchemySignatureReader,
    SqlAlchemySignatureRepository,
)
from adapters.persistence.fda_switches import SqlAlchemyFdaSwitches
from adapters.persistence.fda_trail import SqlAlchemyAuditTrail
from adapters.persistence.geofences import (
    SqlAlchemyFenceRepository,
    SqlAlchemyFenceWatchRepository,
    SqlAlchemyWaybillFences,
)
from adapters.persistence.inbox import SqlAlchemyInbox
from adapters.persistence.invoices import SqlAlchemyInvoiceRepository
from adapters.persistence.jobs import SqlAlchemyJobRunRepository
from adapters.persistence.offline import SqlAlchemyOfflinePurchaseRepository
from adapters.persistence.operation_log import SqlAlchemyOperationLog
from adapters.persistence.order_desk import SqlAlchemyOrderDesk
from adapters.persistence.ordering import (
    SqlAlchemyAgreementRepository,
    SqlAlchemyBillRepository,
    SqlAlchemyCatalogueRepository,
    SqlAlchemyDeviceServiceRepository,
    SqlAlchemyOrderRepository,
    SqlAlchemyPaymentNotificationRepository,
)
from adapters.persistence.organizations import (
    SqlAlchemyInvitationRepository,
    SqlAlchemyOrganizationRepository,
    SqlAlchemyOrganizationRoleRepository,
)
from adapters.persistence.platform import (
    SqlAlchemyCustomPageRepository,
    SqlAlchemyDictionaryRepository,
    SqlAlchemyMerchantConfigRepository,
    SqlAlchemyNoticeRepository,
    SqlAlchemyOutboxRepository,
)
from adapters.persistence.projects import SqlAlchemyProjectRepository
from adapters.persistence.promotions import SqlAlchemyPromotionRepository
from adapters.persistence.reading_history import SqlAlchemyReadingHistoryRepository
from adapters.persistence.readings import SqlAlchemyReadingRepository
from adapters.persistence.refunds import SqlAlchemyRefundRepository
from adapters.persistence.reports import SqlAlchemyRunRepository, SqlAlchemyScheduleRepository
from adapters.persistence.revenue import SqlAlchemyRevenueQueries
from adapters.persistence.session_scope import SessionScope
from adapters.persistence.sharing import SqlAlchemyCustody, SqlAlchemyShareRepository, SqlAlchemyTemplateRepository
from adapters.persistence.useradmin import SqlAlchemyUserDirectory
from adapters.persistence.vouchers import SqlAlchemyVoucherRepository
from adapters.persistence.waybills import (
    SqlAlchemyLookupLog,
    SqlAlchemyShareLinkRepository,
    SqlAlchemyTripReadings,
    SqlAlchemyWaybillRepository,
    SqlAlchemyWaybillTemplateRepository,
)

if TYPE_CHECKING:
    from core.accounts.ports import AccountsUnitOfWork
    from core.alarms.ports import AlarmsUnitOfWork
    from core.assets.ports import AssetsUnitOfWork
    from core.audit.ports import AuditUnitOfWork
    from core.backoffice.ports import BackOfficeUnitOfWork
    from core.calibration.ports import DocumentsUnitOfWork
    from core.catalogue.ports import CatalogueAdminUnitOfWork
    from core.devices.ports import DevicesUnitOfWork
    from core.exports.ports import ExportsUnitOfWork
    from core.fda.ports import FdaReportsUnitOfWork, FdaUnitOfWork, TrailUnitOfWork
    from core.geofences.ports import GeofencesUnitOfWork
    from core.inbox.ports import InboxUnitOfWork
    from core.jobs.ports import JobsUnitOfWork
    from core.notifications.ports import NotificationsUnitOfWork
    from core.ordering.ports import OrderingUnitOfWork
    from core.organizations.ports import OrganizationsUnitOfWork
    from core.platform.ports import PlatformUnitOfWork
    from core.pricing.ports import PricingUnitOfWork
    from core.projects.ports import ProjectsUnitOfWork
    from core.promotions.ports import PromotionsUnitOfWork
    from core.reports.ports import ReportsUnitOfWork
    from core.sharing.ports import SharingUnitOfWork
    from core.telemetry.ports import TelemetryUnitOfWork
    from core.useradmin.ports import UserAdminUnitOfWork
    from core.vouchers.ports import VouchersUnitOfWork
    from core.waybills.ports import WaybillsUnitOfWork

R = TypeVar("R")


class _Repository(Generic[R]):
    """A repository of the open transaction, built from its session on first access and kept
    until the `with` block ends."""

    def __init__(self, build: Callable[[Session], R]) -> None:
        self._build = build
        self._name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, uow: None, owner: type) -> Self: ...
    @overload
    def __get__(self, uow: SqlAlchemyUnitOfWork, owner: type) -> R: ...

    def __get__(self, uow: SqlAlchemyUnitOfWork | None, owner: type) -> Self | R:
        if uow is None:
            return self
        built = uow._repositories
        if self._name not in built:
            built[self._name] = self._build(uow.current_session())
        repository: R = built[self._name]
        return repository


class SqlAlchemyUnitOfWork:
    """One database transaction per `with` block; repositories share its session. Inside a
    SessionScope (an API request) the block holds the scope's session instead of making one:
    what it commits is committed and what it leaves uncommitted is rolled back, as ever, but
    reads share the request's one connection and transaction (session_scope.py)."""

    accounts = _Repository(SqlAlchemyAccountRepository)
    fda_switches = _Repository(SqlAlchemyFdaSwitches)
    fda_trail = _Repository(SqlAlchemyAuditTrail)
    fda_reports = _Repository(SqlAlchemyFdaReportRepository)
    signatures = _Repository(SqlAlchemySignatureRepository)
    signature_reader = _Repository(SqlAlchemySignatureReader)
    endorsements = _Repository(SqlAlchemyEndorsementRepository)
    record_versions = _Repository(record_version_sources)  # record type -> its versions (core.fda.ports.RecordVersions)
    roles = _Repository(SqlAlchemyRoleRepository)
    account_info = _Repository(SqlAlchemyAccountInfoRepository)
    sessions = _Repository(SqlAlchemySessionRepository)
    throttle = _Repository(SqlAlchemyLoginThrottleRepository)
    codes = _Repository(SqlAlchemyVerificationCodeRepository)
    captchas = _Repository(SqlAlchemyCaptchaRepository)
    outbox = _Repository(SqlAlchemyOutboxRepository)
    custom_pages = _Repository(SqlAlchemyCustomPageRepository)
    merchant_configs = _Repository(SqlAlchemyMerchantConfigRepository)
    notices = _Repository(SqlAlchemyNoticeRepository)
    dictionary = _Repository(SqlAlchemyDictionaryRepository)
    devices = _Repository(SqlAlchemyDeviceExpiryRepository)
    device_registry = _Repository(SqlAlchemyDeviceRepository)
    broker_credentials = _Repository(SqlAlchemyBrokerCredentialRepository)
    history = _Repository(SqlAlchemyReadingHistoryRepository)
    device_events = _Repository(SqlAlchemyDeviceEventRepository)
    device_commands = _Repository(SqlAlchemyDeviceCommandRepository)
    maintenance = _Repository(SqlAlchemyMaintenanceRepository)
    readings = _Repository(SqlAlchemyReadingRepository)
    alarms = _Repository(SqlAlchemyAlarmRepository)
    catalogue = _Repository(SqlAlchemyCatalogueRepository)
    orders = _Repository(SqlAlchemyOrderRepository)
    bills = _Repository(SqlAlchemyBillRepository)
    agreements = _Repository(SqlAlchemyAgreementRepository)
    payment_notifications = _Repository(SqlAlchemyPaymentNotificationRepository)
    order_desk = _Repository(SqlAlchemyOrderDesk)
    refunds = _Repository(SqlAlchemyRefundRepository)
    offline = _Repository(SqlAlchemyOfflinePurchaseRepository)
    revenue = _Repository(SqlAlchemyRevenueQueries)
    invoices = _Repository(SqlAlchemyInvoiceRepository)
    device_service = _Repository(SqlAlchemyDeviceServiceRepository)
    expiry_reminders = _Repository(SqlAlchemyExpiryReminderRepository)
    job_runs = _Repository(SqlAlchemyJobRunRepository)
    operator_overview = _Repository(SqlAlchemyOperatorOverview)
    exports = _Repository(SqlAlchemyExportRepository)
    export_readings = _Repository(SqlAlchemyExportReadingSource)
    inbox = _Repository(SqlAlchemyInbox)
    report_schedules = _Repository(SqlAlchemyScheduleRepository)
    report_runs = _Repository(SqlAlchemyRunRepository)
    organizations = _Repository(SqlAlchemyOrganizationRepository)
    invitations = _Repository(SqlAlchemyInvitationRepository)
    organization_roles = _Repository(SqlAlchemyOrganizationRoleRepository)
    projects = _Repository(SqlAlchemyProjectRepository)
    templates = _Repository(SqlAlchemyTemplateRepository)
    shares = _Repository(SqlAlchemyShareRepository)
    custody = _Repository(SqlAlchemyCustody)
    assets = _Repository(SqlAlchemyAssetRepository)
    fences = _Repository(SqlAlchemyFenceRepository)
    fence_watch = _Repository(SqlAlchemyFenceWatchRepository)
    operation_log = _Repository(SqlAlchemyOperationLog)
    user_directory = _Repository(SqlAlchemyUserDirectory)
    promotions = _Repository(SqlAlchemyPromotionRepository)
    vouchers = _Repository(SqlAlchemyVoucherRepository)
    coupons = _Repository(SqlAlchemyVoucherRepository)  # ordering's view of them (core.vouchers.ledger)
    catalogue_admin = _Repository(SqlAlchemyCatalogueAdmin)
    waybills = _Repository(SqlAlchemyWaybillRepository)
    trip_readings = _Repository(SqlAlchemyTripReadings)
    waybill_links = _Repository(SqlAlchemyShareLinkRepository)
    waybill_lookups = _Repository(SqlAlchemyLookupLog)
    waybill_templates = _Repository(SqlAlchemyWaybillTemplateRepository)
    waybill_fences = _Repository(SqlAlchemyWaybillFences)
    calibration_applications = _Repository(SqlAlchemyApplicationRepository)
    calibration_prices = _Repository(SqlAlchemyPriceRepository)
    calibration_certificates = _Repository(SqlAlchemyCertificateRepository)
    certificate_numbers = _Repository(SqlAlchemyCertificateNumbers)
    calibrated_devices = _Repository(SqlAlchemyCalibratedDevices)
    calibration_reminders = _Repository(SqlAlchemyCalibrationReminders)
    calibration_reports = _Repository(SqlAlchemyCalibrationReports)

    def __init__(self, session_factory: sessionmaker[Session], scope: SessionScope | None = None) -> None:
        self._session_factory = session_factory
        self._scope = scope
        self._joined: SessionScope | None = None  # the scope whose session this block holds
        self.session: Session | None = None
        self._repositories: dict[str, Any] = {}

    def current_session(self) -> Session:
        if self.session is None:
            raise RuntimeError("a repository is used inside `with uow:` only")
        return self.session

    def __enter__(self) -> Self:
        if self.session is not None:
            raise RuntimeError("a unit of work is not re-entrant; use a new one")
        shared = self._scope.join() if self._scope is not None else None
        self._joined = self._scope if shared is not None else None
        self.session = shared or self._session_factory()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        session, self.session = self.current_session(), None
        self._repositories.clear()
        joined, self._joined = self._joined, None
        if joined is not None:
            joined.leave(session, failed=exc_type is not None)
            return
        try:
            session.rollback()
        finally:
            session.close()

    def commit(self) -> None:
        self.current_session().commit()

    def rollback(self) -> None:
        self.current_session().rollback()


if TYPE_CHECKING:
    # mypy's proof that this unit of work is every context's (the container hands it to all).
    def _every_context(uow: SqlAlchemyUnitOfWork) -> tuple[
            AccountsUnitOfWork, AlarmsUnitOfWork, DevicesUnitOfWork, NotificationsUnitOfWork, OrderingUnitOfWork,
            PlatformUnitOfWork, PricingUnitOfWork, TelemetryUnitOfWork, JobsUnitOfWork, BackOfficeUnitOfWork,
            ExportsUnitOfWork, InboxUnitOfWork, ReportsUnitOfWork, OrganizationsUnitOfWork,
            ProjectsUnitOfWork, SharingUnitOfWork, AssetsUnitOfWork, AuditUnitOfWork, UserAdminUnitOfWork,
            PromotionsUnitOfWork, VouchersUnitOfWork, CatalogueAdminUnitOfWork, GeofencesUnitOfWork,
            WaybillsUnitOfWork, DocumentsUnitOfWork,  # DocumentsUnitOfWork: calibration's, and its reports
            TrailUnitOfWork, FdaReportsUnitOfWork, FdaUnitOfWork]:
        return (uow, uow, uow, uow, uow, uow, uow, uow, uow, uow, uow, uow, uow, uow, uow, uow, uow, uow, uow, uow,
                uow, uow, uow, uow, uow, uow, uow, uow)
