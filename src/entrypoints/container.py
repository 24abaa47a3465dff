"""The one place that knows both the core and the adapters: it builds the application from the
settings. Tests override single providers (`container.clock.override(...)`) instead of patching.

Views reach it through their app (`context.container()`), not through dependency-injector's
wiring: wiring patches module globals, so two applications in one process (the test suite runs a
SQLite and a PostgreSQL one side by side) would cross their dependencies."""

from __future__ import annotations

from dependency_injector import containers, providers

from adapters.clock import SystemClock
from adapters.i18n import Translator
from adapters.notifications.development import LoggingMessageSender
from adapters.persistence.database import make_engine, make_session_factory
from adapters.persistence.unit_of_work import SqlAlchemyUnitOfWork
from adapters.security.captcha_image import PillowCaptchaRenderer
from adapters.security.passwords import Argon2PasswordHasher
from core.accounts.profile import (
    BindAccountContact,
    ChangeAccountBaseInfo,
    ChangeAccountCredentials,
    GetAccountInfo,
    GetPermissions,
    GetScenePermissions,
    UpdateUserProfile,
)
from core.accounts.registration import RecoverPassword, RegisterAccount, SendVerificationCode
from core.accounts.session import Authenticate, CredentialCheck, IssueCaptcha, Login, Logout, SwitchToPlatform
from core.devices.queries import GetExpiryReminder, ListExpiringDevices
from core.notifications.use_cases import DeliverPendingMessages
from core.platform.queries import FindCustomPage, FindNotice, ListDictionary, ListNotices
from entrypoints.settings import Settings


class Container(containers.DeclarativeContainer):
    settings = providers.Dependency(instance_of=Settings)
    edition = providers.Callable(lambda s: s.edition, settings)
    secret_key = providers.Callable(lambda s: s.secret_key_bytes, settings)

    engine = providers.Singleton(make_engine, providers.Callable(lambda s: s.database_url, settings))
    session_factory = providers.Singleton(make_session_factory, engine)
    uow = providers.Factory(SqlAlchemyUnitOfWork, session_factory)

    clock = providers.Singleton(SystemClock)
    translator = providers.Singleton(Translator)
    hasher = providers.Singleton(
        Argon2PasswordHasher,
        time_cost=providers.Callable(lambda s: s.password_time_cost, settings),
        memory_cost_kib=providers.Callable(lambda s: s.password_memory_kib, settings),
        parallelism=providers.Callable(lambda s: s.password_parallelism, settings),
    )
    captcha_renderer = providers.Singleton(PillowCaptchaRenderer)
    # The SMS and e-mail providers arrive with the alarms issue; until then every edition delivers
    # through the development sender (server log + outbox table).
    message_sender = providers.Singleton(LoggingMessageSender, translator)
    credentials = providers.Singleton(CredentialCheck, hasher)

    login = providers.Factory(Login, uow, credentials, clock, secret_key)
    switch_platform = providers.Factory(SwitchToPlatform, uow, credentials, clock)
    authenticate = providers.Factory(Authenticate, uow, clock)
    logout = providers.Factory(Logout, uow, clock)
    issue_captcha = providers.Factory(IssueCaptcha, uow, captcha_renderer, clock, secret_key)
    send_code = providers.Factory(SendVerificationCode, uow, clock, edition, secret_key)
    register = providers.Factory(RegisterAccount, uow, hasher, clock, edition, secret_key)
    recover_password = providers.Factory(RecoverPassword, uow, hasher, clock, edition, secret_key)
    deliver_messages = providers.Factory(DeliverPendingMessages, uow, message_sender, clock)
    account_info = providers.Factory(GetAccountInfo, uow, clock)
    permissions = providers.Factory(GetPermissions, uow)
    scene_permissions = providers.Factory(GetScenePermissions, uow)
    update_profile = providers.Factory(UpdateUserProfile, uow)
    change_base_info = providers.Factory(ChangeAccountBaseInfo, uow)
    bind_contact = providers.Factory(BindAccountContact, uow, clock, edition, secret_key)
    change_credentials = providers.Factory(ChangeAccountCredentials, uow, credentials, hasher, clock, edition,
                                           secret_key)
    find_custom_page = providers.Factory(FindCustomPage, uow)
    find_notice = providers.Factory(FindNotice, uow, clock)
    list_notices = providers.Factory(ListNotices, uow)
    list_dictionary = providers.Factory(ListDictionary, uow)
    list_expiring_devices = providers.Factory(ListExpiringDevices, uow, clock)
    expiry_reminder = providers.Factory(GetExpiryReminder, uow, clock)


def build_container(settings: Settings) -> Container:
    container = Container()
    container.settings.override(providers.Object(settings))
    return container
