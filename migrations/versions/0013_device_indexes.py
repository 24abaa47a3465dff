"""Indexes that serve "the devices an account may see" (issue 15, the API at fleet size): one
over the owner and one over the organization, each in the list's default order (created_at, id),
carrying what the list, its counts and the home page's counts read, so PostgreSQL answers them
from the index alone. They replace the single-column indexes on owner_account_id and
organization_id, whose work (the foreign keys' lookups) they do as well.

Revision ID: 0013_device_indexes
Revises: 0012_jobs
"""

from __future__ import annotations

from alembic import op

revision = '0013_device_indexes'
down_revision = '0012_jobs'
branch_labels = None
depends_on = None

# As models.DEVICE_LIST_COLUMNS when this migration was written; a migration never follows the models.
LIST_COLUMNS = ['type_id', 'device_name', 'online', 'activated_at', 'alarm_state', 'status', 'service_expires_at']


def upgrade() -> None:
    op.create_index('ix_devices_owner_created', 'devices', ['owner_account_id', 'created_at', 'id'],
                    postgresql_include=LIST_COLUMNS)
    op.create_index('ix_devices_organization_created', 'devices', ['organization_id', 'created_at', 'id'],
                    postgresql_include=['owner_account_id', *LIST_COLUMNS])
    op.drop_index('ix_devices_owner_account_id', table_name='devices')
    op.drop_index('ix_devices_organization_id', table_name='devices')


def downgrade() -> None:
    op.create_index('ix_devices_organization_id', 'devices', ['organization_id'])
    op.create_index('ix_devices_owner_account_id', 'devices', ['owner_account_id'])
    op.drop_index('ix_devices_organization_created', table_name='devices')
    op.drop_index('ix_devices_owner_created', table_name='devices')
