"""Refunds of orders (core.ordering.refunds): each state change a conditional write, so a refund is
decided once and finished once however many processes try."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, aliased

from adapters.persistence.models import AccountRow, OrderRefundRow
from adapters.persistence.ordering import fresh, write
from adapters.persistence.results import rows_written
from core.ordering.refund_model import Refund, RefundStatus
from core.ordering.take_back import TakeBack

_REQUESTER, _DECIDER = aliased(AccountRow), aliased(AccountRow)


def _instant(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _stored(taken: TakeBack) -> dict[str, Any]:
    return {"deviceId": taken.device_id, "levelBefore": taken.level_before, "levelAfter": taken.level_after,
            "expiresBefore": taken.expires_before.isoformat() if taken.expires_before else None,
            "expiresAfter": taken.expires_after.isoformat() if taken.expires_after else None,
            "monthsTaken": str(taken.months_taken), "smsTaken": taken.sms_taken, "voiceTaken": taken.voice_taken,
            "smsUsed": taken.sms_used, "voiceUsed": taken.voice_used, "restored": taken.restored}


def _taken(stored: dict[str, Any]) -> TakeBack:
    return TakeBack(stored["deviceId"], stored["levelBefore"], _instant(stored["expiresBefore"]),
                    stored["levelAfter"], _instant(stored["expiresAfter"]), Fraction(stored["monthsTaken"]),
                    stored["smsTaken"], stored["voiceTaken"], stored["smsUsed"], stored["voiceUsed"],
                    stored["restored"])


def _refund(row: OrderRefundRow, requester: str | None = None, decider: str | None = None) -> Refund:
    return Refund(row.id, row.order_id, row.refund_code, row.amount_cents, row.currency, row.reason,
                  RefundStatus(row.status), row.requested_by, row.requested_at, row.decided_by, row.decided_at,
                  row.decision_note, tuple(_taken(t) for t in row.take_backs or ()), row.reference, row.error,
                  row.finished_at, requester, decider)


class SqlAlchemyRefundRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, refund: Refund) -> Refund:
        row = OrderRefundRow(order_id=refund.order_id, refund_code=refund.code, amount_cents=refund.amount_cents,
                             currency=refund.currency, reason=refund.reason, status=int(refund.status),
                             requested_by=refund.requested_by, requested_at=refund.requested_at)
        self._s.add(row)
        self._s.flush()
        return _refund(row)

    def _named(self, *where, limit: int | None = None) -> list[Refund]:
        query = (select(OrderRefundRow, _REQUESTER.user_name, _DECIDER.user_name)
                 .outerjoin(_REQUESTER, _REQUESTER.id == OrderRefundRow.requested_by)
                 .outerjoin(_DECIDER, _DECIDER.id == OrderRefundRow.decided_by)
                 .where(*where).order_by(OrderRefundRow.requested_at, OrderRefundRow.id).limit(limit))
        return [_refund(row, requester, decider) for row, requester, decider in self._s.execute(fresh(query)).all()]

    def get(self, refund_id: int) -> Refund | None:
        found = self._named(OrderRefundRow.id == refund_id)
        return found[0] if found else None

    def count(self, order_id: int) -> int:
        return self._s.scalar(select(func.count()).where(OrderRefundRow.order_id == order_id)) or 0

    def awaiting_cents(self, order_id: int) -> int:
        return self._s.scalar(select(func.coalesce(func.sum(OrderRefundRow.amount_cents), 0)).where(
            OrderRefundRow.order_id == order_id,
            OrderRefundRow.status == int(RefundStatus.AWAITING_APPROVAL))) or 0

    def set_take_backs(self, refund_id: int, take_backs: Sequence[TakeBack]) -> None:
        self._s.execute(write(update(OrderRefundRow).where(OrderRefundRow.id == refund_id)
                              .values(take_backs=[_stored(t) for t in take_backs])))

    def decide(self, refund_id: int, status: RefundStatus, operator_id: int, at: datetime, note: str | None) -> bool:
        finished = {"finished_at": at} if status is RefundStatus.REJECTED else {}
        result = self._s.execute(write(update(OrderRefundRow).where(
            OrderRefundRow.id == refund_id, OrderRefundRow.status == int(RefundStatus.AWAITING_APPROVAL))
            .values(status=int(status), decided_by=operator_id, decided_at=at, decision_note=note, **finished)))
        return rows_written(result) == 1

    def finish(self, refund_id: int, status: RefundStatus, at: datetime, *, reference: str | None = None,
               error: str | None = None) -> bool:
        result = self._s.execute(write(update(OrderRefundRow).where(
            OrderRefundRow.id == refund_id, OrderRefundRow.status == int(RefundStatus.PROCESSING))
            .values(status=int(status), finished_at=at, reference=reference, error=error)))
        return rows_written(result) == 1

    def by_code(self, refund_code: str) -> Refund | None:
        found = self._named(OrderRefundRow.refund_code == refund_code)
        return found[0] if found else None

    def set_reference(self, refund_id: int, reference: str) -> bool:
        result = self._s.execute(write(update(OrderRefundRow).where(
            OrderRefundRow.id == refund_id, OrderRefundRow.status == int(RefundStatus.PROCESSING))
            .values(reference=reference)))
        return rows_written(result) == 1

    def of_order(self, order_id: int) -> list[Refund]:
        return self._named(OrderRefundRow.order_id == order_id)

    def awaiting(self, limit: int) -> list[Refund]:
        return self._named(OrderRefundRow.status == int(RefundStatus.AWAITING_APPROVAL), limit=limit)

    def processing_before(self, instant: datetime, limit: int) -> list[Refund]:
        return self._named(OrderRefundRow.status == int(RefundStatus.PROCESSING),
                           # started: when asked for, or when approved
                           func.coalesce(OrderRefundRow.decided_at, OrderRefundRow.requested_at) < instant,
                           limit=limit)
