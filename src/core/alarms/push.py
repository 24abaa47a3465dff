"""Alarm push settings of a device (spec seed 000 section 7, DeviceAlarmPushSetting): which alarm
kinds go out by SMS, by voice call and by e-mail to the recipients of the device's rules, and quiet
hours.

Quiet hours keep phones still at night without silencing an alarm: inside them no voice call is
made, and an SMS is held back from a recipient who gets the same alert by e-mail; a recipient
reachable only by phone still gets the SMS, since an alarm must reach someone. Nothing is queued
for later: the alarm stays in the message centre and its levels escalate as usual, so the next
level after the quiet hours alerts by phone again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.alarms.model import AlarmKind, Recipient
from core.notifications.model import Channel
from core.shared.messages import N_

ALL_KINDS = frozenset(AlarmKind)
TIME_ZONE_MAX = 64


@dataclass(frozen=True)
class PushSetting:
    device_id: int
    sms_kinds: frozenset[AlarmKind] = ALL_KINDS
    voice_kinds: frozenset[AlarmKind] = ALL_KINDS
    email_kinds: frozenset[AlarmKind] = ALL_KINDS
    quiet_start: time | None = None  # local wall-clock time in `time_zone`; both or neither
    quiet_end: time | None = None  # may be before the start: the quiet hours run over midnight
    time_zone: str = "UTC"
    updated_at: datetime | None = field(default=None, compare=False)

    def quiet_at(self, now: datetime) -> bool:
        """Whether `now` (aware) falls in the quiet hours [start, end) in the setting's zone."""
        if self.quiet_start is None or self.quiet_end is None:
            return False
        local = now.astimezone(ZoneInfo(self.time_zone)).time().replace(tzinfo=None)
        if self.quiet_start < self.quiet_end:
            return self.quiet_start <= local < self.quiet_end
        return local >= self.quiet_start or local < self.quiet_end

    def channels(self, kind: AlarmKind, recipient: Recipient, now: datetime) -> list[tuple[Channel, str]]:
        """Where an alert of `kind` goes for `recipient` at `now`: (channel, address) pairs."""
        email = recipient.email if recipient.email and kind in self.email_kinds else None
        phone = recipient.phone
        quiet = self.quiet_at(now)
        out: list[tuple[Channel, str]] = []
        if phone and kind in self.sms_kinds and not (quiet and email):
            out.append((Channel.PHONE, phone))
        if phone and recipient.voice and kind in self.voice_kinds and not quiet:
            out.append((Channel.VOICE, phone))
        if email:
            out.append((Channel.EMAIL, email))
        return out


def default_push_setting(device_id: int) -> PushSetting:
    """What a device without stored settings does: every kind by every channel, no quiet hours."""
    return PushSetting(device_id)


def push_problems(setting: PushSetting) -> dict[str, str]:
    problems: dict[str, str] = {}
    if (setting.quiet_start is None) != (setting.quiet_end is None):
        where = "quietEnd" if setting.quiet_end is None else "quietStart"
        problems[where] = N_("Set both the start and the end of the quiet hours, or neither")
    elif setting.quiet_start is not None and setting.quiet_start == setting.quiet_end:
        problems["quietEnd"] = N_("The quiet hours must end at another time than they start")
    if not valid_time_zone(setting.time_zone):
        problems["timeZone"] = N_("Not a known time zone")
    return problems


def valid_time_zone(name: str) -> bool:
    if not name or len(name) > TIME_ZONE_MAX or name.startswith(("/", ".")) or ".." in name:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True
