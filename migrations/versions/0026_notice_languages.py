"""notices.contents: a notice's rich text per UI language (issue 16), replacing the single
notices.content, which becomes the text of the edition's default language.

Revision ID: 0026_notice_languages
Revises: 0025_device_scrapped
"""

from __future__ import annotations

import os

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables
from core.shared.edition import Edition

revision = '0026_notice_languages'
down_revision = '0025_device_scrapped'
branch_labels = None
depends_on = None

_notices = sa.table('notices', sa.column('id', sa.Integer()), sa.column('content', sa.Text()),
                    sa.column('contents', sa.JSON()))


def default_language() -> str:
    # The text written so far was in the installation's language: the edition's, read as the
    # settings read it (EDITION, domestic when unset).
    return Edition(os.environ.get("EDITION") or Edition.DOMESTIC.value).profile.default_language


def _drop_column(column: str) -> None:
    # On SQLite a check naming a dropped column would outlive it: the checks go first, and the
    # remaining columns get theirs back.
    for table in sqlite_tables(op, 'notices'):
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('notices', schema=None) as batch_op:
        batch_op.drop_column(column)
    for table in sqlite_tables(op, 'notices'):
        add_sqlite_checks(op, table)


def upgrade() -> None:
    with op.batch_alter_table('notices', schema=None) as batch_op:
        batch_op.add_column(sa.Column('contents', sa.JSON(), nullable=True))
    bind, language = op.get_bind(), default_language()
    for notice_id, content in bind.execute(sa.select(_notices.c.id, _notices.c.content)).all():
        bind.execute(_notices.update().where(_notices.c.id == notice_id).values(contents={language: content}))
    with op.batch_alter_table('notices', schema=None) as batch_op:
        batch_op.alter_column('contents', existing_type=sa.JSON(), nullable=False)
    _drop_column('content')


def downgrade() -> None:
    with op.batch_alter_table('notices', schema=None) as batch_op:
        batch_op.add_column(sa.Column('content', sa.Text(), nullable=True))
    bind, language = op.get_bind(), default_language()
    for notice_id, contents in bind.execute(sa.select(_notices.c.id, _notices.c.contents)).all():
        # The single column keeps one text: the default language's, else the first written.
        kept = contents.get(language) or next(iter(contents.values()), "")
        bind.execute(_notices.update().where(_notices.c.id == notice_id).values(content=kept))
    with op.batch_alter_table('notices', schema=None) as batch_op:
        batch_op.alter_column('content', existing_type=sa.Text(), nullable=False)
    _drop_column('contents')
