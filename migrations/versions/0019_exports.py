"""exports and export_certificates: the download centre's files (issue 16) and the facts behind
each PDF report's verification code, which outlive the file.

Revision ID: 0019_exports
Revises: 0018_device_events
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0019_exports'
down_revision = '0018_device_events'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('exports',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('format', sa.String(length=8), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=True),
    sa.Column('since', sa.DateTime(timezone=True), nullable=True),
    sa.Column('until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('filters', sa.JSON(), nullable=False),
    sa.Column('language', sa.String(length=10), nullable=False),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('progress', sa.SmallInteger(), nullable=False),
    sa.Column('title', sa.String(length=100), nullable=False),
    sa.Column('file_name', sa.String(length=120), nullable=True),
    sa.Column('size', sa.BigInteger(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('error', sa.String(length=200), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_exports_account_id_accounts'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_exports'))
    )
    with op.batch_alter_table('exports', schema=None) as batch_op:
        batch_op.create_index('ix_exports_account_created', ['account_id', 'created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_exports_created_at'), ['created_at'], unique=False)
    op.create_table('export_certificates',
    sa.Column('code', sa.String(length=32), nullable=False),
    sa.Column('export_id', sa.String(length=32), nullable=False),
    sa.Column('account_name', sa.String(length=50), nullable=False),
    sa.Column('device_guid', sa.String(length=32), nullable=False),
    sa.Column('device_name', sa.String(length=50), nullable=False),
    sa.Column('since', sa.DateTime(timezone=True), nullable=False),
    sa.Column('until', sa.DateTime(timezone=True), nullable=False),
    sa.Column('generated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('readings', sa.BigInteger(), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=True),
    sa.PrimaryKeyConstraint('code', name=op.f('pk_export_certificates'))
    )
    for name in ('exports', 'export_certificates'):
        for table in sqlite_tables(op, name):
            add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_table('export_certificates')
    with op.batch_alter_table('exports', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_exports_created_at'))
        batch_op.drop_index('ix_exports_account_created')
    op.drop_table('exports')
