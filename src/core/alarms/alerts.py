"""Alerts to the recipients of a graded level, written to the outbox in the caller's transaction.

Each SMS and each voice call takes one of the device's prepaid counts; when none is left it is
not written (the alarm itself is still recorded and shown). E-mail is free. The device's push
settings say which alarm kinds go by which channel, and hold phones back in quiet hours (push.py).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from core.alarms.model import AlarmDevice, AlarmKind, AlarmMessage, AlarmRule
from core.alarms.ports import AlarmsUnitOfWork
from core.alarms.push import default_push_setting
from core.notifications.model import Channel, OutboundMessage
from core.shared.edition import Edition
from core.telemetry.model import HUMIDITY, TEMPERATURE

ALARM_TEMPERATURE_ABOVE = "alarm_temperature_above"
ALARM_TEMPERATURE_BELOW = "alarm_temperature_below"
ALARM_HUMIDITY_ABOVE = "alarm_humidity_above"
ALARM_HUMIDITY_BELOW = "alarm_humidity_below"
ALARM_TEMPLATES = {
    (TEMPERATURE, AlarmKind.ABOVE): ALARM_TEMPERATURE_ABOVE,
    (TEMPERATURE, AlarmKind.BELOW): ALARM_TEMPERATURE_BELOW,
    (HUMIDITY, AlarmKind.ABOVE): ALARM_HUMIDITY_ABOVE,
    (HUMIDITY, AlarmKind.BELOW): ALARM_HUMIDITY_BELOW,
}


class AlertWriter:
    def __init__(self, edition: Edition) -> None:
        profile = edition.profile
        # A recipient without a language of their own reads the device owner's, else the edition's;
        # times are in the edition's zone either way.
        self._language = profile.default_language
        self._zone = ZoneInfo(profile.default_time_zone)
        self._country_code = profile.fixed_country_code or profile.default_country_code

    def notify(self, uow: AlarmsUnitOfWork, alarm: AlarmMessage, rule: AlarmRule, device: AlarmDevice, level: int,
               now: datetime) -> int:
        """Alert the recipients of `level`; the number of messages written."""
        params = self.params(alarm, device, level)
        setting = uow.alarms.push_setting(device.id) or default_push_setting(device.id)
        written = 0
        for recipient in rule.recipients_of(level):
            deliveries = [(channel, target) for channel, target in setting.channels(alarm.kind, recipient, now)
                          if channel is Channel.EMAIL or uow.alarms.consume_count(device.id, channel)]
            for channel, target in deliveries:
                language = recipient.language or device.owner_language or self._language
                uow.outbox.add(OutboundMessage(channel, target, ALARM_TEMPLATES[(alarm.probe, alarm.kind)],
                                               {**params, "name": recipient.name}, language, now))
                written += 1
        return written

    def params(self, alarm: AlarmMessage, device: AlarmDevice, level: int) -> dict[str, object]:
        digits = max(0, min(device.precision, 4))
        local = alarm.started_at.astimezone(self._zone)
        offset = local.isoformat()[-6:] if local.utcoffset() else "+00:00"
        return {
            "alarmId": alarm.id,
            "device": device.name,
            "guid": device.guid,
            "level": level,
            "value": f"{alarm.value:.{digits}f}",
            "limit": f"{alarm.limit_value:.{digits}f}",
            "time": f"{local:%Y-%m-%d %H:%M} (UTC{offset})",
            # The phone is stored as entered; the sender adds the country code the provider needs.
            "countryCode": device.country_code or self._country_code,
        }
