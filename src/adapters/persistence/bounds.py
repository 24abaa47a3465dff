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

import logging
import re
import sqlite3

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Connection,
    Engine,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    event,
    literal_column,
    select,
    text,
    update,
)
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import DataError
from sqlalchemy.types import TypeDecorator, TypeEngine

log = logging.getLogger(__name__)
_INT_RANGES = ((BigInteger, None), (SmallInteger, (-(2**15), 2**15 - 1)), (Integer, (-(2**31), 2**31 - 1)))
_CHECK_NAME = re.compile(r"ck_\w+_bounds\b")
_CHECK_FAILED = re.compile(rf"CHECK constraint failed: {_CHECK_NAME.pattern}")


def check_name(table: str, column: str) -> str:
    return f"ck_{table}_{column}_bounds"


def sqlite_check(column: str, type_: TypeEngine) -> str | None:
    """The CHECK expression that makes SQLite refuse what PostgreSQL refuses in this column, or
    None when there is nothing to refuse (BIGINT is 64-bit on both)."""
    if isinstance(type_, TypeDecorator):
        type_ = type_.impl_instance
    name = '"' + column.replace('"', '""') + '"'
    for kind, bounds in _INT_RANGES:  # BIGINT and SMALLINT first: they are INTEGERs too
        if isinstance(type_, kind):
            return f"{name} BETWEEN {bounds[0]} AND {bounds[1]}" if bounds else None
    if isinstance(type_, String):  # TEXT too, with no length
        # length() counts characters but stops at a NUL; the NUL is looked for in the bytes.
        no_nul = f"instr(CAST({name} AS BLOB), x'00') = 0"
        return f"length({name}) <= {type_.length} AND {no_nul}" if type_.length else no_nul
    return None


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
    missing = {name: check for name, check in missing.items() if check and name not in present}
    if missing:
        _fit_stored_rows(op.get_bind(), table)
        with op.batch_alter_table(table.name, recreate="always", copy_from=table) as batch:
            for name, check in missing.items():
                batch.create_check_constraint(op.f(name), check)


def _fit_stored_rows(connection: Connection, table: Table) -> None:
    """Rows SQLite took before its checks, which PostgreSQL would have refused: text is cut to its
    length and NUL becomes U+FFFD (each row logged); a number out of range stops the migration,
    as no value can stand for it."""
    for column in table.columns:
        check = sqlite_check(column.name, column.type)
        if check is None:
            continue
        rows = connection.execute(select(literal_column("rowid"), column).where(text(f"NOT ({check})"))).all()
        for rowid, value in rows:
            if not (isinstance(column.type, String) and isinstance(value, str)):
                raise ValueError(f"{table.name}.{column.name} of row {rowid} holds {value!r}, beyond "
                                 f"what PostgreSQL stores there: correct it, then migrate again")
            limit = column.type.length or len(value)
            fitted = value.replace("\x00", "\N{REPLACEMENT CHARACTER}")[:limit]
            connection.execute(update(table).where(literal_column("rowid") == rowid).values({column.name: fitted}))
            log.warning("%s.%s of row %s: %d characters made to fit as %d", table.name, column.name, rowid,
                        len(value), len(fitted))


def drop_sqlite_checks(op, table: Table) -> None:
    names = [c.name for c in table.constraints
             if isinstance(c, CheckConstraint) and isinstance(c.name, str) and _CHECK_NAME.fullmatch(c.name)]
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
