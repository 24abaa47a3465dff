"""The recharge statistics' rollup on PostgreSQL (tables revenue_paid, revenue_refunded,
revenue_renewals; migration 0046): triggers on orders, order_lines and order_refunds add each
statement's change to the sums in the same transaction, whatever code or console wrote it, so the
rollup always equals a recount of the orders (revenue_rebuild() is that recount).

Each trigger takes away what the rows it changed counted for before and adds what they count for
now (statement-level, from the transition tables, so a bulk insert is one set operation): the
signed rows are `moved` below. An order deleted takes its part away before its lines and refunds
go with it (a row trigger BEFORE DELETE: the cascade runs before any AFTER trigger). TRUNCATE
recounts. The writes upsert in key order, so two transactions touching the same buckets queue
rather than deadlock.

A dimension of the statistics is a column of the tables' keys, in KEYS below and in revenue.py's
groupings (the order's platform, camp, is the latest)."""

from __future__ import annotations

from core.ordering.model import OrderKind, PayStatus
from core.ordering.refund_model import RefundStatus

BUCKET_SECONDS = 900  # a quarter of an hour: every zone's offset since 1972 is a multiple of it
_ORIGIN = "TIMESTAMPTZ '2000-01-01 00:00:00+00'"
_PAID = ", ".join(str(int(s)) for s in (PayStatus.PAID, PayStatus.PARTIALLY_REFUNDED, PayStatus.REFUNDED))
_SUCCEEDED = int(RefundStatus.SUCCEEDED)
_SERVICE = int(OrderKind.SERVICE)

# each table's key, and what the key is read from (m: a signed order row, r: a signed refund row)
KEYS = {
    "revenue_paid": ("bucket", "currency", "pay_type", "kind", "level_id", "camp"),
    "revenue_refunded": ("bucket", "currency", "pay_type", "camp"),
    "revenue_renewals": ("bucket", "device_id"),
}
_SUMS = {"revenue_paid": ("cents", "orders"), "revenue_refunded": ("cents", "refunds"),
         "revenue_renewals": ("lines",)}
# the orders' columns the statistics read: an update of none of them changes nothing
_ORDER_COLUMNS = ("status", "paid_at", "pay_fee_cents", "currency", "pay_type", "kind", "camp")


def bucket(at: str) -> str:
    return f"date_bin('{BUCKET_SECONDS} seconds', {at}, {_ORIGIN})"


