"""The SMS/voice and e-mail senders against real local servers, and the outbox delivering alarm
alerts through them when NOTIFICATION_BACKEND=providers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from adapters.i18n import Translator
from adapters.notifications.development import LoggingMessageSender
from adapters.notifications.http_sms import DeliveryFailed, HttpSmsVoiceSender
from adapters.notifications.router import ChannelRouter
from adapters.notifications.smtp import SmtpEmailSender
from core.notifications.model import VERIFICATION_CODE, Channel, OutboundMessage
from entrypoints.demo_seed import seed
from tests.support.alarms import FRIDGE, report
from tests.support.fixtures import _make_app
from tests.support.providers import LocalSmsProvider, LocalSmtpServer

NOW = datetime(2026, 3, 1, 6, 30, tzinfo=UTC)
PARAMS = {"device": "Vaccine fridge logger", "level": 1, "value": "9.5", "limit": "8.0",
          "time": "2026-03-01 14:25 (UTC+08:00)", "countryCode": "44"}


def alert(channel: Channel, recipient: str, language: str = "en-US") -> OutboundMessage:
    return OutboundMessage(channel, recipient, "alarm_temperature_above", dict(PARAMS), language, NOW)


@pytest.fixture(scope="module")
def translator():
    return Translator()


@pytest.fixture
def smtp():
    with LocalSmtpServer() as server:
        yield server


@pytest.fixture
def sms():
    with LocalSmsProvider() as server:
        yield server


def test_an_alarm_e_mail_reaches_the_smtp_server_in_the_recipient_s_language(smtp, translator):
    sender = SmtpEmailSender(f"smtp://alerts:p%40ss@127.0.0.1:{smtp.port}", "Coldchain <alarms@example.com>",
                             translator)
    sender.send(alert(Channel.EMAIL, "alice@example.com", "de-DE"))
    [mail] = smtp.received
    assert mail.login == ("alerts", "p@ss")
    assert (mail.mail_from, mail.recipients) == ("alarms@example.com", ["alice@example.com"])
    message = mail.message
    assert message["To"] == "alice@example.com" and "Vaccine fridge logger" in message["Subject"]
    body = message.get_content()
    assert "Vaccine fridge logger" in body and "9.5" in body and "8.0" in body and "14:25" in body
    assert body.strip() == translator.translate("Level {level} alarm: {device} temperature {value} °C is above "
                                                "the upper limit {limit} °C since {time}.", "de-DE", **PARAMS)


def test_a_verification_code_by_e_mail_has_its_own_subject_and_no_login_without_credentials(smtp, translator):
    sender = SmtpEmailSender(f"smtp://127.0.0.1:{smtp.port}", "alarms@example.com", translator)
    sender.send(OutboundMessage(Channel.EMAIL, "bob@example.com", VERIFICATION_CODE, {"code": "123456"}, "en-US",
                                NOW))
    [mail] = smtp.received
    assert mail.login is None and mail.message["Subject"] == "Your verification code"
    assert "123456" in mail.message.get_content()


def test_a_refused_e_mail_raises_so_the_outbox_retries(smtp, translator):
    smtp.behaviour.refuse_recipients.add("gone@example.com")
    sender = SmtpEmailSender(f"smtp://127.0.0.1:{smtp.port}", "alarms@example.com", translator)
    with pytest.raises(Exception, match="gone@example.com|No such mailbox"):
        sender.send(alert(Channel.EMAIL, "gone@example.com"))
    with pytest.raises(ValueError):
        sender.send(alert(Channel.PHONE, "13800000001"))


def test_sms_and_voice_calls_post_json_with_the_bearer_key(sms, translator):
    sender = HttpSmsVoiceSender(f"{sms.url}/provider/", "key-123", translator, "86")
    sender.send(alert(Channel.PHONE, "7700900123"))
    sender.send(alert(Channel.VOICE, "7700900123", "zh-CN"))
    text, call = sms.calls
    assert (text.path, call.path) == ("/provider/sms/send", "/provider/voice/call")
    assert text.headers["Authorization"] == "Bearer key-123"
    assert text.headers["Content-Type"] == "application/json"
    assert text.body == {"to": "7700900123", "countryCode": "44", "text": (
        "Level 1 alarm: Vaccine fridge logger temperature 9.5 °C is above the upper limit 8.0 °C since "
        "2026-03-01 14:25 (UTC+08:00).")}
    assert call.body["to"] == "7700900123" and call.body["text"] != text.body["text"]  # in Chinese


def test_a_message_without_a_country_code_gets_the_edition_s(sms, translator):
    sender = HttpSmsVoiceSender(sms.url, "k", translator, "86")
    sender.send(OutboundMessage(Channel.PHONE, "13800000001", VERIFICATION_CODE, {"code": "1"}, "zh-CN", NOW))
    assert sms.calls[0].body["countryCode"] == "86"


@pytest.mark.parametrize("status", [400, 401, 500, 503, 302])
def test_anything_but_a_2xx_answer_raises(sms, translator, status):
    sms.status = status
    with pytest.raises(DeliveryFailed, match=str(status)):
        HttpSmsVoiceSender(sms.url, "k", translator, "86").send(alert(Channel.PHONE, "13800000001"))


def test_an_unreachable_provider_raises(translator):
    with pytest.raises(DeliveryFailed, match="unreachable"):
        HttpSmsVoiceSender("http://127.0.0.1:9", "k", translator, "86", timeout_s=2).send(
            alert(Channel.PHONE, "13800000001"))


def test_the_router_hands_each_channel_to_its_sender(translator):
    class Recorder:
        def __init__(self):
            self.got = []

        def send(self, message):
            self.got.append(message.channel)

    phone, mail = Recorder(), Recorder()
    router = ChannelRouter({Channel.PHONE: phone, Channel.VOICE: phone, Channel.EMAIL: mail})
    for channel in (Channel.PHONE, Channel.EMAIL, Channel.VOICE):
        router.send(alert(channel, "x"))
    assert (phone.got, mail.got) == ([Channel.PHONE, Channel.VOICE], [Channel.EMAIL])
    with pytest.raises(LookupError):
        ChannelRouter({}).send(alert(Channel.EMAIL, "x"))


def test_the_development_backend_is_the_default(container):
    assert isinstance(container.message_sender(), LoggingMessageSender)


def test_alarm_alerts_leave_the_outbox_through_the_providers(tmp_path, sms, smtp):
    app = _make_app(f"sqlite:///{tmp_path / 'providers.db'}", tmp_path, NOTIFICATION_BACKEND="providers",
                    SMS_BASE_URL=sms.url, SMS_API_KEY="live-key", SMTP_URL=f"smtp://127.0.0.1:{smtp.port}",
                    MAIL_FROM="alarms@coldchain.example")
    try:
        container = app.container
        assert isinstance(container.message_sender(), ChannelRouter)
        seed(container)
        report(container, FRIDGE, app.clock.now() - timedelta(minutes=10), (0, 9.0), (5, 9.5))
        assert container.deliver_messages()() == 2
        [call] = sms.calls
        assert call.body["to"] == "13800000001" and call.body["countryCode"] == "86"
        assert call.headers["Authorization"] == "Bearer live-key" and "Vaccine fridge logger" in call.body["text"]
        [mail] = smtp.received
        assert mail.recipients == ["alice@example.com"]
        assert container.deliver_messages()() == 0  # sent once
    finally:
        app.container.engine().dispose()
