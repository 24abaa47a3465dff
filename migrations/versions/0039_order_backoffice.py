"""The operator's order back office (issue 19): each order's history of state changes, who made
them and why (order_events), and the indexes that list every account's orders by time.

Revision ID: 0039_order_backoffice
Revises: 0037_organization_ownership
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0039_order_backoffice'
down_revision = '0037_organization_ownership'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('order_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('order_id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('actor_account_id', sa.Integer(), nullable=True),
    sa.Column('reason', sa.String(length=200), nullable=True),
    sa.Column('detail', sa.JSON(none_as_null=True), nullable=True),
    sa.ForeignKeyConstraint(['order_id'], ['orders.id'], name=op.f('fk_order_events_order_id_orders'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_order_events'))
    )
    op.create_index(op.f('ix_order_events_order_id'), 'order_events', ['order_id'], unique=False)
    op.create_index('ix_orders_created', 'orders', ['created_at'], unique=False)
    op.create_index('ix_orders_paid', 'orders', ['paid_at'], unique=False)
    for table in sqlite_tables(op, 'order_events'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_index('ix_orders_paid', table_name='orders')
    op.drop_index('ix_orders_created', table_name='orders')
    op.drop_index(op.f('ix_order_events_order_id'), table_name='order_events')
    op.drop_table('order_events')
