import json
from datetime import UTC, datetime, timedelta

import pytest

from core.telemetry.parsing import MAX_BATCH, MAX_PAYLOAD_BYTES, Reason, parse_status, parse_telemetry

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
TOPIC = "devices/RCW360A0000001/telemetry"


def parse(body, topic=TOPIC):
    payload = body if isinstance(body, bytes) else json.dumps(body).encode()
    return parse_telemetry(topic, payload, NOW)


def test_one_reading():
    parsed = parse({"ts": "2026-11-22T11:59:00+08:00", "t": 4.5, "h": 61.2, "seq": 7, "battery": 90})
    (reading,) = parsed.readings
    assert reading.guid == "RCW360A0000001" and reading.ts == datetime(2026, 11, 22, 3, 59, tzinfo=UTC)
    assert (reading.temperature, reading.humidity, reading.seq) == (4.5, 61.2, 7)
    assert not parsed.rejected


def test_a_batch_keeps_the_good_readings_and_counts_the_bad():
    good = {"ts": "2026-11-22T11:00:00Z", "t": 4.0}
    parsed = parse({"readings": [good, {"ts": "yesterday", "t": 1}, {"ts": "2026-11-22T11:01:00Z", "t": 900},
                                 {**good, "ts": "2026-11-22T11:02:00Z"}]})
    assert len(parsed.readings) == 2
    assert parsed.rejected == {Reason.BAD_TIMESTAMP: 1, Reason.OUT_OF_RANGE: 1}


@pytest.mark.parametrize("ts,expected", [
    (1795348800, datetime(2026, 11, 22, 12, 0, tzinfo=UTC)),
    (1795348800000, datetime(2026, 11, 22, 12, 0, tzinfo=UTC)),
    ("2026-11-22T12:00:00Z", datetime(2026, 11, 22, 12, 0, tzinfo=UTC)),
])
def test_timestamps_in_iso_or_epoch_seconds_or_milliseconds(ts, expected):
    assert parse({"ts": ts, "t": 1}).readings[0].ts == expected


@pytest.mark.parametrize("body,reason", [
    ({"ts": "2026-11-22T12:00:00", "t": 1}, Reason.BAD_TIMESTAMP),  # no offset: ambiguous
    ({"t": 1}, Reason.BAD_TIMESTAMP),
    ({"ts": True, "t": 1}, Reason.BAD_TIMESTAMP),
    ({"ts": (NOW + timedelta(minutes=6)).isoformat(), "t": 1}, Reason.FUTURE),
    ({"ts": (NOW - timedelta(days=401)).isoformat(), "t": 1}, Reason.TOO_OLD),
    ({"ts": NOW.isoformat()}, Reason.NO_VALUE),
    ({"ts": NOW.isoformat(), "t": "4.5"}, Reason.NOT_FINITE),
    ({"ts": NOW.isoformat(), "h": 101}, Reason.OUT_OF_RANGE),
    ({"ts": NOW.isoformat(), "t": -201}, Reason.OUT_OF_RANGE),
    ({"ts": NOW.isoformat(), "t": 1, "seq": -1}, Reason.BAD_SEQ),
    ([1, 2], Reason.NOT_AN_OBJECT),
    ({"readings": "x"}, Reason.NOT_AN_OBJECT),
])
def test_bad_readings_are_refused_with_a_reason(body, reason):
    parsed = parse(body)
    assert parsed.readings == [] and parsed.rejected == {reason: 1}


def test_non_finite_numbers_in_json_are_refused():
    assert parse(b'{"ts": "2026-11-22T12:00:00Z", "t": NaN}').rejected == {Reason.NOT_FINITE: 1}
    assert parse(b'{"ts": "2026-11-22T12:00:00Z", "t": Infinity}').rejected == {Reason.NOT_FINITE: 1}


@pytest.mark.parametrize("payload,reason", [
    (b"{not json", Reason.MALFORMED), (b"\xff\xfe", Reason.MALFORMED),
    (b" " * (MAX_PAYLOAD_BYTES + 1), Reason.TOO_LARGE),
    (json.dumps({"readings": [{"ts": "2026-11-22T12:00:00Z", "t": 1}] * (MAX_BATCH + 1)}).encode(), Reason.TOO_MANY),
])
def test_unreadable_messages_are_refused_whole(payload, reason):
    assert parse(payload).rejected == {reason: 1}


@pytest.mark.parametrize("topic", ["devices/a b/telemetry", "devices/x/status", "other/x/telemetry",
                                   "devices//telemetry"])
def test_only_telemetry_topics_with_a_guid(topic):
    assert parse({"ts": NOW.isoformat(), "t": 1}, topic=topic).rejected == {Reason.BAD_TOPIC: 1}


