"""Alarm rules, excursions and alarm messages (spec seed 001 sections 3-5 and 9).

A rule watches one probe of one device. A value outside its limits starts an excursion; once the
excursion has lasted the rule's delay it is an alarm message, which notifies the recipients of
graded levels 1-3 as the minutes of each level pass, until it ends or someone handles it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import IntEnum

from core.shared.identity import Stored

MAX_LEVEL = 3  # "Graded alarm up to three levels"


class AlarmKind(IntEnum):
    ABOVE = 1  # above the upper limit
    BELOW = 2  # below the lower limit


class AlarmState(IntEnum):
    UNTREATED = 0
    TREATED = 1
    DEFERRED = 2  # shown while a deferral runs (deferred_until ahead of the clock); never stored


class Handling(IntEnum):
    APPROVE = 1
    REFUSE = 2
    DEFER = 3  # not a handling that ends the alarm: it comes back at the deferral's end


@dataclass
class Recipient:
    level: int
    name: str
    phone: str | None = None
    email: str | None = None
    voice: bool = False  # also call the phone
    id: int | None = None
    language: str | None = None  # of the alerts; None: the device owner's


@dataclass
class AlarmRule(Stored):
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
    recipients: list[Recipient] = field(default_factory=list)
    created_at: datetime | None = None
    updated_at: datetime | None = None
    id: int | None = None

    @property
    def delay(self) -> timedelta:
        return timedelta(seconds=self.delay_seconds)

    def breach(self, value: float) -> tuple[AlarmKind, float] | None:
        """Which limit the value breaks, if any. A value equal to a limit is inside."""
        return breach(self.upper_limit, self.lower_limit, value)

    def level_minutes(self) -> list[tuple[int, int]]:
        """(level, minutes after the alarm is raised) of each configured level, in order."""
        levels = [(1, self.level1_minutes)]
        if self.level2_minutes is not None:
            levels.append((2, self.level2_minutes))
            if self.level3_minutes is not None:
                levels.append((3, self.level3_minutes))
        return levels

    @property
    def top_level(self) -> int:
        return len(self.level_minutes())

    def level_due(self, raised_at: datetime, at: datetime) -> int:
        """The highest level whose time has come at `at` for an alarm raised at `raised_at`."""
        due = 0
        for level, minutes in self.level_minutes():
            if at - raised_at >= timedelta(minutes=minutes):
                due = level
        return due

    def recipients_of(self, level: int) -> list[Recipient]:
        return [r for r in self.recipients if r.level == level]


def breach(upper: float | None, lower: float | None, value: float) -> tuple[AlarmKind, float] | None:
    if upper is not None and value > upper:
        return AlarmKind.ABOVE, upper
    if lower is not None and value < lower:
        return AlarmKind.BELOW, lower
    return None


@dataclass(frozen=True)
class TripLimits:
    """A waybill's temperature limits over its trip's window on one device (core/waybills): they take
    precedence over the device's rule for the readings whose own instant falls inside the window,
    whenever those readings arrive. `until` None: the trip is still running."""

    device_id: int
    since: datetime
    until: datetime | None
    upper_limit: float | None
    lower_limit: float | None
    contacts: tuple[Recipient, ...] = ()  # the waybill's alarm contacts, alerted at level 1

    def covers(self, at: datetime) -> bool:
        return self.since <= at and (self.until is None or at <= self.until)


@dataclass
class AlarmMessage(Stored):
    """An excursion that lasted the rule's delay: what the message centre lists."""

    device_id: int
    rule_id: int | None
    probe: str
    kind: AlarmKind
    limit_value: float
    value: float  # the reading that raised it
    extreme_value: float
    started_at: datetime  # when the excursion started
    raised_at: datetime  # when it had lasted the delay
    level: int = 0  # the highest graded level reached (0: none yet)
    ended_at: datetime | None = None
    state: AlarmState = AlarmState.UNTREATED
    handling: Handling | None = None
    result: str | None = None
    handled_by: int | None = None
    handled_at: datetime | None = None
    # The end of the last deferral until the escalation has reminded the recipients of it (then
    # None); whether the alarm is deferred is this against the clock, so no job needs to flip it.
    deferred_until: datetime | None = None
    id: int | None = None

    @property
    def open(self) -> bool:
        return self.ended_at is None

    @property
    def escalates(self) -> bool:
        """Levels go up only while the alarm lasts, nobody has handled it and no deferral is
        pending: the end of a deferral is the periodic escalation's to take (see `returns`)."""
        return self.open and self.state is AlarmState.UNTREATED and self.deferred_until is None

    def deferred(self, now: datetime) -> bool:
        return self.state is AlarmState.UNTREATED and self.deferred_until is not None and now < self.deferred_until

    def shown_state(self, now: datetime) -> AlarmState:
        """Untreated, treated, or deferred while its deferral runs."""
        return AlarmState.DEFERRED if self.deferred(now) else self.state

    def returns(self, now: datetime) -> bool:
        """A deferral of this lasting, untreated alarm has ended and its reminder is not yet sent."""
        return (self.open and self.state is AlarmState.UNTREATED and self.deferred_until is not None
                and self.deferred_until <= now)


@dataclass
class Excursion:
    """A probe outside its limits right now, raised as `alarm` once the delay has passed."""

    device_id: int
    probe: str
    kind: AlarmKind
    limit_value: float
    started_at: datetime
    extreme_value: float
    alarm: AlarmMessage | None = None

    def record(self, value: float) -> bool:
        """Keep the extreme value; True when it changed."""
        more = value > self.extreme_value if self.kind is AlarmKind.ABOVE else value < self.extreme_value
        if more:
            self.extreme_value = value
            if self.alarm is not None:
                self.alarm.extreme_value = value
        return more


@dataclass(frozen=True)
class AlarmDevice:
    """What an alert says about a device and where its prepaid counts are."""

    id: int
    name: str
    guid: str
    country_code: str | None = None
    precision: int = 1  # decimals the console shows
    temperature_unit: str = "C"  # how the console shows temperatures (stored in °C)
    owner_language: str | None = None  # the owner's (first login, then choice): alerts of recipients without one
