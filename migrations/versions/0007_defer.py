"""Deferring an alarm brings it back: the end of its deferral, and every deferral recorded

An alarm message keeps the end of its last deferral (deferred_until): it is deferred while that is
ahead of the clock, untreated again after. alarm_deferrals records each deferral (who, when, until
when, the result text). Alarms that a deferral had marked treated are untreated again, their
deferral recorded as one that has ended; nobody is reminded of them at once, and the escalation
of those still on carries on.

Revision ID: 0007_defer
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0007_defer'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('alarm_messages', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deferred_until', sa.DateTime(timezone=True), nullable=True))

    op.create_table('alarm_deferrals',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('alarm_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('deferred_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deferred_until', sa.DateTime(timezone=True), nullable=False),
    sa.Column('result', sa.String(length=50), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_alarm_deferrals_account_id_accounts'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['alarm_id'], ['alarm_messages.id'], name=op.f('fk_alarm_deferrals_alarm_id_alarm_messages'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_alarm_deferrals'))
    )
    with op.batch_alter_table('alarm_deferrals', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_alarm_deferrals_alarm_id'), ['alarm_id'], unique=False)

    # handling 3 (defer) used to treat the alarm for good.
    op.execute("INSERT INTO alarm_deferrals (alarm_id, account_id, deferred_at, deferred_until, result) "
               "SELECT id, handled_by, COALESCE(handled_at, raised_at), COALESCE(handled_at, raised_at), result "
               "FROM alarm_messages WHERE state = 1 AND handling = 3 ORDER BY id")
    op.execute("UPDATE alarm_messages SET state = 0, handling = NULL, result = NULL, handled_by = NULL, "
               "handled_at = NULL WHERE state = 1 AND handling = 3")

    for table in sqlite_tables(op, 'alarm_messages', 'alarm_deferrals'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    with op.batch_alter_table('alarm_deferrals', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_alarm_deferrals_alarm_id'))
    op.drop_table('alarm_deferrals')
    with op.batch_alter_table('alarm_messages', schema=None) as batch_op:
        batch_op.drop_column('deferred_until')
