import ast
from pathlib import Path

import pytest

from adapters.payments.configs import PaymentConfigs
from adapters.payments.development_credentials import generate
from adapters.payments.provider_config import ProviderDefaults
from adapters.security.passwords import Argon2PasswordHasher
from adapters.security.secret_box import new_key
from core.notifications.model import Channel, OutboundMessage
from core.notifications.use_cases import DeliverPendingMessages
from core.ordering.payments import Provider
from core.shared.edition import Edition
from entrypoints.settings import ConfigError, load_settings
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeUnitOfWork

CORE = Path(__file__).resolve().parents[2] / "src" / "core"
FORBIDDEN = {"flask", "flask_smorest", "sqlalchemy", "alembic", "marshmallow", "webargs", "paho", "stripe",
             "wechatpy", "alipay", "paypalserversdk", "dependency_injector", "babel", "argon2", "captcha", "amqtt"}


def test_the_core_imports_no_framework_or_sdk():
    offenders = []
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_development_defaults(tmp_path):
    settings = load_settings({"VAR_DIR": str(tmp_path)})
    assert settings.edition is Edition.DOMESTIC and settings.app_env == "development"
    assert settings.database_url == f"sqlite:///{tmp_path / 'coldchain.db'}"
    assert settings.mqtt_embedded is True and settings.mqtt_private_broker is True
    # `make run`'s private Mosquitto, beside a system Mosquitto on 1883: the workers' and console's
    # listener, and the devices' one; its admin password generated once, privately
    assert (settings.mqtt_url, settings.mqtt_device_url) == ("mqtt://127.0.0.1:18884", "mqtt://127.0.0.1:18883")
    assert len(settings.mqtt_admin_password) >= 32
    assert (tmp_path / "mqtt_admin_password").stat().st_mode & 0o777 == 0o600
    assert len(settings.secret_key) >= 32
    assert settings.payments.wechat.base_url.startswith("http://127.0.0.1")


def required(provider: Provider) -> tuple[str, ...]:
    """What the provider cannot work without: all of it is missing from an empty production environment."""
    return PaymentConfigs.from_env({}, ProviderDefaults(production=True)).missing(provider)


@pytest.mark.parametrize("provider,names", [
    (Provider.WECHAT, ("WECHAT_APP_ID", "WECHAT_MCH_ID", "WECHAT_API_KEY")),
    (Provider.ALIPAY, ("ALIPAY_APP_ID", "ALIPAY_PRIVATE_KEY", "ALIPAY_PUBLIC_KEY")),
    (Provider.STRIPE, ("STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET")),
    (Provider.PAYPAL, ("PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET")),
])
def test_each_provider_reports_what_it_cannot_work_without_until_it_is_set(provider, names):
    assert required(provider) == names
    complete = generate().console_environment()
    production = ProviderDefaults(production=True)
    assert PaymentConfigs.from_env(complete, production).missing(provider) == ()
    assert PaymentConfigs.from_env({**complete, names[-1]: " "}, production).missing(provider) == names[-1:]


def test_outside_production_provider_urls_default_under_the_sandbox_and_credentials_to_developments():
    defaults = ProviderDefaults(production=False, sandbox_url="http://127.0.0.1:9001",
                                development={"STRIPE_SECRET_KEY": "sk_test_dev"})
    configs = PaymentConfigs.from_env({"PAYPAL_BASE_URL": "https://api-m.sandbox.paypal.com"}, defaults)
    assert (configs.wechat.base_url, configs.alipay.gateway_url, configs.stripe.api_base, configs.paypal.base_url) == (
        "http://127.0.0.1:9001/wechat/", "http://127.0.0.1:9001/alipay/gateway.do", "http://127.0.0.1:9001/stripe",
        "https://api-m.sandbox.paypal.com")
    assert configs.stripe.secret_key == "sk_test_dev" and configs.missing(Provider.STRIPE) == ("STRIPE_WEBHOOK_SECRET",)
    assert "sk_test_dev" not in repr(configs)


