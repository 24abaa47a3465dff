"""Repositories of the service catalogue, orders, device service state, auto-renew agreements
and bills.

Concurrency. An order is settled once: `mark_paid` is one conditional UPDATE (unpaid -> paid),
so of two concurrent settlements exactly one changes the row. On PostgreSQL the second waits for
the first's row lock and then finds the row paid; on SQLite a write statement takes the database's
single write lock (waiting up to the busy timeout) and sees the committed row once it has it.

On SQLite `SELECT ... FOR UPDATE` does not exist (SQLAlchemy leaves the clause out) and a
transaction only holds the write lock from its first write on: the Python driver begins the
transaction at the first INSERT/UPDATE/DELETE, and earlier SELECTs read without locking. So
`services_for_update` first runs a write that changes nothing: it begins the transaction and takes
the write lock, and the expiries it then reads cannot change until the transaction ends, as the row
locks give on PostgreSQL.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any, TypeVar

from sqlalchemy import (
    ColumnElement,
    Executable,
    Select,
    String,
    and_,
    bindparam,
    cast,
    delete,
    exists,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.orm import InstrumentedAttribute, Session

from adapters.persistence.catalogue import ITEM as ITEM_TEXT
from adapters.persistence.catalogue import LEVEL as LEVEL_TEXT
from adapters.persistence.catalogue import localized_name
from adapters.persistence.models import (
    ActivityAccountRow,
    ActivityRow,
    ActivityYearOptionRow,
    AutoRenewAgreementRow,
    DeviceRow,
    LevelItemRow,
    LevelYearOptionRow,
    OrderEventRow,
    OrderLineRow,
    OrderRow,
    PackageDeviceTypeRow,
    PaymentNotificationRow,
    ServiceItemRow,
    ServiceLevelRow,
    ServicePackageRow,
    SmsPackageRow,
    UserBillRow,
)
from adapters.persistence.results import rows_written
from core.ordering.bills import Bill, BillMode, InvoiceType
from core.ordering.model import (
    ORDER_SORT_FIELDS,
    ORDER_TRANSITIONS,
    Agreement,
    AgreementStatus,
    CloseReason,
    InvoiceStatus,
    Order,
    OrderEvent,
    OrderKind,
    OrderLine,
    OrderMove,
    PaymentFailure,
    PayStatus,
)
from core.ordering.payments import NotificationRecord
from core.ordering.ports import ServicedDevice
from core.ordering.take_back import DeviceHolding
from core.pricing.level_change import ChangeKind, LevelChange, ServiceState
from core.pricing.model import ActivityOffer, AlertKind, AlertPackage, Level, ServiceItem, YearOption
from core.pricing.rules import DataPlan
from core.shared.edition import PayType
from core.shared.paging import Page, PageRequest

ENABLED = 1
PUBLIC_ACTIVITY, DIRECTED_ACTIVITY = 1, 2
ACTIVE_AGREEMENT, CANCELLED_AGREEMENT = 1, 0


_Statement = TypeVar("_Statement", bound=Executable)


def fresh(statement: _Statement) -> _Statement:
    """Rows as the database has them, even when the session already holds them: the writes
    below are single UPDATE/DELETE statements that do not touch the session's objects."""
    return statement.execution_options(populate_existing=True)


def write(statement: _Statement) -> _Statement:
    """An UPDATE or DELETE run as it is: its WHERE is not evaluated against objects the session
    may hold (they can be stale when another transaction changed the row first)."""
    return statement.execution_options(synchronize_session=False)


# --- catalogue ---------------------------------------------------------------------------------


_ORDER_SORT_COLUMNS: dict[str, InstrumentedAttribute[Any]] = {
    "gmtCreate": OrderRow.created_at, "payTime": OrderRow.paid_at, "orderFee": OrderRow.order_fee_cents,
    "orderCode": OrderRow.order_code}
assert set(_ORDER_SORT_COLUMNS) == set(ORDER_SORT_FIELDS)


def order_sort(request: PageRequest) -> list[Any]:
    """An order page's ORDER BY: the field asked for (gmtCreate when none), nulls last, then the id."""
    column = _ORDER_SORT_COLUMNS[request.sort_field or "gmtCreate"]
    ascending = request.sort_order == "asc"
    return [(column.asc() if ascending else column.desc()).nulls_last(),
            OrderRow.id.asc() if ascending else OrderRow.id.desc()]


