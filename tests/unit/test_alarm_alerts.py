"""What the recipients of a graded level are sent, and what it costs the device."""

from __future__ import annotations

from datetime import UTC, datetime

from core.alarms.alerts import AlertWriter
from core.alarms.model import AlarmDevice, AlarmKind, AlarmMessage, AlarmRule, Recipient
from core.notifications.model import Channel
from core.shared.edition import Edition
from tests.unit.fakes import FakeCountRepository, FakeUnitOfWork

STARTED = datetime(2026, 3, 1, 6, 25, tzinfo=UTC)


def alarm(probe: str = "t", kind: AlarmKind = AlarmKind.ABOVE, value: float = 9.456) -> AlarmMessage:
    return AlarmMessage(1, 10, probe, kind, 8.0, value, value, STARTED, STARTED, level=1, id=99)


RULE = AlarmRule(1, "t", "Fridge", 8.0, 2.0, recipients=[
    Recipient(1, "Alice", phone="13800000001", email="alice@example.com"),
    Recipient(1, "Night shift", phone="13800000002", voice=True),
    Recipient(2, "Manager", email="boss@example.com"),
])


def uow_with(sms: int, voice: int) -> FakeUnitOfWork:
    uow = FakeUnitOfWork()
    uow.alarms = FakeCountRepository({1: {Channel.PHONE: sms, Channel.VOICE: voice}})
    return uow


def test_each_level_1_recipient_gets_sms_call_and_e_mail_as_configured():
    uow = uow_with(sms=10, voice=10)
    written = AlertWriter(Edition.DOMESTIC).notify(uow, alarm(), RULE, AlarmDevice(1, "Fridge", "G1", None, 1), 1,
                                                   STARTED)
    sent = [(m.channel, m.recipient) for m in uow.outbox.rows]
    assert written == 4 and sent == [(Channel.PHONE, "13800000001"), (Channel.EMAIL, "alice@example.com"),
                                     (Channel.PHONE, "13800000002"), (Channel.VOICE, "13800000002")]
    assert uow.alarms.counts[1] == {Channel.PHONE: 8, Channel.VOICE: 9}
    message = uow.outbox.rows[0]
    assert (message.template, message.language) == ("alarm_temperature_above", "zh-CN")
    assert message.params == {"alarmId": 99, "device": "Fridge", "guid": "G1", "level": 1, "value": "9.5",
                              "limit": "8.0", "time": "2026-03-01 14:25 (UTC+08:00)", "countryCode": "86",
                              "name": "Alice"}


def test_without_counts_only_e_mail_goes_out():
    uow = uow_with(sms=1, voice=0)
    AlertWriter(Edition.DOMESTIC).notify(uow, alarm(), RULE, AlarmDevice(1, "Fridge", "G1", "86", 1), 1, STARTED)
    assert [(m.channel, m.recipient) for m in uow.outbox.rows] == [
        (Channel.PHONE, "13800000001"), (Channel.EMAIL, "alice@example.com")]
    assert uow.alarms.counts[1] == {Channel.PHONE: 0, Channel.VOICE: 0}


def test_the_international_edition_writes_english_in_utc_with_the_device_s_country_code():
    uow = uow_with(sms=5, voice=5)
    device = AlarmDevice(1, "Fridge", "G1", "44", 2)
    AlertWriter(Edition.INTERNATIONAL).notify(uow, alarm("h", AlarmKind.BELOW, 12.0), RULE, device, 2, STARTED)
    [mail] = uow.outbox.rows
    assert (mail.channel, mail.recipient, mail.template, mail.language) == (
        Channel.EMAIL, "boss@example.com", "alarm_humidity_below", "en-US")
    assert (mail.params["time"], mail.params["value"], mail.params["countryCode"], mail.params["level"]) == (
        "2026-03-01 06:25 (UTC+00:00)", "12.00", "44", 2)
    other = AlarmDevice(2, "Other", "G2", None, 0)
    uow.alarms.counts[2] = {Channel.PHONE: 1}
    AlertWriter(Edition.INTERNATIONAL).notify(uow, alarm(), RULE, other, 1, STARTED)
    assert uow.outbox.rows[1].params["countryCode"] == "1" and uow.outbox.rows[1].params["value"] == "9"
