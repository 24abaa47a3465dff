from __future__ import annotations

import select
import sqlite3
from typing import Any

import psycopg
from sqlalchemy import Engine, create_engine, event, exc
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from adapters.persistence.audit import capture_changes
from adapters.persistence.bounds import refuse_like_postgresql
from adapters.security.secret_box import SECRET_BOX, SecretBox

# A database that is away, restarting, busy, locked or out of room: the same work may succeed later.
# A refused statement (integrity, data or programming error) would be refused again. The raw
# psycopg and sqlite3 classes are here because COPY runs on the driver's own connection.
_UNAVAILABLE = (exc.OperationalError, exc.InterfaceError, exc.TimeoutError, exc.DisconnectionError,
                psycopg.OperationalError, psycopg.InterfaceError, sqlite3.OperationalError, OSError)


def upsert(session: Session, table: Any) -> Any:
    """INSERT ... ON CONFLICT in the session's dialect (both take the same clauses)."""
    postgres = session.get_bind().dialect.name == "postgresql"
    return (pg_insert if postgres else sqlite_insert)(table)


def unavailable(error: BaseException) -> bool:
    """Whether a failed unit of work may succeed if tried again later, unchanged."""
    if isinstance(error, exc.DBAPIError) and error.connection_invalidated:
        return True
    return isinstance(error, _UNAVAILABLE)


def make_engine(url: str, *, echo: bool = False) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(url, echo=echo, connect_args={"timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record) -> None:
            cursor = dbapi_connection.cursor()
            # WAL lets readers run beside the one writer; foreign keys are off by default in SQLite.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        refuse_like_postgresql(engine)
        return engine
    # Sessions in UTC, whatever the server's default: psycopg then gives instants with Python's own
    # UTC, which converting to UTC (UtcDateTime, the history's rows) leaves as they are, where a
    # zoneinfo zone such as a server's Etc/UTC cost a zone lookup per value (a chart's 2,000
    # readings: 5 ms). Nothing here reads the session's zone: instants cross as timestamptz.
    engine = create_engine(url, echo=echo, pool_size=10, max_overflow=20,
                           connect_args={"options": "-c TimeZone=UTC"})
    event.listen(engine, "checkout", _refuse_connection_closed_while_idle)
    return engine


def _refuse_connection_closed_while_idle(dbapi_connection, _record, _proxy) -> None:
    """A pooled connection the server ended while it sat idle (a restart, an idle timeout,
    pg_terminate_backend) is replaced before use. Instead of pool_pre_ping's SELECT 1, a round
    trip on every checkout, a non-blocking look at its socket: an idle session has nothing to
    read, and one the server ended has its goodbye and the end of the stream waiting."""
    try:
        socket = dbapi_connection.pgconn.socket
    except psycopg.OperationalError as error:  # already known to be lost
        raise exc.DisconnectionError() from error
    poller = select.poll()
    poller.register(socket, select.POLLIN)
    if poller.poll(0):
        raise exc.DisconnectionError()  # the pool discards it and connects again


def make_session_factory(engine: Engine, secret_box: SecretBox | None = None) -> sessionmaker:
    """`secret_box` seals the secrets some repositories keep (the platforms' merchant keys):
    every session carries it in its `info`."""
    factory = sessionmaker(bind=engine, expire_on_commit=False, autoflush=True,
                           info={SECRET_BOX: secret_box} if secret_box is not None else None)
    # Every change a request of the API makes is recorded with it (audit.py); outside one, the
    # listeners only look and leave.
    capture_changes(factory)
    return factory
