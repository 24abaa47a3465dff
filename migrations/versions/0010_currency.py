"""Year options carry their currency: the catalogue holds a price list per currency

Every catalogue price names its currency (ISO 4217), as SMS and voice packages and orders already
did, and an edition reads only the prices in its own. The rows already stored were written by one
edition in its currency, which the SMS and voice packages it stored name: they take that currency
when all packages name one, else CNY (the default edition's).

Revision ID: 0010_currency
Revises: 0009_failures
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, check_name, sqlite_tables

revision = '0010_currency'
down_revision = '0009_failures'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('level_year_options', schema=None) as batch_op:
        batch_op.add_column(sa.Column('currency', sa.String(length=3), nullable=True))
    op.execute("UPDATE level_year_options SET currency = COALESCE("
               "(SELECT MIN(currency) FROM sms_packages HAVING COUNT(DISTINCT currency) = 1), 'CNY')")
    with op.batch_alter_table('level_year_options', schema=None) as batch_op:
        batch_op.alter_column('currency', existing_type=sa.String(length=3), nullable=False)
    for table in sqlite_tables(op, 'level_year_options'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    # On SQLite the column's CHECK goes first: a rebuilt table keeps every CHECK it had.
    for table in sqlite_tables(op, 'level_year_options'):  # with the tables it refers to
        if table.name == 'level_year_options':
            with op.batch_alter_table(table.name, recreate="always", copy_from=table) as batch_op:
                batch_op.drop_constraint(op.f(check_name(table.name, 'currency')), type_='check')
    with op.batch_alter_table('level_year_options', schema=None) as batch_op:
        batch_op.drop_column('currency')
