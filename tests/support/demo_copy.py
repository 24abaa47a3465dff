"""The demo data for a test on PostgreSQL, copied back from the rows a seed wrote a moment ago.

Seeding took 0.3-0.4 s a test on an idle machine (the ORM's look-up-then-insert of some 160 rows,
and the readings' COPY), and about 2,000 tests seed; a copy goes back in with one COPY a table.
The seed counts every instant from its clock (readings on a five-minute grid, expiries, messages),
so a copy is exact only at the instant it was seeded: the test's clock is set to that instant,
and a copy serves for a minute, about as long as a test's frozen clock lags real time anyway.
What a seed does beyond its rows (the alarms' escalation sends alerts), or a seed on top of what a
test wrote, is seeded afresh.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, text

from entrypoints.demo_seed import seed

SERVES_FOR = timedelta(seconds=60)


@dataclass(frozen=True)
class _Copy:
    at: datetime  # the seed's "now"
    rows: tuple[tuple[str, str, bytes], ...]  # table, its column list, its rows in COPY's binary format
    sequences: tuple[tuple[str, int | None], ...]  # a sequence and its last value (None: never used)


def seeded(app: Any, **options: bool) -> None:
    """`seed(app.container, **options)`, from a copy where one is fresh and the tables hold what a
    reset leaves. `app`: a tests.support.fixtures.App."""
    engine: Engine = app.container.engine()
    if engine.dialect.name != "postgresql" or options.get("alarms") or not _as_reset(app):
        seed(app.container, **options)
        return
    key = tuple(sorted(options.items()))
    held: _Copy | None = app.demo_copies.get(key)
    # the test's clock, as a reset leaves it, is the real time of the reset: a clock moved on, or a
    # copy a minute old, seeds afresh
    if held is not None and timedelta(0) <= app.clock.now() - held.at < SERVES_FOR:
        _restore(engine, app.owned_tables, held)
        app.clock.set(held.at)
        return
    at = app.clock.now()
    seed(app.container, **options)
    app.demo_copies[key] = _take(engine, app.owned_tables, at)


def _as_reset(app: Any) -> bool:
    with app.container.engine().connect() as connection:
        return set(holding(connection, app.owned_tables)) == app.holding_after_reset


def empty(connection: Connection, tables: list[str]) -> None:
    """Delete every row of the tables, in one transaction with `connection`'s. DELETE, not TRUNCATE:
    no new files; as a replica the session fires neither foreign keys (so any order will do) nor
    triggers (the operation log's append-only ones), nor will it for what is written next."""
    connection.execute(text("SET LOCAL session_replication_role = replica"))
    for table in holding(connection, tables):
        connection.execute(text(f"DELETE FROM {table}"))


def holding(connection: Connection, tables: list[str]) -> list[str]:
    """Which of the tables hold a row: one statement."""
    probe = " UNION ALL ".join(f"SELECT '\"{name}\"' WHERE EXISTS (SELECT FROM \"{name}\")" for name in tables)
    return list(connection.execute(text(probe)).scalars())


def sequences_of(connection: Connection, tables: list[str]) -> list[tuple[str, int | None]]:
    """The sequences the tables' columns own, with their last values."""
    return [(str(name), last) for name, last in connection.execute(text(
        "SELECT CAST(CAST(sequence.oid AS regclass) AS text), used.last_value FROM pg_class sequence "
        "JOIN pg_depend owner ON owner.objid = sequence.oid AND owner.refobjsubid > 0 "
        "JOIN pg_class owning ON owning.oid = owner.refobjid "
        "JOIN pg_sequences used ON used.sequencename = sequence.relname AND used.schemaname = current_schema() "
        "WHERE sequence.relkind = 'S' AND owning.relname = ANY(:tables)"), {"tables": tables})]


def _columns(connection: Connection, table: str) -> str:
    """The columns COPY writes and reads: all but the generated ones."""
    names = connection.execute(text(
        "SELECT attname FROM pg_attribute WHERE attrelid = CAST(:table AS regclass) AND attnum > 0 "
        "AND NOT attisdropped AND attgenerated = '' ORDER BY attnum"), {"table": table}).scalars()
    return ", ".join(f'"{name}"' for name in names)


def _take(engine: Engine, tables: list[str], at: datetime) -> _Copy:
    rows = []
    with engine.begin() as connection:
        cursor = connection.connection.driver_connection.cursor()
        for table in holding(connection, tables):
            columns = _columns(connection, table)
            # a query, not the table: COPY TO refuses a partitioned table (readings)
            with cursor.copy(f"COPY (SELECT {columns} FROM {table}) TO STDOUT (FORMAT binary)") as copy:
                rows.append((table, columns, b"".join(bytes(block) for block in copy)))
        sequences = sequences_of(connection, tables)
    return _Copy(at, tuple(rows), tuple(sequences))


def _restore(engine: Engine, tables: list[str], held: _Copy) -> None:
    with engine.begin() as connection:
        empty(connection, tables)  # what the reset wrote (the built-in sharing templates)
        cursor = connection.connection.driver_connection.cursor()
        for table, columns, data in held.rows:
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT binary)") as copy:
                copy.write(data)
        for sequence, last in held.sequences:
            connection.execute(text("SELECT setval(:sequence, :value, :called)"),
                               {"sequence": sequence, "value": last or 1, "called": last is not None})
