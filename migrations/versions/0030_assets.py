"""Assets (issue 17): an account's cold things, each watched by up to five devices; devices.asset_id
says which one a device watches (null: none), and alarm_rules.held_by_asset marks the rules a
disabled asset switched off, to switch on again when it is enabled.

Revision ID: 0030_assets
Revises: 0029_device_sharing
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0030_assets'
down_revision = '0029_device_sharing'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('assets',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('asset_type', sa.String(length=50), nullable=True),
    sa.Column('number', sa.String(length=50), nullable=True),
    sa.Column('brand', sa.String(length=50), nullable=True),
    sa.Column('model', sa.String(length=50), nullable=True),
    sa.Column('volume', sa.String(length=50), nullable=True),
    sa.Column('attributes', sa.JSON(), nullable=False),
    sa.Column('remark', sa.String(length=200), nullable=True),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['accounts.id'], name=op.f('fk_assets_owner_account_id_accounts'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_assets'))
    )
    op.create_index('ix_assets_owner_account_id', 'assets', ['owner_account_id'], unique=False)
    with op.batch_alter_table('devices', schema=None) as batch_op:
        batch_op.add_column(sa.Column('asset_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(op.f('fk_devices_asset_id_assets'), 'assets', ['asset_id'], ['id'],
                                    ondelete='SET NULL')
        batch_op.create_index('ix_devices_asset_id', ['asset_id'], unique=False)
    with op.batch_alter_table('alarm_rules', schema=None) as batch_op:
        batch_op.add_column(sa.Column('held_by_asset', sa.Boolean(), server_default='0', nullable=False))
    for table in sqlite_tables(op, 'assets', 'devices'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    # On SQLite a check naming a dropped column would outlive it: the checks go first.
    for table in sqlite_tables(op, 'devices'):
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('alarm_rules', schema=None) as batch_op:
        batch_op.drop_column('held_by_asset')
    with op.batch_alter_table('devices', schema=None) as batch_op:
        batch_op.drop_index('ix_devices_asset_id')
        batch_op.drop_constraint(op.f('fk_devices_asset_id_assets'), type_='foreignkey')
        batch_op.drop_column('asset_id')
    for table in sqlite_tables(op, 'devices'):
        add_sqlite_checks(op, table)
    op.drop_index('ix_assets_owner_account_id', table_name='assets')
    op.drop_table('assets')
