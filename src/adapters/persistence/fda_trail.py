"""The audit trail's chains (core.fda.trail): written with the operation log's entries, read and
verified through core.fda.ports.AuditTrail.

Writing (`chain_entry`, called by audit.py and operation_log.py in the transaction that writes an
entry or a batch of its changes): the subjects among the entry's readers whose FDA mode is on, plus
any subject whose switch the batch changes, each get a link. What a link covers is read back from
the database in that transaction (the entry and its changes not yet covered by the chain), so the
hash is taken of exactly what a later verification reads. Links of one chain are serialised: on
PostgreSQL by a transaction-scoped advisory lock per chain, taken in chain-key order so that two
writers of the same chains cannot deadlock; on SQLite the entry's write already holds the
database's one write lock.

Cost when no reader has FDA on: one query per committed batch (every reader's switch at once, by
primary key), and none at all for a batch without readers; the answers are kept for the rest of
the transaction (session.info, dropped when it ends).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, func, insert, literal, select, text, union_all
from sqlalchemy.orm import Session

from adapters.persistence.log_rows import change_of, operation_of
from adapters.persistence.models import OperationChangeRow, OperationLogRow, OrganizationRow, UserProfileRow
from adapters.persistence.models_fda_trail import FdaTrailLinkRow
from core.audit.model import Change
from core.fda.model import Subject
from core.fda.trail import GENESIS, Link, LinkedEntry, TrailRow, link_hash
from core.shared.paging import Page, PageRequest

SWITCHES_SEEN = "coldchain.fda.switches"  # session.info: {chain key: on} read in the open transaction
# The advisory locks' first key: the trail's own space (a lock of one bigint key never meets it).
_LOCK_SPACE = 0x0FDA
# The object types (audit.KINDS) whose `enable_fda` column is a subject's switch.
SWITCH_OBJECTS = {"profile": "account", "organization": "organization"}
_BATCH = 500

_LINKS = FdaTrailLinkRow.__table__
_ENTRIES = OperationLogRow.__table__
_CHANGES = OperationChangeRow.__table__


# --- writing ---------------------------------------------------------------------------------


def chain_entry(session: Session, operation_id: int, readers: Iterable[tuple[int | None, int | None]],
                changes: Sequence[Change] = ()) -> None:
    """Append the entry (and its changes no link of the chain covers yet) to the chain of every
    FDA-on subject among `readers` ((account, None) or (None, organization)), and of every subject
    whose switch `changes` turn on or off."""
    subjects = {Subject(account_id=a) if a is not None else Subject(organization_id=o)
                for a, o in readers if a is not None or o is not None}
    switched = _switched(changes)
    seen = session.info.setdefault(SWITCHES_SEEN, {})
    for subject in switched:
        seen.pop(subject.key, None)
    chained = _switched_on(session, subjects - switched) | switched
    if not chained:
        return
    connection = session.connection()
    for key in sorted(s.key for s in chained):  # one order for every writer: no deadlock
        _append(connection, key, operation_id)


def _switched(changes: Sequence[Change]) -> set[Subject]:
    """Subjects whose FDA switch a change sets, on or off (an account's profile added with it off
    is no switch)."""
    found: set[Subject] = set()
    for change in changes:
        values = change.fields.get("enable_fda")
        whose = SWITCH_OBJECTS.get(change.object_type)
        if not values or not any(values) or whose is None:
            continue
        if whose == "account" and change.owner_account_id is not None:
            found.add(Subject(account_id=change.owner_account_id))
        elif whose == "organization" and change.organization_id is not None:
            found.add(Subject(organization_id=change.organization_id))
    return found


def _switched_on(session: Session, subjects: set[Subject]) -> set[Subject]:
    seen: dict[str, bool] = session.info.setdefault(SWITCHES_SEEN, {})
    unknown = [s for s in subjects if s.key not in seen]
    if unknown:
        accounts = [s.account_id for s in unknown if s.account_id is not None]
        organizations = [s.organization_id for s in unknown if s.organization_id is not None]
        queries = []
        if accounts:
            queries.append(select(literal("a"), UserProfileRow.account_id)
                           .where(UserProfileRow.account_id.in_(accounts), UserProfileRow.enable_fda != 0))
        if organizations:
            queries.append(select(literal("o"), OrganizationRow.id)
                           .where(OrganizationRow.id.in_(organizations), OrganizationRow.enable_fda != 0))
        query = queries[0] if len(queries) == 1 else union_all(*queries)
        on = {f"{kind}:{subject_id}" for kind, subject_id in session.connection().execute(query)}
        seen.update((s.key, s.key in on) for s in unknown)
    return {s for s in subjects if seen[s.key]}


def _lock(connection: Connection, chain_key: str) -> None:
    if connection.dialect.name == "postgresql":
        key = zlib.crc32(chain_key.encode())
        connection.execute(text("SELECT pg_advisory_xact_lock(:space, :key)"),
                           {"space": _LOCK_SPACE, "key": key - 2**32 if key >= 2**31 else key})


def _append(connection: Connection, chain_key: str, operation_id: int) -> None:
    _lock(connection, chain_key)
    earlier: Sequence[list[int]] = connection.execute(select(_LINKS.c.change_ids).where(
        _LINKS.c.chain_key == chain_key, _LINKS.c.operation_id == operation_id)).scalars().all()
    covered = {change_id for ids in earlier for change_id in ids}
    changes = [(row.id, change_of(row)) for row in connection.execute(
        select(_CHANGES).where(_CHANGES.c.operation_id == operation_id).order_by(_CHANGES.c.id))
        if row.id not in covered]
    if earlier and not changes:
        return  # the chain holds all of it already
    entry = operation_of(connection.execute(select(_ENTRIES).where(_ENTRIES.c.id == operation_id)).one())
    last = connection.execute(select(_LINKS.c.seq, _LINKS.c.hash).where(_LINKS.c.chain_key == chain_key)
                              .order_by(_LINKS.c.seq.desc()).limit(1)).first()
    seq, previous = (last.seq + 1, last.hash) if last is not None else (1, GENESIS)
    connection.execute(insert(_LINKS).values(
        chain_key=chain_key, seq=seq, operation_id=operation_id, at=entry.at,
        change_ids=[change_id for change_id, _ in changes], previous_hash=previous,
        hash=link_hash(chain_key, seq, previous, entry, changes)))


# --- reading ---------------------------------------------------------------------------------


def _link(row) -> Link:
    return Link(row.chain_key, row.seq, row.operation_id, row.at, tuple(row.change_ids or ()), row.previous_hash,
                row.hash)


class SqlAlchemyAuditTrail:
    def __init__(self, session: Session) -> None:
        self._s = session

    def head(self, chain_key: str) -> tuple[int, str | None]:
        count = self._s.scalar(select(func.count()).select_from(_LINKS).where(_LINKS.c.chain_key == chain_key)) or 0
        newest = self._s.scalar(select(_LINKS.c.hash).where(_LINKS.c.chain_key == chain_key)
                                .order_by(_LINKS.c.seq.desc()).limit(1))
        return count, newest

    def _entries(self, operation_ids: set[int]) -> dict[int, Any]:
        return {r.id: r for r in self._s.execute(select(_ENTRIES).where(_ENTRIES.c.id.in_(operation_ids)))}

    def _changes(self, operation_ids: set[int]) -> dict[int, dict[int, Change]]:
        """{operation id: {change id: change}} of the entries' change rows."""
        found: dict[int, dict[int, Change]] = {}
        for row in self._s.execute(select(_CHANGES).where(_CHANGES.c.operation_id.in_(operation_ids))
                                   .order_by(_CHANGES.c.id)):
            found.setdefault(row.operation_id, {})[row.id] = change_of(row)
        return found

    def linked(self, chain_key: str) -> Iterator[LinkedEntry]:
        after = 0
        while True:
            links = [_link(r) for r in self._s.execute(
                select(_LINKS).where(_LINKS.c.chain_key == chain_key, _LINKS.c.seq > after)
                .order_by(_LINKS.c.seq).limit(_BATCH))]
            if not links:
                return
            operation_ids = {link.operation_id for link in links}
            entries, changes = self._entries(operation_ids), self._changes(operation_ids)
            covered: dict[int, set[int]] = {}  # by every link of the chain of these entries, before or after
            for row in self._s.execute(select(_LINKS.c.operation_id, _LINKS.c.change_ids).where(
                    _LINKS.c.chain_key == chain_key, _LINKS.c.operation_id.in_(operation_ids))):
                covered.setdefault(row.operation_id, set()).update(row.change_ids or ())
            for link in links:
                held = changes.get(link.operation_id, {})
                entry = entries.get(link.operation_id)
                yield LinkedEntry(link, None if entry is None else operation_of(entry),
                                  tuple((i, held[i]) for i in link.change_ids if i in held),
                                  bool(held.keys() - covered.get(link.operation_id, set())))
            after = links[-1].seq

    def _rows(self, links: list[Link]) -> list[TrailRow]:
        operation_ids = {link.operation_id for link in links}
        entries, changes = self._entries(operation_ids), self._changes(operation_ids)
        rows = []
        for link in links:
            entry, held = entries.get(link.operation_id), changes.get(link.operation_id, {})
            operation = None if entry is None else replace(
                operation_of(entry), changes=tuple(held[i] for i in link.change_ids if i in held))
            rows.append(TrailRow(link, operation))
        return rows

    def page(self, chain_key: str, since: datetime | None, until: datetime | None,
             request: PageRequest) -> Page[TrailRow]:
        query = select(_LINKS).where(_LINKS.c.chain_key == chain_key)
        if since is not None:
            query = query.where(_LINKS.c.at >= since)
        if until is not None:
            query = query.where(_LINKS.c.at < until)
        total = self._s.scalar(select(func.count()).select_from(query.subquery())) or 0
        links = [_link(r) for r in self._s.execute(query.order_by(_LINKS.c.seq.desc())
                                                   .offset(request.offset).limit(request.page_size))]
        return Page(request.start, request.page_size, total, self._rows(links))

    def newest(self, chain_key: str, limit: int) -> Iterator[TrailRow]:
        before, left = None, limit
        while left > 0:
            query = select(_LINKS).where(_LINKS.c.chain_key == chain_key)
            if before is not None:
                query = query.where(_LINKS.c.seq < before)
            links = [_link(r) for r in self._s.execute(query.order_by(_LINKS.c.seq.desc()).limit(min(_BATCH, left)))]
            if not links:
                return
            yield from self._rows(links)
            before, left = links[-1].seq, left - len(links)
