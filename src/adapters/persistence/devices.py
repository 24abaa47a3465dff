"""Repositories of devices."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Integer,
    ScalarSelect,
    Select,
    and_,
    bindparam,
    case,
    delete,
    exists,
    func,
    literal,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adapters.persistence.device_records import event_page
from adapters.persistence.models import (
    AccountRow,
    AlarmExcursionRow,
    AlarmMessageRow,
    AlarmRuleRow,
    AutoRenewAgreementRow,
    DeviceCalibrationRow,
    DeviceCredentialRow,
    DeviceEventRow,
    DeviceRow,
    DeviceSeriesRow,
    DeviceShareRow,
    DeviceTemplateRow,
    DeviceTypeRow,
    LevelYearOptionRow,
    OrganizationMemberRow,
    OrganizationRow,
    PackageDeviceTypeRow,
    PackageGiftRow,
    ProjectRow,
    RolePermissionRow,
    ServiceLevelRow,
    ServicePackageRow,
)
from adapters.persistence.results import rows_written
from core.devices.events import DeviceEvent, DeviceEventEntry
from core.devices.expiry import LIFELONG_FROM, ExpiringDevice, ExpiryWindow
from core.devices.grants import FULL, NOTHING, OPERATE_SHIFT, SHARED_BIT, VIEW_ALL, Element, Grant
from core.devices.model import (
    CALIBRATION_DUE_WITHIN,
    EXPIRING_WITHIN,
    FREE_SERVICE_MONTHS,
    NO_PROJECT,
    SORT_FIELDS,
    Device,
    DeviceFilter,
    DeviceMarker,
    DeviceMarkers,
    DeviceStatus,
    DeviceType,
    HomeCounts,
    NewDevice,
    NewDeviceGift,
    ProbeLimits,
    TypeStatus,
    VipState,
    as_granted,
    measures_energy,
    parse_probes,
    parse_scenes,
)
from core.devices.ports import BrokerAccount, BrokerCredential
from core.permissions.roles import CHANGE_DEVICES, SEE_DEVICES
from core.shared.errors import DeviceAlreadyAdded
from core.shared.paging import Page, PageRequest
from core.telemetry.model import Position

# An account's id, or a parameter that will hold it (in statements kept to run again).
AccountId = int | ColumnElement[int]


def _organizations_of(account_id: AccountId, permission: str = SEE_DEVICES) -> Select:
    """The organizations whose devices the account's role there lets it see (or, with
    CHANGE_DEVICES, change): its role's permissions decide (core/permissions/roles.py), custom
    roles as built-in ones, and a change of role counts from the next statement."""
    return (select(OrganizationMemberRow.organization_id)
            .where(OrganizationMemberRow.account_id == account_id,
                   exists().where(RolePermissionRow.role_id == OrganizationMemberRow.role_id,
                                  RolePermissionRow.permission_name == permission)))


# Who may see a device and what each may do on it are decided here and nowhere else.


def _shared_with(account_id: AccountId) -> ColumnElement[bool]:
    """The share rows that give the account a device now: unrevoked and not past their end.
    The database's clock decides the end, so a statement kept to run again stays right."""
    return and_(DeviceShareRow.sharee_account_id == account_id, DeviceShareRow.revoked_at.is_(None),
                or_(DeviceShareRow.ends_at.is_(None), DeviceShareRow.ends_at > func.current_timestamp()))


def _shared_ids(account_id: AccountId) -> Select:
    return select(DeviceShareRow.device_id).where(_shared_with(account_id))


def visible_to(account_id: AccountId) -> ColumnElement[bool]:
    """The devices an account may see: its own, those of every organization it belongs to and
    those shared with it. A filter for rows found otherwise (by id, through their alarms); lists
    and counts, which look for every device a caller may see, use visible_branches, which
    indexes serve."""
    return or_(DeviceRow.owner_account_id == account_id, DeviceRow.organization_id.in_(_organizations_of(account_id)),
               DeviceRow.id.in_(_shared_ids(account_id)))


