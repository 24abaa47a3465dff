"""Tables. Alembic migrations (migrations/) create them; this module must agree with them, which
tests/integration/test_migrations.py checks. Money columns are integer cents (`*_cents`).

On SQLite the migrations also give each bounded column the CHECK constraint that makes it refuse
what PostgreSQL's type refuses (adapters/persistence/bounds.py); they are not declared here, where
they would be emitted on PostgreSQL too, in SQLite's dialect."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    PrimaryKeyConstraint,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from adapters.persistence.models_base import Base

# --- accounts, roles, organizations ------------------------------------------------------------


class AccountRow(Base):
    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_name: Mapped[str] = mapped_column(String(50))
    # casefolded copy: user names are unique whatever their case
    user_name_key: Mapped[str] = mapped_column(String(50), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    phone: Mapped[str | None] = mapped_column(String(20), unique=True)
    email: Mapped[str | None] = mapped_column(String(200), unique=True)
    account_type: Mapped[int] = mapped_column(SmallInteger, default=1)
    status: Mapped[int] = mapped_column(SmallInteger, default=1)
    real_name: Mapped[str | None] = mapped_column(String(20))
    company: Mapped[str | None] = mapped_column(String(50))
    photo_url: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime]
    language: Mapped[str | None] = mapped_column(String(10))  # of the first login, then the owner's choice
    time_zone: Mapped[str | None] = mapped_column(String(64))  # IANA name the owner chose; None: the edition's
    # Soft delete (user administration): the account keeps its orders and history, its name and
    # contacts stay taken, and it can no longer log in (status is disabled too).
    deleted_at: Mapped[datetime | None] = mapped_column(index=True)
    # Engineer/contractor: 0 never applied, 1 applied (agreement accepted), 2 certified by an operator
    contractor_state: Mapped[int] = mapped_column(SmallInteger, default=0, server_default="0")
    contractor_applied_at: Mapped[datetime | None]
    contractor_agreement: Mapped[str | None] = mapped_column(String(20))  # the version accepted
    contractor_certified_at: Mapped[datetime | None]


class UserProfileRow(Base):
    __tablename__ = "user_profiles"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    wallet_status: Mapped[int] = mapped_column(SmallInteger, default=0)
    home_page: Mapped[str | None] = mapped_column(String(200))
    elitech_identity: Mapped[str | None] = mapped_column(String(32))
    elitech_industry: Mapped[str | None] = mapped_column(String(32))
    enable_protect: Mapped[int] = mapped_column(SmallInteger, default=0)
    enable_fda: Mapped[int] = mapped_column(SmallInteger, default=0)


class PermissionRow(Base):
    __tablename__ = "permissions"
    name: Mapped[str] = mapped_column(String(100), primary_key=True)
    scenes: Mapped[str] = mapped_column(String(20))  # "1", "2" or "1,2"
    back_office: Mapped[bool] = mapped_column(Boolean, default=False)


class RoleRow(Base):
    """A built-in role (organization_id null) or an organization's custom role, whose name is
    unique in the organization in any case."""

    __tablename__ = "roles"
    __table_args__ = (UniqueConstraint("organization_id", "name_key", name="uq_roles_organization_name_key"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(50), unique=True)
    name: Mapped[str] = mapped_column(String(50))
    description: Mapped[str | None] = mapped_column(String(200))
    role_type: Mapped[int] = mapped_column(SmallInteger)
    built_in: Mapped[bool] = mapped_column(Boolean, default=False)
    # No foreign key (migration 0032 says why); dissolving an organization deletes its roles.
    organization_id: Mapped[int | None] = mapped_column(index=True)
    name_key: Mapped[str | None] = mapped_column(String(60))  # the casefolded name of a custom role


class RolePermissionRow(Base):
    __tablename__ = "role_permissions"
    role_id: Mapped[int] = mapped_column(ForeignKey("roles.id", ondelete="CASCADE"), primary_key=True)
    permission_name: Mapped[str] = mapped_column(
        ForeignKey("permissions.name", ondelete="CASCADE"), primary_key=True)


class AccountRoleRow(Base):
    __tablename__ = "account_roles"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    role_id: Mapped[int] = mapped_column(ForeignKey("roles.id", ondelete="CASCADE"), primary_key=True)


class OrganizationRow(Base):
    __tablename__ = "organizations"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(50))
    creator_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[datetime]
    enable_fda: Mapped[int] = mapped_column(SmallInteger, default=0, server_default="0")  # core.fda


class OrganizationMemberRow(Base):
    __tablename__ = "organization_members"
    organization_id: Mapped[int] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
                                            index=True)
    role_id: Mapped[int] = mapped_column(ForeignKey("roles.id"))


class OrganizationInvitationRow(Base):
    __tablename__ = "organization_invitations"
    __table_args__ = (Index("ix_organization_invitations_organization_status", "organization_id", "status"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    organization_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    role_code: Mapped[str] = mapped_column(String(50))
    inviter_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(10))  # pending, accepted, rejected, withdrawn
    closed_at: Mapped[datetime | None]


class PremiumMembershipRow(Base):
    __tablename__ = "premium_memberships"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    expires_at: Mapped[datetime]


# --- sessions and their protection -------------------------------------------------------------


class LoginSessionRow(Base):
    __tablename__ = "login_sessions"
    id: Mapped[int] = mapped_column(primary_key=True)
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    login_type: Mapped[int] = mapped_column(SmallInteger)
    client_address: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]


class LoginFailureRow(Base):
    """One failed login: the name as typed (case-folded) and the client address."""

    __tablename__ = "login_failures"
    __table_args__ = (Index("ix_login_failures_name_at", "name_key", "failed_at"),
                      Index("ix_login_failures_address_at", "address", "failed_at"))
    id: Mapped[int] = mapped_column(primary_key=True)
    name_key: Mapped[str] = mapped_column(String(200))
    address: Mapped[str] = mapped_column(String(64))
    failed_at: Mapped[datetime] = mapped_column(index=True)


class LoginLockRow(Base):
    __tablename__ = "login_locks"
    scope: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    locked_until: Mapped[datetime]


class VerificationCodeRow(Base):
    __tablename__ = "verification_codes"
    __table_args__ = (Index("ix_verification_codes_lookup", "channel", "target", "purpose", "created_at"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    channel: Mapped[str] = mapped_column(String(10))
    target: Mapped[str] = mapped_column(String(200))
    purpose: Mapped[int] = mapped_column(SmallInteger)
    code_digest: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    attempts: Mapped[int] = mapped_column(SmallInteger, default=0)
    consumed_at: Mapped[datetime | None]


class CaptchaRow(Base):
    __tablename__ = "captchas"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    answer_digest: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[datetime] = mapped_column(index=True)


class OutboxMessageRow(Base):
    __tablename__ = "outbox_messages"
    __table_args__ = (Index("ix_outbox_messages_pending", "sent_at", "id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    channel: Mapped[str] = mapped_column(String(10))
    recipient: Mapped[str] = mapped_column(String(200))
    template: Mapped[str] = mapped_column(String(50))
    params: Mapped[dict[str, Any]]
    language: Mapped[str] = mapped_column(String(10))
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(SmallInteger, default=0)
    last_error: Mapped[str | None] = mapped_column(String(500))


# --- white label, notices, dictionary ----------------------------------------------------------


class PaymentConfigRow(Base):
    """A camp's merchant account at one provider (PayPdWxConfig, PayPdAliConfig...): its plain
    fields, and its secrets sealed with CONFIG_ENCRYPTION_KEYS (adapters/security/secret_box.py)."""

    __tablename__ = "payment_configs"
    __table_args__ = (UniqueConstraint("camp", "provider"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    camp: Mapped[int] = mapped_column(Integer)
    provider: Mapped[str] = mapped_column(String(10))
    fields: Mapped[dict[str, Any]] = mapped_column(JSON)
    sealed_secrets: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime]
    updated_by: Mapped[str | None] = mapped_column(String(50))


class CustomPageRow(Base):
    __tablename__ = "custom_pages"
    id: Mapped[int] = mapped_column(primary_key=True)
    top_domain: Mapped[str] = mapped_column(String(253), unique=True)
    company_name: Mapped[str | None] = mapped_column(String(100))
    title: Mapped[str] = mapped_column(String(100))
    index_logo: Mapped[str | None] = mapped_column(String(500))
    browser_logo: Mapped[str | None] = mapped_column(String(500))
    login_logo: Mapped[str | None] = mapped_column(String(500))
    background_logo: Mapped[str | None] = mapped_column(String(500))
    theme_color: Mapped[str | None] = mapped_column(String(9))
    style_model: Mapped[str | None] = mapped_column(String(30))
    default_camp: Mapped[int] = mapped_column(Integer, default=0)
    enable_register: Mapped[int] = mapped_column(SmallInteger, default=1)
    use_elitech_logo: Mapped[int] = mapped_column(SmallInteger, default=0)
    force_https: Mapped[int] = mapped_column(SmallInteger, default=0)
    login_page: Mapped[str | None] = mapped_column(String(100))
    record_company: Mapped[str | None] = mapped_column(String(100))
    record_number: Mapped[str | None] = mapped_column(String(100))
    record_connection: Mapped[str | None] = mapped_column(String(500))
    police_filing: Mapped[str | None] = mapped_column(String(100))
    police_connection: Mapped[str | None] = mapped_column(String(500))
    remark: Mapped[str | None] = mapped_column(String(50))
    independent: Mapped[int] = mapped_column(SmallInteger, default=0)


class NoticeRow(Base):
    __tablename__ = "notices"
    __table_args__ = (Index("ix_notices_lookup", "camp", "platform", "notice_type", "published_at"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    camp: Mapped[int] = mapped_column(Integer, default=0)
    platform: Mapped[int] = mapped_column(SmallInteger, default=1)
    notice_type: Mapped[int] = mapped_column(SmallInteger, default=1)
    contents: Mapped[dict[str, Any]]  # rich text by UI language
    published_at: Mapped[datetime | None]
    expires_at: Mapped[datetime | None]
    created_at: Mapped[datetime]


class DictItemRow(Base):
    __tablename__ = "dict_items"
    __table_args__ = (UniqueConstraint("data_type", "data_code"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    data_type: Mapped[str] = mapped_column(String(50))
    data_code: Mapped[str] = mapped_column(String(32))
    data_value: Mapped[str] = mapped_column(String(100))
    labels: Mapped[dict[str, Any]]
    sort: Mapped[int] = mapped_column(Integer, default=0)


# --- device types and devices (extended by the devices issue) ---------------------------------


class DeviceSeriesRow(Base):
    __tablename__ = "device_series"
    id: Mapped[int] = mapped_column(primary_key=True)
    series_name: Mapped[str] = mapped_column(String(50), unique=True)


class DeviceTypeRow(Base):
    __tablename__ = "device_types"
    id: Mapped[int] = mapped_column(primary_key=True)
    type_name: Mapped[str] = mapped_column(String(50))
    type_code: Mapped[int] = mapped_column(Integer, unique=True)  # hex in the UI, >= 0x8000
    series_id: Mapped[int | None] = mapped_column(ForeignKey("device_series.id"))
    add_type: Mapped[int] = mapped_column(SmallInteger, default=0)  # 0 any, 1 app only, 2 platform only
    scenes: Mapped[str] = mapped_column(String(20), default="1")  # 1 cold chain, 2 storage, 3 freezer
    status: Mapped[int] = mapped_column(SmallInteger, default=2)  # 0 to be tested, 1 testing, 2 published
    description: Mapped[str | None] = mapped_column(String(200))
    # probe keys its devices report: "t" temperature, "h" humidity
    probes: Mapped[str] = mapped_column(String(20), default="t,h", server_default="t,h")


# What the device list, its counts and the home page's counts read of each device a caller may
# see, carried in the two indexes that find those devices (its owner's, its organization's), so
# PostgreSQL answers them from the index alone, in the list's default order (newest first).
DEVICE_LIST_COLUMNS = ("type_id", "device_name", "online", "activated_at", "alarm_state", "status",
                       "service_expires_at", "scrapped_at")


class DeviceRow(Base):
    __tablename__ = "devices"
    __table_args__ = (
        Index("ix_devices_owner_created", "owner_account_id", "created_at", "id",
              postgresql_include=list(DEVICE_LIST_COLUMNS)),
        Index("ix_devices_organization_created", "organization_id", "created_at", "id",
              postgresql_include=["owner_account_id", *DEVICE_LIST_COLUMNS]),
        # What counting them reads: one short range per type of the scene (0014).
        Index("ix_devices_owner_type", "owner_account_id", "type_id"),
        Index("ix_devices_organization_type", "organization_id", "type_id", postgresql_include=["owner_account_id"]),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    guid: Mapped[str] = mapped_column(String(32), unique=True)
    device_name: Mapped[str] = mapped_column(String(50))
    type_id: Mapped[int] = mapped_column(ForeignKey("device_types.id"), index=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    organization_id: Mapped[int | None] = mapped_column(ForeignKey("organizations.id"))
    sim_iccid: Mapped[str | None] = mapped_column(String(30))
    jc_iccid_status: Mapped[int] = mapped_column(SmallInteger, default=0)  # 1: SIM with an active data plan
    level_id: Mapped[int | None] = mapped_column(ForeignKey("service_levels.id"))
    service_expires_at: Mapped[datetime | None]
    sms_count: Mapped[int] = mapped_column(Integer, default=0)
    voice_count: Mapped[int] = mapped_column(Integer, default=0)
    country_code: Mapped[str | None] = mapped_column(String(4))
    node_type: Mapped[int] = mapped_column(SmallInteger, default=1)  # 1: a device with its own service
    display_precision: Mapped[int] = mapped_column(SmallInteger, default=1)
    temperature_unit: Mapped[str] = mapped_column(String(1), default="C")
    status: Mapped[int] = mapped_column(SmallInteger, default=1)  # 1 enabled, 0 disabled
    remark: Mapped[str | None] = mapped_column(String(120))
    created_at: Mapped[datetime]
    # live state, kept by the ingest worker
    activated_at: Mapped[datetime | None]  # first reading; null: never reported ("not enabled")
    last_seen_at: Mapped[datetime | None]
    online: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    last_reading_at: Mapped[datetime | None]
    last_temperature: Mapped[float | None] = mapped_column(Float)
    last_humidity: Mapped[float | None] = mapped_column(Float)
    alarm_state: Mapped[int] = mapped_column(SmallInteger, default=0, server_default="0")  # 1 alarming
    # the last position it reported (WGS 84), kept by the ingest worker apart from the last reading:
    # a logger sends a fix only now and then
    last_latitude: Mapped[float | None] = mapped_column(Float)
    last_longitude: Mapped[float | None] = mapped_column(Float)
    last_accuracy_m: Mapped[float | None] = mapped_column(Float)
    last_position_at: Mapped[datetime | None]
    # retired by its owner (core/devices/scrapping.py); null: in service
    scrapped_at: Mapped[datetime | None]
    # the project it is grouped in (core/projects); null: none. Deleting the project leaves it in none.
    project_id: Mapped[int | None] = mapped_column(ForeignKey("projects.id", ondelete="SET NULL"), index=True)
    # the asset it watches (core/assets); null: none. Deleting the asset leaves it in none.
    asset_id: Mapped[int | None] = mapped_column(ForeignKey("assets.id", ondelete="SET NULL"), index=True)


class DeviceCredentialRow(Base):
    """The broker login of one device: user name is its GUID, the password is stored as
    Mosquitto's PBKDF2-SHA512 hash, so the broker's logins are written from this table."""

    __tablename__ = "device_credentials"
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"), primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime]


class ReadingRow(Base):
    """One reading, stored once per (device, ts). On PostgreSQL the table is partitioned by
    month of `ts` (migrations/versions/0002); it has no foreign key so ingest stays fast. There
    its key carries the probes' values (0015), so a history is read from the key's index alone."""

    __tablename__ = "readings"
    __table_args__ = (PrimaryKeyConstraint("device_id", "ts", postgresql_include=["temperature", "humidity"]),)
    device_id: Mapped[int] = mapped_column(Integer)
    ts: Mapped[datetime]
    temperature: Mapped[float | None] = mapped_column(Float)
    humidity: Mapped[float | None] = mapped_column(Float)
    seq: Mapped[int | None] = mapped_column(BigInteger)
    received_at: Mapped[datetime]
    # optional, as few devices send them (0022): where it was, and its energy meter's total in kWh
    latitude: Mapped[float | None] = mapped_column(Float)
    longitude: Mapped[float | None] = mapped_column(Float)
    accuracy_m: Mapped[float | None] = mapped_column(Float)
    kwh: Mapped[float | None] = mapped_column(Float)


# --- alarms ------------------------------------------------------------------------------------


class AlarmRuleRow(Base):
    """Limits of one probe of one device, with the delay before an excursion is an alarm and
    the minutes after which graded levels 2 and 3 notify their recipients."""

    __tablename__ = "alarm_rules"
    __table_args__ = (UniqueConstraint("device_id", "probe"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"), index=True)
    probe: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(100))
    upper_limit: Mapped[float | None] = mapped_column(Float)
    lower_limit: Mapped[float | None] = mapped_column(Float)
    delay_seconds: Mapped[int] = mapped_column(Integer, default=0)
    level1_minutes: Mapped[int] = mapped_column(Integer, default=0)
    level2_minutes: Mapped[int | None] = mapped_column(Integer)
    level3_minutes: Mapped[int | None] = mapped_column(Integer)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    # switched off by disabling its device's asset (core/assets), to be switched on when it is enabled
    held_by_asset: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class AlarmRecipientRow(Base):
    __tablename__ = "alarm_recipients"
    id: Mapped[int] = mapped_column(primary_key=True)
    rule_id: Mapped[int] = mapped_column(ForeignKey("alarm_rules.id", ondelete="CASCADE"), index=True)
    level: Mapped[int] = mapped_column(SmallInteger, default=1)
    name: Mapped[str] = mapped_column(String(50))
    phone: Mapped[str | None] = mapped_column(String(20))
    email: Mapped[str | None] = mapped_column(String(200))
    voice: Mapped[bool] = mapped_column(Boolean, default=False)  # also call the phone
    language: Mapped[str | None] = mapped_column(String(10))  # of the alerts; null: the device owner's


class AlarmPushSettingRow(Base):
    """Which alarm kinds a device's recipients get by SMS, voice and e-mail (bit 1 above, bit 2
    below), and its quiet hours as local "HH:MM" in a time zone (core/alarms/push.py)."""

    __tablename__ = "alarm_push_settings"
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"), primary_key=True)
    sms_kinds: Mapped[int] = mapped_column(SmallInteger)
    voice_kinds: Mapped[int] = mapped_column(SmallInteger)
    email_kinds: Mapped[int] = mapped_column(SmallInteger)
    quiet_start: Mapped[str | None] = mapped_column(String(5))
    quiet_end: Mapped[str | None] = mapped_column(String(5))
    time_zone: Mapped[str] = mapped_column(String(64))
    updated_at: Mapped[datetime]


class AlarmExcursionRow(Base):
    """A probe outside its limits right now; it becomes an alarm message once the rule's delay
    has passed, and ends when the value is back inside."""

    __tablename__ = "alarm_excursions"
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"), primary_key=True)
    probe: Mapped[str] = mapped_column(String(8), primary_key=True)
    kind: Mapped[int] = mapped_column(SmallInteger)  # 1 above the upper limit, 2 below the lower
    limit_value: Mapped[float] = mapped_column(Float)
    started_at: Mapped[datetime]
    extreme_value: Mapped[float] = mapped_column(Float)
    message_id: Mapped[int | None] = mapped_column(ForeignKey("alarm_messages.id", ondelete="SET NULL"))


class AlarmMessageRow(Base):
    __tablename__ = "alarm_messages"
    __table_args__ = (Index("ix_alarm_messages_device_state", "device_id", "state", "raised_at"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"))
    rule_id: Mapped[int | None] = mapped_column(ForeignKey("alarm_rules.id", ondelete="SET NULL"))
    probe: Mapped[str] = mapped_column(String(8))
    kind: Mapped[int] = mapped_column(SmallInteger)
    limit_value: Mapped[float] = mapped_column(Float)
    value: Mapped[float] = mapped_column(Float)  # the reading that raised it
    extreme_value: Mapped[float] = mapped_column(Float)
    level: Mapped[int] = mapped_column(SmallInteger, default=0)  # highest graded level notified
    started_at: Mapped[datetime]
    raised_at: Mapped[datetime] = mapped_column(index=True)
    ended_at: Mapped[datetime | None]
    state: Mapped[int] = mapped_column(SmallInteger, default=0)  # 0 untreated, 1 treated
    handling: Mapped[int | None] = mapped_column(SmallInteger)  # 1 approve, 2 refuse, 3 defer
    result: Mapped[str | None] = mapped_column(String(50))
    handled_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    handled_at: Mapped[datetime | None]
    # The end of the last deferral, until its reminder is sent; deferred while it is ahead of the clock.
    deferred_until: Mapped[datetime | None]


class AlarmDeferralRow(Base):
    """Every deferral of an alarm message: who, when, until when and the result text given."""

    __tablename__ = "alarm_deferrals"
    id: Mapped[int] = mapped_column(primary_key=True)
    alarm_id: Mapped[int] = mapped_column(ForeignKey("alarm_messages.id", ondelete="CASCADE"), index=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    deferred_at: Mapped[datetime]
    deferred_until: Mapped[datetime]
    result: Mapped[str | None] = mapped_column(String(50))


# --- service catalogue (extended by the pricing issue) ----------------------------------------


class ServicePackageRow(Base):
    __tablename__ = "service_packages"
    id: Mapped[int] = mapped_column(primary_key=True)
    package_name: Mapped[str] = mapped_column(String(20))
    package_code: Mapped[str] = mapped_column(String(8), unique=True)
    status: Mapped[int] = mapped_column(SmallInteger, default=1)  # 1 enabled, 0 stopped
    enabled_at: Mapped[datetime | None]
    created_at: Mapped[datetime]


class PackageDeviceTypeRow(Base):
    __tablename__ = "package_device_types"
    package_id: Mapped[int] = mapped_column(ForeignKey("service_packages.id", ondelete="CASCADE"),
                                            primary_key=True)
    device_type_id: Mapped[int] = mapped_column(ForeignKey("device_types.id", ondelete="CASCADE"),
                                                primary_key=True)


class ServiceLevelRow(Base):
    __tablename__ = "service_levels"
    id: Mapped[int] = mapped_column(primary_key=True)
    package_id: Mapped[int] = mapped_column(ForeignKey("service_packages.id", ondelete="CASCADE"), index=True)
    level_name: Mapped[str] = mapped_column(String(20))
    level_describe: Mapped[str | None] = mapped_column(String(200))
    icon_url: Mapped[str | None] = mapped_column(String(500))
    sort: Mapped[int] = mapped_column(Integer, default=0)


class LevelYearOptionRow(Base):
    __tablename__ = "level_year_options"
    id: Mapped[int] = mapped_column(primary_key=True)
    level_id: Mapped[int] = mapped_column(ForeignKey("service_levels.id", ondelete="CASCADE"), index=True)
    time_length: Mapped[int] = mapped_column(Integer)  # months; 1200 or more is lifelong
    service_fee_cents: Mapped[int] = mapped_column(BigInteger)
    data_fee_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    currency: Mapped[str] = mapped_column(String(3))  # ISO 4217, of both fees: a price list per currency
    discount: Mapped[int] = mapped_column(SmallInteger, default=100)  # percent, 100 none
    top_status: Mapped[int] = mapped_column(SmallInteger, default=0)  # recommended
    sort: Mapped[int] = mapped_column(Integer, default=0)
    # An option once sold is never changed: a new price retires it (no longer offered) and adds a
    # new row, so the orders that name it keep what they bought (core/catalogue).
    retired_at: Mapped[datetime | None]


class ServiceItemRow(Base):
    __tablename__ = "service_items"
    item_code: Mapped[str] = mapped_column(String(40), primary_key=True)
    item_name: Mapped[str] = mapped_column(String(100))
    item_supplement: Mapped[str | None] = mapped_column(String(200))
    item_label: Mapped[str | None] = mapped_column(String(50))
    sort: Mapped[int] = mapped_column(Integer, default=0)


class LevelItemRow(Base):
    __tablename__ = "level_items"
    level_id: Mapped[int] = mapped_column(ForeignKey("service_levels.id", ondelete="CASCADE"), primary_key=True)
    item_code: Mapped[str] = mapped_column(ForeignKey("service_items.item_code", ondelete="CASCADE"),
                                           primary_key=True)


class CatalogueTextRow(Base):
    """The name and description of a package, level, item, activity or SMS/voice package in one
    language (owner_kind 'package', 'level', 'item', 'activity' or 'sms'; owner_key its id or item
    code). The row's own column holds the platform's default language, the fallback of a language
    without text. No foreign key (the owners are in five tables): deleting an owner deletes its texts
    in its repository."""

    __tablename__ = "catalogue_texts"
    __table_args__ = (UniqueConstraint("owner_kind", "owner_key", "language"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    owner_kind: Mapped[str] = mapped_column(String(10))
    owner_key: Mapped[str] = mapped_column(String(40))
    language: Mapped[str] = mapped_column(String(5))
    name: Mapped[str] = mapped_column(String(100))
    description: Mapped[str | None] = mapped_column(String(200))


class PackageGiftRow(Base):
    """What a new device of a type the package serves gets for free: a level for some months,
    and SMS and voice counts (PayServicePresentation)."""

    __tablename__ = "package_gifts"
    package_id: Mapped[int] = mapped_column(ForeignKey("service_packages.id", ondelete="CASCADE"), primary_key=True)
    level_id: Mapped[int | None] = mapped_column(ForeignKey("service_levels.id", ondelete="SET NULL"))
    months: Mapped[int] = mapped_column(Integer, default=0)
    sms_count: Mapped[int] = mapped_column(Integer, default=0)
    voice_count: Mapped[int] = mapped_column(Integer, default=0)


class ActivityRow(Base):
    __tablename__ = "activities"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(20))
    nature: Mapped[int] = mapped_column(SmallInteger, default=1)  # 1 public, 2 directional
    starts_at: Mapped[datetime]
    ends_at: Mapped[datetime]
    status: Mapped[int] = mapped_column(SmallInteger, default=1)  # 1 enabled, 0 stopped
    created_at: Mapped[datetime]


class ActivityYearOptionRow(Base):
    """What an activity offers on one year option: a discount and/or bonus months."""

    __tablename__ = "activity_year_options"
    activity_id: Mapped[int] = mapped_column(ForeignKey("activities.id", ondelete="CASCADE"), primary_key=True)
    level_year_id: Mapped[int] = mapped_column(ForeignKey("level_year_options.id", ondelete="CASCADE"),
                                               primary_key=True)
    activity_discount: Mapped[int] = mapped_column(SmallInteger, default=100)
    presentation_month: Mapped[int] = mapped_column(SmallInteger, default=0)


class ActivityAccountRow(Base):
    """Target accounts of a directional activity."""

    __tablename__ = "activity_accounts"
    activity_id: Mapped[int] = mapped_column(ForeignKey("activities.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)


class SmsPackageRow(Base):
    __tablename__ = "sms_packages"
    __table_args__ = (Index("ix_sms_packages_country_kind", "country_code", "kind"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[int] = mapped_column(SmallInteger)  # 1 SMS, 2 voice
    package_name: Mapped[str] = mapped_column(String(20))
    country_code: Mapped[str] = mapped_column(String(4))
    package_fee_cents: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    count: Mapped[int] = mapped_column(Integer)
    discount: Mapped[int] = mapped_column(SmallInteger, default=100)
    activity_discount: Mapped[int | None] = mapped_column(SmallInteger)
    sort: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[int] = mapped_column(SmallInteger, default=1)


class AutoRenewAgreementRow(Base):
    __tablename__ = "auto_renew_agreements"
    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"), index=True)
    level_id: Mapped[int] = mapped_column(ForeignKey("service_levels.id"))
    level_year_id: Mapped[int] = mapped_column(ForeignKey("level_year_options.id"))
    pay_type: Mapped[int] = mapped_column(SmallInteger)
    total_fee_cents: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[int] = mapped_column(SmallInteger, default=1)  # 1 active, 0 cancelled, 2 ended
    next_execution_at: Mapped[datetime]
    created_at: Mapped[datetime]
    cancelled_at: Mapped[datetime | None]
    # issue 19: whose, the provider's authorisation of later charges (ours: code, theirs: mandate),
    # the order that signed it, the renewal order being charged, failures in a row, the charge the
    # customer was told of in advance
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    code: Mapped[str | None] = mapped_column(String(32))
    mandate: Mapped[str | None] = mapped_column(String(200))
    first_order_id: Mapped[int | None] = mapped_column(Integer, unique=True)
    camp: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # the first order's: its merchant
    charging_order_id: Mapped[int | None] = mapped_column(Integer)
    failures: Mapped[int] = mapped_column(SmallInteger, default=0, server_default="0")
    last_error: Mapped[str | None] = mapped_column(String(200))
    reminded_for: Mapped[datetime | None]


# --- orders and invoice details ("bills") ------------------------------------------------------


class OrderRow(Base):
    """An order of a service level or of SMS/voice packages. `bill_id` has no foreign key: the
    bill may be deleted later, the order keeps it as it was in `invoice`."""

    __tablename__ = "orders"
    # the back office lists every account's orders by creation or payment time (issue 19)
    __table_args__ = (Index("ix_orders_account_created", "account_id", "created_at"),
                      Index("ix_orders_created", "created_at"), Index("ix_orders_paid", "paid_at"))
    id: Mapped[int] = mapped_column(primary_key=True)
    order_code: Mapped[str] = mapped_column(String(20), unique=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))  # indexed by ix_orders_account_created
    kind: Mapped[int] = mapped_column(SmallInteger)  # 1 service level, 2 SMS/voice packages
    pay_type: Mapped[int] = mapped_column(SmallInteger)
    currency: Mapped[str] = mapped_column(String(3))
    order_fee_cents: Mapped[int] = mapped_column(BigInteger)
    pay_fee_cents: Mapped[int | None] = mapped_column(BigInteger)
    status: Mapped[int] = mapped_column(SmallInteger, default=1, index=True)  # 1 unpaid 2 paid 3 refunded 4 closed
    apply_flag: Mapped[bool] = mapped_column(Boolean, default=False)  # an invoice is wanted
    bill_id: Mapped[int | None] = mapped_column(Integer)
    invoice: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    activity_id: Mapped[int | None] = mapped_column(Integer)
    country_code: Mapped[str | None] = mapped_column(String(4))
    description: Mapped[str] = mapped_column(String(200))
    invoice_status: Mapped[int] = mapped_column(SmallInteger, default=0)  # 0 not invoiced, 1 invoiced
    payment: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))  # payQrCode, clientSecret...
    payment_reference: Mapped[str | None] = mapped_column(String(100), index=True)  # from the payment's start
    settlement_reference: Mapped[str | None] = mapped_column(String(100))  # the transaction or capture paid
    created_at: Mapped[datetime]
    paid_at: Mapped[datetime | None]
    refunded_at: Mapped[datetime | None]
    closed_at: Mapped[datetime | None]
    close_reason: Mapped[str | None] = mapped_column(String(20))  # superseded, cancelled, expired, ...
    expires_at: Mapped[datetime | None]  # when its payment stops working at the provider
    # the payer's latest failed attempt (declined, cancelled, failed), how many failed, and the
    # provider's id of the latest, so one attempt told twice is counted once
    last_failure: Mapped[str | None] = mapped_column(String(16))
    failure_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    failed_attempt: Mapped[str | None] = mapped_column(String(100))
    # the coupon it carries (reserved while unpaid, spent when paid) and what it took off
    coupon_code: Mapped[str | None] = mapped_column(String(20))
    coupon_discount_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    # paid back so far, or being paid back (order_refunds in processing or succeeded)
    refunded_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    auto_renew: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # the white-label platform's camp it was placed through, whose merchant accounts it is paid to
    camp: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class OrderLineRow(Base):
    """What one device gets from an order. `device_id` has no foreign key: a device deleted later
    leaves the order history as it was."""

    __tablename__ = "order_lines"
    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), index=True)
    device_id: Mapped[int] = mapped_column(Integer)
    fee_cents: Mapped[int] = mapped_column(BigInteger)
    level_id: Mapped[int | None] = mapped_column(Integer)
    level_year_id: Mapped[int | None] = mapped_column(Integer)
    months: Mapped[int] = mapped_column(Integer, default=0)
    bonus_months: Mapped[int] = mapped_column(Integer, default=0)
    sms_count: Mapped[int] = mapped_column(Integer, default=0)
    voice_count: Mapped[int] = mapped_column(Integer, default=0)
    device_name: Mapped[str | None] = mapped_column(String(50))  # as named when the order was placed
    # A service line's promise (core/pricing/level_change.py): the device's service when the order
    # was placed, and what it was quoted to have once paid; NULL on lines placed before promises.
    quoted_level_id: Mapped[int | None] = mapped_column(Integer)
    quoted_expires_at: Mapped[datetime | None]
    change_kind: Mapped[str | None] = mapped_column(String(10))
    remaining_seconds: Mapped[int | None] = mapped_column(BigInteger)
    converted_days: Mapped[int | None] = mapped_column(Integer)
    promised_expires_at: Mapped[datetime | None]
    # What settlement gave the device, and whether it was computed anew (the device had changed).
    settled_expires_at: Mapped[datetime | None]
    recomputed: Mapped[bool] = mapped_column(Boolean, default=False)


class UserBillRow(Base):
    """Invoice details an account keeps for its orders."""

    __tablename__ = "user_bills"
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    invoice_type: Mapped[int] = mapped_column(SmallInteger)  # 1 personal, 2 enterprise
    bill_mode: Mapped[int] = mapped_column(SmallInteger)  # 1 address, 2 e-mail, 3 and 4 postal
    company_name: Mapped[str | None] = mapped_column(String(50))
    tax_number: Mapped[str | None] = mapped_column(String(20))
    personal_name: Mapped[str | None] = mapped_column(String(30))
    bank_deposit: Mapped[str | None] = mapped_column(String(50))
    bill_user_name: Mapped[str] = mapped_column(String(30))
    bill_mail: Mapped[str | None] = mapped_column(String(200))
    bill_phone: Mapped[str] = mapped_column(String(20))
    bill_address: Mapped[str | None] = mapped_column(String(50))
    is_default: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime]


class PaymentNotificationRow(Base):
    """Every notification a payment provider sent, as received, with the verdict on it (audit)."""

    __tablename__ = "payment_notifications"
    id: Mapped[int] = mapped_column(primary_key=True)
    provider: Mapped[str] = mapped_column(String(10))
    received_at: Mapped[datetime] = mapped_column(index=True)
    verdict: Mapped[str] = mapped_column(String(20))
    order_code: Mapped[str | None] = mapped_column(String(64), index=True)
    amount_cents: Mapped[int | None] = mapped_column(BigInteger)
    body: Mapped[str] = mapped_column(Text)


class OrderEventRow(Base):
    """An order's history (issue 19): each change of its state, when, and who made it (no account:
    the provider's notification or a job) and why (an operator's manual handling says)."""

    __tablename__ = "order_events"
    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime]
    kind: Mapped[str] = mapped_column(String(20))  # an OrderMove, or manualHandling
    status: Mapped[int] = mapped_column(SmallInteger)  # the order's state after it
    actor_account_id: Mapped[int | None] = mapped_column(Integer)  # no key: the history outlives an account
    reason: Mapped[str | None] = mapped_column(String(200))
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))  # the provider's answer


class OrderRefundRow(Base):
    """A refund of an order (core.ordering.refunds): asked for, perhaps approved by a second
    operator, reserved with what it took back, then answered by the provider."""

    __tablename__ = "order_refunds"
    __table_args__ = (Index("ix_order_refunds_status", "status", "requested_at"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), index=True)
    refund_code: Mapped[str] = mapped_column(String(32), unique=True)
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    reason: Mapped[str] = mapped_column(String(200))
    status: Mapped[int] = mapped_column(SmallInteger)  # RefundStatus
    requested_by: Mapped[int] = mapped_column(Integer)  # no keys: the record outlives an account
    requested_at: Mapped[datetime]
    decided_by: Mapped[int | None] = mapped_column(Integer)
    decided_at: Mapped[datetime | None]
    decision_note: Mapped[str | None] = mapped_column(String(200))
    take_backs: Mapped[list[Any] | None] = mapped_column(JSON(none_as_null=True))
    reference: Mapped[str | None] = mapped_column(String(100))
    error: Mapped[str | None] = mapped_column(String(200))
    finished_at: Mapped[datetime | None]


# --- the recharge statistics' rollup (adapters.persistence.revenue_rollup keeps it) -------------
# Sums per quarter of an hour in UTC (`bucket`, its start): a period of any zone whose offset is a
# whole quarter of an hour (all of them since 1972) is a whole number of buckets. PostgreSQL keeps
# these rows in step with orders, their lines and refunds by triggers, in the writing transaction;
# SQLite leaves them empty and answers from the orders themselves.


class RevenuePaidRow(Base):
    """Orders paid (in a paid state since) per bucket of their payment."""

    __tablename__ = "revenue_paid"
    bucket: Mapped[datetime] = mapped_column(primary_key=True)
    currency: Mapped[str] = mapped_column(String(3), primary_key=True)
    pay_type: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    kind: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    level_id: Mapped[int] = mapped_column(Integer, primary_key=True)  # the lines' least; 0 none
    camp: Mapped[int] = mapped_column(Integer, primary_key=True)  # the platform's it was placed through
    cents: Mapped[int] = mapped_column(BigInteger)
    orders: Mapped[int] = mapped_column(BigInteger)


class RevenueRefundedRow(Base):
    """Refunds that succeeded per bucket of their end, by their order's pay type."""

    __tablename__ = "revenue_refunded"
    bucket: Mapped[datetime] = mapped_column(primary_key=True)
    currency: Mapped[str] = mapped_column(String(3), primary_key=True)
    pay_type: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    camp: Mapped[int] = mapped_column(Integer, primary_key=True)
    cents: Mapped[int] = mapped_column(BigInteger)
    refunds: Mapped[int] = mapped_column(BigInteger)