def lines_of(session: Session, order_ids: Sequence[int]) -> dict[int, list[OrderLineRow]]:
    """The lines of these orders, by order, in one query."""
    lines: dict[int, list[OrderLineRow]] = defaultdict(list)
    if order_ids:
        for line in session.scalars(select(OrderLineRow).where(OrderLineRow.order_id.in_(order_ids))
                                    .order_by(OrderLineRow.id)):
            lines[line.order_id].append(line)
    return lines

class SqlAlchemyCatalogueRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def levels_for_type(self, type_id: int, account_id: int, now: datetime, currency: str,
                        languages: Sequence[str] = ()) -> list[Level]:
        """Four queries whatever the size of the catalogue: levels, their options, their items,
        and the activities in force on those options. Options in other currencies are read only
        to tell a level priced in none of `currency` (left out) from one without options; retired
        options (sold, then repriced) are not offered. Names in the first of `languages` that has
        one, else the level's own (the default language's)."""
        key = cast(ServiceLevelRow.id, String)
        levels = self._s.execute(
            select(ServiceLevelRow.id, ServiceLevelRow.package_id,
                   localized_name(LEVEL_TEXT, key, ServiceLevelRow.level_name, languages).label("level_name"),
                   localized_name(LEVEL_TEXT, key, ServiceLevelRow.level_describe, languages,
                                  "description").label("level_describe"), ServiceLevelRow.icon_url)
            .join(ServicePackageRow, ServicePackageRow.id == ServiceLevelRow.package_id)
            .join(PackageDeviceTypeRow, PackageDeviceTypeRow.package_id == ServicePackageRow.id)
            .where(PackageDeviceTypeRow.device_type_id == type_id, ServicePackageRow.status == ENABLED)
            .order_by(ServicePackageRow.id, ServiceLevelRow.sort, ServiceLevelRow.id)).all()
        if not levels:
            return []
        level_ids = [level.id for level in levels]
        options = self._s.execute(
            select(LevelYearOptionRow).where(LevelYearOptionRow.level_id.in_(level_ids),
                                             LevelYearOptionRow.retired_at.is_(None))
            .order_by(LevelYearOptionRow.sort, LevelYearOptionRow.id)).scalars().all()
        items: dict[int, set[str]] = defaultdict(set)
        for level_id, code in self._s.execute(select(LevelItemRow.level_id, LevelItemRow.item_code)
                                              .where(LevelItemRow.level_id.in_(level_ids))):
            items[level_id].add(code)
        priced_elsewhere = {o.level_id for o in options if o.currency != currency}
        options = [o for o in options if o.currency == currency]
        offers = self._offers([o.id for o in options], account_id, now)
        by_level: dict[int, list[YearOption]] = defaultdict(list)
        for o in options:
            by_level[o.level_id].append(YearOption(
                id=o.id, level_id=o.level_id, months=o.time_length, service_fee_cents=o.service_fee_cents,
                currency=o.currency, data_fee_cents=o.data_fee_cents, discount=o.discount,
                recommended=bool(o.top_status), activity=offers.get(o.id)))
        return [Level(id=level.id, package_id=level.package_id, name=level.level_name,
                      description=level.level_describe, options=tuple(by_level[level.id]),
                      item_codes=frozenset(items[level.id]), icon=level.icon_url)
                for level in levels if by_level[level.id] or level.id not in priced_elsewhere]

    def _offers(self, option_ids: list[int], account_id: int, now: datetime) -> dict[int, ActivityOffer]:
        """Option id -> the best activity in force offering it to the account: the lowest
        discount, then the most bonus months (then the oldest activity, so the choice is stable)."""
        if not option_ids:
            return {}
        directed_here = exists().where(ActivityAccountRow.activity_id == ActivityRow.id,
                                       ActivityAccountRow.account_id == account_id)
        rows = self._s.execute(
            select(ActivityYearOptionRow.level_year_id, ActivityRow.id, ActivityRow.starts_at, ActivityRow.ends_at,
                   ActivityYearOptionRow.activity_discount, ActivityYearOptionRow.presentation_month)
            .join(ActivityRow, ActivityRow.id == ActivityYearOptionRow.activity_id)
            .where(ActivityYearOptionRow.level_year_id.in_(option_ids), ActivityRow.status == ENABLED,
                   ActivityRow.starts_at <= now, ActivityRow.ends_at > now,
                   or_(ActivityRow.nature == PUBLIC_ACTIVITY,
                       and_(ActivityRow.nature == DIRECTED_ACTIVITY, directed_here)))
            .order_by(ActivityYearOptionRow.level_year_id, ActivityYearOptionRow.activity_discount,
                      ActivityYearOptionRow.presentation_month.desc(), ActivityRow.id))
        offers: dict[int, ActivityOffer] = {}
        for option_id, activity_id, starts_at, ends_at, discount, bonus_months in rows:
            offers.setdefault(option_id, ActivityOffer(activity_id, starts_at, ends_at, discount, bonus_months))
        return offers

    def items(self, languages: Sequence[str] = ()) -> list[ServiceItem]:
        code = ServiceItemRow.item_code
        rows: Sequence[Any] = self._s.execute(
            select(code, localized_name(ITEM_TEXT, code, ServiceItemRow.item_name, languages),
                   localized_name(ITEM_TEXT, code, ServiceItemRow.item_supplement, languages, "description"),
                   ServiceItemRow.item_label)
            .order_by(ServiceItemRow.sort, ServiceItemRow.item_code)).all()
        return [ServiceItem(row[0], row[1], row[2], row[3]) for row in rows]

    def level_names(self, level_ids: Sequence[int], languages: Sequence[str]) -> dict[int, str]:
        ids = list(set(level_ids))
        if not ids:
            return {}
        # Core on the session's connection: every page of devices names its levels, and the
        # ORM's execute path cost more than the query (no unit of work leaves changes unflushed).
        rows = self._s.connection().execute(_level_names(tuple(languages)), {"ids": ids})
        return {level_id: name for level_id, name in rows}

    @staticmethod
    def _package(row: SmsPackageRow) -> AlertPackage:
        return AlertPackage(id=row.id, kind=AlertKind(row.kind), country_code=row.country_code,
                            name=row.package_name, fee_cents=row.package_fee_cents, currency=row.currency,
                            count=row.count, discount=row.discount, activity_discount=row.activity_discount)

    def alert_packages(self, country_code: str, currency: str) -> list[AlertPackage]:
        rows = self._s.scalars(
            select(SmsPackageRow).where(SmsPackageRow.country_code == country_code, SmsPackageRow.currency == currency,
                                        SmsPackageRow.status == ENABLED)
            .order_by(SmsPackageRow.kind, SmsPackageRow.sort, SmsPackageRow.id))
        return [self._package(r) for r in rows]

    def alert_package(self, package_id: int, currency: str) -> AlertPackage | None:
        row = self._s.scalar(select(SmsPackageRow).where(SmsPackageRow.id == package_id,
                                                         SmsPackageRow.currency == currency,
                                                         SmsPackageRow.status == ENABLED))
        return self._package(row) if row else None


