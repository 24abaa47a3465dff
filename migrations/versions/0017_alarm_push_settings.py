"""Alarm push settings of a device (issue 16): which alarm kinds go out by SMS, voice and e-mail,
and quiet hours (core/alarms/push.py). A device without a row gets every kind by every channel.

Revision ID: 0017_alarm_push_settings
Revises: 0015_readings_covering_key
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0017_alarm_push_settings'
down_revision = '0015_readings_covering_key'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('alarm_push_settings',
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('sms_kinds', sa.SmallInteger(), nullable=False),
    sa.Column('voice_kinds', sa.SmallInteger(), nullable=False),
    sa.Column('email_kinds', sa.SmallInteger(), nullable=False),
    sa.Column('quiet_start', sa.String(length=5), nullable=True),
    sa.Column('quiet_end', sa.String(length=5), nullable=True),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_alarm_push_settings_device_id_devices'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('device_id', name=op.f('pk_alarm_push_settings'))
    )
    for table in sqlite_tables(op, 'alarm_push_settings'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_table('alarm_push_settings')
