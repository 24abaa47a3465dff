"""Coupons and prepaid recharge cards (issue 18): batches, their codes and cards (a card's secret
only as a digest), wrong tries of card numbers, and the coupon an order carries.

Revision ID: 0035_vouchers
Revises: 0036_promotions_admin
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0035_vouchers'
down_revision = '0036_promotions_admin'
branch_labels = None
depends_on = None

TABLES = ('coupon_batches', 'coupons', 'card_batches', 'recharge_cards', 'card_attempts')


def upgrade() -> None:
    op.create_table('coupon_batches',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('prefix', sa.String(length=2), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('kind', sa.SmallInteger(), nullable=False),
    sa.Column('value', sa.BigInteger(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('activity_id', sa.Integer(), nullable=True),
    sa.Column('remark', sa.String(length=200), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['activity_id'], ['activities.id'], name=op.f('fk_coupon_batches_activity_id_activities'),
                            ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_coupon_batches'))
    )
    op.create_table('coupons',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('batch_id', sa.Integer(), nullable=False),
    sa.Column('code', sa.String(length=20), nullable=False),
    sa.Column('state', sa.SmallInteger(), nullable=False),
    sa.Column('order_id', sa.Integer(), nullable=True),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('reserved_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['batch_id'], ['coupon_batches.id'], name=op.f('fk_coupons_batch_id_coupon_batches'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_coupons')),
    sa.UniqueConstraint('code', name=op.f('uq_coupons_code')),
    sa.UniqueConstraint('order_id', name=op.f('uq_coupons_order_id'))
    )
    op.create_index('ix_coupons_batch_id', 'coupons', ['batch_id'], unique=False)
    op.create_index('ix_coupons_account_id', 'coupons', ['account_id'], unique=False)
    op.create_table('card_batches',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('prefix', sa.String(length=2), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('level_id', sa.Integer(), nullable=False),
    sa.Column('months', sa.Integer(), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('activity_id', sa.Integer(), nullable=True),
    sa.Column('remark', sa.String(length=200), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['activity_id'], ['activities.id'], name=op.f('fk_card_batches_activity_id_activities'),
                            ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['level_id'], ['service_levels.id'], name=op.f('fk_card_batches_level_id_service_levels')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_card_batches'))
    )
    op.create_table('recharge_cards',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('batch_id', sa.Integer(), nullable=False),
    sa.Column('card_number', sa.String(length=20), nullable=False),
    sa.Column('secret_digest', sa.String(length=64), nullable=False),
    sa.Column('state', sa.SmallInteger(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('device_id', sa.Integer(), nullable=True),
    sa.Column('order_id', sa.Integer(), nullable=True),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['batch_id'], ['card_batches.id'], name=op.f('fk_recharge_cards_batch_id_card_batches'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_recharge_cards')),
    sa.UniqueConstraint('card_number', name=op.f('uq_recharge_cards_card_number'))
    )
    op.create_index('ix_recharge_cards_batch_id', 'recharge_cards', ['batch_id'], unique=False)
    op.create_index('ix_recharge_cards_account_id', 'recharge_cards', ['account_id'], unique=False)
    op.create_table('card_attempts',
    sa.Column('card_number', sa.String(length=20), nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('card_number', name=op.f('pk_card_attempts'))
    )
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('coupon_code', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('coupon_discount_cents', sa.BigInteger(), server_default='0', nullable=False))
    for table in sqlite_tables(op, 'orders', *TABLES):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    for table in sqlite_tables(op, 'orders'):
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_column('coupon_discount_cents')
        batch_op.drop_column('coupon_code')
    for table in sqlite_tables(op, 'orders'):
        add_sqlite_checks(op, table)
    op.drop_table('card_attempts')
    op.drop_index('ix_recharge_cards_account_id', table_name='recharge_cards')
    op.drop_index('ix_recharge_cards_batch_id', table_name='recharge_cards')
    op.drop_table('recharge_cards')
    op.drop_table('card_batches')
    op.drop_index('ix_coupons_account_id', table_name='coupons')
    op.drop_index('ix_coupons_batch_id', table_name='coupons')
    op.drop_table('coupons')
    op.drop_table('coupon_batches')
