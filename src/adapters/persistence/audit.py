"""The operation log's capture (core/audit): every change a request of the API makes through a
session, recorded in the same transaction as the change.

No use case records anything. The API opens an audit context for each mutating request
(`recording`); while it is open, the session's events see every write:

- `after_flush`: objects the unit of work added, changed or removed, with the attribute history's
  old and new values (after_flush still shows the flush's history, and the new rows' ids);
- `do_orm_execute`: UPDATE and DELETE statements (a repository's conditional writes), whose rows'
  old values are read, in the same transaction, before the statement runs, and their new values
  after; INSERT statements with the values they were given.

What a transaction wrote waits in its session; a savepoint or a transaction rolled back takes its
part with it. At the outermost COMMIT, the operation (once per request, however many transactions
commit) and its changes are written, so a change cannot be committed without its entry, nor an
entry without its change. Secrets are written as "***"; bookkeeping tables and columns (sessions,
codes, the outbox, readings, a device's live state...) are not recorded at all. The entry, or the
batch, joins the audit trail of each of its readers whose FDA mode is on (fda_trail.py) in the
same transaction too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from typing import Any

from sqlalchemy import Table, and_, event, false, insert, inspect, or_, select
from sqlalchemy.orm import ORMExecuteState, Session, SessionTransaction, sessionmaker

from adapters.persistence.fda_trail import SWITCHES_SEEN, chain_entry
from adapters.persistence.models import (
    DeviceRow,
    OperationChangeRow,
    OperationLogRow,
    OperationReaderRow,
)
from core.audit.model import (
    ACTION_MAX,
    ADDRESS_MAX,
    LABEL_MAX,
    REDACTED,
    VALUE_MAX,
    Change,
    Operation,
    Outcome,
    clip,
)

# Tables whose rows are bookkeeping, not what a user changes: never recorded.
SKIPPED_TABLES = frozenset({
    "operation_log", "operation_log_changes", "operation_log_readers",  # the log itself
    "fda_trail_links",  # and its audit trail's chains (fda_trail.py)
    "login_sessions", "login_failures", "login_locks", "verification_codes", "captchas",
    "outbox_messages", "job_runs", "readings", "alarm_excursions", "payment_notifications",
    "expiry_reminders", "device_events", "system_messages", "premium_memberships",
    "card_attempts",  # wrong tries of a card number: a lock's bookkeeping
    "geofence_events",  # crossings the ingest found
    "waybill_lookups", "waybill_link_opens",  # the public quick query's rate limit, a share link's opens
    "revenue_paid", "revenue_refunded", "revenue_renewals",  # the statistics' rollup, kept by triggers
    "certificate_sequences", "calibration_reminders",  # a counter, and the due reminders posted
    "fda_signing_locks", "fda_signing_sessions",  # failed signing attempts, a session's last signature
})
# Columns kept by the system, not by a change (a device's live state, a key derived from a name).
SKIPPED_COLUMNS = frozenset({
    "name_key", "user_name_key", "last_seen_at", "online", "last_reading_at", "last_temperature", "last_humidity",
    "alarm_state", "last_latitude", "last_longitude", "last_accuracy_m", "last_position_at", "activated_at",
    "updated_at", "last_login_at",
    # where a device is known to be against a fence, which the ingest keeps (core/geofences/dwell.py)
    "inside", "pending_inside", "pending_since", "pending_count", "judged_at",
})
# A column whose name says it holds a secret is written as "***": password hashes (accounts, the
# devices' broker logins), token and code digests, secrets, salts, keys of APIs, one-time codes.
SECRET_COLUMN = re.compile(r"password|passwd|secret|token|digest|hash|salt|private_key|api_key|otp|captcha",
                           re.IGNORECASE)
# Exactly these names, on the tables that keep a code to prove (not a code that names a thing), and
# the provider's authorisation to charge a payer again.
SECRET_CODES = {("verification_codes", "code"), ("captchas", "code"), ("auto_renew_agreements", "mandate")}


@dataclass(frozen=True)
class ObjectKind:
    """How a table's rows appear in the log: their object type, the column naming one, and the
    columns saying whose it is."""

    object_type: str
    label: str | None = None
    owner: str | None = None
    device: str | None = None
    organization: str | None = None


# The product name of every table the log can record (tests/unit/test_operation_log.py checks, and
# that each has a label in the console's languages); kind_of's fallback only serves a table added
# without one, under its own name with its owner, device and organization by the usual columns.
KINDS: dict[str, ObjectKind] = {
    "accounts": ObjectKind("account", "user_name", owner="id"),
    "user_profiles": ObjectKind("profile", owner="account_id"),
    "devices": ObjectKind("device", "device_name", owner="owner_account_id", device="id",
                          organization="organization_id"),
    "device_credentials": ObjectKind("deviceCredentials", "username", device="device_id"),
    "alarm_rules": ObjectKind("alarmRule", "name", device="device_id"),
    "alarm_recipients": ObjectKind("alarmRecipient", device="device_id"),
    "alarm_push_settings": ObjectKind("alarmPushSetting", device="device_id"),
    "alarm_messages": ObjectKind("alarm", device="device_id"),
    "alarm_deferrals": ObjectKind("alarmDeferral"),
    "device_commands": ObjectKind("deviceParameters", device="device_id"),
    "device_maintenance": ObjectKind("maintenance", "person", device="device_id"),
    "projects": ObjectKind("project", "name", owner="owner_account_id"),
    "organizations": ObjectKind("organization", "name", owner="creator_account_id", organization="id"),
    "organization_members": ObjectKind("organizationMember", owner="account_id", organization="organization_id"),
    "organization_invitations": ObjectKind("invitation", organization="organization_id"),
    "report_schedules": ObjectKind("scheduledReport", "name", owner="owner_account_id"),
    "exports": ObjectKind("export", owner="account_id"),
    "orders": ObjectKind("order", "order_code", owner="account_id"),
    # an order's history: an operator's manual handling and why; the back office's, not the payer's
    "order_events": ObjectKind("orderEvent", "kind"),
    # a refund, who asked for it and who approved it; the back office's, not the payer's
    "order_refunds": ObjectKind("orderRefund", "refund_code"),
    "offline_purchases": ObjectKind("offlinePurchase", "remark", owner="account_id"),
    "offline_purchase_devices": ObjectKind("offlinePurchaseDevice", "guid"),
    # an invoice request, its orders and its PDF: asked for by the customer (who reads the entry as its
    # actor), decided by the back office; no owner, so the operator's entries stay the back office's
    "invoice_requests": ObjectKind("invoiceRequest"),
    "invoice_orders": ObjectKind("invoiceOrder", "order_code"),
    "invoice_files": ObjectKind("invoiceFile", "file_name"),
    "user_bills": ObjectKind("bill", owner="account_id"),
    "auto_renew_agreements": ObjectKind("autoRenewAgreement", owner="account_id"),
    "account_roles": ObjectKind("accountRole", owner="account_id"),
    "message_channels": ObjectKind("messageChannels", owner="account_id"),
    "home_tiles": ObjectKind("homeTiles", owner="account_id"),
    # promotions (back office): no owner, so a target account is not told of the activities aimed at it
    "activities": ObjectKind("activity", "name"),
    "activity_year_options": ObjectKind("activityOption"),
    "activity_accounts": ObjectKind("activityTarget"),
    "sms_packages": ObjectKind("smsPackage", "package_name"),
    # coupons and recharge cards: a batch is the back office's; a code or card is its user's once used
    "coupon_batches": ObjectKind("couponBatch", "remark"),
    "coupons": ObjectKind("coupon", "code", owner="account_id"),
    "card_batches": ObjectKind("cardBatch", "remark"),
    "recharge_cards": ObjectKind("rechargeCard", "card_number", owner="account_id", device="device_id"),
    # the catalogue the back office runs (core/catalogue): nobody's own, read by operators
    "service_packages": ObjectKind("servicePackage", "package_name"),
    "package_device_types": ObjectKind("packageDeviceType"),
    "service_levels": ObjectKind("serviceLevel", "level_name"),
    "level_year_options": ObjectKind("levelYearOption"),
    "service_items": ObjectKind("serviceItem", "item_name"),
    "level_items": ObjectKind("levelItem"),
    "catalogue_texts": ObjectKind("catalogueText", "name"),
    "package_gifts": ObjectKind("packageGift"),
    "order_lines": ObjectKind("orderLine", "device_name", device="device_id"),
    # sharing and custom roles: a role of an organization is read by its managers
    "device_shares": ObjectKind("deviceShare", owner="owner_account_id", device="device_id"),
    "device_permission_templates": ObjectKind("permissionTemplate", "name", owner="owner_account_id"),
    "roles": ObjectKind("role", "name", organization="organization_id"),
    "role_permissions": ObjectKind("rolePermission", "permission_name"),
    "permissions": ObjectKind("permission", "name"),
    "assets": ObjectKind("asset", "name", owner="owner_account_id", organization="organization_id"),
    "geofences": ObjectKind("geofence", "name", owner="owner_account_id", organization="organization_id"),
    "geofence_links": ObjectKind("geofenceDevice", device="device_id"),
    "waybills": ObjectKind("waybill", "order_number", owner="owner_account_id", organization="organization_id"),
    "waybill_devices": ObjectKind("waybillDevice", device="device_id"),
    "waybill_templates": ObjectKind("waybillTemplate", "name", owner="owner_account_id"),
    "waybill_share_links": ObjectKind("waybillShareLink", owner="created_by"),
    # calibration: an application is its applicant's (none: a customer without an account); its
    # lines, certificates (drafts the customer does not see) and prices are the lab's, not the
    # devices' readers'; a device's interval and due date are the device's
    "calibration_applications": ObjectKind("calibrationApplication", "number", owner="applicant_account_id"),
    "calibration_lines": ObjectKind("calibrationLine", "serial"),
    "calibration_certificates": ObjectKind("calibrationCertificate", "number"),
    "calibration_prices": ObjectKind("calibrationPrice"),
    "device_calibrations": ObjectKind("deviceCalibration", "certificate", device="device_id"),
    "device_type_calibrations": ObjectKind("deviceTypeCalibration"),
    "calibration_reports": ObjectKind("calibrationReport", "file_name"),
    "report_runs": ObjectKind("reportRun"),
    "export_certificates": ObjectKind("exportCertificate", "device_name"),
    # the platform's settings and reference data the back office keeps
    "custom_pages": ObjectKind("customPage", "title"),
    "payment_configs": ObjectKind("paymentConfig", "provider"),
    "notices": ObjectKind("notice"),
    "dict_items": ObjectKind("dictionaryItem", "data_value"),
    "device_types": ObjectKind("deviceType", "type_name"),
    "device_series": ObjectKind("deviceSeries", "series_name"),
    # a periodic report (issue 22) is its device's subject's record, the owner's or the organization's:
    # not the device's, whose sharees do not read it
    "fda_reports": ObjectKind("fdaReport", "title", owner="owner_account_id", organization="organization_id"),
    # electronic signatures (issue 22): the record's subject reads them, as it reads the record's log
    "fda_signatures": ObjectKind("signature", "record_label", owner="subject_account_id",
                                 organization="subject_organization_id"),
    "fda_endorsements": ObjectKind("endorsement", "name", owner="account_id", organization="organization_id"),
    "fda_signing_unlocks": ObjectKind("signingUnlock", owner="account_id", organization="organization_id"),
}
_OWNER_COLUMNS = ("owner_account_id", "account_id")
_LABEL_COLUMNS = ("name", "device_name", "user_name", "title")


def kind_of(table: Table) -> ObjectKind:
    known = KINDS.get(table.name)
    if known is not None:
        return known
    columns = set(table.columns.keys())

    def first(names: Iterable[str]) -> str | None:
        return next((n for n in names if n in columns), None)

    return ObjectKind(table.name, first(_LABEL_COLUMNS), first(_OWNER_COLUMNS),
                      "device_id" if "device_id" in columns else None,
                      "organization_id" if "organization_id" in columns else None)


def is_secret(table: str, column: str) -> bool:
    return bool(SECRET_COLUMN.search(column)) or (table, column) in SECRET_CODES


@dataclass
class AuditContext:
    """The request being recorded: who, from where, which call. `operation_id` is the entry once
    a transaction of the request committed one; later ones add their changes to it."""

    at: datetime
    actor_account_id: int | None
    actor_name: str | None
    client_address: str | None
    action: str
    method: str
    operation_id: int | None = None
    readers: set[tuple[int | None, int | None]] = field(default_factory=set)

    def operation(self, outcome: Outcome, status: int) -> Operation:
        return Operation(None, self.at, self.actor_account_id, clip(self.actor_name, 100),
                         clip(self.client_address, ADDRESS_MAX), clip(self.action, ACTION_MAX) or "", self.method,
                         outcome, status)


_current: ContextVar[AuditContext | None] = ContextVar("audit_context", default=None)


def current() -> AuditContext | None:
    return _current.get()


@contextmanager
def recording(audit: AuditContext):
    token = _current.set(audit)
    try:
        yield audit
    finally:
        _current.reset(token)


def open_recording(audit: AuditContext):
    """As `recording`, for a caller that opens and closes in two places (before and after a
    request): the token for close_recording."""
    return _current.set(audit)


def close_recording(token) -> AuditContext | None:
    audit = _current.get()
    _current.reset(token)
    return audit


# --- values ----------------------------------------------------------------------------------


def plain(value: Any) -> Any:
    """A value as JSON keeps it."""
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, Enum):
        return plain(value.value)
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<{len(bytes(value))} bytes>"
    text = repr(value) if isinstance(value, dict | list | tuple) else str(value)
    return text[:VALUE_MAX]


def _fields(table: Table, old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> dict[str, list[Any]]:
    """{column: [old, new]} of the columns that differ, secrets masked."""
    names = [c.name for c in table.columns if c.name not in SKIPPED_COLUMNS]
    changed: dict[str, list[Any]] = {}
    for name in names:
        before = old.get(name) if old is not None else None
        after = new.get(name) if new is not None else None
        if old is not None and new is not None and (name not in new or before == after):
            continue
        if old is None and after is None or new is None and before is None:
            continue
        if is_secret(table.name, name):
            changed[name] = [None if old is None else REDACTED, None if new is None else REDACTED]
        else:
            changed[name] = [plain(before), plain(after)]
    return changed


def _object_id(table: Table, row: Mapping[str, Any]) -> str | None:
    keys = [row.get(c.name) for c in table.primary_key.columns]
    if any(k is None for k in keys):
        return None
    return clip("/".join(str(k) for k in keys), 64)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass
class _Draft:
    """A change as captured, before its device's owner is known."""

    table: Table
    kind: str
    old: Mapping[str, Any] | None
    new: Mapping[str, Any] | None

    def change(self, devices: Mapping[int, tuple[int, int | None]]) -> Change | None:
        fields = _fields(self.table, self.old, self.new)
        if not fields:
            return None
        row = {**(self.old or {}), **(self.new or {})}
        kind = kind_of(self.table)
        label = row.get(kind.label) if kind.label else None
        owner = _int(row.get(kind.owner)) if kind.owner else None
        organization = _int(row.get(kind.organization)) if kind.organization else None
        device = _int(row.get(kind.device)) if kind.device else None
        if device is not None and device in devices and self.table.name != "devices":
            owner = owner if owner is not None else devices[device][0]
            organization = organization if organization is not None else devices[device][1]
        if self.table.name == "devices" and self.old is not None:
            owner = _int(self.old.get("owner_account_id")) or owner  # whose it was when it changed
            organization = _int(self.old.get("organization_id")) if "organization_id" in self.old else organization
        return Change(kind.object_type, _object_id(self.table, row), self.kind, fields,
                      clip(None if label is None else str(label), LABEL_MAX), owner, device, organization)

    def device_id(self) -> int | None:
        device_column = kind_of(self.table).device
        if device_column is None or self.table.name == "devices":
            return None
        return _int({**(self.old or {}), **(self.new or {})}.get(device_column))


