"""The job engine (issue 15): a record of every job run, and the expiry reminders already sent.

Revision ID: 0012_jobs
Revises: 0011_levels
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0012_jobs'
down_revision = '0011_levels'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('job_runs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=50), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('outcome', sa.String(length=10), nullable=False),
    sa.Column('detail', sa.String(length=500), nullable=True),
    sa.Column('error', sa.String(length=1000), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_job_runs'))
    )
    with op.batch_alter_table('job_runs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_job_runs_started_at'), ['started_at'], unique=False)

    op.create_table('expiry_reminders',
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('stage', sa.SmallInteger(), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_expiry_reminders_device_id_devices'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('device_id', 'expires_at', 'stage', name=op.f('pk_expiry_reminders'))
    )
    for table in sqlite_tables(op, 'job_runs', 'expiry_reminders'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_table('expiry_reminders')
    with op.batch_alter_table('job_runs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_job_runs_started_at'))
    op.drop_table('job_runs')
