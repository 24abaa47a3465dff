"""Accounts' and organizations' geofences, the devices watched against each with their dwell state,
and the crossings the ingest found (core/geofences)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from adapters.persistence.devices import visible_to
from adapters.persistence.models import (
    DeviceRow,
    GeofenceEventRow,
    GeofenceLinkRow,
    GeofenceRow,
    OrganizationRow,
    WaybillRow,
)
from core.geofences.model import (
    Area,
    Circle,
    Crossing,
    DwellState,
    EventQuery,
    Fence,
    FenceEvent,
    Polygon,
    WatchedFence,
)
from core.shared.paging import Page, PageRequest
from core.waybills.ports import FenceOwner


def areas_to_json(areas: Sequence[Area]) -> list[dict[str, Any]]:
    return [{"circle": [a.lat, a.lon, a.radius_m]} if isinstance(a, Circle)
            else {"polygon": [[lat, lon] for lat, lon in a.vertices]} for a in areas]


def areas_from_json(raw: Sequence[dict[str, Any]]) -> tuple[Area, ...]:
    areas: list[Area] = []
    for item in raw:
        if "circle" in item:
            lat, lon, radius = item["circle"]
            areas.append(Circle(float(lat), float(lon), float(radius)))
        else:
            areas.append(Polygon(tuple((float(lat), float(lon)) for lat, lon in item["polygon"])))
    return tuple(areas)


def _fence(row: GeofenceRow, organization_name: str | None, count: int = 0, device_ids: tuple[int, ...] = ()) -> Fence:
    return Fence(row.id, row.owner_account_id, row.name, areas_from_json(row.areas), row.created_at,
                 organization_id=row.organization_id, organization_name=organization_name, device_ids=device_ids,
                 device_count=count)


_WITH_ORGANIZATION = (select(GeofenceRow, OrganizationRow.name)
                      .outerjoin(OrganizationRow, OrganizationRow.id == GeofenceRow.organization_id))


class SqlAlchemyFenceRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, fence: Fence) -> int:
        row = GeofenceRow(owner_account_id=fence.owner_account_id, organization_id=fence.organization_id,
                          name=fence.name, areas=areas_to_json(fence.areas), created_at=fence.created_at)
        self._s.add(row)
        self._s.flush()
        return row.id

    def get(self, account_id: int, fence_id: int) -> Fence | None:
        found = self._s.execute(_WITH_ORGANIZATION.where(GeofenceRow.id == fence_id)).first()
        if found is None:
            return None
        row, organization_name = found
        seen = tuple(self._s.scalars(
            select(GeofenceLinkRow.device_id).join(DeviceRow, DeviceRow.id == GeofenceLinkRow.device_id)
            .where(GeofenceLinkRow.fence_id == fence_id, visible_to(account_id)).order_by(GeofenceLinkRow.device_id)))
        return _fence(row, organization_name, self._counts([fence_id]).get(fence_id, 0), seen)

    def update(self, fence: Fence) -> None:
        self._s.execute(update(GeofenceRow).where(GeofenceRow.id == fence.id)
                        .values(name=fence.name, areas=areas_to_json(fence.areas)))

    def delete(self, fence_id: int) -> None:
        # Not left to the cascade alone: the operation log records the links that go with it.
        self._s.execute(delete(GeofenceEventRow).where(GeofenceEventRow.fence_id == fence_id))
        self._s.execute(delete(GeofenceLinkRow).where(GeofenceLinkRow.fence_id == fence_id))
        # The waybills that started or finished by it no longer do (another context's columns, hence no FK).
        for column in (WaybillRow.origin_fence_id, WaybillRow.destination_fence_id):
            self._s.execute(update(WaybillRow).where(column == fence_id).values({column: None}))
        self._s.execute(delete(GeofenceRow).where(GeofenceRow.id == fence_id))

    def page(self, account_id: int, organization_ids: Sequence[int], keyword: str | None,
             request: PageRequest) -> Page[Fence]:
        where = [or_(and_(GeofenceRow.organization_id.is_(None), GeofenceRow.owner_account_id == account_id),
                     GeofenceRow.organization_id.in_(list(organization_ids)))]
        if keyword:
            where.append(func.lower(GeofenceRow.name).contains(keyword.lower(), autoescape=True))
        total = self._s.scalar(select(func.count()).select_from(GeofenceRow).where(*where)) or 0
        rows = list(self._s.execute(_WITH_ORGANIZATION.where(*where)
                                    .order_by(func.lower(GeofenceRow.name), GeofenceRow.id)
                                    .offset(request.offset).limit(request.page_size)))
        counts = self._counts([r.id for r, _ in rows])
        return Page(request.start, request.page_size, total, [_fence(r, o, counts.get(r.id, 0)) for r, o in rows])

    def _counts(self, fence_ids: list[int]) -> dict[int, int]:
        if not fence_ids:
            return {}
        rows = self._s.execute(select(GeofenceLinkRow.fence_id, func.count())
                               .where(GeofenceLinkRow.fence_id.in_(fence_ids)).group_by(GeofenceLinkRow.fence_id))
        return {fence_id: int(n) for fence_id, n in rows}

    def count_owned(self, account_id: int, organization_id: int | None) -> int:
        whose = (GeofenceRow.organization_id == organization_id if organization_id is not None
                 else and_(GeofenceRow.organization_id.is_(None), GeofenceRow.owner_account_id == account_id))
        return self._s.scalar(select(func.count()).select_from(GeofenceRow).where(whose)) or 0

    def linked(self, fence_id: int) -> list[int]:
        return list(self._s.scalars(select(GeofenceLinkRow.device_id).where(GeofenceLinkRow.fence_id == fence_id)
                                    .order_by(GeofenceLinkRow.device_id)))

    def fence_counts(self, device_ids: Sequence[int]) -> dict[int, int]:
        if not device_ids:
            return {}
        rows = self._s.execute(select(GeofenceLinkRow.device_id, func.count())
                               .where(GeofenceLinkRow.device_id.in_(list(device_ids)))
                               .group_by(GeofenceLinkRow.device_id))
        return {device_id: int(n) for device_id, n in rows}

    def link(self, fence_id: int, device_ids: Sequence[int]) -> None:
        self._s.add_all(GeofenceLinkRow(fence_id=fence_id, device_id=d, pending_count=0) for d in device_ids)
        self._s.flush()

    def unlink(self, fence_id: int, device_ids: Sequence[int]) -> None:
        self._s.execute(delete(GeofenceLinkRow).where(GeofenceLinkRow.fence_id == fence_id,
                                                      GeofenceLinkRow.device_id.in_(list(device_ids))))

    def events(self, account_id: int, query: EventQuery, request: PageRequest) -> Page[FenceEvent]:
        where = [GeofenceEventRow.fence_id == query.fence_id, visible_to(account_id)]
        if query.device_id is not None:
            where.append(GeofenceEventRow.device_id == query.device_id)
        if query.since is not None:
            where.append(GeofenceEventRow.at >= query.since)
        if query.until is not None:
            where.append(GeofenceEventRow.at <= query.until)
        base = (select(GeofenceEventRow.id, GeofenceEventRow.fence_id, GeofenceRow.name, GeofenceEventRow.device_id,
                       DeviceRow.device_name, GeofenceEventRow.entered, GeofenceEventRow.at)
                .join(DeviceRow, DeviceRow.id == GeofenceEventRow.device_id)
                .join(GeofenceRow, GeofenceRow.id == GeofenceEventRow.fence_id).where(*where))
        total = self._s.scalar(select(func.count()).select_from(base.subquery())) or 0
        rows = self._s.execute(base.order_by(GeofenceEventRow.at.desc(), GeofenceEventRow.id.desc())
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, [FenceEvent(*row) for row in rows])


class SqlAlchemyFenceWatchRepository:
    """The ingest's side (core.geofences.ports.FenceWatchRepository)."""

    def __init__(self, session: Session) -> None:
        self._s = session

    def watching(self, device_ids: Sequence[int]) -> list[WatchedFence]:
        link, fence = GeofenceLinkRow, GeofenceRow
        same_owner = or_(and_(fence.organization_id.is_(None), DeviceRow.organization_id.is_(None),
                              fence.owner_account_id == DeviceRow.owner_account_id),
                         fence.organization_id == DeviceRow.organization_id)
        query = (select(link.fence_id, link.device_id, fence.owner_account_id, fence.name, DeviceRow.device_name,
                        DeviceRow.guid, fence.areas, link.inside, link.pending_inside, link.pending_since,
                        link.pending_count, link.judged_at)
                 .join(fence, fence.id == link.fence_id).join(DeviceRow, DeviceRow.id == link.device_id)
                 .where(link.device_id.in_(list(device_ids)), same_owner)
                 .order_by(link.device_id, link.fence_id))
        if self._s.get_bind().dialect.name == "postgresql":
            # Two workers of a shared subscription may hold batches of one device: the second waits.
            query = query.with_for_update(of=link)
        return [WatchedFence(r.fence_id, r.device_id, r.owner_account_id, r.name, r.device_name, r.guid,
                             areas_from_json(r.areas),
                             DwellState(r.inside, r.pending_inside, r.pending_since, r.pending_count, r.judged_at))
                for r in self._s.execute(query)]

    def save_states(self, states: dict[tuple[int, int], DwellState]) -> None:
        links = GeofenceLinkRow.__table__  # Core statements: one executemany, no ORM bookkeeping
        self._s.execute(
            update(links).where(links.c.device_id == bindparam("b_device"), links.c.fence_id == bindparam("b_fence"))
            .values(inside=bindparam("b_inside"), pending_inside=bindparam("b_pending"),
                    pending_since=bindparam("b_since"), pending_count=bindparam("b_count"),
                    judged_at=bindparam("b_judged")),
            [{"b_device": device_id, "b_fence": fence_id, "b_inside": s.inside, "b_pending": s.pending_inside,
              "b_since": s.pending_since, "b_count": s.pending_count, "b_judged": s.judged_at}
             for (device_id, fence_id), s in sorted(states.items())])

    def add_events(self, crossings: Sequence[Crossing], received_at: datetime) -> None:
        self._s.execute(insert(GeofenceEventRow.__table__), [
            {"fence_id": c.fence_id, "device_id": c.device_id, "entered": c.entered, "at": c.at,
             "received_at": received_at} for c in crossings])


