"""The tamper-evident audit trail (21 CFR 11.10(e)) over the operation log (core.audit).

While FDA mode is on for a subject (an account's own records, or an organization's), every
operation-log entry the subject reads (operation_log_readers), and each later batch of changes a
request adds to it, is appended to the subject's chain as a link: {chain key, seq 1, 2, ..., the
entry, the change rows it covers, the previous link's hash, its own hash}. The link is written in
the transaction that writes the entry, so neither exists without the other. A change of the
subject's FDA switch is always chained, so switching off is the last link of a period.

The hash of a link (version 1), for an auditor to recompute:

    SHA-256, lower-case hex, of the UTF-8 bytes of
    json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)

    document = {
      "v": 1,
      "chain": "a:<account id>" | "o:<organization id>",
      "seq": <the link's number in its chain, from 1>,
      "previous": <the previous link's hash; 64 zeros for seq 1>,
      "entry": {"id", "at", "actorAccountId", "actorName", "clientAddress", "action", "method",
                "outcome", "status"},
      "changes": [{"id", "objectType", "objectId", "kind", "label", "ownerAccountId", "deviceId",
                   "organizationId", "fields"}, ...]   (the covered change rows, by id ascending)
    }

Keys are written in code-point order at every level (sort_keys), text as ASCII with \\uXXXX escapes
(Python's json module, lower-case hex), numbers as Python writes them, absent values as null.
`at` is the entry's instant in UTC, always with six fraction digits: "2026-03-01T08:15:00.000000Z".
`fields` is the change's {column: [old, new]} exactly as the log stores it (JSON; secrets "***").

What the chain proves: a changed or removed entry, change, or link breaks it at that link; a link
removed from the middle leaves a gap; a change row slipped into a chained entry is not covered. What
it cannot prove alone: removing the newest links (with their entries) of a chain, or rewriting a
whole chain from some link on, leaves a shorter chain that still verifies. The export's last hash
is the anchor against that: an auditor who keeps it finds a later chain without it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from core.audit.model import Change, Operation
from core.fda.model import Subject
from core.shared.messages import N_

VERSION = 1
GENESIS = "0" * 64  # the "previous" of a chain's first link


def instant(at: datetime) -> str:
    """An instant as the document writes it: UTC, microseconds, "Z"."""
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def document(chain_key: str, seq: int, previous_hash: str, entry: Operation,
             changes: Sequence[tuple[int, Change]]) -> bytes:
    """The canonical bytes a link's hash is taken of (see the module's documentation)."""
    body = {
        "v": VERSION, "chain": chain_key, "seq": seq, "previous": previous_hash,
        "entry": {"id": entry.id, "at": instant(entry.at), "actorAccountId": entry.actor_account_id,
                  "actorName": entry.actor_name, "clientAddress": entry.client_address, "action": entry.action,
                  "method": entry.method, "outcome": entry.outcome.value, "status": entry.status},
        "changes": [{"id": change_id, "objectType": c.object_type, "objectId": c.object_id, "kind": c.kind,
                     "label": c.label, "ownerAccountId": c.owner_account_id, "deviceId": c.device_id,
                     "organizationId": c.organization_id, "fields": c.fields}
                    for change_id, c in sorted(changes, key=lambda pair: pair[0])],
    }
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def link_hash(chain_key: str, seq: int, previous_hash: str, entry: Operation,
              changes: Sequence[tuple[int, Change]]) -> str:
    return hashlib.sha256(document(chain_key, seq, previous_hash, entry, changes)).hexdigest()


@dataclass(frozen=True)
class Link:
    chain_key: str
    seq: int
    operation_id: int
    at: datetime  # the entry's time, kept with the link
    change_ids: tuple[int, ...]
    previous_hash: str
    hash: str


@dataclass(frozen=True)
class LinkedEntry:
    """A link, and what the log holds now of what it covers."""

    link: Link
    entry: Operation | None  # None: no such entry any more
    changes: tuple[tuple[int, Change], ...]  # the covered changes still under the entry, by id
    unchained: bool = False  # the entry holds a change no link of the chain covers


@dataclass(frozen=True)
class TrailRow:
    """A link as the trail lists it: its entry with the changes the link covers (None when the
    entry is no longer in the log: the verification names that link)."""

    link: Link
    operation: Operation | None


class Break(StrEnum):
    LINK_MISSING = "linkMissing"
    LINK_ALTERED = "linkAltered"
    ENTRY_MISSING = "entryMissing"
    ENTRY_CHANGED = "entryChanged"
    CHANGE_ADDED = "changeAdded"


REASONS = {
    Break.LINK_MISSING: N_("A link of the trail before this one was removed"),
    Break.LINK_ALTERED: N_("This link does not follow the one before it: a link was changed"),
    Break.ENTRY_MISSING: N_("The entry, or one of its changes, was removed from the operation log"),
    Break.ENTRY_CHANGED: N_("The entry or its changes differ from what was chained"),
    Break.CHANGE_ADDED: N_("A change was added to the entry after it was chained"),
}


@dataclass(frozen=True)
class BrokenLink:
    seq: int
    operation_id: int
    at: datetime
    reason: Break


@dataclass(frozen=True)
class Verification:
    subject: Subject
    name: str  # the account's user name or the organization's name
    links: int
    first_broken: BrokenLink | None
    checked_at: datetime
    head_hash: str | None  # the newest link's hash: the anchor an auditor keeps

    @property
    def verified(self) -> bool:
        return self.first_broken is None


def _broken(record: LinkedEntry, expected_seq: int, previous_hash: str) -> Break | None:
    link = record.link
    if link.seq != expected_seq:
        return Break.LINK_MISSING
    if link.previous_hash != previous_hash:
        return Break.LINK_ALTERED
    if record.entry is None or len(record.changes) != len(link.change_ids):
        return Break.ENTRY_MISSING
    if link_hash(link.chain_key, link.seq, link.previous_hash, record.entry, record.changes) != link.hash:
        return Break.ENTRY_CHANGED
    if record.unchained:
        return Break.CHANGE_ADDED
    return None


def first_broken(records: Iterable[LinkedEntry]) -> BrokenLink | None:
    """Walk a chain, oldest link first: the first link that does not hold, or None when all do."""
    expected_seq, previous_hash = 1, GENESIS
    for record in records:
        link = record.link
        reason = _broken(record, expected_seq, previous_hash)
        if reason is not None:
            return BrokenLink(link.seq, link.operation_id, link.at, reason)
        expected_seq, previous_hash = link.seq + 1, link.hash
    return None
