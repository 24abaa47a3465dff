"""Unpaid orders: when each order's payment stops working at its provider (expires_at), why a
closed order was closed (close_reason: superseded, cancelled, expired, paymentMismatch), and the
name of each device as it was when the order was placed (order_lines.device_name).

Orders still unpaid get the expiry their provider gave them (2 hours from their placing, 3 for
PayPal); those closed before reasons were kept were closed on expiry; existing lines take their
device's present name.

Revision ID: 0008_orders
Revises: 0007_defer
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from alembic import op

from adapters.persistence.bounds import add_sqlite_checks, sqlite_tables
from adapters.persistence.types import UtcDateTime

revision = '0008_orders'
down_revision = '0007_defer'
branch_labels = None
depends_on = None

UNPAID, CLOSED, PAYPAL = 1, 4, 20


def upgrade() -> None:
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('close_reason', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('expires_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('order_lines', schema=None) as batch_op:
        batch_op.add_column(sa.Column('device_name', sa.String(length=50), nullable=True))

    orders = sa.table('orders', sa.column('id', sa.Integer), sa.column('status', sa.SmallInteger),
                      sa.column('pay_type', sa.SmallInteger), sa.column('created_at', UtcDateTime()),
                      sa.column('expires_at', UtcDateTime()), sa.column('close_reason', sa.String))
    bind = op.get_bind()
    for order_id, pay_type, created_at in bind.execute(
            sa.select(orders.c.id, orders.c.pay_type, orders.c.created_at).where(orders.c.status == UNPAID)).all():
        validity = timedelta(hours=3 if pay_type == PAYPAL else 2)
        bind.execute(orders.update().where(orders.c.id == order_id).values(expires_at=created_at + validity))
    op.execute(orders.update().where(orders.c.status == CLOSED).values(close_reason='expired'))
    op.execute("UPDATE order_lines SET device_name = "
               "(SELECT devices.device_name FROM devices WHERE devices.id = order_lines.device_id)")

    for table in sqlite_tables(op, 'orders', 'order_lines'):
        add_sqlite_checks(op, table)


def downgrade() -> None:
    with op.batch_alter_table('order_lines', schema=None) as batch_op:
        batch_op.drop_column('device_name')
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_column('expires_at')
        batch_op.drop_column('close_reason')
