"""The operation log (issue 17): every change made through the API, append-only. An entry (one
call), its changes ({field: [old, new]}), and its readers (the accounts and organizations whose
log shows it, with the entry's time, so a customer's log is one index range). Triggers refuse
UPDATE and DELETE on all three.

Revision ID: 0031_operation_log
Revises: 0030_assets
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.append_only import OPERATION_LOG, create_statements, drop_statements
from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0031_operation_log'
down_revision = '0030_assets'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('operation_log',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('actor_account_id', sa.Integer(), nullable=True),
    sa.Column('actor_name', sa.String(length=100), nullable=True),
    sa.Column('client_address', sa.String(length=45), nullable=True),
    sa.Column('action', sa.String(length=100), nullable=False),
    sa.Column('method', sa.String(length=8), nullable=False),
    sa.Column('outcome', sa.String(length=10), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_operation_log'))
    )
    op.create_index('ix_operation_log_at', 'operation_log', ['at', 'id'], unique=False)
    op.create_index(op.f('ix_operation_log_actor_account_id'), 'operation_log', ['actor_account_id'], unique=False)
    op.create_table('operation_log_changes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('operation_id', sa.Integer(), nullable=False),
    sa.Column('object_type', sa.String(length=50), nullable=False),
    sa.Column('object_id', sa.String(length=64), nullable=True),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('label', sa.String(length=100), nullable=True),
    sa.Column('owner_account_id', sa.Integer(), nullable=True),
    sa.Column('device_id', sa.Integer(), nullable=True),
    sa.Column('organization_id', sa.Integer(), nullable=True),
    sa.Column('fields', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['operation_id'], ['operation_log.id'],
                            name=op.f('fk_operation_log_changes_operation_id_operation_log')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_operation_log_changes'))
    )
    op.create_index('ix_operation_log_changes_device', 'operation_log_changes', ['device_id', 'operation_id'],
                    unique=False)
    op.create_index('ix_operation_log_changes_object', 'operation_log_changes', ['object_type', 'object_id'],
                    unique=False)
    op.create_index(op.f('ix_operation_log_changes_operation_id'), 'operation_log_changes', ['operation_id'],
                    unique=False)
    op.create_table('operation_log_readers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('operation_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('organization_id', sa.Integer(), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['operation_id'], ['operation_log.id'],
                            name=op.f('fk_operation_log_readers_operation_id_operation_log')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_operation_log_readers'))
    )
    op.create_index('ix_operation_log_readers_account', 'operation_log_readers', ['account_id', 'at', 'operation_id'],
                    unique=False)
    op.create_index('ix_operation_log_readers_organization', 'operation_log_readers',
                    ['organization_id', 'at', 'operation_id'], unique=False)
    op.create_index(op.f('ix_operation_log_readers_operation_id'), 'operation_log_readers', ['operation_id'],
                    unique=False)
    for table in sqlite_tables(op, 'operation_log', 'operation_log_changes', 'operation_log_readers'):
        add_sqlite_checks(op, table)
    # After the checks: rebuilding a table on SQLite would drop its triggers.
    for statement in create_statements(op.get_bind().dialect.name, OPERATION_LOG):
        op.execute(statement)


def downgrade() -> None:
    for statement in drop_statements(op.get_bind().dialect.name, OPERATION_LOG):
        op.execute(statement)
    op.drop_table('operation_log_readers')
    op.drop_table('operation_log_changes')
    op.drop_table('operation_log')
