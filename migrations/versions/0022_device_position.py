"""Positions and energy from telemetry, and the home page's tiles (issue 16).

Readings carry an optional position (latitude, longitude, accuracy in metres) and energy meter
total (kWh); a device keeps its last position apart from its last reading. Nullable columns with
no default: PostgreSQL adds them to the partitioned readings without rewriting a row.
home_tiles holds the tiles each user chose for the home page, in order.

Revision ID: 0022_device_position
Revises: 0021_device_maintenance
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0022_device_position'
down_revision = '0021_device_maintenance'
branch_labels = None
depends_on = None

_READING_COLUMNS = ('latitude', 'longitude', 'accuracy_m', 'kwh')
_DEVICE_COLUMNS = ('last_latitude', 'last_longitude', 'last_accuracy_m')


def upgrade() -> None:
    for name in _READING_COLUMNS:
        op.add_column('readings', sa.Column(name, sa.Float(), nullable=True))
    for name in _DEVICE_COLUMNS:
        op.add_column('devices', sa.Column(name, sa.Float(), nullable=True))
    op.add_column('devices', sa.Column('last_position_at', sa.DateTime(timezone=True), nullable=True))
    op.create_table('home_tiles',
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('tiles', sa.String(length=200), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_home_tiles_account_id_accounts'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('account_id', name=op.f('pk_home_tiles'))
    )
    for table in sqlite_tables(op, 'home_tiles'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_table('home_tiles')
    with op.batch_alter_table('devices') as batch_op:
        for name in (*_DEVICE_COLUMNS, 'last_position_at'):
            batch_op.drop_column(name)
    with op.batch_alter_table('readings') as batch_op:
        for name in _READING_COLUMNS:
            batch_op.drop_column(name)
