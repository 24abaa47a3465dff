"""The operation log's rows as core.audit's Operation and Change: one reading for the log's pages
(operation_log.py) and for the audit trail's hashes (fda_trail.py), so what a link covers is what
the log shows. Takes ORM rows and Core rows alike (both read by column name)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.audit.model import Change, Operation, Outcome


def change_of(row: Any) -> Change:
    return Change(row.object_type, row.object_id, row.kind, dict(row.fields or {}), row.label, row.owner_account_id,
                  row.device_id, row.organization_id)


def operation_of(row: Any, changes: Sequence[Any] = ()) -> Operation:
    return Operation(row.id, row.at, row.actor_account_id, row.actor_name, row.client_address, row.action, row.method,
                     Outcome(row.outcome), row.status, tuple(change_of(c) for c in changes))