@lru_cache(maxsize=32)
def _level_names(languages: tuple[str, ...]) -> Select[int, str]:
    """Levels' names in the first of `languages` that has one, for the ids bound as `ids`: made
    once per list of languages."""
    name = localized_name(LEVEL_TEXT, cast(ServiceLevelRow.id, String), ServiceLevelRow.level_name, languages)
    return select(ServiceLevelRow.id, name).where(ServiceLevelRow.id.in_(bindparam("ids", expanding=True)))


# --- orders ------------------------------------------------------------------------------------


def _promise(line: OrderLineRow) -> LevelChange | None:
    if line.promised_expires_at is None or line.change_kind is None or line.level_id is None:
        return None
    return LevelChange(ServiceState(line.quoted_level_id, line.quoted_expires_at), line.level_id,
                       line.promised_expires_at, ChangeKind(line.change_kind),
                       timedelta(seconds=line.remaining_seconds or 0), line.converted_days or 0)


def _line(line: OrderLineRow) -> OrderLine:
    return OrderLine(device_id=line.device_id, fee_cents=line.fee_cents, level_id=line.level_id,
                     level_year_id=line.level_year_id, months=line.months, bonus_months=line.bonus_months,
                     sms_count=line.sms_count, voice_count=line.voice_count, device_name=line.device_name,
                     promise=_promise(line), settled_expires_at=line.settled_expires_at,
                     recomputed=bool(line.recomputed))


def _promise_values(promise: LevelChange | None) -> dict[str, object]:
    if promise is None:
        return {}
    return {"quoted_level_id": promise.before.level_id, "quoted_expires_at": promise.before.expires_at,
            "change_kind": promise.kind.value, "remaining_seconds": promise.remaining // timedelta(seconds=1),
            "converted_days": promise.converted_days, "promised_expires_at": promise.expires_at}


