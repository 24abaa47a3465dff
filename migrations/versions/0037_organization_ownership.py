"""Projects and assets of an organization (issue 17, "Devices belong to people and teams"):
projects.organization_id and assets.organization_id, null for an account's own. The creator stays
in owner_account_id; the organization's members see it and those who change its devices change
it. A project's name is unique per owner: among an account's own projects, or among an
organization's (two partial unique indexes replace the one on (owner, name key)).

Revision ID: 0037_organization_ownership
Revises: 0038_catalogue_texts_fold
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0037_organization_ownership'
down_revision = '0038_catalogue_texts_fold'
branch_labels = None
depends_on = None

_PERSONAL = sa.text('organization_id IS NULL')
_ORGANIZATION = sa.text('organization_id IS NOT NULL')


def upgrade() -> None:
    with op.batch_alter_table('projects', schema=None) as batch_op:
        batch_op.add_column(sa.Column('organization_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_projects_organization_id_organizations', 'organizations',
                                    ['organization_id'], ['id'], ondelete='CASCADE')
        batch_op.drop_constraint('uq_projects_owner_name_key', type_='unique')
    with op.batch_alter_table('assets', schema=None) as batch_op:
        batch_op.add_column(sa.Column('organization_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_assets_organization_id_organizations', 'organizations',
                                    ['organization_id'], ['id'], ondelete='CASCADE')
        batch_op.create_index('ix_assets_organization_id', ['organization_id'], unique=False)
    for table in sqlite_tables(op, 'projects', 'assets'):  # the new columns' bounds, before the partial indexes
        add_sqlite_checks(op, table)
    op.create_index('uq_projects_owner_name_key', 'projects', ['owner_account_id', 'name_key'], unique=True,
                    sqlite_where=_PERSONAL, postgresql_where=_PERSONAL)
    op.create_index('uq_projects_organization_name_key', 'projects', ['organization_id', 'name_key'], unique=True,
                    sqlite_where=_ORGANIZATION, postgresql_where=_ORGANIZATION)


def downgrade() -> None:
    op.drop_index('uq_projects_organization_name_key', table_name='projects')
    op.drop_index('uq_projects_owner_name_key', table_name='projects')
    for table in sqlite_tables(op, 'projects', 'assets'):
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('assets', schema=None) as batch_op:
        batch_op.drop_index('ix_assets_organization_id')
        batch_op.drop_constraint('fk_assets_organization_id_organizations', type_='foreignkey')
        batch_op.drop_column('organization_id')
    # an organization's projects have no owner to go back to: their devices are in none
    op.execute(sa.text('UPDATE devices SET project_id = NULL WHERE project_id IN '
                       '(SELECT id FROM projects WHERE organization_id IS NOT NULL)'))
    op.execute(sa.text('DELETE FROM projects WHERE organization_id IS NOT NULL'))
    with op.batch_alter_table('projects', schema=None) as batch_op:
        batch_op.drop_constraint('fk_projects_organization_id_organizations', type_='foreignkey')
        batch_op.drop_column('organization_id')
        batch_op.create_unique_constraint('uq_projects_owner_name_key', ['owner_account_id', 'name_key'])
    for table in sqlite_tables(op, 'projects', 'assets'):
        add_sqlite_checks(op, table)
