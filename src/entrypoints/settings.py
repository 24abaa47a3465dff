"""Settings from the environment, checked once at start-up.

Every setting has a safe development default; a bad value stops the process with a message that
names the variable, what it holds and what it should hold.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from adapters.payments.configs import PaymentConfigs
from adapters.payments.provider_config import DEFAULT_SANDBOX_URL, ProviderDefaults
from adapters.security.secret_box import new_key, valid_key
from core.ordering.payments import Provider, providers_of
from core.shared.edition import Edition

ENVIRONMENTS = ("development", "production", "test")
_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off", ""}


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class ProviderSettings:
    """Base URLs and keys of the outside services other than payments (each payment provider
    reads its own: adapters/payments/*_config.py); they default to the local sandboxes."""

    sms_base_url: str
    sms_api_key: str
    map_key: str
    map_security_key: str
    # Outside sites the routes plc, calibrationServe and marketManage open in a new window.
    external_links: dict[str, str]
    # E-mail alerts: smtp://user:password@host:25 (STARTTLS when offered) or smtps://...:465.
    smtp_url: str = "smtp://127.0.0.1:25"
    mail_from: str = "Coldchain <alarms@coldchain.example>"
    sandbox_url: str = DEFAULT_SANDBOX_URL  # the local payment sandbox, PAYMENT_SANDBOX_URL


@dataclass(frozen=True)
class Settings:
    app_env: str
    edition: Edition
    database_url: str
    mqtt_url: str
    mqtt_embedded: bool
    secret_key: str
    proxy_count: int
    log_level: str
    password_time_cost: int
    password_memory_kib: int
    password_parallelism: int
    web_dist: Path
    market_manage_account: str | None
    providers: ProviderSettings = field(repr=False)
    payments: PaymentConfigs = field(repr=False)
    # CONFIG_ENCRYPTION_KEYS: seal the secrets kept in the database; empty in production until set.
    config_encryption_keys: tuple[str, ...] = field(default=(), repr=False)
    # The ingest workers' broker password (user `ingest`); None in production until it is set.
    mqtt_ingest_password: str | None = field(default=None, repr=False)
    # Where devices connect (the simulator): the devices' listener; MQTT_URL is the workers' one.
    mqtt_device_url: str = "mqtt://127.0.0.1:1883"
    # Where a technician points a real device (shown with its login): MQTT_PUBLIC_URL, by default
    # MQTT_DEVICE_URL (in development the private broker's devices' listener).
    mqtt_public_url: str = "mqtt://127.0.0.1:1883"
    # Development with MQTT_EMBEDDED and no MQTT_URL: `coldchain serve` runs a private Mosquitto
    # at the default URLs (PRIVATE_*_URL).
    mqtt_private_broker: bool = False
    # The console's broker login (user `broker-admin`), with which it changes the running broker's
    # device logins; None where the console manages no broker's logins.
    mqtt_admin_password: str | None = field(default=None, repr=False)
    # development: the server log and the outbox table; providers: SMS/voice over HTTP, e-mail over SMTP
    notification_backend: str = "development"
    # development: the console's own gateway (a signed pay link stands in for every provider);
    # providers: WeChat Pay, Alipay, Stripe and PayPal at the URLs above (the local sandbox by default)
    payment_backend: str = "development"
    # Where payers and providers reach this console (links in QR codes, return URLs).
    public_base_url: str = "http://127.0.0.1:8000"
    var_dir: Path = Path("var")
    # Account pictures (PHOTO_DIR, by default under VAR_DIR): kept on a disk the API servers share.
    photo_dir: Path = Path("var/photos")
    # The payment providers offered (PAYMENT_PROVIDERS, by default the edition's).
    payment_providers: tuple[Provider, ...] = ()
    # The job engine's broker (JOBS_BROKER_URL): Redis or RabbitMQ in production; elsewhere by
    # default a SQLite file under var/ through Celery's SQLAlchemy transport, which needs no server.
    jobs_broker_url: str = "sqla+sqlite:///var/celery-broker.db"
    # Where finished exports wait a week for their owner (EXPORT_DIR, by default VAR_DIR/exports).
    # The API's processes and the job workers must all see it: one disk, or a shared mount.
    export_dir: Path = Path("var/exports")
    # Base map tiles for the console's maps (MAP_TILE_URL, an XYZ template such as
    # https://tile.example.com/{z}/{x}/{y}.png, and MAP_TILE_ATTRIBUTION); empty: the maps draw the
    # countries' outlines shipped with the web client, which need no network. The trip report's
    # route map fetches them on the server (adapters/maps/tiles.py).
    map_tile_url: str = ""
    map_tile_attribution: str = ""
    # Refunds of more than this (REFUND_APPROVAL_ABOVE, in cents of the order's currency) wait for
    # a second operator's approval (maker-checker).
    refund_approval_above_cents: int = 50_000
    # The calibration lab's prefix of its certificate numbers (CALIBRATION_CERTIFICATE_PREFIX):
    # PREFIX-2026-000042 (core.calibration.certificates.certificate_number).
    certificate_prefix: str = "CAL"
    # How long a device stays on the other side of a fence before it counts as entered or left
    # (GPS jitter near the edge flips nothing): FENCE_DWELL_READINGS consecutive readings, or
    # FENCE_DWELL_MINUTES (0: readings alone) since the first of them (core/geofences/dwell.py).
    fence_dwell_readings: int = 3
    fence_dwell_minutes: int = 0
    # Electronic signatures (core/fda/signing.py): a login session's signature after FDA_REAUTH_MINUTES
    # without one takes the user name again; FDA_SIGNING_LOCK_MINUTES of lock after 5 failures in a row.
    fda_reauth_minutes: int = 15
    fda_signing_lock_minutes: int = 30

    @property
    def switched_on_providers(self) -> tuple[Provider, ...]:
        """The offered providers that can take payments: every one with the development gateway,
        which needs no credentials; otherwise those with all their credentials. The others are
        switched off: their pay types are not offered and their notifications refused."""
        if self.payment_backend == "development":
            return self.payment_providers
        return tuple(p for p in self.payment_providers if not self.payments.missing(p))

    @property
    def secret_key_bytes(self) -> bytes:
        return self.secret_key.encode()

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(f"{name} must be one of 1/0, true/false, yes/no or on/off; got {raw!r}")


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number between {low} and {high}; got {raw!r}") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low} and {high}; got {value}")
    return value


def _choice(env: Mapping[str, str], name: str, default: str, choices: tuple[str, ...]) -> str:
    value = env.get(name, default).strip().lower() or default
    if value not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(choices)}; got {env.get(name)!r}")
    return value


def _database_url(env: Mapping[str, str], var_dir: Path) -> str:
    raw = env.get("DATABASE_URL", "").strip()
    if not raw:
        return f"sqlite:///{var_dir / 'coldchain.db'}"
    if raw.startswith(("postgres://", "postgresql://")):
        # psycopg 3 is the installed driver; plain URLs would ask SQLAlchemy for psycopg2.
        raw = "postgresql+psycopg://" + raw.split("://", 1)[1]
    try:
        url = make_url(raw)
    except ArgumentError:
        raise ConfigError(f"DATABASE_URL is not a database URL: {raw!r} (examples: "
                          "sqlite:///var/coldchain.db, postgresql://user@127.0.0.1:5432/coldchain)") from None
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        raise ConfigError(f"DATABASE_URL must point at SQLite or PostgreSQL; got {url.get_backend_name()!r}")
    if url.get_backend_name() == "postgresql" and url.drivername != "postgresql+psycopg":
        raise ConfigError("DATABASE_URL for PostgreSQL must use the psycopg driver (postgresql:// or "
                          f"postgresql+psycopg://); got {url.drivername!r}")
    return raw


# `make run`'s private Mosquitto: beside, not on, the 1883 of a Mosquitto the machine may run.
PRIVATE_DEVICE_URL, PRIVATE_INGEST_URL = "mqtt://127.0.0.1:18883", "mqtt://127.0.0.1:18884"


def _private_broker(env: Mapping[str, str], app_env: str, embedded: bool) -> bool:
    return app_env == "development" and embedded and not env.get("MQTT_URL", "").strip()


def _broker_url(env: Mapping[str, str], name: str, default: str) -> str:
    raw = env.get(name, "").strip() or default
    parts = urlsplit(raw)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname or port == -1:
        raise ConfigError(f"{name} must look like mqtt://host:1883 or mqtts://host:8883; got {raw!r}")
    return raw


def _mqtt_url(env: Mapping[str, str], private: bool = False) -> str:
    return _broker_url(env, "MQTT_URL", PRIVATE_INGEST_URL if private else "mqtt://127.0.0.1:1883")


def _broker_password(env: Mapping[str, str], name: str) -> str | None:
    password = env.get(name, "").strip()
    if password and (len(password) < 16 or any(ch.isspace() or ch == ":" for ch in password)):
        raise ConfigError(f"{name} must be at least 16 characters, without spaces or ':' (try: "
                          "python3 -c 'import secrets; print(secrets.token_urlsafe(24))')")
    return password or None


def _mqtt_ingest_password(env: Mapping[str, str], app_env: str, var_dir: Path) -> str | None:
    if password := _broker_password(env, "MQTT_INGEST_PASSWORD"):
        return password
    if app_env == "production":
        return None  # `coldchain mqtt-config` and the ingest workers say it is missing
    return _generated_once(var_dir / "mqtt_ingest_password", 24)  # development, like the secret key


def _mqtt_admin_password(env: Mapping[str, str], private: bool, var_dir: Path) -> str | None:
    """Production needs it (_production_problems); the private broker of development gets one
    generated once; elsewhere the console changes no broker's logins unless it is given."""
    if password := _broker_password(env, "MQTT_ADMIN_PASSWORD"):
        return password
    return _generated_once(var_dir / "mqtt_admin_password", 24) if private else None


def _generated_once(path: Path, size: int, make: Callable[[], str] | None = None) -> str:
    """A random development secret, written once (0600) and read back on every later start."""
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    value = make() if make is not None else secrets.token_urlsafe(size)
    path.write_text(value)
    path.chmod(0o600)
    return value


def _secret_key(env: Mapping[str, str], app_env: str, var_dir: Path) -> str:
    key = env.get("SECRET_KEY", "").strip()
    if key:
        if len(key) < 32:
            raise ConfigError("SECRET_KEY must be at least 32 characters (try: python3 -c "
                              "'import secrets; print(secrets.token_urlsafe(48))')")
        return key
    if app_env == "production":
        return ""  # one of the problems production lists (_production_problems)
    # Development: a random key kept under var/ so codes and captchas survive a restart.
    return _generated_once(var_dir / "secret_key", 48)


def _config_keys(env: Mapping[str, str], app_env: str, var_dir: Path) -> tuple[str, ...]:
    """CONFIG_ENCRYPTION_KEYS: Fernet keys, comma-separated, the first sealing the secrets kept in
    the database and every one opening them (rotation: the new key first, the old after it)."""
    keys = tuple(k.strip() for k in env.get("CONFIG_ENCRYPTION_KEYS", "").split(",") if k.strip())
    if keys:
        if not all(valid_key(k) for k in keys):
            raise ConfigError("CONFIG_ENCRYPTION_KEYS must be Fernet keys, comma-separated (try: python3 -c "
                              "'from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())')")
        return keys
    if app_env == "production":
        return ()  # one of the problems production lists (_production_problems)
    return (_generated_once(var_dir / "config_key", 0, new_key),)


def _sandbox_url(env: Mapping[str, str]) -> str:
    sandbox = env.get("PAYMENT_SANDBOX_URL", DEFAULT_SANDBOX_URL).rstrip("/")
    if urlsplit(sandbox).scheme not in ("http", "https"):
        raise ConfigError(f"PAYMENT_SANDBOX_URL must be an http(s) URL; got {sandbox!r}")
    return sandbox


def _providers(env: Mapping[str, str], app_env: str, sandbox: str) -> ProviderSettings:
    def get(name: str) -> str:
        return env.get(name, "").strip()

    return ProviderSettings(
        # Production has no SMS provider of its own to default to; elsewhere the sandbox's.
        sms_base_url=get("SMS_BASE_URL") or ("" if app_env == "production" else f"{sandbox}/sms"),
        sms_api_key=get("SMS_API_KEY"),
        map_key=get("MAP_KEY"),
        map_security_key=get("MAP_SECURITY_KEY"),
        external_links=_external_links(env),
        smtp_url=_smtp_url(env),
        mail_from=_mail_from(env),
        sandbox_url=sandbox,
    )


def _payments(env: Mapping[str, str], app_env: str, sandbox: str, var_dir: Path) -> PaymentConfigs:
    """In development every provider credential defaults to the one generated under var/ for the
    console and the local payment sandbox, so `make run` pays end to end with no configuration.
    In production nothing defaults to the sandbox: the URLs are the providers' own and credentials
    must be set."""
    development: dict[str, str] = {}
    if app_env == "development":
        # Imported here, never in production: the module exists for development alone.
        from adapters.payments.development_credentials import development_credentials

        development = development_credentials(var_dir).console_environment()
    return PaymentConfigs.from_env(env, ProviderDefaults(app_env == "production", sandbox, development))


def _payment_providers(env: Mapping[str, str], edition: Edition) -> tuple[Provider, ...]:
    """PAYMENT_PROVIDERS (e.g. `alipay` to take Alipay only), by default every provider of the edition."""
    own = providers_of(edition.profile.pay_types)
    raw = env.get("PAYMENT_PROVIDERS", "").strip().lower()
    if not raw:
        return own
    names = [name.strip() for name in raw.split(",") if name.strip()]
    wrong = [name for name in names if name not in {p.value for p in own}]
    if wrong or not names:
        raise ConfigError(f"PAYMENT_PROVIDERS must list providers of the {edition.value} edition "
                          f"({', '.join(p.value for p in own)}), separated by commas; got {raw!r}")
    return tuple(p for p in own if p.value in names)


def _smtp_url(env: Mapping[str, str]) -> str:
    raw = env.get("SMTP_URL", "").strip() or "smtp://127.0.0.1:25"
    parts = urlsplit(raw)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname or port == -1:
        shown = raw.replace(f":{parts.password}@", ":***@") if parts.password else raw
        raise ConfigError("SMTP_URL must look like smtp://user:password@host:25 or smtps://user:password@host:465; "
                          f"got {shown!r}")
    return raw


def _mail_from(env: Mapping[str, str]) -> str:
    value = env.get("MAIL_FROM", "").strip() or "Coldchain <alarms@coldchain.example>"
    if "@" not in value or "\n" in value or "\r" in value:
        raise ConfigError("MAIL_FROM must be an e-mail address such as 'Coldchain <alarms@example.com>'; "
                          f"got {value!r}")
    return value


def _payment_backend(env: Mapping[str, str], app_env: str) -> str:
    """The providers (the local sandbox in development) everywhere but in tests, which use the
    development gateway unless told otherwise; never the development gateway in production
    (_production_problems)."""
    return _choice(env, "PAYMENT_BACKEND", "development" if app_env == "test" else "providers",
                   ("development", "providers"))


def _public_base_url(env: Mapping[str, str]) -> str:
    url = env.get("PUBLIC_BASE_URL", "").strip().rstrip("/") or "http://127.0.0.1:8000"
    if urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).hostname:
        raise ConfigError(f"PUBLIC_BASE_URL must be an http(s) URL such as https://console.example.com; got {url!r}")
    return url


def _external_links(env: Mapping[str, str]) -> dict[str, str]:
    links = {}
    for route, name in (("plc", "PLC_URL"), ("calibrationServe", "CALIBRATION_SERVE_URL"),
                        ("marketManage", "MARKET_MANAGE_URL")):
        url = env.get(name, "").strip()
        if url:
            if urlsplit(url).scheme not in ("http", "https"):
                raise ConfigError(f"{name} must be an http(s) URL; got {url!r}")
            links[route] = url
    return links


JOBS_BROKER_SCHEMES = ("redis", "rediss", "amqp", "amqps", "pyamqp", "sqla+sqlite", "sqla+postgresql")


def _jobs_broker_url(env: Mapping[str, str], app_env: str, var_dir: Path) -> str:
    raw = env.get("JOBS_BROKER_URL", "").strip()
    if not raw:
        # production: one of the problems _production_problems lists
        return "" if app_env == "production" else f"sqla+sqlite:///{var_dir / 'celery-broker.db'}"
    if urlsplit(raw).scheme not in JOBS_BROKER_SCHEMES:
        raise ConfigError("JOBS_BROKER_URL must be a Redis or RabbitMQ URL (redis://127.0.0.1:6379/0, "
                          f"amqp://user:password@host:5672//) or sqla+sqlite:///path; got {urlsplit(raw).scheme!r}")
    return raw


def _production_problems(settings: Settings) -> list[str]:
    """What production cannot run with: development's embedded defaults (SQLite, plain http), a
    missing secret, or an offered payment provider that could not verify its notifications."""
    problems = []
    if settings.is_sqlite:
        problems.append("DATABASE_URL is SQLite; production needs PostgreSQL (postgresql://user@host:5432/coldchain)")
    if urlsplit(settings.public_base_url).scheme != "https":
        problems.append(f"PUBLIC_BASE_URL must be https:// in production (payers and providers reach the console "
                        f"there); got {settings.public_base_url!r}")
    if not settings.secret_key:
        problems.append("SECRET_KEY must be set (at least 32 characters)")
    if not settings.config_encryption_keys:
        problems.append("CONFIG_ENCRYPTION_KEYS must be set (the key that seals the platforms' merchant secrets)")
    if not settings.mqtt_ingest_password:
        problems.append("MQTT_INGEST_PASSWORD must be set (the ingest workers' broker password)")
    if not settings.jobs_broker_url:
        problems.append("JOBS_BROKER_URL must be set: the job workers' and beat's Redis or RabbitMQ "
                        "(redis://host:6379/0 or amqp://user:password@host:5672//)")
    elif settings.jobs_broker_url.startswith("sqla+"):
        problems.append("JOBS_BROKER_URL must be Redis or RabbitMQ in production; the SQLAlchemy transport is "
                        "development's")
    if not settings.mqtt_admin_password:
        problems.append("MQTT_ADMIN_PASSWORD must be set (the console's broker password, with which it lets devices "
                        "in and out of the broker as they are added, given new passwords and deleted)")
    if settings.payment_backend == "development":
        problems.append("PAYMENT_BACKEND=development pays orders without a provider")
    else:
        for provider in settings.payment_providers:
            missing = settings.payments.missing(provider)
            if missing:
                problems.append(f"{provider.value} is offered but lacks {', '.join(missing)}: set "
                                f"{'it' if len(missing) == 1 else 'them'}, or leave {provider.value} out of "
                                "PAYMENT_PROVIDERS")
    return problems


def _map_tile_url(env: Mapping[str, str]) -> str:
    url = env.get("MAP_TILE_URL", "").strip()
    if url and (not url.startswith(("https://", "http://", "/")) or not all(k in url for k in ("{z}", "{x}", "{y}"))):
        raise ConfigError("MAP_TILE_URL must be an http(s) or site path template with {z}, {x} and {y}")
    return url


def _certificate_prefix(env: Mapping[str, str]) -> str:
    prefix = env.get("CALIBRATION_CERTIFICATE_PREFIX", "").strip() or "CAL"
    if not re.fullmatch(r"[A-Z0-9]{1,10}", prefix):
        raise ConfigError("CALIBRATION_CERTIFICATE_PREFIX must be 1 to 10 capital letters and digits")
    return prefix


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    env = os.environ if env is None else env
    app_env = _choice(env, "APP_ENV", "development", ENVIRONMENTS)
    var_dir = Path(env.get("VAR_DIR", "var")).resolve()
    edition = Edition(_choice(env, "EDITION", "domestic", tuple(e.value for e in Edition)))
    embedded = _flag(env, "MQTT_EMBEDDED", app_env == "development")
    private_broker = _private_broker(env, app_env, embedded)
    mqtt_url = _mqtt_url(env, private_broker)
    sandbox = _sandbox_url(env)
    device_url = _broker_url(env, "MQTT_DEVICE_URL", PRIVATE_DEVICE_URL if private_broker else mqtt_url)
    settings = Settings(
        app_env=app_env,
        edition=edition,
        database_url=_database_url(env, var_dir),
        mqtt_url=mqtt_url,
        mqtt_device_url=device_url,
        mqtt_public_url=_broker_url(env, "MQTT_PUBLIC_URL", device_url),
        mqtt_private_broker=private_broker,
        mqtt_admin_password=_mqtt_admin_password(env, private_broker, var_dir),
        mqtt_embedded=embedded,
        secret_key=_secret_key(env, app_env, var_dir),
        config_encryption_keys=_config_keys(env, app_env, var_dir),
        mqtt_ingest_password=_mqtt_ingest_password(env, app_env, var_dir),
        proxy_count=_int(env, "PROXY_COUNT", 0, 0, 5),
        fence_dwell_readings=_int(env, "FENCE_DWELL_READINGS", 3, 1, 100),
        fence_dwell_minutes=_int(env, "FENCE_DWELL_MINUTES", 0, 0, 1440),
        fda_reauth_minutes=_int(env, "FDA_REAUTH_MINUTES", 15, 1, 720),
        fda_signing_lock_minutes=_int(env, "FDA_SIGNING_LOCK_MINUTES", 30, 1, 10080),
        log_level=_choice(env, "LOG_LEVEL", "info", ("debug", "info", "warning", "error")).upper(),
        password_time_cost=_int(env, "PASSWORD_HASH_TIME_COST", 3, 1, 20),
        password_memory_kib=_int(env, "PASSWORD_HASH_MEMORY_KIB", 65536, 8, 1048576),
        password_parallelism=_int(env, "PASSWORD_HASH_PARALLELISM", 4, 1, 16),
        web_dist=Path(env.get("WEB_DIST", "web/dist")).resolve(),
        market_manage_account=env.get("MARKET_MANAGE_ACCOUNT", "").strip() or None,
        providers=_providers(env, app_env, sandbox),
        payments=_payments(env, app_env, sandbox, var_dir),
        notification_backend=_choice(env, "NOTIFICATION_BACKEND", "development", ("development", "providers")),
        payment_backend=_payment_backend(env, app_env),
        public_base_url=_public_base_url(env),
        var_dir=var_dir,
        photo_dir=Path(env.get("PHOTO_DIR") or var_dir / "photos").resolve(),
        payment_providers=_payment_providers(env, edition),
        jobs_broker_url=_jobs_broker_url(env, app_env, var_dir),
        export_dir=Path(env.get("EXPORT_DIR", "").strip() or var_dir / "exports").resolve(),
        map_tile_url=_map_tile_url(env),
        map_tile_attribution=env.get("MAP_TILE_ATTRIBUTION", "").strip()[:200],
        refund_approval_above_cents=_int(env, "REFUND_APPROVAL_ABOVE", 50_000, 0, 10**12),
        certificate_prefix=_certificate_prefix(env),
    )
    if app_env == "production":
        problems = _production_problems(settings)
        if problems:
            # All at once: an operator fixes the configuration in one go, not one restart per line.
            raise ConfigError("APP_ENV=production refuses to start:\n  - " + "\n  - ".join(problems))
    return settings