def test_a_given_mqtt_url_is_the_broker_for_workers_and_devices_and_no_private_one_runs(tmp_path):
    settings = load_settings({"VAR_DIR": str(tmp_path), "MQTT_URL": "mqtt://127.0.0.1:1883"})
    assert (settings.mqtt_url, settings.mqtt_device_url) == ("mqtt://127.0.0.1:1883", "mqtt://127.0.0.1:1883")
    assert settings.mqtt_private_broker is False and settings.mqtt_admin_password is None
    no_embedded = load_settings({"VAR_DIR": str(tmp_path), "MQTT_EMBEDDED": "0"})  # e.g. the browser tests' server
    assert (no_embedded.mqtt_private_broker, no_embedded.mqtt_url) == (False, "mqtt://127.0.0.1:1883")
    devices = load_settings({"VAR_DIR": str(tmp_path), "MQTT_URL": "mqtt://10.0.0.5:1884",
                             "MQTT_DEVICE_URL": "mqtts://broker.example.com:8883"})
    assert devices.mqtt_device_url == "mqtts://broker.example.com:8883"
    with pytest.raises(ConfigError, match="MQTT_ADMIN_PASSWORD"):
        load_settings({"VAR_DIR": str(tmp_path), "MQTT_ADMIN_PASSWORD": "short"})


def production(tmp_path, **overrides: str) -> dict[str, str]:
    """A complete production configuration (nothing here connects to it)."""
    c = generate()
    return {"VAR_DIR": str(tmp_path), "APP_ENV": "production", "SECRET_KEY": "s" * 40,
            "DATABASE_URL": "postgresql://coldchain@db.example.com:5432/coldchain",
            "PUBLIC_BASE_URL": "https://console.example.com", "MQTT_INGEST_PASSWORD": "i" * 24,
            "JOBS_BROKER_URL": "redis://redis.example.com:6379/0",
            "MQTT_ADMIN_PASSWORD": "a" * 24, "CONFIG_ENCRYPTION_KEYS": new_key(),
            "WECHAT_APP_ID": c.wechat_app_id, "WECHAT_MCH_ID": c.wechat_mch_id, "WECHAT_API_KEY": c.wechat_api_key,
            "ALIPAY_APP_ID": c.alipay_app_id, "ALIPAY_PRIVATE_KEY": c.alipay_app_private_key,
            "ALIPAY_PUBLIC_KEY": c.alipay_public_key, "STRIPE_SECRET_KEY": c.stripe_secret_key,
            "STRIPE_WEBHOOK_SECRET": c.stripe_webhook_secret, "PAYPAL_CLIENT_ID": c.paypal_client_id,
            "PAYPAL_CLIENT_SECRET": c.paypal_client_secret, **overrides}


def test_production_needs_its_secret_and_turns_the_embedded_broker_off(tmp_path):
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        load_settings(production(tmp_path, SECRET_KEY=""))
    settings = load_settings(production(tmp_path))
    assert settings.mqtt_embedded is False


def test_production_lists_every_problem_in_one_error(tmp_path):
    with pytest.raises(ConfigError) as refused:
        load_settings({"VAR_DIR": str(tmp_path), "APP_ENV": "production"})
    for name in ("DATABASE_URL", "PUBLIC_BASE_URL", "SECRET_KEY", "MQTT_INGEST_PASSWORD", "MQTT_ADMIN_PASSWORD",
                 "JOBS_BROKER_URL", "CONFIG_ENCRYPTION_KEYS", "WECHAT_APP_ID", "WECHAT_MCH_ID", "WECHAT_API_KEY",
                 "ALIPAY_APP_ID", "ALIPAY_PRIVATE_KEY", "ALIPAY_PUBLIC_KEY"):
        assert name in str(refused.value)
    assert "STRIPE" not in str(refused.value) and "PAYPAL" not in str(refused.value)  # not the edition's
    assert not list(tmp_path.iterdir())  # nothing generated on the way


@pytest.mark.parametrize("edition,provider", [("domestic", p) for p in (Provider.WECHAT, Provider.ALIPAY)]
                         + [("international", p) for p in (Provider.STRIPE, Provider.PAYPAL)])
def test_production_names_each_missing_credential_of_an_offered_provider(tmp_path, edition, provider):
    for name in required(provider):
        with pytest.raises(ConfigError) as refused:
            load_settings(production(tmp_path, EDITION=edition, **{name: ""}))
        assert name in str(refused.value) and str(refused.value).count("\n  - ") == 1
    # not offered, it needs nothing
    others = ",".join(p.value for p in Provider if p is not provider and p.value in
                      {"domestic": "wechat,alipay", "international": "stripe,paypal"}[edition])
    settings = load_settings(production(tmp_path, EDITION=edition, PAYMENT_PROVIDERS=others,
                                        **dict.fromkeys(required(provider), "")))
    assert provider not in settings.switched_on_providers and settings.payment_providers == (Provider(others),)


