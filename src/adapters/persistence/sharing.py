"""Permission templates, shares and transfers (core/sharing) in SQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, and_, delete, func, or_, select, update
from sqlalchemy.orm import Session, aliased

from adapters.persistence.assets import SqlAlchemyAssetRepository
from adapters.persistence.models import (
    AccountRow,
    AlarmRecipientRow,
    AlarmRuleRow,
    AssetRow,
    AutoRenewAgreementRow,
    DeviceRow,
    DeviceShareRow,
    DeviceTemplateRow,
)
from adapters.persistence.organizations import find_enabled_account
from core.devices.grants import Grant
from core.shared.paging import Page, PageRequest
from core.sharing.model import Recipient, Share, ShareView, Template, TransferPreview
from core.sharing.ports import Direction


def _active(now: datetime) -> ColumnElement[bool]:
    return and_(DeviceShareRow.revoked_at.is_(None),
                or_(DeviceShareRow.ends_at.is_(None), DeviceShareRow.ends_at > now))


def _active_count(session: Session, device_ids: list[int], now: datetime) -> int:
    return session.scalar(select(func.count()).select_from(DeviceShareRow)
                          .where(DeviceShareRow.device_id.in_(device_ids), _active(now))) or 0


def _template(row: DeviceTemplateRow, shares: int = 0) -> Template:
    return Template(row.id, row.owner_account_id, row.name, Grant(row.view_mask, row.operate_mask), shares)


class SqlAlchemyTemplateRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def usable(self, account_id: int) -> list[Template]:
        # shares counted are the reader's: a built-in template's count is how many of the reader's
        # shares use it, not everyone's
        shares = (select(func.count()).select_from(DeviceShareRow)
                  .where(DeviceShareRow.template_id == DeviceTemplateRow.id,
                         DeviceShareRow.owner_account_id == account_id, DeviceShareRow.revoked_at.is_(None))
                  .scalar_subquery())
        rows = self._s.execute(
            select(DeviceTemplateRow, shares)
            .where(or_(DeviceTemplateRow.owner_account_id.is_(None), DeviceTemplateRow.owner_account_id == account_id))
            .order_by(DeviceTemplateRow.owner_account_id.is_not(None), DeviceTemplateRow.name_key,
                      DeviceTemplateRow.id))
        return [_template(row[0], int(row[1])) for row in rows]

    def get(self, template_id: int) -> Template | None:
        row = self._s.get(DeviceTemplateRow, template_id)
        return _template(row) if row else None

    def add(self, template: Template) -> Template:
        row = DeviceTemplateRow(owner_account_id=template.owner_account_id, name=template.name,
                                name_key=template.name.casefold(), view_mask=template.grant.view,
                                operate_mask=template.grant.operate)
        self._s.add(row)
        self._s.flush()
        return _template(row)

    def update(self, template: Template) -> None:
        self._s.execute(update(DeviceTemplateRow).where(DeviceTemplateRow.id == template.id).values(
            name=template.name, name_key=template.name.casefold(), view_mask=template.grant.view,
            operate_mask=template.grant.operate))

    def delete(self, template_id: int) -> None:
        # revoked shares keep their record; the template they name goes only with them
        self._s.execute(delete(DeviceShareRow).where(DeviceShareRow.template_id == template_id,
                                                     DeviceShareRow.revoked_at.is_not(None)))
        self._s.execute(delete(DeviceTemplateRow).where(DeviceTemplateRow.id == template_id))

    def name_taken(self, account_id: int, name: str, except_id: int | None = None) -> bool:
        query = select(DeviceTemplateRow.id).where(
            or_(DeviceTemplateRow.owner_account_id == account_id, DeviceTemplateRow.owner_account_id.is_(None)),
            DeviceTemplateRow.name_key == name.casefold())
        if except_id is not None:
            query = query.where(DeviceTemplateRow.id != except_id)
        return self._s.scalar(query.limit(1)) is not None

    def active_shares(self, template_id: int) -> int:
        return self._s.scalar(select(func.count()).select_from(DeviceShareRow).where(
            DeviceShareRow.template_id == template_id, DeviceShareRow.revoked_at.is_(None))) or 0


def _share(row: DeviceShareRow) -> Share:
    return Share(row.id, row.device_id, row.owner_account_id, row.sharee_account_id, row.template_id, row.created_at,
                 row.ends_at, row.revoked_at)


class SqlAlchemyShareRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def current(self, device_id: int, sharee_account_id: int) -> Share | None:
        row = self._s.scalar(select(DeviceShareRow).where(DeviceShareRow.device_id == device_id,
                                                          DeviceShareRow.sharee_account_id == sharee_account_id,
                                                          DeviceShareRow.revoked_at.is_(None)))
        return _share(row) if row else None

    def add(self, share: Share) -> Share:
        row = DeviceShareRow(device_id=share.device_id, owner_account_id=share.owner_account_id,
                             sharee_account_id=share.sharee_account_id, template_id=share.template_id,
                             created_at=share.created_at, ends_at=share.ends_at)
        self._s.add(row)
        self._s.flush()
        return _share(row)

    def get(self, share_id: int) -> Share | None:
        row = self._s.get(DeviceShareRow, share_id)
        return _share(row) if row else None

    def update(self, share: Share) -> None:
        self._s.execute(update(DeviceShareRow).where(DeviceShareRow.id == share.id).values(
            owner_account_id=share.owner_account_id, template_id=share.template_id, ends_at=share.ends_at))

    def revoke(self, share_ids: Sequence[int], now: datetime) -> int:
        result = self._s.execute(update(DeviceShareRow).where(DeviceShareRow.id.in_(list(share_ids)),
                                                               DeviceShareRow.revoked_at.is_(None))
                                 .values(revoked_at=now))
        return int(result.rowcount or 0)  # type: ignore[attr-defined]

    def revoke_of_devices(self, device_ids: Sequence[int], now: datetime) -> int:
        ids = list(device_ids)
        active = _active_count(self._s, ids, now)
        self._s.execute(update(DeviceShareRow).where(DeviceShareRow.device_id.in_(ids),
                                                      DeviceShareRow.revoked_at.is_(None)).values(revoked_at=now))
        return active

    def page(self, account_id: int, direction: Direction, keyword: str | None, request: PageRequest,
             now: datetime) -> Page[ShareView]:
        owner, sharee = aliased(AccountRow), aliased(AccountRow)
        side = DeviceShareRow.owner_account_id if direction == "mine" else DeviceShareRow.sharee_account_id
        # what I shared: only of devices I still own (a transfer revokes them anyway)
        where = [side == account_id, DeviceShareRow.revoked_at.is_(None)]
        if direction == "withMe":
            where.append(or_(DeviceShareRow.ends_at.is_(None), DeviceShareRow.ends_at > now))
        if keyword:
            needle = keyword.lower()
            other = sharee.user_name if direction == "mine" else owner.user_name
            where.append(or_(func.lower(DeviceRow.device_name).contains(needle, autoescape=True),
                             func.lower(DeviceRow.guid).contains(needle, autoescape=True),
                             func.lower(other).contains(needle, autoescape=True)))
        base = (select(DeviceShareRow, DeviceRow.device_name, DeviceRow.guid, owner.user_name, sharee.user_name,
                       DeviceTemplateRow.name, DeviceTemplateRow.owner_account_id)
                .join(DeviceRow, DeviceRow.id == DeviceShareRow.device_id)
                .join(owner, owner.id == DeviceShareRow.owner_account_id)
                .join(sharee, sharee.id == DeviceShareRow.sharee_account_id)
                .join(DeviceTemplateRow, DeviceTemplateRow.id == DeviceShareRow.template_id)
                .where(*where))
        total = self._s.scalar(select(func.count()).select_from(base.subquery())) or 0
        rows = self._s.execute(base.order_by(DeviceShareRow.created_at.desc(), DeviceShareRow.id.desc())
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, [
            ShareView(row.id, row.device_id, name, guid, owner_name, sharee_name, row.template_id, template_name,
                      row.created_at, row.ends_at, _share(row).active_at(now), template_owner is None)
            for row, name, guid, owner_name, sharee_name, template_name, template_owner in rows])


class SqlAlchemyCustody:
    def __init__(self, session: Session) -> None:
        self._s = session

    def find_account(self, term: str) -> Recipient | None:
        found = find_enabled_account(self._s, term)
        return Recipient(*found) if found else None

    def preview(self, device_ids: Sequence[int], now: datetime) -> TransferPreview:
        ids = list(device_ids)
        shares = _active_count(self._s, ids, now)
        projects, organizations = self._s.execute(
            select(func.count(DeviceRow.project_id), func.count(DeviceRow.organization_id))
            .where(DeviceRow.id.in_(ids))).one()
        return TransferPreview(len(ids), int(shares), int(projects), int(organizations))

    def transfer(self, device_ids: Sequence[int], to_account_id: int, now: datetime) -> None:
        ids = list(device_ids)
        # the old owner's asset lets them go, as unbinding would (a disabled one's hold ends)
        assets = SqlAlchemyAssetRepository(self._s)
        assets.release(list(self._s.scalars(select(DeviceRow.id).join(AssetRow, AssetRow.id == DeviceRow.asset_id)
                                            .where(DeviceRow.id.in_(ids), AssetRow.enabled.is_(False)))))
        assets.unbind(ids)
        self._s.execute(update(DeviceRow).where(DeviceRow.id.in_(ids)).values(
            owner_account_id=to_account_id, organization_id=None, project_id=None))
        # an auto-renewal charges the old owner's payment agreement: it ends here
        self._s.execute(update(AutoRenewAgreementRow).where(AutoRenewAgreementRow.device_id.in_(ids),
                                                            AutoRenewAgreementRow.status == 1)
                        .values(status=0, cancelled_at=now))
        # the alarm rules go with the device; the people they alerted are the old owner's
        self._s.execute(delete(AlarmRecipientRow).where(AlarmRecipientRow.rule_id.in_(
            select(AlarmRuleRow.id).where(AlarmRuleRow.device_id.in_(ids)))))