# --- capture ---------------------------------------------------------------------------------

_PENDING = "coldchain.audit.pending"  # [(transaction, draft)] of the session's open transaction
_WRITTEN = "coldchain.audit.written"  # the operation id a commit in progress wrote


def _note(session: Session, drafts: Iterable[_Draft]) -> None:
    transaction = session.get_nested_transaction() or session.get_transaction()
    session.info.setdefault(_PENDING, []).extend((transaction, d) for d in drafts)


def _columns(obj: Any) -> tuple[Table, list[tuple[str, str]]] | None:
    mapper = inspect(obj).mapper
    table = mapper.local_table
    if not isinstance(table, Table) or table.name in SKIPPED_TABLES:
        return None
    return table, [(prop.key, prop.columns[0].name) for prop in mapper.column_attrs
                   if prop.columns[0].table is table]


def _after_flush(session: Session, _context) -> None:
    if _current.get() is None:
        return
    drafts = []
    for obj in session.new:
        found = _columns(obj)
        if found:
            table, columns = found
            state = inspect(obj)
            new = {name: state.attrs[key].loaded_value for key, name in columns}
            drafts.append(_Draft(table, "insert", None, {k: v for k, v in new.items() if not _missing(v)}))
    for obj in session.dirty:
        found = _columns(obj)
        if found and session.is_modified(obj, include_collections=False):
            table, columns = found
            state = inspect(obj)
            old, new = {}, {}
            for key, name in columns:
                history = state.attrs[key].history
                if history.has_changes():
                    old[name] = history.deleted[0] if history.deleted else None
                    new[name] = history.added[0] if history.added else None
                else:
                    value = history.unchanged[0] if history.unchanged else None
                    old[name] = value
            drafts.append(_Draft(table, "update", old, new))
    for obj in session.deleted:
        found = _columns(obj)
        if found:
            table, columns = found
            state = inspect(obj)
            old = {name: state.attrs[key].loaded_value for key, name in columns}
            drafts.append(_Draft(table, "delete", {k: v for k, v in old.items() if not _missing(v)}, None))
    _note(session, drafts)


