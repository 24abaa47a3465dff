"""Scrapped devices (issue 16): when its owner retired the device, null while it is in service.

The list's two indexes carry the column too (their INCLUDE, PostgreSQL only), so the list, its
counts and the home page's counts are still answered from the index alone.

Revision ID: 0025_device_scrapped
Revises: 0024_scheduled_reports
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0025_device_scrapped'
down_revision = '0024_scheduled_reports'
branch_labels = None
depends_on = None

# As models.DEVICE_LIST_COLUMNS when this migration was written; a migration never follows the models.
_BEFORE = ['type_id', 'device_name', 'online', 'activated_at', 'alarm_state', 'status', 'service_expires_at']
_AFTER = [*_BEFORE, 'scrapped_at']


def _list_indexes(columns: list[str]) -> None:
    op.drop_index('ix_devices_owner_created', table_name='devices')
    op.drop_index('ix_devices_organization_created', table_name='devices')
    op.create_index('ix_devices_owner_created', 'devices', ['owner_account_id', 'created_at', 'id'],
                    postgresql_include=columns)
    op.create_index('ix_devices_organization_created', 'devices', ['organization_id', 'created_at', 'id'],
                    postgresql_include=['owner_account_id', *columns])


def upgrade() -> None:
    op.add_column('devices', sa.Column('scrapped_at', sa.DateTime(timezone=True), nullable=True))
    _list_indexes(_AFTER)


def downgrade() -> None:
    _list_indexes(_BEFORE)
    with op.batch_alter_table('devices') as batch_op:
        batch_op.drop_column('scrapped_at')
