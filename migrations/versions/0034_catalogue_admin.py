"""The catalogue run by operators (issue 18): names and descriptions of packages, levels and items
per language (catalogue_texts), the free gift of a package to new devices (package_gifts), and
level_year_options.retired_at, set when a sold option's price changes (a new row takes its place,
the orders naming the old one keep it as sold).

The gift replaces the hard-coded "two free months": every package gets the gift a new device of
its types got until now (the package's free level, two months, no SMS or voice), so nothing changes
until an operator changes it.

Revision ID: 0034_catalogue_admin
Revises: 0035_vouchers
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0034_catalogue_admin'
down_revision = '0035_vouchers'
branch_labels = None
depends_on = None

HISTORICAL_GIFT_MONTHS = 2


def upgrade() -> None:
    op.create_table('catalogue_texts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_kind', sa.String(length=10), nullable=False),
    sa.Column('owner_key', sa.String(length=40), nullable=False),
    sa.Column('language', sa.String(length=5), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('description', sa.String(length=200), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_catalogue_texts')),
    sa.UniqueConstraint('owner_kind', 'owner_key', 'language',
                        name=op.f('uq_catalogue_texts_owner_kind_owner_key_language'))
    )
    op.create_table('package_gifts',
    sa.Column('package_id', sa.Integer(), nullable=False),
    sa.Column('level_id', sa.Integer(), nullable=True),
    sa.Column('months', sa.Integer(), nullable=False),
    sa.Column('sms_count', sa.Integer(), nullable=False),
    sa.Column('voice_count', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['package_id'], ['service_packages.id'],
                            name=op.f('fk_package_gifts_package_id_service_packages'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['level_id'], ['service_levels.id'],
                            name=op.f('fk_package_gifts_level_id_service_levels'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('package_id', name=op.f('pk_package_gifts'))
    )
    with op.batch_alter_table('level_year_options', schema=None) as batch_op:
        batch_op.add_column(sa.Column('retired_at', sa.DateTime(timezone=True), nullable=True))
    # Each package's gift as the code gave it: its first level with options all free, two months.
    op.execute(sa.text("""
        INSERT INTO package_gifts (package_id, level_id, months, sms_count, voice_count)
        SELECT p.id, (
            SELECT l.id FROM service_levels l
            WHERE l.package_id = p.id
              AND EXISTS (SELECT 1 FROM level_year_options o WHERE o.level_id = l.id)
              AND NOT EXISTS (SELECT 1 FROM level_year_options o WHERE o.level_id = l.id
                              AND (o.service_fee_cents > 0 OR o.data_fee_cents > 0))
            ORDER BY l.sort, l.id LIMIT 1), :months, 0, 0
        FROM service_packages p""").bindparams(months=HISTORICAL_GIFT_MONTHS))
    for table in sqlite_tables(op, 'catalogue_texts', 'package_gifts', 'level_year_options'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    for table in sqlite_tables(op, 'level_year_options'):
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('level_year_options', schema=None) as batch_op:
        batch_op.drop_column('retired_at')
    for table in sqlite_tables(op, 'level_year_options'):
        add_sqlite_checks(op, table)
    op.drop_table('package_gifts')
    op.drop_table('catalogue_texts')