@pytest.mark.parametrize("change,name", [
    ({"DATABASE_URL": "sqlite:////var/lib/coldchain.db"}, "DATABASE_URL"),
    ({"PUBLIC_BASE_URL": "http://console.example.com"}, "PUBLIC_BASE_URL"),
    ({"MQTT_INGEST_PASSWORD": ""}, "MQTT_INGEST_PASSWORD"),
    ({"MQTT_ADMIN_PASSWORD": ""}, "MQTT_ADMIN_PASSWORD"),
    ({"CONFIG_ENCRYPTION_KEYS": ""}, "CONFIG_ENCRYPTION_KEYS"),
    ({"PAYMENT_BACKEND": "development"}, "PAYMENT_BACKEND"),
])
def test_production_names_each_development_default_it_refuses(tmp_path, change, name):
    with pytest.raises(ConfigError) as refused:
        load_settings(production(tmp_path, **change))
    assert name in str(refused.value) and str(refused.value).count("\n  - ") == 1


def test_production_talks_to_the_providers_own_apis_not_the_sandbox(tmp_path):
    payments = load_settings(production(tmp_path)).payments
    assert (payments.wechat.base_url, payments.alipay.gateway_url, payments.stripe.api_base,
            payments.paypal.base_url) == ("https://api.mch.weixin.qq.com/", "https://openapi.alipay.com/gateway.do",
                                           "https://api.stripe.com", "https://api-m.paypal.com")


def test_the_offered_providers_are_the_editions_unless_chosen_and_never_another_editions(tmp_path):
    env = {"VAR_DIR": str(tmp_path)}
    assert load_settings(env).payment_providers == (Provider.WECHAT, Provider.ALIPAY)
    assert load_settings({**env, "EDITION": "international"}).payment_providers == (Provider.PAYPAL, Provider.STRIPE)
    assert load_settings({**env, "PAYMENT_PROVIDERS": " Alipay "}).payment_providers == (Provider.ALIPAY,)
    for wrong in ("stripe", "wechat,bitcoin", ","):
        with pytest.raises(ConfigError, match="PAYMENT_PROVIDERS"):
            load_settings({**env, "PAYMENT_PROVIDERS": wrong})


def test_outside_production_a_provider_missing_a_credential_is_switched_off(tmp_path):
    env = {"VAR_DIR": str(tmp_path), "APP_ENV": "test", "PAYMENT_BACKEND": "providers"}
    assert load_settings(env).switched_on_providers == ()  # nothing set: nothing can be verified
    c = generate()
    alipay = {"ALIPAY_PRIVATE_KEY": c.alipay_app_private_key, "ALIPAY_PUBLIC_KEY": c.alipay_public_key}
    assert load_settings({**env, **alipay}).switched_on_providers == (Provider.ALIPAY,)
    assert load_settings({**env, "PAYMENT_BACKEND": "development"}).switched_on_providers == (Provider.WECHAT,
                                                                                              Provider.ALIPAY)


@pytest.mark.parametrize("url,expected", [
    ("postgresql://u@h:5432/db", "postgresql+psycopg://u@h:5432/db"),
    ("postgres://u@h/db", "postgresql+psycopg://u@h/db"),
    ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
    ("sqlite:////tmp/x.db", "sqlite:////tmp/x.db"),
])
def test_database_urls_are_normalised_to_the_installed_driver(tmp_path, url, expected):
    assert load_settings({"VAR_DIR": str(tmp_path), "DATABASE_URL": url}).database_url == expected


@pytest.mark.parametrize("env", [
    {"DATABASE_URL": "postgresql+psycopg2://u@h/db"}, {"DATABASE_URL": "not a url"},
    {"PASSWORD_HASH_MEMORY_KIB": "4"}, {"LOG_LEVEL": "chatty"}, {"PAYMENT_SANDBOX_URL": "ftp://x"},
    {"MQTT_URL": "mqtt://host:notaport"},
])
def test_bad_values_are_refused_by_name(tmp_path, env):
    with pytest.raises(ConfigError) as error:
        load_settings({"VAR_DIR": str(tmp_path), **env})
    assert next(iter(env)) in str(error.value)


