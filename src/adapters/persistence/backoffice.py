"""The operator home's counts, read across every customer in four aggregate queries."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session

from adapters.persistence.models import AccountRow, DeviceRow, OrderRow
from core.accounts.model import AccountType
from core.backoffice.model import OperatorCounts
from core.ordering.model import PAID_STATES
from core.shared.money import Money


class SqlAlchemyOperatorOverview:
    def __init__(self, session: Session) -> None:
        self._s = session

    def counts(self, day_start: datetime, day_end: datetime) -> OperatorCounts:
        customers = self._s.scalar(select(func.count()).select_from(AccountRow)
                                   .where(AccountRow.account_type != int(AccountType.SYSTEM)))
        devices, online, alarm = self._s.execute(select(
            func.count(), func.count().filter(DeviceRow.online.is_(True)),
            func.count().filter(DeviceRow.alarm_state != 0))).one()
        today = and_(OrderRow.created_at >= day_start, OrderRow.created_at < day_end)
        paid = and_(OrderRow.status.in_(sorted(PAID_STATES)), OrderRow.paid_at >= day_start,
                    OrderRow.paid_at < day_end)
        orders_today, paid_today = self._s.execute(select(
            func.count().filter(today), func.count().filter(paid))).one()
        revenue = self._s.execute(select(OrderRow.currency, func.sum(OrderRow.pay_fee_cents))
                                  .where(paid).group_by(OrderRow.currency).order_by(OrderRow.currency)).all()
        return OperatorCounts(
            customers=int(customers or 0), devices=int(devices), online=int(online), alarm=int(alarm),
            orders_today=int(orders_today), paid_today=int(paid_today),
            revenue_today=tuple(Money(int(cents or 0), currency) for currency, cents in revenue))
