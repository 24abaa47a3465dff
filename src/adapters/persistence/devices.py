"""Repositories of devices."""

from __future__ import annotations

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session

from adapters.persistence.models import DeviceRow, DeviceTypeRow, OrganizationMemberRow
from core.devices.expiry import ExpiringDevice, ExpiryWindow
from core.shared.paging import Page, PageRequest


def visible_to(account_id: int) -> ColumnElement[bool]:
    """The devices an account may see: its own and those of every organization it belongs to.
    Every device query filters with this, so sharing a device is added here and nowhere else."""
    organizations = select(OrganizationMemberRow.organization_id).where(
        OrganizationMemberRow.account_id == account_id)
    return or_(DeviceRow.owner_account_id == account_id, DeviceRow.organization_id.in_(organizations))


class SqlAlchemyDeviceExpiryRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    @staticmethod
    def _where(account_id: int, window: ExpiryWindow) -> list[ColumnElement[bool]]:
        expires = DeviceRow.service_expires_at
        where = [visible_to(account_id), expires.is_not(None)]
        if window.since is not None:
            where.append(expires >= window.since)
        if window.until is not None:
            where.append(expires < window.until)
        return where

    def count_expiring(self, account_id: int, window: ExpiryWindow) -> int:
        return self._s.scalar(select(func.count()).select_from(DeviceRow).where(*self._where(account_id, window)))

    def expiring_page(self, account_id: int, window: ExpiryWindow, request: PageRequest) -> Page[ExpiringDevice]:
        where = self._where(account_id, window)
        total = self._s.scalar(select(func.count()).select_from(DeviceRow).where(*where))
        rows = self._s.execute(
            select(DeviceRow.id, DeviceRow.type_id, DeviceTypeRow.type_name, DeviceRow.device_name, DeviceRow.guid,
                   DeviceRow.service_expires_at)
            .join(DeviceTypeRow, DeviceTypeRow.id == DeviceRow.type_id)
            .where(*where)
            .order_by(DeviceTypeRow.type_name, DeviceRow.service_expires_at, DeviceRow.id)
            .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, [ExpiringDevice(*row) for row in rows])
