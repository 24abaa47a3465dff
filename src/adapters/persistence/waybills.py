"""Waybills, the devices on them, their templates, share links and the quick query's lookups
(core/waybills), and the trips' limits the alarm evaluation reads (trip_limits)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, exists, func, or_, select, update
from sqlalchemy.orm import Session

from adapters.persistence.alarms import STARTED_STATES, SqlAlchemyAlarmRepository
from adapters.persistence.devices import visible_to
from adapters.persistence.models import (
    AlarmExcursionRow,
    AlarmMessageRow,
    AlarmRuleRow,
    DeviceRow,
    ReadingRow,
    WaybillDeviceRow,
    WaybillLinkOpenRow,
    WaybillLookupRow,
    WaybillRow,
    WaybillShareLinkRow,
    WaybillTemplateRow,
)
from adapters.persistence.reading_history import fix, thinned_fixes
from adapters.persistence.results import rows_written
from core.devices.model import TrackPoint
from core.shared.paging import Page, PageRequest
from core.telemetry.model import TEMPERATURE
from core.waybills.model import BoundDevice, Contact, Particulars, Party, Template, Waybill, WaybillState
from core.waybills.ports import Trip, WaybillFilter
from core.waybills.sharing import ShareLink, ShareOpen
from core.waybills.statistics import Point

_SWEPT_AFTER = timedelta(hours=1)  # longer than the quick query's window (core.waybills.public)
_STARTED = STARTED_STATES


def particulars_values(p: Particulars) -> dict[str, Any]:
    return {"order_number": p.order_number, "goods_name": p.goods_name, "express_number": p.express_number,
            "cooler_code": p.cooler_code, "upper_limit": p.upper_limit, "lower_limit": p.lower_limit,
            "sender_name": p.sender.name, "sender_phone": p.sender.phone, "sender_address": p.sender.address,
            "receiver_name": p.receiver.name, "receiver_phone": p.receiver.phone,
            "receiver_address": p.receiver.address,
            "alarm_contacts": [[c.name, c.phone, c.email] for c in p.contacts],
            "planned_start": p.planned_start, "planned_stop": p.planned_stop,
            "origin_fence_id": p.origin_fence_id, "destination_fence_id": p.destination_fence_id}


def _particulars(values: Any) -> Particulars:
    """From a row, or from a template's JSON (its instants as ISO text)."""
    get = values.get if isinstance(values, dict) else lambda name: getattr(values, name)

    def instant(name: str) -> datetime | None:
        value = get(name)
        return datetime.fromisoformat(value) if isinstance(value, str) else value

    return Particulars(
        get("order_number"), get("goods_name"), get("express_number"), get("cooler_code"), get("upper_limit"),
        get("lower_limit"), Party(get("sender_name"), get("sender_phone"), get("sender_address")),
        Party(get("receiver_name"), get("receiver_phone"), get("receiver_address")),
        tuple(Contact(*c) for c in get("alarm_contacts") or ()), instant("planned_start"), instant("planned_stop"),
        get("origin_fence_id"), get("destination_fence_id"))


def _waybill(row: WaybillRow, devices: tuple[BoundDevice, ...]) -> Waybill:
    return Waybill(row.id, row.owner_account_id, _particulars(row), WaybillState(row.state), row.created_at,
                   row.started_at, row.finished_at, row.organization_id, devices)


class SqlAlchemyWaybillRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def _devices(self, waybill_ids: Sequence[int]) -> dict[int, tuple[BoundDevice, ...]]:
        found: dict[int, list[BoundDevice]] = defaultdict(list)
        if waybill_ids:
            rows = self._s.execute(
                select(WaybillDeviceRow.waybill_id, DeviceRow.id, DeviceRow.device_name, DeviceRow.guid,
                       DeviceRow.organization_id)
                .join(DeviceRow, DeviceRow.id == WaybillDeviceRow.device_id)
                .where(WaybillDeviceRow.waybill_id.in_(list(waybill_ids)))
                .order_by(DeviceRow.device_name, DeviceRow.id))
            for waybill_id, device_id, name, guid, organization_id in rows:
                found[waybill_id].append(BoundDevice(device_id, name, guid, organization_id))
        return {k: tuple(v) for k, v in found.items()}

    def _many(self, rows: Sequence[WaybillRow]) -> list[Waybill]:
        devices = self._devices([r.id for r in rows])
        return [_waybill(r, devices.get(r.id, ())) for r in rows]

    def add(self, waybill: Waybill) -> int:
        row = WaybillRow(owner_account_id=waybill.owner_account_id, organization_id=waybill.organization_id,
                         state=int(waybill.state), started_at=waybill.started_at, finished_at=waybill.finished_at,
                         created_at=waybill.created_at, **particulars_values(waybill.particulars))
        self._s.add(row)
        self._s.flush()
        return row.id

    def get(self, waybill_id: int) -> Waybill | None:
        row = self._s.get(WaybillRow, waybill_id, populate_existing=True)
        return None if row is None else self._many([row])[0]

    def update(self, waybill: Waybill) -> None:
        self._s.execute(update(WaybillRow).where(WaybillRow.id == waybill.id)
                        .values(**particulars_values(waybill.particulars)))

    def delete(self, waybill_id: int) -> None:
        # Not left to ON DELETE CASCADE: SQLite enforces foreign keys only with its pragma on.
        links = select(WaybillShareLinkRow.id).where(WaybillShareLinkRow.waybill_id == waybill_id)
        self._s.execute(delete(WaybillLinkOpenRow).where(WaybillLinkOpenRow.link_id.in_(links)))
        self._s.execute(delete(WaybillShareLinkRow).where(WaybillShareLinkRow.waybill_id == waybill_id))
        self._s.execute(delete(WaybillDeviceRow).where(WaybillDeviceRow.waybill_id == waybill_id))
        self._s.execute(delete(WaybillRow).where(WaybillRow.id == waybill_id))

    def _seen_devices(self, account_id: int) -> Any:
        return exists().where(WaybillDeviceRow.waybill_id == WaybillRow.id,
                              WaybillDeviceRow.device_id.in_(select(DeviceRow.id).where(visible_to(account_id))))

    def page(self, account_id: int, organization_ids: Sequence[int], where: WaybillFilter,
             request: PageRequest) -> Page[Waybill]:
        conditions: list[Any] = [or_(and_(WaybillRow.organization_id.is_(None),
                                          WaybillRow.owner_account_id == account_id),
                                     WaybillRow.organization_id.in_(list(organization_ids)),
                                     self._seen_devices(account_id))]
        if where.keyword:
            key = where.keyword.lower()
            conditions.append(or_(*(func.lower(column).contains(key, autoescape=True) for column in (
                WaybillRow.order_number, WaybillRow.goods_name, WaybillRow.express_number))))
        if where.state is not None:
            conditions.append(WaybillRow.state == int(where.state))
        if where.device_id is not None:
            conditions.append(exists().where(WaybillDeviceRow.waybill_id == WaybillRow.id,
                                             WaybillDeviceRow.device_id == where.device_id))
        total = self._s.scalar(select(func.count()).select_from(WaybillRow).where(*conditions)) or 0
        ascending = request.sort_order == "asc"
        order = WaybillRow.created_at.asc() if ascending else WaybillRow.created_at.desc()
        rows = list(self._s.scalars(select(WaybillRow).where(*conditions)
                                    .order_by(order, WaybillRow.id.desc())
                                    .offset(request.offset).limit(request.page_size)))
        return Page(request.start, request.page_size, total, self._many(rows))

    def sees_a_device(self, account_id: int, waybill_id: int) -> bool:
        return bool(self._s.scalar(select(exists().where(
            WaybillDeviceRow.waybill_id == waybill_id,
            WaybillDeviceRow.device_id.in_(select(DeviceRow.id).where(visible_to(account_id)))))))

    def bind(self, waybill_id: int, device_ids: Sequence[int], running: bool) -> None:
        present = set(self._s.scalars(select(WaybillDeviceRow.device_id).where(
            WaybillDeviceRow.waybill_id == waybill_id)))
        self._s.add_all(WaybillDeviceRow(waybill_id=waybill_id, device_id=d, running=running)
                        for d in device_ids if d not in present)
        self._s.flush()

    def unbind(self, waybill_id: int, device_ids: Sequence[int]) -> None:
        self._s.execute(delete(WaybillDeviceRow).where(WaybillDeviceRow.waybill_id == waybill_id,
                                                       WaybillDeviceRow.device_id.in_(list(device_ids))))

    def trips_of(self, device_ids: Sequence[int]) -> list[Trip]:
        ids = sorted(set(device_ids))
        if not ids:
            return []
        # The devices' rows locked in id order (as ingest locks them): two starts of waybills sharing a
        # device wait for each other, and the second sees the first's trip. The partial unique index
        # is the last word either way.
        self._s.execute(select(DeviceRow.id).where(DeviceRow.id.in_(ids)).order_by(DeviceRow.id)
                        .with_for_update())
        rows = self._s.execute(
            select(WaybillDeviceRow.device_id, DeviceRow.device_name, WaybillRow.id, WaybillRow.order_number)
            .join(WaybillRow, WaybillRow.id == WaybillDeviceRow.waybill_id)
            .join(DeviceRow, DeviceRow.id == WaybillDeviceRow.device_id)
            .where(WaybillDeviceRow.device_id.in_(ids), WaybillDeviceRow.running.is_(True)))
        return [Trip(*row) for row in rows]

    def change_state(self, waybill_id: int, from_state: WaybillState, to_state: WaybillState,
                     at: datetime) -> bool:
        stamp = {"started_at": at} if to_state is WaybillState.IN_PROGRESS else {"finished_at": at}
        moved = rows_written(self._s.execute(update(WaybillRow).where(WaybillRow.id == waybill_id,
                                                                      WaybillRow.state == int(from_state))
                                             .values(state=int(to_state), **stamp)))
        if not moved:
            return False
        self._s.execute(update(WaybillDeviceRow).where(WaybillDeviceRow.waybill_id == waybill_id)
                        .values(running=to_state is WaybillState.IN_PROGRESS))
        if to_state is WaybillState.FINISHED:
            self._end_trip_alarms(waybill_id, at)
        return True

    def _end_trip_alarms(self, waybill_id: int, at: datetime) -> None:
        """A device with no temperature rule of its own alarms only on a trip (core.alarms.use_cases.
        with_trips): its trip's excursion and alarm end with the trip, or no later reading would."""
        devices = list(self._s.scalars(select(WaybillDeviceRow.device_id).where(
            WaybillDeviceRow.waybill_id == waybill_id,
            ~exists().where(AlarmRuleRow.device_id == WaybillDeviceRow.device_id, AlarmRuleRow.probe == TEMPERATURE,
                            AlarmRuleRow.enabled.is_(True)))))
        if not devices:
            return
        self._s.execute(delete(AlarmExcursionRow).where(AlarmExcursionRow.device_id.in_(devices),
                                                        AlarmExcursionRow.probe == TEMPERATURE))
        self._s.execute(update(AlarmMessageRow).where(
            AlarmMessageRow.device_id.in_(devices), AlarmMessageRow.probe == TEMPERATURE,
            AlarmMessageRow.rule_id.is_(None), AlarmMessageRow.ended_at.is_(None)).values(ended_at=at))
        SqlAlchemyAlarmRepository(self._s).refresh_alarm_state(devices)

    def due(self, now: datetime) -> list[Waybill]:
        rows = list(self._s.scalars(select(WaybillRow).where(or_(
            and_(WaybillRow.state == int(WaybillState.NOT_STARTED), WaybillRow.planned_start <= now),
            and_(WaybillRow.state == int(WaybillState.IN_PROGRESS), WaybillRow.planned_stop <= now)))
            .order_by(WaybillRow.id).limit(500)))
        return self._many(rows)

    def of_device_at_fence(self, device_id: int, fence_id: int) -> list[Waybill]:
        rows = list(self._s.scalars(select(WaybillRow).where(
            exists().where(WaybillDeviceRow.waybill_id == WaybillRow.id, WaybillDeviceRow.device_id == device_id),
            or_(and_(WaybillRow.state == int(WaybillState.NOT_STARTED), WaybillRow.origin_fence_id == fence_id),
                and_(WaybillRow.state == int(WaybillState.IN_PROGRESS),
                     WaybillRow.destination_fence_id == fence_id))).order_by(WaybillRow.id)))
        return self._many(rows)

    def alarm_count(self, device_ids: Sequence[int], since: datetime, until: datetime) -> int:
        if not device_ids:
            return 0
        return self._s.scalar(select(func.count()).select_from(AlarmMessageRow).where(
            AlarmMessageRow.device_id.in_(list(device_ids)), AlarmMessageRow.raised_at >= since,
            AlarmMessageRow.raised_at <= until)) or 0

    def by_number(self, order_number: str, limit: int) -> list[Waybill]:
        rows = list(self._s.scalars(select(WaybillRow).where(WaybillRow.order_number == order_number,
                                                             WaybillRow.state.in_(_STARTED))
                                    .order_by(WaybillRow.created_at.desc(), WaybillRow.id.desc()).limit(limit)))
        return self._many(rows)

    def latest_of_guid(self, guid: str) -> Waybill | None:
        row = self._s.scalars(
            select(WaybillRow).join(WaybillDeviceRow, WaybillDeviceRow.waybill_id == WaybillRow.id)
            .join(DeviceRow, DeviceRow.id == WaybillDeviceRow.device_id)
            .where(DeviceRow.guid == guid, WaybillRow.state.in_(_STARTED))
            .order_by(WaybillRow.started_at.desc(), WaybillRow.id.desc()).limit(1)).first()
        return None if row is None else self._many([row])[0]


