"""The one place that knows both the core and the adapters: it builds the application from the
settings. Tests override single providers (`container.clock.override(...)`) instead of patching.

Views reach it through their app (`context.container()`), not through dependency-injector's
wiring: wiring patches module globals, so two applications in one process (the test suite runs a
SQLite and a PostgreSQL one side by side) would cross their dependencies."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from dependency_injector import containers, providers

from adapters.clock import SystemClock
from adapters.exports.calibration_documents import ReportlabCalibrationDocuments
from adapters.exports.files import LocalExportFiles
from adapters.exports.renderer import ExportRenderer
from adapters.i18n import Translator
from adapters.images.account_photos import FilePhotoStore
from adapters.maps.tiles import HttpTiles
from adapters.messaging.command_channel import MqttCommandChannel
from adapters.mosquitto.config import DEVICE_MOUNT_POINT
from adapters.mosquitto.dynsec import DynsecBrokerAccess, NoBrokerAccess
from adapters.mosquitto.passwords import MosquittoPasswordHasher
from adapters.notifications.development import LoggingMessageSender, LoggingReportMailer
from adapters.notifications.http_sms import HttpSmsVoiceSender
from adapters.notifications.router import ChannelRouter
from adapters.notifications.smtp import SmtpEmailSender, SmtpReportMailer
from adapters.payments.calibration import GatewayApplicationPayments
from adapters.payments.calibration_notifications import RoutedNotifications
from adapters.payments.development import DevelopmentPaymentGateway
from adapters.payments.gateways import camp_gateways, development_gateways
from adapters.payments.merchant_fields import ProviderMerchantFields
from adapters.persistence.database import make_engine, make_session_factory
from adapters.persistence.platform import merchant_accounts
from adapters.persistence.session_scope import SessionScope
from adapters.persistence.unit_of_work import SqlAlchemyUnitOfWork
from adapters.security.captcha_image import PillowCaptchaRenderer
from adapters.security.common_passwords import common_passwords
from adapters.security.passwords import Argon2PasswordHasher
from adapters.security.secret_box import SecretBox
from adapters.spreadsheets.device_sheet import XlsxDeviceSheets
from adapters.spreadsheets.promotion_sheet import XlsxPromotionSheets
from adapters.spreadsheets.user_sheet import XlsxUserSheet
from adapters.spreadsheets.voucher_sheet import XlsxVoucherSheet
from core.accounts.home_tiles import GetHomeTiles, SaveHomeTiles
from core.accounts.login_code import SendLoginCode
from core.accounts.password_policy import PasswordPolicy
from core.accounts.ports import PasswordHasher
from core.accounts.profile import (
    BindAccountContact,
    ChangeAccountBaseInfo,
    ChangeAccountCredentials,
    ChangeAccountPhoto,
    ChangeAccountPreferences,
    GetAccountInfo,
    GetAccountPhoto,
    UpdateUserProfile,
)
from core.accounts.registration import RecoverPassword, RegisterAccount, SendVerificationCode
from core.accounts.session import Authenticate, CredentialCheck, IssueCaptcha, Login, Logout, SwitchToPlatform
from core.alarms.centre import CountUntreatedAlarms, DealAlarm, ListAlarms, ListDeferrals
from core.alarms.management import CreateAlarmRule, DeleteAlarmRule, GetAlarmRule, ListAlarmRules, UpdateAlarmRule
from core.alarms.push_management import GetPushSetting, SavePushSetting
from core.alarms.use_cases import EscalateAlarms, EvaluateAlarms, RejudgeReadings
from core.assets.use_cases import (
    BindDevices,
    CreateAsset,
    DeleteAsset,
    GetAsset,
    ListAssets,
    SetAssetState,
    UnbindDevices,
    UpdateAsset,
)
from core.audit.use_cases import ExportOperations, ListDeviceOperations, ListOperations, RecordOperation
from core.backoffice.use_cases import CountOperatorHome
from core.calibration import documents as calibration_docs
from core.calibration import use_cases as calibration
from core.catalogue.use_cases import CatalogueAdmin
from core.devices.credentials import INGEST_USERNAME, GetBrokerCredential, ListBrokerAccounts, RotateBrokerCredentials
from core.devices.history import GetDeviceHistory
from core.devices.maintenance import (
    AddMaintenance,
    ChangeMaintenance,
    DeleteMaintenance,
    ListDeviceEvents,
    ListMaintenance,
)
from core.devices.ownership import ChangeOrganization
from core.devices.params import GetDeviceParams, RecordCommandAnswers, SaveDeviceParams
from core.devices.queries import GetExpiryReminder, ListExpiringDevices
from core.devices.registry import (
    AddDeviceByGuid,
    CountHomeDevices,
    GetDevice,
    ListDevices,
    ListDeviceTypes,
    MapDevices,
    UpdateDevice,
)
from core.devices.removal import ClearDeviceData, DeleteDevice, DeleteDevices
from core.devices.retention import PurgeExpiredReadings
from core.devices.scrapping import RestoreDevice, ScrapDevices
from core.devices.send_reminders import SendExpiryReminders
from core.devices.sheets import AddDevicesFromSheet, DeviceSheetTemplate
from core.devices.whereabouts import GetDeviceEnergy, GetDeviceTrack
from core.exports.use_cases import (
    CountReadyExports,
    DeleteExport,
    FailAbandonedExports,
    FailExport,
    GetExport,
    GetExportFile,
    ListExports,
    PurgeExpiredExports,
    RequestExport,
    RetryExport,
    RunExport,
    VerifyReport,
)
from core.fda import audit_trail
from core.fda import endorsements as fda_endorsements
from core.fda import reports as fda_reports
from core.fda import switch as fda_switch
from core.fda import use_cases as fda
from core.fda.model import Subject, TrailState
from core.fda.signing import Signing, SigningPolicy
from core.geofences.detection import DetectCrossings
from core.geofences.dwell import Dwell
from core.geofences.use_cases import BindDevices as BindFenceDevices
from core.geofences.use_cases import (
    CreateFence,
    DeleteFence,
    GetFence,
    ListFenceEvents,
    ListFences,
    UpdateFence,
)
from core.geofences.use_cases import UnbindDevices as UnbindFenceDevices
from core.inbox.use_cases import (
    AnswerMessage,
    GetMessageChannels,
    ListSystemMessages,
    MarkMessagesRead,
    SetMessageChannels,
)
from core.jobs.use_cases import ListJobRuns, OverdueJobs, PruneJobRuns
from core.notifications.model import Channel
from core.notifications.use_cases import DeliverPendingMessages
from core.ordering.back_office import ExportDeskOrders, GetOrderDossier, HandleOrder, ListDeskOrders
from core.ordering.bill_use_cases import DeleteBill, ListBills, SaveBill
from core.ordering.invoice_model import InvoicePolicy
from core.ordering.invoices import (
    CustomerInvoices,
    InvoiceDesk,
    InvoicePdf,
    IssueInvoice,
    RejectInvoice,
    RequestInvoice,
)
from core.ordering.offline import (
    CheckOfflineDevices,
    OfflinePurchases,
    RecordOfflinePurchase,
    ReviewOfflinePurchase,
)
from core.ordering.payment_flows import (
    CompleteProviderReturn,
    HandlePaymentNotification,
    ReconcilePayments,
    RecordPayerCancellation,
)
from core.ordering.refund_outcomes import HandleRefundNotification
from core.ordering.refunds import DecideRefund, OrderRefunds, PreviewRefund, RefundPolicy, RequestRefund, ResumeRefunds
from core.ordering.renewals import CancelAgreement, ChargeDueAgreements, SignAgreements
from core.ordering.statistics import GetRechargeStatistics
from core.ordering.unpaid_orders import CancelOrder, ResumePayment
from core.ordering.use_cases import (
    ConfirmWalletPayment,
    GetCurrentService,
    GetOrder,
    ListMyOrders,
    PlaceAlertOrder,
    PlaceServiceOrder,
    PreviewLevelResults,
    SettleOrder,
)
from core.organizations.custom_roles import CreateRole, DeleteRole, ListOrganizationRoles, UpdateRole
from core.organizations.invitations import InvitationAnswers
from core.organizations.use_cases import (
    ChangeMemberRole,
    CreateOrganization,
    DissolveOrganization,
    FindInvitee,
    HandOverCreator,
    InviteMember,
    ListMembers,
    ListMyOrganizations,
    RemoveMember,
    RenameOrganization,
    WithdrawInvitation,
)
from core.platform.merchants import (
    CampOfHost,
    DeleteMerchantConfig,
    GetMerchantConfig,
    MerchantOverview,
    SaveMerchantConfig,
)
from core.platform.queries import FindCustomPage, FindNotice, ListDictionary, ListNotices
from core.pricing.queries import (
    LevelNames,
    ListAlertPackages,
    ListLevels,
    ListServiceItems,
    ListYearOptions,
    QuoteBatch,
)
from core.projects.use_cases import (
    ChangeProject,
    CreateProject,
    DeleteProject,
    GetProject,
    ListProjects,
    UpdateProject,
)
from core.promotions.use_cases import (
    ActivityNames,
    AlertActivityDetailQuery,
    AlertPackageNames,
    AlertSalesSummary,
    AlertSheetTemplate,
    CopyActivity,
    DeleteActivity,
    DeleteAlertPackage,
    ExportActivityOrders,
    GetActivity,
    ImportAlertPackages,
    ListActivities,
    ListActivityOptions,
    ListActivityOrders,
    ListAlertPackagesAdmin,
    ListDeposits,
    PackageActivityDetailQuery,
    SaveActivity,
    SaveAlertPackage,
    SearchTargetAccounts,
    ServiceSalesSummary,
    SetActivityStatus,
    SortAlertPackages,
)
from core.reports.use_cases import (
    CreateSchedule,
    DeleteSchedule,
    ListRuns,
    ListSchedules,
    SendDueReports,
    UpdateSchedule,
)
from core.shared.clock import Clock
from core.shared.lookups import CountLookup
from core.sharing.use_cases import (
    ChangeShare,
    DeleteTemplate,
    ListShares,
    ListTemplates,
    PreviewTransfer,
    RevokeShares,
    SaveTemplate,
    ShareWith,
    Transfer,
)
from core.useradmin.use_cases import (
    AddUser,
    ApplyAsContractor,
    CertifyContractor,
    DeleteUser,
    ExportUsers,
    GetUser,
    ListSystemRoles,
    ListUsers,
    ModifyUser,
    ResetPasswordBySystem,
    RolesOfAccount,
    UpgradeToEnterprise,
)
from core.vouchers import use_cases as vouchers
from core.waybills import public as waybill_public
from core.waybills import use_cases as waybill
from core.waybills.fence_rules import WaybillFenceRules
from core.waybills.sharing import ReportSeal
from entrypoints.settings import Settings

T = TypeVar("T")


def _signed(use_case: Callable[..., T], uow: SqlAlchemyUnitOfWork, hasher: PasswordHasher, clock: Clock,
            policy: SigningPolicy, language: str, *args: Any) -> T:
    """`use_case(uow, *args, signing=...)` whose Signing works on that same unit of work: a change
    and its electronic signature are one transaction (core/fda/signing.py)."""
    return use_case(uow, *args, signing=Signing(uow, hasher, clock, policy, language))


def _trail_state(check: audit_trail.CheckTrail) -> Callable[[Subject], TrailState | None]:
    """A document's line on its subject's audit trail (the periodic report's, a signed export's),
    from the trail's own verification."""

    def state(subject: Subject) -> TrailState:
        found = check(subject)
        return TrailState(found.verified, found.links, found.first_broken.seq if found.first_broken else None,
                          found.checked_at, found.head_hash)

    return state


