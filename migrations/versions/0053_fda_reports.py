"""Periodic reports signed under Part 11 (issue 22): a device's data over a period as a record, with
the limits it judges by and the SHA-256 of its content when made (core.fda.reports).

Revision ID: 0053_fda_reports
Revises: 0052_fda_signatures
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0053_fda_reports'
down_revision = '0052_fda_signatures'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('fda_reports',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('organization_id', sa.Integer(), nullable=True),
    sa.Column('title', sa.String(length=100), nullable=False),
    sa.Column('start_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('end_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('limits', sa.JSON(), nullable=False),
    sa.Column('created_by', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('content_hash', sa.String(length=64), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_reports')),
    sa.UniqueConstraint('device_id', 'start_time', 'end_time',
                        name=op.f('uq_fda_reports_device_id_start_time_end_time'))
    )
    op.create_index('ix_fda_reports_organization_created', 'fda_reports', ['organization_id', 'created_at'],
                    unique=False)
    op.create_index('ix_fda_reports_owner_created', 'fda_reports', ['owner_account_id', 'created_at'], unique=False)
    for table in sqlite_tables(op, 'fda_reports'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_index('ix_fda_reports_owner_created', table_name='fda_reports')
    op.drop_index('ix_fda_reports_organization_created', table_name='fda_reports')
    op.drop_table('fda_reports')
