"""Coupons and recharge cards (core.vouchers): batches, their codes and cards, and the coupon
ledger ordering reserves, spends and releases through. Each change of a code's or card's state is
one conditional UPDATE: the database decides a race (of two orders, or two redemptions, one wins)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adapters.persistence.models import (
    AccountRow,
    ActivityRow,
    CardAttemptRow,
    CardBatchRow,
    CouponBatchRow,
    CouponRow,
    DeviceRow,
    OrderRow,
    RechargeCardRow,
    ServiceLevelRow,
)
from adapters.persistence.ordering import fresh, write
from adapters.persistence.results import rows_written
from core.shared.paging import Page, PageRequest
from core.vouchers.model import (
    BatchStatus,
    Card,
    CardBatch,
    Coupon,
    CouponBatch,
    CouponKind,
    CouponTerms,
    Validity,
    VoucherState,
)

_INSERT_CHUNK = 1000
UNUSED, RESERVED, USED = int(VoucherState.UNUSED), int(VoucherState.RESERVED), int(VoucherState.USED)


def _validity(row: CouponBatchRow | CardBatchRow) -> Validity:
    return Validity(row.starts_at, row.ends_at)


def _counts(state_column: Any, batch_column: Any, batch_ids: list[int], session: Session) -> dict[int, dict[int, int]]:
    counts: dict[int, dict[int, int]] = {i: {} for i in batch_ids}
    if batch_ids:
        rows: Any = session.execute(select(batch_column, state_column, func.count())
                                    .where(batch_column.in_(batch_ids)).group_by(batch_column, state_column))
        for batch_id, state, n in rows:
            counts[batch_id][state] = n
    return counts


class SqlAlchemyVoucherRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    # --- coupons -----------------------------------------------------------------------------------

    def _coupon_batch(self, row: CouponBatchRow, activity_name: str | None, counts: dict[int, int]) -> CouponBatch:
        return CouponBatch(row.id, row.prefix, row.count, CouponTerms(CouponKind(row.kind), row.value, row.currency),
                           _validity(row), row.remark, row.activity_id, activity_name, BatchStatus(row.status),
                           row.created_at, counts.get(UNUSED, 0), counts.get(RESERVED, 0), counts.get(USED, 0))

    def add_coupon_batch(self, batch: CouponBatch, codes: Sequence[str]) -> CouponBatch:
        row = CouponBatchRow(prefix=batch.prefix, count=batch.count, kind=int(batch.terms.kind),
                             value=batch.terms.value, currency=batch.terms.currency,
                             starts_at=batch.validity.starts_at, ends_at=batch.validity.ends_at,
                             activity_id=batch.activity_id, remark=batch.remark, status=int(batch.status),
                             created_at=batch.created_at)
        self._s.add(row)
        self._s.flush()
        for i in range(0, len(codes), _INSERT_CHUNK):
            self._s.execute(insert(CouponRow.__table__), [{"batch_id": row.id, "code": c, "state": UNUSED}
                                                for c in codes[i:i + _INSERT_CHUNK]])
        return self._coupon_batch(row, self.activity_name(batch.activity_id) if batch.activity_id else None,
                                  {UNUSED: len(codes)})

    def _coupon_batches(self, rows: Sequence[CouponBatchRow]) -> list[CouponBatch]:
        counts = _counts(CouponRow.state, CouponRow.batch_id, [r.id for r in rows], self._s)
        names = self._activity_names({r.activity_id for r in rows if r.activity_id})
        return [self._coupon_batch(r, names.get(r.activity_id) if r.activity_id else None, counts[r.id])
                for r in rows]

    def coupon_batches(self, request: PageRequest) -> Page[CouponBatch]:
        total = self._s.execute(select(func.count()).select_from(CouponBatchRow)).scalar_one()
        rows = self._s.scalars(fresh(select(CouponBatchRow).order_by(CouponBatchRow.id.desc())
                                     .offset(request.offset).limit(request.page_size))).all()
        return Page(request.start, request.page_size, total, self._coupon_batches(rows))

    def coupon_batch(self, batch_id: int) -> CouponBatch | None:
        row = self._s.scalar(fresh(select(CouponBatchRow).where(CouponBatchRow.id == batch_id)))
        return self._coupon_batches([row])[0] if row else None

    def _coupon_select(self):  # type: ignore[no-untyped-def]
        return (select(CouponRow, CouponBatchRow, AccountRow.user_name, OrderRow.order_code)
                .join(CouponBatchRow, CouponBatchRow.id == CouponRow.batch_id)
                .outerjoin(AccountRow, AccountRow.id == CouponRow.account_id)
                .outerjoin(OrderRow, OrderRow.id == CouponRow.order_id))

    @staticmethod
    def _coupon(row: Any, batch: Any, user_name: Any, order_code: Any) -> Coupon:
        return Coupon(row.id, row.code, row.batch_id, CouponTerms(CouponKind(batch.kind), batch.value, batch.currency),
                      _validity(batch), batch.status == int(BatchStatus.ENABLED), VoucherState(row.state),
                      row.order_id, row.account_id, user_name, order_code, row.reserved_at, row.used_at)

    def _coupon_page(self, where: list[Any], request: PageRequest, newest_used: bool = False) -> Page[Coupon]:
        total = self._s.execute(select(func.count()).select_from(CouponRow).where(*where)).scalar_one()
        order = ([func.coalesce(CouponRow.used_at, CouponRow.reserved_at).desc(), CouponRow.id.desc()] if newest_used
                 else [CouponRow.id])
        rows = self._s.execute(fresh(self._coupon_select().where(*where).order_by(*order)
                                     .offset(request.offset).limit(request.page_size))).all()
        return Page(request.start, request.page_size, total, [self._coupon(*r) for r in rows])

    def coupons(self, batch_id: int, state: VoucherState | None, request: PageRequest) -> Page[Coupon]:
        where: list[Any] = [CouponRow.batch_id == batch_id]
        if state is not None:
            where.append(CouponRow.state == int(state))
        return self._coupon_page(where, request)

    def every_coupon(self, batch_id: int) -> Iterator[Coupon]:
        for r in self._s.execute(self._coupon_select().where(CouponRow.batch_id == batch_id)
                                 .order_by(CouponRow.id)).yield_per(1000):
            yield self._coupon(*r)

    def coupons_of(self, account_id: int, request: PageRequest) -> Page[Coupon]:
        return self._coupon_page([CouponRow.account_id == account_id], request, newest_used=True)

    def update_coupon_batch(self, batch_id: int, status: BatchStatus, remark: str | None) -> bool:
        values: dict[str, Any] = {"status": int(status)}
        if remark is not None:
            values["remark"] = remark
        return rows_written(self._s.execute(write(update(CouponBatchRow).where(CouponBatchRow.id == batch_id)
                                                  .values(**values)))) == 1

    def codes_taken(self, codes: Sequence[str]) -> set[str]:
        taken: set[str] = set()
        for i in range(0, len(codes), _INSERT_CHUNK):
            taken |= set(self._s.scalars(select(CouponRow.code).where(CouponRow.code.in_(codes[i:i + _INSERT_CHUNK]))))
        return taken

    # --- the coupon ledger (core.vouchers.ledger) ---------------------------------------------------

    def by_code(self, code: str) -> Coupon | None:
        row = self._s.execute(fresh(self._coupon_select().where(CouponRow.code == code))).first()
        return self._coupon(*row) if row else None

    def reserve(self, coupon_id: int, order_id: int, account_id: int, at: datetime) -> bool:
        return rows_written(self._s.execute(write(
            update(CouponRow).where(CouponRow.id == coupon_id, CouponRow.state == UNUSED)
            .values(state=RESERVED, order_id=order_id, account_id=account_id, reserved_at=at)))) == 1

    def spend(self, order_id: int, code: str, account_id: int, at: datetime) -> bool:
        return rows_written(self._s.execute(write(
            update(CouponRow).where(CouponRow.code == code,
                                    or_(CouponRow.order_id == order_id, CouponRow.state == UNUSED),
                                    CouponRow.state != USED)
            .values(state=USED, order_id=order_id, account_id=account_id, used_at=at)))) == 1

    def release(self, order_id: int) -> bool:
        return rows_written(self._s.execute(write(
            update(CouponRow).where(CouponRow.order_id == order_id, CouponRow.state == RESERVED)
            .values(state=UNUSED, order_id=None, account_id=None, reserved_at=None)))) == 1

    # --- cards ---------------------------------------------------------------------------------------

    def _card_batch(self, row: CardBatchRow, names: tuple[str | None, str | None], counts: dict[int, int]) -> CardBatch:
        return CardBatch(row.id, row.prefix, row.count, row.level_id, row.months, _validity(row), row.remark,
                         row.activity_id, names[0], names[1], BatchStatus(row.status), row.created_at,
                         counts.get(UNUSED, 0), counts.get(USED, 0))

    def _card_batches(self, rows: Sequence[CardBatchRow]) -> list[CardBatch]:
        counts = _counts(RechargeCardRow.state, RechargeCardRow.batch_id, [r.id for r in rows], self._s)
        activities = self._activity_names({r.activity_id for r in rows if r.activity_id})
        levels: dict[int, str] = dict(self._s.execute(  # type: ignore[arg-type]
            select(ServiceLevelRow.id, ServiceLevelRow.level_name)
            .where(ServiceLevelRow.id.in_({r.level_id for r in rows}))).all())
        return [self._card_batch(r, (levels.get(r.level_id), activities.get(r.activity_id) if r.activity_id else None),
                                 counts[r.id]) for r in rows]

    def add_card_batch(self, batch: CardBatch, cards: Sequence[tuple[str, str]]) -> CardBatch:
        row = CardBatchRow(prefix=batch.prefix, count=batch.count, level_id=batch.level_id, months=batch.months,
                           starts_at=batch.validity.starts_at, ends_at=batch.validity.ends_at,
                           activity_id=batch.activity_id, remark=batch.remark, status=int(batch.status),
                           created_at=batch.created_at)
        self._s.add(row)
        self._s.flush()
        for i in range(0, len(cards), _INSERT_CHUNK):
            self._s.execute(insert(RechargeCardRow.__table__), [
                {"batch_id": row.id, "card_number": n, "secret_digest": d, "state": UNUSED}
                for n, d in cards[i:i + _INSERT_CHUNK]])
        return self._card_batches([row])[0]

    def card_batches(self, request: PageRequest) -> Page[CardBatch]:
        total = self._s.execute(select(func.count()).select_from(CardBatchRow)).scalar_one()
        rows = self._s.scalars(fresh(select(CardBatchRow).order_by(CardBatchRow.id.desc())
                                     .offset(request.offset).limit(request.page_size))).all()
        return Page(request.start, request.page_size, total, self._card_batches(rows))

    def card_batch(self, batch_id: int) -> CardBatch | None:
        row = self._s.scalar(fresh(select(CardBatchRow).where(CardBatchRow.id == batch_id)))
        return self._card_batches([row])[0] if row else None

    def _card_select(self):  # type: ignore[no-untyped-def]
        return (select(RechargeCardRow, CardBatchRow, ServiceLevelRow.level_name, AccountRow.user_name,
                       DeviceRow.device_name, OrderRow.order_code)
                .join(CardBatchRow, CardBatchRow.id == RechargeCardRow.batch_id)
                .outerjoin(ServiceLevelRow, ServiceLevelRow.id == CardBatchRow.level_id)
                .outerjoin(AccountRow, AccountRow.id == RechargeCardRow.account_id)
                .outerjoin(DeviceRow, DeviceRow.id == RechargeCardRow.device_id)
                .outerjoin(OrderRow, OrderRow.id == RechargeCardRow.order_id))

    @staticmethod
    def _card(row: Any, batch: Any, level_name: Any, user_name: Any, device_name: Any, order_code: Any) -> Card:
        return Card(row.id, row.card_number, row.batch_id, batch.level_id, batch.months, _validity(batch),
                    batch.status == int(BatchStatus.ENABLED), VoucherState(row.state), row.secret_digest, level_name,
                    row.account_id, user_name, row.device_id, device_name, row.order_id, order_code, row.used_at)

    def _card_page(self, where: list[Any], request: PageRequest, newest_used: bool = False) -> Page[Card]:
        total = self._s.execute(select(func.count()).select_from(RechargeCardRow).where(*where)).scalar_one()
        order = [RechargeCardRow.used_at.desc(), RechargeCardRow.id.desc()] if newest_used else [RechargeCardRow.id]
        rows = self._s.execute(fresh(self._card_select().where(*where).order_by(*order)
                                     .offset(request.offset).limit(request.page_size))).all()
        return Page(request.start, request.page_size, total, [self._card(*r) for r in rows])

    def cards(self, batch_id: int, state: VoucherState | None, request: PageRequest) -> Page[Card]:
        where: list[Any] = [RechargeCardRow.batch_id == batch_id]
        if state is not None:
            where.append(RechargeCardRow.state == int(state))
        return self._card_page(where, request)

    def every_card(self, batch_id: int) -> Iterator[Card]:
        for r in self._s.execute(self._card_select().where(RechargeCardRow.batch_id == batch_id)
                                 .order_by(RechargeCardRow.id)).yield_per(1000):
            yield self._card(*r)

    def cards_of(self, account_id: int, request: PageRequest) -> Page[Card]:
        return self._card_page([RechargeCardRow.account_id == account_id], request, newest_used=True)

    def update_card_batch(self, batch_id: int, status: BatchStatus, remark: str | None) -> bool:
        values: dict[str, Any] = {"status": int(status)}
        if remark is not None:
            values["remark"] = remark
        return rows_written(self._s.execute(write(update(CardBatchRow).where(CardBatchRow.id == batch_id)
                                                  .values(**values)))) == 1

    def card_numbers_taken(self, numbers: Sequence[str]) -> set[str]:
        taken: set[str] = set()
        for i in range(0, len(numbers), _INSERT_CHUNK):
            taken |= set(self._s.scalars(select(RechargeCardRow.card_number)
                                         .where(RechargeCardRow.card_number.in_(numbers[i:i + _INSERT_CHUNK]))))
        return taken

    def card_by_number(self, card_number: str) -> Card | None:
        row = self._s.execute(fresh(self._card_select().where(RechargeCardRow.card_number == card_number))).first()
        return self._card(*row) if row else None

    def use_card(self, card_id: int, account_id: int, device_id: int, order_id: int, at: datetime) -> bool:
        return rows_written(self._s.execute(write(
            update(RechargeCardRow).where(RechargeCardRow.id == card_id, RechargeCardRow.state == UNUSED)
            .values(state=USED, account_id=account_id, device_id=device_id, order_id=order_id, used_at=at)))) == 1

    def card_locked_until(self, card_number: str) -> datetime | None:
        return self._s.scalar(select(CardAttemptRow.locked_until).where(CardAttemptRow.card_number == card_number))

    def card_failed(self, card_number: str, now: datetime, lock_after: int, lock_until: datetime) -> bool:
        counted = self._s.execute(write(update(CardAttemptRow).where(CardAttemptRow.card_number == card_number)
                                        .values(failures=CardAttemptRow.failures + 1)))
        if rows_written(counted) == 0:
            try:  # the number's first wrong try; a concurrent first try makes the row first: counted on it
                with self._s.begin_nested():
                    self._s.execute(insert(CardAttemptRow).values(card_number=card_number, failures=1))
            except IntegrityError:
                self._s.execute(write(update(CardAttemptRow).where(CardAttemptRow.card_number == card_number)
                                      .values(failures=CardAttemptRow.failures + 1)))
        # The count and the lock in one write: at `lock_after` the number is locked and counting
        # starts again once the lock has passed.
        locked = self._s.execute(write(update(CardAttemptRow).where(CardAttemptRow.card_number == card_number,
                                                                    CardAttemptRow.failures >= lock_after)
                                       .values(failures=0, locked_until=lock_until)))
        return rows_written(locked) == 1

    def card_attempts_cleared(self, card_number: str) -> None:
        self._s.execute(write(update(CardAttemptRow).where(CardAttemptRow.card_number == card_number)
                              .values(failures=0, locked_until=None)))

    # --- references ---------------------------------------------------------------------------------

    def _activity_names(self, ids: set[int]) -> dict[int, str]:
        if not ids:
            return {}
        return dict(self._s.execute(  # type: ignore[arg-type]
            select(ActivityRow.id, ActivityRow.name).where(ActivityRow.id.in_(ids))).all())

    def activity_name(self, activity_id: int) -> str | None:
        return self._s.scalar(select(ActivityRow.name).where(ActivityRow.id == activity_id))

    def references(self) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
        levels = [(i, n) for i, n in self._s.execute(select(ServiceLevelRow.id, ServiceLevelRow.level_name)
                                                      .order_by(ServiceLevelRow.package_id, ServiceLevelRow.sort,
                                                                ServiceLevelRow.id))]
        activities = [(i, n) for i, n in self._s.execute(select(ActivityRow.id, ActivityRow.name)
                                                          .order_by(ActivityRow.id.desc()))]
        return levels, activities

    def level_name(self, level_id: int) -> str | None:
        return self._s.scalar(select(ServiceLevelRow.level_name).where(ServiceLevelRow.id == level_id))


