"""The operation log's tables, and the audit trail's links, refuse UPDATE and DELETE in the database
itself (migrations 0031 and 0051): what the application cannot do by mistake, nor a statement typed
at a console by the app's login. On PostgreSQL, Part 11 (migration 0051) also takes UPDATE, DELETE
and TRUNCATE away from PUBLIC and from the role that ran the migrations (the application's, which
owns the tables): its statements are refused before any trigger runs. A superuser still can, as a
superuser can do anything; the trail's hashes are what shows it (core.fda.trail)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from sqlalchemy import Connection, text

OPERATION_LOG = ("operation_log", "operation_log_changes", "operation_log_readers")  # migration 0031
TRAIL = ("fda_trail_links",)  # migration 0051
SIGNATURES = ("fda_signatures",)  # migration 0052: a signature is added, never changed nor removed
TABLES = (*OPERATION_LOG, *TRAIL, *SIGNATURES)  # every append-only table of the schema as it is now
REFUSAL = "the operation log is append-only"
# What other tables' foreign keys point to, by its key column. PostgreSQL checks such a key by locking
# the row it names (SELECT ... FOR KEY SHARE, as the referenced table's owner), which it allows only
# with UPDATE on at least one of the table's columns: the owner keeps UPDATE on the key column alone,
# so that entries can still be written; the trigger refuses every UPDATE all the same.
_REFERENCED = {"operation_log": "id"}

_PG_FUNCTION = f"""
CREATE OR REPLACE FUNCTION operation_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '{REFUSAL}: % on %', TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$"""


def trigger_statements(dialect: str, tables: Sequence[str]) -> list[str]:
    """The triggers of `tables` (on PostgreSQL, the function they call must exist: migration 0031's)."""
    if dialect == "postgresql":
        return [f"CREATE TRIGGER {t}_append_only BEFORE UPDATE OR DELETE ON {t} "
                f"FOR EACH ROW EXECUTE FUNCTION operation_log_append_only()" for t in tables]
    return [f"CREATE TRIGGER {t}_append_only_{op.lower()} BEFORE {op} ON {t} "
            f"BEGIN SELECT RAISE(ABORT, '{REFUSAL}: {op} on {t}'); END"
            for t in tables for op in ("UPDATE", "DELETE")]


def drop_trigger_statements(dialect: str, tables: Sequence[str]) -> list[str]:
    if dialect == "postgresql":
        return [f"DROP TRIGGER IF EXISTS {t}_append_only ON {t}" for t in tables]
    return [f"DROP TRIGGER IF EXISTS {t}_append_only_{op.lower()}" for t in tables for op in ("UPDATE", "DELETE")]


def create_statements(dialect: str, tables: Sequence[str] = TABLES) -> list[str]:
    """The function (PostgreSQL) and the triggers of `tables`."""
    return [*([_PG_FUNCTION] if dialect == "postgresql" else []), *trigger_statements(dialect, tables)]


def drop_statements(dialect: str, tables: Sequence[str] = TABLES) -> list[str]:
    return [*drop_trigger_statements(dialect, tables),
            *(["DROP FUNCTION IF EXISTS operation_log_append_only()"] if dialect == "postgresql" else [])]


def revoke_statements(dialect: str, tables: Sequence[str]) -> list[str]:
    """PostgreSQL: nobody but a superuser updates, deletes or truncates `tables`, their owner (the
    role that migrates, which the application logs in as) neither (but for a referenced key
    column: _REFERENCED). The owner could grant itself the rights again (an owner may), which is a
    deliberate act, not a mistake of the code."""
    if dialect != "postgresql":
        return []
    return [f"REVOKE UPDATE, DELETE, TRUNCATE ON {', '.join(tables)} FROM PUBLIC, CURRENT_USER",
            *(f"GRANT UPDATE ({_REFERENCED[t]}) ON {t} TO CURRENT_USER" for t in tables if t in _REFERENCED)]


def grant_statements(dialect: str, tables: Sequence[str]) -> list[str]:
    """What revoke_statements took from the owner, given back (a downgrade)."""
    if dialect != "postgresql":
        return []
    return [*(f"REVOKE UPDATE ({_REFERENCED[t]}) ON {t} FROM CURRENT_USER" for t in tables if t in _REFERENCED),
            f"GRANT UPDATE, DELETE, TRUNCATE ON {', '.join(tables)} TO CURRENT_USER"]


@contextmanager
def lifted(connection: Connection) -> Iterator[None]:
    """The triggers away for the block, in its transaction: for wiping a test database only."""
    dialect = connection.dialect.name
    for statement in drop_statements(dialect):
        connection.execute(text(statement))
    yield
    for statement in create_statements(dialect):
        connection.execute(text(statement))
