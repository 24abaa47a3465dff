"""Scheduled reports (issue 16): an account's schedules and the run of each period.

Revision ID: 0024_scheduled_reports
Revises: 0023_account_profile
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0024_scheduled_reports'
down_revision = '0023_account_profile'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('report_schedules',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=20), nullable=False),
    sa.Column('frequency', sa.String(length=8), nullable=False),
    sa.Column('weekday', sa.SmallInteger(), nullable=True),
    sa.Column('month_day', sa.SmallInteger(), nullable=True),
    sa.Column('device_ids', sa.JSON(), nullable=False),
    sa.Column('format', sa.String(length=8), nullable=False),
    sa.Column('recipients', sa.JSON(), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_report_schedules_account_id_accounts'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_report_schedules'))
    )
    with op.batch_alter_table('report_schedules', schema=None) as batch_op:
        batch_op.create_index('ix_report_schedules_account_id_id', ['account_id', 'id'], unique=False)
    op.create_table('report_runs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('schedule_id', sa.Integer(), nullable=False),
    sa.Column('period_start', sa.DateTime(timezone=True), nullable=False),
    sa.Column('period_end', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('outcome', sa.String(length=10), nullable=False),
    sa.Column('files', sa.JSON(), nullable=False),
    sa.Column('sent_to', sa.JSON(), nullable=False),
    sa.Column('attempts', sa.SmallInteger(), nullable=False),
    sa.Column('error', sa.String(length=200), nullable=True),
    sa.ForeignKeyConstraint(['schedule_id'], ['report_schedules.id'],
                            name=op.f('fk_report_runs_schedule_id_report_schedules'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_report_runs')),
    sa.UniqueConstraint('schedule_id', 'period_start', name='uq_report_runs_schedule_period')
    )
    for table in sqlite_tables(op, 'report_schedules', 'report_runs'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_table('report_runs')
    with op.batch_alter_table('report_schedules', schema=None) as batch_op:
        batch_op.drop_index('ix_report_schedules_account_id_id')
    op.drop_table('report_schedules')
