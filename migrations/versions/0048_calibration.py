"""Calibration (issue 21): applications with their lines at frozen prices, the price of each
service per device type and currency, certificates in versions (their content as JSON, what is
looked up in columns), the year's certificate sequence, a device's and a device type's calibration
(tables of their own beside `devices`), and the reminders of due dates posted.

Revision ID: 0048_calibration
Revises: 0047_revenue_speed
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables

revision = '0048_calibration'
down_revision = '0047_revenue_speed'
branch_labels = None
depends_on = None

TABLES = ('calibration_applications', 'calibration_lines', 'calibration_prices', 'calibration_certificates',
          'certificate_sequences', 'device_calibrations', 'device_type_calibrations', 'calibration_reminders')


def _instant(name: str, nullable: bool = True) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _text(name: str, length: int, nullable: bool = True) -> sa.Column:
    return sa.Column(name, sa.String(length=length), nullable=nullable)


def upgrade() -> None:
    op.create_table('calibration_applications',
    sa.Column('id', sa.Integer(), nullable=False),
    _text('number', 20, nullable=False),
    sa.Column('applicant_account_id', sa.Integer(), nullable=True),
    _text('customer_name', 100),
    _text('contact_name', 30, nullable=False),
    _text('contact_phone', 20),
    _text('contact_email', 100),
    _text('return_address', 200),
    _text('customer_address', 200),
    sa.Column('invoice_type', sa.SmallInteger(), nullable=True),
    _text('invoice_title', 100),
    _text('tax_number', 20),
    _text('remark', 200),
    _text('currency', 3, nullable=False),
    sa.Column('total_cents', sa.BigInteger(), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('quick_order', sa.Boolean(), nullable=False),
    sa.Column('handled', sa.Boolean(), nullable=False),
    _text('inbound_tracking', 40),
    _text('outbound_tracking', 40),
    sa.Column('pay_type', sa.SmallInteger(), nullable=True),
    _text('payment_reference', 100),
    sa.Column('paid_cents', sa.BigInteger(), nullable=False),
    _instant('paid_at'),
    _instant('cancelled_at'),
    sa.Column('refund_cents', sa.BigInteger(), nullable=False),
    sa.Column('refund_state', sa.SmallInteger(), nullable=False),
    _text('access_digest', 64),
    _instant('created_at', nullable=False),
    _instant('updated_at', nullable=False),
    # RESTRICT: the lab's records outlive an account, and a null applicant means "no account" (models.py)
    sa.ForeignKeyConstraint(['applicant_account_id'], ['accounts.id'],
                            name=op.f('fk_calibration_applications_applicant_account_id_accounts'),
                            ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_calibration_applications')),
    sa.UniqueConstraint('number', name=op.f('uq_calibration_applications_number'))
    )
    op.create_index('ix_calibration_applications_applicant_created', 'calibration_applications',
                    ['applicant_account_id', 'created_at'])
    op.create_index('ix_calibration_applications_created', 'calibration_applications', ['created_at'])
    op.create_index('ix_calibration_applications_refund', 'calibration_applications',
                    ['refund_state', 'cancelled_at'])
    op.create_index('ix_calibration_applications_status', 'calibration_applications', ['status'])
    op.create_table('calibration_lines',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('application_id', sa.Integer(), nullable=False),
    sa.Column('line_index', sa.SmallInteger(), nullable=False),
    sa.Column('service', sa.SmallInteger(), nullable=False),
    sa.Column('device_type_id', sa.Integer(), nullable=False),
    _text('model', 50, nullable=False),
    _text('serial', 50, nullable=False),
    sa.Column('price_cents', sa.BigInteger(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=True),
    _text('points_note', 200),
    sa.ForeignKeyConstraint(['application_id'], ['calibration_applications.id'],
                            name=op.f('fk_calibration_lines_application_id_calibration_applications'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_calibration_lines')),
    sa.UniqueConstraint('application_id', 'line_index', name=op.f('uq_calibration_lines_application_id_line_index'))
    )
    op.create_table('calibration_prices',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_type_id', sa.Integer(), nullable=False),
    sa.Column('service', sa.SmallInteger(), nullable=False),
    _text('currency', 3, nullable=False),
    sa.Column('price_cents', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['device_type_id'], ['device_types.id'],
                            name=op.f('fk_calibration_prices_device_type_id_device_types'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_calibration_prices')),
    sa.UniqueConstraint('device_type_id', 'service', 'currency',
                        name=op.f('uq_calibration_prices_device_type_id_service_currency'))
    )
    op.create_table('calibration_certificates',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('application_id', sa.Integer(), nullable=False),
    sa.Column('line_index', sa.SmallInteger(), nullable=False),
    sa.Column('version', sa.SmallInteger(), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    _text('number', 40),
    sa.Column('device_id', sa.Integer(), nullable=True),
    sa.Column('content', sa.JSON(), nullable=False),
    _instant('created_at', nullable=False),
    sa.Column('issued_on', sa.Date(), nullable=True),
    _instant('issued_at'),
    _instant('superseded_at'),
    _text('amendment', 200),
    sa.ForeignKeyConstraint(['application_id'], ['calibration_applications.id'],
                            name=op.f('fk_calibration_certificates_application_id_calibration_applications')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_calibration_certificates')),
    sa.UniqueConstraint('application_id', 'line_index', 'version',
                        name=op.f('uq_calibration_certificates_application_id_line_index_version')),
    sa.UniqueConstraint('number', 'version', name=op.f('uq_calibration_certificates_number_version'))
    )
    op.create_index('ix_calibration_certificates_device_id', 'calibration_certificates', ['device_id'])
    op.create_table('certificate_sequences',
    sa.Column('year', sa.SmallInteger(), autoincrement=False, nullable=False),
    sa.Column('last', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('year', name=op.f('pk_certificate_sequences'))
    )
    op.create_table('device_calibrations',
    sa.Column('device_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('interval_months', sa.SmallInteger(), nullable=True),
    sa.Column('calibrated_on', sa.Date(), nullable=True),
    sa.Column('due_on', sa.Date(), nullable=True),
    _text('certificate', 50),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_device_calibrations_device_id_devices'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('device_id', name=op.f('pk_device_calibrations'))
    )
    op.create_index('ix_device_calibrations_due_on', 'device_calibrations', ['due_on'])
    op.create_table('device_type_calibrations',
    sa.Column('type_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('interval_months', sa.SmallInteger(), nullable=False),
    sa.ForeignKeyConstraint(['type_id'], ['device_types.id'],
                            name=op.f('fk_device_type_calibrations_type_id_device_types'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('type_id', name=op.f('pk_device_type_calibrations'))
    )
    op.create_table('calibration_reminders',
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('due_on', sa.Date(), nullable=False),
    sa.Column('stage', sa.SmallInteger(), nullable=False),
    _instant('sent_at', nullable=False),
    sa.ForeignKeyConstraint(['device_id'], ['devices.id'], name=op.f('fk_calibration_reminders_device_id_devices'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('device_id', 'due_on', 'stage', name=op.f('pk_calibration_reminders'))
    )
    for table in sqlite_tables(op, *TABLES):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    for name in reversed(TABLES):
        op.drop_table(name)
