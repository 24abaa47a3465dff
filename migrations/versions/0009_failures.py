"""An order remembers the payer's latest failed attempt

Why it failed (declined, cancelled, failed), how many attempts failed, and the provider's id of the
latest, so the paying drawer can say a failed payment instead of waiting for it forever (issue 14,
item 5). Bounded on SQLite like every other column (bounds.add_sqlite_checks).

Revision ID: 0009_failures
Revises: 0008_orders
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, check_name, sqlite_tables

revision = '0009_failures'
down_revision = '0008_orders'
branch_labels = None
depends_on = None


def _columns() -> tuple[sa.Column, ...]:
    return (sa.Column('last_failure', sa.String(length=16), nullable=True),
            sa.Column('failure_count', sa.Integer(), nullable=False, server_default='0'),
            sa.Column('failed_attempt', sa.String(length=100), nullable=True))


def upgrade() -> None:
    with op.batch_alter_table('orders', schema=None) as batch_op:
        for column in _columns():
            batch_op.add_column(column)
    for table in sqlite_tables(op, 'orders'):
        if table.name == 'orders':  # reflected with the tables it refers to
            add_sqlite_checks(op, table)


def downgrade() -> None:
    # On SQLite the columns' checks go with them, in one rebuild of the table.
    orders = next((t for t in sqlite_tables(op, 'orders') if t.name == 'orders'), None)
    rebuild = {"recreate": "always", "copy_from": orders} if orders is not None else {}
    with op.batch_alter_table('orders', schema=None, **rebuild) as batch_op:
        for column in reversed(_columns()):
            name = check_name('orders', column.name)
            if orders is not None and any(c.name == name for c in orders.constraints):
                batch_op.drop_constraint(op.f(name), type_='check')
            batch_op.drop_column(column.name)