def changeable_by(account_id: AccountId) -> ColumnElement[bool]:
    """The devices an account may change: its own, and those of the organizations whose role
    there lets it change devices (access_of's FULL without a share)."""
    return or_(DeviceRow.owner_account_id == account_id,
               DeviceRow.organization_id.in_(_organizations_of(account_id, CHANGE_DEVICES)))


def visible_branches(account_id: AccountId, columns: Sequence[Any],
                     *where: ColumnElement[bool]) -> tuple[Select, ...]:
    """visible_to as three selects of `columns` to UNION ALL: the devices the account owns, those
    of its organizations that it does not own, and those shared with it that neither of the first
    two holds (so none comes twice). No index serves the OR of visible_to, and PostgreSQL reads
    the whole table for it; each branch here is a range of one index (ix_devices_owner_created,
    ix_devices_organization_created, ix_device_shares_sharee_device)."""
    owned = select(*columns).where(DeviceRow.owner_account_id == account_id, *where)
    organizations = _organizations_of(account_id)
    members = select(*columns).where(DeviceRow.organization_id.in_(organizations),
                                     DeviceRow.owner_account_id != account_id, *where)
    shared = select(*columns).where(DeviceRow.id.in_(_shared_ids(account_id)), DeviceRow.owner_account_id != account_id,
                                    or_(DeviceRow.organization_id.is_(None),
                                        DeviceRow.organization_id.not_in(organizations)), *where)
    return owned, members, shared


def count_visible(account_id: AccountId, *where: ColumnElement[bool]) -> Select:
    """How many devices the account may see that meet `where`."""
    return select(func.count()).select_from(union_all(*visible_branches(account_id, [DeviceRow.id], *where))
                                            .subquery())


def _share_grant(account_id: AccountId) -> ScalarSelect[int]:
    """The grant code of the device's share with the account (core/devices/grants.py), from its
    template; NULL without one."""
    return (select(DeviceTemplateRow.view_mask + DeviceTemplateRow.operate_mask * (1 << OPERATE_SHIFT) + SHARED_BIT)
            .join(DeviceShareRow, DeviceShareRow.template_id == DeviceTemplateRow.id)
            .where(DeviceShareRow.device_id == DeviceRow.id, _shared_with(account_id))
            .limit(1).scalar_subquery())


def access_of(account_id: AccountId) -> ColumnElement[int]:
    """The account's Grant on each device, as its code: everything for its owner and its
    organization's creator and administrators, everything to see and nothing to operate for the
    organization's other members, the share's template for a sharee, nothing for everyone else."""
    return case(
        (DeviceRow.owner_account_id == account_id, FULL.code),
        (DeviceRow.organization_id.in_(_organizations_of(account_id, CHANGE_DEVICES)), FULL.code),
        (DeviceRow.organization_id.in_(_organizations_of(account_id)), VIEW_ALL.code),
        else_=func.coalesce(_share_grant(account_id), NOTHING.code))


def sees(account_id: AccountId, element: Element) -> ColumnElement[bool]:
    """The devices whose `element` the account may see (the alarm centre shows the alarms only
    of devices whose alarm records it may see)."""
    return and_(visible_to(account_id), access_of(account_id).op("&")(element.bit) != 0)


class SqlAlchemyDeviceExpiryRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    @staticmethod
    def _where(window: ExpiryWindow) -> list[ColumnElement[bool]]:
        expires = DeviceRow.service_expires_at
        # a scrapped device's service is nobody's concern until it is restored
        where: list[ColumnElement[bool]] = [expires.is_not(None), DeviceRow.scrapped_at.is_(None)]
        if window.since is not None:
            where.append(expires >= window.since)
        if window.until is not None:
            where.append(expires < window.until)
        return where

    def count_expiring(self, account_id: int, window: ExpiryWindow) -> int:
        return self._s.execute(count_visible(account_id, *self._where(window))).scalar_one()

    def expiring_page(self, account_id: int, window: ExpiryWindow, request: PageRequest) -> Page[ExpiringDevice]:
        where = self._where(window)
        total: int = self._s.execute(count_visible(account_id, *where)).scalar_one()
        ids = union_all(*visible_branches(account_id, [DeviceRow.id], *where))
        rows = self._s.execute(
            select(DeviceRow.id, DeviceRow.type_id, DeviceTypeRow.type_name, DeviceRow.device_name, DeviceRow.guid,
                   DeviceRow.service_expires_at, access_of(account_id))
            .join(DeviceTypeRow, DeviceTypeRow.id == DeviceRow.type_id)
            .where(DeviceRow.id.in_(ids))
            .order_by(DeviceTypeRow.type_name, DeviceRow.service_expires_at, DeviceRow.id)
            .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total,
                    [ExpiringDevice(device_id, type_id, type_name, name, guid, expires_at,
                                    Grant.of_code(access).access_to(Element.RECHARGE))
                     for device_id, type_id, type_name, name, guid, expires_at, access in rows
                     if expires_at is not None])  # always (the WHERE says so): the check tells the type


