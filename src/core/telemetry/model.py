"""Readings devices report over MQTT (api-contract section 7)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

TEMPERATURE, HUMIDITY = "t", "h"
PROBES = (TEMPERATURE, HUMIDITY)
# What a probe can measure at all: a reading outside it is refused, an alarm limit outside it too.
SENSOR_RANGE = {TEMPERATURE: (-200.0, 200.0), HUMIDITY: (0.0, 100.0)}


@dataclass(frozen=True, slots=True)
class Reading:
    """One validated reading of one device at one instant (stored once per device and ts)."""

    device_id: int
    ts: datetime
    temperature: float | None
    humidity: float | None
    seq: int | None = None

    def value(self, probe: str) -> float | None:
        if probe == TEMPERATURE:
            return self.temperature
        if probe == HUMIDITY:
            return self.humidity
        return None
