"""User administration (issue 17): a deleted account is kept, marked (accounts.deleted_at), so its
orders and history survive; the contractor application (state, agreement version and times).

Revision ID: 0033_user_admin
Revises: 0032_custom_roles
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0033_user_admin'
down_revision = '0032_custom_roles'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('contractor_state', sa.SmallInteger(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('contractor_applied_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('contractor_agreement', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('contractor_certified_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index('ix_accounts_deleted_at', ['deleted_at'], unique=False)
    for table in sqlite_tables(op, 'accounts'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    for table in sqlite_tables(op, 'accounts'):
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.drop_index('ix_accounts_deleted_at')
        for column in ('contractor_certified_at', 'contractor_agreement', 'contractor_applied_at', 'contractor_state',
                       'deleted_at'):
            batch_op.drop_column(column)
    for table in sqlite_tables(op, 'accounts'):
        add_sqlite_checks(op, table)