_SORT_COLUMNS = {
    "deviceId": DeviceRow.id,
    "deviceName": DeviceRow.device_name,
    "deviceGuid": DeviceRow.guid,
    "deviceTypeName": DeviceTypeRow.type_name,
    "serviceExpiredDate": DeviceRow.service_expires_at,
    "lastReadingAt": DeviceRow.last_reading_at,
    "createdAt": DeviceRow.created_at,
    "temperature": DeviceRow.last_temperature,
}
assert set(_SORT_COLUMNS) == set(SORT_FIELDS)
_CHANGEABLE = {"name": DeviceRow.device_name, "remark": DeviceRow.remark,
               "display_precision": DeviceRow.display_precision, "temperature_unit": DeviceRow.temperature_unit,
               "country_code": DeviceRow.country_code}


def _contains(column, value: str) -> ColumnElement[bool]:
    return func.lower(column).contains(value.lower(), autoescape=True)


def _in_scene(scene: int) -> ColumnElement[bool]:
    return (literal(",") + DeviceTypeRow.scenes + literal(",")).like(f"%,{int(scene)},%")


def _of_scene(scene: int) -> ColumnElement[bool]:
    """Devices whose type is in the scene: a filter on the type id the list's indexes carry."""
    return DeviceRow.type_id.in_(select(DeviceTypeRow.id).where(_in_scene(scene)))


def _vip_condition(state: VipState) -> ColumnElement[bool]:
    """The condition with the moments it depends on as parameters (_vip_moments gives them), so
    that a statement built with it can be kept and run again later."""
    expires = DeviceRow.service_expires_at
    if state is VipState.OVERDUE:
        return and_(expires.is_not(None), expires < bindparam("expired_until"))
    if state is VipState.EXPIRING:
        return and_(expires.is_not(None), expires >= bindparam("now"), expires < bindparam("expiring_until"))
    return or_(expires.is_(None), expires >= bindparam("expiring_until"))


def _vip_moments(now: datetime) -> dict[str, datetime]:
    return {"now": now, "expired_until": min(now, LIFELONG_FROM),
            "expiring_until": min(now + EXPIRING_WITHIN, LIFELONG_FROM)}


def _calibration_due() -> ColumnElement[bool]:
    """A device whose calibration falls due by the parameter's day (or fell due before): an index
    range of device_calibrations (core.calibration keeps the due dates there)."""
    return exists().where(DeviceCalibrationRow.device_id == DeviceRow.id,
                          DeviceCalibrationRow.due_on <= bindparam("calibration_due_by"))


def _filter_params(account_id: int, where: DeviceFilter) -> dict[str, Any]:
    """The parameters of a statement built from `where` for the account: the moments only when
    the filter asks for a service state or a calibration due."""
    params: dict[str, Any] = {"account_id": account_id}
    now = where.now or datetime.now(UTC)
    if where.vip_state is not None:
        params |= _vip_moments(now)
    if where.calibration_due is not None:
        params["calibration_due_by"] = (now + CALIBRATION_DUE_WITHIN).date()
    return params


