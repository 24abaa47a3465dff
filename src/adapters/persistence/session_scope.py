"""One database session for every unit of work of a scope: an API request.

A request checks the caller's token, reads their permissions and then runs the call, each in a
unit of work of its own; with a session each, that was three connection checkouts, three BEGINs
and three ROLLBACKs for one call. Inside a scope the units of work share one session, so the
request costs one checkout and one transaction, ended once.

What each unit of work promises is kept: work it commits is committed; work it does not commit
(an exception, or a write it leaves without committing) is rolled back when it ends. Only reads
carry over to the next. A unit of work entered while another holds the scope's session (a use
case calling another inside its `with`) gets a session of its own, as outside any scope.

The scope's transaction, left holding reads only, ends with a COMMIT rather than a ROLLBACK: the
two are the same to the database, but psycopg forgets its prepared statements at every ROLLBACK,
so a read-only request never reused a plan and PostgreSQL planned each of its statements afresh
(most of the database's CPU for the token check and accountInfo).
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from dataclasses import dataclass

from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, Session, SessionTransaction, sessionmaker

_WROTE = "coldchain.wrote"


@dataclass
class _Scope:
    session: Session | None = None
    held: bool = False


def _note_write(state: ORMExecuteState) -> None:
    # text() is not known to be a SELECT: counted as a write, which costs at most one ROLLBACK.
    if not state.is_select:
        state.session.info[_WROTE] = True


def _note_flush(session: Session, _context) -> None:
    session.info[_WROTE] = True


def _forget_writes(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # the transaction itself, not a savepoint, was committed or rolled back
        session.info.pop(_WROTE, None)


def _holds_writes(session: Session) -> bool:
    """Whether the session's transaction holds writes: statements that were not SELECTs (seen
    through the ORM) or a flush, since it began, or changes not yet flushed."""
    return bool(session.info.get(_WROTE) or session.new or session.dirty or session.deleted)


class SessionScope:
    def __init__(self, session_factory: sessionmaker) -> None:
        self._factory = session_factory
        self._current: ContextVar[_Scope | None] = ContextVar(f"session_scope_{id(self)}", default=None)
        for name, listener in (("do_orm_execute", _note_write), ("after_flush", _note_flush),
                               ("after_transaction_end", _forget_writes)):
            if not event.contains(session_factory, name, listener):
                event.listen(session_factory, name, listener)

    def open(self) -> Token:
        """Units of work in this context share a session from now until close(token)."""
        return self._current.set(_Scope())

    def close(self, token: Token) -> None:
        scope = self._current.get()
        self._current.reset(token)
        if scope is None or scope.session is None:
            return
        session = scope.session
        try:
            if session.in_transaction() and not _holds_writes(session):
                session.commit()  # reads only: as a ROLLBACK, but psycopg keeps its prepared statements
        finally:
            session.close()  # rolls back what is left and gives the connection back

    def join(self) -> Session | None:
        """The scope's session for a unit of work to hold, made on first use; None outside a
        scope or while another unit of work holds it."""
        scope = self._current.get()
        if scope is None or scope.held:
            return None
        if scope.session is None:
            scope.session = self._factory()
        scope.held = True
        return scope.session

    def leave(self, session: Session, *, failed: bool) -> None:
        """The unit of work holding the scope's session ends: what it did not commit goes."""
        try:
            if failed or _holds_writes(session):
                session.rollback()
        finally:
            scope = self._current.get()
            if scope is not None:
                scope.held = False
