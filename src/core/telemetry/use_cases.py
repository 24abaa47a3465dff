from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.shared.clock import Clock
from core.telemetry.model import Reading
from core.telemetry.ports import AlarmEvaluation, PositionWatch, TelemetryUnitOfWork


@dataclass(frozen=True)
class StoreOutcome:
    stored: int
    duplicates: int


def latest_per_device(readings: Sequence[Reading]) -> list[Reading]:
    latest: dict[int, Reading] = {}
    for reading in readings:
        current = latest.get(reading.device_id)
        if current is None or reading.ts > current.ts:
            latest[reading.device_id] = reading
    return list(latest.values())


class StoreReadings:
    """One batch in one transaction: the new readings, the devices' live state and the alarms
    they raise are committed together, so an acknowledged message is never half applied and a
    redelivered one (a duplicate) changes nothing. The fences watching the devices judge the
    new positions in the same transaction (`watch_positions`); whoever listens to crossings hears
    of them once it is committed."""

    def __init__(self, uow: TelemetryUnitOfWork, clock: Clock, evaluate_alarms: AlarmEvaluation,
                 watch_positions: PositionWatch | None = None) -> None:
        self._uow, self._clock, self._evaluate_alarms = uow, clock, evaluate_alarms
        self._watch_positions = watch_positions

    def __call__(self, readings: Sequence[Reading]) -> StoreOutcome:
        after_commit = None
        with self._uow as uow:
            new = uow.readings.add_new(readings)
            if new:
                # A reading of a position or an energy total alone does not blank the shown values.
                valued = [r for r in new if r.temperature is not None or r.humidity is not None]
                uow.readings.update_live_state(latest_per_device(valued), self._clock.now())
                positioned = [r for r in new if r.position is not None]
                if positioned:  # most devices never send one: no statement for them
                    uow.readings.update_positions(latest_per_device(positioned))
                    if self._watch_positions is not None:
                        after_commit = self._watch_positions(uow, positioned)
                self._evaluate_alarms(uow, new)
            uow.commit()
        if after_commit is not None:
            after_commit()
        return StoreOutcome(stored=len(new), duplicates=len(readings) - len(new))


class RecordStatus:
    """`online` / `offline` from the devices' status topic (the broker sends `offline` as the
    device's last will when it drops)."""

    def __init__(self, uow: TelemetryUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, states: dict[int, bool]) -> None:
        if not states:
            return
        with self._uow as uow:
            uow.readings.set_online(states, self._clock.now())
            uow.commit()
