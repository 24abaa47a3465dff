"""Calibration reports (issue 21): the lab's report of an application, a PDF kept in the database
as invoices' files are, one an application. Certificates' PDFs are not stored: they are printed
from the issued content on each download (core.calibration.documents).

Revision ID: 0049_calibration_reports
Revises: 0048_calibration
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0049_calibration_reports'
down_revision = '0048_calibration'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('calibration_reports',
    sa.Column('application_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('file_name', sa.String(length=120), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('content', sa.LargeBinary(), nullable=False),
    sa.Column('uploaded_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('uploaded_by', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['application_id'], ['calibration_applications.id'],
                            name=op.f('fk_calibration_reports_application_id_calibration_applications'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('application_id', name=op.f('pk_calibration_reports'))
    )
    for table in sqlite_tables(op, 'calibration_reports'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    op.drop_table('calibration_reports')
