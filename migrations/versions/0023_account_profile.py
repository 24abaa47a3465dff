"""Account profile and inbox (issue 16): the owner's time zone, the system messages of each
account, and which kinds of them also go by e-mail or SMS.

Revision ID: 0023_account_profile
Revises: 0022_device_position
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0023_account_profile'
down_revision = '0022_device_position'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('time_zone', sa.String(length=64), nullable=True))
    op.create_table('system_messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('template', sa.String(length=50), nullable=False),
    sa.Column('params', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('needs_decision', sa.Boolean(), nullable=False),
    sa.Column('subject', sa.String(length=100), nullable=True),
    sa.Column('read_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('decision', sa.String(length=10), nullable=True),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_system_messages_account_id_accounts'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_system_messages'))
    )
    with op.batch_alter_table('system_messages', schema=None) as batch_op:
        batch_op.create_index('ix_system_messages_account_id_id', ['account_id', 'id'], unique=False)
    op.create_table('message_channels',
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('channels', sa.String(length=40), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_message_channels_account_id_accounts'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('account_id', 'kind', name=op.f('pk_message_channels'))
    )
    for table in sqlite_tables(op, 'accounts', 'system_messages', 'message_channels'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_table('message_channels')
    with op.batch_alter_table('system_messages', schema=None) as batch_op:
        batch_op.drop_index('ix_system_messages_account_id_id')
    op.drop_table('system_messages')
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.drop_column('time_zone')
