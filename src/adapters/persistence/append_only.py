"""The operation log's tables refuse UPDATE and DELETE in the database itself (migration 0031):
what the application cannot do by mistake, nor a statement typed at a console by the app's login.
TRUNCATE is left to the tables' owner (PostgreSQL asks for the owner's privilege for it); Part 11
takes UPDATE and DELETE away from the application's role as well."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, text

TABLES = ("operation_log", "operation_log_changes", "operation_log_readers")
REFUSAL = "the operation log is append-only"

_PG_FUNCTION = f"""
CREATE OR REPLACE FUNCTION operation_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '{REFUSAL}: % on %', TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$"""


def create_statements(dialect: str) -> list[str]:
    if dialect == "postgresql":
        return [_PG_FUNCTION, *(f"CREATE TRIGGER {t}_append_only BEFORE UPDATE OR DELETE ON {t} "
                                f"FOR EACH ROW EXECUTE FUNCTION operation_log_append_only()" for t in TABLES)]
    return [f"CREATE TRIGGER {t}_append_only_{op.lower()} BEFORE {op} ON {t} "
            f"BEGIN SELECT RAISE(ABORT, '{REFUSAL}: {op} on {t}'); END"
            for t in TABLES for op in ("UPDATE", "DELETE")]


def drop_statements(dialect: str) -> list[str]:
    if dialect == "postgresql":
        return [*(f"DROP TRIGGER IF EXISTS {t}_append_only ON {t}" for t in TABLES),
                "DROP FUNCTION IF EXISTS operation_log_append_only()"]
    return [f"DROP TRIGGER IF EXISTS {t}_append_only_{op.lower()}" for t in TABLES for op in ("UPDATE", "DELETE")]


@contextmanager
def lifted(connection: Connection) -> Iterator[None]:
    """The triggers away for the block, in its transaction: for wiping a test database only."""
    dialect = connection.dialect.name
    for statement in drop_statements(dialect):
        connection.execute(text(statement))
    yield
    for statement in create_statements(dialect):
        connection.execute(text(statement))
