"""The recharge statistics' rollup (issue 19, a year over a million orders under a second): sums of
orders paid and refunds made per quarter of an hour in UTC, and the devices renewed in each, kept
by PostgreSQL triggers in the transaction that writes an order, a line or a refund
(adapters.persistence.revenue_rollup) and filled from the orders already there. SQLite gets the
tables only: it answers from the orders.

Revision ID: 0047_revenue_speed
Revises: 0046_waybills
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence import revenue_rollup
from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables
from adapters.persistence.types import UtcDateTime

revision = '0047_revenue_speed'
down_revision = '0046_waybills'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('revenue_paid',
    sa.Column('bucket', UtcDateTime(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('pay_type', sa.SmallInteger(), nullable=False),
    sa.Column('kind', sa.SmallInteger(), nullable=False),
    sa.Column('level_id', sa.Integer(), nullable=False),
    sa.Column('camp', sa.Integer(), nullable=False),
    sa.Column('cents', sa.BigInteger(), nullable=False),
    sa.Column('orders', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('bucket', 'currency', 'pay_type', 'kind', 'level_id', 'camp',
                            name=op.f('pk_revenue_paid'))
    )
    op.create_table('revenue_refunded',
    sa.Column('bucket', UtcDateTime(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('pay_type', sa.SmallInteger(), nullable=False),
    sa.Column('camp', sa.Integer(), nullable=False),
    sa.Column('cents', sa.BigInteger(), nullable=False),
    sa.Column('refunds', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('bucket', 'currency', 'pay_type', 'camp', name=op.f('pk_revenue_refunded'))
    )
    op.create_table('revenue_renewals',
    sa.Column('bucket', UtcDateTime(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('lines', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('bucket', 'device_id', name=op.f('pk_revenue_renewals'))
    )
    for table in sqlite_tables(op, 'revenue_paid', 'revenue_refunded', 'revenue_renewals'):
        add_sqlite_checks(op, table)
    if op.get_bind().dialect.name == 'postgresql':
        for statement in revenue_rollup.create_statements():
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        for statement in revenue_rollup.drop_statements():
            op.execute(statement)
    op.drop_table('revenue_renewals')
    op.drop_table('revenue_refunded')
    op.drop_table('revenue_paid')
