"""Electronic signatures and endorsements (issue 22): signatures (append-only: triggers refuse
UPDATE and DELETE, as on the operation log), endorsements, each account's failed signing attempts
and lock, each login session's last signature, and administrators' unlocks.

Revision ID: 0052_fda_signatures
Revises: 0051_fda_trail
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.append_only import (
    SIGNATURES,
    drop_trigger_statements,
    grant_statements,
    revoke_statements,
    trigger_statements,
)
from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0052_fda_signatures'
down_revision = '0051_fda_trail'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('fda_signatures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('record_type', sa.String(length=20), nullable=False),
    sa.Column('record_id', sa.String(length=64), nullable=False),
    sa.Column('record_label', sa.String(length=200), nullable=False),
    sa.Column('content_sha256', sa.String(length=64), nullable=False),
    sa.Column('subject_account_id', sa.Integer(), nullable=True),
    sa.Column('subject_organization_id', sa.Integer(), nullable=True),
    sa.Column('signer_account_id', sa.Integer(), nullable=False),
    sa.Column('signer_login', sa.String(length=50), nullable=False),
    sa.Column('signer_name', sa.String(length=100), nullable=False),
    sa.Column('meaning', sa.String(length=50), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=True),
    sa.Column('signed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=True),
    sa.Column('endorsement_id', sa.Integer(), nullable=True),
    sa.Column('endorsement_name', sa.String(length=50), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_signatures'))
    )
    op.create_index('ix_fda_signatures_record', 'fda_signatures', ['record_type', 'record_id', 'id'], unique=False)
    op.create_index('ix_fda_signatures_account_signed_at', 'fda_signatures', ['subject_account_id', 'signed_at'],
                    unique=False)
    op.create_index('ix_fda_signatures_organization_signed_at', 'fda_signatures',
                    ['subject_organization_id', 'signed_at'], unique=False)
    op.create_table('fda_endorsements',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('organization_id', sa.Integer(), nullable=True),
    sa.Column('name', sa.String(length=50), nullable=False),
    sa.Column('description', sa.String(length=50), nullable=True),
    sa.Column('meaning', sa.String(length=50), nullable=False),
    sa.Column('record_types', sa.JSON(), nullable=False),
    sa.Column('role_ids', sa.JSON(), nullable=False),
    sa.Column('account_ids', sa.JSON(), nullable=False),
    sa.Column('distinct_signer', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_fda_endorsements_account_id_accounts'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'],
                            name=op.f('fk_fda_endorsements_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_endorsements'))
    )
    op.create_index(op.f('ix_fda_endorsements_account_id'), 'fda_endorsements', ['account_id'], unique=False)
    op.create_index(op.f('ix_fda_endorsements_organization_id'), 'fda_endorsements', ['organization_id'],
                    unique=False)
    op.create_table('fda_signing_locks',
    sa.Column('account_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('failures', sa.SmallInteger(), nullable=False),
    sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_fda_signing_locks_account_id_accounts'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('account_id', name=op.f('pk_fda_signing_locks'))
    )
    op.create_table('fda_signing_sessions',
    sa.Column('session_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('last_signed_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['login_sessions.id'],
                            name=op.f('fk_fda_signing_sessions_session_id_login_sessions'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('session_id', name=op.f('pk_fda_signing_sessions'))
    )
    op.create_table('fda_signing_unlocks',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('organization_id', sa.Integer(), nullable=False),
    sa.Column('unlocked_by', sa.Integer(), nullable=False),
    sa.Column('unlocked_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_signing_unlocks'))
    )
    op.create_index(op.f('ix_fda_signing_unlocks_account_id'), 'fda_signing_unlocks', ['account_id'], unique=False)
    mine = ('fda_signatures', 'fda_endorsements', 'fda_signing_locks', 'fda_signing_sessions', 'fda_signing_unlocks')
    for table in sqlite_tables(op, *mine):
        if table.name in mine:  # reflecting a foreign key brings its table along: that one is not this migration's
            add_sqlite_checks(op, table)
    # After the checks: rebuilding a table on SQLite would drop its triggers.
    dialect = op.get_bind().dialect.name
    for statement in [*trigger_statements(dialect, SIGNATURES), *revoke_statements(dialect, SIGNATURES)]:
        op.execute(statement)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    for statement in [*grant_statements(dialect, SIGNATURES), *drop_trigger_statements(dialect, SIGNATURES)]:
        op.execute(statement)
    op.drop_table('fda_signing_unlocks')
    op.drop_table('fda_signing_sessions')
    op.drop_table('fda_signing_locks')
    op.drop_table('fda_endorsements')
    op.drop_table('fda_signatures')
