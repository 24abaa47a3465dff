"""Automatic renewal that really charges (issue 19): an order asks for it (orders.auto_renew); an
agreement keeps whose it is, the provider's authorisation, the order that signed it, the renewal
being charged, its failures and the charge the customer was told of.

Revision ID: 0042_auto_renew
Revises: 0041_offline_purchases
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, drop_sqlite_checks, sqlite_tables

revision = '0042_auto_renew'
down_revision = '0041_offline_purchases'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('orders') as batch:
        batch.add_column(sa.Column('auto_renew', sa.Boolean(), server_default=sa.false(), nullable=False))
    with op.batch_alter_table('auto_renew_agreements') as batch:
        batch.add_column(sa.Column('account_id', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('code', sa.String(length=32), nullable=True))
        batch.add_column(sa.Column('mandate', sa.String(length=200), nullable=True))
        batch.add_column(sa.Column('first_order_id', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('charging_order_id', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('failures', sa.SmallInteger(), server_default='0', nullable=False))
        batch.add_column(sa.Column('last_error', sa.String(length=200), nullable=True))
        batch.add_column(sa.Column('reminded_for', sa.DateTime(timezone=True), nullable=True))
        batch.create_index(batch.f('ix_auto_renew_agreements_account_id'), ['account_id'], unique=False)
        batch.create_unique_constraint(batch.f('uq_auto_renew_agreements_first_order_id'), ['first_order_id'])
        batch.create_foreign_key(batch.f('fk_auto_renew_agreements_account_id_accounts'), 'accounts',
                                 ['account_id'], ['id'], ondelete='CASCADE')
    # the agreements from before: their device's owner's
    op.execute("UPDATE auto_renew_agreements SET account_id = (SELECT owner_account_id FROM devices "
               "WHERE devices.id = auto_renew_agreements.device_id)")
    for table in sqlite_tables(op, 'auto_renew_agreements', 'orders'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    # On SQLite a check naming a dropped column would outlive it: the checks go first, and come back
    # for the columns that stay.
    for table in sqlite_tables(op, 'auto_renew_agreements', 'orders'):
        drop_sqlite_checks(op, table)
    with op.batch_alter_table('auto_renew_agreements') as batch:
        batch.drop_constraint(batch.f('fk_auto_renew_agreements_account_id_accounts'), type_='foreignkey')
        batch.drop_constraint(batch.f('uq_auto_renew_agreements_first_order_id'), type_='unique')
        batch.drop_index(batch.f('ix_auto_renew_agreements_account_id'))
        for column in ('reminded_for', 'last_error', 'failures', 'charging_order_id', 'first_order_id', 'mandate',
                       'code', 'account_id'):
            batch.drop_column(column)
    with op.batch_alter_table('orders') as batch:
        batch.drop_column('auto_renew')
    for table in sqlite_tables(op, 'auto_renew_agreements', 'orders'):
        add_sqlite_checks(op, table)
