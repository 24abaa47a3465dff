"""Devices over MQTT: live state of devices, broker credentials, readings (partitioned by month
on PostgreSQL), alarm rules, recipients, excursions and messages.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 02:58:51.902842
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        # Partitioned by month of ts: retention and time-range scans touch only the months
        # concerned. Monthly partitions are created ahead by adapters/persistence/partitions.py;
        # the default partition catches readings outside them (old history uploads).
        op.execute("""
            CREATE TABLE readings (
                device_id integer NOT NULL,
                ts timestamp with time zone NOT NULL,
                temperature double precision,
                humidity double precision,
                seq bigint,
                received_at timestamp with time zone NOT NULL,
                CONSTRAINT pk_readings PRIMARY KEY (device_id, ts)
            ) PARTITION BY RANGE (ts)""")
        op.execute("CREATE TABLE readings_pdefault PARTITION OF readings DEFAULT")
    else:
        op.create_table('readings',
        sa.Column('device_id', sa.Integer(), nullable=False),
        sa.Column('ts', sa.DateTime(timezone=True), nullable=False),
        sa.Column('temperature', sa.Float(), nullable=True),
        sa.Column('humidity', sa.Float(), nullable=True),
        sa.Column('seq', sa.BigInteger(), nullable=True),
        sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('device_id', 'ts', name=op.f('pk_readings'))
        )
    op.create_table('alarm_rules',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('probe', sa.String(length=8), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('upper_limit', sa.Float(), nullable=True),
    sa.Column('lower_limit', sa.Float(), nullable=True),
    sa.Column('delay_seconds', sa.Integer(), nullable=False),
    sa.Column('level1_minutes', sa.Integer(), nullable=False),
    sa.Column('level2_minutes', sa.Integer(), nullable=True),
    sa.Column('level3_minutes', sa.Integer(), nullable=True),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_alarm_rules_device_id_devices'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_alarm_rules')),
    sa.UniqueConstraint('device_id', 'probe', name=op.f('uq_alarm_rules_device_id_probe'))
    )
    with op.batch_alter_table('alarm_rules', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_alarm_rules_device_id'), ['device_id'], unique=False)

    op.create_table('device_credentials',
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('username', sa.String(length=64), nullable=False),
    sa.Column('password_hash', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_device_credentials_device_id_devices'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('device_id', name=op.f('pk_device_credentials')),
    sa.UniqueConstraint('username', name=op.f('uq_device_credentials_username'))
    )
    op.create_table('alarm_messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('rule_id', sa.Integer(), nullable=True),
    sa.Column('probe', sa.String(length=8), nullable=False),
    sa.Column('kind', sa.SmallInteger(), nullable=False),
    sa.Column('limit_value', sa.Float(), nullable=False),
    sa.Column('value', sa.Float(), nullable=False),
    sa.Column('extreme_value', sa.Float(), nullable=False),
    sa.Column('level', sa.SmallInteger(), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('raised_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('state', sa.SmallInteger(), nullable=False),
    sa.Column('handling', sa.SmallInteger(), nullable=True),
    sa.Column('result', sa.String(length=50), nullable=True),
    sa.Column('handled_by', sa.Integer(), nullable=True),
    sa.Column('handled_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_alarm_messages_device_id_devices'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['handled_by'], ['accounts.id'], name=op.f('fk_alarm_messages_handled_by_accounts'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['rule_id'], ['alarm_rules.id'], name=op.f('fk_alarm_messages_rule_id_alarm_rules'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_alarm_messages'))
    )
    with op.batch_alter_table('alarm_messages', schema=None) as batch_op:
        batch_op.create_index('ix_alarm_messages_device_state', ['device_id', 'state', 'raised_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_alarm_messages_raised_at'), ['raised_at'], unique=False)

    op.create_table('alarm_recipients',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('rule_id', sa.Integer(), nullable=False),
    sa.Column('level', sa.SmallInteger(), nullable=False),
    sa.Column('name', sa.String(length=50), nullable=False),
    sa.Column('phone', sa.String(length=20), nullable=True),
    sa.Column('email', sa.String(length=200), nullable=True),
    sa.Column('voice', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['rule_id'], ['alarm_rules.id'], name=op.f('fk_alarm_recipients_rule_id_alarm_rules'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_alarm_recipients'))
    )
    with op.batch_alter_table('alarm_recipients', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_alarm_recipients_rule_id'), ['rule_id'], unique=False)

    op.create_table('alarm_excursions',
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('probe', sa.String(length=8), nullable=False),
    sa.Column('kind', sa.SmallInteger(), nullable=False),
    sa.Column('limit_value', sa.Float(), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('extreme_value', sa.Float(), nullable=False),
    sa.Column('message_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_alarm_excursions_device_id_devices'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['message_id'], ['alarm_messages.id'], name=op.f('fk_alarm_excursions_message_id_alarm_messages'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('device_id', 'probe', name=op.f('pk_alarm_excursions'))
    )
    with op.batch_alter_table('device_types', schema=None) as batch_op:
        batch_op.add_column(sa.Column('probes', sa.String(length=20), server_default='t,h', nullable=False))

    with op.batch_alter_table('devices', schema=None) as batch_op:
        batch_op.add_column(sa.Column('activated_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('online', sa.Boolean(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('last_reading_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('last_temperature', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('last_humidity', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('alarm_state', sa.SmallInteger(), server_default='0', nullable=False))



def downgrade() -> None:
    with op.batch_alter_table('devices', schema=None) as batch_op:
        batch_op.drop_column('alarm_state')
        batch_op.drop_column('last_humidity')
        batch_op.drop_column('last_temperature')
        batch_op.drop_column('last_reading_at')
        batch_op.drop_column('online')
        batch_op.drop_column('last_seen_at')
        batch_op.drop_column('activated_at')

    with op.batch_alter_table('device_types', schema=None) as batch_op:
        batch_op.drop_column('probes')

    op.drop_table('alarm_excursions')
    with op.batch_alter_table('alarm_recipients', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_alarm_recipients_rule_id'))

    op.drop_table('alarm_recipients')
    with op.batch_alter_table('alarm_messages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_alarm_messages_raised_at'))
        batch_op.drop_index('ix_alarm_messages_device_state')

    op.drop_table('alarm_messages')
    op.drop_table('device_credentials')
    with op.batch_alter_table('alarm_rules', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_alarm_rules_device_id'))

    op.drop_table('alarm_rules')
    op.drop_table('readings')  # on PostgreSQL its partitions go with it
