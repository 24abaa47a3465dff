"""Device sharing (issue 17): permission templates (per device element, visible and operable
bits; the built-in ones have no owner and come with the reference data) and shares of devices with accounts under them.

Revision ID: 0029_device_sharing
Revises: 0028_projects
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0029_device_sharing'
down_revision = '0028_projects'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('device_permission_templates',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=True),
    sa.Column('name', sa.String(length=20), nullable=False),
    sa.Column('name_key', sa.String(length=40), nullable=False),
    sa.Column('view_mask', sa.Integer(), nullable=False),
    sa.Column('operate_mask', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['accounts.id'],
                            name=op.f('fk_device_permission_templates_owner_account_id_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device_permission_templates'))
    )
    op.create_index('ix_device_permission_templates_owner', 'device_permission_templates', ['owner_account_id'])
    op.create_table('device_shares',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('sharee_account_id', sa.Integer(), nullable=False),
    sa.Column('template_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_device_shares_device_id_devices'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['owner_account_id'], ['accounts.id'],
                            name=op.f('fk_device_shares_owner_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['sharee_account_id'], ['accounts.id'],
                            name=op.f('fk_device_shares_sharee_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['template_id'], ['device_permission_templates.id'],
                            name=op.f('fk_device_shares_template_id_device_permission_templates')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device_shares'))
    )
    op.create_index('ix_device_shares_sharee_device', 'device_shares', ['sharee_account_id', 'device_id'])
    op.create_index('ix_device_shares_owner', 'device_shares', ['owner_account_id', 'created_at'])
    op.create_index('ix_device_shares_device', 'device_shares', ['device_id'])
    op.create_index('ix_device_shares_template', 'device_shares', ['template_id'])
    op.create_index('uq_device_shares_current', 'device_shares', ['device_id', 'sharee_account_id'], unique=True,
                    postgresql_where=sa.text('revoked_at IS NULL'), sqlite_where=sa.text('revoked_at IS NULL'))
    for table in sqlite_tables(op, 'device_permission_templates', 'device_shares'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_table('device_shares')
    op.drop_table('device_permission_templates')
