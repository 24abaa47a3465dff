"""A trip's figures over its window: minimum, maximum, mean, time out of range, excursions and the
mean kinetic temperature. Pure functions of the readings."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from core.exports import stats

GAS_CONSTANT = 8.3144621  # J/(mol·K)
DEFAULT_ACTIVATION_ENERGY = 83_144.0  # ΔH in J/mol (83.144 kJ/mol, USP <1160>)
# What a request may ask for: the activation energies published for pharmaceuticals lie well inside.
ACTIVATION_ENERGY_RANGE = (10_000.0, 300_000.0)
KELVIN = 273.15


def mean_kinetic_temperature(celsius: Sequence[float], activation_energy: float = DEFAULT_ACTIVATION_ENERGY) -> float:
    """MKT in °C of equally spaced readings:
    (ΔH/R) / -ln( (Σ e^(-ΔH/(R·T_i))) / n ), with T_i in kelvin."""
    if not celsius:
        raise ValueError("the mean kinetic temperature of no reading")
    ratio = activation_energy / GAS_CONSTANT
    total = sum(math.exp(-ratio / (t + KELVIN)) for t in celsius)
    return ratio / -math.log(total / len(celsius)) - KELVIN


@dataclass(frozen=True)
class Point:
    ts: datetime
    temperature: float


@dataclass(frozen=True)
class Excursion:
    above: bool  # True: above the upper limit, False: below the lower
    start: datetime  # the first reading out of range
    end: datetime  # the first reading back in range (the last reading when none came back)
    extreme: float

    @property
    def duration(self) -> timedelta:
        return self.end - self.start


@dataclass(frozen=True)
class TripFigures:
    count: int
    minimum: float | None
    maximum: float | None
    mean: float | None
    mkt: float | None
    out_of_range: timedelta
    excursions: tuple[Excursion, ...]


def trip_figures(points: Sequence[Point], upper: float | None, lower: float | None,
                 activation_energy: float = DEFAULT_ACTIVATION_ENERGY) -> TripFigures:
    """The figures of one device's readings (any order). A reading's value holds until the next
    reading: the time out of range is the sum of those spans whose reading was out of range."""
    ordered = sorted(points, key=lambda p: p.ts)
    if not ordered:
        return TripFigures(0, None, None, None, None, timedelta(0), ())
    values = [p.temperature for p in ordered]
    out_of_range = stats.TimeOutOfRange(upper, lower)
    excursions: list[Excursion] = []
    current: tuple[bool, datetime, float] | None = None  # (above, start, extreme)
    for point in ordered:
        out_of_range.add(point.ts, point.temperature)
        side = stats.side(point.temperature, upper, lower)
        if current is not None and side is not current[0]:
            excursions.append(Excursion(current[0], current[1], point.ts, current[2]))
            current = None
        if side is not None:
            if current is None:
                current = (side, point.ts, point.temperature)
            else:
                extreme = max(current[2], point.temperature) if side else min(current[2], point.temperature)
                current = (side, current[1], extreme)
    if current is not None:
        excursions.append(Excursion(current[0], current[1], ordered[-1].ts, current[2]))
    return TripFigures(len(values), min(values), max(values), sum(values) / len(values),
                       mean_kinetic_temperature(values, activation_energy), out_of_range.total, tuple(excursions))