def test_external_links_are_only_those_configured(tmp_path):
    settings = load_settings({"VAR_DIR": str(tmp_path), "PLC_URL": "https://plc.example.com"})
    assert settings.providers.external_links == {"plc": "https://plc.example.com"}
    with pytest.raises(ConfigError, match="MARKET_MANAGE_URL"):
        load_settings({"VAR_DIR": str(tmp_path), "MARKET_MANAGE_URL": "javascript:alert(1)"})


def test_passwords_are_argon2id_with_the_rfc_9106_low_memory_profile():
    hasher = Argon2PasswordHasher()
    stored = hasher.hash("Coldchain#2026")
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert hasher.verify(stored, "Coldchain#2026") and not hasher.verify(stored, "coldchain#2026")
    assert not hasher.verify("not a hash", "x")
    assert Argon2PasswordHasher(time_cost=1, memory_cost_kib=1024, parallelism=1).needs_rehash(stored)


class FlakySender:
    def __init__(self, fail_for: set[str]) -> None:
        self.fail_for, self.sent = fail_for, []

    def send(self, message):
        if message.recipient in self.fail_for:
            raise ConnectionError("provider down")
        self.sent.append(message.recipient)


def test_a_failed_delivery_stays_pending_and_does_not_stop_the_others():
    uow, clock = FakeUnitOfWork(), MutableClock()
    for recipient in ("a", "b", "c"):
        uow.outbox.add(OutboundMessage(Channel.PHONE, recipient, "verification_code", {"code": "1"}, "en-US",
                                       clock.now()))
    sender = FlakySender({"b"})
    assert DeliverPendingMessages(uow, sender, clock)() == 2
    assert sender.sent == ["a", "c"]
    b = uow.outbox.rows[1]
    assert b.sent_at is None and b.attempts == 1 and "provider down" in b.last_error
    for _ in range(4):
        DeliverPendingMessages(uow, sender, clock)()
    assert b.attempts == 5 and uow.outbox.pending(10) == []  # given up after five tries


def test_payments_go_to_the_providers_and_development_credentials_are_generated_once(tmp_path):
    first = load_settings({"VAR_DIR": str(tmp_path)})
    assert first.payment_backend == "providers"
    assert first.payments.wechat.api_key and first.payments.alipay.app_private_key
    again = load_settings({"VAR_DIR": str(tmp_path)})
    assert again.payments.stripe.webhook_secret == first.payments.stripe.webhook_secret
    assert (tmp_path / "payment-sandbox.json").stat().st_mode & 0o077 == 0
    assert load_settings({"VAR_DIR": str(tmp_path), "APP_ENV": "test"}).payment_backend == "development"
    explicit = load_settings({"VAR_DIR": str(tmp_path), "STRIPE_SECRET_KEY": "sk_live_x"})
    assert explicit.payments.stripe.secret_key == "sk_live_x"


def test_production_refuses_the_development_payment_gateway_and_keeps_no_generated_credentials(tmp_path):
    with pytest.raises(ConfigError, match="PAYMENT_BACKEND"):
        load_settings(production(tmp_path, PAYMENT_BACKEND="development"))
    settings = load_settings(production(tmp_path, WECHAT_API_KEY="", PAYMENT_PROVIDERS="alipay"))
    assert settings.payment_backend == "providers" and settings.payments.wechat.api_key == ""
    assert not (tmp_path / "payment-sandbox.json").exists()


def test_the_map_tile_url_is_a_template_with_z_x_and_y_or_nothing(tmp_path):
    assert load_settings({"VAR_DIR": str(tmp_path)}).map_tile_url == ""
    url = "https://tiles.example.com/{z}/{x}/{y}.png"
    assert load_settings({"VAR_DIR": str(tmp_path), "MAP_TILE_URL": url}).map_tile_url == url
    for bad in ("javascript:alert(1)//{z}{x}{y}", "https://tiles.example.com/tile.png"):
        with pytest.raises(ValueError):
            load_settings({"VAR_DIR": str(tmp_path), "MAP_TILE_URL": bad})
