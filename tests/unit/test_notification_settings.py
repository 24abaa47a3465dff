import pytest

from entrypoints.settings import ConfigError, load_settings


def test_notifications_go_to_the_development_sender_unless_providers_are_chosen(tmp_path):
    settings = load_settings({"VAR_DIR": str(tmp_path)})
    assert settings.notification_backend == "development"
    assert settings.providers.smtp_url == "smtp://127.0.0.1:25" and "@" in settings.providers.mail_from
    chosen = load_settings({"VAR_DIR": str(tmp_path), "NOTIFICATION_BACKEND": "Providers",
                            "SMTP_URL": "smtps://mailer:s3cret@mail.example.com:465",
                            "MAIL_FROM": "Cold chain <alarms@example.com>"})
    assert chosen.notification_backend == "providers"
    assert chosen.providers.smtp_url == "smtps://mailer:s3cret@mail.example.com:465"
    assert chosen.providers.mail_from == "Cold chain <alarms@example.com>"


@pytest.mark.parametrize("env", [
    {"NOTIFICATION_BACKEND": "twilio"}, {"SMTP_URL": "http://mail.example.com"}, {"SMTP_URL": "smtp://:25"},
    {"SMTP_URL": "smtp://host:port"}, {"MAIL_FROM": "nobody"},
])
def test_bad_notification_settings_are_refused_by_name(tmp_path, env):
    with pytest.raises(ConfigError) as error:
        load_settings({"VAR_DIR": str(tmp_path), **env})
    assert next(iter(env)) in str(error.value)


def test_a_bad_smtp_url_is_reported_without_its_password(tmp_path):
    with pytest.raises(ConfigError) as error:
        load_settings({"VAR_DIR": str(tmp_path), "SMTP_URL": "smtp://mailer:s3cret@host:notaport"})
    assert "s3cret" not in str(error.value) and "SMTP_URL" in str(error.value)