class SqlAlchemyTripReadings:
    def __init__(self, session: Session) -> None:
        self._s = session

    def points(self, device_ids: Sequence[int], since: datetime, until: datetime) -> dict[int, list[Point]]:
        found: dict[int, list[Point]] = defaultdict(list)
        rows = self._s.execute(
            select(ReadingRow.device_id, ReadingRow.ts, ReadingRow.temperature)
            .where(ReadingRow.device_id.in_(list(device_ids)), ReadingRow.ts >= since, ReadingRow.ts <= until,
                   ReadingRow.temperature.is_not(None))
            .order_by(ReadingRow.device_id, ReadingRow.ts))
        for device_id, ts, temperature in rows:
            if temperature is not None:
                found[device_id].append(Point(ts, temperature))
        return dict(found)

    def span(self, device_ids: Sequence[int], since: datetime, until: datetime) -> tuple[datetime | None,
                                                                                         datetime | None]:
        first, last = self._s.execute(
            select(func.min(ReadingRow.ts), func.max(ReadingRow.ts))
            .where(ReadingRow.device_id.in_(list(device_ids)), ReadingRow.ts >= since, ReadingRow.ts <= until,
                   ReadingRow.temperature.is_not(None))).one()
        return first, last

    def routes(self, device_ids: Sequence[int], since: datetime, until: datetime,
               max_points: int) -> dict[int, list[TrackPoint]]:
        found: dict[int, list[TrackPoint]] = defaultdict(list)
        where = (ReadingRow.device_id.in_(list(device_ids)), ReadingRow.ts >= since, ReadingRow.ts <= until)
        for row in self._s.execute(thinned_fixes(where, max_points)):
            found[row.device_id].append(fix(row))
        return dict(found)


