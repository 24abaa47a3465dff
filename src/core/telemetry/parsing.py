"""Reading the payloads of api-contract section 7.

`devices/{guid}/telemetry` carries one reading `{"ts", "t", "h", "seq", "lat", "lon", "acc",
"kwh"}` or a batch `{"readings": [...]}` (a logger uploading what it stored while offline). Every
bad message or reading is counted under a reason and never stops the others. A bad position or
energy total is dropped from a reading that is otherwise good (counted under its own reason), so a
GPS without a fix never costs the temperature it came with.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from core.telemetry.model import ENERGY, ENERGY_RANGE, HUMIDITY, MAX_ACCURACY_M, SENSOR_RANGE, TEMPERATURE, Position

MAX_PAYLOAD_BYTES = 256 * 1024
MAX_BATCH = 2000
FUTURE_TOLERANCE = timedelta(minutes=5)  # device clocks drift
OLDEST = timedelta(days=400)  # loggers upload at most a year of stored history
GUID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_EPOCH_MS_FROM = 100_000_000_000  # a number this large is milliseconds, not seconds


class Reason:
    """Why a message or a reading was refused (the worker counts and logs them)."""

    TOO_LARGE = "too_large"
    BAD_TOPIC = "bad_topic"
    MALFORMED = "malformed_json"
    NOT_AN_OBJECT = "not_an_object"
    TOO_MANY = "batch_too_large"
    BAD_TIMESTAMP = "bad_timestamp"
    FUTURE = "timestamp_in_future"
    TOO_OLD = "timestamp_too_old"
    NO_VALUE = "no_value"
    NOT_FINITE = "value_not_finite"
    OUT_OF_RANGE = "value_out_of_range"
    BAD_SEQ = "bad_seq"
    UNKNOWN_DEVICE = "unknown_device"
    BAD_POSITION = "bad_position"  # the position alone is dropped, the reading kept
    BAD_ENERGY = "bad_energy"  # the energy total alone is dropped, the reading kept
    UNPROCESSABLE = "unprocessable"  # handling it raised: a bug the message found, refused all the same


@dataclass(frozen=True, slots=True)
class RawReading:
    """A valid reading, before its GUID is known to be a device of ours."""

    guid: str
    ts: datetime
    temperature: float | None
    humidity: float | None
    seq: int | None
    position: Position | None = None
    kwh: float | None = None


@dataclass
class Parsed:
    readings: list[RawReading] = field(default_factory=list)
    rejected: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)  # fields dropped from readings kept


def guid_of(topic: str, kind: str) -> str | None:
    """The GUID in `devices/{guid}/{kind}`, or None."""
    parts = topic.split("/")
    if len(parts) != 3 or parts[0] != "devices" or parts[2] != kind or not GUID.match(parts[1]):
        return None
    return parts[1]


def _timestamp(raw: object) -> datetime | None:
    if isinstance(raw, bool):
        return None
    # JSON integers are unbounded and ISO times may sit at year 1 or 9999 with an offset: either
    # overflows on the way to a UTC datetime, which makes it no time at all.
    if isinstance(raw, int | float):
        try:
            if not math.isfinite(raw):
                return None
            return datetime.fromtimestamp(raw / 1000 if abs(raw) >= _EPOCH_MS_FROM else raw, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(raw, str) and len(raw) <= 40:
        try:
            ts = datetime.fromisoformat(raw.replace("Z", "+00:00") if raw.endswith("Z") else raw)
            return ts.astimezone(UTC) if ts.tzinfo is not None else None  # a time without offset is ambiguous
        except (OverflowError, ValueError):
            return None
    return None


def _number(raw: object, low: float, high: float) -> tuple[float | None, str | None]:
    if raw is None:
        return None, None
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        return None, Reason.NOT_FINITE
    try:
        value = float(raw)
    except OverflowError:  # an integer beyond any float is beyond any sensor too
        return None, Reason.OUT_OF_RANGE
    if not math.isfinite(value):
        return None, Reason.NOT_FINITE
    if not low <= value <= high:
        return None, Reason.OUT_OF_RANGE
    return value, None


def _value(raw: object, probe: str) -> tuple[float | None, str | None]:
    return _number(raw, *SENSOR_RANGE[probe])


def _position(item: dict) -> tuple[Position | None, bool]:
    """The reading's position, and whether one was sent but is no position at all."""
    raw_lat, raw_lon, raw_acc = item.get("lat"), item.get("lon"), item.get("acc")
    if raw_lat is None and raw_lon is None:
        return None, raw_acc is not None
    lat, lat_problem = _number(raw_lat, -90.0, 90.0)
    lon, lon_problem = _number(raw_lon, -180.0, 180.0)
    acc, acc_problem = _number(raw_acc, 0.0, MAX_ACCURACY_M)
    if lat is None or lon is None or lat_problem or lon_problem or acc_problem:
        return None, True
    return Position(lat, lon, acc), False


