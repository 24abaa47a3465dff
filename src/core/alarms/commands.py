from __future__ import annotations

from dataclasses import dataclass, field

from core.alarms.model import Handling, Recipient


@dataclass(frozen=True)
class SaveAlarmRule:
    """Add a rule (no rule_id) or replace one (rule_id). On replace, device_id and probe may be
    repeated but not changed."""

    account_id: int
    name: str
    upper_limit: float | None
    lower_limit: float | None
    delay_seconds: int = 0
    level1_minutes: int = 0
    level2_minutes: int | None = None
    level3_minutes: int | None = None
    enabled: bool = True
    recipients: tuple[Recipient, ...] = field(default_factory=tuple)
    device_id: int | None = None
    probe: str | None = None
    rule_id: int | None = None


@dataclass(frozen=True)
class DealWithAlarm:
    account_id: int
    alarm_id: int
    handling: Handling
    result: str | None = None
