"""Offline purchases and their devices (core.ordering.offline): the review a conditional write, so a
purchase is approved or rejected once however many operators try."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, case, delete, func, or_, select, update
from sqlalchemy.orm import Session, aliased

from adapters.persistence.models import AccountRow, DeviceRow, OfflinePurchaseDeviceRow, OfflinePurchaseRow
from adapters.persistence.ordering import fresh, write
from adapters.persistence.results import rows_written
from core.accounts.rules import normalize_login_name
from core.ordering.offline_model import (
    Candidate,
    Customer,
    OfflineContent,
    OfflineDevice,
    OfflineFilter,
    OfflinePurchase,
    OfflineStatus,
    RechargeState,
)
from core.shared.edition import PayType
from core.shared.paging import Page, PageRequest

ENABLED = 1
_CUSTOMER, _CREATOR, _REVIEWER = aliased(AccountRow), aliased(AccountRow), aliased(AccountRow)


def _device(row: OfflinePurchaseDeviceRow) -> OfflineDevice:
    return OfflineDevice(row.guid, row.device_id, row.device_name, RechargeState(row.state), row.reason,
                         row.expires_before, row.expires_after)


def _purchase(row: Any, devices: Sequence[OfflinePurchaseDeviceRow] | None, counts: tuple[int, int, int]
              ) -> OfflinePurchase:
    p: OfflinePurchaseRow = row.OfflinePurchaseRow
    content = OfflineContent(p.level_id, p.level_year_id, p.months, p.sms_count, p.voice_count, p.country_code)
    return OfflinePurchase(
        p.id, Customer(p.account_id, row.customer), content, p.amount_cents, p.currency, PayType(p.pay_type),
        p.remark, OfflineStatus(p.status), p.created_by, p.created_at,
        tuple(_device(d) for d in devices or ()), *counts, p.reviewed_by, p.reviewed_at, p.review_note, p.order_id,
        row.creator, row.reviewer)


class SqlAlchemyOfflinePurchaseRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def customer(self, text: str) -> Customer | None:
        row = self._s.execute(select(AccountRow.id, AccountRow.user_name).where(
            AccountRow.status == ENABLED, or_(AccountRow.user_name_key == normalize_login_name(text),
                                              AccountRow.phone == text, AccountRow.email == text.lower()))
            .limit(1)).first()
        return Customer(row.id, row.user_name) if row else None

    def candidates(self, guids: Sequence[str]) -> dict[str, Candidate]:
        found: dict[str, Candidate] = {}
        wanted = sorted(set(guids))
        for start in range(0, len(wanted), 500):  # bounded IN lists
            rows = self._s.execute(select(DeviceRow.id, DeviceRow.guid, DeviceRow.device_name, DeviceRow.type_id,
                                          DeviceRow.owner_account_id)
                                   .where(DeviceRow.guid.in_(wanted[start:start + 500])))
            found.update({r.guid: Candidate(r.id, r.guid, r.device_name, r.type_id, r.owner_account_id) for r in rows})
        return found

    def add(self, purchase: OfflinePurchase) -> OfflinePurchase:
        c = purchase.content
        row = OfflinePurchaseRow(
            account_id=purchase.customer.account_id, level_id=c.level_id, level_year_id=c.level_year_id,
            months=c.months, sms_count=c.sms_count, voice_count=c.voice_count, country_code=c.country_code,
            amount_cents=purchase.amount_cents, currency=purchase.currency, pay_type=int(purchase.pay_type),
            remark=purchase.remark, status=int(purchase.status), created_by=purchase.created_by,
            created_at=purchase.created_at)
        self._s.add(row)
        self._s.flush()
        self._s.add_all([OfflinePurchaseDeviceRow(purchase_id=row.id, device_id=d.device_id, guid=d.guid,
                                                  device_name=d.device_name, state=int(d.state))
                         for d in purchase.devices])
        self._s.flush()
        stored = self.get(row.id)
        assert stored is not None
        return stored

    def _query(self) -> Select:
        counts = (select(OfflinePurchaseDeviceRow.purchase_id, func.count().label("devices"),
                         func.sum(case((OfflinePurchaseDeviceRow.state == int(RechargeState.RECHARGED), 1),
                                       else_=0)).label("recharged"),
                         func.sum(case((OfflinePurchaseDeviceRow.state == int(RechargeState.FAILED), 1),
                                       else_=0)).label("failed"))
                  .group_by(OfflinePurchaseDeviceRow.purchase_id).subquery())
        return (select(OfflinePurchaseRow, _CUSTOMER.user_name.label("customer"),
                       _CREATOR.user_name.label("creator"), _REVIEWER.user_name.label("reviewer"),
                       counts.c.devices, counts.c.recharged, counts.c.failed)
                .join(_CUSTOMER, _CUSTOMER.id == OfflinePurchaseRow.account_id)
                .outerjoin(_CREATOR, _CREATOR.id == OfflinePurchaseRow.created_by)
                .outerjoin(_REVIEWER, _REVIEWER.id == OfflinePurchaseRow.reviewed_by)
                .outerjoin(counts, counts.c.purchase_id == OfflinePurchaseRow.id))

    @staticmethod
    def _filtered(query: Select, where: OfflineFilter) -> Select:
        if where.status is not None:
            query = query.where(OfflinePurchaseRow.status == int(where.status))
        if where.customer:
            query = query.where(func.lower(_CUSTOMER.user_name).contains(where.customer.lower(), autoescape=True))
        if where.guid:
            query = query.where(OfflinePurchaseRow.id.in_(select(OfflinePurchaseDeviceRow.purchase_id).where(
                OfflinePurchaseDeviceRow.guid.contains(where.guid.upper(), autoescape=True))))
        return query

    def _devices(self, ids: Sequence[int]) -> dict[int, list[OfflinePurchaseDeviceRow]]:
        by_purchase: dict[int, list[OfflinePurchaseDeviceRow]] = {i: [] for i in ids}
        if ids:
            for device in self._s.scalars(fresh(select(OfflinePurchaseDeviceRow).where(
                    OfflinePurchaseDeviceRow.purchase_id.in_(ids)).order_by(OfflinePurchaseDeviceRow.id))):
                by_purchase[device.purchase_id].append(device)
        return by_purchase

    @staticmethod
    def _counts(row: Any) -> tuple[int, int, int]:
        return row.devices or 0, row.recharged or 0, row.failed or 0

    def get(self, purchase_id: int) -> OfflinePurchase | None:
        row = self._s.execute(fresh(self._query().where(OfflinePurchaseRow.id == purchase_id))).first()
        if row is None:
            return None
        return _purchase(row, self._devices([purchase_id])[purchase_id], self._counts(row))

    def page(self, where: OfflineFilter, request: PageRequest) -> Page[OfflinePurchase]:
        query = self._filtered(self._query(), where)
        total = self._s.execute(select(func.count()).select_from(query.subquery())).scalar_one()
        rows = self._s.execute(fresh(query.order_by(OfflinePurchaseRow.created_at.desc(),
                                                    OfflinePurchaseRow.id.desc())
                                     .offset(request.offset).limit(request.page_size))).all()
        return Page(request.start, request.page_size, total, [_purchase(r, None, self._counts(r)) for r in rows])

    def batch(self, where: OfflineFilter, before_id: int | None, limit: int) -> list[OfflinePurchase]:
        query = self._filtered(self._query(), where)
        if before_id is not None:
            query = query.where(OfflinePurchaseRow.id < before_id)
        rows = self._s.execute(fresh(query.order_by(OfflinePurchaseRow.id.desc()).limit(limit))).all()
        devices = self._devices([r.OfflinePurchaseRow.id for r in rows])
        return [_purchase(r, devices[r.OfflinePurchaseRow.id], self._counts(r)) for r in rows]

    def review(self, purchase_id: int, status: OfflineStatus, operator_id: int, at: datetime,
               note: str | None) -> bool:
        result = self._s.execute(write(update(OfflinePurchaseRow).where(
            OfflinePurchaseRow.id == purchase_id, OfflinePurchaseRow.status == int(OfflineStatus.AWAITING_REVIEW))
            .values(status=int(status), reviewed_by=operator_id, reviewed_at=at, review_note=note)))
        return rows_written(result) == 1

    def set_outcome(self, purchase_id: int, order_id: int, devices: Sequence[OfflineDevice]) -> None:
        self._s.execute(write(update(OfflinePurchaseRow).where(OfflinePurchaseRow.id == purchase_id)
                              .values(order_id=order_id)))
        rows = {r.guid: r for r in self._s.scalars(select(OfflinePurchaseDeviceRow).where(
            OfflinePurchaseDeviceRow.purchase_id == purchase_id))}
        for device in devices:
            row = rows[device.guid]
            row.state, row.reason = int(device.state), device.reason
            row.expires_before, row.expires_after = device.expires_before, device.expires_after
        self._s.flush()

    def delete_awaiting(self, purchase_id: int) -> bool:
        result = self._s.execute(write(delete(OfflinePurchaseRow).where(
            OfflinePurchaseRow.id == purchase_id, OfflinePurchaseRow.status == int(OfflineStatus.AWAITING_REVIEW))))
        return rows_written(result) == 1
