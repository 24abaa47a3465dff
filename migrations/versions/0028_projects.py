"""Projects (issue 17): an account's named groups of devices; devices.project_id says which one
a device is in (null: none), and deleting a project leaves its devices in none.

Revision ID: 0028_projects
Revises: 0027_organizations
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0028_projects'
down_revision = '0027_organizations'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('projects',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=20), nullable=False),
    sa.Column('name_key', sa.String(length=60), nullable=False),
    sa.Column('remark', sa.String(length=200), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['accounts.id'], name=op.f('fk_projects_owner_account_id_accounts'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_projects')),
    sa.UniqueConstraint('owner_account_id', 'name_key', name='uq_projects_owner_name_key')
    )
    with op.batch_alter_table('devices', schema=None) as batch_op:
        batch_op.add_column(sa.Column('project_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(op.f('fk_devices_project_id_projects'), 'projects', ['project_id'], ['id'],
                                    ondelete='SET NULL')
        batch_op.create_index('ix_devices_project_id', ['project_id'], unique=False)
    for table in sqlite_tables(op, 'projects', 'devices'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    # On SQLite a check naming a dropped column would outlive it: the checks go first.
    for table in sqlite_tables(op, 'devices'):
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('devices', schema=None) as batch_op:
        batch_op.drop_index('ix_devices_project_id')
        batch_op.drop_constraint(op.f('fk_devices_project_id_projects'), type_='foreignkey')
        batch_op.drop_column('project_id')
    for table in sqlite_tables(op, 'devices'):
        add_sqlite_checks(op, table)
    op.drop_table('projects')
