"""Login failures by name and address; the account's language

Failures are now counted per (name, address) pair, per name across addresses and per address
across names (core.accounts.throttling), so each row holds both. Failures only matter for an hour:
the old rows, and the old per-name and per-address locks, are dropped rather than converted.
The account remembers the language of its owner's last login, for messages sent to them.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25 20:36:57.631363
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=10), nullable=True))

    with op.batch_alter_table('login_failures', schema=None) as batch_op:
        batch_op.drop_index('ix_login_failures_scope_key_at')
    op.drop_table('login_failures')
    op.create_table('login_failures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name_key', sa.String(length=200), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('failed_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_login_failures'))
    )
    with op.batch_alter_table('login_failures', schema=None) as batch_op:
        batch_op.create_index('ix_login_failures_name_at', ['name_key', 'failed_at'], unique=False)
        batch_op.create_index('ix_login_failures_address_at', ['address', 'failed_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_login_failures_failed_at'), ['failed_at'], unique=False)
    op.execute("DELETE FROM login_locks")


def downgrade() -> None:
    op.execute("DELETE FROM login_locks")
    with op.batch_alter_table('login_failures', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_login_failures_failed_at'))
        batch_op.drop_index('ix_login_failures_address_at')
        batch_op.drop_index('ix_login_failures_name_at')
    op.drop_table('login_failures')
    op.create_table('login_failures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('scope', sa.String(length=16), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('failed_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_login_failures'))
    )
    with op.batch_alter_table('login_failures', schema=None) as batch_op:
        batch_op.create_index('ix_login_failures_scope_key_at', ['scope', 'key', 'failed_at'], unique=False)

    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.drop_column('language')
