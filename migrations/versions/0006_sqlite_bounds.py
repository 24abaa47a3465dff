"""The bounds PostgreSQL's column types set, as CHECK constraints on SQLite: VARCHAR(n) holds at
most n characters, INTEGER 32 bits, SMALLINT 16 bits, and no text holds NUL. Each table is rebuilt
once on SQLite (foreign keys off, see adapters/persistence/migrate.py), after rows stored beyond
these bounds are made to fit (bounds.add_sqlite_checks); nothing changes on PostgreSQL. Every
table present is covered, whatever revision came before this one.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The international demo package, which only SQLite had stored, beyond its 20 characters.
    op.execute("UPDATE service_packages SET package_name = 'Standard cloud plan' "
               "WHERE package_code = '10000001' AND package_name = 'Standard cloud service'")
    for table in sqlite_tables(op):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    for table in sqlite_tables(op):
        drop_sqlite_checks(op, table)