def _missing(value: Any) -> bool:
    from sqlalchemy.orm.base import NO_VALUE
    return value is NO_VALUE


_IN_BATCH = 500


def _by_keys(table: Table, rows: Sequence[Mapping[str, Any]]):
    keys = list(table.primary_key.columns)
    for i in range(0, len(rows), _IN_BATCH):
        batch = rows[i:i + _IN_BATCH]
        if len(keys) == 1:
            yield keys[0].in_([r[keys[0].name] for r in batch])
        else:
            yield or_(*[and_(*[k == r[k.name] for k in keys]) for r in batch])


def _on_execute(state: ORMExecuteState):
    if _current.get() is None or state.is_select or not (state.is_update or state.is_delete or state.is_insert):
        return None
    statement: Any = state.statement
    table = getattr(statement, "table", None)
    table = getattr(table, "__table__", table)
    if not isinstance(table, Table) or table.name in SKIPPED_TABLES:
        return None
    connection = state.session.connection()
    if state.is_insert:
        return _on_insert(state, table)
    where = statement.whereclause
    parameters: Any = state.parameters
    keys = [c.name for c in table.primary_key.columns]
    if isinstance(parameters, list | tuple):
        # an UPDATE of many rows by primary key, one set of parameters each: those rows
        rows = [p for p in parameters if all(k in p for k in keys)]
        conditions = list(_by_keys(table, rows))
        query = select(table).where(or_(*conditions)) if conditions else select(table).where(false())
        params: dict[str, Any] = {}
    else:
        query = select(table) if where is None else select(table).where(where)
        params = dict(parameters or {})  # bound parameters the WHERE clause may name
    before: list[dict[str, Any]] = [dict(r) for r in connection.execute(query, params).mappings()]
    result: Any = state.invoke_statement()
    if not before:
        return result
    if state.is_delete:
        _note(state.session, [_Draft(table, "delete", row, None) for row in before])
        return result
    frozen = result.freeze() if result.returns_rows else None
    after: dict[str | None, dict[str, Any]] = {}
    for condition in _by_keys(table, before):
        for found in connection.execute(select(table).where(condition)).mappings():
            after[_object_id(table, dict(found))] = dict(found)
    drafts = []
    for old in before:
        new = after.get(_object_id(table, old))
        if new is not None:
            drafts.append(_Draft(table, "update", old, new))
    _note(state.session, drafts)
    return frozen() if frozen is not None else result


