"""Figures of a report: per-probe summary with the mean kinetic temperature, unit conversion and
rounding to the device's display precision. Pure functions, fed one reading at a time, so a year
of one-minute readings is summed without being held."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta

# ΔH/R of the USP <1160> / WHO mean kinetic temperature: 83.144 kJ/mol over the gas constant.
MKT_ACTIVATION_K = 10_000.0
KELVIN = 273.15


def mkt(celsius: list[float] | tuple[float, ...]) -> float:
    """Mean kinetic temperature of equally spaced readings, in °C:
    Tk = (ΔH/R) / -ln( (1/n) Σ exp(-(ΔH/R) / T_i) ), T in kelvin."""
    if not celsius:
        raise ValueError("the mean kinetic temperature of no reading")
    total = sum(math.exp(-MKT_ACTIVATION_K / (t + KELVIN)) for t in celsius)
    return MKT_ACTIVATION_K / -math.log(total / len(celsius)) - KELVIN


@dataclass
class ProbeSummary:
    """min, max, mean and (for temperature) MKT of one probe, accumulated reading by reading."""

    kinetic: bool = False
    count: int = 0
    minimum: float = math.inf
    maximum: float = -math.inf
    _sum: float = 0.0
    _arrhenius: float = field(default=0.0, repr=False)

    def add(self, value: float | None) -> None:
        if value is None or not math.isfinite(value):
            return
        self.count += 1
        self._sum += value
        self.minimum = min(self.minimum, value)
        self.maximum = max(self.maximum, value)
        if self.kinetic:
            self._arrhenius += math.exp(-MKT_ACTIVATION_K / (value + KELVIN))

    @property
    def mean(self) -> float | None:
        return self._sum / self.count if self.count else None

    @property
    def mkt(self) -> float | None:
        if not self.kinetic or not self.count:
            return None
        return MKT_ACTIVATION_K / -math.log(self._arrhenius / self.count) - KELVIN


def to_unit(celsius: float, unit: str) -> float:
    """°C as stored, in the device's unit ("C" or "F")."""
    return celsius * 9 / 5 + 32 if unit == "F" else celsius


def temperature_text(celsius: float | None, unit: str, precision: int) -> str:
    if celsius is None:
        return ""
    return f"{to_unit(celsius, unit):.{precision}f}"


def humidity_text(value: float | None, precision: int) -> str:
    return "" if value is None else f"{value:.{precision}f}"


def side(value: float, upper: float | None, lower: float | None) -> bool | None:
    """True above the upper limit, False below the lower, None inside (a value on a limit is
    inside, as for alarm rules)."""
    if upper is not None and value > upper:
        return True
    if lower is not None and value < lower:
        return False
    return None


@dataclass
class TimeOutOfRange:
    """The time a probe spent outside its limits, fed its readings in time order: a reading's
    value holds until the next reading, so the time out of range is the sum of the spans that
    start at a reading out of range (the last reading starts none)."""

    upper: float | None
    lower: float | None
    total: timedelta = timedelta(0)
    _out_since: datetime | None = field(default=None, repr=False)

    def add(self, ts: datetime, value: float | None) -> None:
        if value is None or not math.isfinite(value):
            return  # a reading without this probe's value changes nothing: the last one holds
        if self._out_since is not None:
            self.total += ts - self._out_since
        self._out_since = ts if side(value, self.upper, self.lower) is not None else None