def order_of(row: OrderRow, lines: Sequence[OrderLineRow]) -> Order:
    return Order(
        id=row.id, code=row.order_code, account_id=row.account_id, kind=OrderKind(row.kind),
        pay_type=PayType(row.pay_type), currency=row.currency, order_fee_cents=row.order_fee_cents,
        apply_flag=bool(row.apply_flag), description=row.description, created_at=row.created_at,
        lines=tuple(_line(line) for line in lines),
        status=PayStatus(row.status), bill_id=row.bill_id, invoice=row.invoice, activity_id=row.activity_id,
        country_code=row.country_code, pay_fee_cents=row.pay_fee_cents, paid_at=row.paid_at,
        refunded_at=row.refunded_at, closed_at=row.closed_at, payment_reference=row.payment_reference,
        settlement_reference=row.settlement_reference,
        invoice_status=InvoiceStatus(row.invoice_status), payment=dict(row.payment or {}), expires_at=row.expires_at,
        close_reason=CloseReason(row.close_reason) if row.close_reason else None,
        last_failure=PaymentFailure(row.last_failure) if row.last_failure else None,
        failure_count=row.failure_count or 0, coupon_code=row.coupon_code,
        coupon_discount_cents=row.coupon_discount_cents or 0, refunded_cents=row.refunded_cents or 0,
        auto_renew=bool(row.auto_renew), camp=row.camp or 0)


class SqlAlchemyOrderRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, order: Order) -> Order:
        row = OrderRow(
            order_code=order.code, account_id=order.account_id, kind=int(order.kind), pay_type=int(order.pay_type),
            currency=order.currency, order_fee_cents=order.order_fee_cents, pay_fee_cents=order.pay_fee_cents,
            status=int(order.status), apply_flag=order.apply_flag, bill_id=order.bill_id, invoice=order.invoice,
            activity_id=order.activity_id, country_code=order.country_code, description=order.description,
            invoice_status=int(order.invoice_status), payment=dict(order.payment) or None,
            payment_reference=order.payment_reference, created_at=order.created_at, paid_at=order.paid_at,
            refunded_at=order.refunded_at, expires_at=order.expires_at, coupon_code=order.coupon_code,
            coupon_discount_cents=order.coupon_discount_cents, auto_renew=order.auto_renew, camp=order.camp)
        self._s.add(row)
        self._s.flush()
        # Each line keeps its device's name as it is now: the order reads the same after a rename.
        names = dict(self._s.execute(select(DeviceRow.id, DeviceRow.device_name)
                                     .where(DeviceRow.id.in_(order.device_ids))).all())
        lines = tuple(replace(line, device_name=line.device_name or names.get(line.device_id)) for line in order.lines)
        self._s.add_all([OrderLineRow(
            order_id=row.id, device_id=line.device_id, fee_cents=line.fee_cents, level_id=line.level_id,
            level_year_id=line.level_year_id, months=line.months, bonus_months=line.bonus_months,
            sms_count=line.sms_count, voice_count=line.voice_count, device_name=line.device_name,
            **_promise_values(line.promise))
            for line in lines])
        self._s.flush()
        return replace(order, id=row.id, lines=lines)

    def _one(self, *where) -> Order | None:
        row = self._s.scalar(fresh(select(OrderRow).where(*where)))
        return order_of(row, lines_of(self._s, [row.id])[row.id]) if row else None

    def get(self, order_id: int) -> Order | None:
        return self._one(OrderRow.id == order_id)

    def by_code(self, code: str) -> Order | None:
        return self._one(OrderRow.order_code == code)

    def set_payment(self, order_id: int, payment: dict[str, str], reference: str | None) -> None:
        self._s.execute(write(update(OrderRow).where(OrderRow.id == order_id)
                              .values(payment=dict(payment) or None, payment_reference=reference)))

    def mark_paid(self, order_id: int, pay_fee_cents: int, paid_at: datetime, reference: str | None) -> bool:
        return self._move(order_id, OrderMove.PAY, paid_at, pay_fee_cents=pay_fee_cents, paid_at=paid_at,
                          settlement_reference=reference)

    def by_reference(self, reference: str) -> Order | None:
        return self._one(OrderRow.payment_reference == reference)

    def unpaid_created_before(self, instant: datetime, limit: int) -> list[Order]:
        rows = self._s.scalars(fresh(select(OrderRow).where(OrderRow.status == int(PayStatus.UNPAID),
                                                            OrderRow.created_at < instant)
                                     .order_by(OrderRow.created_at, OrderRow.id).limit(limit))).all()
        lines = lines_of(self._s, [row.id for row in rows])
        return [order_of(row, lines[row.id]) for row in rows]

    def unpaid_for_devices(self, account_id: int, kind: OrderKind, device_ids: Sequence[int],
                           before_id: int) -> list[Order]:
        # An account keeps few unpaid orders (each new one supersedes, reconciliation expires them):
        # their devices are compared here rather than in SQL.
        rows = self._s.scalars(fresh(select(OrderRow).where(
            OrderRow.account_id == account_id, OrderRow.kind == int(kind), OrderRow.status == int(PayStatus.UNPAID),
            OrderRow.id < before_id).order_by(OrderRow.id))).all()
        lines = lines_of(self._s, [row.id for row in rows])
        wanted = set(device_ids)
        return [order_of(row, lines[row.id]) for row in rows if {line.device_id for line in lines[row.id]} == wanted]

    def _move(self, order_id: int, move: OrderMove, at: datetime, actor_id: int | None = None,
              **values: object) -> bool:
        """One conditional write along ORDER_TRANSITIONS: the order takes the move's target state
        only from one of the move's sources; False when it was in none of them. A move made is
        entered in the order's history in the same transaction."""
        transition = ORDER_TRANSITIONS[move]
        result = self._s.execute(write(update(OrderRow)
                                       .where(OrderRow.id == order_id,
                                              OrderRow.status.in_(sorted(int(s) for s in transition.sources)))
                                       .values(status=int(transition.target), **values)))
        if rows_written(result) != 1:
            return False
        self.record_event(OrderEvent(order_id, at, move.value, transition.target, actor_id))
        return True

    def record_event(self, event: OrderEvent) -> None:
        self._s.add(OrderEventRow(order_id=event.order_id, at=event.at, kind=event.kind, status=int(event.status),
                                  actor_account_id=event.actor_account_id, reason=event.reason,
                                  detail=event.detail))
        self._s.flush()

    def record_service_result(self, order_id: int, device_id: int, expires_at: datetime | None,
                              recomputed: bool) -> None:
        self._s.execute(write(update(OrderLineRow)
                              .where(OrderLineRow.order_id == order_id, OrderLineRow.device_id == device_id)
                              .values(settled_expires_at=expires_at, recomputed=recomputed)))

    def mark_closed(self, order_id: int, at: datetime, reason: CloseReason) -> bool:
        return self._move(order_id, OrderMove.CLOSE, at, closed_at=at, close_reason=reason.value)

    def lock(self, order_id: int) -> Order | None:
        if self._s.get_bind().dialect.name == "sqlite":  # no row locks: take the database's write lock now
            self._s.execute(write(update(OrderRow).where(OrderRow.id == order_id).values(status=OrderRow.status)))
        row = self._s.scalar(fresh(select(OrderRow).where(OrderRow.id == order_id).with_for_update()))
        return order_of(row, lines_of(self._s, [row.id])[row.id]) if row else None

    def move_refunded(self, order_id: int, cents: int, move: OrderMove, at: datetime,
                      actor_id: int | None = None) -> bool:
        values: dict[str, object] = {"refunded_cents": OrderRow.refunded_cents + cents}
        if move in (OrderMove.REFUND, OrderMove.PARTIAL_REFUND):
            values["refunded_at"] = at  # the latest refund's
        elif move is OrderMove.REFUND_REFUSED:
            values["refunded_at"] = None  # nothing is paid back any more
        return self._move(order_id, move, at, actor_id, **values)

    def record_failure(self, order_id: int, failure: PaymentFailure, attempt: str | None) -> bool:
        statement = update(OrderRow).where(OrderRow.id == order_id, OrderRow.status == int(PayStatus.UNPAID))
        if attempt is not None:
            statement = statement.where(or_(OrderRow.failed_attempt.is_(None), OrderRow.failed_attempt != attempt))
        result = self._s.execute(write(statement.values(
            last_failure=failure.value, failure_count=OrderRow.failure_count + 1, failed_attempt=attempt)))
        return rows_written(result) == 1

    def set_invoice_wanted(self, order_ids: Sequence[int], wanted: bool) -> None:
        self._s.execute(write(update(OrderRow).where(OrderRow.id.in_(order_ids)).values(apply_flag=wanted)))

    def mark_invoiced(self, order_ids: Sequence[int]) -> None:
        self._s.execute(write(update(OrderRow).where(OrderRow.id.in_(order_ids))
                              .values(invoice_status=int(InvoiceStatus.INVOICED))))

    def page(self, account_id: int, status: PayStatus | None, request: PageRequest) -> Page[Order]:
        where = [OrderRow.account_id == account_id,
                 # superseded unpaid: a draft of the paying drawer (paid later, it is shown as paid)
                 or_(OrderRow.status != int(PayStatus.CLOSED), OrderRow.close_reason.is_(None),
                     OrderRow.close_reason != CloseReason.SUPERSEDED.value)]
        if status is not None:
            where.append(OrderRow.status == int(status))
        total = self._s.execute(select(func.count()).select_from(OrderRow).where(*where)).scalar_one()
        rows = self._s.scalars(fresh(select(OrderRow).where(*where).order_by(*order_sort(request))
                                     .offset(request.offset).limit(request.page_size))).all()
        lines = lines_of(self._s, [row.id for row in rows])
        return Page(request.start, request.page_size, total, [order_of(row, lines[row.id]) for row in rows])


