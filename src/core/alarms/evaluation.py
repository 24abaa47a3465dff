"""The alarm rule applied to the readings of one probe of one device: pure, no I/O.

Time is the readings' own: an excursion becomes an alarm when a reading shows it has lasted the
delay, whatever the wall clock says, so a logger uploading stored history raises the alarms it
would have raised live. Graded levels also follow the readings while the excursion lasts; the
periodic escalation (use_cases.EscalateAlarms) follows the wall clock for devices gone quiet.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from core.alarms.model import AlarmMessage, AlarmRule, Excursion, TripLimits, breach
from core.telemetry.model import TEMPERATURE, Reading


@dataclass
class ProbeOutcome:
    """What one batch did to one (device, probe)."""

    excursion: Excursion | None  # open after the batch (pending, or raised as its alarm)
    excursion_changed: bool = False
    new_alarms: list[AlarmMessage] = field(default_factory=list)  # in time order
    changed_alarms: list[AlarmMessage] = field(default_factory=list)  # known before: ended or new extreme
    reached: list[tuple[AlarmMessage, int]] = field(default_factory=list)  # (alarm, level) newly reached

    @property
    def touched_alarm_state(self) -> bool:
        """Whether the device may have started or stopped alarming."""
        return bool(self.new_alarms) or any(not a.open for a in self.changed_alarms)


def _limits_at(rule: AlarmRule, trips: Sequence[TripLimits], reading: Reading) -> tuple[float | None, float | None]:
    """The limits a reading is judged by: those of the trip (waybill) whose window holds the reading's
    own instant, for the temperature probe; the rule's otherwise."""
    if rule.probe == TEMPERATURE:
        for trip in trips:
            if trip.covers(reading.ts):
                return trip.upper_limit, trip.lower_limit
    return rule.upper_limit, rule.lower_limit


def evaluate_probe(rule: AlarmRule, excursion: Excursion | None, readings: Iterable[Reading],
                   trips: Sequence[TripLimits] = ()) -> ProbeOutcome:
    """Apply `rule` to `readings` (of its device, any order) from the open `excursion`, if any; a
    reading inside one of the device's `trips` is judged by that trip's limits instead.

    `excursion` and its alarm are updated in place. Readings without the probe's value are
    ignored, and so are readings older than the open excursion's start: they come from a
    history upload about a time before the current state.
    """
    outcome = ProbeOutcome(excursion)

    def touch(alarm: AlarmMessage) -> None:
        if alarm.id is not None and not any(a is alarm for a in outcome.changed_alarms):
            outcome.changed_alarms.append(alarm)

    for reading in sorted(readings, key=lambda r: r.ts):
        value = reading.value(rule.probe)
        if value is None:
            continue
        current = outcome.excursion
        if current is not None and reading.ts < current.started_at:
            continue
        broken = breach(*_limits_at(rule, trips, reading), value)
        if current is not None and (broken is None or broken[0] is not current.kind):
            if current.alarm is not None:
                current.alarm.ended_at = reading.ts
                touch(current.alarm)
            outcome.excursion = current = None
            outcome.excursion_changed = True
        if broken is None:
            continue
        if current is None:
            kind, limit = broken
            outcome.excursion = current = Excursion(rule.device_id, rule.probe, kind, limit, reading.ts, value)
            outcome.excursion_changed = True
        elif current.record(value):
            outcome.excursion_changed = True
            if current.alarm is not None:
                touch(current.alarm)
        if current.alarm is None and reading.ts - current.started_at >= rule.delay:
            current.alarm = AlarmMessage(
                device_id=rule.device_id, rule_id=rule.id, probe=rule.probe, kind=current.kind,
                limit_value=current.limit_value, value=value, extreme_value=current.extreme_value,
                started_at=current.started_at, raised_at=reading.ts)
            outcome.new_alarms.append(current.alarm)
            outcome.excursion_changed = True
        alarm = current.alarm
        if alarm is not None and alarm.escalates:
            due = rule.level_due(alarm.raised_at, reading.ts)
            while alarm.level < due:
                alarm.level += 1
                outcome.reached.append((alarm, alarm.level))
    return outcome
