"""The API's side of the operation log: each mutating call of the API is recorded (who, from
where, which call) by the persistence adapter's capture (adapters/persistence/audit.py), which the
app opens here before the call and closes after it. A call answered with an error after the
caller was known leaves an entry of its own, refused (4xx) or failed (5xx), with no changes: its
work was rolled back, the attempt is kept."""

from __future__ import annotations

import logging

from flask import Flask, g, request
from werkzeug.routing import Rule

from adapters.persistence.audit import AuditContext, close_recording, open_recording
from core.audit.model import Outcome
from entrypoints.api import context

MUTATING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
log = logging.getLogger("coldchain.audit")


def action_of(rule: str) -> str:
    """A route's call name, without the API's prefix: "Device.update" for /api/device/Device/update
    (the web console's labels are keyed by it); a path's variables (a camp's notification) are not part of it."""
    parts = [p for p in rule.split("/") if p and not p.startswith("<")][2:]  # "api", then "device", "base"...
    return ".".join(parts) or rule


def action_code() -> str:
    """The call's name (action_of) of the request."""
    return action_of(request.url_rule.rule if request.url_rule is not None else request.path)


def recorded(rule: Rule, method: str) -> bool:
    """Whether a call of `rule` by `method` is recorded when it changes something, or when it is
    refused after its caller is known: every mutating call under /api/."""
    return method in MUTATING and rule.rule.startswith("/api/")


def start(app: Flask) -> None:
    """Before the call runs, once the caller is known (None for a public call)."""
    if request.url_rule is None or not recorded(request.url_rule, request.method):
        return
    principal = g.get("principal")
    audit = AuditContext(at=context.container().clock().now(),
                         actor_account_id=principal.account_id if principal else None,
                         actor_name=principal.user_name if principal else None,
                         client_address=request.remote_addr, action=action_code(), method=request.method)
    g.audit_token = open_recording(audit)


def note_status(status: int) -> None:
    if "audit_token" in g:
        g.audit_status = status


def finish() -> None:
    """After the call, its session closed: a refusal or failure after the caller was known is
    recorded in a transaction of its own."""
    token = g.pop("audit_token", None)
    if token is None:
        return
    audit = close_recording(token)
    status = g.pop("audit_status", 500)
    if audit is None or audit.actor_account_id is None or status < 400:
        return
    try:
        context.container().record_operation()(audit.operation(Outcome.of_status(status), status))
    except Exception:  # noqa: BLE001 - the answer is already given; the database may be what failed
        log.exception("could not record the refused call %s", audit.action)
