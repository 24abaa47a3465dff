"""Alarm evaluation on ingest, and the periodic escalation of graded levels."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from core.alarms.alerts import AlertWriter
from core.alarms.deferral import reminder_levels
from core.alarms.evaluation import ProbeOutcome, evaluate_probe
from core.alarms.model import AlarmDevice, AlarmMessage, AlarmRule, Excursion, TripLimits
from core.alarms.ports import AlarmsUnitOfWork
from core.shared.clock import Clock
from core.shared.edition import Edition
from core.telemetry.model import TEMPERATURE, Reading

log = logging.getLogger(__name__)
TRIP_RULE_NAME = "Waybill"  # the rule a trip's limits are applied under on a device with no temperature rule


def with_trips(rules: list[AlarmRule], trips: Sequence[TripLimits]) -> list[AlarmRule]:
    """The rules, a device's temperature rule alerting its trips' contacts too (at level 1), and a
    rule of no limits of its own for a device on a trip with no temperature rule, so its trip's
    limits are applied all the same (the alarms it raises have no rule: the escalation leaves them)."""
    contacts: dict[int, list] = defaultdict(list)
    for trip in trips:
        contacts[trip.device_id].extend(c for c in trip.contacts if c not in contacts[trip.device_id])
    covered = {r.device_id for r in rules if r.probe == TEMPERATURE}
    extended = [replace(r, recipients=[*r.recipients, *contacts[r.device_id]])
                if r.probe == TEMPERATURE and contacts.get(r.device_id) else r for r in rules]
    for device_id in sorted({t.device_id for t in trips} - covered):
        extended.append(AlarmRule(device_id=device_id, probe=TEMPERATURE, name=TRIP_RULE_NAME, upper_limit=None,
                                  lower_limit=None, recipients=list(contacts.get(device_id, []))))
    return extended


class EvaluateAlarms:
    """Applies the alarm rules to a batch of new readings inside the ingest batch's transaction.

    Cost: two queries when no device of the batch has a rule nor a trip (the common case at
    thousands of readings a second); otherwise a constant number of reads for the whole batch
    (rules with recipients, trips, devices, open excursions) and writes only for what changed.

    A device on a waybill's trip is judged by the waybill's temperature limits for the readings
    whose own instant falls in the trip's window (core.alarms.model.TripLimits), so a logger
    uploading its stored history after the trip raises the trip's alarms.
    """

    def __init__(self, clock: Clock, edition: Edition) -> None:
        self._clock = clock
        self._alerts = AlertWriter(edition)

    def __call__(self, uow: AlarmsUnitOfWork, readings: Sequence[Reading]) -> None:
        """Runs inside the caller's open unit of work (the ingest batch's transaction); the caller
        commits. Readings are new (already de-duplicated), possibly of many devices, in any order."""
        if not readings:
            return
        by_device: dict[int, list[Reading]] = defaultdict(list)
        for reading in readings:
            by_device[reading.device_id].append(reading)
        instants = [r.ts for r in readings]
        trips = uow.alarms.trip_limits(list(by_device), min(instants), max(instants))
        rules = with_trips(uow.alarms.rules_of_devices(list(by_device)), trips)
        if not rules:
            return
        trips_of: dict[int, list[TripLimits]] = defaultdict(list)
        for trip in trips:
            trips_of[trip.device_id].append(trip)
        device_ids = sorted({rule.device_id for rule in rules})
        devices = uow.alarms.alarm_devices(device_ids)
        excursions = uow.alarms.open_excursions(device_ids)
        now = self._clock.now()
        state_changed: set[int] = set()
        for rule in rules:
            if rule.device_id not in devices:  # deleted while the batch was on its way
                continue
            before = excursions.get((rule.device_id, rule.probe))
            known_alarm = before.alarm if before is not None else None
            known_level = known_alarm.level if known_alarm is not None else 0
            outcome = evaluate_probe(rule, before, by_device[rule.device_id], trips_of.get(rule.device_id, ()))
            reached = self._store(uow, outcome, before, known_alarm, known_level)
            if outcome.touched_alarm_state:
                state_changed.add(rule.device_id)
            for alarm, level in reached:
                self._alerts.notify(uow, alarm, rule, devices[rule.device_id], level, now)
        if state_changed:
            uow.alarms.refresh_alarm_state(sorted(state_changed))

    @staticmethod
    def _store(uow: AlarmsUnitOfWork, outcome: ProbeOutcome, before: Excursion | None,
               known_alarm: AlarmMessage | None, known_level: int) -> list[tuple[AlarmMessage, int]]:
        """Persist the outcome; the levels to notify (those another transaction has not taken)."""
        reached = outcome.reached
        # The level goes up before the stored alarm is ended, so the guard still sees it open.
        if (known_alarm is not None and known_alarm.level > known_level
                and not uow.alarms.raise_level(known_alarm.stored_id, known_level, known_alarm.level)):
            reached = [(a, level) for a, level in reached if a is not known_alarm]
        for alarm in outcome.changed_alarms:
            uow.alarms.save_alarm_progress(alarm)
        for alarm in outcome.new_alarms:
            uow.alarms.add_alarm(alarm)
        if outcome.excursion_changed:
            if outcome.excursion is not None:
                uow.alarms.save_excursion(outcome.excursion)
            elif before is not None:
                uow.alarms.remove_excursion(before.device_id, before.probe)
        return reached


REJUDGED_MAX = 20_000  # readings judged again at most: a week of a logger reading every 30 s


class RejudgeReadings:
    """Judges again, by the limits that hold now, the readings since an instant already past at
    which a trip began or ended: a waybill starts when its device is confirmed out of its origin
    fence, at the first reading outside it, a few readings after (core/geofences/dwell.py), and the
    job starts one at its planned time a little late; those readings were judged by the device's
    own limits, and the last ones of a trip by the trip's. An excursion still pending that began
    since is dropped first (the other limits made it); an alarm raised meanwhile stays a fact, and
    the readings judged again go on with it or end it. One transaction, the devices locked as the
    ingest locks them, so a batch arriving meanwhile waits. Readings an alarm already told about
    (one ended since) are left as judged."""

    def __init__(self, uow: AlarmsUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow = uow
        self._evaluate = EvaluateAlarms(clock, edition)

    def __call__(self, device_ids: Sequence[int], since: datetime) -> int:
        """How many readings were judged again."""
        with self._uow as uow:
            # Readings an alarm of the old limits already told about, ended since, are not judged
            # again: the new limits would raise the same excursion a second time.
            told = uow.alarms.last_alarm_ends(device_ids, since)
            readings = [r for r in uow.alarms.readings(device_ids, since, REJUDGED_MAX)
                        if r.ts > told.get(r.device_id, since - timedelta(microseconds=1))]
            if not readings:
                return 0
            uow.alarms.alarm_devices(sorted({r.device_id for r in readings}))
            for (device_id, probe), excursion in uow.alarms.open_excursions(device_ids).items():
                if excursion.alarm is None and excursion.started_at >= since:
                    uow.alarms.remove_excursion(device_id, probe)
            self._evaluate(uow, readings)
            uow.commit()
            return len(readings)


class EscalateAlarms:
    """Raises graded levels whose time has come by the wall clock, so recipients of level 2 and 3
    hear of an alarm even when its device has stopped reporting, and reminds the recipients of an
    alarm whose deferral has ended (core/alarms/deferral.py). Run every minute or so from any
    number of places: a level or a deferral's end is taken by one transaction only, so nobody is
    alerted twice."""

    def __init__(self, uow: AlarmsUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock = uow, clock
        self._alerts = AlertWriter(edition)

    def __call__(self) -> int:
        """The number of alarms whose level went up or whose deferral ended with a reminder."""
        now = self._clock.now()
        escalated = 0
        with self._uow as uow:
            candidates = uow.alarms.escalation_candidates(now)
            rules = uow.alarms.rules({a.rule_id for a in candidates if a.rule_id is not None}) if candidates else {}
            due: list[tuple[AlarmMessage, AlarmRule, range]] = []
            for alarm in candidates:
                rule = None if alarm.rule_id is None else rules.get(alarm.rule_id)  # None: rule deleted
                if rule is None:
                    continue
                level = rule.level_due(alarm.raised_at, now)
                if alarm.returns(now):
                    due.append((alarm, rule, reminder_levels(alarm.level, level)))
                elif level > alarm.level:
                    due.append((alarm, rule, range(alarm.level + 1, level + 1)))
            if not due:
                return 0
            # Devices first, in id order like the ingest batches, so the two never deadlock.
            devices: dict[int, AlarmDevice] = uow.alarms.alarm_devices(sorted({a.device_id for a, _, _ in due}))
            for alarm, rule, levels in due:
                if alarm.device_id not in devices or not self._take(uow, alarm, levels):
                    continue
                for level in levels:
                    self._alerts.notify(uow, alarm, rule, devices[alarm.device_id], level, now)
                alarm.level = max([alarm.level, *levels])
                escalated += 1
            uow.commit()
        if escalated:
            log.info("escalated or reminded %s alarm(s)", escalated)
        return escalated

    @staticmethod
    def _take(uow: AlarmsUnitOfWork, alarm: AlarmMessage, levels: range) -> bool:
        """Claim the levels (or the deferral's end) for this transaction alone."""
        to_level = max([alarm.level, *levels])
        if alarm.deferred_until is not None:
            return uow.alarms.resume(alarm.stored_id, alarm.deferred_until, alarm.level, to_level)
        return uow.alarms.raise_level(alarm.stored_id, alarm.level, to_level)
