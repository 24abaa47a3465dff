"""Downsampling a history keeps every peak and never returns more than asked."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

import pytest

from core.telemetry.downsample import Point, StreamedSample, downsample, fit, plan_buckets

START = datetime(2026, 5, 1, tzinfo=UTC)


def minutes(count: int, start: datetime = START, value=lambda i: 4.0 + math.sin(i / 50), humidity=lambda i: 60.0):
    return [Point(start + timedelta(minutes=i), value(i), humidity(i)) for i in range(count)]


def test_a_two_probe_plan_has_a_quarter_as_many_buckets_as_points_and_a_one_probe_plan_half():
    end = START + timedelta(days=30)
    assert plan_buckets(START, end, 2000, ("t", "h")).count == 500
    assert plan_buckets(START, end, 2000, ("t",)).count == 1000
    assert plan_buckets(START, end, 2001, ("t", "h")).count == 500
    assert plan_buckets(START, end, 3, ("t", "h")).count == 1


def test_buckets_cover_the_range_with_both_ends_included():
    end = START + timedelta(days=30)
    plan = plan_buckets(START, end, 2000)
    assert plan.index(START) == 0
    assert plan.index(end) == plan.count - 1
    assert plan.width * plan.count >= end - START


def test_the_highest_and_the_lowest_reading_survive_however_short():
    points = minutes(43_200)
    points[12_345] = Point(points[12_345].ts, 19.5, 60.0)  # a door left open for one minute
    points[30_001] = Point(points[30_001].ts, 4.0, 2.5)  # a humidity sensor glitch
    points[40_000] = Point(points[40_000].ts, -7.25, 60.0)
    chosen = downsample(points, plan_buckets(START, points[-1].ts, 2000))
    assert points[12_345] in chosen and points[30_001] in chosen and points[40_000] in chosen
    assert max(p.temperature for p in chosen) == 19.5 and min(p.temperature for p in chosen) == -7.25
    assert min(p.humidity for p in chosen) == 2.5


def test_every_bucket_keeps_its_own_min_and_max_of_each_probe():
    rng = random.Random(7)
    points = minutes(10_000, value=lambda i: rng.uniform(-5, 10), humidity=lambda i: rng.uniform(30, 90))
    plan = plan_buckets(START, points[-1].ts, 400)
    chosen = set(downsample(points, plan))
    buckets: dict[int, list[Point]] = {}
    for p in points:
        buckets.setdefault(plan.index(p.ts), []).append(p)
    assert len(buckets) == plan.count == 100
    for bucket in buckets.values():
        kept = [p for p in bucket if p in chosen]
        assert 1 <= len(kept) <= 4
        assert min(p.temperature for p in kept) == min(p.temperature for p in bucket)
        assert max(p.temperature for p in kept) == max(p.temperature for p in bucket)
        assert min(p.humidity for p in kept) == min(p.humidity for p in bucket)
        assert max(p.humidity for p in kept) == max(p.humidity for p in bucket)


@pytest.mark.parametrize("count,max_points,probes", [
    (43_200, 2000, ("t", "h")), (43_200, 2000, ("t",)), (5000, 4999, ("t", "h")), (100, 7, ("t", "h")),
    (100, 3, ("t", "h")), (100, 2, ("t",)), (100, 1, ("t", "h")), (17, 5, ("t", "h")),
])
def test_the_answer_never_exceeds_max_points_and_is_in_time_order_without_duplicates(count, max_points, probes):
    rng = random.Random(count + max_points)
    points = minutes(count, value=lambda i: rng.gauss(4, 2), humidity=lambda i: rng.gauss(60, 5))
    plan = plan_buckets(START, points[-1].ts, max_points, probes)
    chosen = fit(downsample(points, plan), plan, max_points)
    assert 1 <= len(chosen) <= max_points
    assert [p.ts for p in chosen] == sorted({p.ts for p in chosen})
    assert set(chosen) <= set(points)


def test_with_room_for_one_point_the_warmest_reading_is_kept():
    points = minutes(50, value=lambda i: float(i % 17), humidity=lambda i: float(i))
    plan = plan_buckets(START, points[-1].ts, 1)
    [kept] = fit(downsample(points, plan), plan, 1)
    assert kept.temperature == 16.0 and kept.ts == points[16].ts  # the earliest of the warmest


def test_ties_keep_the_earliest_reading():
    points = minutes(10, value=lambda i: 5.0, humidity=lambda i: 50.0)
    plan = plan_buckets(START, points[-1].ts, 4)
    assert downsample(points, plan) == [points[0]]


def test_a_probe_without_values_adds_nothing_and_readings_outside_the_range_are_ignored():
    points = minutes(100, humidity=lambda i: None)
    plan = plan_buckets(START + timedelta(minutes=10), START + timedelta(minutes=89), 20, ("t", "h"))
    chosen = downsample(points, plan)
    assert all(START + timedelta(minutes=10) <= p.ts <= START + timedelta(minutes=89) for p in chosen)
    assert len(chosen) <= plan.count * 2


def test_a_plan_refuses_an_empty_answer_or_a_reversed_range():
    with pytest.raises(ValueError):
        plan_buckets(START, START + timedelta(hours=1), 0)
    with pytest.raises(ValueError):
        plan_buckets(START, START - timedelta(hours=1), 10)


@pytest.mark.parametrize("count,max_points", [(43_200, 1500), (400, 400), (401, 400), (0, 400), (5000, 7)])
def test_a_streamed_sample_is_what_a_history_answers_for_the_same_range(count, max_points):
    """Every reading while they fit, else fit(downsample(...)): the database's answer, read once."""
    rng = random.Random(count)
    points = minutes(count, value=lambda i: rng.gauss(4, 2), humidity=lambda i: rng.choice((None, 55.0, 70.5)))
    end = START + timedelta(days=31)
    sample = StreamedSample(START, end, max_points, ("t", "h"))
    for point in points:
        sample.add(point)
    plan = plan_buckets(START, end, max_points, ("t", "h"))
    expected = (points, False) if count <= max_points else (fit(downsample(points, plan), plan, max_points), True)
    assert sample.result() == expected
