"""A device's history for its chart, downsampled by the database (min and max per bucket), and
the retention of readings after the service expires. On SQLite and PostgreSQL."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from adapters.persistence.models import DeviceRow, DeviceTypeRow, ReadingRow
from core.telemetry.downsample import Point, downsample, fit, plan_buckets
from entrypoints.api.devices import schemas as s
from entrypoints.api.framework import envelope

pytestmark = pytest.mark.usefixtures("demo")

HISTORY = "/device/Device/history"


def device_id(container, guid: str) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(DeviceRow.id).where(DeviceRow.guid == guid))


def history(api, token, device: int, since: datetime, until: datetime, **extra) -> dict:
    reply = api.call("POST", HISTORY, token=token, json={
        "deviceId": device, "startTime": since.isoformat(), "endTime": until.isoformat(), **extra})
    assert (reply.status, reply.code) == (200, 0), reply.body
    envelope(s.HistorySchema)().load(reply.body)
    return reply.data


def instants(points: list[dict]) -> list[datetime]:
    return [datetime.fromisoformat(p["ts"]) for p in points]


def store(container, device: int, rows: list[tuple[datetime, float | None, float | None]]) -> None:
    with container.session_factory()() as session:
        session.execute(ReadingRow.__table__.insert(), [
            {"device_id": device, "ts": ts, "temperature": t, "humidity": h, "seq": None, "received_at": ts}
            for ts, t, h in rows])
        session.commit()


def test_a_day_of_five_minute_readings_comes_back_raw_in_time_order(api, container, clock):
    end = clock.now()
    since = end - timedelta(days=1, hours=2)  # the demo's loggers last uploaded two hours ago
    data = history(api, api.token("alice"), device_id(container, "RCW360A0000001"), since, end)
    assert data["downsampled"] is False and data["total"] == len(data["points"]) in (288, 289)
    times = instants(data["points"])
    assert times == sorted(set(times)) and all(since <= t <= end for t in times)
    assert all(set(p) == {"ts", "temperature", "humidity"} for p in data["points"])
    assert all(2.0 < p["temperature"] < 9.5 and 0 < p["humidity"] < 100 for p in data["points"])


def test_times_are_written_in_the_caller_s_time_zone(api, container, clock):
    end = clock.now()
    reply = api.call("POST", HISTORY, token=api.token("alice"), headers={"X-Time-Zone": "Asia/Shanghai"}, json={
        "deviceId": device_id(container, "RCW360A0000001"), "startTime": (end - timedelta(hours=3)).isoformat(),
        "endTime": end.isoformat()})
    assert reply.data["points"] and all(p["ts"].endswith("+08:00") for p in reply.data["points"])


def test_a_week_is_downsampled_to_max_points_keeping_the_extremes(api, container, clock):
    token, device = api.token("alice"), device_id(container, "LOGET8A0000001")
    end = clock.now()
    since = end - timedelta(days=8)
    raw = history(api, token, device, since, end, maxPoints=5000)
    assert raw["downsampled"] is False and raw["total"] == len(raw["points"]) == 2017
    week = history(api, token, device, since, end)
    assert week["downsampled"] is True and week["total"] == 2017 and len(week["points"]) <= 2000
    for max_points in (100, 7, 1):
        small = history(api, token, device, since, end, maxPoints=max_points)
        assert small["downsampled"] and small["total"] == 2017 and 1 <= len(small["points"]) <= max_points
        times = instants(small["points"])
        assert times == sorted(set(times))
    hundred = history(api, token, device, since, end, maxPoints=100)["points"]
    for probe in ("temperature", "humidity"):
        assert max(p[probe] for p in hundred) == max(p[probe] for p in raw["points"])
        assert min(p[probe] for p in hundred) == min(p[probe] for p in raw["points"])
    assert history(api, token, device, since, end, maxPoints=1)["points"][0]["temperature"] == max(
        p["temperature"] for p in raw["points"])


def test_the_database_picks_exactly_the_rows_the_reference_downsampling_picks(api, container, app):
    """On PostgreSQL the buckets and ranks are SQL; they must agree with core.telemetry.downsample."""
    token = api.token("alice")
    device = device_id(container, "CR2A000000001")
    rng = random.Random(11)
    start = datetime(2026, 3, 1, tzinfo=UTC)
    rows = []
    for i in range(6000):
        temperature = round(rng.gauss(4, 1.5), 1) if i % 97 else None  # gaps, and many equal values
        humidity = round(rng.gauss(70, 4), 1) if i % 13 else None
        rows.append((start + timedelta(seconds=37 * i + rng.randint(0, 20)), temperature, humidity))
    rows.append((start + timedelta(hours=30), 31.5, 99.0))  # a spike
    store(container, device, rows)
    since, until = start + timedelta(minutes=7), start + timedelta(hours=60)
    reference_points = [Point(ts, t, h) for ts, t, h in rows if since <= ts <= until]
    for max_points in (5, 400, 2000):
        plan = plan_buckets(since, until, max_points, ("t", "h"))
        expected = fit(downsample(reference_points, plan), plan, max_points)
        data = history(api, token, device, since, until, maxPoints=max_points)
        assert data["total"] == len(reference_points) and data["downsampled"]
        got = [(datetime.fromisoformat(p["ts"]), p["temperature"], p["humidity"]) for p in data["points"]]
        assert got == [(p.ts, p.temperature, p.humidity) for p in expected], max_points
    assert max(p["temperature"] for p in history(api, token, device, since, until, maxPoints=20)["points"]) == 31.5


Reading = tuple[datetime, float | None, float | None]


def hostile_readings(start: datetime, width: timedelta, buckets: int) -> list[Reading]:
    """Readings on and beside every bucket bound, ties (0.0 beside -0.0 among them), a bucket
    without temperatures, one without humidity, readings without either, and peaks just outside
    the range."""
    one = timedelta(microseconds=1)
    rows: dict[datetime, tuple[float | None, float | None]] = {start - one: (99.0, 1.0)}
    for k in range(buckets):
        bound = start + k * width
        for i, ts in enumerate((bound, bound + one, bound + width / 3, bound + width / 2, bound + width - one)):
            temperature = None if k == 2 else (0.0, -0.0, 0.0, 3.5, -0.0)[(i + k) % 5]
            humidity = None if k == 3 or i == 4 else (50.0, 60.0, 50.0, 60.0)[(i + k) % 4]
            rows[ts] = (temperature, humidity)
    rows[start + buckets * width] = (-99.0, 100.0)
    return [(ts, t, h) for ts, (t, h) in sorted(rows.items())]


def set_probes(container, device: int, probes: str) -> None:
    with container.session_factory()() as session:
        session.get(DeviceTypeRow, session.get(DeviceRow, device).type_id).probes = probes
        session.commit()


@pytest.mark.parametrize("probes", ["t,h", "t"])
def test_bucket_bounds_ties_and_missing_values_are_picked_as_the_reference_picks(api, container, probes):
    """What the database computes (PostgreSQL) against core.telemetry.downsample, on the readings
    most likely to tell them apart, in a zone whose offset changes within the range."""
    token, device = api.token("alice"), device_id(container, "CR2A000000001")
    set_probes(container, device, probes)
    since = datetime(2025, 11, 2, 3, tzinfo=UTC)  # New York leaves DST at 06:00 UTC
    until = since + timedelta(hours=10)
    plan = plan_buckets(since, until, 40, tuple(probes.split(",")))
    rows = hostile_readings(since, plan.width, plan.count)
    store(container, device, rows)
    with container.session_factory()() as session:  # as stored: SQLite keeps no -0.0
        reference_points = [Point(ts.replace(tzinfo=UTC), t, h) for ts, t, h in session.execute(
            select(ReadingRow.ts, ReadingRow.temperature, ReadingRow.humidity)
            .where(ReadingRow.device_id == device, ReadingRow.ts.between(since, until)))]
    zone = ZoneInfo("America/New_York")
    for max_points in (40, 13, 5, 4, 3, 2, 1):
        plan = plan_buckets(since, until, max_points, tuple(probes.split(",")))
        expected = fit(downsample(reference_points, plan), plan, max_points)
        reply = api.call("POST", HISTORY, token=token, headers={"X-Time-Zone": zone.key}, json={
            "deviceId": device, "startTime": since.isoformat(), "endTime": until.isoformat(), "maxPoints": max_points})
        assert (reply.data["total"], reply.data["downsampled"]) == (len(reference_points), True)
        got = [(p["ts"], p["temperature"], p["humidity"]) for p in reply.data["points"]]
        assert got == [(p.ts.astimezone(zone).isoformat(), p.temperature, p.humidity) for p in expected], max_points
        assert [math.copysign(1, p["temperature"]) for p in reply.data["points"] if p["temperature"] is not None] == [
            math.copysign(1, p.temperature) for p in expected if p.temperature is not None]


def test_a_range_whose_readings_lack_every_probe_still_counts_them(api, container):
    device = device_id(container, "CR2A000000001")
    since = datetime(2025, 1, 10, tzinfo=UTC)
    store(container, device, [(since + timedelta(minutes=i), None, None) for i in range(30)])
    data = history(api, api.token("alice"), device, since, since + timedelta(hours=1), maxPoints=10)
    assert data == {"points": [], "downsampled": True, "total": 30}


def test_a_range_without_readings_is_empty(api, container, clock):
    data = history(api, api.token("acme"), device_id(container, "CR2B000000001"),
                   clock.now() - timedelta(days=30), clock.now())
    assert data == {"points": [], "downsampled": False, "total": 0}


def test_organization_members_read_its_devices_history_and_nobody_else_does(api, container, clock):
    end = clock.now()
    body = {"deviceId": device_id(container, "RCW360A0000001"), "startTime": (end - timedelta(days=1)).isoformat(),
            "endTime": end.isoformat()}
    for user in ("bob", "acme"):
        reply = api.call("POST", HISTORY, token=api.token(user), json=body)
        assert reply.status == 404 and reply.data is None
    assert api.call("POST", HISTORY, token=api.token("operator"), json=body).status == 403
    history(api, api.token("bob"), device_id(container, "CR2B000000001"), end - timedelta(days=1), end)


@pytest.mark.parametrize("change,field", [
    ({"endTime": "2026-05-01T00:00:00+08:00"}, "endTime"),  # equal to the start
    ({"endTime": "2026-04-30T23:00:00+08:00"}, "endTime"),  # before it
    ({"endTime": "2027-05-02T00:00:01+08:00"}, "endTime"),  # 366 days and a second
    ({"startTime": "2026-05-01T00:00:00"}, "startTime"),  # no offset
    ({"startTime": "yesterday"}, "startTime"),
    ({"startTime": "0001-01-01T00:00:00+14:00"}, "startTime"),
    ({"endTime": "9999-12-31T23:59:59-14:00"}, "endTime"),
    ({"startTime": "2026-05-01T00:00:00.000000000000000000000000000000000+08:00"}, "startTime"),
    ({"maxPoints": 0}, "maxPoints"), ({"maxPoints": 5001}, "maxPoints"), ({"maxPoints": "all"}, "maxPoints"),
    ({"deviceId": None}, "deviceId"), ({"step": 60}, "step"),
])
def test_the_range_and_max_points_are_checked(api, container, change, field):
    body = {"deviceId": device_id(container, "RCW360A0000001"), "startTime": "2026-05-01T00:00:00+08:00",
            "endTime": "2026-05-02T00:00:00+08:00", **change}
    reply = api.call("POST", HISTORY, token=api.token("alice"), json=body)
    assert (reply.status, reply.code) == (422, 422) and field in reply.body["errors"], reply.body


def test_a_whole_year_is_allowed(api, container):
    reply = api.call("POST", HISTORY, token=api.token("alice"), json={
        "deviceId": device_id(container, "RCW360A0000001"), "startTime": "2026-05-01T00:00:00+08:00",
        "endTime": "2027-05-02T00:00:00+08:00"})
    assert reply.status == 200


# --- retention -----------------------------------------------------------------------------------


def count(container, device: int) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(ReadingRow).where(ReadingRow.device_id == device))


def test_readings_are_kept_three_months_after_the_service_expires(container, clock):
    expired = device_id(container, "RCW360A0000003")  # expired 15 days ago
    others = {guid: device_id(container, guid) for guid in ("RCW360A0000001", "LOGET8A0000001")}
    before = {d: count(container, d) for d in (expired, *others.values())}
    assert container.purge_readings()().readings == 0
    clock.advance(days=70)  # 85 days after expiry: still kept
    assert container.purge_readings()().readings == 0
    clock.advance(days=30)
    report = container.purge_readings()()
    assert report.per_device == {expired: before[expired]} and count(container, expired) == 0
    assert all(count(container, d) == before[d] for d in others.values())  # lifelong and paid-up devices


def test_retention_deletes_only_what_precedes_expiry_plus_three_months_and_sweeps_deleted_devices(
        container, clock):
    device = device_id(container, "RCW360A0000003")
    with container.session_factory()() as session:
        expires_at = session.get(DeviceRow, device).service_expires_at
    late = [(expires_at + timedelta(days=d), 4.0, None) for d in (80, 100, 120)]
    store(container, device, late)
    store(container, 987_654, [(clock.now() - timedelta(minutes=i), 1.0, 1.0) for i in range(50)])  # no such device
    clock.advance(days=130)
    report = container.purge_readings()()
    with container.session_factory()() as session:
        left = session.scalars(select(ReadingRow.ts).where(ReadingRow.device_id == device)).all()
    assert sorted(left) == [expires_at + timedelta(days=d) for d in (100, 120)]
    assert report.orphans == 50 and count(container, 987_654) == 0


def test_the_retention_command_reports_what_it_deleted(app, container, tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    store(container, 987_655, [(datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=i), 1.0, 1.0) for i in range(7)])
    environment = {k: v for k, v in os.environ.items() if k not in ("APP_ENV", "EDITION")}
    environment.update({"DATABASE_URL": container.settings().database_url, "VAR_DIR": str(tmp_path), "APP_ENV": "test"})
    result = subprocess.run([str(Path(sys.executable).with_name("coldchain")), "retention", "--batch-size", "100"],
                            capture_output=True, text=True, env=environment, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "and 7 readings of deleted devices" in result.stdout and count(container, 987_655) == 0
