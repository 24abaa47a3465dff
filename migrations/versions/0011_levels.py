"""The promise of a change of level on each service order line (issue 14): the device's service
when the order was placed, what the quote said it would have once paid, and what settlement gave
it (core/pricing/level_change.py). Lines placed before have no promise and are computed when paid.

Revision ID: 0011_levels
Revises: 0010_currency
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0011_levels'
down_revision = '0010_currency'
branch_labels = None
depends_on = None

COLUMNS = ('quoted_level_id', 'quoted_expires_at', 'change_kind', 'remaining_seconds', 'converted_days',
           'promised_expires_at', 'settled_expires_at', 'recomputed')


def upgrade() -> None:
    with op.batch_alter_table('order_lines', schema=None) as batch_op:
        batch_op.add_column(sa.Column('quoted_level_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('quoted_expires_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('change_kind', sa.String(length=10), nullable=True))
        batch_op.add_column(sa.Column('remaining_seconds', sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column('converted_days', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('promised_expires_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('settled_expires_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('recomputed', sa.Boolean(), nullable=False, server_default=sa.false()))
    for table in sqlite_tables(op, 'order_lines'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    # On SQLite a check naming a dropped column would outlive it: the checks go first, and the
    # remaining columns get theirs back.
    for table in sqlite_tables(op, 'order_lines'):
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('order_lines', schema=None) as batch_op:
        for column in reversed(COLUMNS):
            batch_op.drop_column(column)
    for table in sqlite_tables(op, 'order_lines'):
        add_sqlite_checks(op, table)