class RevenueRenewalRow(Base):
    """Lines of paid service orders per device and bucket of payment: devices renewed in a range
    are the distinct devices of its buckets (a count that does not add up across buckets)."""

    __tablename__ = "revenue_renewals"
    bucket: Mapped[datetime] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    lines: Mapped[int] = mapped_column(BigInteger)


class OfflinePurchaseRow(Base):
    """An offline purchase (core.ordering.offline): recorded by one operator, reviewed by another."""

    __tablename__ = "offline_purchases"
    __table_args__ = (Index("ix_offline_purchases_status", "status", "created_at"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)  # the customer
    level_id: Mapped[int | None] = mapped_column(Integer)  # no keys: the record outlives the catalogue
    level_year_id: Mapped[int | None] = mapped_column(Integer)
    months: Mapped[int] = mapped_column(Integer, default=0)
    sms_count: Mapped[int] = mapped_column(Integer, default=0)
    voice_count: Mapped[int] = mapped_column(Integer, default=0)
    country_code: Mapped[str | None] = mapped_column(String(4))
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    pay_type: Mapped[int] = mapped_column(SmallInteger)
    remark: Mapped[str] = mapped_column(String(200), default="")
    status: Mapped[int] = mapped_column(SmallInteger)  # OfflineStatus
    created_by: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime]
    reviewed_by: Mapped[int | None] = mapped_column(Integer)
    reviewed_at: Mapped[datetime | None]
    review_note: Mapped[str | None] = mapped_column(String(200))
    order_id: Mapped[int | None] = mapped_column(Integer)  # the paid order its approval recorded


