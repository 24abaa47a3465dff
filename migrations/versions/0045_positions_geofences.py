"""Geofences (issue 20, part 2): areas on the map (geofences), the devices watched against each with
where each is known to be (geofence_links, looked up by device in the ingest) and the crossings
found (geofence_events, at the readings' times). Positions ride on the readings since 0022.

Revision ID: 0045_positions_geofences
Revises: 0044_payment_configs
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0045_positions_geofences'
down_revision = '0044_payment_configs'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('geofences',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('organization_id', sa.Integer(), nullable=True),
    sa.Column('name', sa.String(length=20), nullable=False),
    sa.Column('areas', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['accounts.id'],
                            name=op.f('fk_geofences_owner_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'],
                            name=op.f('fk_geofences_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_geofences'))
    )
    op.create_index('ix_geofences_owner_account_id', 'geofences', ['owner_account_id'], unique=False)
    op.create_index('ix_geofences_organization_id', 'geofences', ['organization_id'], unique=False)
    op.create_table('geofence_links',
    sa.Column('fence_id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('inside', sa.Boolean(), nullable=True),
    sa.Column('pending_inside', sa.Boolean(), nullable=True),
    sa.Column('pending_since', sa.DateTime(timezone=True), nullable=True),
    sa.Column('pending_count', sa.Integer(), nullable=False),
    sa.Column('judged_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['fence_id'], ['geofences.id'], name=op.f('fk_geofence_links_fence_id_geofences'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_geofence_links_device_id_devices'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('fence_id', 'device_id', name=op.f('pk_geofence_links'))
    )
    op.create_index('ix_geofence_links_device_id', 'geofence_links', ['device_id'], unique=False)
    op.create_table('geofence_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('fence_id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('entered', sa.Boolean(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['fence_id'], ['geofences.id'], name=op.f('fk_geofence_events_fence_id_geofences'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_geofence_events_device_id_devices'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_geofence_events'))
    )
    op.create_index('ix_geofence_events_fence_id_at', 'geofence_events', ['fence_id', 'at'], unique=False)
    op.create_index('ix_geofence_events_device_id_at', 'geofence_events', ['device_id', 'at'], unique=False)
    for table in sqlite_tables(op, 'geofences', 'geofence_links', 'geofence_events'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_index('ix_geofence_events_device_id_at', table_name='geofence_events')
    op.drop_index('ix_geofence_events_fence_id_at', table_name='geofence_events')
    op.drop_table('geofence_events')
    op.drop_index('ix_geofence_links_device_id', table_name='geofence_links')
    op.drop_table('geofence_links')
    op.drop_index('ix_geofences_organization_id', table_name='geofences')
    op.drop_index('ix_geofences_owner_account_id', table_name='geofences')
    op.drop_table('geofences')