# --- device service state ----------------------------------------------------------------------


class SqlAlchemyDeviceServiceRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def _locked(self, device_ids: Sequence[int]) -> list[Any]:
        """The devices' rows (what settling and taking back read), locked until the transaction ends."""
        ids = sorted(set(device_ids))
        if not ids:
            return []
        if self._s.get_bind().dialect.name == "sqlite":
            # No row locks on SQLite: a write that changes nothing takes the database's write
            # lock now (see the module's docstring), so what is read below stays as read.
            self._s.execute(write(update(DeviceRow).where(DeviceRow.id.in_(ids))
                                  .values(service_expires_at=DeviceRow.service_expires_at)))
        # Locked in id order, so two settlements sharing devices cannot deadlock.
        return list(self._s.execute(select(DeviceRow.id, DeviceRow.level_id, DeviceRow.service_expires_at,
                                           DeviceRow.type_id, DeviceRow.sim_iccid, DeviceRow.jc_iccid_status,
                                           DeviceRow.sms_count, DeviceRow.voice_count)
                                    .where(DeviceRow.id.in_(ids)).order_by(DeviceRow.id).with_for_update()))

    def services_for_update(self, device_ids: Sequence[int]) -> dict[int, ServicedDevice]:
        return {row.id: ServicedDevice(ServiceState(row.level_id, row.service_expires_at), row.type_id,
                                       DataPlan.of(row.sim_iccid, row.jc_iccid_status))
                for row in self._locked(device_ids)}

    def set_service(self, device_id: int, level_id: int, expires_at: datetime) -> None:
        self._s.execute(update(DeviceRow).where(DeviceRow.id == device_id)
                        .values(level_id=level_id, service_expires_at=expires_at))

    def holdings_for_update(self, device_ids: Sequence[int]) -> dict[int, DeviceHolding]:
        return {row.id: DeviceHolding(row.level_id, row.service_expires_at, row.sms_count, row.voice_count)
                for row in self._locked(device_ids)}

    def add_alert_counts(self, device_id: int, sms: int, voice: int, country_code: str | None) -> None:
        values: dict[str, ColumnElement[Any]] = {"sms_count": DeviceRow.sms_count + sms,
                                                 "voice_count": DeviceRow.voice_count + voice}
        if country_code is not None:
            values["country_code"] = func.coalesce(DeviceRow.country_code, country_code)
        self._s.execute(update(DeviceRow).where(DeviceRow.id == device_id).values(**values)
                        .execution_options(synchronize_session="fetch"))


# --- auto-renew agreements ---------------------------------------------------------------------


def _agreement(a: AutoRenewAgreementRow, level_name: str, currency: str) -> Agreement:
    return Agreement(device_id=a.device_id, level_id=a.level_id, level_name=level_name,
                     level_year_id=a.level_year_id, pay_type=a.pay_type, total_fee_cents=a.total_fee_cents,
                     currency=currency, next_execution_at=a.next_execution_at, id=a.id, account_id=a.account_id,
                     code=a.code, mandate=a.mandate, status=AgreementStatus(a.status), failures=a.failures or 0,
                     last_error=a.last_error, charging_order_id=a.charging_order_id, reminded_for=a.reminded_for,
                     camp=a.camp or 0)


class SqlAlchemyAgreementRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def _read(self, *where, order=(AutoRenewAgreementRow.next_execution_at, AutoRenewAgreementRow.id),
              limit: int | None = None) -> list[Agreement]:
        rows = self._s.execute(fresh(
            select(AutoRenewAgreementRow, ServiceLevelRow.level_name, LevelYearOptionRow.currency)
            .join(ServiceLevelRow, ServiceLevelRow.id == AutoRenewAgreementRow.level_id)
            .join(LevelYearOptionRow, LevelYearOptionRow.id == AutoRenewAgreementRow.level_year_id)
            .where(*where).order_by(*order).limit(limit))).all()
        return [_agreement(a, level_name, currency) for a, level_name, currency in rows]

    def active(self, device_id: int) -> Agreement | None:
        found = self._read(AutoRenewAgreementRow.device_id == device_id,
                           AutoRenewAgreementRow.status == ACTIVE_AGREEMENT,
                           order=(AutoRenewAgreementRow.created_at.desc(), AutoRenewAgreementRow.id.desc()), limit=1)
        return found[0] if found else None

    def get(self, agreement_id: int) -> Agreement | None:
        found = self._read(AutoRenewAgreementRow.id == agreement_id)
        return found[0] if found else None

    def by_code(self, code: str) -> Agreement | None:
        found = self._read(AutoRenewAgreementRow.code == code, AutoRenewAgreementRow.status == ACTIVE_AGREEMENT,
                           limit=1)
        return found[0] if found else None

    def cancel(self, device_id: int, at: datetime) -> bool:
        result = self._s.execute(write(
            update(AutoRenewAgreementRow)
            .where(AutoRenewAgreementRow.device_id == device_id, AutoRenewAgreementRow.status == ACTIVE_AGREEMENT)
            .values(status=CANCELLED_AGREEMENT, cancelled_at=at)))
        return rows_written(result) > 0

    def add(self, agreement: Agreement, first_order_id: int, at: datetime) -> Agreement:
        self.cancel(agreement.device_id, at)
        row = AutoRenewAgreementRow(
            device_id=agreement.device_id, level_id=agreement.level_id, level_year_id=agreement.level_year_id,
            pay_type=agreement.pay_type, total_fee_cents=agreement.total_fee_cents, status=ACTIVE_AGREEMENT,
            next_execution_at=agreement.next_execution_at, created_at=at, account_id=agreement.account_id,
            code=agreement.code, mandate=agreement.mandate, first_order_id=first_order_id, failures=0,
            camp=agreement.camp)
        self._s.add(row)
        self._s.flush()
        stored = self.get(row.id)
        assert stored is not None
        return stored

    def due(self, now: datetime, limit: int) -> list[Agreement]:
        return self._read(AutoRenewAgreementRow.status == ACTIVE_AGREEMENT,
                          AutoRenewAgreementRow.next_execution_at <= now, limit=limit)

    def to_remind(self, until: datetime, limit: int) -> list[Agreement]:
        return self._read(AutoRenewAgreementRow.status == ACTIVE_AGREEMENT,
                          AutoRenewAgreementRow.next_execution_at <= until,
                          or_(AutoRenewAgreementRow.reminded_for.is_(None),
                              AutoRenewAgreementRow.reminded_for != AutoRenewAgreementRow.next_execution_at),
                          # not a charge a run holds (resumed after a crash): told of it already
                          AutoRenewAgreementRow.failures == 0, AutoRenewAgreementRow.charging_order_id.is_(None),
                          limit=limit)

    def mark_reminded(self, agreement_id: int, charge_at: datetime) -> None:
        self._s.execute(write(update(AutoRenewAgreementRow).where(AutoRenewAgreementRow.id == agreement_id)
                              .values(reminded_for=charge_at)))

    def claim(self, agreement_id: int, due_at: datetime, hold_until: datetime, order_id: int) -> bool:
        result = self._s.execute(write(update(AutoRenewAgreementRow).where(
            AutoRenewAgreementRow.id == agreement_id, AutoRenewAgreementRow.status == ACTIVE_AGREEMENT,
            AutoRenewAgreementRow.next_execution_at == due_at)
            .values(next_execution_at=hold_until, charging_order_id=order_id)))
        return rows_written(result) == 1

    def charged(self, agreement_id: int, next_at: datetime) -> None:
        self._s.execute(write(update(AutoRenewAgreementRow).where(AutoRenewAgreementRow.id == agreement_id)
                              .values(next_execution_at=next_at, charging_order_id=None, failures=0,
                                      last_error=None)))

    def charge_failed(self, agreement_id: int, failures: int, retry_at: datetime | None, error: str) -> None:
        values: dict[str, object] = {"failures": failures, "last_error": error, "charging_order_id": None}
        if retry_at is None:
            values["status"] = int(AgreementStatus.ENDED)
        else:
            values["next_execution_at"] = retry_at
        self._s.execute(write(update(AutoRenewAgreementRow).where(AutoRenewAgreementRow.id == agreement_id)
                              .values(**values)))

    def unsigned_orders(self, paid_since: datetime, limit: int) -> list[Order]:
        signed = select(AutoRenewAgreementRow.first_order_id).where(AutoRenewAgreementRow.first_order_id.is_not(None))
        rows = self._s.scalars(fresh(select(OrderRow).where(
            OrderRow.auto_renew.is_(True), OrderRow.status == int(PayStatus.PAID), OrderRow.paid_at >= paid_since,
            OrderRow.id.not_in(signed)).order_by(OrderRow.paid_at, OrderRow.id).limit(limit))).all()
        lines = lines_of(self._s, [row.id for row in rows])
        return [order_of(row, lines[row.id]) for row in rows]