def _on_insert(state: ORMExecuteState, table: Table):
    statement: Any = state.statement
    given = statement.compile().params  # the .values() of the statement
    rows: list[dict[str, Any]]
    parameters: Any = state.parameters
    if isinstance(parameters, list | tuple):
        rows = [{**given, **dict(p)} for p in parameters] or [dict(given)]
    else:
        rows = [{**given, **dict(parameters or {})}]
    rows = [{k: v for k, v in r.items() if k in table.columns} for r in rows]
    result: Any = state.invoke_statement()
    frozen = None
    if len(rows) == 1:
        keys = [c.name for c in table.primary_key.columns]
        if result.returns_rows:
            frozen = result.freeze()
            returned = frozen.data[0]._mapping if frozen.data else {}
            rows[0].update({k: returned[k] for k in keys if k in returned})
        else:
            with suppress(Exception):  # an executemany or a dialect without it: the id stays unknown
                rows[0].update(dict(zip(keys, result.inserted_primary_key or (), strict=False)))
    _note(state.session, [_Draft(table, "insert", None, r) for r in rows])
    return frozen() if frozen is not None else result


def _rolled_back(session: Session, previous: SessionTransaction) -> None:
    pending = session.info.get(_PENDING)
    if not pending:
        return

    def within(transaction: SessionTransaction | None) -> bool:
        while transaction is not None:
            if transaction is previous:
                return True
            transaction = transaction.parent
        return False

    session.info[_PENDING] = [(t, d) for t, d in pending if not within(t)]


