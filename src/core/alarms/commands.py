from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.alarms.model import Handling, Recipient
from core.fda.model import SignatureInput

# The settings of a rule a change may give: AlarmRule field -> the name problems are reported
# under (the API's). The limits and the levels 2 and 3 may be cleared (None), the others replaced.
SETTINGS = {"name": "name", "upper_limit": "upperLimit", "lower_limit": "lowerLimit",
            "delay_seconds": "delaySeconds", "level1_minutes": "level1Minutes", "level2_minutes": "level2Minutes",
            "level3_minutes": "level3Minutes", "enabled": "enabled", "recipients": "recipients"}
CLEARABLE = ("upper_limit", "lower_limit", "level2_minutes", "level3_minutes")


@dataclass(frozen=True)
class AddAlarmRule:
    account_id: int
    device_id: int
    probe: str
    name: str
    upper_limit: float | None
    lower_limit: float | None
    delay_seconds: int = 0
    level1_minutes: int = 0
    level2_minutes: int | None = None
    level3_minutes: int | None = None
    enabled: bool = True
    recipients: tuple[Recipient, ...] = field(default_factory=tuple)
    session_id: int = 0  # the caller's login session: whether a signature needs the user name
    signature: SignatureInput | None = None  # FDA mode signs the limits (core.fda.ports.ChangeSigning)


@dataclass(frozen=True)
class ChangeAlarmRule:
    """Only the settings in `changes` (keys from SETTINGS) change; the others keep their values.
    The device and the probe may be repeated but not changed."""

    account_id: int
    rule_id: int
    changes: Mapping[str, Any] = field(default_factory=dict)
    device_id: int | None = None
    probe: str | None = None
    session_id: int = 0
    signature: SignatureInput | None = None


@dataclass(frozen=True)
class DealWithAlarm:
    account_id: int
    alarm_id: int
    handling: Handling
    result: str | None = None
    defer_minutes: int | None = None  # only with Handling.DEFER; None there: the default delay
    session_id: int = 0  # the caller's login session: whether a signature needs the user name
    signature: SignatureInput | None = None  # FDA mode signs the handling (core.fda.ports.ChangeSigning)