# Statements kept for the calls made most (the device list, the home counts): building a SELECT
# of this size with SQLAlchemy costs more CPU than PostgreSQL spends answering it. The caller's
# account, the paging and the moments are parameters; the filter's other values are in the
# statement, so a statement is kept per filter, sort and order (the most recent few hundred).
_ACCOUNT = bindparam("account_id", type_=Integer)
# The device's own columns, not its ORM entity: a page reads them only to make Devices.
_DEVICE_COLUMNS = tuple(getattr(DeviceRow, column.key) for column in DeviceRow.__mapper__.column_attrs)


def _device_type(row) -> DeviceType:
    return DeviceType(row.id, row.type_name, row.type_code, row.add_type, row.status, parse_scenes(row.scenes),
                      parse_probes(row.probes), row.series_name, measures_energy(row.probes))


class SqlAlchemyDeviceRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    @staticmethod
    @lru_cache(maxsize=1)
    def _select() -> Select:
        """Devices as the account of parameter account_id sees them, with its access to each."""
        agreement = exists().where(AutoRenewAgreementRow.device_id == DeviceRow.id,
                                   AutoRenewAgreementRow.status == 1)
        return (select(*_DEVICE_COLUMNS, DeviceTypeRow.type_name, DeviceTypeRow.scenes, DeviceTypeRow.probes,
                       AccountRow.user_name, OrganizationRow.name.label("organization_name"),
                       ServiceLevelRow.level_name, agreement.label("agreement"),
                       ProjectRow.name.label("project_name"), access_of(_ACCOUNT).label("access"))
                .join(DeviceTypeRow, DeviceTypeRow.id == DeviceRow.type_id)
                .join(AccountRow, AccountRow.id == DeviceRow.owner_account_id)
                .outerjoin(OrganizationRow, OrganizationRow.id == DeviceRow.organization_id)
                .outerjoin(ServiceLevelRow, ServiceLevelRow.id == DeviceRow.level_id)
                .outerjoin(ProjectRow, ProjectRow.id == DeviceRow.project_id))

    @staticmethod
    @lru_cache(maxsize=1)
    def _page_rows() -> Select:
        return SqlAlchemyDeviceRepository._select().where(DeviceRow.id.in_(bindparam("ids", expanding=True)))

    @staticmethod
    def _device(row, limits: tuple[ProbeLimits, ...] = ()) -> Device:
        d = row  # the device's columns and its joins' in one row
        return as_granted(Device(
            id=d.id, guid=d.guid, name=d.device_name, type_id=d.type_id, type_name=row.type_name,
            type_scenes=parse_scenes(row.scenes), probes=parse_probes(row.probes),
            owner_account_id=d.owner_account_id, owner_name=row.user_name, organization_id=d.organization_id,
            organization_name=row.organization_name, level_id=d.level_id, level_name=row.level_name,
            service_expires_at=d.service_expires_at, sms_count=d.sms_count, voice_count=d.voice_count,
            country_code=d.country_code, sim_iccid=d.sim_iccid, jc_iccid_status=d.jc_iccid_status,
            agreement_active=bool(row.agreement), node_type=d.node_type, display_precision=d.display_precision,
            temperature_unit=d.temperature_unit, status=d.status, remark=d.remark, created_at=d.created_at,
            activated_at=d.activated_at, last_seen_at=d.last_seen_at, online=bool(d.online),
            last_reading_at=d.last_reading_at, last_temperature=d.last_temperature,
            last_humidity=d.last_humidity, alarm_state=d.alarm_state, limits=limits, grant=Grant.of_code(row.access),
            position=(Position(d.last_latitude, d.last_longitude, d.last_accuracy_m)
                      if d.last_latitude is not None and d.last_longitude is not None else None),
            position_at=d.last_position_at, energy=measures_energy(row.probes), scrapped_at=d.scrapped_at,
            project_id=d.project_id, project_name=row.project_name))

    @staticmethod
    def _where(f: DeviceFilter) -> list[ColumnElement[bool]]:
        where: list[ColumnElement[bool]] = []
        if f.name:
            where.append(_contains(DeviceRow.device_name, f.name))
        if f.guid:
            where.append(_contains(DeviceRow.guid, f.guid))
        if f.type_id is not None:
            where.append(DeviceRow.type_id == f.type_id)
        if f.status is not None:
            where.append(DeviceRow.status == f.status)
        if f.scene is not None:
            where.append(_of_scene(f.scene))
        if f.online is not None:
            where.append(DeviceRow.online.is_(f.online) if f.online else DeviceRow.online.is_not(True))
        if f.alarm is not None:
            where.append(DeviceRow.alarm_state != 0 if f.alarm else DeviceRow.alarm_state == 0)
        if f.level_id is not None:
            where.append(DeviceRow.level_id == f.level_id)
        if f.vip_state is not None:
            where.append(_vip_condition(f.vip_state))
        if f.scrapped is not None:
            where.append(DeviceRow.scrapped_at.is_not(None) if f.scrapped else DeviceRow.scrapped_at.is_(None))
        elif f.states_in_service:
            where.append(DeviceRow.scrapped_at.is_(None))
        if f.project_id is not None:
            where.append(DeviceRow.project_id.is_(None) if f.project_id == NO_PROJECT
                         else DeviceRow.project_id == f.project_id)
        if f.calibration_due is not None:
            where.append(_calibration_due() if f.calibration_due else ~_calibration_due())
        return where

    @staticmethod
    @lru_cache(maxsize=256)
    def _page_statements(where: DeviceFilter, sort_field: str, ascending: bool,
                         mirrored: bool = False) -> tuple[Select, Select]:
        """The page's count and its ids (parameters account_id, reach, offset, page_size and
        the vip moments); `where` without its `now`, which is a parameter. `mirrored` reads the
        list's order backwards from its end (page() asks so for a page past the middle)."""
        conditions = SqlAlchemyDeviceRepository._where(where)
        column = _SORT_COLUMNS[sort_field]
        forwards = ascending != mirrored

        def order(key, device_id) -> list:
            # NULLS LAST only where a null can be: on a column that holds none it would keep the
            # index from giving the order. Mirrored, the nulls come first: the exact reverse.
            by = key.asc() if forwards else key.desc()
            if column.expression.nullable:
                by = by.nulls_first() if mirrored else by.nulls_last()
            return [by, device_id.asc() if forwards else device_id.desc()]

        reach = bindparam("reach", type_=Integer)
        branches = []
        for branch in visible_branches(_ACCOUNT, [column.label("sort_key"), DeviceRow.id], *conditions):
            if column is DeviceTypeRow.type_name:
                branch = branch.join(DeviceTypeRow, DeviceTypeRow.id == DeviceRow.type_id)
            branches.append(select(branch.order_by(*order(column, DeviceRow.id)).limit(reach).subquery()))
        merged = union_all(*branches).subquery()
        ids = (select(merged.c.id).order_by(*order(merged.c.sort_key, merged.c.id))
               .offset(bindparam("offset", type_=Integer)).limit(bindparam("page_size", type_=Integer)))
        return count_visible(_ACCOUNT, *conditions), ids

    def page(self, account_id: int, where: DeviceFilter, request: PageRequest) -> Page[Device]:
        """Count, then ids, then the page's rows: the ids come from the two indexes of
        visible_branches, each read in the page's order only as far as the page, and merged;
        only the page's ten devices are then read whole, with their joins. A page past the
        middle is read from the list's other end (the count says how far that is), so the last
        page costs what the first does and no page reads more than half the list."""
        sort_field = request.sort_field if request.sort_field in _SORT_COLUMNS else "createdAt"
        ascending, plain_where = request.sort_order == "asc", replace(where, now=None)
        count = self._page_statements(plain_where, sort_field, ascending)[0]
        params = _filter_params(account_id, where)
        run = self._s.connection().execute  # Core selects: the ORM's execute path adds only cost
        total: int = run(count, params).scalar_one()
        offset, size = request.offset, min(request.page_size, max(total - request.offset, 0))
        if size == 0:
            return Page(request.start, request.page_size, total, [])
        mirrored = offset > (total - size) // 2
        if mirrored:  # the same rows, counted from the end
            offset = total - offset - size
        ids_of = self._page_statements(plain_where, sort_field, ascending, mirrored)[1]
        ids: list[int] = list(run(ids_of, params | {"reach": offset + size, "offset": offset,
                                                    "page_size": size}).scalars())
        if mirrored:
            ids.reverse()
        rows = {row.id: row for row in run(self._page_rows(), {"account_id": account_id, "ids": ids})}
        return Page(request.start, request.page_size, total, [self._device(rows[i]) for i in ids if i in rows])

    def markers(self, account_id: int, where: DeviceFilter, limit: int) -> DeviceMarkers:
        """A few columns of every positioned device of `where`: the two branches of
        visible_branches, merged and cut at `limit` by id."""
        # a sharee whose template hides the map does not learn where the device is from the map either
        conditions = [*self._where(where), DeviceRow.last_latitude.is_not(None), DeviceRow.last_longitude.is_not(None),
                      access_of(_ACCOUNT).op("&")(Element.MAP.bit) != 0]
        columns = [DeviceRow.id, DeviceRow.device_name, DeviceRow.last_latitude, DeviceRow.last_longitude,
                   DeviceRow.status, DeviceRow.online, DeviceRow.alarm_state, DeviceRow.activated_at,
                   DeviceRow.scrapped_at]
        params = _filter_params(account_id, where)
        run = self._s.connection().execute
        total: int = run(count_visible(_ACCOUNT, *conditions), params).scalar_one()
        merged = union_all(*visible_branches(_ACCOUNT, columns, *conditions)).subquery()
        rows: list[Any] = list(run(select(merged).order_by(merged.c.id).limit(limit), params)) if total else []
        return DeviceMarkers([DeviceMarker(row.id, row.device_name, Position(row.last_latitude, row.last_longitude),
                                           row.status, bool(row.online), row.alarm_state, row.activated_at,
                                           row.scrapped_at) for row in rows], total)

    def visible(self, account_id: int, device_id: int) -> Device | None:
        found = self.visible_many(account_id, [device_id])
        return found[0] if found else None

    def visible_many(self, account_id: int, device_ids: Sequence[int]) -> list[Device]:
        ids = list(dict.fromkeys(device_ids))
        if not ids:
            return []
        rows = self._s.execute(self._select().where(DeviceRow.id.in_(ids), visible_to(account_id)),
                               {"account_id": account_id}).all()
        limits: dict[int, list[ProbeLimits]] = {row.id: [] for row in rows}
        if limits:
            rules = self._s.execute(select(AlarmRuleRow.device_id, AlarmRuleRow.probe, AlarmRuleRow.upper_limit,
                                           AlarmRuleRow.lower_limit, AlarmRuleRow.enabled)
                                    .where(AlarmRuleRow.device_id.in_(list(limits)))
                                    .order_by(AlarmRuleRow.device_id, AlarmRuleRow.probe))
            for r in rules:
                limits[r.device_id].append(ProbeLimits(r.probe, r.upper_limit, r.lower_limit, bool(r.enabled)))
        return [self._device(row, tuple(limits[row.id])) for row in rows]

    def counts(self, account_id: int, now: datetime, scene: int | None = None) -> HomeCounts:
        params = {"account_id": account_id, "expired_until": min(now, LIFELONG_FROM)}
        counted = self._s.connection().execute(self._counts_statement(scene), params).one()
        return HomeCounts(*(int(v) for v in counted))

    @staticmethod
    @lru_cache(maxsize=16)
    def _counts_statement(scene: int | None) -> Select:
        """The home counts of a scene (all with None), for parameters account_id and expired_until."""
        where = [_of_scene(scene)] if scene is not None else []
        columns = [DeviceRow.online, DeviceRow.activated_at, DeviceRow.alarm_state, DeviceRow.status,
                   DeviceRow.service_expires_at, DeviceRow.scrapped_at]
        d = union_all(*visible_branches(_ACCOUNT, columns, *where)).subquery()
        in_service = d.c.scrapped_at.is_(None)  # a scrapped device counts as scrapped only
        return select(func.count(), *(func.count().filter(and_(in_service, condition)) for condition in (
            d.c.online.is_(True), and_(d.c.online.is_not(True), d.c.activated_at.is_not(None)), d.c.alarm_state != 0,
            d.c.status == DeviceStatus.DISABLED,
            and_(d.c.service_expires_at.is_not(None), d.c.service_expires_at < bindparam("expired_until")),
            d.c.activated_at.is_(None))), func.count().filter(d.c.scrapped_at.is_not(None)))

    def guid_taken(self, guid: str) -> bool:
        return bool(self._s.scalar(select(exists().where(
            or_(DeviceRow.guid == guid, func.upper(DeviceRow.guid) == guid.upper())))))

    @staticmethod
    def _types():
        return (select(DeviceTypeRow.id, DeviceTypeRow.type_name, DeviceTypeRow.type_code, DeviceTypeRow.add_type,
                       DeviceTypeRow.status, DeviceTypeRow.scenes, DeviceTypeRow.probes, DeviceSeriesRow.series_name)
                .outerjoin(DeviceSeriesRow, DeviceSeriesRow.id == DeviceTypeRow.series_id))

    def device_type(self, type_id: int) -> DeviceType | None:
        row = self._s.execute(self._types().where(DeviceTypeRow.id == type_id)).first()
        return _device_type(row) if row else None

    def published_types(self, scene: int | None = None) -> list[DeviceType]:
        query = self._types().where(DeviceTypeRow.status == TypeStatus.PUBLISHED)
        if scene is not None:
            query = query.where(_in_scene(scene))
        return [_device_type(row) for row in self._s.execute(query.order_by(DeviceTypeRow.type_code))]

    def new_device_gift(self, type_id: int) -> NewDeviceGift:
        package = self._s.scalar(
            select(ServicePackageRow.id)
            .join(PackageDeviceTypeRow, PackageDeviceTypeRow.package_id == ServicePackageRow.id)
            .where(PackageDeviceTypeRow.device_type_id == type_id, ServicePackageRow.status == 1)
            .order_by(ServicePackageRow.id).limit(1))
        gift = self._s.get(PackageGiftRow, package) if package is not None else None
        if gift is not None:
            return NewDeviceGift(gift.level_id, gift.months, gift.sms_count, gift.voice_count)
        return NewDeviceGift(self._free_level(type_id), FREE_SERVICE_MONTHS)

    def _free_level(self, type_id: int) -> int | None:
        options = select(LevelYearOptionRow.id).where(LevelYearOptionRow.level_id == ServiceLevelRow.id,
                                                      LevelYearOptionRow.retired_at.is_(None))
        paid = options.where(or_(LevelYearOptionRow.service_fee_cents > 0, LevelYearOptionRow.data_fee_cents > 0))
        return self._s.scalar(
            select(ServiceLevelRow.id)
            .join(ServicePackageRow, ServicePackageRow.id == ServiceLevelRow.package_id)
            .join(PackageDeviceTypeRow, PackageDeviceTypeRow.package_id == ServicePackageRow.id)
            .where(PackageDeviceTypeRow.device_type_id == type_id, ServicePackageRow.status == 1,
                   options.exists(), ~paid.exists())
            .order_by(ServiceLevelRow.sort, ServiceLevelRow.id).limit(1))

    def add(self, device: NewDevice) -> int:
        row = DeviceRow(
            guid=device.guid, device_name=device.name, type_id=device.type_id,
            owner_account_id=device.owner_account_id, organization_id=None, sim_iccid=None, jc_iccid_status=0,
            level_id=device.level_id, service_expires_at=device.service_expires_at, sms_count=device.sms_count,
            voice_count=device.voice_count,
            country_code=device.country_code, node_type=1, display_precision=device.display_precision,
            temperature_unit=device.temperature_unit, status=DeviceStatus.ENABLED, remark=device.remark,
            created_at=device.created_at, online=False, alarm_state=0)
        self._s.add(row)
        try:
            with self._s.begin_nested():
                self._s.flush()
        except IntegrityError as error:  # a concurrent add took the GUID first
            raise DeviceAlreadyAdded() from error
        return row.id

    def organizations_of(self, account_id: int) -> dict[int, bool]:
        changes = set(self._s.scalars(_organizations_of(account_id, CHANGE_DEVICES)))
        return {o: o in changes for o in self._s.scalars(_organizations_of(account_id))}

    def in_asset(self, device_ids: Sequence[int]) -> list[str]:
        return list(self._s.scalars(select(DeviceRow.device_name).where(DeviceRow.id.in_(list(device_ids)),
                                                                        DeviceRow.asset_id.is_not(None))
                                    .order_by(DeviceRow.id)))

    def set_organization(self, device_ids: Sequence[int], organization_id: int | None) -> None:
        moving = [DeviceRow.id.in_(list(device_ids)), DeviceRow.organization_id.is_distinct_from(organization_id)]
        self._s.execute(update(DeviceRow).where(*moving).values(organization_id=organization_id, project_id=None))

    def update(self, device_id: int, changes: dict[str, object]) -> None:
        values = {_CHANGEABLE[name].key: value for name, value in changes.items()}
        self._s.execute(update(DeviceRow).where(DeviceRow.id == device_id).values(**values))

    def delete(self, device_id: int) -> None:
        self._s.execute(delete(DeviceRow).where(DeviceRow.id == device_id))

    def set_scrapped(self, device_ids: Sequence[int], at: datetime | None) -> None:
        if device_ids:
            self._s.execute(update(DeviceRow).where(DeviceRow.id.in_(list(device_ids))).values(scrapped_at=at))

    def retention_candidates(self, expired_before: datetime) -> list[tuple[int, datetime]]:
        expires = DeviceRow.service_expires_at
        rows = self._s.execute(select(DeviceRow.id, expires)
                               .where(expires.is_not(None), expires < min(expired_before, LIFELONG_FROM))
                               .order_by(DeviceRow.id))
        # expires_at is never None (the WHERE says so): the check tells the type
        return [(device_id, expires_at) for device_id, expires_at in rows if expires_at is not None]

    def clear_records(self, device_id: int) -> int:
        self._s.execute(delete(AlarmExcursionRow).where(AlarmExcursionRow.device_id == device_id))
        alarms = rows_written(self._s.execute(delete(AlarmMessageRow).where(AlarmMessageRow.device_id == device_id)))
        self._s.execute(update(DeviceRow).where(DeviceRow.id == device_id).values(
            last_reading_at=None, last_temperature=None, last_humidity=None, alarm_state=0))
        return alarms


class SqlAlchemyDeviceEventRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def record(self, event: DeviceEvent) -> None:
        self._s.add(DeviceEventRow(device_id=event.device_id, device_guid=event.device_guid,
                                   account_id=event.account_id, kind=str(event.kind), at=event.at,
                                   detail=event.detail))
        self._s.flush()

    def page(self, device_id: int, guid: str, request: PageRequest) -> Page[DeviceEventEntry]:
        return event_page(self._s, device_id, guid, request)


class SqlAlchemyBrokerCredentialRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def save(self, device_id: int, username: str, password_hash: str, issued_at: datetime) -> None:
        row = self._s.get(DeviceCredentialRow, device_id)
        if row is None:
            self._s.add(DeviceCredentialRow(device_id=device_id, username=username, password_hash=password_hash,
                                            created_at=issued_at))
        else:
            row.username, row.password_hash, row.created_at = username, password_hash, issued_at
        self._s.flush()

    def of_device(self, device_id: int) -> BrokerCredential | None:
        row = self._s.get(DeviceCredentialRow, device_id)
        return BrokerCredential(row.device_id, row.username, row.created_at) if row else None

    def accounts(self) -> list[BrokerAccount]:
        rows = self._s.execute(select(DeviceCredentialRow.username, DeviceCredentialRow.password_hash,
                                      DeviceRow.scrapped_at.is_not(None))
                               .join(DeviceRow, DeviceRow.id == DeviceCredentialRow.device_id)
                               .order_by(DeviceCredentialRow.username))
        return [BrokerAccount(username, password_hash, bool(disabled)) for username, password_hash, disabled in rows]
