"""Readings devices report over MQTT (api-contract section 7)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

TEMPERATURE, HUMIDITY = "t", "h"
PROBES = (TEMPERATURE, HUMIDITY)
# What a probe can measure at all: a reading outside it is refused, an alarm limit outside it too.
SENSOR_RANGE = {TEMPERATURE: (-200.0, 200.0), HUMIDITY: (0.0, 100.0)}
# An energy meter's running total in kWh (a type lists it among its probes when its devices have
# one). A total, not a per-reading amount: a lost or repeated message then loses or doubles nothing.
ENERGY = "kwh"
ENERGY_RANGE = (0.0, 1e9)
MAX_ACCURACY_M = 100_000.0  # a fix vaguer than this says nothing about where the device is


@dataclass(frozen=True, slots=True)
class Position:
    """Where a device was, in WGS 84 degrees, with its accuracy radius in metres when it says."""

    lat: float
    lon: float
    accuracy_m: float | None = None


@dataclass(frozen=True, slots=True)
class Reading:
    """One validated reading of one device at one instant (stored once per device and ts)."""

    device_id: int
    ts: datetime
    temperature: float | None
    humidity: float | None
    seq: int | None = None
    position: Position | None = None
    kwh: float | None = None

    def value(self, probe: str) -> float | None:
        if probe == TEMPERATURE:
            return self.temperature
        if probe == HUMIDITY:
            return self.humidity
        return None