class OfflinePurchaseDeviceRow(Base):
    """A device of an offline purchase and how its recharge went."""

    __tablename__ = "offline_purchase_devices"
    id: Mapped[int] = mapped_column(primary_key=True)
    purchase_id: Mapped[int] = mapped_column(ForeignKey("offline_purchases.id", ondelete="CASCADE"), index=True)
    device_id: Mapped[int | None] = mapped_column(Integer)  # no key: a device deleted later leaves the record
    guid: Mapped[str] = mapped_column(String(32))
    device_name: Mapped[str | None] = mapped_column(String(50))
    state: Mapped[int] = mapped_column(SmallInteger, default=0)  # RechargeState
    reason: Mapped[str | None] = mapped_column(String(20))
    expires_before: Mapped[datetime | None]
    expires_after: Mapped[datetime | None]
class InvoiceRequestRow(Base):
    """A request for an invoice of paid orders (core.ordering.invoices): the bill as it was asked
    for, then issued (with its PDF, or sent to the mailbox) or rejected with a reason."""

    __tablename__ = "invoice_requests"
    __table_args__ = (Index("ix_invoice_requests_status", "status", "requested_at"),
                      Index("ix_invoice_requests_account", "account_id", "requested_at"))
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))  # indexed by ix_invoice_requests_account
    currency: Mapped[str] = mapped_column(String(3))
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    bill_id: Mapped[int | None] = mapped_column(Integer)  # no key: the bill may be deleted, `bill` stays
    bill: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[int] = mapped_column(SmallInteger)  # InvoiceRequestStatus
    requested_at: Mapped[datetime]
    requested_by: Mapped[int | None] = mapped_column(Integer)  # no keys: the record outlives an account
    decided_by: Mapped[int | None] = mapped_column(Integer)
    decided_at: Mapped[datetime | None]
    decision_note: Mapped[str | None] = mapped_column(String(200))  # why it was rejected
    delivery: Mapped[int | None] = mapped_column(SmallInteger)  # 1 PDF, 2 sent to the mailbox
    invoice_number: Mapped[str | None] = mapped_column(String(40))


