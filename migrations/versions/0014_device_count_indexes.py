"""Narrow indexes for counting the devices an account may see (issue 15, the API at fleet size):
the device list's total and the scene counts read only the owner or organization and the type.
From the wide list indexes of 0013 PostgreSQL counted 9,000 devices in 4.5 ms, joining each to
its type; from these it reads one short range per type of the scene, about a fourth of that.

Revision ID: 0014_device_count_indexes
Revises: 0013_device_indexes
"""

from __future__ import annotations

from alembic import op

revision = '0014_device_count_indexes'
down_revision = '0013_device_indexes'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ix_devices_owner_type', 'devices', ['owner_account_id', 'type_id'])
    op.create_index('ix_devices_organization_type', 'devices', ['organization_id', 'type_id'],
                    postgresql_include=['owner_account_id'])


def downgrade() -> None:
    op.drop_index('ix_devices_organization_type', table_name='devices')
    op.drop_index('ix_devices_owner_type', table_name='devices')
