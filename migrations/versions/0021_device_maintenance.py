"""device_commands and device_maintenance: the commands sent to a device with its answers (the
parameter settings tab) and its maintenance records (issue 16, device detail tabs).

Revision ID: 0021_device_maintenance
Revises: 0020_recipient_language
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0021_device_maintenance'
down_revision = '0020_recipient_language'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('device_commands',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('error', sa.String(length=200), nullable=True),
    sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_device_commands_account_id_accounts'),
                            ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_device_commands_device_id_devices'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device_commands'))
    )
    with op.batch_alter_table('device_commands', schema=None) as batch_op:
        batch_op.create_index('ix_device_commands_device_kind_sent', ['device_id', 'kind', 'sent_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_device_commands_account_id'), ['account_id'], unique=False)
    op.create_table('device_maintenance',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('maintained_on', sa.Date(), nullable=False),
    sa.Column('person', sa.String(length=50), nullable=False),
    sa.Column('approver', sa.String(length=20), nullable=True),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('content', sa.String(length=1000), nullable=False),
    sa.Column('standard', sa.String(length=200), nullable=True),
    sa.Column('result', sa.String(length=1000), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_device_maintenance_device_id_devices'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device_maintenance'))
    )
    with op.batch_alter_table('device_maintenance', schema=None) as batch_op:
        batch_op.create_index('ix_device_maintenance_device_on', ['device_id', 'maintained_on'], unique=False)
    for name in ('device_commands', 'device_maintenance'):
        for table in sqlite_tables(op, name):
            add_sqlite_checks(op, table)


def downgrade() -> None:
    with op.batch_alter_table('device_maintenance', schema=None) as batch_op:
        batch_op.drop_index('ix_device_maintenance_device_on')
    op.drop_table('device_maintenance')
    with op.batch_alter_table('device_commands', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_device_commands_account_id'))
        batch_op.drop_index('ix_device_commands_device_kind_sent')
    op.drop_table('device_commands')
