"""A device's stored readings for its chart, and their deletion.

History on PostgreSQL is downsampled by the database, in the buckets of core.telemetry.downsample,
in two passes over the range and no sort of it: the first takes each bucket's count and each
probe's min and max (a hash aggregate), the second keeps the readings equal to their bucket's
extreme (an array lookup by bucket number) and, of those, the earliest per bucket and extreme.
Both passes read the readings from the primary key's index alone, which carries the probes'
values (migration 0015). Only the chosen rows, about max_points, cross the wire, in binary.
Elsewhere (SQLite) the range is read and core.telemetry.downsample picks the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, cast

import psycopg
from sqlalchemy import ColumnElement, Row, Select, case, delete, func, or_, select, text
from sqlalchemy.orm import Session

from adapters.persistence.models import ReadingRow
from adapters.persistence.results import rows_written
from core.devices.model import MeterReading, TrackPoint
from core.telemetry.downsample import BucketPlan, Point, downsample
from core.telemetry.model import HUMIDITY, TEMPERATURE, Position

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
    """Two passes over the range, neither of them a sort. The first groups the readings by bucket
    (a hash) into each bucket's count and each probe's min and max, laid out as arrays indexed by
    bucket. The second reads the range again and keeps the readings equal to their bucket's
    extreme, looked up by index: no join, whose plan would follow the planner's guess at the
    number of buckets. Of those few, per bucket and extreme, the earliest. Every row carries how
    many readings the range holds, and a range whose readings hold no extreme (none has a value
    for the plan's probes) still answers one row: that count, and no reading."""
    aggregates, lookups, marks, firsts = ["count(*) AS n"], [], [], []
    for probe in probes:
        column = _COLUMNS[probe]
        for extreme, aggregate in ((f"{probe}_lo", "min"), (f"{probe}_hi", "max")):
            aggregates.append(f"{aggregate}({column}) AS {extreme}")
            # A bucket whose readings all lack the probe has no extreme: any filler does, as no
            # reading of it can equal one (NULL equals nothing), and an array without NULLs is
            # indexed in constant time.
            lookups.append(f"array_agg(coalesce({extreme}, 0) ORDER BY k) AS {extreme}")
            marks.append(f"{column} = by_bucket.{extreme}[b + 1] AS {extreme}")
            firsts.append(f"min(ts) FILTER (WHERE {extreme})")
    # Bucket k holds [start + k x width, start + (k + 1) x width), as BucketPlan.index says; the
    # bounds are made once per query (an init plan), not per reading. The width is counted in
    # microseconds: an interval of days would follow the session's time zone across DST.
    bounds = ("ARRAY(SELECT CAST(%(start)s AS timestamptz) + (g * CAST(%(width_us)s AS bigint)) "
              "* interval '1 microsecond' FROM generate_series(1, %(inner_bounds)s) AS g)")
    bucket = f"width_bucket(ts, {bounds})" if buckets > 1 else "0"
    readings = f"SELECT ts, temperature, humidity, {bucket} AS b FROM readings " \
               "WHERE device_id = %(device_id)s AND ts >= %(start)s AND ts <= %(end)s"
    return f"""
        WITH extremes AS (
            SELECT b, {", ".join(aggregates)} FROM ({readings}) AS r GROUP BY b
        ), by_bucket AS MATERIALIZED (
            SELECT CAST(sum(n) AS bigint) AS total, {", ".join(lookups)}
            FROM generate_series(0, %(inner_bounds)s) AS k LEFT JOIN extremes ON extremes.b = k
        ), marked AS (
            SELECT ts, temperature, humidity, b, {", ".join(marks)}
            FROM ({readings} OFFSET 0) AS r, by_bucket
        ), holders AS MATERIALIZED (
            SELECT * FROM marked WHERE {" OR ".join(f"{probe}_{end}" for probe in probes for end in ("lo", "hi"))}
        ), chosen AS (
            SELECT unnest(ARRAY[{", ".join(firsts)}]) AS ts FROM holders GROUP BY b
        )
        SELECT h.ts, h.temperature, h.humidity, by_bucket.total
        FROM by_bucket LEFT JOIN holders AS h ON h.ts IN (SELECT ts FROM chosen)
        ORDER BY h.ts"""


def thinned_fixes(where: Sequence[ColumnElement[bool]], max_points: int) -> Select[Any]:
    """The readings under `where` that carry a position, per device in time order: every one when a
    device has at most `max_points`, else every step-th one and its last (the path's shape, and
    where it ends; never more than `max_points`). Each row: device_id, ts, latitude, longitude,
    accuracy_m, and `total`, how many the device has. One pass over the (device_id, ts) key's range."""
    r = _READINGS.c
    numbered = (select(r.device_id, r.ts, r.latitude, r.longitude, r.accuracy_m,
                       func.row_number().over(partition_by=r.device_id, order_by=r.ts).label("n"),
                       func.count().over(partition_by=r.device_id).label("total"))
                .where(*where, r.latitude.is_not(None), r.longitude.is_not(None)).subquery())
    n, total = numbered.c.n, numbered.c.total
    limit = max(2, max_points)
    # ceil((total - 1) / (limit - 1)) in integers, the same on PostgreSQL and SQLite; 1 (never 0) below the limit
    step = case((total > limit, (total + (limit - 3)) // (limit - 1)), else_=1)
    return (select(numbered.c.device_id, numbered.c.ts, numbered.c.latitude, numbered.c.longitude,
                   numbered.c.accuracy_m, total)
            .where(or_(total <= limit, (n - 1) % step == 0, n == total))
            .order_by(numbered.c.device_id, numbered.c.ts))


def fix(row: Row[Any]) -> TrackPoint:
    """A row of thinned_fixes as a point of a track."""
    return TrackPoint(cast(datetime, row.ts), Position(cast(float, row.latitude), cast(float, row.longitude),
                                                       cast(float | None, row.accuracy_m)))


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
        connection = self._s.connection().connection.driver_connection
        if not isinstance(connection, psycopg.Connection):
            raise TypeError(f"the history query needs a psycopg connection, not {type(connection).__name__}")
        # Binary rows: neither the server nor psycopg writes and parses 2,000 instants and numbers as text.
        with connection.cursor(binary=True) as cursor:
            rows = cursor.execute(_extremes_sql(plan.probes, plan.count), params).fetchall()
        total = int(rows[0][3] or 0)  # NULL: no reading in the range
        if rows[0][0] is None:  # the one row of a range without any extreme to show
            return [], total
        # Thousands of rows a chart: no helper call per row, and converted to UTC only if the session
        # is not in UTC (make_engine puts it there): all instants of a result come in its zone.
        if rows[0][0].tzinfo is UTC:
            return [Point(ts, temperature, humidity) for ts, temperature, humidity, _ in rows], total
        return [Point(ts.astimezone(UTC), temperature, humidity) for ts, temperature, humidity, _ in rows], total

    def track(self, device_id: int, since: datetime, until: datetime, max_points: int) -> tuple[list[TrackPoint], int]:
        rows = self._s.execute(thinned_fixes(self._range(device_id, since, until), max_points)).all()
        return [fix(row) for row in rows], int(rows[0].total) if rows else 0

    def meter(self, device_id: int, since: datetime, until: datetime) -> tuple[float | None, list[MeterReading]]:
        metered = _READINGS.c.kwh.is_not(None)
        before = self._s.execute(select(_READINGS.c.kwh)
                                 .where(_READINGS.c.device_id == device_id, _READINGS.c.ts < since, metered)
                                 .order_by(_READINGS.c.ts.desc()).limit(1)).scalar()
        rows = self._s.execute(select(_READINGS.c.ts, _READINGS.c.kwh)
                               .where(*self._range(device_id, since, until), metered)
                               .order_by(_READINGS.c.ts)).all()
        return before, [MeterReading(cast(datetime, ts), cast(float, kwh)) for ts, kwh in rows]

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
