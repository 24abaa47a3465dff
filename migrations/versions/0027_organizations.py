"""organization_invitations: the invitations an organization sends, answered in the message
centre (issue 17).

Revision ID: 0027_organizations
Revises: 0026_notice_languages
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0027_organizations'
down_revision = '0026_notice_languages'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('organization_invitations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('organization_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('role_code', sa.String(length=50), nullable=False),
    sa.Column('inviter_account_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'],
                            name=op.f('fk_organization_invitations_organization_id_organizations'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'],
                            name=op.f('fk_organization_invitations_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['inviter_account_id'], ['accounts.id'],
                            name=op.f('fk_organization_invitations_inviter_account_id_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_organization_invitations'))
    )
    with op.batch_alter_table('organization_invitations', schema=None) as batch_op:
        batch_op.create_index('ix_organization_invitations_organization_status', ['organization_id', 'status'],
                              unique=False)
        batch_op.create_index(batch_op.f('ix_organization_invitations_account_id'), ['account_id'], unique=False)
    for table in sqlite_tables(op, 'organization_invitations'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    with op.batch_alter_table('organization_invitations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_organization_invitations_account_id'))
        batch_op.drop_index('ix_organization_invitations_organization_status')
    op.drop_table('organization_invitations')
