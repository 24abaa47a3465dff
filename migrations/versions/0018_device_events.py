"""device_events: who cleared a device's data or deleted it, and when (issue 16). The record
outlives the device, so it has no foreign key to it and keeps the device's GUID.

Revision ID: 0018_device_events
Revises: 0017_alarm_push_settings
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0018_device_events'
down_revision = '0017_alarm_push_settings'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('device_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('device_guid', sa.String(length=32), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('detail', sa.String(length=200), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_device_events_account_id_accounts'),
                            ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device_events'))
    )
    with op.batch_alter_table('device_events', schema=None) as batch_op:
        batch_op.create_index('ix_device_events_device_at', ['device_id', 'at'], unique=False)
        batch_op.create_index(batch_op.f('ix_device_events_account_id'), ['account_id'], unique=False)
    for table in sqlite_tables(op, 'device_events'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    with op.batch_alter_table('device_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_device_events_account_id'))
        batch_op.drop_index('ix_device_events_device_at')
    op.drop_table('device_events')
