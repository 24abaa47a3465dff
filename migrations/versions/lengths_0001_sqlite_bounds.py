"""The bounds PostgreSQL's column types set, as CHECK constraints on SQLite: VARCHAR(n) holds at
most n characters, INTEGER 32 bits, SMALLINT 16 bits, and no text holds NUL. Each table is rebuilt
once on SQLite (foreign keys off, see adapters/persistence/migrate.py); nothing changes on
PostgreSQL. Every table present is covered, whatever revision came before this one.

Revision ID: lengths_0001
Revises: 0004
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import inspect

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks

revision = 'lengths_0001'
down_revision = '0004'
branch_labels = None
depends_on = None


def _tables() -> list[str]:
    return [name for name in inspect(op.get_bind()).get_table_names() if name != "alembic_version"]


def upgrade() -> None:
    for table in _tables():
        add_sqlite_checks(op, table)


def downgrade() -> None:
    for table in _tables():
        drop_sqlite_checks(op, table)
