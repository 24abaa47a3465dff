"""A chart's readings written as text (ReadingList, local_isoformats, JSONProvider) are the bytes
the standard way wrote: each instant's isoformat in the caller's zone, the dicts' JSON."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta, timezone
from typing import cast
from zoneinfo import ZoneInfo

import pytest
from flask import Flask, Response

from core.telemetry.downsample import Point
from entrypoints.api import context
from entrypoints.api.devices.schemas import HistorySchema
from entrypoints.api.framework import local_isoformats
from entrypoints.api.json_text import JSONProvider

ZONES = [ZoneInfo(name) for name in (
    "America/New_York", "Europe/London", "Australia/Lord_Howe",  # a 30-minute DST
    "Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham",  # offsets of 45 and 30 minutes
    "Africa/Monrovia",  # -00:44:30 until 1972: an offset with seconds
    "Pacific/Apia",  # skipped 30 December 2011
    "UTC")] + [UTC, timezone(timedelta(hours=-3, minutes=-30))]


def instants() -> list[datetime]:
    """Every 17 minutes (and some microseconds) around transitions of these zones."""
    starts = [datetime(1970, 1, 1, tzinfo=UTC), datetime(1972, 1, 6, 12, tzinfo=UTC),
              datetime(2011, 12, 29, tzinfo=UTC), datetime(2025, 3, 8, tzinfo=UTC), datetime(2025, 10, 25, tzinfo=UTC),
              datetime(2025, 4, 5, 12, tzinfo=UTC), datetime(2199, 12, 30, tzinfo=UTC)]
    return [start + i * timedelta(minutes=17, microseconds=250_001 * (i % 3 == 0))
            for start in starts for i in range(300)]


@pytest.mark.parametrize("zone", ZONES, ids=str)
def test_local_isoformats_write_what_isoformat_in_the_zone_writes(zone):
    times = instants()
    assert local_isoformats(zone, times) == [t.astimezone(zone).isoformat() for t in times]


def response(app: Flask, data) -> bytes:
    with app.app_context():
        return cast(Response, app.json.response(data)).get_data()


@pytest.mark.parametrize("debug", [False, True])
def test_readings_written_as_text_are_the_json_of_their_dicts(debug):
    values = [None, 0.0, -0.0, 4.25, -17.5, 1e-07, 1e16, 123456789.125, math.nan, math.inf, -math.inf, 4.0, 4]
    points = [Point(t, values[i % len(values)], values[(i * 7) % len(values)]) for i, t in enumerate(instants())]
    app = Flask(__name__)
    app.json = JSONProvider(app)
    app.json.sort_keys = False
    app.debug = debug  # indented: the text is read back and encoded as any value
    zone = ZoneInfo("America/New_York")
    token = context.time_zone.set(zone)
    try:
        dumped = HistorySchema().dump({"points": points, "downsampled": True, "total": 5})
    finally:
        context.time_zone.reset(token)
    as_dicts = [{"ts": p.ts.astimezone(zone).isoformat(), "temperature": p.temperature, "humidity": p.humidity}
                for p in points]
    expected = json.dumps({"code": 0, "data": {"points": as_dicts, "downsampled": True, "total": 5}},
                          **({"indent": 2} if debug else {"separators": (",", ":")})) + "\n"
    assert response(app, {"code": 0, "data": dumped}).decode() == expected
