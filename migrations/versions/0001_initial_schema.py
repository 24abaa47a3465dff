"""Initial schema: accounts, roles, sessions, throttling, codes, outbox, white label, notices,
dictionaries, device types, devices and the service catalogue.

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-22 01:28:06.113233
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('accounts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_name', sa.String(length=50), nullable=False),
    sa.Column('user_name_key', sa.String(length=50), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('phone', sa.String(length=20), nullable=True),
    sa.Column('email', sa.String(length=200), nullable=True),
    sa.Column('account_type', sa.SmallInteger(), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('real_name', sa.String(length=20), nullable=True),
    sa.Column('company', sa.String(length=50), nullable=True),
    sa.Column('photo_url', sa.String(length=500), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_accounts')),
    sa.UniqueConstraint('email', name=op.f('uq_accounts_email')),
    sa.UniqueConstraint('phone', name=op.f('uq_accounts_phone')),
    sa.UniqueConstraint('user_name_key', name=op.f('uq_accounts_user_name_key'))
    )
    op.create_table('activities',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=20), nullable=False),
    sa.Column('nature', sa.SmallInteger(), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_activities'))
    )
    op.create_table('captchas',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('answer_digest', sa.String(length=64), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_captchas'))
    )
    with op.batch_alter_table('captchas', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_captchas_expires_at'), ['expires_at'], unique=False)

    op.create_table('custom_pages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('top_domain', sa.String(length=253), nullable=False),
    sa.Column('company_name', sa.String(length=100), nullable=True),
    sa.Column('title', sa.String(length=100), nullable=False),
    sa.Column('index_logo', sa.String(length=500), nullable=True),
    sa.Column('browser_logo', sa.String(length=500), nullable=True),
    sa.Column('login_logo', sa.String(length=500), nullable=True),
    sa.Column('background_logo', sa.String(length=500), nullable=True),
    sa.Column('theme_color', sa.String(length=9), nullable=True),
    sa.Column('style_model', sa.String(length=30), nullable=True),
    sa.Column('default_camp', sa.Integer(), nullable=False),
    sa.Column('enable_register', sa.SmallInteger(), nullable=False),
    sa.Column('use_elitech_logo', sa.SmallInteger(), nullable=False),
    sa.Column('force_https', sa.SmallInteger(), nullable=False),
    sa.Column('login_page', sa.String(length=100), nullable=True),
    sa.Column('record_company', sa.String(length=100), nullable=True),
    sa.Column('record_number', sa.String(length=100), nullable=True),
    sa.Column('record_connection', sa.String(length=500), nullable=True),
    sa.Column('police_filing', sa.String(length=100), nullable=True),
    sa.Column('police_connection', sa.String(length=500), nullable=True),
    sa.Column('remark', sa.String(length=50), nullable=True),
    sa.Column('independent', sa.SmallInteger(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_custom_pages')),
    sa.UniqueConstraint('top_domain', name=op.f('uq_custom_pages_top_domain'))
    )
    op.create_table('device_series',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('series_name', sa.String(length=50), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device_series')),
    sa.UniqueConstraint('series_name', name=op.f('uq_device_series_series_name'))
    )
    op.create_table('dict_items',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('data_type', sa.String(length=50), nullable=False),
    sa.Column('data_code', sa.String(length=32), nullable=False),
    sa.Column('data_value', sa.String(length=100), nullable=False),
    sa.Column('labels', sa.JSON(), nullable=False),
    sa.Column('sort', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_dict_items')),
    sa.UniqueConstraint('data_type', 'data_code', name=op.f('uq_dict_items_data_type_data_code'))
    )
    op.create_table('login_failures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('scope', sa.String(length=16), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('failed_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_login_failures'))
    )
    with op.batch_alter_table('login_failures', schema=None) as batch_op:
        batch_op.create_index('ix_login_failures_scope_key_at', ['scope', 'key', 'failed_at'], unique=False)

    op.create_table('login_locks',
    sa.Column('scope', sa.String(length=16), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('locked_until', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('scope', 'key', name=op.f('pk_login_locks'))
    )
    op.create_table('notices',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('camp', sa.Integer(), nullable=False),
    sa.Column('platform', sa.SmallInteger(), nullable=False),
    sa.Column('notice_type', sa.SmallInteger(), nullable=False),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('published_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notices'))
    )
    with op.batch_alter_table('notices', schema=None) as batch_op:
        batch_op.create_index('ix_notices_lookup', ['camp', 'platform', 'notice_type', 'published_at'], unique=False)

    op.create_table('outbox_messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('channel', sa.String(length=10), nullable=False),
    sa.Column('recipient', sa.String(length=200), nullable=False),
    sa.Column('template', sa.String(length=50), nullable=False),
    sa.Column('params', sa.JSON(), nullable=False),
    sa.Column('language', sa.String(length=10), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('attempts', sa.SmallInteger(), nullable=False),
    sa.Column('last_error', sa.String(length=500), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox_messages'))
    )
    with op.batch_alter_table('outbox_messages', schema=None) as batch_op:
        batch_op.create_index('ix_outbox_messages_pending', ['sent_at', 'id'], unique=False)

    op.create_table('permissions',
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('scenes', sa.String(length=20), nullable=False),
    sa.Column('back_office', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_permissions'))
    )
    op.create_table('roles',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('code', sa.String(length=50), nullable=False),
    sa.Column('name', sa.String(length=50), nullable=False),
    sa.Column('description', sa.String(length=200), nullable=True),
    sa.Column('role_type', sa.SmallInteger(), nullable=False),
    sa.Column('built_in', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_roles')),
    sa.UniqueConstraint('code', name=op.f('uq_roles_code'))
    )
    op.create_table('service_items',
    sa.Column('item_code', sa.String(length=40), nullable=False),
    sa.Column('item_name', sa.String(length=100), nullable=False),
    sa.Column('item_supplement', sa.String(length=200), nullable=True),
    sa.Column('item_label', sa.String(length=50), nullable=True),
    sa.Column('sort', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('item_code', name=op.f('pk_service_items'))
    )
    op.create_table('service_packages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('package_name', sa.String(length=20), nullable=False),
    sa.Column('package_code', sa.String(length=8), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('enabled_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_service_packages')),
    sa.UniqueConstraint('package_code', name=op.f('uq_service_packages_package_code'))
    )
    op.create_table('sms_packages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.SmallInteger(), nullable=False),
    sa.Column('package_name', sa.String(length=20), nullable=False),
    sa.Column('country_code', sa.String(length=4), nullable=False),
    sa.Column('package_fee_cents', sa.BigInteger(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('discount', sa.SmallInteger(), nullable=False),
    sa.Column('activity_discount', sa.SmallInteger(), nullable=True),
    sa.Column('sort', sa.Integer(), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sms_packages'))
    )
    with op.batch_alter_table('sms_packages', schema=None) as batch_op:
        batch_op.create_index('ix_sms_packages_country_kind', ['country_code', 'kind'], unique=False)

    op.create_table('verification_codes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('channel', sa.String(length=10), nullable=False),
    sa.Column('target', sa.String(length=200), nullable=False),
    sa.Column('purpose', sa.SmallInteger(), nullable=False),
    sa.Column('code_digest', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('attempts', sa.SmallInteger(), nullable=False),
    sa.Column('consumed_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_verification_codes'))
    )
    with op.batch_alter_table('verification_codes', schema=None) as batch_op:
        batch_op.create_index('ix_verification_codes_lookup', ['channel', 'target', 'purpose', 'created_at'], unique=False)

    op.create_table('account_roles',
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('role_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_account_roles_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['role_id'], ['roles.id'], name=op.f('fk_account_roles_role_id_roles'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('account_id', 'role_id', name=op.f('pk_account_roles'))
    )
    op.create_table('activity_accounts',
    sa.Column('activity_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_activity_accounts_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['activity_id'], ['activities.id'], name=op.f('fk_activity_accounts_activity_id_activities'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('activity_id', 'account_id', name=op.f('pk_activity_accounts'))
    )
    op.create_table('device_types',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('type_name', sa.String(length=50), nullable=False),
    sa.Column('type_code', sa.Integer(), nullable=False),
    sa.Column('series_id', sa.Integer(), nullable=True),
    sa.Column('add_type', sa.SmallInteger(), nullable=False),
    sa.Column('scenes', sa.String(length=20), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('description', sa.String(length=200), nullable=True),
    sa.ForeignKeyConstraint(['series_id'], ['device_series.id'], name=op.f('fk_device_types_series_id_device_series')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device_types')),
    sa.UniqueConstraint('type_code', name=op.f('uq_device_types_type_code'))
    )
    op.create_table('login_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_digest', sa.String(length=64), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('login_type', sa.SmallInteger(), nullable=False),
    sa.Column('client_address', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_login_sessions_account_id_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_login_sessions')),
    sa.UniqueConstraint('token_digest', name=op.f('uq_login_sessions_token_digest'))
    )
    with op.batch_alter_table('login_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_login_sessions_account_id'), ['account_id'], unique=False)

    op.create_table('organizations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=50), nullable=False),
    sa.Column('creator_account_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['creator_account_id'], ['accounts.id'], name=op.f('fk_organizations_creator_account_id_accounts')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_organizations'))
    )
    with op.batch_alter_table('organizations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_organizations_creator_account_id'), ['creator_account_id'], unique=False)

    op.create_table('premium_memberships',
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_premium_memberships_account_id_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('account_id', name=op.f('pk_premium_memberships'))
    )
    op.create_table('role_permissions',
    sa.Column('role_id', sa.Integer(), nullable=False),
    sa.Column('permission_name', sa.String(length=100), nullable=False),
    sa.ForeignKeyConstraint(['permission_name'], ['permissions.name'], name=op.f('fk_role_permissions_permission_name_permissions'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['role_id'], ['roles.id'], name=op.f('fk_role_permissions_role_id_roles'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('role_id', 'permission_name', name=op.f('pk_role_permissions'))
    )
    op.create_table('service_levels',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('package_id', sa.Integer(), nullable=False),
    sa.Column('level_name', sa.String(length=20), nullable=False),
    sa.Column('level_describe', sa.String(length=200), nullable=True),
    sa.Column('icon_url', sa.String(length=500), nullable=True),
    sa.Column('sort', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['package_id'], ['service_packages.id'], name=op.f('fk_service_levels_package_id_service_packages'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_service_levels'))
    )
    with op.batch_alter_table('service_levels', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_service_levels_package_id'), ['package_id'], unique=False)

    op.create_table('user_profiles',
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('wallet_status', sa.SmallInteger(), nullable=False),
    sa.Column('home_page', sa.String(length=200), nullable=True),
    sa.Column('elitech_identity', sa.String(length=32), nullable=True),
    sa.Column('elitech_industry', sa.String(length=32), nullable=True),
    sa.Column('enable_protect', sa.SmallInteger(), nullable=False),
    sa.Column('enable_fda', sa.SmallInteger(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_user_profiles_account_id_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('account_id', name=op.f('pk_user_profiles'))
    )
    op.create_table('devices',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guid', sa.String(length=32), nullable=False),
    sa.Column('device_name', sa.String(length=50), nullable=False),
    sa.Column('type_id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('organization_id', sa.Integer(), nullable=True),
    sa.Column('sim_iccid', sa.String(length=30), nullable=True),
    sa.Column('jc_iccid_status', sa.SmallInteger(), nullable=False),
    sa.Column('level_id', sa.Integer(), nullable=True),
    sa.Column('service_expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('sms_count', sa.Integer(), nullable=False),
    sa.Column('voice_count', sa.Integer(), nullable=False),
    sa.Column('country_code', sa.String(length=4), nullable=True),
    sa.Column('node_type', sa.SmallInteger(), nullable=False),
    sa.Column('display_precision', sa.SmallInteger(), nullable=False),
    sa.Column('temperature_unit', sa.String(length=1), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('remark', sa.String(length=120), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['level_id'], ['service_levels.id'], name=op.f('fk_devices_level_id_service_levels')),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_devices_organization_id_organizations')),
    sa.ForeignKeyConstraint(['owner_account_id'], ['accounts.id'], name=op.f('fk_devices_owner_account_id_accounts')),
    sa.ForeignKeyConstraint(['type_id'], ['device_types.id'], name=op.f('fk_devices_type_id_device_types')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_devices')),
    sa.UniqueConstraint('guid', name=op.f('uq_devices_guid'))
    )
    with op.batch_alter_table('devices', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_devices_organization_id'), ['organization_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_devices_owner_account_id'), ['owner_account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_devices_type_id'), ['type_id'], unique=False)

    op.create_table('level_items',
    sa.Column('level_id', sa.Integer(), nullable=False),
    sa.Column('item_code', sa.String(length=40), nullable=False),
    sa.ForeignKeyConstraint(['item_code'], ['service_items.item_code'], name=op.f('fk_level_items_item_code_service_items'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['level_id'], ['service_levels.id'], name=op.f('fk_level_items_level_id_service_levels'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('level_id', 'item_code', name=op.f('pk_level_items'))
    )
    op.create_table('level_year_options',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('level_id', sa.Integer(), nullable=False),
    sa.Column('time_length', sa.Integer(), nullable=False),
    sa.Column('service_fee_cents', sa.BigInteger(), nullable=False),
    sa.Column('data_fee_cents', sa.BigInteger(), nullable=False),
    sa.Column('discount', sa.SmallInteger(), nullable=False),
    sa.Column('top_status', sa.SmallInteger(), nullable=False),
    sa.Column('sort', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['level_id'], ['service_levels.id'], name=op.f('fk_level_year_options_level_id_service_levels'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_level_year_options'))
    )
    with op.batch_alter_table('level_year_options', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_level_year_options_level_id'), ['level_id'], unique=False)

    op.create_table('organization_members',
    sa.Column('organization_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('role_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_organization_members_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_organization_members_organization_id_organizations'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['role_id'], ['roles.id'], name=op.f('fk_organization_members_role_id_roles')),
    sa.PrimaryKeyConstraint('organization_id', 'account_id', name=op.f('pk_organization_members'))
    )
    with op.batch_alter_table('organization_members', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_organization_members_account_id'), ['account_id'], unique=False)

    op.create_table('package_device_types',
    sa.Column('package_id', sa.Integer(), nullable=False),
    sa.Column('device_type_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['device_type_id'], ['device_types.id'], name=op.f('fk_package_device_types_device_type_id_device_types'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['package_id'], ['service_packages.id'], name=op.f('fk_package_device_types_package_id_service_packages'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('package_id', 'device_type_id', name=op.f('pk_package_device_types'))
    )
    op.create_table('activity_year_options',
    sa.Column('activity_id', sa.Integer(), nullable=False),
    sa.Column('level_year_id', sa.Integer(), nullable=False),
    sa.Column('activity_discount', sa.SmallInteger(), nullable=False),
    sa.Column('presentation_month', sa.SmallInteger(), nullable=False),
    sa.ForeignKeyConstraint(['activity_id'], ['activities.id'], name=op.f('fk_activity_year_options_activity_id_activities'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['level_year_id'], ['level_year_options.id'], name=op.f('fk_activity_year_options_level_year_id_level_year_options'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('activity_id', 'level_year_id', name=op.f('pk_activity_year_options'))
    )
    op.create_table('auto_renew_agreements',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('level_id', sa.Integer(), nullable=False),
    sa.Column('level_year_id', sa.Integer(), nullable=False),
    sa.Column('pay_type', sa.SmallInteger(), nullable=False),
    sa.Column('total_fee_cents', sa.BigInteger(), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('next_execution_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('cancelled_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_auto_renew_agreements_device_id_devices'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['level_id'], ['service_levels.id'], name=op.f('fk_auto_renew_agreements_level_id_service_levels')),
    sa.ForeignKeyConstraint(['level_year_id'], ['level_year_options.id'], name=op.f('fk_auto_renew_agreements_level_year_id_level_year_options')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auto_renew_agreements'))
    )
    with op.batch_alter_table('auto_renew_agreements', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auto_renew_agreements_device_id'), ['device_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('auto_renew_agreements', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auto_renew_agreements_device_id'))

    op.drop_table('auto_renew_agreements')
    op.drop_table('activity_year_options')
    op.drop_table('package_device_types')
    with op.batch_alter_table('organization_members', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_organization_members_account_id'))

    op.drop_table('organization_members')
    with op.batch_alter_table('level_year_options', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_level_year_options_level_id'))

    op.drop_table('level_year_options')
    op.drop_table('level_items')
    with op.batch_alter_table('devices', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_devices_type_id'))
        batch_op.drop_index(batch_op.f('ix_devices_owner_account_id'))
        batch_op.drop_index(batch_op.f('ix_devices_organization_id'))

    op.drop_table('devices')
    op.drop_table('user_profiles')
    with op.batch_alter_table('service_levels', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_service_levels_package_id'))

    op.drop_table('service_levels')
    op.drop_table('role_permissions')
    op.drop_table('premium_memberships')
    with op.batch_alter_table('organizations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_organizations_creator_account_id'))

    op.drop_table('organizations')
    with op.batch_alter_table('login_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_login_sessions_account_id'))

    op.drop_table('login_sessions')
    op.drop_table('device_types')
    op.drop_table('activity_accounts')
    op.drop_table('account_roles')
    with op.batch_alter_table('verification_codes', schema=None) as batch_op:
        batch_op.drop_index('ix_verification_codes_lookup')

    op.drop_table('verification_codes')
    with op.batch_alter_table('sms_packages', schema=None) as batch_op:
        batch_op.drop_index('ix_sms_packages_country_kind')

    op.drop_table('sms_packages')
    op.drop_table('service_packages')
    op.drop_table('service_items')
    op.drop_table('roles')
    op.drop_table('permissions')
    with op.batch_alter_table('outbox_messages', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_messages_pending')

    op.drop_table('outbox_messages')
    with op.batch_alter_table('notices', schema=None) as batch_op:
        batch_op.drop_index('ix_notices_lookup')

    op.drop_table('notices')
    op.drop_table('login_locks')
    with op.batch_alter_table('login_failures', schema=None) as batch_op:
        batch_op.drop_index('ix_login_failures_scope_key_at')

    op.drop_table('login_failures')
    op.drop_table('dict_items')
    op.drop_table('device_series')
    op.drop_table('custom_pages')
    with op.batch_alter_table('captchas', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_captchas_expires_at'))

    op.drop_table('captchas')
    op.drop_table('activities')
    op.drop_table('accounts')
