"""Refunds with take-back and approval (issue 19): each refund of an order (order_refunds), and
what an order has paid back so far (orders.refunded_cents).

Revision ID: 0040_order_refunds
Revises: 0039_order_backoffice
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0040_order_refunds'
down_revision = '0039_order_backoffice'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('orders') as batch:
        batch.add_column(sa.Column('refunded_cents', sa.BigInteger(), server_default='0', nullable=False))
    # an order refunded before this revision was refunded whole
    op.execute("UPDATE orders SET refunded_cents = COALESCE(pay_fee_cents, order_fee_cents) WHERE status = 3")
    op.create_table('order_refunds',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('order_id', sa.Integer(), nullable=False),
    sa.Column('refund_code', sa.String(length=32), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('requested_by', sa.Integer(), nullable=False),
    sa.Column('requested_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('decided_by', sa.Integer(), nullable=True),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('decision_note', sa.String(length=200), nullable=True),
    sa.Column('take_backs', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('reference', sa.String(length=100), nullable=True),
    sa.Column('error', sa.String(length=200), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['order_id'], ['orders.id'], name=op.f('fk_order_refunds_order_id_orders'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_order_refunds')),
    sa.UniqueConstraint('refund_code', name=op.f('uq_order_refunds_refund_code'))
    )
    op.create_index(op.f('ix_order_refunds_order_id'), 'order_refunds', ['order_id'], unique=False)
    op.create_index('ix_order_refunds_status', 'order_refunds', ['status', 'requested_at'], unique=False)
    for table in sqlite_tables(op, 'order_refunds', 'orders'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_index('ix_order_refunds_status', table_name='order_refunds')
    op.drop_index(op.f('ix_order_refunds_order_id'), table_name='order_refunds')
    op.drop_table('order_refunds')
    # On SQLite a check naming a dropped column would outlive it: the checks go first, and come back
    # for the columns that stay.
    for table in sqlite_tables(op, 'orders'):
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('orders') as batch:
        batch.drop_column('refunded_cents')
    for table in sqlite_tables(op, 'orders'):
        add_sqlite_checks(op, table)
