"""Invoices of paid orders (issue 19): each request (invoice_requests) with the orders it covers
(invoice_orders; an order is covered by one waiting or issued request at most) and an issued one's
PDF (invoice_files). An order paid before this revision that was placed with applyFlag and a bill
and is not invoiced becomes a waiting request, made when it was paid, for what is still paid of it.

Revision ID: 0043_invoices
Revises: 0042_auto_renew
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables
from adapters.persistence.types import UtcDateTime

revision = '0043_invoices'
down_revision = '0042_auto_renew'
branch_labels = None
depends_on = None

PAID, PARTIALLY_REFUNDED, NOT_INVOICED, REQUESTED = 2, 5, 0, 1


def upgrade() -> None:
    op.create_table('invoice_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('bill_id', sa.Integer(), nullable=True),
    sa.Column('bill', sa.JSON(), nullable=False),
    sa.Column('status', sa.SmallInteger(), nullable=False),
    sa.Column('requested_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('requested_by', sa.Integer(), nullable=True),
    sa.Column('decided_by', sa.Integer(), nullable=True),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('decision_note', sa.String(length=200), nullable=True),
    sa.Column('delivery', sa.SmallInteger(), nullable=True),
    sa.Column('invoice_number', sa.String(length=40), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_invoice_requests_account_id_accounts')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_invoice_requests'))
    )
    op.create_index('ix_invoice_requests_status', 'invoice_requests', ['status', 'requested_at'], unique=False)
    op.create_index('ix_invoice_requests_account', 'invoice_requests', ['account_id', 'requested_at'], unique=False)
    op.create_table('invoice_orders',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('invoice_id', sa.Integer(), nullable=False),
    sa.Column('order_id', sa.Integer(), nullable=False),
    sa.Column('order_code', sa.String(length=20), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['invoice_id'], ['invoice_requests.id'],
                            name=op.f('fk_invoice_orders_invoice_id_invoice_requests'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['order_id'], ['orders.id'], name=op.f('fk_invoice_orders_order_id_orders'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_invoice_orders'))
    )
    op.create_index(op.f('ix_invoice_orders_invoice_id'), 'invoice_orders', ['invoice_id'], unique=False)
    op.create_index(op.f('ix_invoice_orders_order_id'), 'invoice_orders', ['order_id'], unique=False)
    op.create_index('uq_invoice_orders_active_order', 'invoice_orders', ['order_id'], unique=True,
                    sqlite_where=sa.text('active = 1'), postgresql_where=sa.text('active'))
    op.create_table('invoice_files',
    sa.Column('invoice_id', sa.Integer(), nullable=False),
    sa.Column('file_name', sa.String(length=120), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('content', sa.LargeBinary(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['invoice_id'], ['invoice_requests.id'],
                            name=op.f('fk_invoice_files_invoice_id_invoice_requests'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('invoice_id', name=op.f('pk_invoice_files'))
    )
    for table in sqlite_tables(op, 'invoice_requests', 'invoice_orders', 'invoice_files'):
        add_sqlite_checks(op, table)
    _requests_of_paid_orders()


def _requests_of_paid_orders() -> None:
    """The invoices paid orders placed with applyFlag were waiting for, as requests."""
    bind = op.get_bind()
    orders = sa.table('orders', sa.column('id', sa.Integer()), sa.column('order_code', sa.String()),
                      sa.column('account_id', sa.Integer()), sa.column('currency', sa.String()),
                      sa.column('order_fee_cents', sa.BigInteger()), sa.column('pay_fee_cents', sa.BigInteger()),
                      sa.column('refunded_cents', sa.BigInteger()), sa.column('status', sa.SmallInteger()),
                      sa.column('apply_flag', sa.Boolean()), sa.column('bill_id', sa.Integer()),
                      sa.column('invoice', sa.JSON()), sa.column('invoice_status', sa.SmallInteger()),
                      sa.column('paid_at', UtcDateTime()))
    requests = sa.table('invoice_requests', sa.column('id', sa.Integer()), sa.column('account_id', sa.Integer()),
                        sa.column('currency', sa.String()), sa.column('amount_cents', sa.BigInteger()),
                        sa.column('bill_id', sa.Integer()), sa.column('bill', sa.JSON()),
                        sa.column('status', sa.SmallInteger()),
                        sa.column('requested_at', UtcDateTime()))
    covered = sa.table('invoice_orders', sa.column('invoice_id', sa.Integer()), sa.column('order_id', sa.Integer()),
                       sa.column('order_code', sa.String()), sa.column('amount_cents', sa.BigInteger()),
                       sa.column('active', sa.Boolean()))
    waiting = bind.execute(sa.select(orders).where(
        orders.c.apply_flag.is_(True), orders.c.status.in_([PAID, PARTIALLY_REFUNDED]),
        orders.c.invoice_status == NOT_INVOICED, orders.c.invoice.is_not(None), orders.c.paid_at.is_not(None),
    ).order_by(orders.c.id)).all()
    for order in waiting:
        amount = (order.pay_fee_cents if order.pay_fee_cents is not None else order.order_fee_cents) \
            - (order.refunded_cents or 0)
        if amount <= 0:
            continue
        invoice_id = bind.execute(sa.insert(requests).values(
            account_id=order.account_id, currency=order.currency, amount_cents=amount, bill_id=order.bill_id,
            bill=order.invoice, status=REQUESTED, requested_at=order.paid_at).returning(requests.c.id)).scalar_one()
        bind.execute(sa.insert(covered).values(invoice_id=invoice_id, order_id=order.id, order_code=order.order_code,
                                               amount_cents=amount, active=True))


def downgrade() -> None:
    op.drop_table('invoice_files')
    op.drop_index('uq_invoice_orders_active_order', table_name='invoice_orders',
                  sqlite_where=sa.text('active = 1'), postgresql_where=sa.text('active'))
    op.drop_index(op.f('ix_invoice_orders_order_id'), table_name='invoice_orders')
    op.drop_index(op.f('ix_invoice_orders_invoice_id'), table_name='invoice_orders')
    op.drop_table('invoice_orders')
    op.drop_index('ix_invoice_requests_account', table_name='invoice_requests')
    op.drop_index('ix_invoice_requests_status', table_name='invoice_requests')
    op.drop_table('invoice_requests')
