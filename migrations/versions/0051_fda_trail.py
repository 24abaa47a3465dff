"""The tamper-evident audit trail (issue 22, core.fda.trail): each FDA-on subject's chain of links
over the operation log, append-only like the log (triggers refuse UPDATE and DELETE). On PostgreSQL
the role that migrates (the application's, the tables' owner) and PUBLIC lose UPDATE, DELETE and
TRUNCATE on the log's three tables and on the links.

Revision ID: 0051_fda_trail
Revises: 0050_fda_switch
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.append_only import (
    OPERATION_LOG,
    TRAIL,
    drop_trigger_statements,
    grant_statements,
    revoke_statements,
    trigger_statements,
)
from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0051_fda_trail'
down_revision = '0050_fda_switch'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('fda_trail_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('chain_key', sa.String(length=24), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('operation_id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('change_ids', sa.JSON(), nullable=False),
    sa.Column('previous_hash', sa.String(length=64), nullable=False),
    sa.Column('hash', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['operation_id'], ['operation_log.id'],
                            name=op.f('fk_fda_trail_links_operation_id_operation_log')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_trail_links')),
    sa.UniqueConstraint('chain_key', 'seq', name=op.f('uq_fda_trail_links_chain_key_seq'))
    )
    op.create_index(op.f('ix_fda_trail_links_operation_id'), 'fda_trail_links', ['operation_id'], unique=False)
    for table in sqlite_tables(op, 'fda_trail_links'):
        add_sqlite_checks(op, table)
    dialect = op.get_bind().dialect.name
    # After the checks: rebuilding a table on SQLite would drop its triggers.
    for statement in (*trigger_statements(dialect, TRAIL), *revoke_statements(dialect, (*OPERATION_LOG, *TRAIL))):
        op.execute(statement)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    for statement in (*grant_statements(dialect, (*OPERATION_LOG, *TRAIL)), *drop_trigger_statements(dialect, TRAIL)):
        op.execute(statement)
    op.drop_index(op.f('ix_fda_trail_links_operation_id'), table_name='fda_trail_links')
    op.drop_table('fda_trail_links')
