"""Readings and the devices' live state, written by the ingest worker.

PostgreSQL: the batch is COPied into a per-connection temporary table, then moved with one
`INSERT ... ON CONFLICT DO NOTHING RETURNING`, which both de-duplicates and says which readings
are new. SQLite: multi-row inserts with the same clause.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

import psycopg
from sqlalchemy import bindparam, or_, select, text, update
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from adapters.persistence.models import DeviceRow, ReadingRow
from core.telemetry.model import Reading

_COLUMNS = "device_id, ts, temperature, humidity, seq, received_at, latitude, longitude, accuracy_m, kwh"
_SQLITE_CHUNK = 500  # 10 parameters a row, far below SQLite's limit


def _extras(r: Reading) -> tuple[float | None, float | None, float | None, float | None]:
    p = r.position
    return (p.lat if p else None, p.lon if p else None, p.accuracy_m if p else None, r.kwh)


# Only a newer reading replaces the shown one (history uploads arrive out of order); the first
# reading activates the device; any reading marks it online.
_LIVE_STATE_PG = """
WITH v AS (SELECT * FROM unnest(CAST(:ids AS bigint[]), CAST(:ts AS timestamptz[]),
                                CAST(:t AS float8[]), CAST(:h AS float8[])) AS v(id, ts, t, h)),
     locked AS (SELECT d.id FROM devices d JOIN v ON v.id = d.id ORDER BY d.id FOR UPDATE OF d)
UPDATE devices d SET
    last_temperature = CASE WHEN d.last_reading_at IS NULL OR d.last_reading_at < v.ts
                            THEN v.t ELSE d.last_temperature END,
    last_humidity = CASE WHEN d.last_reading_at IS NULL OR d.last_reading_at < v.ts
                         THEN v.h ELSE d.last_humidity END,
    last_reading_at = GREATEST(d.last_reading_at, v.ts),
    activated_at = COALESCE(d.activated_at, v.ts),
    online = true,
    last_seen_at = :seen
