"""Payments: every provider notification recorded with its verdict; orders closed past their
expiry (payStatus 4), found by the provider's payment id, and the provider's id of the money received
kept apart from it (refunds need the latter, a payer returning from PayPal the former).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('settlement_reference', sa.String(length=100), nullable=True))
        batch_op.create_index(batch_op.f('ix_orders_payment_reference'), ['payment_reference'], unique=False)

    op.create_table('payment_notifications',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('provider', sa.String(length=10), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('verdict', sa.String(length=20), nullable=False),
    sa.Column('order_code', sa.String(length=64), nullable=True),
    sa.Column('amount_cents', sa.BigInteger(), nullable=True),
    sa.Column('body', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_payment_notifications'))
    )
    with op.batch_alter_table('payment_notifications', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_payment_notifications_order_code'), ['order_code'], unique=False)
        batch_op.create_index(batch_op.f('ix_payment_notifications_received_at'), ['received_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('payment_notifications', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_payment_notifications_received_at'))
        batch_op.drop_index(batch_op.f('ix_payment_notifications_order_code'))

    op.drop_table('payment_notifications')
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_orders_payment_reference'))
        batch_op.drop_column('settlement_reference')
        batch_op.drop_column('closed_at')
