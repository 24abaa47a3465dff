"""Promotions in the back office (issue 18): the names of activities and of SMS/voice packages in
each of the console's languages (the row's own name stays the default).

Revision ID: 0036_promotions_admin
Revises: 0033_user_admin
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0036_promotions_admin'
down_revision = '0033_user_admin'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('activity_names',
    sa.Column('activity_id', sa.Integer(), nullable=False),
    sa.Column('language', sa.String(length=10), nullable=False),
    sa.Column('name', sa.String(length=20), nullable=False),
    sa.ForeignKeyConstraint(['activity_id'], ['activities.id'], name=op.f('fk_activity_names_activity_id_activities'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('activity_id', 'language', name=op.f('pk_activity_names'))
    )
    op.create_table('sms_package_names',
    sa.Column('package_id', sa.Integer(), nullable=False),
    sa.Column('language', sa.String(length=10), nullable=False),
    sa.Column('name', sa.String(length=20), nullable=False),
    sa.ForeignKeyConstraint(['package_id'], ['sms_packages.id'],
                            name=op.f('fk_sms_package_names_package_id_sms_packages'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('package_id', 'language', name=op.f('pk_sms_package_names'))
    )
    for table in sqlite_tables(op, 'activity_names', 'sms_package_names'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_table('sms_package_names')
    op.drop_table('activity_names')
