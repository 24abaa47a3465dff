"""Names per language in one shape (issue 18): the names of activities and of SMS/voice packages
move from their own tables (activity_names, sms_package_names) into catalogue_texts, owner_kind
'activity' and 'sms', as packages, levels and items hold theirs. Without a foreign key there, the
repositories delete an owner's texts with it.

Revision ID: 0038_catalogue_texts_fold
Revises: 0034_catalogue_admin
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0038_catalogue_texts_fold'
down_revision = '0034_catalogue_admin'
branch_labels = None
depends_on = None

# old table, its owner column, owner_kind in catalogue_texts, the owners' table
FOLDED = (('activity_names', 'activity_id', 'activity', 'activities'),
          ('sms_package_names', 'package_id', 'sms', 'sms_packages'))


def upgrade() -> None:
    for old, owner, kind, _ in FOLDED:
        op.execute(sa.text(f"""
            INSERT INTO catalogue_texts (owner_kind, owner_key, language, name, description)
            SELECT :kind, CAST({owner} AS VARCHAR(40)), language, name, NULL FROM {old}""").bindparams(kind=kind))
        op.drop_table(old)


def downgrade() -> None:
    op.create_table('activity_names',
    sa.Column('activity_id', sa.Integer(), nullable=False),
    sa.Column('language', sa.String(length=10), nullable=False),
    sa.Column('name', sa.String(length=20), nullable=False),
    sa.ForeignKeyConstraint(['activity_id'], ['activities.id'], name=op.f('fk_activity_names_activity_id_activities'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('activity_id', 'language', name=op.f('pk_activity_names'))
    )
    op.create_table('sms_package_names',
    sa.Column('package_id', sa.Integer(), nullable=False),
    sa.Column('language', sa.String(length=10), nullable=False),
    sa.Column('name', sa.String(length=20), nullable=False),
    sa.ForeignKeyConstraint(['package_id'], ['sms_packages.id'],
                            name=op.f('fk_sms_package_names_package_id_sms_packages'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('package_id', 'language', name=op.f('pk_sms_package_names'))
    )
    for old, owner, kind, owners in FOLDED:
        # only texts of owners that still exist: the old tables' foreign key would refuse the others
        op.execute(sa.text(f"""
            INSERT INTO {old} ({owner}, language, name)
            SELECT o.id, t.language, t.name FROM catalogue_texts t
            JOIN {owners} o ON CAST(o.id AS VARCHAR(40)) = t.owner_key
            WHERE t.owner_kind = :kind""").bindparams(kind=kind))
        op.execute(sa.text("DELETE FROM catalogue_texts WHERE owner_kind = :kind").bindparams(kind=kind))
    for table in sqlite_tables(op, 'activity_names', 'sms_package_names'):
        add_sqlite_checks(op, table)
