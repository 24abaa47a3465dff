"""The operation log: one entry per change made through the API (an operation), with what it
changed, field by field. Entries are only ever added; Part 11's audit trail signs and chains them
rather than keeping a second record."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

# The longest texts an entry keeps; what is longer is cut, never refused: the change it records
# was already accepted.
ACTION_MAX = 100
ADDRESS_MAX = 45  # an IPv6 address written out in full
LABEL_MAX = 100
VALUE_MAX = 500
# What an export holds at most: the newest rows of the filter.
EXPORT_MAX = 50_000
REDACTED = "***"


class Outcome(StrEnum):
    SUCCEEDED = "succeeded"
    REFUSED = "refused"  # the API answered 4xx: nothing changed
    FAILED = "failed"  # the API answered 5xx: nothing changed

    @classmethod
    def of_status(cls, status: int) -> Outcome:
        if status < 400:
            return cls.SUCCEEDED
        return cls.REFUSED if status < 500 else cls.FAILED


@dataclass(frozen=True)
class Change:
    """One object an operation added, changed or removed: `fields` maps each changed field to
    [old, new] (None for a field of an object added, or removed). The owner, device and
    organization are those the object belonged to when it changed, kept so that who may read the
    entry never depends on who owns the object later."""

    object_type: str
    object_id: str | None
    kind: str  # "insert", "update" or "delete"
    fields: dict[str, list[Any]]
    label: str | None = None
    owner_account_id: int | None = None
    device_id: int | None = None
    organization_id: int | None = None


@dataclass(frozen=True)
class Operation:
    id: int | None
    at: datetime
    actor_account_id: int | None
    actor_name: str | None
    client_address: str | None
    action: str
    method: str
    outcome: Outcome
    status: int
    changes: tuple[Change, ...] = field(default=())

    def readers(self) -> tuple[set[int], set[int]]:
        """The accounts and organizations whose log shows the entry: the actor, and the owners
        and organizations of every object it changed."""
        accounts = {c.owner_account_id for c in self.changes if c.owner_account_id is not None}
        if self.actor_account_id is not None:
            accounts.add(self.actor_account_id)
        return accounts, {c.organization_id for c in self.changes if c.organization_id is not None}


@dataclass(frozen=True)
class Scope:
    """Whose entries a reader sees: everybody's (an operator), or those where they, or an
    organization they manage, are a reader."""

    account_id: int
    everything: bool = False
    organization_ids: frozenset[int] = frozenset()


@dataclass(frozen=True)
class OperationFilter:
    since: datetime | None = None
    until: datetime | None = None
    user_name: str | None = None  # part of the actor's name at the time, any case
    object_type: str | None = None
    object_id: str | None = None
    action: str | None = None  # part of the action code, any case
    outcome: Outcome | None = None
    device_id: int | None = None


def clip(text: str | None, limit: int) -> str | None:
    return None if text is None else text[:limit]
