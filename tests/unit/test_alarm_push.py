"""Alarm push settings: which kinds go by which channel, and quiet hours that keep phones still
without silencing an alarm (core/alarms/push.py)."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest

from core.alarms.alerts import AlertWriter
from core.alarms.model import AlarmDevice, AlarmKind, AlarmMessage, AlarmRule, Recipient
from core.alarms.push import PushSetting, push_problems, valid_time_zone
from core.notifications.model import Channel
from core.shared.edition import Edition
from tests.unit.fakes import FakeCountRepository, FakeUnitOfWork

# 22:00 to 07:00 in Shanghai (UTC+8): 14:00 to 23:00 UTC.
NIGHT = PushSetting(1, quiet_start=time(22, 0), quiet_end=time(7, 0), time_zone="Asia/Shanghai")
AT_NIGHT = datetime(2026, 3, 1, 16, 0, tzinfo=UTC)  # 00:00 in Shanghai
BY_DAY = datetime(2026, 3, 1, 2, 0, tzinfo=UTC)  # 10:00 in Shanghai

BOTH = Recipient(1, "Alice", phone="13800000001", email="alice@example.com", voice=True)
PHONE_ONLY = Recipient(1, "Night shift", phone="13800000002", voice=True)
RULE = AlarmRule(1, "t", "Fridge", 8.0, 2.0, recipients=[BOTH, PHONE_ONLY])
DEVICE = AlarmDevice(1, "Fridge", "G1", None, 1)


@pytest.mark.parametrize(("at", "quiet"), [
    (datetime(2026, 3, 1, 13, 59, tzinfo=UTC), False),  # 21:59
    (datetime(2026, 3, 1, 14, 0, tzinfo=UTC), True),  # 22:00, the start is in
    (AT_NIGHT, True),
    (datetime(2026, 3, 1, 22, 59, tzinfo=UTC), True),  # 06:59
    (datetime(2026, 3, 1, 23, 0, tzinfo=UTC), False),  # 07:00, the end is out
    (BY_DAY, False),
])
def test_quiet_hours_run_over_midnight_in_the_setting_s_zone(at, quiet):
    assert NIGHT.quiet_at(at) is quiet


def test_quiet_hours_within_a_day():
    lunch = PushSetting(1, quiet_start=time(12, 0), quiet_end=time(13, 0), time_zone="UTC")
    assert lunch.quiet_at(datetime(2026, 3, 1, 12, 30, tzinfo=UTC))
    assert not lunch.quiet_at(datetime(2026, 3, 1, 13, 0, tzinfo=UTC))
    assert not PushSetting(1).quiet_at(AT_NIGHT)


def test_by_day_every_channel_goes_out():
    assert NIGHT.channels(AlarmKind.ABOVE, BOTH, BY_DAY) == [
        (Channel.PHONE, "13800000001"), (Channel.VOICE, "13800000001"), (Channel.EMAIL, "alice@example.com")]


def test_at_night_no_call_and_no_sms_to_whom_the_e_mail_reaches_but_a_phone_only_recipient_gets_the_sms():
    assert NIGHT.channels(AlarmKind.ABOVE, BOTH, AT_NIGHT) == [(Channel.EMAIL, "alice@example.com")]
    assert NIGHT.channels(AlarmKind.ABOVE, PHONE_ONLY, AT_NIGHT) == [(Channel.PHONE, "13800000002")]


def test_kinds_choose_the_channels():
    only_above_by_phone = PushSetting(1, sms_kinds=frozenset({AlarmKind.ABOVE}), voice_kinds=frozenset(),
                                      email_kinds=frozenset({AlarmKind.BELOW}))
    assert only_above_by_phone.channels(AlarmKind.ABOVE, BOTH, BY_DAY) == [(Channel.PHONE, "13800000001")]
    assert only_above_by_phone.channels(AlarmKind.BELOW, BOTH, BY_DAY) == [(Channel.EMAIL, "alice@example.com")]
    # at night the SMS is held back only when the e-mail goes out for that kind
    night = PushSetting(1, email_kinds=frozenset({AlarmKind.BELOW}), quiet_start=time(22), quiet_end=time(7),
                        time_zone="Asia/Shanghai")
    assert night.channels(AlarmKind.ABOVE, BOTH, AT_NIGHT) == [(Channel.PHONE, "13800000001")]


def test_the_alert_writer_follows_the_device_s_push_settings_and_spends_no_count_it_does_not_send():
    uow = FakeUnitOfWork()
    uow.alarms = FakeCountRepository({1: {Channel.PHONE: 10, Channel.VOICE: 10}}, {1: NIGHT})
    alarm = AlarmMessage(1, 10, "t", AlarmKind.ABOVE, 8.0, 9.0, 9.0, AT_NIGHT, AT_NIGHT, level=1, id=99)
    written = AlertWriter(Edition.DOMESTIC).notify(uow, alarm, RULE, DEVICE, 1, AT_NIGHT)
    assert written == 2
    assert [(m.channel, m.recipient) for m in uow.outbox.rows] == [
        (Channel.EMAIL, "alice@example.com"), (Channel.PHONE, "13800000002")]
    assert uow.alarms.counts[1] == {Channel.PHONE: 9, Channel.VOICE: 10}


@pytest.mark.parametrize(("setting", "field"), [
    (PushSetting(1, quiet_start=time(22)), "quietEnd"),
    (PushSetting(1, quiet_end=time(7)), "quietStart"),
    (PushSetting(1, quiet_start=time(7), quiet_end=time(7)), "quietEnd"),
    (PushSetting(1, time_zone="Mars/Olympus"), "timeZone"),
    (PushSetting(1, time_zone="../../etc/passwd"), "timeZone"),
    (PushSetting(1, time_zone="\udcff"), "timeZone"),
])
def test_wrong_settings_are_named_by_field(setting, field):
    assert field in push_problems(setting)


def test_known_zones_are_valid():
    assert valid_time_zone("Europe/Moscow") and valid_time_zone("UTC")
    assert push_problems(NIGHT) == {}