def _link(row: WaybillShareLinkRow, opens: tuple[ShareOpen, ...] = ()) -> ShareLink:
    return ShareLink(row.id, row.waybill_id, row.token_digest, row.created_by, row.created_at, row.expires_at,
                     row.revoked_at, opens)


class SqlAlchemyShareLinkRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, link: ShareLink) -> int:
        row = WaybillShareLinkRow(waybill_id=link.waybill_id, token_digest=link.token_digest,
                                  created_by=link.created_by, created_at=link.created_at,
                                  expires_at=link.expires_at)
        self._s.add(row)
        self._s.flush()
        return row.id

    def of_waybill(self, waybill_id: int) -> list[ShareLink]:
        rows = list(self._s.scalars(select(WaybillShareLinkRow).where(WaybillShareLinkRow.waybill_id == waybill_id)
                                    .order_by(WaybillShareLinkRow.created_at.desc(), WaybillShareLinkRow.id.desc())))
        opens: dict[int, list[ShareOpen]] = defaultdict(list)
        if rows:
            for link_id, at, address in self._s.execute(
                    select(WaybillLinkOpenRow.link_id, WaybillLinkOpenRow.opened_at, WaybillLinkOpenRow.client_address)
                    .where(WaybillLinkOpenRow.link_id.in_([r.id for r in rows]))
                    .order_by(WaybillLinkOpenRow.opened_at.desc(), WaybillLinkOpenRow.id.desc())):
                opens[link_id].append(ShareOpen(at, address))
        return [_link(r, tuple(opens.get(r.id, ()))) for r in rows]

    def get(self, link_id: int) -> ShareLink | None:
        row = self._s.get(WaybillShareLinkRow, link_id)
        return None if row is None else _link(row)

    def by_digest(self, digest: str) -> ShareLink | None:
        row = self._s.scalars(select(WaybillShareLinkRow).where(WaybillShareLinkRow.token_digest == digest)).first()
        return None if row is None else _link(row)

    def revoke(self, link_id: int, at: datetime) -> None:
        self._s.execute(update(WaybillShareLinkRow).where(WaybillShareLinkRow.id == link_id,
                                                          WaybillShareLinkRow.revoked_at.is_(None))
                        .values(revoked_at=at))

    def record_open(self, link_id: int, at: datetime, address: str | None) -> None:
        self._s.add(WaybillLinkOpenRow(link_id=link_id, opened_at=at, client_address=(address or "")[:64] or None))
        self._s.flush()