class InvoiceOrderRow(Base):
    """An order a request covers, for what was still paid of it. `active` while the request waits or
    is issued: an order is covered by one such request at most (the partial unique index)."""

    __tablename__ = "invoice_orders"
    __table_args__ = (Index("uq_invoice_orders_active_order", "order_id", unique=True,
                            sqlite_where=text("active = 1"), postgresql_where=text("active")),)
    id: Mapped[int] = mapped_column(primary_key=True)
    invoice_id: Mapped[int] = mapped_column(ForeignKey("invoice_requests.id", ondelete="CASCADE"), index=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), index=True)
    order_code: Mapped[str] = mapped_column(String(20))
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    active: Mapped[bool] = mapped_column(Boolean, default=True)


class InvoiceFileRow(Base):
    """An issued invoice's PDF, kept in the database so that it is stored in the issuing
    transaction (at most 5 MB: core.ordering.invoice_model.MAX_PDF_BYTES)."""

    __tablename__ = "invoice_files"
    invoice_id: Mapped[int] = mapped_column(ForeignKey("invoice_requests.id", ondelete="CASCADE"), primary_key=True)
    file_name: Mapped[str] = mapped_column(String(120))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    content: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime]


# --- jobs (issue 15) ---------------------------------------------------------------------------


class JobRunRow(Base):
    """One run of a scheduled or queued job (core/jobs): `coldchain jobs` lists them."""

    __tablename__ = "job_runs"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(50))
    started_at: Mapped[datetime] = mapped_column(index=True)
    finished_at: Mapped[datetime | None]
    outcome: Mapped[str] = mapped_column(String(10))  # running, succeeded, failed
    detail: Mapped[str | None] = mapped_column(String(500))
    error: Mapped[str | None] = mapped_column(String(1000))


