"""Waybills (issue 20): a shipment's record (waybills) with the devices on it (waybill_devices; a device
runs one trip at a time: a partial unique index on the running rows), the templates that fill new
ones, the share links for receivers (only a token's SHA-256 kept) with each open, and the public
quick query's lookups by client address for its rate limit.

Revision ID: 0046_waybills
Revises: 0045_positions_geofences
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0046_waybills'
down_revision = '0045_positions_geofences'
branch_labels = None
depends_on = None

TABLES = ('waybills', 'waybill_devices', 'waybill_templates', 'waybill_share_links', 'waybill_link_opens',
          'waybill_lookups')


def _instant(name: str, nullable: bool = True) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table('waybills',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('organization_id', sa.Integer(), nullable=True),
    sa.Column('order_number', sa.String(length=20), nullable=True),
    sa.Column('goods_name', sa.String(length=20), nullable=True),
    sa.Column('express_number', sa.String(length=100), nullable=True),
    sa.Column('cooler_code', sa.String(length=20), nullable=True),
    sa.Column('upper_limit', sa.Float(), nullable=True),
    sa.Column('lower_limit', sa.Float(), nullable=True),
    sa.Column('sender_name', sa.String(length=20), nullable=True),
    sa.Column('sender_phone', sa.String(length=20), nullable=True),
    sa.Column('sender_address', sa.String(length=200), nullable=True),
    sa.Column('receiver_name', sa.String(length=20), nullable=True),
    sa.Column('receiver_phone', sa.String(length=20), nullable=True),
    sa.Column('receiver_address', sa.String(length=200), nullable=True),
    sa.Column('alarm_contacts', sa.JSON(), nullable=False),
    _instant('planned_start'),
    _instant('planned_stop'),
    sa.Column('origin_fence_id', sa.Integer(), nullable=True),
    sa.Column('destination_fence_id', sa.Integer(), nullable=True),
    sa.Column('state', sa.SmallInteger(), nullable=False),
    _instant('started_at'),
    _instant('finished_at'),
    _instant('created_at', nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['accounts.id'],
                            name=op.f('fk_waybills_owner_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'],
                            name=op.f('fk_waybills_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_waybills'))
    )
    op.create_index('ix_waybills_owner_account_id', 'waybills', ['owner_account_id'])
    op.create_index('ix_waybills_organization_id', 'waybills', ['organization_id'])
    op.create_index('ix_waybills_order_number', 'waybills', ['order_number'])
    op.create_index('ix_waybills_state_planned', 'waybills', ['state', 'planned_start', 'planned_stop'])
    op.create_index('ix_waybills_origin_fence_id', 'waybills', ['origin_fence_id'])
    op.create_index('ix_waybills_destination_fence_id', 'waybills', ['destination_fence_id'])
    op.create_table('waybill_devices',
    sa.Column('waybill_id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('running', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.ForeignKeyConstraint(['waybill_id'], ['waybills.id'], name=op.f('fk_waybill_devices_waybill_id_waybills'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_waybill_devices_device_id_devices'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('waybill_id', 'device_id', name=op.f('pk_waybill_devices'))
    )
    op.create_index('ix_waybill_devices_device_id', 'waybill_devices', ['device_id'])
    # A device runs one trip at a time, whatever two transactions try at once.
    op.create_index('uq_waybill_devices_running', 'waybill_devices', ['device_id'], unique=True,
                    postgresql_where=sa.text('running'), sqlite_where=sa.text('running = 1'))
    op.create_table('waybill_templates',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=32), nullable=False),
    sa.Column('particulars', sa.JSON(), nullable=False),
    _instant('created_at', nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['accounts.id'],
                            name=op.f('fk_waybill_templates_owner_account_id_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_waybill_templates'))
    )
    op.create_index('ix_waybill_templates_owner_account_id', 'waybill_templates', ['owner_account_id'])
    op.create_table('waybill_share_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('waybill_id', sa.Integer(), nullable=False),
    sa.Column('token_digest', sa.String(length=64), nullable=False),
    sa.Column('created_by', sa.Integer(), nullable=False),
    _instant('created_at', nullable=False),
    _instant('expires_at', nullable=False),
    _instant('revoked_at'),
    sa.ForeignKeyConstraint(['waybill_id'], ['waybills.id'],
                            name=op.f('fk_waybill_share_links_waybill_id_waybills'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['created_by'], ['accounts.id'],
                            name=op.f('fk_waybill_share_links_created_by_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_waybill_share_links')),
    sa.UniqueConstraint('token_digest', name=op.f('uq_waybill_share_links_token_digest'))
    )
    op.create_index('ix_waybill_share_links_waybill_id', 'waybill_share_links', ['waybill_id'])
    op.create_table('waybill_link_opens',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('link_id', sa.Integer(), nullable=False),
    _instant('opened_at', nullable=False),
    sa.Column('client_address', sa.String(length=64), nullable=True),
    sa.ForeignKeyConstraint(['link_id'], ['waybill_share_links.id'],
                            name=op.f('fk_waybill_link_opens_link_id_waybill_share_links'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_waybill_link_opens'))
    )
    op.create_index('ix_waybill_link_opens_link_id', 'waybill_link_opens', ['link_id'])
    op.create_table('waybill_lookups',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('client_address', sa.String(length=64), nullable=False),
    _instant('at', nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_waybill_lookups'))
    )
    op.create_index('ix_waybill_lookups_address_at', 'waybill_lookups', ['client_address', 'at'])
    for table in sqlite_tables(op, *TABLES):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    for name in reversed(TABLES):
        op.drop_table(name)
