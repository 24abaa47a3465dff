"""Monthly partitions of the readings table on PostgreSQL, created ahead of time.

A reading lands in the partition of its month; readings outside every monthly partition (old
history a logger uploads late) land in readings_pdefault. Partitions are made for the last
PAST_MONTHS and the next AHEAD_MONTHS, so the default partition never holds a month that a new
partition would later have to take over.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from sqlalchemy import Engine, text

PAST_MONTHS = 24
AHEAD_MONTHS = 3
PARTITION_NAME = re.compile(r"^readings_p(\d{6}|default)$")


def _month(year: int, month: int, shift: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + shift
    return index // 12, index % 12 + 1


def monthly_bounds(now: datetime, past: int = PAST_MONTHS, ahead: int = AHEAD_MONTHS):
    """(name, start, end) of each monthly partition that should exist at `now`."""
    for shift in range(-past, ahead + 1):
        year, month = _month(now.year, now.month, shift)
        next_year, next_month = _month(year, month, 1)
        yield (f"readings_p{year:04d}{month:02d}", datetime(year, month, 1, tzinfo=UTC),
               datetime(next_year, next_month, 1, tzinfo=UTC))


def ensure_reading_partitions(engine: Engine, now: datetime | None = None) -> int:
    """Create the missing monthly partitions; returns how many were made. No-op on SQLite."""
    if engine.dialect.name != "postgresql":
        return 0
    made = 0
    with engine.begin() as connection:
        existing = set(connection.scalars(text(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'readings'")))
        for name, start, end in monthly_bounds(now or datetime.now(UTC)):
            if name in existing:
                continue
            connection.execute(text(
                f"CREATE TABLE {name} PARTITION OF readings FOR VALUES FROM ('{start.isoformat()}') "
                f"TO ('{end.isoformat()}')"))
            made += 1
    return made


def is_partition(table_name: str) -> bool:
    return bool(PARTITION_NAME.match(table_name))


def include_name(name: str | None, type_: str, parent_names: dict) -> bool:
    """For Alembic's comparisons: the monthly partitions are made at run time, not by migrations."""
    return not (type_ == "table" and is_partition(name or ""))