class ExpiryReminderRow(Base):
    """Each reminder of a device's service expiry that was written to the outbox, so that it goes
    once per (device, expiry, stage); a renewal's new expiry has reminders of its own."""

    __tablename__ = "expiry_reminders"
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(primary_key=True)
    stage: Mapped[int] = mapped_column(SmallInteger, primary_key=True)  # days before expiry; 0 on expiry
    sent_at: Mapped[datetime]


class DeviceEventRow(Base):
    """What was done to a device, by whom and when (clearing its data, deleting it). No foreign
    key to the device: the record outlives it, and keeps its GUID to say which it was."""

    __tablename__ = "device_events"
    __table_args__ = (Index("ix_device_events_device_at", "device_id", "at"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(Integer)
    device_guid: Mapped[str] = mapped_column(String(32))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime]
    detail: Mapped[str | None] = mapped_column(String(200))


class DeviceCommandRow(Base):
    """A command sent to a device (api-contract section 7) and how the device answered it. The
    latest params command is the device's desired parameters; the latest acknowledged one is
    what the device has confirmed."""

    __tablename__ = "device_commands"
    __table_args__ = (Index("ix_device_commands_device_kind_sent", "device_id", "kind", "sent_at"),)
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]]
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), index=True)
    sent_at: Mapped[datetime]
    state: Mapped[str] = mapped_column(String(16))  # pending, acknowledged, failed, unsent
    error: Mapped[str | None] = mapped_column(String(200))
    answered_at: Mapped[datetime | None]


