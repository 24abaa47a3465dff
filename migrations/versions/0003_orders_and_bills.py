"""Orders of service levels and of SMS/voice packages, their lines (one per device), and the
invoice details ("bills") of accounts.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 09:12:40.518306
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # bill_id has no foreign key: the bill may be deleted, the order keeps its `invoice` snapshot.
    op.create_table('orders',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('order_code', sa.String(length=20), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.SmallInteger(), nullable=False),
    sa.Column('pay_type', sa.SmallInteger(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('order_fee_cents', sa.BigInteger(), nullable=False),
    sa.Column('pay_fee_cents', sa.BigInteger(), nullable=True),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('apply_flag', sa.Boolean(), nullable=False),
    sa.Column('bill_id', sa.Integer(), nullable=True),
    sa.Column('invoice', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('activity_id', sa.Integer(), nullable=True),
    sa.Column('country_code', sa.String(length=4), nullable=True),
    sa.Column('description', sa.String(length=200), nullable=False),
    sa.Column('invoice_status', sa.SmallInteger(), nullable=False),
    sa.Column('payment', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('payment_reference', sa.String(length=100), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('paid_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('refunded_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_orders_account_id_accounts')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_orders')),
    sa.UniqueConstraint('order_code', name=op.f('uq_orders_order_code'))
    )
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.create_index('ix_orders_account_created', ['account_id', 'created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_orders_status'), ['status'], unique=False)

    # device_id has no foreign key: deleting a device later leaves the order history as it was.
    op.create_table('order_lines',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('order_id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('fee_cents', sa.BigInteger(), nullable=False),
    sa.Column('level_id', sa.Integer(), nullable=True),
    sa.Column('level_year_id', sa.Integer(), nullable=True),
    sa.Column('months', sa.Integer(), nullable=False),
    sa.Column('bonus_months', sa.Integer(), nullable=False),
    sa.Column('sms_count', sa.Integer(), nullable=False),
    sa.Column('voice_count', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['order_id'], ['orders.id'], name=op.f('fk_order_lines_order_id_orders'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_order_lines'))
    )
    with op.batch_alter_table('order_lines', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_order_lines_order_id'), ['order_id'], unique=False)

    op.create_table('user_bills',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('invoice_type', sa.SmallInteger(), nullable=False),
    sa.Column('bill_mode', sa.SmallInteger(), nullable=False),
    sa.Column('company_name', sa.String(length=50), nullable=True),
    sa.Column('tax_number', sa.String(length=20), nullable=True),
    sa.Column('personal_name', sa.String(length=30), nullable=True),
    sa.Column('bank_deposit', sa.String(length=50), nullable=True),
    sa.Column('bill_user_name', sa.String(length=30), nullable=False),
    sa.Column('bill_mail', sa.String(length=200), nullable=True),
    sa.Column('bill_phone', sa.String(length=20), nullable=False),
    sa.Column('bill_address', sa.String(length=50), nullable=True),
    sa.Column('is_default', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_user_bills_account_id_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_user_bills'))
    )
    with op.batch_alter_table('user_bills', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_user_bills_account_id'), ['account_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('user_bills', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_user_bills_account_id'))

    op.drop_table('user_bills')
    with op.batch_alter_table('order_lines', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_order_lines_order_id'))

    op.drop_table('order_lines')
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_orders_status'))
        batch_op.drop_index('ix_orders_account_created')

    op.drop_table('orders')