def _reading(guid: str, item: object, now: datetime, dropped: Counter[str]) -> RawReading | str:
    """The reading, or the Reason it is refused."""
    if not isinstance(item, dict):
        return Reason.NOT_AN_OBJECT
    ts = _timestamp(item.get("ts"))
    if ts is None:
        return Reason.BAD_TIMESTAMP
    if ts > now + FUTURE_TOLERANCE:
        return Reason.FUTURE
    if ts < now - OLDEST:
        return Reason.TOO_OLD
    temperature, problem = _value(item.get(TEMPERATURE), TEMPERATURE)
    if problem:
        return problem
    humidity, problem = _value(item.get(HUMIDITY), HUMIDITY)
    if problem:
        return problem
    position, bad_position = _position(item)
    kwh, bad_energy = _number(item.get(ENERGY), *ENERGY_RANGE)
    if temperature is None and humidity is None and position is None and kwh is None:
        return Reason.BAD_POSITION if bad_position else Reason.BAD_ENERGY if bad_energy else Reason.NO_VALUE
    seq = item.get("seq")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq < 2**63):
        return Reason.BAD_SEQ
    if bad_position:
        dropped[Reason.BAD_POSITION] += 1
    if bad_energy:
        dropped[Reason.BAD_ENERGY] += 1
    return RawReading(guid, ts, temperature, humidity, seq, position, kwh)


def parse_telemetry(topic: str, payload: bytes, now: datetime) -> Parsed:
    parsed = Parsed()
    guid = guid_of(topic, "telemetry")
    if guid is None:
        parsed.rejected[Reason.BAD_TOPIC] += 1
        return parsed
    if len(payload) > MAX_PAYLOAD_BYTES:
        parsed.rejected[Reason.TOO_LARGE] += 1
        return parsed
    try:
        body = json.loads(payload)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested deeper than the decoder goes
        parsed.rejected[Reason.MALFORMED] += 1
        return parsed
    if not isinstance(body, dict):
        parsed.rejected[Reason.NOT_AN_OBJECT] += 1
        return parsed
    items = body.get("readings")
    if items is None:
        items = [body]
    elif not isinstance(items, list):
        parsed.rejected[Reason.NOT_AN_OBJECT] += 1
        return parsed
    elif len(items) > MAX_BATCH:
        parsed.rejected[Reason.TOO_MANY] += 1
        return parsed
    for item in items:
        reading = _reading(guid, item, now, parsed.dropped)
        if isinstance(reading, RawReading):
            parsed.readings.append(reading)
        else:
            parsed.rejected[reading] += 1
    return parsed


def parse_status(topic: str, payload: bytes) -> tuple[str, bool] | None:
    """(GUID, online) of `devices/{guid}/status` carrying `online` or `offline`."""
    guid = guid_of(topic, "status")
    text = payload[:16].decode("ascii", "replace").strip().strip('"').lower()
    if guid is None or text not in ("online", "offline"):
        return None
    return guid, text == "online"