class DeviceMaintenanceRow(Base):
    """A maintenance record of a device (spec seed 001 section 5 sets the lengths)."""

    __tablename__ = "device_maintenance"
    __table_args__ = (Index("ix_device_maintenance_device_on", "device_id", "maintained_on"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"))
    maintained_on: Mapped[date]
    person: Mapped[str] = mapped_column(String(50))
    approver: Mapped[str | None] = mapped_column(String(20))
    reason: Mapped[str] = mapped_column(String(200))
    content: Mapped[str] = mapped_column(String(1000))
    standard: Mapped[str | None] = mapped_column(String(200))
    result: Mapped[str | None] = mapped_column(String(1000))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
# --- exports (issue 16) ------------------------------------------------------------------------


class ExportRow(Base):
    """A file asked for in the download centre (core/exports): the job's progress, then the file
    under EXPORT_DIR named by the unguessable id. Deleted with its file a week after."""

    __tablename__ = "exports"
    __table_args__ = (Index("ix_exports_account_created", "account_id", "created_at"),)
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    format: Mapped[str] = mapped_column(String(8))
    device_id: Mapped[int | None] = mapped_column(Integer)  # no foreign key: the file outlives the device
    since: Mapped[datetime | None]
    until: Mapped[datetime | None]
    filters: Mapped[dict[str, Any]]
    language: Mapped[str] = mapped_column(String(10))
    time_zone: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(10))
    progress: Mapped[int] = mapped_column(SmallInteger, default=0)
    title: Mapped[str] = mapped_column(String(100))
    file_name: Mapped[str | None] = mapped_column(String(120))
    size: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(index=True)
    finished_at: Mapped[datetime | None]
    error: Mapped[str | None] = mapped_column(String(200))


class ExportCertificateRow(Base):
    """The facts a PDF report states under its verification code; kept when the file is purged."""

    __tablename__ = "export_certificates"
    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    export_id: Mapped[str] = mapped_column(String(32))
    account_name: Mapped[str] = mapped_column(String(50))
    device_guid: Mapped[str] = mapped_column(String(32))
    device_name: Mapped[str] = mapped_column(String(50))
    since: Mapped[datetime]
    until: Mapped[datetime]
    generated_at: Mapped[datetime]
    readings: Mapped[int] = mapped_column(BigInteger)
    sha256: Mapped[str | None] = mapped_column(String(64))
# --- inbox: system messages --------------------------------------------------------------------


class SystemMessageRow(Base):
    __tablename__ = "system_messages"
    __table_args__ = (Index("ix_system_messages_account_id_id", "account_id", "id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(20))
    template: Mapped[str] = mapped_column(String(50))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime]
    needs_decision: Mapped[bool] = mapped_column(Boolean, default=False)
    subject: Mapped[str | None] = mapped_column(String(100))
    read_at: Mapped[datetime | None]
    decision: Mapped[str | None] = mapped_column(String(10))
    decided_at: Mapped[datetime | None]


class MessageChannelRow(Base):
    """The channels an account keeps on for a kind of system message; no row: the kind's default."""

    __tablename__ = "message_channels"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    channels: Mapped[str] = mapped_column(String(40))  # "email,phone", "" for none


class HomeTilesRow(Base):
    """The tiles one user chose for the home page, in their order (comma-separated tile keys)."""

    __tablename__ = "home_tiles"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    tiles: Mapped[str] = mapped_column(String(200))
    updated_at: Mapped[datetime]


# --- scheduled reports ---------------------------------------------------------------------------


class ProjectRow(Base):
    """An account's or an organization's group of devices (core/projects); its name is unique per
    owner in any case: among the account's own projects, or among the organization's."""

    __tablename__ = "projects"
    __table_args__ = (
        Index("uq_projects_owner_name_key", "owner_account_id", "name_key", unique=True,
              sqlite_where=text("organization_id IS NULL"), postgresql_where=text("organization_id IS NULL")),
        Index("uq_projects_organization_name_key", "organization_id", "name_key", unique=True,
              sqlite_where=text("organization_id IS NOT NULL"), postgresql_where=text("organization_id IS NOT NULL")),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))  # its creator
    # the organization it belongs to; None: the owner account's own
    organization_id: Mapped[int | None] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(20))
    name_key: Mapped[str] = mapped_column(String(60))  # the casefolded name ('ß' is 'ss': it may grow)
    remark: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime]


class AssetRow(Base):
    """A thing an account keeps cold (core/assets), watched by up to five devices (devices.asset_id)."""

    __tablename__ = "assets"
    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    # the organization it belongs to (its creator stays the owner); None: the owner account's own
    organization_id: Mapped[int | None] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    asset_type: Mapped[str | None] = mapped_column(String(50))
    number: Mapped[str | None] = mapped_column(String(50))
    brand: Mapped[str | None] = mapped_column(String(50))
    model: Mapped[str | None] = mapped_column(String(50))
    volume: Mapped[str | None] = mapped_column(String(50))
    # custom key/value pairs in the user's order: [[key, value], ...]
    attributes: Mapped[list[list[str]]] = mapped_column(JSON)
    remark: Mapped[str | None] = mapped_column(String(200))
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime]


class GeofenceRow(Base):
    """An area on the map devices are watched against (core/geofences): 1 to 10 circles and polygons."""

    __tablename__ = "geofences"
    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    # the organization it belongs to (its creator stays the owner); None: the owner account's own
    organization_id: Mapped[int | None] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(20))
    # [{"circle": [lat, lon, radius_m]} | {"polygon": [[lat, lon], ...]}, ...]
    areas: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created_at: Mapped[datetime]


class GeofenceLinkRow(Base):
    """A device watched against a fence, with where it is known to be (core/geofences/dwell.py).
    The ingest finds a device's links by device_id: the index is the hot path's one lookup."""

    __tablename__ = "geofence_links"
    fence_id: Mapped[int] = mapped_column(ForeignKey("geofences.id", ondelete="CASCADE"), primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"), primary_key=True,
                                           index=True)
    inside: Mapped[bool | None] = mapped_column(Boolean)
    pending_inside: Mapped[bool | None] = mapped_column(Boolean)
    pending_since: Mapped[datetime | None]
    pending_count: Mapped[int] = mapped_column(Integer, default=0)
    judged_at: Mapped[datetime | None]


class GeofenceEventRow(Base):
    """A device entering or leaving a fence, at the reading's time."""

    __tablename__ = "geofence_events"
    __table_args__ = (Index("ix_geofence_events_fence_id_at", "fence_id", "at"),
                      Index("ix_geofence_events_device_id_at", "device_id", "at"))
    id: Mapped[int] = mapped_column(primary_key=True)
    fence_id: Mapped[int] = mapped_column(ForeignKey("geofences.id", ondelete="CASCADE"))
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"))
    entered: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime]
    received_at: Mapped[datetime]


