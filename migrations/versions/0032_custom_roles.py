"""Custom organization roles (issue 17): roles.organization_id says which organization a custom
role belongs to (null: a built-in role), and its name is unique in the organization in any case
(name_key, the casefolded name).

organization_id has no foreign key: `roles` is reference data, synchronised after each migration
and kept when the tests empty the database, and a foreign key to organizations would make
PostgreSQL's TRUNCATE ... CASCADE of organizations empty it. Dissolving an organization deletes
its roles explicitly (adapters/persistence/organizations.py), as it does its members.

Revision ID: 0032_custom_roles
Revises: 0031_operation_log
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0032_custom_roles'
down_revision = '0031_operation_log'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('roles', schema=None) as batch_op:
        batch_op.add_column(sa.Column('organization_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('name_key', sa.String(length=60), nullable=True))
        batch_op.create_index('ix_roles_organization_id', ['organization_id'], unique=False)
        batch_op.create_unique_constraint('uq_roles_organization_name_key', ['organization_id', 'name_key'])
    for table in sqlite_tables(op, 'roles'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    # The custom roles go with their columns; members holding one cannot stay without a role.
    roles = sa.table('roles', sa.column('id', sa.Integer()), sa.column('organization_id', sa.Integer()))
    custom = sa.select(roles.c.id).where(roles.c.organization_id.is_not(None))
    members = sa.table('organization_members', sa.column('role_id', sa.Integer()))
    op.execute(sa.delete(members).where(members.c.role_id.in_(custom)))
    held = sa.table('role_permissions', sa.column('role_id', sa.Integer()))
    op.execute(sa.delete(held).where(held.c.role_id.in_(custom)))
    op.execute(sa.delete(roles).where(roles.c.organization_id.is_not(None)))
    for table in sqlite_tables(op, 'roles'):
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('roles', schema=None) as batch_op:
        batch_op.drop_constraint('uq_roles_organization_name_key', type_='unique')
        batch_op.drop_index('ix_roles_organization_id')
        batch_op.drop_column('name_key')
        batch_op.drop_column('organization_id')
    for table in sqlite_tables(op, 'roles'):
        add_sqlite_checks(op, table)
