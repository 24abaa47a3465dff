"""Offline purchases with their review (issue 19): the purchase and its devices' recharge states.

Revision ID: 0041_offline_purchases
Revises: 0040_order_refunds
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0041_offline_purchases'
down_revision = '0040_order_refunds'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('offline_purchases',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('level_id', sa.Integer(), nullable=True),
    sa.Column('level_year_id', sa.Integer(), nullable=True),
    sa.Column('months', sa.Integer(), nullable=False),
    sa.Column('sms_count', sa.Integer(), nullable=False),
    sa.Column('voice_count', sa.Integer(), nullable=False),
    sa.Column('country_code', sa.String(length=4), nullable=True),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('pay_type', sa.SmallInteger(), nullable=False),
    sa.Column('remark', sa.String(length=200), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('created_by', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('reviewed_by', sa.Integer(), nullable=True),
    sa.Column('reviewed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('review_note', sa.String(length=200), nullable=True),
    sa.Column('order_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_offline_purchases_account_id_accounts')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_offline_purchases'))
    )
    op.create_index(op.f('ix_offline_purchases_account_id'), 'offline_purchases', ['account_id'], unique=False)
    op.create_index('ix_offline_purchases_status', 'offline_purchases', ['status', 'created_at'], unique=False)
    op.create_table('offline_purchase_devices',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('purchase_id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=True),
    sa.Column('guid', sa.String(length=32), nullable=False),
    sa.Column('device_name', sa.String(length=50), nullable=True),
    sa.Column('state', sa.SmallInteger(), nullable=False),
    sa.Column('reason', sa.String(length=20), nullable=True),
    sa.Column('expires_before', sa.DateTime(timezone=True), nullable=True),
    sa.Column('expires_after', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['purchase_id'], ['offline_purchases.id'],
                            name=op.f('fk_offline_purchase_devices_purchase_id_offline_purchases'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_offline_purchase_devices'))
    )
    op.create_index(op.f('ix_offline_purchase_devices_purchase_id'), 'offline_purchase_devices', ['purchase_id'],
                    unique=False)
    for table in sqlite_tables(op, 'offline_purchases', 'offline_purchase_devices'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_index(op.f('ix_offline_purchase_devices_purchase_id'), table_name='offline_purchase_devices')
    op.drop_table('offline_purchase_devices')
    op.drop_index('ix_offline_purchases_status', table_name='offline_purchases')
    op.drop_index(op.f('ix_offline_purchases_account_id'), table_name='offline_purchases')
    op.drop_table('offline_purchases')
