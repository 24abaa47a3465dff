"""Activities and SMS/voice packages as the back office edits them (core/promotions)."""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import String, cast, delete, func, or_, select, text, update
from sqlalchemy.orm import Session

from adapters.persistence.catalogue import ACTIVITY as ACTIVITY_TEXT
from adapters.persistence.catalogue import LEVEL as LEVEL_TEXT
from adapters.persistence.catalogue import PACKAGE as PACKAGE_TEXT
from adapters.persistence.catalogue import SMS as SMS_TEXT
from adapters.persistence.catalogue import drop_texts, localized_name, localized_names, names_of, save_texts
from adapters.persistence.models import (
    AccountRow,
    ActivityAccountRow,
    ActivityRow,
    ActivityYearOptionRow,
    LevelYearOptionRow,
    OperationChangeRow,
    OperationLogRow,
    OrderLineRow,
    OrderRow,
    ServiceLevelRow,
    ServicePackageRow,
    SmsPackageRow,
)
from core.accounts.model import AccountType
from core.catalogue.model import LocalText
from core.ordering.model import PAID_STATES, OrderKind
from core.promotions.model import (
    Activity,
    ActivityDeposit,
    ActivityDraft,
    ActivityFilter,
    ActivityOption,
    ActivityOrder,
    AlertKind,
    AlertPackage,
    AlertPackageDraft,
    AlertSales,
    Nature,
    OptionLabel,
    OptionSales,
    Period,
    PriceChange,
    Status,
    TargetAccount,
)
from core.shared.paging import Page, PageRequest

PRICE_TERMS = ("package_fee_cents", "currency", "discount", "activity_discount", "status")


def _contains(column: Any, text_: str) -> Any:
    return func.lower(column).contains(text_.lower(), autoescape=True)


def _save_names(session: Session, kind: str, key: int, names: dict[str, str]) -> None:
    save_texts(session, kind, key, {language: LocalText(name) for language, name in names.items()})


class SqlAlchemyPromotionRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def serialize(self, what: str) -> None:
        if self._s.get_bind().dialect.name == "postgresql":
            key = zlib.crc32(f"promotions:{what}".encode())
            self._s.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
        else:  # SQLite: a write as the transaction's first statement takes the database's write lock until commit
            table = ActivityRow if what == "activities" else SmsPackageRow
            self._s.execute(update(table).where(table.id == -1).values(id=table.id))

    # --- activities ---------------------------------------------------------------------------

    def _activities(self, rows: list[ActivityRow]) -> list[Activity]:
        ids = [r.id for r in rows]
        if not ids:
            return []
        options: dict[int, list[ActivityOption]] = defaultdict(list)
        for o in self._s.scalars(select(ActivityYearOptionRow).where(ActivityYearOptionRow.activity_id.in_(ids))
                                 .order_by(ActivityYearOptionRow.level_year_id)):
            options[o.activity_id].append(ActivityOption(o.level_year_id, o.activity_discount, o.presentation_month))
        accounts: dict[int, list[TargetAccount]] = defaultdict(list)
        for activity_id, account in self._s.execute(
                select(ActivityAccountRow.activity_id, AccountRow)
                .join(AccountRow, AccountRow.id == ActivityAccountRow.account_id)
                .where(ActivityAccountRow.activity_id.in_(ids)).order_by(AccountRow.user_name)):
            accounts[activity_id].append(TargetAccount(account.id, account.user_name, account.phone, account.email))
        names = names_of(self._s, ACTIVITY_TEXT, ids)
        return [Activity(r.id, r.name, Nature(r.nature), r.starts_at, r.ends_at, Status(r.status), r.created_at,
                         tuple(options[r.id]), tuple(accounts[r.id]), names.get(str(r.id), {})) for r in rows]

    @staticmethod
    def _filtered(query: Any, where: ActivityFilter) -> Any:
        if where.name:
            query = query.where(_contains(ActivityRow.name, where.name))
        if where.status is not None:
            query = query.where(ActivityRow.status == int(where.status))
        if where.nature is not None:
            query = query.where(ActivityRow.nature == int(where.nature))
        return query

    def activity_page(self, where: ActivityFilter, request: PageRequest) -> Page[Activity]:
        total = self._s.scalar(self._filtered(select(func.count()).select_from(ActivityRow), where)) or 0
        rows = list(self._s.scalars(self._filtered(select(ActivityRow), where)
                                    .order_by(ActivityRow.created_at.desc(), ActivityRow.id.desc())
                                    .offset(request.offset).limit(request.page_size)))
        return Page(request.start, request.page_size, total, self._activities(rows))

    def activity(self, activity_id: int) -> Activity | None:
        row = self._s.get(ActivityRow, activity_id)
        return self._activities([row])[0] if row else None

    def activities_on(self, option_ids: frozenset[int]) -> list[Activity]:
        if not option_ids:
            return []
        # locks the options' rows: enabling two overlapping activities at once waits for the other
        self._s.execute(select(LevelYearOptionRow.id).where(LevelYearOptionRow.id.in_(option_ids))
                        .order_by(LevelYearOptionRow.id).with_for_update())
        ids = select(ActivityYearOptionRow.activity_id).where(ActivityYearOptionRow.level_year_id.in_(option_ids))
        rows = list(self._s.scalars(select(ActivityRow).where(ActivityRow.id.in_(ids)).order_by(ActivityRow.id)))
        return self._activities(rows)

    def known_options(self, option_ids: frozenset[int]) -> frozenset[int]:
        if not option_ids:
            return frozenset()
        return frozenset(self._s.scalars(select(LevelYearOptionRow.id).where(LevelYearOptionRow.id.in_(option_ids))))

    def option_labels(self, option_ids: frozenset[int] | None = None,
                      languages: Sequence[str] = ()) -> list[OptionLabel]:
        level = localized_name(LEVEL_TEXT, cast(ServiceLevelRow.id, String), ServiceLevelRow.level_name, languages)
        package = localized_name(PACKAGE_TEXT, cast(ServicePackageRow.id, String), ServicePackageRow.package_name,
                                 languages)
        option = LevelYearOptionRow
        query = (select(option.id, ServicePackageRow.id, package, option.level_id, level, option.time_length,
                        option.currency, option.service_fee_cents, option.discount)
                 .join(ServiceLevelRow, ServiceLevelRow.id == option.level_id)
                 .join(ServicePackageRow, ServicePackageRow.id == ServiceLevelRow.package_id)
                 .order_by(ServicePackageRow.id, ServiceLevelRow.sort, ServiceLevelRow.id, option.currency,
                           option.sort, option.id))
        if option_ids is not None:
            query = query.where(option.id.in_(option_ids))
        rows: Any = self._s.execute(query)  # the selected columns are OptionLabel's fields, in its order
        return [OptionLabel(*row) for row in rows]

    def live_accounts(self, account_ids: frozenset[int]) -> frozenset[int]:
        if not account_ids:
            return frozenset()
        return frozenset(self._s.scalars(select(AccountRow.id).where(
            AccountRow.id.in_(account_ids), AccountRow.deleted_at.is_(None),
            AccountRow.account_type != int(AccountType.SYSTEM))))

    def search_accounts(self, text_: str, limit: int) -> list[TargetAccount]:
        rows = self._s.scalars(
            select(AccountRow).where(AccountRow.deleted_at.is_(None),
                                     AccountRow.account_type != int(AccountType.SYSTEM),
                                     or_(_contains(AccountRow.user_name, text_), _contains(AccountRow.phone, text_),
                                         _contains(AccountRow.email, text_)))
            .order_by(AccountRow.user_name, AccountRow.id).limit(limit))
        return [TargetAccount(r.id, r.user_name, r.phone, r.email) for r in rows]

    def _write_links(self, activity_id: int, draft: ActivityDraft) -> None:
        for row_type in (ActivityYearOptionRow, ActivityAccountRow):
            self._s.execute(delete(row_type).where(row_type.activity_id == activity_id))
        self._s.add_all([ActivityYearOptionRow(activity_id=activity_id, level_year_id=o.level_year_id,
                                               activity_discount=o.discount, presentation_month=o.bonus_months)
                         for o in draft.options])
        self._s.add_all([ActivityAccountRow(activity_id=activity_id, account_id=a) for a in draft.account_ids])
        self._s.flush()
        _save_names(self._s, ACTIVITY_TEXT, activity_id, draft.names)

    def add_activity(self, draft: ActivityDraft, status: Status, at: datetime) -> int:
        row = ActivityRow(name=draft.name, nature=int(draft.nature), starts_at=draft.starts_at, ends_at=draft.ends_at,
                          status=int(status), created_at=at)
        self._s.add(row)
        self._s.flush()
        self._write_links(row.id, draft)
        return row.id

    def change_activity(self, activity_id: int, draft: ActivityDraft) -> None:
        row = self._s.get(ActivityRow, activity_id)
        assert row is not None
        row.name, row.nature, row.starts_at, row.ends_at = draft.name, int(draft.nature), draft.starts_at, draft.ends_at
        self._write_links(activity_id, draft)

    def set_activity_status(self, activity_id: int, status: Status) -> None:
        row = self._s.get(ActivityRow, activity_id)
        assert row is not None
        row.status = int(status)
        self._s.flush()

    def delete_activity(self, activity_id: int) -> None:
        for row_type in (ActivityYearOptionRow, ActivityAccountRow):
            self._s.execute(delete(row_type).where(row_type.activity_id == activity_id))
        drop_texts(self._s, ACTIVITY_TEXT, [activity_id])
        self._s.execute(delete(ActivityRow).where(ActivityRow.id == activity_id))

    def activity_names(self, activity_ids: list[int], languages: Sequence[str]) -> dict[int, str]:
        return localized_names(self._s, ACTIVITY_TEXT, ActivityRow.id, ActivityRow.name, activity_ids, languages)

    # --- deposits -------------------------------------------------------------------------------

    def deposits(self, request: PageRequest) -> Page[ActivityDeposit]:
        total = self._s.scalar(select(func.count()).select_from(ActivityRow)) or 0
        rows = list(self._s.scalars(select(ActivityRow).order_by(ActivityRow.created_at.desc(), ActivityRow.id.desc())
                                    .offset(request.offset).limit(request.page_size)))
        ids = [r.id for r in rows]
        counts: dict[int, int] = defaultdict(int)
        sums: dict[int, dict[str, int]] = defaultdict(dict)
        if ids:
            for activity_id, currency, n, paid in self._s.execute(
                    select(OrderRow.activity_id, OrderRow.currency, func.count(), func.sum(OrderRow.pay_fee_cents))
                    .where(OrderRow.activity_id.in_(ids), OrderRow.status.in_(sorted(PAID_STATES)))
                    .group_by(OrderRow.activity_id, OrderRow.currency)):
                if activity_id is not None:
                    counts[activity_id] += n
                    sums[activity_id][currency] = int(paid or 0)
        return Page(request.start, request.page_size, total, [
            ActivityDeposit(r.id, r.name, Nature(r.nature), Status(r.status), r.starts_at, r.ends_at, counts[r.id],
                            sums[r.id]) for r in rows])

    def _orders_query(self, activity_id: int) -> Any:
        lines = (select(func.count()).where(OrderLineRow.order_id == OrderRow.id).correlate(OrderRow)
                 .scalar_subquery())
        return (select(OrderRow, AccountRow.user_name, lines)
                .join(AccountRow, AccountRow.id == OrderRow.account_id)
                .where(OrderRow.activity_id == activity_id)
                .order_by(OrderRow.created_at.desc(), OrderRow.id.desc()))

    @staticmethod
    def _order(found: Any) -> ActivityOrder:
        o, user_name, lines = found
        return ActivityOrder(o.id, o.order_code, user_name, o.description, o.currency, o.order_fee_cents,
                             o.pay_fee_cents, o.status, o.pay_type, int(lines or 0), o.created_at, o.paid_at)

    def activity_orders(self, activity_id: int, request: PageRequest) -> Page[ActivityOrder]:
        total = self._s.scalar(select(func.count()).select_from(OrderRow).where(OrderRow.activity_id == activity_id))
        rows = self._s.execute(self._orders_query(activity_id).offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total or 0, [self._order(r) for r in rows])

    def every_activity_order(self, activity_id: int, limit: int) -> Iterator[ActivityOrder]:
        for found in self._s.execute(self._orders_query(activity_id).limit(limit)):
            yield self._order(found)

    # --- SMS and voice packages -----------------------------------------------------------------

    def _alerts(self, rows: list[SmsPackageRow]) -> list[AlertPackage]:
        ids = [r.id for r in rows]
        names = names_of(self._s, SMS_TEXT, ids)
        return [AlertPackage(r.id, AlertKind(r.kind), r.country_code, r.package_name, r.package_fee_cents, r.currency,
                             r.count, r.discount, Status(r.status), r.sort, names.get(str(r.id), {})) for r in rows]

    def alert_packages(self, country_code: str | None, kind: AlertKind | None) -> list[AlertPackage]:
        query = select(SmsPackageRow).order_by(SmsPackageRow.country_code, SmsPackageRow.kind, SmsPackageRow.sort,
                                               SmsPackageRow.id)
        if country_code:
            query = query.where(SmsPackageRow.country_code == country_code)
        if kind is not None:
            query = query.where(SmsPackageRow.kind == int(kind))
        return self._alerts(list(self._s.scalars(query)))

    def alert_package(self, package_id: int) -> AlertPackage | None:
        row = self._s.get(SmsPackageRow, package_id)
        return self._alerts([row])[0] if row else None

    def alert_package_names(self, package_ids: list[int], languages: Sequence[str]) -> dict[int, str]:
        return localized_names(self._s, SMS_TEXT, SmsPackageRow.id, SmsPackageRow.package_name, package_ids,
                               languages)

    def count_alert_packages(self, country_code: str, kind: AlertKind) -> int:
        return self._s.scalar(select(func.count()).select_from(SmsPackageRow).where(
            SmsPackageRow.country_code == country_code, SmsPackageRow.kind == int(kind))) or 0


    def add_alert_package(self, draft: AlertPackageDraft, sort: int) -> int:
        row = SmsPackageRow(kind=int(draft.kind), package_name=draft.name, country_code=draft.country_code,
                            package_fee_cents=draft.fee_cents, currency=draft.currency, count=draft.count,
                            discount=draft.discount, sort=sort, status=int(draft.status))
        self._s.add(row)
        self._s.flush()
        _save_names(self._s, SMS_TEXT, row.id, draft.names)
        return row.id

    def change_alert_package(self, package_id: int, draft: AlertPackageDraft) -> None:
        row = self._s.get(SmsPackageRow, package_id)
        assert row is not None
        row.kind, row.package_name, row.country_code = int(draft.kind), draft.name, draft.country_code
        row.package_fee_cents, row.currency, row.count = draft.fee_cents, draft.currency, draft.count
        row.discount, row.status = draft.discount, int(draft.status)
        _save_names(self._s, SMS_TEXT, package_id, draft.names)

    def delete_alert_package(self, package_id: int) -> None:
        drop_texts(self._s, SMS_TEXT, [package_id])
        self._s.execute(delete(SmsPackageRow).where(SmsPackageRow.id == package_id))

    def sort_alert_packages(self, ordered_ids: list[int]) -> None:
        for sort, package_id in enumerate(ordered_ids):
            self._s.execute(update(SmsPackageRow).where(SmsPackageRow.id == package_id).values(sort=sort))

    # --- what was sold over a period, what is in force (additive: the reports read, never write)

    def _paid_in(self, period: Period) -> Any:
        return (OrderRow.status.in_(sorted(PAID_STATES)), OrderRow.paid_at >= period.starts_at,
                OrderRow.paid_at < period.ends_at)

    def option_sales(self, period: Period, package_id: int | None) -> list[OptionSales]:
        # a service order is of one year option, for one or more devices (a line each)
        per_order = (select(OrderLineRow.order_id.label("order_id"),
                            func.min(OrderLineRow.level_year_id).label("option_id"),
                            func.count().label("devices"))
                     .group_by(OrderLineRow.order_id).subquery())
        query = (select(per_order.c.option_id, OrderRow.currency, func.count(), func.sum(per_order.c.devices),
                        func.sum(OrderRow.pay_fee_cents))
                 .join(per_order, per_order.c.order_id == OrderRow.id)
                 .where(OrderRow.kind == OrderKind.SERVICE, per_order.c.option_id.is_not(None), *self._paid_in(period))
                 .group_by(per_order.c.option_id, OrderRow.currency))
        if package_id is not None:
            query = query.where(per_order.c.option_id.in_(
                select(LevelYearOptionRow.id).join(ServiceLevelRow, ServiceLevelRow.id == LevelYearOptionRow.level_id)
                .where(ServiceLevelRow.package_id == package_id)))
        orders: dict[int, int] = defaultdict(int)
        devices: dict[int, int] = defaultdict(int)
        paid: dict[int, dict[str, int]] = defaultdict(dict)
        found: Any = self._s.execute(query)
        for option_id, currency, n, lines, cents in found:
            orders[option_id] += n
            devices[option_id] += int(lines or 0)
            paid[option_id][currency] = int(cents or 0)
        return [OptionSales(i, None, orders[i], devices[i], paid[i]) for i in sorted(orders)]

    def alert_sales(self, period: Period, country_code: str | None) -> list[AlertSales]:
        per_order = (select(OrderLineRow.order_id.label("order_id"), func.count().label("devices"),
                            func.sum(OrderLineRow.sms_count).label("sms"),
                            func.sum(OrderLineRow.voice_count).label("voice"))
                     .group_by(OrderLineRow.order_id).subquery())
        country = func.coalesce(OrderRow.country_code, "")
        query = (select(country, OrderRow.currency, func.count(), func.sum(per_order.c.devices),
                        func.sum(per_order.c.sms), func.sum(per_order.c.voice), func.sum(OrderRow.pay_fee_cents))
                 .join(per_order, per_order.c.order_id == OrderRow.id)
                 .where(OrderRow.kind == OrderKind.ALERTS, *self._paid_in(period))
                 .group_by(country, OrderRow.currency))
        if country_code:
            query = query.where(OrderRow.country_code == country_code)
        totals: dict[str, list[int]] = {}
        paid: dict[str, dict[str, int]] = defaultdict(dict)
        found: Any = self._s.execute(query)
        for code, currency, n, lines, sms, voice, cents in found:
            row = totals.setdefault(code, [0, 0, 0, 0])
            for k, value in enumerate((n, lines, sms, voice)):
                row[k] += int(value or 0)
            paid[code][currency] = int(cents or 0)
        return [AlertSales(code, orders, devices, sms, voice, paid[code])
                for code, (orders, devices, sms, voice) in sorted(totals.items())]

    def package_option_labels(self, package_id: int, languages: Sequence[str]) -> tuple[str, list[OptionLabel]] | None:
        package = localized_name(PACKAGE_TEXT, cast(ServicePackageRow.id, String), ServicePackageRow.package_name,
                                 languages)
        name = self._s.scalar(select(package).where(ServicePackageRow.id == package_id))
        if name is None:
            return None
        ids = frozenset(self._s.scalars(
            select(LevelYearOptionRow.id).join(ServiceLevelRow, ServiceLevelRow.id == LevelYearOptionRow.level_id)
            .where(ServiceLevelRow.package_id == package_id, LevelYearOptionRow.retired_at.is_(None))))
        return name, self.option_labels(ids, languages) if ids else []

    def activities_linked(self, option_ids: frozenset[int]) -> list[Activity]:
        if not option_ids:
            return []
        ids = select(ActivityYearOptionRow.activity_id).where(ActivityYearOptionRow.level_year_id.in_(option_ids))
        return self._activities(list(self._s.scalars(select(ActivityRow).where(ActivityRow.id.in_(ids))
                                                     .order_by(ActivityRow.starts_at, ActivityRow.id))))

    def alert_activity_discount(self, package_id: int) -> int | None:
        return self._s.scalar(select(SmsPackageRow.activity_discount).where(SmsPackageRow.id == package_id))

    def alert_price_history(self, package_id: int, limit: int) -> list[PriceChange]:
        rows: Any = self._s.execute(
            select(OperationLogRow.at, OperationLogRow.actor_name, OperationChangeRow.kind, OperationChangeRow.fields)
            .join(OperationLogRow, OperationLogRow.id == OperationChangeRow.operation_id)
            .where(OperationChangeRow.object_type == "smsPackage", OperationChangeRow.object_id == str(package_id))
            .order_by(OperationLogRow.at.desc(), OperationChangeRow.id.desc()).limit(limit * 4))
        changes: list[PriceChange] = []
        for at, actor, kind, fields in rows:
            for name in PRICE_TERMS:
                if name not in (fields or {}):
                    continue
                old, new = fields[name]  # {column: [old, new]}, old None on insert
                changes.append(PriceChange(at, actor, kind, name, old, new))
        return changes[:limit]