class ReportScheduleRow(Base):
    """An account's scheduled report (core/reports): which devices' readings go to whom, how often."""

    __tablename__ = "report_schedules"
    __table_args__ = (Index("ix_report_schedules_account_id_id", "account_id", "id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(20))
    frequency: Mapped[str] = mapped_column(String(8))
    weekday: Mapped[int | None] = mapped_column(SmallInteger)
    month_day: Mapped[int | None] = mapped_column(SmallInteger)
    device_ids: Mapped[list[int]] = mapped_column(JSON)
    format: Mapped[str] = mapped_column(String(8))
    recipients: Mapped[list[str]] = mapped_column(JSON)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime]


class ReportRunRow(Base):
    """One period of a schedule, sent once: the unique (schedule, period start) is what makes the
    job idempotent."""

    __tablename__ = "report_runs"
    __table_args__ = (UniqueConstraint("schedule_id", "period_start", name="uq_report_runs_schedule_period"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    schedule_id: Mapped[int] = mapped_column(ForeignKey("report_schedules.id", ondelete="CASCADE"))
    period_start: Mapped[datetime]
    period_end: Mapped[datetime]
    started_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]
    outcome: Mapped[str] = mapped_column(String(10))
    files: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    sent_to: Mapped[list[str]] = mapped_column(JSON)
    attempts: Mapped[int] = mapped_column(SmallInteger, default=0)
    error: Mapped[str | None] = mapped_column(String(200))


# --- sharing ---------------------------------------------------------------------------------------


class DeviceTemplateRow(Base):
    """A device permission template (core/sharing): per element of a device, visible and operable
    bits (core/devices/grants.py). Built-in ones have no owner."""

    __tablename__ = "device_permission_templates"
    __table_args__ = (Index("ix_device_permission_templates_owner", "owner_account_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(20))
    name_key: Mapped[str] = mapped_column(String(40))
    view_mask: Mapped[int] = mapped_column(Integer)
    operate_mask: Mapped[int] = mapped_column(Integer)


class DeviceShareRow(Base):
    """A device shared with an account under a template until ends_at (null: until revoked). A
    revoked share stays as the record of it; one unrevoked share per device and sharee."""

    __tablename__ = "device_shares"
    __table_args__ = (
        Index("ix_device_shares_sharee_device", "sharee_account_id", "device_id"),
        Index("ix_device_shares_owner", "owner_account_id", "created_at"),
        Index("ix_device_shares_device", "device_id"),
        Index("ix_device_shares_template", "template_id"),
        Index("uq_device_shares_current", "device_id", "sharee_account_id", unique=True,
              postgresql_where=text("revoked_at IS NULL"), sqlite_where=text("revoked_at IS NULL")),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"))
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    sharee_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    template_id: Mapped[int] = mapped_column(ForeignKey("device_permission_templates.id"))
    created_at: Mapped[datetime]
    ends_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]
class OperationLogRow(Base):
    """One call of the API that changed something, or tried to (core/audit). Append-only: a
    trigger refuses UPDATE and DELETE (migration 0031). The actor's id is kept without a foreign
    key, and their name as it was: the entry outlives the account."""

    __tablename__ = "operation_log"
    __table_args__ = (Index("ix_operation_log_at", "at", "id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime]
    actor_account_id: Mapped[int | None] = mapped_column(Integer, index=True)
    actor_name: Mapped[str | None] = mapped_column(String(100))
    client_address: Mapped[str | None] = mapped_column(String(45))
    action: Mapped[str] = mapped_column(String(100))
    method: Mapped[str] = mapped_column(String(8))
    outcome: Mapped[str] = mapped_column(String(10))
    status: Mapped[int] = mapped_column(SmallInteger)


class OperationChangeRow(Base):
    """An object an operation added, changed or removed; `fields` is {field: [old, new]}, secrets
    written as "***"."""

    __tablename__ = "operation_log_changes"
    __table_args__ = (Index("ix_operation_log_changes_device", "device_id", "operation_id"),
                      Index("ix_operation_log_changes_object", "object_type", "object_id"))
    id: Mapped[int] = mapped_column(primary_key=True)
    operation_id: Mapped[int] = mapped_column(ForeignKey("operation_log.id"), index=True)
    object_type: Mapped[str] = mapped_column(String(50))
    object_id: Mapped[str | None] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))
    label: Mapped[str | None] = mapped_column(String(100))
    owner_account_id: Mapped[int | None] = mapped_column(Integer)
    device_id: Mapped[int | None] = mapped_column(Integer)
    organization_id: Mapped[int | None] = mapped_column(Integer)
    fields: Mapped[dict[str, Any]] = mapped_column(JSON)


class OperationReaderRow(Base):
    """Who reads an entry besides operators: the actor and the owners of what it changed (an
    account), the organizations of what it changed. `at` repeats the entry's time so that a
    reader's log is one index range, newest first."""

    __tablename__ = "operation_log_readers"
    __table_args__ = (Index("ix_operation_log_readers_account", "account_id", "at", "operation_id"),
                      Index("ix_operation_log_readers_organization", "organization_id", "at", "operation_id"))
    id: Mapped[int] = mapped_column(primary_key=True)
    operation_id: Mapped[int] = mapped_column(ForeignKey("operation_log.id"), index=True)
    account_id: Mapped[int | None] = mapped_column(Integer)
    organization_id: Mapped[int | None] = mapped_column(Integer)
    at: Mapped[datetime]


# --- coupons and prepaid recharge cards (core.vouchers) -------------------------------------------


class CouponBatchRow(Base):
    __tablename__ = "coupon_batches"
    id: Mapped[int] = mapped_column(primary_key=True)
    prefix: Mapped[str] = mapped_column(String(2), default="")
    count: Mapped[int] = mapped_column(Integer)
    kind: Mapped[int] = mapped_column(SmallInteger)  # 1 amount (cents), 2 percent off
    value: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    starts_at: Mapped[datetime]
    ends_at: Mapped[datetime]
    activity_id: Mapped[int | None] = mapped_column(ForeignKey("activities.id", ondelete="SET NULL"))
    remark: Mapped[str] = mapped_column(String(200))
    status: Mapped[int] = mapped_column(SmallInteger, default=1)  # 1 enabled, 0 disabled
    created_at: Mapped[datetime]


class CouponRow(Base):
    """One code. `order_id` (no foreign key, like order lines' devices) is the order holding it
    while reserved, or that used it; unique: an order carries one coupon at most."""

    __tablename__ = "coupons"
    id: Mapped[int] = mapped_column(primary_key=True)
    batch_id: Mapped[int] = mapped_column(ForeignKey("coupon_batches.id", ondelete="CASCADE"), index=True)
    code: Mapped[str] = mapped_column(String(20), unique=True)
    state: Mapped[int] = mapped_column(SmallInteger, default=1)  # 1 unused, 2 reserved, 3 used
    order_id: Mapped[int | None] = mapped_column(Integer, unique=True)
    account_id: Mapped[int | None] = mapped_column(Integer, index=True)
    reserved_at: Mapped[datetime | None]
    used_at: Mapped[datetime | None]


class CardBatchRow(Base):
    __tablename__ = "card_batches"
    id: Mapped[int] = mapped_column(primary_key=True)
    prefix: Mapped[str] = mapped_column(String(2), default="")
    count: Mapped[int] = mapped_column(Integer)
    level_id: Mapped[int] = mapped_column(ForeignKey("service_levels.id"))
    months: Mapped[int] = mapped_column(Integer)
    starts_at: Mapped[datetime]
    ends_at: Mapped[datetime]
    activity_id: Mapped[int | None] = mapped_column(ForeignKey("activities.id", ondelete="SET NULL"))
    remark: Mapped[str] = mapped_column(String(200), default="")
    status: Mapped[int] = mapped_column(SmallInteger, default=1)  # 1 enabled, 0 disabled
    created_at: Mapped[datetime]


class RechargeCardRow(Base):
    """One card: its number, and only a digest of its secret (core.vouchers.model.secret_digest)."""

    __tablename__ = "recharge_cards"
    id: Mapped[int] = mapped_column(primary_key=True)
    batch_id: Mapped[int] = mapped_column(ForeignKey("card_batches.id", ondelete="CASCADE"), index=True)
    card_number: Mapped[str] = mapped_column(String(20), unique=True)
    secret_digest: Mapped[str] = mapped_column(String(64))
    state: Mapped[int] = mapped_column(SmallInteger, default=1)  # 1 unused, 3 used
    account_id: Mapped[int | None] = mapped_column(Integer, index=True)
    device_id: Mapped[int | None] = mapped_column(Integer)
    order_id: Mapped[int | None] = mapped_column(Integer)
    used_at: Mapped[datetime | None]


class CardAttemptRow(Base):
    """Wrong tries of a card number (known or not): five lock it for a while."""

    __tablename__ = "card_attempts"
    card_number: Mapped[str] = mapped_column(String(20), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[datetime | None]


# --- waybills (core/waybills) ------------------------------------------------------------------


class WaybillRow(Base):
    """A shipment's record: its particulars, temperature limits and state (0 not started, 1 in
    progress, 2 finished), an account's own or an organization's. The geofence ids are plain integers:
    the fences are another context's table."""

    __tablename__ = "waybills"
    __table_args__ = (Index("ix_waybills_order_number", "order_number"),
                      Index("ix_waybills_state_planned", "state", "planned_start", "planned_stop"))
    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    organization_id: Mapped[int | None] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"),
                                                        index=True)
    order_number: Mapped[str | None] = mapped_column(String(20))
    goods_name: Mapped[str | None] = mapped_column(String(20))
    express_number: Mapped[str | None] = mapped_column(String(100))
    cooler_code: Mapped[str | None] = mapped_column(String(20))
    upper_limit: Mapped[float | None] = mapped_column(Float)
    lower_limit: Mapped[float | None] = mapped_column(Float)
    sender_name: Mapped[str | None] = mapped_column(String(20))
    sender_phone: Mapped[str | None] = mapped_column(String(20))
    sender_address: Mapped[str | None] = mapped_column(String(200))
    receiver_name: Mapped[str | None] = mapped_column(String(20))
    receiver_phone: Mapped[str | None] = mapped_column(String(20))
    receiver_address: Mapped[str | None] = mapped_column(String(200))
    # [[name, phone, email], ...] in the user's order
    alarm_contacts: Mapped[list[list[str | None]]] = mapped_column(JSON)
    planned_start: Mapped[datetime | None]
    planned_stop: Mapped[datetime | None]
    origin_fence_id: Mapped[int | None] = mapped_column(Integer, index=True)
    destination_fence_id: Mapped[int | None] = mapped_column(Integer, index=True)
    state: Mapped[int] = mapped_column(SmallInteger, default=0)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    created_at: Mapped[datetime]


class WaybillDeviceRow(Base):
    """A device on a waybill; `running` while the waybill is in progress. A device runs one trip at a
    time: the partial unique index refuses a second running row on every backend."""

    __tablename__ = "waybill_devices"
    __table_args__ = (
        PrimaryKeyConstraint("waybill_id", "device_id"),
        Index("ix_waybill_devices_device_id", "device_id"),
        Index("uq_waybill_devices_running", "device_id", unique=True,
              postgresql_where=text("running"), sqlite_where=text("running = 1")),
    )
    waybill_id: Mapped[int] = mapped_column(ForeignKey("waybills.id", ondelete="CASCADE"))
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"))
    running: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class WaybillTemplateRow(Base):
    """An account's template to fill new waybills with (core.waybills.model.Particulars as JSON)."""

    __tablename__ = "waybill_templates"
    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(32))
    particulars: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime]


class WaybillShareLinkRow(Base):
    """A link to a waybill for its receiver: only the SHA-256 of its token is kept."""

    __tablename__ = "waybill_share_links"
    id: Mapped[int] = mapped_column(primary_key=True)
    waybill_id: Mapped[int] = mapped_column(ForeignKey("waybills.id", ondelete="CASCADE"), index=True)
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]


class WaybillLinkOpenRow(Base):
    """Each open of a share link: when, and from which client address."""

    __tablename__ = "waybill_link_opens"
    id: Mapped[int] = mapped_column(primary_key=True)
    link_id: Mapped[int] = mapped_column(ForeignKey("waybill_share_links.id", ondelete="CASCADE"), index=True)
    opened_at: Mapped[datetime]
    client_address: Mapped[str | None] = mapped_column(String(64))


class WaybillLookupRow(Base):
    """The public quick query's lookups by client address, for its rate limit (bookkeeping)."""

    __tablename__ = "waybill_lookups"
    __table_args__ = (Index("ix_waybill_lookups_address_at", "client_address", "at"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    client_address: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime]


# --- calibration (core/calibration) --------------------------------------------------------------


class CalibrationApplicationRow(Base):
    """A customer's calibration application: its details as columns (what the lab reads and lists),
    the prices frozen on its lines, the status ladder's place, the payment and the refund owed.

    The applicant is kept, not cascaded, when an account goes: the lab keeps its records of work
    done and money taken (ISO/IEC 17025 8.4), and accounts are soft-deleted anyway. RESTRICT rather
    than SET NULL: a null applicant is a customer without an account, whom a number and a phone
    reach (core.calibration.model ACCESS), so an account's application must never turn into one."""

    __tablename__ = "calibration_applications"
    __table_args__ = (Index("ix_calibration_applications_applicant_created", "applicant_account_id", "created_at"),
                      Index("ix_calibration_applications_created", "created_at"),
                      Index("ix_calibration_applications_refund", "refund_state", "cancelled_at"))
    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str] = mapped_column(String(20), unique=True)
    applicant_account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="RESTRICT"))
    customer_name: Mapped[str | None] = mapped_column(String(100))
    contact_name: Mapped[str] = mapped_column(String(30))
    contact_phone: Mapped[str | None] = mapped_column(String(20))
    contact_email: Mapped[str | None] = mapped_column(String(100))
    return_address: Mapped[str | None] = mapped_column(String(200))
    customer_address: Mapped[str | None] = mapped_column(String(200))
    invoice_type: Mapped[int | None] = mapped_column(SmallInteger)  # None: no invoice wanted
    invoice_title: Mapped[str | None] = mapped_column(String(100))
    tax_number: Mapped[str | None] = mapped_column(String(20))
    remark: Mapped[str | None] = mapped_column(String(200))
    currency: Mapped[str] = mapped_column(String(3))
    total_cents: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[int] = mapped_column(SmallInteger, index=True)  # core.calibration.model.Status
    quick_order: Mapped[bool] = mapped_column(Boolean, default=False)
    handled: Mapped[bool] = mapped_column(Boolean, default=True)
    inbound_tracking: Mapped[str | None] = mapped_column(String(40))
    outbound_tracking: Mapped[str | None] = mapped_column(String(40))
    pay_type: Mapped[int | None] = mapped_column(SmallInteger)
    payment_reference: Mapped[str | None] = mapped_column(String(100))
    paid_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    paid_at: Mapped[datetime | None]
    cancelled_at: Mapped[datetime | None]
    refund_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    refund_state: Mapped[int] = mapped_column(SmallInteger, default=0)  # core.calibration.model.RefundState
    access_digest: Mapped[str | None] = mapped_column(String(64))  # SHA-256 of an anonymous customer's token
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class CalibrationLineRow(Base):
    """A device on an application at the price it was applied at. The type and the console device
    are plain integers: the application's record outlives a type or a device deleted later."""

    __tablename__ = "calibration_lines"
    __table_args__ = (UniqueConstraint("application_id", "line_index"),)  # also the index by application
    id: Mapped[int] = mapped_column(primary_key=True)
    application_id: Mapped[int] = mapped_column(ForeignKey("calibration_applications.id", ondelete="CASCADE"))
    line_index: Mapped[int] = mapped_column(SmallInteger)
    service: Mapped[int] = mapped_column(SmallInteger)
    device_type_id: Mapped[int] = mapped_column(Integer)
    model: Mapped[str] = mapped_column(String(50))
    serial: Mapped[str] = mapped_column(String(50))
    price_cents: Mapped[int] = mapped_column(BigInteger)
    device_id: Mapped[int | None] = mapped_column(Integer)
    points_note: Mapped[str | None] = mapped_column(String(200))


