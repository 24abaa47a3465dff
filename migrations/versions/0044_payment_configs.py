"""Merchant accounts per white-label platform (issue 19): payment_configs holds a camp's account at
one provider, its secrets sealed with CONFIG_ENCRYPTION_KEYS; orders (and the automatic renewals
signed with them) record the camp they were placed through (0, the console's own, for all before).

Revision ID: 0044_payment_configs
Revises: 0043_invoices
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0044_payment_configs'
down_revision = '0043_invoices'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('payment_configs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('camp', sa.Integer(), nullable=False),
    sa.Column('provider', sa.String(length=10), nullable=False),
    sa.Column('fields', sa.JSON(), nullable=False),
    sa.Column('sealed_secrets', sa.Text(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_by', sa.String(length=50), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_payment_configs')),
    sa.UniqueConstraint('camp', 'provider', name=op.f('uq_payment_configs_camp_provider'))
    )
    for table in ('orders', 'auto_renew_agreements'):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column('camp', sa.Integer(), server_default='0', nullable=False))
    for table in sqlite_tables(op, 'payment_configs', 'orders', 'auto_renew_agreements'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    for table in sqlite_tables(op, 'orders', 'auto_renew_agreements'):
        drop_sqlite_checks(op, table)
    for table in ('orders', 'auto_renew_agreements'):
        with op.batch_alter_table(table) as batch:
            batch.drop_column('camp')
    for table in sqlite_tables(op, 'orders', 'auto_renew_agreements'):
        add_sqlite_checks(op, table)
    op.drop_table('payment_configs')
