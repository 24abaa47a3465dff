"""FDA mode per organization (issue 22): organizations.enable_fda beside user_profiles.enable_fda.

Revision ID: 0050_fda_switch
Revises: 0049_calibration_reports
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0050_fda_switch'
down_revision = '0049_calibration_reports'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('organizations') as batch:
        batch.add_column(sa.Column('enable_fda', sa.SmallInteger(), server_default='0', nullable=False))
    for table in sqlite_tables(op, 'organizations'):  # the new column's bound
        add_sqlite_checks(op, table)


def downgrade() -> None:
    for table in sqlite_tables(op, 'organizations'):  # no check may name the column dropped
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('organizations') as batch:
        batch.drop_column('enable_fda')
    for table in sqlite_tables(op, 'organizations'):
        add_sqlite_checks(op, table)
