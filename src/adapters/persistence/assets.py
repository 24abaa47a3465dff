"""Accounts' and organizations' assets, which devices watch them, and the hold a disabled asset keeps on its
devices' alarm rules (core/assets)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.orm import Session

from adapters.persistence.devices import visible_to
from adapters.persistence.models import AlarmRuleRow, AssetRow, DeviceRow, DeviceTypeRow, OrganizationRow
from core.assets.model import Asset, Attribute, BoundDevice, Membership
from core.devices.model import DeviceStatus
from core.shared.paging import Page, PageRequest


def _asset(row: AssetRow, organization_name: str | None, count: int = 0,
           devices: tuple[BoundDevice, ...] = ()) -> Asset:
    return Asset(row.id, row.owner_account_id, row.name, row.asset_type, row.number, row.brand, row.model, row.volume,
                 tuple(Attribute(k, v) for k, v in row.attributes), row.remark, bool(row.enabled), row.created_at,
                 count, devices, organization_id=row.organization_id, organization_name=organization_name)


_WITH_ORGANIZATION = (select(AssetRow, OrganizationRow.name)
                      .outerjoin(OrganizationRow, OrganizationRow.id == AssetRow.organization_id))


def _values(asset: Asset) -> dict:
    return {"name": asset.name, "asset_type": asset.asset_type, "number": asset.number, "brand": asset.brand,
            "model": asset.model, "volume": asset.volume, "remark": asset.remark,
            "attributes": [[a.key, a.value] for a in asset.attributes]}


class SqlAlchemyAssetRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, asset: Asset) -> int:
        row = AssetRow(owner_account_id=asset.owner_account_id, organization_id=asset.organization_id,
                       enabled=asset.enabled, created_at=asset.created_at, **_values(asset))
        self._s.add(row)
        self._s.flush()
        return row.id

    def get(self, account_id: int, asset_id: int) -> Asset | None:
        found = self._s.execute(_WITH_ORGANIZATION.where(AssetRow.id == asset_id)).first()
        if found is None:
            return None
        row, organization_name = found
        devices = tuple(
            BoundDevice(d.id, d.device_name, d.guid, d.type_name, bool(d.online),
                        d.alarm_state != 0, d.status == DeviceStatus.ENABLED)
            for d in self._s.execute(
                select(DeviceRow.id, DeviceRow.device_name, DeviceRow.guid, DeviceTypeRow.type_name,
                       DeviceRow.online, DeviceRow.alarm_state, DeviceRow.status)
                .join(DeviceTypeRow, DeviceTypeRow.id == DeviceRow.type_id)
                .where(DeviceRow.asset_id == asset_id, visible_to(account_id))
                .order_by(DeviceRow.device_name, DeviceRow.id)))
        return _asset(row, organization_name, self._counts([asset_id]).get(asset_id, 0), devices)

    def update(self, asset: Asset) -> None:
        self._s.execute(update(AssetRow).where(AssetRow.id == asset.id).values(**_values(asset)))

    def delete(self, asset_id: int) -> None:
        # Not left to ON DELETE SET NULL: SQLite enforces foreign keys only with its pragma on.
        self._s.execute(update(DeviceRow).where(DeviceRow.asset_id == asset_id).values(asset_id=None))
        self._s.execute(delete(AssetRow).where(AssetRow.id == asset_id))

    def page(self, account_id: int, organization_ids: Sequence[int], keyword: str | None,
             request: PageRequest) -> Page[Asset]:
        where = [or_(and_(AssetRow.organization_id.is_(None), AssetRow.owner_account_id == account_id),
                     AssetRow.organization_id.in_(list(organization_ids)))]
        if keyword:
            key = keyword.lower()
            where.append(or_(func.lower(AssetRow.name).contains(key, autoescape=True),
                             func.lower(AssetRow.number).contains(key, autoescape=True)))
        total = self._s.scalar(select(func.count()).select_from(AssetRow).where(*where)) or 0
        rows = list(self._s.execute(_WITH_ORGANIZATION.where(*where)
                                    .order_by(func.lower(AssetRow.name), AssetRow.id)
                                    .offset(request.offset).limit(request.page_size)))
        counts = self._counts([r.id for r, _ in rows])
        return Page(request.start, request.page_size, total, [_asset(r, o, counts.get(r.id, 0)) for r, o in rows])

    def _counts(self, asset_ids: list[int]) -> dict[int, int]:
        if not asset_ids:
            return {}
        rows = self._s.execute(select(DeviceRow.asset_id, func.count()).where(DeviceRow.asset_id.in_(asset_ids))
                               .group_by(DeviceRow.asset_id))
        return {asset_id: int(n) for asset_id, n in rows if asset_id is not None}

    def bound(self, asset_id: int) -> list[int]:
        return list(self._s.scalars(select(DeviceRow.id).where(DeviceRow.asset_id == asset_id).order_by(DeviceRow.id)))

    def memberships(self, device_ids: Sequence[int]) -> list[Membership]:
        rows = self._s.execute(
            select(DeviceRow.id, DeviceRow.device_name, AssetRow.id, AssetRow.name, AssetRow.owner_account_id,
                   AssetRow.organization_id)
            .join(AssetRow, AssetRow.id == DeviceRow.asset_id).where(DeviceRow.id.in_(list(device_ids)))
            .order_by(DeviceRow.id))
        return [Membership(*row) for row in rows]

    def bind(self, asset_id: int, device_ids: Sequence[int]) -> None:
        self._s.execute(update(DeviceRow).where(DeviceRow.id.in_(list(device_ids))).values(asset_id=asset_id))

    def unbind(self, device_ids: Sequence[int]) -> None:
        self._s.execute(update(DeviceRow).where(DeviceRow.id.in_(list(device_ids))).values(asset_id=None))

    def set_enabled(self, asset_id: int, enabled: bool) -> None:
        self._s.execute(update(AssetRow).where(AssetRow.id == asset_id).values(enabled=enabled))

    def hold(self, device_ids: Sequence[int]) -> None:
        ids = list(device_ids)
        self._s.execute(update(DeviceRow).where(DeviceRow.id.in_(ids)).values(status=int(DeviceStatus.DISABLED)))
        self._s.execute(update(AlarmRuleRow).where(AlarmRuleRow.device_id.in_(ids), AlarmRuleRow.enabled.is_(True))
                        .values(enabled=False, held_by_asset=True))

    def release(self, device_ids: Sequence[int]) -> None:
        ids = list(device_ids)
        self._s.execute(update(DeviceRow).where(DeviceRow.id.in_(ids)).values(status=int(DeviceStatus.ENABLED)))
        self._s.execute(update(AlarmRuleRow).where(AlarmRuleRow.device_id.in_(ids),
                                                   AlarmRuleRow.held_by_asset.is_(True))
                        .values(enabled=True, held_by_asset=False))
