"""A device's stored readings for its chart, and their deletion.

History on PostgreSQL is downsampled by the database: it finds each reading's bucket among the
plan's bounds (the same buckets as core.telemetry.downsample), takes each bucket's min and max
per probe with window aggregates and keeps the earliest reading holding each, so only the chosen
rows, about max_points, cross the wire. Elsewhere (SQLite) the
range is read and core.telemetry.downsample picks the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import cast

from sqlalchemy import delete, func, select, text
from sqlalchemy.orm import Session

from adapters.persistence.models import ReadingRow
from adapters.persistence.results import rows_written
from core.telemetry.downsample import BucketPlan, Point, downsample
from core.telemetry.model import HUMIDITY, TEMPERATURE

_COLUMNS = {TEMPERATURE: "temperature", HUMIDITY: "humidity"}
_READINGS = ReadingRow.__table__
# Distinct device ids by a loose index scan over the (device_id, ts) key: one index probe per
# device instead of reading every row. The same SQL runs on PostgreSQL and SQLite.
_ORPHANS = text("""
    WITH RECURSIVE ids(device_id) AS (
        SELECT min(device_id) FROM readings
        UNION ALL
        SELECT (SELECT min(r.device_id) FROM readings r WHERE r.device_id > ids.device_id)
        FROM ids WHERE ids.device_id IS NOT NULL
    )
    SELECT device_id FROM ids
    WHERE device_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.id = ids.device_id)
    LIMIT :limit""")


def _extremes_sql(probes: Sequence[str], buckets: int) -> str:
    """One pass: each reading's bucket (a binary search over the bucket bounds, exact and cheap),
    each bucket's min and max per probe as window aggregates over one sort by bucket, then per
    bucket and extreme the earliest reading holding it. The same window counts each bucket's
    readings, and each bucket's first reading is kept beside its extremes (a bucket may have none
    for the plan's probes), so every row carries how many readings the range holds: a separate
    count would read the range again."""
    extremes, holders, hits = ["count(*) OVER w AS n, min(ts) OVER w AS first_ts"], ["ts = first_ts"], []
    for probe in probes:
        column = _COLUMNS[probe]
        extremes.append(f"min({column}) OVER w AS {probe}_lo, max({column}) OVER w AS {probe}_hi")
        holders.append(f"{column} = {probe}_lo OR {column} = {probe}_hi")
        hits.append(f"('{probe}_lo', {column} = {probe}_lo), ('{probe}_hi', {column} = {probe}_hi)")
    # Bucket k holds [start + k x width, start + (k + 1) x width), as BucketPlan.index says; the
    # bounds are made once per query (an init plan), not per reading. The width is counted in
    # microseconds: an interval of days would follow the session's time zone across DST.
    bounds = ("ARRAY(SELECT CAST(:start AS timestamptz) + (g * CAST(:width_us AS bigint)) * interval '1 microsecond' "
              "FROM generate_series(1, :inner_bounds) AS g)")
    bucket = f"width_bucket(ts, {bounds})" if buckets > 1 else "0"
    return f"""
        WITH bucketed AS (
            SELECT ts, temperature, humidity, {bucket} AS b
            FROM readings
            WHERE device_id = :device_id AND ts >= :start AND ts <= :end
        ), marked AS (
            SELECT ts, temperature, humidity, b, {", ".join(extremes)}
            FROM bucketed WINDOW w AS (PARTITION BY b)
        ), holders AS (
            SELECT * FROM marked WHERE {" OR ".join(holders)}
        ), chosen AS (
            SELECT DISTINCT ON (h.b, k.extreme) h.ts, h.temperature, h.humidity
            FROM holders h CROSS JOIN LATERAL (VALUES {", ".join(hits)}) AS k(extreme, hit)
            WHERE k.hit
            ORDER BY h.b, k.extreme, h.ts
        )
        SELECT DISTINCT ts, temperature, humidity,
               (SELECT sum(n) FROM (SELECT DISTINCT ON (b) n FROM holders ORDER BY b) AS buckets) AS total
        FROM chosen ORDER BY ts"""


def _point(ts: object, temperature: object, humidity: object) -> Point:
    """A reading row as a Point; the rows are untyped since SQLAlchemy 2.1 deprecated Result.tuples()."""
    return Point(cast(datetime, ts), cast(float | None, temperature), cast(float | None, humidity))


class SqlAlchemyReadingHistoryRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    @property
    def _postgresql(self) -> bool:
        return self._s.get_bind().dialect.name == "postgresql"

    @staticmethod
    def _range(device_id: int, since: datetime, until: datetime):
        return (_READINGS.c.device_id == device_id, _READINGS.c.ts >= since, _READINGS.c.ts <= until)

    def count(self, device_id: int, since: datetime, until: datetime) -> int:
        return self._s.execute(select(func.count()).select_from(_READINGS)
                               .where(*self._range(device_id, since, until))).scalar_one()

    def points(self, device_id: int, since: datetime, until: datetime) -> list[Point]:
        rows = self._s.execute(select(_READINGS.c.ts, _READINGS.c.temperature, _READINGS.c.humidity)
                               .where(*self._range(device_id, since, until)).order_by(_READINGS.c.ts)).all()
        return [_point(ts, temperature, humidity) for ts, temperature, humidity in rows]

    def extremes(self, device_id: int, plan: BucketPlan) -> tuple[list[Point], int]:
        if not self._postgresql:
            points = self.points(device_id, plan.start, plan.end)
            return downsample(points, plan), len(points)
        params = {"device_id": device_id, "start": plan.start, "end": plan.end, "width_us": plan.width_us,
                  "inner_bounds": plan.count - 1}
        rows = cast(Sequence[tuple[datetime, float | None, float | None, int]],
                    self._s.execute(text(_extremes_sql(plan.probes, plan.count)), params).all())
        total = int(rows[0][3]) if rows else 0
        # Thousands of rows a chart: typed once (the rows are untyped), no helper call per row.
        return [Point(ts.astimezone(UTC), temperature, humidity) for ts, temperature, humidity, _ in rows], total

    def delete_batch(self, device_id: int, before: datetime | None, limit: int) -> int:
        oldest = select(_READINGS.c.ts).where(_READINGS.c.device_id == device_id)
        if before is not None:
            oldest = oldest.where(_READINGS.c.ts < before)
        oldest = oldest.order_by(_READINGS.c.ts).limit(limit)
        result = self._s.execute(delete(_READINGS).where(_READINGS.c.device_id == device_id,
                                                         _READINGS.c.ts.in_(oldest.scalar_subquery())))
        return rows_written(result)

    def orphan_device_ids(self, limit: int) -> list[int]:
        return list(self._s.scalars(_ORPHANS, {"limit": limit}))
