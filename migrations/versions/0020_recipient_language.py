"""alarm_recipients.language: the language an alarm recipient's SMS, call and e-mail are written
in (issue 16). Null, as every recipient added before has, means the device owner's language.

Revision ID: 0020_recipient_language
Revises: 0019_exports
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0020_recipient_language'
down_revision = '0019_exports'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('alarm_recipients', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=10), nullable=True))
    for table in sqlite_tables(op, 'alarm_recipients'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    # On SQLite a check naming a dropped column would outlive it: the checks go first, and the
    # remaining columns get theirs back.
    for table in sqlite_tables(op, 'alarm_recipients'):
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('alarm_recipients', schema=None) as batch_op:
        batch_op.drop_column('language')
    for table in sqlite_tables(op, 'alarm_recipients'):
        add_sqlite_checks(op, table)