class Container(containers.DeclarativeContainer):
    settings = providers.Dependency(instance_of=Settings)
    edition = providers.Callable(lambda s: s.edition, settings)
    secret_key = providers.Callable(lambda s: s.secret_key_bytes, settings)
    default_language = providers.Callable(lambda s: s.edition.profile.default_language, settings)

    engine = providers.Singleton(make_engine, providers.Callable(lambda s: s.database_url, settings))
    # Seals the secrets kept in the database (platforms' merchant keys); every session carries it.
    secret_box = providers.Singleton(lambda keys: SecretBox(keys) if keys else None,
                                     providers.Callable(lambda s: s.config_encryption_keys, settings))
    session_factory = providers.Singleton(make_session_factory, engine, secret_box)
    # An API request opens the scope: its units of work share one session (session_scope.py).
    session_scope = providers.Singleton(SessionScope, session_factory)
    uow = providers.Factory(SqlAlchemyUnitOfWork, session_factory, session_scope)

    clock = providers.Singleton(SystemClock)
    translator = providers.Singleton(Translator)
    hasher = providers.Singleton(
        Argon2PasswordHasher,
        time_cost=providers.Callable(lambda s: s.password_time_cost, settings),
        memory_cost_kib=providers.Callable(lambda s: s.password_memory_kib, settings),
        parallelism=providers.Callable(lambda s: s.password_parallelism, settings),
    )
    captcha_renderer = providers.Singleton(PillowCaptchaRenderer)
    # NOTIFICATION_BACKEND=development (default): server log + outbox table; providers: SMS and
    # voice over the SMS provider's HTTP API, e-mail over SMTP.
    _providers = providers.Callable(lambda s: s.providers, settings)
    sms_voice_sender = providers.Singleton(
        HttpSmsVoiceSender, providers.Callable(lambda p: p.sms_base_url, _providers),
        providers.Callable(lambda p: p.sms_api_key, _providers), translator,
        providers.Callable(lambda s: s.edition.profile.default_country_code, settings))
    email_sender = providers.Singleton(
        SmtpEmailSender, providers.Callable(lambda p: p.smtp_url, _providers),
        providers.Callable(lambda p: p.mail_from, _providers), translator)
    message_sender = providers.Selector(
        providers.Callable(lambda s: s.notification_backend, settings),
        development=providers.Singleton(LoggingMessageSender, translator),
        providers=providers.Singleton(ChannelRouter, providers.Dict({
            Channel.PHONE: sms_voice_sender, Channel.VOICE: sms_voice_sender, Channel.EMAIL: email_sender})),
    )
    credentials = providers.Singleton(CredentialCheck, hasher, default_language)
    # Electronic signatures (issue 22): FDA_REAUTH_MINUTES, FDA_SIGNING_LOCK_MINUTES.
    signing_policy = providers.Callable(
        lambda s: SigningPolicy(timedelta(minutes=s.fda_reauth_minutes), timedelta(minutes=s.fda_signing_lock_minutes)),
        settings)
    fda_status = providers.Factory(fda_switch.FdaStatus, uow)
    enable_fda = providers.Factory(fda_switch.EnableFda, uow)
    disable_fda = providers.Factory(_signed, fda_switch.DisableFda, uow, hasher, clock, signing_policy,
                                    default_language)
    sign_record = providers.Factory(_signed, fda.SignRecord, uow, hasher, clock, signing_policy, default_language)
    record_signatures = providers.Factory(_signed, fda.RecordSignatures, uow, hasher, clock, signing_policy,
                                          default_language)
    list_signatures = providers.Factory(_signed, fda.ListSignatures, uow, hasher, clock, signing_policy,
                                        default_language)
    signing_state = providers.Factory(_signed, fda.GetSigningState, uow, hasher, clock, signing_policy,
                                      default_language)
    unlock_signing = providers.Factory(fda.UnlockSigning, uow, clock)
    list_endorsements = providers.Factory(fda_endorsements.ListEndorsements, uow)
    add_endorsement = providers.Factory(fda_endorsements.AddEndorsement, uow, clock)
    change_endorsement = providers.Factory(fda_endorsements.ChangeEndorsement, uow, clock)
    delete_endorsement = providers.Factory(fda_endorsements.DeleteEndorsement, uow)
    password_policy = providers.Singleton(PasswordPolicy, providers.Callable(common_passwords))

    login = providers.Factory(Login, uow, credentials, clock, secret_key)
    switch_platform = providers.Factory(SwitchToPlatform, uow, credentials, clock)
    authenticate = providers.Factory(Authenticate, uow, clock)
    logout = providers.Factory(Logout, uow, clock)
    issue_captcha = providers.Factory(IssueCaptcha, uow, captcha_renderer, clock, secret_key)
    send_code = providers.Factory(SendVerificationCode, uow, clock, edition, secret_key)
    send_login_code = providers.Factory(SendLoginCode, uow, clock, secret_key)
    register = providers.Factory(RegisterAccount, uow, hasher, password_policy, clock, edition, secret_key)
    recover_password = providers.Factory(RecoverPassword, uow, hasher, password_policy, clock, edition, secret_key)
    deliver_messages = providers.Factory(DeliverPendingMessages, uow, message_sender, clock)
    account_info = providers.Factory(GetAccountInfo, uow, clock)
    update_profile = providers.Factory(UpdateUserProfile, uow)
    photos = providers.Singleton(FilePhotoStore, providers.Callable(lambda s: s.photo_dir, settings))
    change_preferences = providers.Factory(ChangeAccountPreferences, uow)
    change_photo = providers.Factory(ChangeAccountPhoto, uow, photos)
    account_photo = providers.Factory(GetAccountPhoto, uow, photos)
    list_system_messages = providers.Factory(ListSystemMessages, uow)
    mark_messages_read = providers.Factory(MarkMessagesRead, uow, clock)
    # One unit of work for the answer and what it sets off (an approved invitation's membership).
    answer_message = providers.Factory(
        lambda uow, clock: AnswerMessage(uow, clock, (InvitationAnswers(uow),)), uow, clock)
    message_channels = providers.Factory(GetMessageChannels, uow)
    set_message_channels = providers.Factory(SetMessageChannels, uow)
    home_tiles = providers.Factory(GetHomeTiles, uow)
    my_organizations = providers.Factory(ListMyOrganizations, uow)
    create_organization = providers.Factory(CreateOrganization, uow, clock)
    rename_organization = providers.Factory(RenameOrganization, uow)
    dissolve_organization = providers.Factory(DissolveOrganization, uow)
    organization_members = providers.Factory(ListMembers, uow, clock)
    find_invitee = providers.Factory(FindInvitee, uow)
    invite_member = providers.Factory(InviteMember, uow, clock, default_language)
    withdraw_invitation = providers.Factory(WithdrawInvitation, uow, clock)
    remove_member = providers.Factory(RemoveMember, uow)
    change_member_role = providers.Factory(ChangeMemberRole, uow)
    hand_over_organization = providers.Factory(HandOverCreator, uow)
    organization_roles = providers.Factory(ListOrganizationRoles, uow)
    create_role = providers.Factory(CreateRole, uow)
    update_role = providers.Factory(UpdateRole, uow)
    delete_role = providers.Factory(DeleteRole, uow, clock)
    save_home_tiles = providers.Factory(SaveHomeTiles, uow, clock)
    change_base_info = providers.Factory(ChangeAccountBaseInfo, uow)
    bind_contact = providers.Factory(BindAccountContact, uow, clock, edition, secret_key)
    change_credentials = providers.Factory(ChangeAccountCredentials, uow, credentials, hasher, password_policy,
                                           clock, edition, secret_key)
    find_custom_page = providers.Factory(FindCustomPage, uow)
    camp_of_host = providers.Factory(CampOfHost, uow)
    merchant_fields = providers.Singleton(ProviderMerchantFields,
                                          providers.Callable(lambda s: s.payment_providers, settings))
    merchant_overview = providers.Factory(MerchantOverview, uow, merchant_fields)
    get_merchant_config = providers.Factory(GetMerchantConfig, uow, merchant_fields)
    save_merchant_config = providers.Factory(SaveMerchantConfig, uow, merchant_fields, clock)
    delete_merchant_config = providers.Factory(DeleteMerchantConfig, uow, merchant_fields)
    find_notice = providers.Factory(FindNotice, uow, clock)
    list_notices = providers.Factory(ListNotices, uow)
    list_dictionary = providers.Factory(ListDictionary, uow)
    list_expiring_devices = providers.Factory(ListExpiringDevices, uow, clock)
    expiry_reminder = providers.Factory(GetExpiryReminder, uow, clock)
    broker_hasher = providers.Singleton(MosquittoPasswordHasher)
    # The running broker's device logins: through the dynamic-security plugin as the console's own
    # login where it has one (production, `make run`'s private broker), else left alone.
    broker_access = providers.Selector(
        providers.Callable(lambda s: "dynsec" if s.mqtt_admin_password else "none", settings),
        dynsec=providers.Factory(DynsecBrokerAccess, providers.Callable(lambda s: s.mqtt_url, settings),
                                 providers.Callable(lambda s: s.mqtt_admin_password, settings)),
        none=providers.Singleton(NoBrokerAccess),
    )
    list_devices = providers.Factory(ListDevices, uow, clock)
    map_devices = providers.Factory(MapDevices, uow, clock)
    get_device = providers.Factory(GetDevice, uow, clock)
    home_counts = providers.Factory(CountHomeDevices, uow, clock)
    operator_home_counts = providers.Factory(CountOperatorHome, uow, clock)
    list_device_types = providers.Factory(ListDeviceTypes, uow)
    add_device = providers.Factory(AddDeviceByGuid, uow, clock, edition, broker_hasher, broker_access)
    update_device = providers.Factory(UpdateDevice, uow, clock, edition)
    delete_device = providers.Factory(DeleteDevice, uow, broker_access, clock)
    delete_devices = providers.Factory(DeleteDevices, uow, broker_access, clock)
    clear_device_data = providers.Factory(ClearDeviceData, uow, clock)
    scrap_devices = providers.Factory(ScrapDevices, uow, broker_access, clock)
    restore_device = providers.Factory(RestoreDevice, uow, broker_access, clock)
    change_organization = providers.Factory(ChangeOrganization, uow)
    device_sheets = providers.Singleton(XlsxDeviceSheets)
    add_devices_from_sheet = providers.Factory(AddDevicesFromSheet, uow, clock, edition, broker_hasher, broker_access,
                                               device_sheets)
    device_sheet_template = providers.Factory(DeviceSheetTemplate, uow, device_sheets)
    device_history = providers.Factory(GetDeviceHistory, uow)
    device_track = providers.Factory(GetDeviceTrack, uow)
    device_energy = providers.Factory(GetDeviceEnergy, uow)
    rotate_broker_credentials = providers.Factory(RotateBrokerCredentials, uow, broker_hasher, clock,
                                                  broker_access)
    broker_credential = providers.Factory(GetBrokerCredential, uow)
    broker_accounts = providers.Factory(ListBrokerAccounts, uow, broker_hasher)
    # Commands to devices go out as the ingest login, under the devices' listener's mount point as
    # the ingest listener shows it ("" where the broker has none: EmbeddedIngest overrides it).
    command_topic_prefix = providers.Object(DEVICE_MOUNT_POINT)
    command_channel = providers.Factory(
        MqttCommandChannel, providers.Callable(lambda s: s.mqtt_url, settings),
        providers.Callable(lambda s: INGEST_USERNAME if s.mqtt_ingest_password else None, settings),
        providers.Callable(lambda s: s.mqtt_ingest_password, settings), command_topic_prefix)
    get_device_params = providers.Factory(GetDeviceParams, uow, clock)
    save_device_params = providers.Factory(_signed, SaveDeviceParams, uow, hasher, clock, signing_policy,
                                           default_language, clock, command_channel)
    record_command_answers = providers.Factory(RecordCommandAnswers, uow, clock)
    list_maintenance = providers.Factory(ListMaintenance, uow)
    add_maintenance = providers.Factory(AddMaintenance, uow, clock)
    change_maintenance = providers.Factory(ChangeMaintenance, uow, clock)
    delete_maintenance = providers.Factory(DeleteMaintenance, uow, clock)
    list_device_events = providers.Factory(ListDeviceEvents, uow)
    purge_readings = providers.Factory(PurgeExpiredReadings, uow, clock)
    send_expiry_reminders = providers.Factory(SendExpiryReminders, uow, clock, edition)
    # Alarms: evaluate_alarms runs inside the ingest batch's unit of work; escalate_alarms every minute.
    evaluate_alarms = providers.Factory(EvaluateAlarms, clock, edition)
    # Geofences: the crossing detection runs inside the ingest batch's unit of work; whoever listens
    # to crossings (the waybills) is told once the batch is committed. Nothing listens yet.
    # A crossing starts or finishes the device's waybills whose origin or destination the fence is.
    # A trip begun or ended at an instant already past has its devices' readings since judged again.
    rejudge_readings = providers.Factory(RejudgeReadings, uow, clock, edition)
    fence_crossing_listener = providers.Factory(WaybillFenceRules, uow, rejudge_readings)
    fence_dwell = providers.Callable(lambda s: Dwell(s.fence_dwell_readings, s.fence_dwell_minutes or None), settings)
    detect_crossings = providers.Factory(DetectCrossings, clock, edition, fence_crossing_listener, fence_dwell)
    escalate_alarms = providers.Factory(EscalateAlarms, uow, clock, edition)
    list_alarm_rules = providers.Factory(ListAlarmRules, uow)
    get_alarm_rule = providers.Factory(GetAlarmRule, uow)
    create_alarm_rule = providers.Factory(_signed, CreateAlarmRule, uow, hasher, clock, signing_policy,
                                          default_language, clock, edition)
    update_alarm_rule = providers.Factory(_signed, UpdateAlarmRule, uow, hasher, clock, signing_policy,
                                          default_language, clock, edition)
    delete_alarm_rule = providers.Factory(_signed, DeleteAlarmRule, uow, hasher, clock, signing_policy,
                                          default_language, clock)
    get_push_setting = providers.Factory(GetPushSetting, uow)
    save_push_setting = providers.Factory(SavePushSetting, uow, clock)
    list_alarms = providers.Factory(ListAlarms, uow, clock)
    deal_alarm = providers.Factory(_signed, DealAlarm, uow, hasher, clock, signing_policy, default_language, clock)
    list_alarm_deferrals = providers.Factory(ListDeferrals, uow, clock)
    count_untreated_alarms = providers.Factory(CountUntreatedAlarms, uow, clock)
    # Recharge. PAYMENT_BACKEND=development: one gateway of our own stands in for every provider.
    # Either way only the providers switched on are offered (settings.switched_on_providers).
    development_gateway = providers.Singleton(
        DevelopmentPaymentGateway, providers.Callable(lambda s: s.public_base_url, settings), secret_key)
    # Every pay type's gateway (a Mapping[PayType, PaymentGateway]), each provider's built from
    # its own configuration (settings.payments).
    _switched_on = providers.Callable(lambda s: s.switched_on_providers, settings)
    payment_gateways = providers.Selector(
        providers.Callable(lambda s: s.payment_backend, settings),
        development=providers.Singleton(development_gateways, _switched_on, development_gateway),
        # Each camp's own merchant accounts (core.platform.merchants) where it has them.
        providers=providers.Singleton(
            camp_gateways, providers.Callable(lambda s: s.payments, settings),
            providers.Callable(lambda s: s.payment_providers, settings), _switched_on,
            providers.Callable(lambda s: s.public_base_url, settings),
            providers.Callable(merchant_accounts, session_factory),
            providers.Callable(lambda s: s.var_dir / "merchant-keys", settings)),
    )
    list_service_items = providers.Factory(ListServiceItems, uow, edition)
    level_names = providers.Factory(LevelNames, uow, edition)
    list_levels = providers.Factory(ListLevels, uow, clock, edition)
    list_year_options = providers.Factory(ListYearOptions, uow, clock, edition)
    quote_batch = providers.Factory(QuoteBatch, uow, clock, edition)
    list_alert_packages = providers.Factory(ListAlertPackages, uow, edition)
    place_service_order = providers.Factory(PlaceServiceOrder, uow, payment_gateways, clock, edition)
    place_alert_order = providers.Factory(PlaceAlertOrder, uow, payment_gateways, clock, edition)
    get_order = providers.Factory(GetOrder, uow)
    list_my_orders = providers.Factory(ListMyOrders, uow)
    settle_order = providers.Factory(SettleOrder, uow, clock, default_language)
    handle_refund_notification = providers.Factory(HandleRefundNotification, uow, clock, default_language)
    handle_payment_notification = providers.Factory(HandlePaymentNotification, uow, payment_gateways, settle_order,
                                                    clock, handle_refund_notification)
    complete_provider_return = providers.Factory(CompleteProviderReturn, uow, payment_gateways, settle_order)
    record_payer_cancellation = providers.Factory(RecordPayerCancellation, uow)
    reconcile_payments = providers.Factory(ReconcilePayments, uow, payment_gateways, settle_order, clock)
    refund_policy = providers.Callable(lambda s: RefundPolicy(s.refund_approval_above_cents), settings)
    preview_refund = providers.Factory(PreviewRefund, uow, refund_policy, clock)
    request_refund = providers.Factory(RequestRefund, uow, payment_gateways, clock, refund_policy, default_language)
    decide_refund = providers.Factory(DecideRefund, uow, payment_gateways, clock, default_language)
    resume_refunds = providers.Factory(ResumeRefunds, uow, payment_gateways, clock, default_language)
    order_refunds = providers.Factory(OrderRefunds, uow)
    check_offline_devices = providers.Factory(CheckOfflineDevices, uow, clock, edition)
    record_offline_purchase = providers.Factory(RecordOfflinePurchase, uow, clock, edition)
    review_offline_purchase = providers.Factory(ReviewOfflinePurchase, uow, clock)
    offline_purchases = providers.Factory(OfflinePurchases, uow)
    recharge_statistics = providers.Factory(GetRechargeStatistics, uow)
    # invoices: "sent within three working days", counted in the edition's time zone
    invoice_policy = providers.Callable(lambda s: InvoicePolicy(s.edition.profile.default_time_zone), settings)
    request_invoice = providers.Factory(RequestInvoice, uow, clock)
    issue_invoice = providers.Factory(IssueInvoice, uow, clock, default_language)
    reject_invoice = providers.Factory(RejectInvoice, uow, clock, default_language)
    customer_invoices = providers.Factory(CustomerInvoices, uow)
    invoice_desk = providers.Factory(InvoiceDesk, uow, invoice_policy, clock)
    invoice_pdf = providers.Factory(InvoicePdf, uow)
    list_desk_orders = providers.Factory(ListDeskOrders, uow)
    export_desk_orders = providers.Factory(ExportDeskOrders, uow)
    order_dossier = providers.Factory(GetOrderDossier, uow)
    handle_order = providers.Factory(HandleOrder, uow, payment_gateways, settle_order)
    cancel_order = providers.Factory(CancelOrder, uow, payment_gateways, clock)
    resume_payment = providers.Factory(ResumePayment, uow, payment_gateways, clock)
    preview_level_results = providers.Factory(PreviewLevelResults, uow, clock)
    confirm_wallet_payment = providers.Factory(ConfirmWalletPayment, uow, payment_gateways, settle_order, edition)
    current_service = providers.Factory(GetCurrentService, uow)
    cancel_agreement = providers.Factory(CancelAgreement, uow, payment_gateways, clock)
    sign_agreements = providers.Factory(SignAgreements, uow, payment_gateways, clock)
    charge_due_agreements = providers.Factory(ChargeDueAgreements, uow, payment_gateways, settle_order, clock,
                                              default_language)
    list_bills = providers.Factory(ListBills, uow)
    save_bill = providers.Factory(SaveBill, uow, edition)
    delete_bill = providers.Factory(DeleteBill, uow)
    list_job_runs = providers.Factory(ListJobRuns, uow)
    prune_job_runs = providers.Factory(PruneJobRuns, uow, clock)
    overdue_jobs = providers.Factory(OverdueJobs, uow, clock)
    # Exports: the API records one, a job writes its file (entrypoints/jobs), the owner downloads it.
    export_files = providers.Singleton(LocalExportFiles, providers.Callable(lambda s: s.export_dir, settings))
    export_renderer = providers.Singleton(ExportRenderer)
    # A device's readings export is signed where FDA mode is on, and its files state the signature
    # and whether the subject's audit trail verified (core.exports.signed).
    fda_trail_check = providers.Factory(_trail_state, providers.Factory(audit_trail.CheckTrail, uow, clock))
    request_export = providers.Factory(_signed, RequestExport, uow, hasher, clock, signing_policy, default_language,
                                       clock)
    run_export = providers.Factory(RunExport, uow, export_files, export_renderer, clock,
                                   providers.Callable(lambda t: t.translate, translator), secret_key, default_language,
                                   trail=fda_trail_check,
                                   translate_in_context=providers.Callable(lambda t: t.pgettext, translator))
    retry_export = providers.Factory(_signed, RetryExport, uow, hasher, clock, signing_policy, default_language, clock)
    fail_export = providers.Factory(FailExport, uow, clock, default_language)
    fail_abandoned_exports = providers.Factory(FailAbandonedExports, uow, clock, default_language)
    list_exports = providers.Factory(ListExports, uow)
    get_export = providers.Factory(GetExport, uow)
    count_ready_exports = providers.Factory(CountReadyExports, uow)
    get_export_file = providers.Factory(GetExportFile, uow, export_files)
    delete_export = providers.Factory(DeleteExport, uow, export_files)
    purge_exports = providers.Factory(PurgeExpiredExports, uow, export_files, clock)
    # Scheduled reports: files written as the download centre's, mailed by a periodic job.
    report_mailer = providers.Selector(
        providers.Callable(lambda s: s.notification_backend, settings),
        development=providers.Singleton(LoggingReportMailer),
        providers=providers.Singleton(SmtpReportMailer, email_sender))
    create_schedule = providers.Factory(CreateSchedule, uow, clock)
    update_schedule = providers.Factory(UpdateSchedule, uow)
    delete_schedule = providers.Factory(DeleteSchedule, uow)
    list_schedules = providers.Factory(ListSchedules, uow)
    list_report_runs = providers.Factory(ListRuns, uow)
    send_due_reports = providers.Factory(
        SendDueReports, uow, clock, providers.Factory(run_export, notify=False), export_files, report_mailer,
        providers.Callable(lambda t: t.translate, translator), default_language,
        providers.Callable(lambda s: s.edition.profile.default_time_zone, settings),
        providers.Callable(lambda s: s.public_base_url.rstrip("/") + "/consumer/download", settings))
    verify_report = providers.Factory(VerifyReport, uow, secret_key)
    # The operation log: written by the persistence adapter's capture, read here.
    list_operations = providers.Factory(ListOperations, uow)
    export_operations = providers.Factory(ExportOperations, uow)
    list_device_operations = providers.Factory(ListDeviceOperations, uow)
    record_operation = providers.Factory(RecordOperation, uow)
    # Projects: an account's groups of devices.
    list_projects = providers.Factory(ListProjects, uow)
    get_project = providers.Factory(GetProject, uow)
    create_project = providers.Factory(CreateProject, uow, clock)
    update_project = providers.Factory(UpdateProject, uow)
    delete_project = providers.Factory(DeleteProject, uow)
    change_project = providers.Factory(ChangeProject, uow)
    # Sharing and transfer: permission templates, shares, handing devices over.
    list_templates = providers.Factory(ListTemplates, uow)
    save_template = providers.Factory(SaveTemplate, uow)
    delete_template = providers.Factory(DeleteTemplate, uow)
    share_devices = providers.Factory(ShareWith, uow, clock)
    list_shares = providers.Factory(ListShares, uow, clock)
    change_share = providers.Factory(ChangeShare, uow, clock)
    revoke_shares = providers.Factory(RevokeShares, uow, clock)
    preview_transfer = providers.Factory(PreviewTransfer, uow, clock)
    transfer_devices = providers.Factory(Transfer, uow, clock)
    # Assets: cold things and the devices watching them.
    list_assets = providers.Factory(ListAssets, uow)
    get_asset = providers.Factory(GetAsset, uow)
    create_asset = providers.Factory(CreateAsset, uow, clock)
    update_asset = providers.Factory(UpdateAsset, uow)
    delete_asset = providers.Factory(DeleteAsset, uow)
    set_asset_state = providers.Factory(SetAssetState, uow)
    bind_asset_devices = providers.Factory(BindDevices, uow)
    unbind_asset_devices = providers.Factory(UnbindDevices, uow)
    # Geofences: areas on the map and the devices watched against them.
    list_fences = providers.Factory(ListFences, uow)
    get_fence = providers.Factory(GetFence, uow)
    create_fence = providers.Factory(CreateFence, uow, clock)
    update_fence = providers.Factory(UpdateFence, uow)
    delete_fence = providers.Factory(DeleteFence, uow)
    bind_fence_devices = providers.Factory(BindFenceDevices, uow)
    unbind_fence_devices = providers.Factory(UnbindFenceDevices, uow)
    list_fence_events = providers.Factory(ListFenceEvents, uow)
    # Waybills (issue 20): trips with their limits, devices, reports, share links and quick query.
    report_seal = providers.Singleton(ReportSeal, providers.Callable(lambda s: s.secret_key_bytes, settings))
    # The trip report's route map lays the maps' base tiles under the routes when MAP_TILE_URL is set.
    map_tiles = providers.Singleton(
        lambda s: HttpTiles(s.map_tile_url, s.public_base_url) if s.map_tile_url else None, settings)
    list_waybills = providers.Factory(waybill.ListWaybills, uow)
    get_waybill = providers.Factory(waybill.GetWaybill, uow, clock)
    create_waybill = providers.Factory(waybill.CreateWaybill, uow, clock)
    update_waybill = providers.Factory(waybill.UpdateWaybill, uow, clock)
    delete_waybill = providers.Factory(waybill.DeleteWaybill, uow)
    bind_waybill_devices = providers.Factory(waybill.BindDevices, uow, clock)
    unbind_waybill_devices = providers.Factory(waybill.UnbindDevices, uow, clock)
    change_waybill_state = providers.Factory(waybill.ChangeWaybillState, uow, clock)
    run_due_waybills = providers.Factory(waybill.RunDueWaybills, uow, clock, rejudge_readings)
    count_waybill_alarms = providers.Factory(waybill.CountAlarms, uow, clock)
    trip_report = providers.Factory(waybill.GetTripReport, uow, clock, report_seal)
    save_waybill_template = providers.Factory(waybill.SaveTemplate, uow, clock)
    get_waybill_template = providers.Factory(waybill.GetTemplate, uow)
    delete_waybill_template = providers.Factory(waybill.DeleteTemplate, uow)
    list_waybill_templates = providers.Factory(waybill.ListTemplates, uow)
    create_waybill_link = providers.Factory(waybill_public.CreateShareLink, uow, clock)
    list_waybill_links = providers.Factory(waybill_public.ListShareLinks, uow)
    revoke_waybill_link = providers.Factory(waybill_public.RevokeShareLink, uow, clock)
    waybill_quick_query = providers.Factory(waybill_public.QuickQuery, uow, clock, report_seal)
    open_waybill_link = providers.Factory(waybill_public.OpenShareLink, uow, clock, report_seal)
    verify_waybill_report = providers.Factory(waybill_public.VerifyReport, uow, clock, report_seal)

    # Calibration (issue 21): applications, the lab's work, certificates, due dates and reminders.
    # Provided as their calls are built: a quote, a device's interval and results given as fields
    # (RecordResult) have no call yet.
    apply_calibration = providers.Factory(calibration.Apply, uow, clock, edition)
    place_calibration_quick_order = providers.Factory(calibration.PlaceQuickOrder, uow, clock, edition)
    handle_calibration_quick_order = providers.Factory(calibration.HandleQuickOrder, uow, clock)
    update_calibration_details = providers.Factory(calibration.UpdateDetails, uow, clock)
    settle_calibration_payment = providers.Factory(calibration.SettlePayment, uow, clock)
    check_calibration_cancel = providers.Factory(calibration.CheckCancel, uow)
    set_calibration_tracking = providers.Factory(calibration.SetTrackingNumber, uow, clock)
    change_calibration_status = providers.Factory(calibration.ChangeStatus, uow, clock)
    read_calibration = providers.Factory(calibration.ReadApplication, uow)
    list_calibrations = providers.Factory(calibration.ListApplications, uow)
    list_calibration_prices = providers.Factory(calibration.ListPrices, uow, edition)
    set_calibration_price = providers.Factory(calibration.SetPrice, uow, edition)
    import_calibration_certificate = providers.Factory(calibration.ImportCertificate, uow, clock, edition)
    explain_calibration_result = providers.Factory(calibration.ExplainResult, uow, clock, edition)
    issue_calibration_certificate = providers.Factory(
        calibration.IssueCertificate, uow, clock, edition, providers.Callable(lambda s: s.certificate_prefix, settings))
    correct_calibration_certificate = providers.Factory(calibration.CorrectCertificate, uow, clock, edition)
    read_calibration_certificates = providers.Factory(calibration.ReadCertificates, uow)
    send_calibration_reminders = providers.Factory(calibration.SendDueReminders, uow, clock, edition)
    read_device_calibration = providers.Factory(calibration.ReadDeviceCalibration, uow)
    set_calibration_interval = providers.Factory(calibration.SetCalibrationInterval, uow)
    # Calibration payments: ordering's gateways (adapters.payments.calibration), the providers'
    # notifications of application numbers taken out before ordering's handler reads them.
    application_payments = providers.Factory(
        GatewayApplicationPayments, payment_gateways, providers.Callable(lambda s: s.public_base_url, settings))
    start_calibration_payment = providers.Factory(calibration.StartPayment, uow, application_payments, edition)
    confirm_calibration_payment = providers.Factory(calibration.ConfirmPayment, uow, application_payments, clock)
    cancel_calibration = providers.Factory(calibration.CancelApplication, uow, application_payments, clock)
    resume_calibration_refunds = providers.Factory(calibration.ResumeRefunds, uow, application_payments)
    record_calibration_refund = providers.Factory(calibration.RecordRefundOutcome, uow)
    handle_provider_notification = providers.Factory(
        RoutedNotifications, handle_payment_notification, uow, payment_gateways, settle_calibration_payment,
        record_calibration_refund, clock)
    # Calibration documents (issue 21): certificate and order PDFs, the order's QR code, the lab's report.
    calibration_documents = providers.Singleton(ReportlabCalibrationDocuments,
                                                providers.Callable(lambda t: t.translate, translator))
    calibration_order_base_url = providers.Callable(lambda s: s.public_base_url, settings)
    calibration_certificate_pdf = providers.Factory(calibration_docs.CertificatePdf, uow, calibration_documents,
                                                    edition)
    calibration_order_pdf = providers.Factory(calibration_docs.OrderPdf, uow, calibration_documents,
                                              calibration_order_base_url)
    calibration_order_qr = providers.Factory(calibration_docs.OrderQr, uow, calibration_documents,
                                             calibration_order_base_url)
    upload_calibration_report = providers.Factory(calibration_docs.UploadReport, uow, clock)
    calibration_report = providers.Factory(calibration_docs.DownloadReport, uow)
    # FDA periodic reports (issue 22); the PDF states whether the subject's audit trail verified.
    create_fda_report = providers.Factory(fda_reports.CreateReport, uow, clock)
    list_fda_reports = providers.Factory(fda_reports.ListReports, uow)
    get_fda_report = providers.Factory(fda_reports.GetReport, uow)
    fda_report_pdf = providers.Factory(fda_reports.ReportPdf, uow, export_renderer,
                                       providers.Callable(lambda t: t.translate, translator),
                                       providers.Callable(lambda t: t.pgettext, translator), clock, fda_trail_check)
    # the public lookups' rate limit per client address, shared with the waybill quick query
    count_public_lookup = providers.Factory(CountLookup, uow, clock)
    # User administration (back office) and the contractor application.
    list_users = providers.Factory(ListUsers, uow)
    level_icons = providers.Singleton(FilePhotoStore,
                                      providers.Callable(lambda s: s.photo_dir / "level-icons", settings))
    catalogue_admin = providers.Factory(CatalogueAdmin, uow, clock, edition, level_icons)
    get_user = providers.Factory(GetUser, uow)
    add_user = providers.Factory(AddUser, uow, hasher, password_policy, clock, edition)
    modify_user = providers.Factory(ModifyUser, uow, edition)
    delete_user = providers.Factory(DeleteUser, uow, clock)
    reset_password_by_system = providers.Factory(ResetPasswordBySystem, uow, hasher, password_policy, clock)
    upgrade_to_enterprise = providers.Factory(UpgradeToEnterprise, uow)
    apply_as_contractor = providers.Factory(ApplyAsContractor, uow, clock)
    certify_contractor = providers.Factory(CertifyContractor, uow, clock)
    export_users = providers.Factory(ExportUsers, uow, providers.Singleton(XlsxUserSheet))
    # Promotions (back office): activities and SMS/voice packages.
    promotion_sheets = providers.Singleton(XlsxPromotionSheets)
    list_activities = providers.Factory(ListActivities, uow)
    get_activity = providers.Factory(GetActivity, uow)
    list_activity_options = providers.Factory(ListActivityOptions, uow, edition)
    search_target_accounts = providers.Factory(SearchTargetAccounts, uow)
    save_activity = providers.Factory(SaveActivity, uow, clock)
    set_activity_status = providers.Factory(SetActivityStatus, uow)
    delete_activity = providers.Factory(DeleteActivity, uow)
    copy_activity = providers.Factory(CopyActivity, uow, clock)
    list_deposits = providers.Factory(ListDeposits, uow)
    service_sales_summary = providers.Factory(ServiceSalesSummary, uow, edition)
    alert_sales_summary = providers.Factory(AlertSalesSummary, uow)
    alert_activity_detail = providers.Factory(AlertActivityDetailQuery, uow)
    package_activity_detail = providers.Factory(PackageActivityDetailQuery, uow, edition, clock)
    list_activity_orders = providers.Factory(ListActivityOrders, uow)
    export_activity_orders = providers.Factory(ExportActivityOrders, uow, promotion_sheets)
    list_alert_packages_admin = providers.Factory(ListAlertPackagesAdmin, uow)
    save_alert_package = providers.Factory(SaveAlertPackage, uow)
    delete_alert_package = providers.Factory(DeleteAlertPackage, uow)
    sort_alert_packages = providers.Factory(SortAlertPackages, uow)
    import_alert_packages = providers.Factory(ImportAlertPackages, uow, promotion_sheets)
    alert_sheet_template = providers.Factory(AlertSheetTemplate, promotion_sheets)
    alert_package_names = providers.Factory(AlertPackageNames, uow, edition)
    activity_names = providers.Factory(ActivityNames, uow, edition)
    list_system_roles = providers.Factory(ListSystemRoles, uow)
    roles_of_account = providers.Factory(RolesOfAccount, uow)

    # Coupons and prepaid recharge cards.
    voucher_sheet = providers.Singleton(XlsxVoucherSheet)
    create_coupon_batch = providers.Factory(vouchers.CreateCouponBatch, uow, clock, edition)
    list_coupon_batches = providers.Factory(vouchers.ListCouponBatches, uow)
    list_coupons = providers.Factory(vouchers.ListCoupons, uow)
    update_coupon_batch = providers.Factory(vouchers.UpdateCouponBatch, uow)
    export_coupons = providers.Factory(vouchers.ExportCoupons, uow, voucher_sheet)
    check_coupon = providers.Factory(vouchers.CheckCoupon, uow, clock, edition)
    my_coupons = providers.Factory(vouchers.MyCoupons, uow)
    create_card_batch = providers.Factory(vouchers.CreateCardBatch, uow, clock)
    list_card_batches = providers.Factory(vouchers.ListCardBatches, uow)
    list_cards = providers.Factory(vouchers.ListCards, uow)
    update_card_batch = providers.Factory(vouchers.UpdateCardBatch, uow)
    export_cards = providers.Factory(vouchers.ExportCards, uow, voucher_sheet)
    redeem_card = providers.Factory(vouchers.RedeemCard, uow, clock, edition)
    my_cards = providers.Factory(vouchers.MyCards, uow)
    voucher_references = providers.Factory(vouchers.ListVoucherReferences, uow)
    # FDA 21 CFR Part 11's audit trail (core.fda.trail): written with the operation log, read here.
    verify_trail = providers.Factory(audit_trail.VerifyTrail, uow, clock)
    verify_reader_trails = providers.Factory(audit_trail.VerifyReaderTrails, uow, clock)
    verify_subject_trail = providers.Factory(audit_trail.VerifySubjectTrail, uow, clock)
    list_trail = providers.Factory(audit_trail.ListTrail, uow)
    export_trail = providers.Factory(audit_trail.ExportTrail, uow, clock)


def build_container(settings: Settings) -> Container:
    container = Container()
    container.settings.override(providers.Object(settings))
    return container