class SqlAlchemyWaybillFences:
    """The waybills' view of the fences (core.waybills.ports.WaybillFences)."""

    def __init__(self, session: Session) -> None:
        self._s = session

    def owners(self, fence_ids: Sequence[int]) -> dict[int, FenceOwner]:
        if not fence_ids:
            return {}
        rows = self._s.execute(select(GeofenceRow.id, GeofenceRow.owner_account_id, GeofenceRow.organization_id)
                               .where(GeofenceRow.id.in_(list(fence_ids))))
        return {r.id: FenceOwner(r.owner_account_id, r.organization_id) for r in rows}

    def owned(self, fence_ids: Sequence[int], owner_account_id: int, organization_id: int | None) -> list[Fence]:
        whose = (GeofenceRow.organization_id == organization_id if organization_id is not None
                 else and_(GeofenceRow.organization_id.is_(None), GeofenceRow.owner_account_id == owner_account_id))
        rows = self._s.scalars(select(GeofenceRow).where(GeofenceRow.id.in_(list(fence_ids)), whose))
        return [_fence(r, None) for r in rows]

    def watch(self, fence_ids: Sequence[int], device_ids: Sequence[int]) -> None:
        if not fence_ids or not device_ids:
            return
        known = {(f, d) for f, d in self._s.execute(select(GeofenceLinkRow.fence_id, GeofenceLinkRow.device_id).where(
            GeofenceLinkRow.fence_id.in_(list(fence_ids)), GeofenceLinkRow.device_id.in_(list(device_ids))))}
        self._s.add_all(GeofenceLinkRow(fence_id=f, device_id=d, pending_count=0)
                        for f in sorted(set(fence_ids)) for d in sorted(set(device_ids)) if (f, d) not in known)
        self._s.flush()