def test_status_messages():
    assert parse_status("devices/G1/status", b"online") == ("G1", True)
    assert parse_status("devices/G1/status", b'"offline"') == ("G1", False)
    assert parse_status("devices/G1/status", b"maybe") is None
    assert parse_status("devices/G1/telemetry", b"online") is None


HUGE = "1" + "0" * 400  # an integer no float can hold


@pytest.mark.parametrize("payload,reason", [
    (b"[" * 5000 + b"]" * 5000, Reason.MALFORMED),  # deeper than the decoder can recurse
    (b'{"a":' * 5000 + b"1" + b"}" * 5000, Reason.MALFORMED),
    (b'{"readings":[' + b"[" * 5000 + b"]" * 5000 + b"]}", Reason.MALFORMED),
    (f'{{"ts":{HUGE},"t":4}}'.encode(), Reason.BAD_TIMESTAMP),
    (f'{{"ts":-{HUGE},"t":4}}'.encode(), Reason.BAD_TIMESTAMP),
    (f'{{"ts":"2026-11-22T12:00:00Z","t":{HUGE}}}'.encode(), Reason.OUT_OF_RANGE),
    (f'{{"ts":"2026-11-22T12:00:00Z","h":-{HUGE}}}'.encode(), Reason.OUT_OF_RANGE),
    (b'{"ts":"0001-01-01T00:00:00+01:00","t":4}', Reason.BAD_TIMESTAMP),  # before year 1 in UTC
    (b'{"ts":"9999-12-31T23:59:59-01:00","t":4}', Reason.BAD_TIMESTAMP),  # after year 9999 in UTC
])
def test_hostile_payloads_are_refused_with_a_reason_instead_of_raising(payload, reason):
    assert parse(payload).rejected == {reason: 1}


def test_a_position_and_an_energy_total_ride_along_with_the_reading():
    (reading,) = parse({"ts": "2026-11-22T11:59:00Z", "t": 4.5, "lat": 31.23, "lon": 121.47, "acc": 12,
                        "kwh": 1.25}).readings
    assert (reading.position.lat, reading.position.lon, reading.position.accuracy_m) == (31.23, 121.47, 12.0)
    assert reading.kwh == 1.25


def test_a_reading_may_carry_only_a_position_or_only_an_energy_total():
    parsed = parse({"readings": [{"ts": "2026-11-22T11:59:00Z", "lat": -33.9, "lon": 18.4},
                                 {"ts": "2026-11-22T11:58:00Z", "kwh": 0}]})
    assert [r.position for r in parsed.readings][1] is None and parsed.readings[1].kwh == 0.0
    assert parsed.readings[0].position.lat == -33.9 and not parsed.rejected


@pytest.mark.parametrize("extra", [
    {"lat": 91, "lon": 10}, {"lat": -90.5, "lon": 10}, {"lat": 10, "lon": 180.01}, {"lat": 10},
    {"lon": 10}, {"lat": "31.2", "lon": 121.4}, {"lat": True, "lon": 1}, {"lat": 10 ** 400, "lon": 1},
    {"lat": 10, "lon": 10, "acc": -1}, {"lat": 10, "lon": 10, "acc": 1e12}, {"acc": 5}, {"lat": None, "lon": [1]},
])
def test_a_hostile_position_is_dropped_and_the_temperature_kept(extra):
    parsed = parse({"ts": "2026-11-22T11:59:00Z", "t": 4.5, **extra})
    (reading,) = parsed.readings
    assert reading.temperature == 4.5 and reading.position is None
    assert parsed.dropped == {Reason.BAD_POSITION: 1} and not parsed.rejected


def test_nan_and_infinite_positions_and_energy_are_dropped():
    payload = b'{"ts": "2026-11-22T11:59:00Z", "t": 1, "lat": NaN, "lon": Infinity, "kwh": -Infinity}'
    parsed = parse(payload)
    (reading,) = parsed.readings
    assert reading.position is None and reading.kwh is None
    assert parsed.dropped == {Reason.BAD_POSITION: 1, Reason.BAD_ENERGY: 1}


@pytest.mark.parametrize("kwh", [-0.1, 1e10, "5", False, {"a": 1}])
def test_an_energy_total_out_of_range_is_dropped(kwh):
    parsed = parse({"ts": "2026-11-22T11:59:00Z", "h": 50, "kwh": kwh})
    assert parsed.readings[0].kwh is None and parsed.dropped == {Reason.BAD_ENERGY: 1}


def test_a_reading_of_nothing_but_a_bad_position_is_refused():
    parsed = parse({"ts": "2026-11-22T11:59:00Z", "lat": 1000, "lon": 0})
    assert not parsed.readings and parsed.rejected == {Reason.BAD_POSITION: 1}