class CalibrationPriceRow(Base):
    """The price of a service for one device of a type, per currency (the operators edit it)."""

    __tablename__ = "calibration_prices"
    __table_args__ = (UniqueConstraint("device_type_id", "service", "currency"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    device_type_id: Mapped[int] = mapped_column(ForeignKey("device_types.id", ondelete="CASCADE"))
    service: Mapped[int] = mapped_column(SmallInteger)
    currency: Mapped[str] = mapped_column(String(3))
    price_cents: Mapped[int] = mapped_column(BigInteger)


class CalibrationCertificateRow(Base):
    """One version of a device's certificate. What is looked up (application, line, version, status,
    number) is in columns; what it states (core.calibration.certificates.CertificateContent) is JSON
    as importCert reads it, numbers as text, read back by the same reader (rules.content_from_json),
    so a row altered by hand is refused rather than printed. Versions of a line are unique, and so
    is a number's version. Not cascaded from the application: an issued certificate is a record."""

    __tablename__ = "calibration_certificates"
    __table_args__ = (UniqueConstraint("application_id", "line_index", "version"),
                      UniqueConstraint("number", "version"))
    id: Mapped[int] = mapped_column(primary_key=True)
    application_id: Mapped[int] = mapped_column(ForeignKey("calibration_applications.id"))
    line_index: Mapped[int] = mapped_column(SmallInteger)
    version: Mapped[int] = mapped_column(SmallInteger)
    status: Mapped[int] = mapped_column(SmallInteger)  # core.calibration.certificates.CertificateStatus
    number: Mapped[str | None] = mapped_column(String(40))
    device_id: Mapped[int | None] = mapped_column(Integer, index=True)  # no key: the record outlives the device
    content: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime]
    issued_on: Mapped[date | None]
    issued_at: Mapped[datetime | None]
    superseded_at: Mapped[datetime | None]
    amendment: Mapped[str | None] = mapped_column(String(200))  # why this version replaces the last


class CertificateSequenceRow(Base):
    """The last certificate sequence given in a year: incremented by one upsert that locks the row
    until the issuing transaction ends, so numbers are never given twice and none is lost to a
    rollback (bookkeeping)."""

    __tablename__ = "certificate_sequences"
    year: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    last: Mapped[int] = mapped_column(Integer)


class DeviceCalibrationRow(Base):
    """A console device's calibration: its own interval, and the date, due date and certificate of
    its newest calibration. A table of its own rather than columns of `devices`, which the ingest
    writes on every reading and the device list reads from covering indexes; "calibration due" is
    an index range here, joined by device id."""

    __tablename__ = "device_calibrations"
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"), primary_key=True,
                                           autoincrement=False)
    interval_months: Mapped[int | None] = mapped_column(SmallInteger)  # None: its type's
    calibrated_on: Mapped[date | None]
    due_on: Mapped[date | None] = mapped_column(index=True)
    certificate: Mapped[str | None] = mapped_column(String(50))  # the reference of the certificate that set them


class DeviceTypeCalibrationRow(Base):
    """A device type's calibration interval (no row: core.calibration.due_dates' default)."""

    __tablename__ = "device_type_calibrations"
    type_id: Mapped[int] = mapped_column(ForeignKey("device_types.id", ondelete="CASCADE"), primary_key=True,
                                         autoincrement=False)
    interval_months: Mapped[int] = mapped_column(SmallInteger)


class CalibrationReportRow(Base):
    """The lab's report of an application, a PDF kept in the database as invoices' are (stored in the
    uploading transaction; at most 10 MB: core.calibration.documents.REPORT_MAX_BYTES). One an
    application: a new upload replaces it."""

    __tablename__ = "calibration_reports"
    application_id: Mapped[int] = mapped_column(ForeignKey("calibration_applications.id", ondelete="CASCADE"),
                                                primary_key=True, autoincrement=False)
    file_name: Mapped[str] = mapped_column(String(120))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    content: Mapped[bytes] = mapped_column(LargeBinary)
    uploaded_at: Mapped[datetime]
    uploaded_by: Mapped[int | None] = mapped_column(Integer)  # no key: the record outlives the account


class CalibrationReminderRow(Base):
    """Each calibration reminder posted, once per (device, due date, stage): a new due date has
    reminders of its own (bookkeeping)."""

    __tablename__ = "calibration_reminders"
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"), primary_key=True)
    due_on: Mapped[date] = mapped_column(primary_key=True)
    stage: Mapped[int] = mapped_column(SmallInteger, primary_key=True)  # days before the due date
    sent_at: Mapped[datetime]


# --- FDA 21 CFR Part 11 (core.fda): each part's tables in a module of its own ----------------------

from adapters.persistence import (  # noqa: E402,F401 (reports, signatures, trail links)
    models_fda_reports,
    models_fda_signatures,
    models_fda_trail,
)
