"""The bounds a column's type sets, enforced alike on PostgreSQL and SQLite.

PostgreSQL refuses a VARCHAR(n) value of n+1 characters, an INTEGER beyond 32 bits, a SMALLINT
beyond 16 bits and text holding NUL; SQLite stores every one of them. So on SQLite each bounded
column carries a CHECK constraint, `ck_<table>_<column>_bounds`, that refuses what PostgreSQL
refuses whoever writes (the application, raw SQL, the sqlite3 shell), counting characters as
PostgreSQL does; and the SQLite engine reports such a refusal, and a number beyond 64 bits (which
its driver refuses before the database), as the DataError PostgreSQL raises.

Migrations add the constraints with `add_sqlite_checks`: a migration that creates a table or adds
a bounded column calls it for that table. tests/integration/test_attack_lengths.py writes one value
too many into every column of the models and fails for a column left without its guard.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

from sqlalchemy import BigInteger, CheckConstraint, Engine, Integer, MetaData, SmallInteger, String, Table, event
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import DataError
from sqlalchemy.types import TypeDecorator, TypeEngine

INT16 = (-(2**15), 2**15 - 1)
INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)
_CHECK_NAME = re.compile(r"ck_\w+_bounds\b")
_CHECK_FAILED = re.compile(rf"CHECK constraint failed: {_CHECK_NAME.pattern}")


@dataclass(frozen=True)
class Bound:
    """What PostgreSQL refuses in a column: longer text (characters), numbers outside the range, NUL."""

    max_length: int | None = None
    int_range: tuple[int, int] | None = None
    text: bool = False


def bound_of(type_: TypeEngine) -> Bound | None:
    if isinstance(type_, TypeDecorator):
        type_ = type_.impl_instance
    if isinstance(type_, BigInteger):  # before Integer, of which both are subclasses
        return Bound(int_range=INT64)
    if isinstance(type_, SmallInteger):
        return Bound(int_range=INT16)
    if isinstance(type_, Integer):
        return Bound(int_range=INT32)
    if isinstance(type_, String):  # Text too, with no length
        return Bound(max_length=type_.length, text=True)
    return None


def check_name(table: str, column: str) -> str:
    return f"ck_{table}_{column}_bounds"


def sqlite_check(column: str, type_: TypeEngine) -> str | None:
    """The CHECK expression that makes SQLite refuse what PostgreSQL refuses in this column, or
    None when SQLite already does (BIGINT: both are 64-bit)."""
    bound = bound_of(type_)
    name = '"' + column.replace('"', '""') + '"'
    if bound is None or bound.int_range == INT64:
        return None
    if bound.int_range is not None:
        low, high = bound.int_range
        return f"{name} BETWEEN {low} AND {high}"
    # length() stops at the first NUL and counts characters; the NUL test works on the bytes.
    no_nul = f"instr(CAST({name} AS BLOB), x'00') = 0"
    return f"length({name}) <= {bound.max_length} AND {no_nul}" if bound.max_length else no_nul


def sqlite_tables(op, *names: str) -> list[Table]:
    """The tables named (all but Alembic's when none is), reflected once for `add_sqlite_checks`;
    empty on PostgreSQL."""
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return []
    metadata = MetaData()
    event.listen(metadata, "column_reflect", op.get_context().impl.autogen_column_reflect)
    metadata.reflect(bind, only=list(names) or (lambda name, _: name != "alembic_version"))
    return list(metadata.sorted_tables)


def add_sqlite_checks(op, table: Table) -> None:
    """In a migration, on SQLite: give every bounded column of `table` (from `sqlite_tables`) its
    CHECK constraint, rebuilding the table once. A migration that creates a table or adds a
    bounded column does `for t in sqlite_tables(op, "name"): add_sqlite_checks(op, t)`."""
    present = {c.name for c in table.constraints if isinstance(c, CheckConstraint)}
    missing = {check_name(table.name, c.name): sqlite_check(c.name, c.type) for c in table.columns}
    missing = {name: text for name, text in missing.items() if text and name not in present}
    if missing:
        with op.batch_alter_table(table.name, recreate="always", copy_from=table) as batch:
            for name, text in missing.items():
                batch.create_check_constraint(op.f(name), text)


def drop_sqlite_checks(op, table: Table) -> None:
    names = [c.name for c in table.constraints
             if isinstance(c, CheckConstraint) and c.name and _CHECK_NAME.fullmatch(c.name)]
    if names:
        with op.batch_alter_table(table.name, recreate="always", copy_from=table) as batch:
            for name in names:
                batch.drop_constraint(op.f(name), type_="check")


def refuse_like_postgresql(engine: Engine) -> None:
    """On a SQLite engine: a bound refused is a DataError, as on PostgreSQL (not the IntegrityError
    a uniqueness race is, nor the driver's OverflowError)."""

    @event.listens_for(engine, "handle_error")
    def _as_data_error(context: ExceptionContext) -> DataError | None:
        error = context.original_exception
        if isinstance(error, OverflowError) or (
                isinstance(error, sqlite3.IntegrityError) and _CHECK_FAILED.search(str(error))):
            return DataError(context.statement, context.parameters, error)
        return None