FROM v JOIN locked USING (id)
WHERE d.id = v.id
"""


class SqlAlchemyReadingRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add_new(self, readings: Sequence[Reading]) -> list[Reading]:
        if not readings:
            return []
        by_key = {(r.device_id, r.ts): r for r in readings}
        received_at = datetime.now(UTC)
        if self._s.get_bind().dialect.name == "postgresql":
            keys = self._copy_in(by_key.values(), received_at)
        else:
            keys = self._insert_returning(list(by_key.values()), received_at)
        return sorted((by_key[key] for key in keys), key=lambda r: (r.device_id, r.ts))

    def _copy_in(self, readings: Iterable[Reading], received_at: datetime) -> list[tuple[int, datetime]]:
        connection = self._s.connection().connection.driver_connection
        if not isinstance(connection, psycopg.Connection):  # COPY is psycopg's, on its own connection
            raise TypeError(f"COPY needs a psycopg connection, not {type(connection).__name__}")
        with connection.cursor() as cursor:
            cursor.execute("CREATE TEMP TABLE IF NOT EXISTS readings_staging "
                           "(LIKE readings INCLUDING DEFAULTS) ON COMMIT DELETE ROWS")
            with cursor.copy(f"COPY readings_staging ({_COLUMNS}) FROM STDIN") as copy:
                for r in readings:
                    copy.write_row((r.device_id, r.ts, r.temperature, r.humidity, r.seq, received_at, *_extras(r)))
            cursor.execute(f"INSERT INTO readings ({_COLUMNS}) SELECT {_COLUMNS} FROM readings_staging "
                           "ON CONFLICT DO NOTHING RETURNING device_id, ts")
            rows = cursor.fetchall()
        return [(device_id, ts) for device_id, ts in rows]

    def _insert_returning(self, readings: list[Reading], received_at: datetime) -> list[tuple[int, datetime]]:
        keys: list[tuple[int, datetime]] = []
        for start in range(0, len(readings), _SQLITE_CHUNK):
            chunk = readings[start:start + _SQLITE_CHUNK]
            statement = (sqlite_insert(ReadingRow)
                         .values([dict(zip(_COLUMNS.split(", "), (r.device_id, r.ts, r.temperature, r.humidity,
                                                                   r.seq, received_at, *_extras(r)), strict=True))
                                  for r in chunk])
                         .on_conflict_do_nothing()
                         .returning(ReadingRow.device_id, ReadingRow.ts))
            keys.extend((device_id, ts) for device_id, ts in self._s.execute(statement))
        return keys

    def update_live_state(self, latest: Sequence[Reading], seen_at: datetime) -> None:
        if not latest:
            return
        if self._s.get_bind().dialect.name == "postgresql":
            self._update_live_state_pg(latest, seen_at)
            return
        devices = DeviceRow.__table__  # Core statements: one executemany, no ORM bookkeeping
        rows = [{"b_id": r.device_id, "b_ts": r.ts, "b_t": r.temperature, "b_h": r.humidity} for r in latest]
        # Only a newer reading replaces the shown one: history uploads arrive out of order.
        self._s.execute(
            update(devices)
            .where(devices.c.id == bindparam("b_id"),
                   or_(devices.c.last_reading_at.is_(None), devices.c.last_reading_at < bindparam("b_ts")))
            .values(last_reading_at=bindparam("b_ts"), last_temperature=bindparam("b_t"),
                    last_humidity=bindparam("b_h")),
            rows)
        self._s.execute(
            update(devices).where(devices.c.id == bindparam("b_id"), devices.c.activated_at.is_(None))
            .values(activated_at=bindparam("b_ts")),
            rows)
        self._s.execute(update(devices).where(devices.c.id.in_([r.device_id for r in latest]))
                        .values(online=True, last_seen_at=seen_at))

    def _update_live_state_pg(self, latest: Sequence[Reading], seen_at: datetime) -> None:
        """One statement for the whole batch (an UPDATE per device cost more than the COPY). Rows
        are locked in id order so two workers sharing devices wait for each other, never deadlock."""
        ordered = sorted(latest, key=lambda r: r.device_id)
        self._s.execute(text(_LIVE_STATE_PG), {
            "ids": [r.device_id for r in ordered], "ts": [r.ts for r in ordered],
            "t": [r.temperature for r in ordered], "h": [r.humidity for r in ordered], "seen": seen_at})

    def update_positions(self, latest: Sequence[Reading]) -> None:
        devices = DeviceRow.__table__
        rows = [{"b_id": r.device_id, "b_ts": r.ts, "b_lat": r.position.lat, "b_lon": r.position.lon,
                 "b_acc": r.position.accuracy_m} for r in sorted(latest, key=lambda r: r.device_id) if r.position]
        if not rows:
            return
        # Only a newer fix moves the device: history uploads arrive out of order.
        self._s.execute(
            update(devices)
            .where(devices.c.id == bindparam("b_id"),
                   or_(devices.c.last_position_at.is_(None), devices.c.last_position_at < bindparam("b_ts")))
            .values(last_position_at=bindparam("b_ts"), last_latitude=bindparam("b_lat"),
                    last_longitude=bindparam("b_lon"), last_accuracy_m=bindparam("b_acc")),
            rows)

    def set_online(self, states: dict[int, bool], seen_at: datetime) -> None:
        for online in (True, False):
            ids = [device_id for device_id, state in states.items() if state is online]
            if ids:
                devices = DeviceRow.__table__
                self._s.execute(update(devices).where(devices.c.id.in_(ids))
                                .values(online=online, last_seen_at=seen_at))

    def device_ids(self, guids: Iterable[str] | None = None) -> dict[str, int]:
        # A scrapped device is not one the ingest knows: what it still sends is dropped as an
        # unknown GUID's (its broker login is disabled, so only messages already in flight).
        query = select(DeviceRow.guid, DeviceRow.id).where(DeviceRow.scrapped_at.is_(None))
        if guids is not None:
            query = query.where(DeviceRow.guid.in_(list(guids)))
        return {guid: device_id for guid, device_id in self._s.execute(query)}


def readings_count(session: Session) -> int:
    """For tests and benchmarks."""
    return session.execute(text("SELECT count(*) FROM readings")).scalar_one()