def _upsert(table: str, select: str) -> str:
    """Add `select`'s signed sums (key columns then sums, in KEYS/_SUMS order) to `table`."""
    keys, sums = KEYS[table], _SUMS[table]
    columns = ", ".join((*keys, *sums))
    order = ", ".join(str(i + 1) for i in range(len(keys)))
    added = ", ".join(f"{s} = {table}.{s} + EXCLUDED.{s}" for s in sums)
    return (f"INSERT INTO {table} ({columns}) SELECT * FROM ({select}) AS delta ORDER BY {order} "
            f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {added}")


def _signed(old: str, new: str) -> str:
    return f"(SELECT -1 AS sign, o.* FROM {old} AS o UNION ALL SELECT 1, n.* FROM {new} AS n)"


def _order_changes(old: str, new: str) -> list[str]:
    """What orders `old` counted for taken away, what `new` count for added: their payment (under
    the level their lines name), their service lines' devices, their refunds (by the order's pay type)."""
    moved = _signed(old, new)
    levels = (f"(SELECT order_id, min(level_id) AS level_id FROM order_lines "
              f"WHERE order_id IN (SELECT id FROM {moved} AS x) GROUP BY order_id)")
    paid = f"m.status IN ({_PAID}) AND m.paid_at IS NOT NULL"
    return [
        _upsert("revenue_paid", f"SELECT {bucket('m.paid_at')}, m.currency, m.pay_type, m.kind, "
                f"coalesce(lv.level_id, 0), m.camp, sum(m.sign * coalesce(m.pay_fee_cents, 0)), sum(m.sign) "
                f"FROM {moved} AS m LEFT JOIN {levels} AS lv ON lv.order_id = m.id WHERE {paid} "
                f"GROUP BY 1, 2, 3, 4, 5, 6 "
                f"HAVING sum(m.sign) <> 0 OR sum(m.sign * coalesce(m.pay_fee_cents, 0)) <> 0"),
        _upsert("revenue_renewals", f"SELECT {bucket('m.paid_at')}, l.device_id, sum(m.sign) "
                f"FROM {moved} AS m JOIN order_lines AS l ON l.order_id = m.id WHERE {paid} AND m.kind = {_SERVICE} "
                f"GROUP BY 1, 2 HAVING sum(m.sign) <> 0"),
        _upsert("revenue_refunded", f"SELECT {bucket('r.finished_at')}, r.currency, m.pay_type, m.camp, "
                f"sum(m.sign * r.amount_cents), sum(m.sign) FROM {moved} AS m JOIN order_refunds AS r "
                f"ON r.order_id = m.id WHERE r.status = {_SUCCEEDED} AND r.finished_at IS NOT NULL "
                f"GROUP BY 1, 2, 3, 4 HAVING sum(m.sign) <> 0 OR sum(m.sign * r.amount_cents) <> 0"),
    ]


def _line_changes(old: str, new: str) -> list[str]:
    """Lines added, changed or removed: a paid order's level moves (its least level before the
    statement, from the lines now less the new plus the old, against now), its devices change."""
    touched = f"(SELECT order_id FROM {old} AS o UNION SELECT order_id FROM {new} AS n)"
    before = (f"(SELECT l.order_id, l.level_id FROM order_lines AS l JOIN {touched} AS t ON t.order_id = l.order_id "
              f"WHERE NOT EXISTS (SELECT FROM {new} AS n WHERE n.id = l.id) "
              f"UNION ALL SELECT order_id, level_id FROM {old} AS o)")
    now = (f"(SELECT l.order_id, l.level_id FROM order_lines AS l "
           f"JOIN {touched} AS t ON t.order_id = l.order_id)")
    levels = (f"(SELECT t.order_id, coalesce(w.level_id, 0) AS was, coalesce(i.level_id, 0) AS now FROM {touched} AS t "
              f"LEFT JOIN (SELECT order_id, min(level_id) AS level_id FROM {before} AS b GROUP BY order_id) AS w "
              f"ON w.order_id = t.order_id "
              f"LEFT JOIN (SELECT order_id, min(level_id) AS level_id FROM {now} AS c GROUP BY order_id) AS i "
              f"ON i.order_id = t.order_id)")
    paid = f"m.status IN ({_PAID}) AND m.paid_at IS NOT NULL"
    return [
        _upsert("revenue_paid", f"SELECT {bucket('m.paid_at')}, m.currency, m.pay_type, m.kind, v.level_id, "
                f"m.camp, sum(v.sign * coalesce(m.pay_fee_cents, 0)), sum(v.sign) FROM orders AS m "
                f"JOIN {levels} AS lv ON lv.order_id = m.id AND lv.was <> lv.now "
                f"CROSS JOIN LATERAL (VALUES (lv.was, -1), (lv.now, 1)) AS v(level_id, sign) WHERE {paid} "
                f"GROUP BY 1, 2, 3, 4, 5, 6 "
                f"HAVING sum(v.sign) <> 0 OR sum(v.sign * coalesce(m.pay_fee_cents, 0)) <> 0"),
        _upsert("revenue_renewals", f"SELECT {bucket('m.paid_at')}, x.device_id, sum(x.sign) "
                f"FROM {_signed(old, new)} AS x JOIN orders AS m ON m.id = x.order_id "
                f"WHERE {paid} AND m.kind = {_SERVICE} GROUP BY 1, 2 HAVING sum(x.sign) <> 0"),
    ]


def _refund_changes(old: str, new: str) -> list[str]:
    return [_upsert("revenue_refunded", f"SELECT {bucket('r.finished_at')}, r.currency, m.pay_type, m.camp, "
                    f"sum(r.sign * r.amount_cents), sum(r.sign) FROM {_signed(old, new)} AS r "
                    f"JOIN orders AS m ON m.id = r.order_id "
                    f"WHERE r.status = {_SUCCEEDED} AND r.finished_at IS NOT NULL "
                    f"GROUP BY 1, 2, 3, 4 HAVING sum(r.sign) <> 0 OR sum(r.sign * r.amount_cents) <> 0")]


REBUILD = [
    "DELETE FROM revenue_paid", "DELETE FROM revenue_refunded", "DELETE FROM revenue_renewals",
    *_order_changes("(SELECT * FROM orders WHERE false)", "orders"),
]


def _function(name: str, statements: list[str], returns: str = "NULL") -> str:
    body = ";\n    ".join(statements)
    return (f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $fn$\n"
            f"BEGIN\n    {body};\n    RETURN {returns};\nEND\n$fn$")


def _changed(side: str) -> str:
    """The rows of an UPDATE's `side` (o, the old, or n, the new) whose statistics' columns moved."""
    pairs = " OR ".join(f"o.{c} IS DISTINCT FROM n.{c}" for c in _ORDER_COLUMNS)
    return f"(SELECT {side}.* FROM old_rows AS o JOIN new_rows AS n ON n.id = o.id WHERE {pairs})"


def _none(table: str) -> str:
    return f"(SELECT * FROM {table} WHERE false)"


# (trigger, table, when, function, statements); statement-level AFTER triggers see transition tables
_TRIGGERS = [
    ("revenue_orders_inserted", "orders", "AFTER INSERT", "REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT",
     _order_changes(_none("orders"), "new_rows")),
    ("revenue_orders_updated", "orders", "AFTER UPDATE",
     "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT",
     _order_changes(_changed("o"), _changed("n"))),
    ("revenue_order_deleted", "orders", "BEFORE DELETE", "FOR EACH ROW",
     _order_changes("(SELECT OLD.*)", _none("orders"))),
    ("revenue_lines_inserted", "order_lines", "AFTER INSERT", "REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT",
     _line_changes(_none("order_lines"), "new_rows")),
    ("revenue_lines_updated", "order_lines", "AFTER UPDATE",
     "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT",
     _line_changes("old_rows", "new_rows")),
    ("revenue_lines_deleted", "order_lines", "AFTER DELETE", "REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT",
     _line_changes("old_rows", _none("order_lines"))),
    ("revenue_refunds_inserted", "order_refunds", "AFTER INSERT",
     "REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT", _refund_changes(_none("order_refunds"), "new_rows")),
    ("revenue_refunds_updated", "order_refunds", "AFTER UPDATE",
     "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT",
     _refund_changes("old_rows", "new_rows")),
    ("revenue_refunds_deleted", "order_refunds", "AFTER DELETE",
     "REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT", _refund_changes("old_rows", _none("order_refunds"))),
]
_TRUNCATED = ("orders", "order_lines", "order_refunds")


def create_statements() -> list[str]:
    """PostgreSQL: the recount, the triggers, and a first recount of what is there."""
    statements = [
        "CREATE OR REPLACE FUNCTION revenue_rebuild() RETURNS void LANGUAGE plpgsql AS $fn$\nBEGIN\n    "
        + ";\n    ".join(REBUILD) + ";\nEND\n$fn$",
        _function("revenue_truncated", ["PERFORM revenue_rebuild()"]),
    ]
    for trigger, table, when, each, body in _TRIGGERS:
        statements.append(_function(trigger, body, "OLD" if when.startswith("BEFORE") else "NULL"))
        statements.append(f"CREATE TRIGGER {trigger} {when} ON {table} {each} EXECUTE FUNCTION {trigger}()")
    statements += [f"CREATE TRIGGER revenue_{t}_truncated AFTER TRUNCATE ON {t} FOR EACH STATEMENT "
                   f"EXECUTE FUNCTION revenue_truncated()" for t in _TRUNCATED]
    return [*statements, "SELECT revenue_rebuild()"]


def drop_statements() -> list[str]:
    return [*(f"DROP TRIGGER IF EXISTS {trigger} ON {table}" for trigger, table, *_ in _TRIGGERS),
            *(f"DROP TRIGGER IF EXISTS revenue_{t}_truncated ON {t}" for t in _TRUNCATED),
            *(f"DROP FUNCTION IF EXISTS {trigger}()" for trigger, *_ in _TRIGGERS),
            "DROP FUNCTION IF EXISTS revenue_truncated()", "DROP FUNCTION IF EXISTS revenue_rebuild()"]