class SqlAlchemyLookupLog:
    def __init__(self, session: Session) -> None:
        self._s = session

    def count_since(self, address: str, since: datetime) -> int:
        return self._s.scalar(select(func.count()).select_from(WaybillLookupRow).where(
            WaybillLookupRow.client_address == address[:64], WaybillLookupRow.at >= since)) or 0

    def record(self, address: str, at: datetime) -> None:
        # The lookups of an hour ago count for nothing: each lookup sweeps those of its address.
        self._s.execute(delete(WaybillLookupRow).where(WaybillLookupRow.client_address == address[:64],
                                                       WaybillLookupRow.at < at - _SWEPT_AFTER))
        self._s.add(WaybillLookupRow(client_address=address[:64], at=at))
        self._s.flush()


def _template_json(p: Particulars) -> dict[str, Any]:
    values = particulars_values(p)
    for name in ("planned_start", "planned_stop"):
        if values[name] is not None:
            values[name] = values[name].isoformat()
    return values


class SqlAlchemyWaybillTemplateRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    @staticmethod
    def _template(row: WaybillTemplateRow) -> Template:
        return Template(row.id, row.owner_account_id, row.name, _particulars(row.particulars), row.created_at)

    def add(self, template: Template) -> int:
        row = WaybillTemplateRow(owner_account_id=template.owner_account_id, name=template.name,
                                 particulars=_template_json(template.particulars), created_at=template.created_at)
        self._s.add(row)
        self._s.flush()
        return row.id

    def get(self, template_id: int) -> Template | None:
        row = self._s.get(WaybillTemplateRow, template_id, populate_existing=True)
        return None if row is None else self._template(row)

    def update(self, template: Template) -> None:
        self._s.execute(update(WaybillTemplateRow).where(WaybillTemplateRow.id == template.id)
                        .values(name=template.name, particulars=_template_json(template.particulars)))

    def delete(self, template_id: int) -> None:
        self._s.execute(delete(WaybillTemplateRow).where(WaybillTemplateRow.id == template_id))

    def name_taken(self, account_id: int, name: str, except_id: int | None = None) -> bool:
        query = select(WaybillTemplateRow.id).where(WaybillTemplateRow.owner_account_id == account_id,
                                                    WaybillTemplateRow.name == name)
        if except_id is not None:
            query = query.where(WaybillTemplateRow.id != except_id)
        return self._s.scalar(select(exists(query))) or False

    def page(self, account_id: int, request: PageRequest) -> Page[Template]:
        where = WaybillTemplateRow.owner_account_id == account_id
        total = self._s.scalar(select(func.count()).select_from(WaybillTemplateRow).where(where)) or 0
        rows = self._s.scalars(select(WaybillTemplateRow).where(where).order_by(WaybillTemplateRow.name,
                                                                                WaybillTemplateRow.id)
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, [self._template(r) for r in rows])
