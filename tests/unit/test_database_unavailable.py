"""Which store failures the ingest worker waits out (the database is away or busy) and which it
does not retry, because they would fail the same way again."""

from __future__ import annotations

import sqlite3

import psycopg
import pytest
from sqlalchemy import exc

from adapters.persistence.database import unavailable


def wrapped(kind: type[exc.DBAPIError], connection_invalidated: bool = False) -> exc.DBAPIError:
    return kind("INSERT ...", {}, Exception("from the driver"), connection_invalidated=connection_invalidated)


@pytest.mark.parametrize("error", [
    wrapped(exc.OperationalError), wrapped(exc.InterfaceError), exc.TimeoutError("pool"),
    wrapped(exc.ProgrammingError, connection_invalidated=True),
    psycopg.OperationalError("server closed the connection"), psycopg.errors.DeadlockDetected("deadlock"),
    sqlite3.OperationalError("database is locked"), ConnectionRefusedError(), TimeoutError()])
def test_a_database_away_or_busy_is_worth_waiting_for(error):
    assert unavailable(error)


@pytest.mark.parametrize("error", [
    wrapped(exc.IntegrityError), wrapped(exc.DataError), wrapped(exc.ProgrammingError), wrapped(exc.InternalError),
    psycopg.errors.RaiseException("refused"), sqlite3.IntegrityError("refused"), ValueError(), RuntimeError()])
def test_a_refused_statement_or_a_bug_is_not(error):
    assert not unavailable(error)