# --- bills -------------------------------------------------------------------------------------

_BILL_FIELDS = ("company_name", "tax_number", "personal_name", "bank_deposit", "bill_user_name", "bill_mail",
                "bill_phone", "bill_address")


def _bill(row: UserBillRow) -> Bill:
    return Bill(id=row.id, account_id=row.account_id, invoice_type=InvoiceType(row.invoice_type),
                bill_mode=BillMode(row.bill_mode), is_default=bool(row.is_default),
                **{name: getattr(row, name) for name in _BILL_FIELDS})


def _bill_values(bill: Bill) -> dict[str, object]:
    return {"invoice_type": int(bill.invoice_type), "bill_mode": int(bill.bill_mode), "is_default": bill.is_default,
            **{name: getattr(bill, name) for name in _BILL_FIELDS}}


class SqlAlchemyBillRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def of_account(self, account_id: int) -> list[Bill]:
        rows = self._s.scalars(fresh(select(UserBillRow).where(UserBillRow.account_id == account_id)
                                     .order_by(UserBillRow.is_default.desc(), UserBillRow.id.desc())))
        return [_bill(row) for row in rows]

    def get(self, account_id: int, bill_id: int) -> Bill | None:
        row = self._s.scalar(fresh(select(UserBillRow).where(UserBillRow.id == bill_id,
                                                             UserBillRow.account_id == account_id)))
        return _bill(row) if row else None

    def add(self, bill: Bill) -> Bill:
        row = UserBillRow(account_id=bill.account_id, created_at=datetime.now(UTC), **_bill_values(bill))
        self._s.add(row)
        self._s.flush()
        return replace(bill, id=row.id)

    def update(self, bill: Bill) -> None:
        self._s.execute(write(update(UserBillRow)
                              .where(UserBillRow.id == bill.id, UserBillRow.account_id == bill.account_id)
                              .values(**_bill_values(bill))))

    def delete(self, account_id: int, bill_id: int) -> bool:
        result = self._s.execute(write(delete(UserBillRow).where(UserBillRow.id == bill_id,
                                                                 UserBillRow.account_id == account_id)))
        return rows_written(result) > 0

    def clear_default(self, account_id: int) -> None:
        self._s.execute(write(update(UserBillRow)
                              .where(UserBillRow.account_id == account_id, UserBillRow.is_default.is_(True))
                              .values(is_default=False)))


# --- payment notifications ---------------------------------------------------------------------


def _without_nul(text: str) -> str:
    return text.replace("\x00", "\N{REPLACEMENT CHARACTER}")


class SqlAlchemyPaymentNotificationRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, record: NotificationRecord) -> None:
        # Anyone may post a notification, NUL bytes included, which no text column holds (on
        # PostgreSQL, nor on SQLite with its bounds): each stands as U+FFFD, as undecodable bytes do.
        self._s.add(PaymentNotificationRow(
            provider=record.provider, received_at=record.received_at, verdict=record.verdict,
            order_code=_without_nul(record.order_code or "")[:64] or None, amount_cents=record.amount_cents,
            body=_without_nul(record.body)))

    def recent(self, limit: int) -> list[NotificationRecord]:
        rows = self._s.scalars(select(PaymentNotificationRow)
                               .order_by(PaymentNotificationRow.id.desc()).limit(limit))
        return [NotificationRecord(r.provider, r.received_at, r.verdict, r.body, r.order_code, r.amount_cents)
                for r in rows]