def _transaction_ended(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:
        session.info.pop(_PENDING, None)  # committed (written) or closed without a commit
        session.info.pop(SWITCHES_SEEN, None)  # the FDA switches read for the trail, as of this transaction


def _before_commit(session: Session) -> None:
    audit = _current.get()
    if audit is None or session.in_nested_transaction():
        return
    session.flush()  # what the commit would flush, captured now
    pending = session.info.pop(_PENDING, [])
    if not pending:
        return
    connection = session.connection()
    device_ids = {d.device_id() for _, d in pending} - {None}
    devices: dict[int, tuple[int, int | None]] = {}
    if device_ids:
        for row in connection.execute(select(DeviceRow.id, DeviceRow.owner_account_id, DeviceRow.organization_id)
                                      .where(DeviceRow.id.in_(device_ids))):
            devices[row.id] = (row.owner_account_id, row.organization_id)
    changes = [c for _, d in pending if (c := d.change(devices)) is not None]
    if not changes:
        return
    operation_id = audit.operation_id
    if operation_id is None:
        operation_id = write_operation(connection, audit.operation(Outcome.SUCCEEDED, 200))
        audit.readers.add((audit.actor_account_id, None))
        session.info[_WRITTEN] = operation_id
    write_changes(connection, operation_id, audit.at, changes, audit.readers)
    # the audit trail of every FDA-on reader of the entry, in this same transaction
    chain_entry(session, operation_id, audit.readers, changes)


def _after_commit(session: Session) -> None:
    operation_id = session.info.pop(_WRITTEN, None)
    audit = _current.get()
    if operation_id is not None and audit is not None:
        audit.operation_id = operation_id


def _after_rollback(session: Session) -> None:
    if not session.in_nested_transaction():
        session.info.pop(_WRITTEN, None)


def write_operation(connection, operation: Operation) -> int:
    """The entry itself, and its actor as a reader."""
    result = connection.execute(insert(OperationLogRow).values(
        at=operation.at, actor_account_id=operation.actor_account_id, actor_name=operation.actor_name,
        client_address=operation.client_address, action=operation.action, method=operation.method,
        outcome=operation.outcome.value, status=operation.status))
    operation_id = result.inserted_primary_key[0]
    if operation.actor_account_id is not None:
        connection.execute(insert(OperationReaderRow).values(operation_id=operation_id,
                                                             account_id=operation.actor_account_id,
                                                             organization_id=None, at=operation.at))
    return operation_id


def write_changes(connection, operation_id: int, at: datetime, changes: Sequence[Change],
                  known: set[tuple[int | None, int | None]]) -> None:
    connection.execute(insert(OperationChangeRow), [
        {"operation_id": operation_id, "object_type": c.object_type[:50], "object_id": c.object_id, "kind": c.kind,
         "label": c.label, "owner_account_id": c.owner_account_id, "device_id": c.device_id,
         "organization_id": c.organization_id, "fields": c.fields} for c in changes])
    readers: set[tuple[int | None, int | None]] = {(c.owner_account_id, None) for c in changes
                                                   if c.owner_account_id is not None}
    readers |= {(None, c.organization_id) for c in changes if c.organization_id is not None}
    readers -= known
    if readers:
        connection.execute(insert(OperationReaderRow), [
            {"operation_id": operation_id, "account_id": a, "organization_id": o, "at": at} for a, o in readers])
        known.update(readers)


_LISTENERS = (("after_flush", _after_flush), ("do_orm_execute", _on_execute),
              ("after_soft_rollback", _rolled_back), ("after_transaction_end", _transaction_ended),
              ("before_commit", _before_commit), ("after_commit", _after_commit),
              ("after_rollback", _after_rollback))


def capture_changes(session_factory: sessionmaker) -> None:
    """Attach the capture to every session the factory makes (once, however often called)."""
    for name, listener in _LISTENERS:
        if not event.contains(session_factory, name, listener):
            event.listen(session_factory, name, listener)
