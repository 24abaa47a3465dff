"""Making, changing, binding, starting, finishing and deleting waybills, their templates, and what a
trip's figures are. Who reads and who changes a waybill is core.shared.ownership's rule (its owner,
or its organization's members to read and those who change its devices to change), widened for
reading to whoever sees one of its devices (a sharee): a waybill follows its devices' scoping."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from core.devices.access import Access, require
from core.devices.model import Device, TrackPoint
from core.geofences.model import Fence
from core.shared.clock import Clock
from core.shared.errors import Forbidden, InvalidInput, NotFound
from core.shared.ownership import Held, Organizations, kept_apart, may_change, may_make_in, may_read
from core.shared.paging import Page, PageRequest
from core.telemetry.downsample import Point as ChartPoint
from core.telemetry.downsample import downsample, plan_buckets
from core.waybills.errors import (
    DeviceOnAnotherTrip,
    LimitsLockedWhileRunning,
    NoDeviceBound,
    StateChangeRefused,
    TemplateNameTaken,
    WaybillFinished,
)
from core.waybills.model import (
    MAX_BIND,
    NOT_YOUR_FENCE,
    NOT_YOUR_ORGANIZATION,
    ORGANIZATION_DEVICE,
    PERSONAL_DEVICE,
    READ_ONLY_WAYBILL,
    TOO_MANY_DEVICES,
    Particulars,
    Template,
    TripSpan,
    Waybill,
    WaybillState,
    corrected_span,
    may_go,
)
from core.waybills.ports import Rejudge, WaybillFilter, WaybillsUnitOfWork
from core.waybills.rules import checked, template_name_problem
from core.waybills.sharing import ReportSeal, data_digest
from core.waybills.statistics import DEFAULT_ACTIVATION_ENERGY, Point, TripFigures, trip_figures

CHART_POINTS = 2000  # per device, the most a report's chart carries (peaks kept: core.telemetry.downsample)
ROUTE_POINTS = 500  # per device, the most positions a report's route carries (evenly spaced, the last kept)


def _organizations(uow: WaybillsUnitOfWork, account_id: int) -> Organizations:
    return uow.device_registry.organizations_of(account_id)


def readable(uow: WaybillsUnitOfWork, account_id: int, waybill_id: int) -> Waybill:
    """The waybill marked changeable or not for the caller, if the caller may read it: its owner,
    its organization's members, or a sharee of one of its devices; NotFound otherwise (another's
    and a missing one alike)."""
    waybill = uow.waybills.get(waybill_id)
    if waybill is None:
        raise NotFound()
    organizations = _organizations(uow, account_id)
    if not (may_read(waybill, account_id, organizations) or uow.waybills.sees_a_device(account_id, waybill_id)):
        raise NotFound()
    waybill.changeable = may_change(waybill, account_id, organizations)
    return waybill


def changeable(uow: WaybillsUnitOfWork, account_id: int, waybill_id: int) -> Waybill:
    waybill = readable(uow, account_id, waybill_id)
    if not waybill.changeable:
        raise Forbidden(READ_ONLY_WAYBILL)
    return waybill


def _not_finished(waybill: Waybill) -> None:
    if waybill.state is WaybillState.FINISHED:
        raise WaybillFinished()


def _writable(uow: WaybillsUnitOfWork, account_id: int, device_ids: list[int]) -> dict[int, Device]:
    """Each device, when each is the caller's to operate: 404 for one it may not see, 403 for one it
    only reads."""
    devices = {d.id: d for d in uow.device_registry.visible_many(account_id, device_ids)}
    for device_id in device_ids:
        found = devices.get(device_id)
        require(found.access if found else Access.NONE, Access.WRITE)
    return devices


def _free(uow: WaybillsUnitOfWork, waybill: Waybill, device_ids: Sequence[int]) -> None:
    """DeviceOnAnotherTrip when one of the devices is on another waybill in progress."""
    for trip in uow.waybills.trips_of(device_ids):
        if trip.waybill_id != waybill.id:
            raise DeviceOnAnotherTrip(device=trip.device_name, name=trip.order_number or f"#{trip.waybill_id}")


def move(uow: WaybillsUnitOfWork, waybill: Waybill, target: WaybillState, at: datetime) -> bool:
    """Start or finish the waybill at `at` by TRANSITIONS (the use cases, the job and the fences all
    come here); False when another transaction moved it first. Raises the rule's refusal otherwise."""
    if not may_go(waybill.state, target):
        raise StateChangeRefused()
    assert waybill.id is not None
    if target is WaybillState.IN_PROGRESS:
        if not waybill.devices:
            raise NoDeviceBound()
        _free(uow, waybill, waybill.device_ids)
    return uow.waybills.change_state(waybill.id, waybill.state, target, at)


def _fences(p: Particulars) -> dict[str, int]:
    return {field: fence_id for field, fence_id in (("originFenceId", p.origin_fence_id),
                                                      ("destinationFenceId", p.destination_fence_id))
            if fence_id is not None}


def _refuse_but(p: Particulars, allowed: set[int]) -> None:
    """InvalidInput on the first of the origin and destination not among `allowed` (another's fence
    and a missing one are refused alike)."""
    for field, fence_id in _fences(p).items():
        if fence_id not in allowed:
            raise InvalidInput(field, NOT_YOUR_FENCE)


def _own_fences(uow: WaybillsUnitOfWork, owner: Held, p: Particulars) -> None:
    """InvalidInput unless the origin and destination are fences of the waybill's owner (its
    organization's, or its owner's own for a personal one), as the ingest watches a device only
    against fences of its owner's kind."""
    if chosen := list(_fences(p).values()):
        owned = uow.waybill_fences.owned(chosen, owner.owner_account_id, owner.organization_id)
        _refuse_but(p, {f.id for f in owned if f.id is not None})


def _fences_to_read(uow: WaybillsUnitOfWork, account_id: int, p: Particulars) -> None:
    """InvalidInput unless the caller may read the fences (a template fills waybills of the caller
    and of its organizations: the waybill made from it checks whose they are)."""
    if chosen := list(_fences(p).values()):
        organizations = _organizations(uow, account_id)
        _refuse_but(p, {fence_id for fence_id, owner in uow.waybill_fences.owners(chosen).items()
                        if may_read(owner, account_id, organizations)})


def _watch_fences(uow: WaybillsUnitOfWork, p: Particulars, device_ids: Sequence[int]) -> None:
    """The devices watched against the origin and destination, so leaving the one starts the
    waybill and entering the other finishes it without linking each device to each fence by hand."""
    uow.waybill_fences.watch(list(_fences(p).values()), device_ids)


@dataclass(frozen=True)
class WaybillView:
    """A waybill as its detail shows it: the trip's span corrected to its devices' data, and how many
    alarms its devices raised on the trip."""

    waybill: Waybill
    span: TripSpan | None
    alarm_count: int


def _view(uow: WaybillsUnitOfWork, waybill: Waybill, now: datetime) -> WaybillView:
    window = waybill.window(now)
    if window is None or not waybill.devices:
        return WaybillView(waybill, None if window is None else TripSpan(*window, False), 0)
    first, last = uow.trip_readings.span(waybill.device_ids, *window)
    return WaybillView(waybill, corrected_span(window, first, last),
                       uow.waybills.alarm_count(waybill.device_ids, *window))


class CreateWaybill:
    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, particulars: Particulars, organization_id: int | None = None) -> WaybillView:
        clean = checked(particulars)
        with self._uow as uow:
            if not may_make_in(organization_id, _organizations(uow, account_id)):
                raise InvalidInput("organizationId", NOT_YOUR_ORGANIZATION)
            waybill = Waybill(None, account_id, clean, WaybillState.NOT_STARTED, self._clock.now(),
                              organization_id=organization_id)
            _own_fences(uow, waybill, clean)
            waybill_id = uow.waybills.add(waybill)
            uow.commit()
            return _view(uow, readable(uow, account_id, waybill_id), self._clock.now())


class UpdateWaybill:
    """All its particulars (a field left empty is cleared). A finished waybill is a record and stays as
    it is; one in progress keeps its limits, which its devices are being judged against."""

    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, waybill_id: int, particulars: Particulars) -> WaybillView:
        clean = checked(particulars)
        with self._uow as uow:
            current = changeable(uow, account_id, waybill_id)
            _not_finished(current)
            before = current.particulars
            if current.state is WaybillState.IN_PROGRESS and (
                    (clean.upper_limit, clean.lower_limit) != (before.upper_limit, before.lower_limit)):
                raise LimitsLockedWhileRunning()
            _own_fences(uow, current, clean)
            uow.waybills.update(replace(current, particulars=clean))
            _watch_fences(uow, clean, current.device_ids)
            uow.commit()
            return _view(uow, readable(uow, account_id, waybill_id), self._clock.now())


class DeleteWaybill:
    def __init__(self, uow: WaybillsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, waybill_id: int) -> None:
        with self._uow as uow:
            changeable(uow, account_id, waybill_id)
            uow.waybills.delete(waybill_id)
            uow.commit()


class GetWaybill:
    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, waybill_id: int) -> WaybillView:
        with self._uow as uow:
            return _view(uow, readable(uow, account_id, waybill_id), self._clock.now())


class ListWaybills:
    def __init__(self, uow: WaybillsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, where: WaybillFilter, request: PageRequest) -> Page[Waybill]:
        with self._uow as uow:
            organizations = _organizations(uow, account_id)
            page = uow.waybills.page(account_id, sorted(organizations), where, request)
        for waybill in page.items:
            waybill.changeable = may_change(waybill, account_id, organizations)
        return page


class BindDevices:
    """Puts devices on a waybill the caller may change, all or none (batch bind): at most 200 a call,
    each the caller's to operate and of the waybill's owner's kind (an organization's device on that
    organization's waybills, a device in no organization on personal ones). A waybill in progress
    takes no more devices (they would join a trip halfway)."""

    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, waybill_id: int, device_ids: Sequence[int]) -> WaybillView:
        ids = list(dict.fromkeys(device_ids))
        if len(ids) > MAX_BIND:
            raise InvalidInput("deviceIds", TOO_MANY_DEVICES)
        with self._uow as uow:
            waybill = changeable(uow, account_id, waybill_id)
            _not_finished(waybill)
            devices = _writable(uow, account_id, ids)
            for device_id in ids:
                if problem := kept_apart(waybill, devices[device_id].organization_id, ORGANIZATION_DEVICE,
                                         PERSONAL_DEVICE):
                    raise InvalidInput("deviceIds", problem)
            new = [d for d in ids if d not in set(waybill.device_ids)]
            if new and waybill.state is WaybillState.IN_PROGRESS:
                raise LimitsLockedWhileRunning()
            if new:
                uow.waybills.bind(waybill_id, new, running=False)
                _watch_fences(uow, waybill.particulars, new)
            uow.commit()
            return _view(uow, readable(uow, account_id, waybill_id), self._clock.now())


class UnbindDevices:
    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, waybill_id: int, device_ids: Sequence[int]) -> WaybillView:
        ids = list(dict.fromkeys(device_ids))
        with self._uow as uow:
            waybill = changeable(uow, account_id, waybill_id)
            _not_finished(waybill)
            if waybill.state is WaybillState.IN_PROGRESS:
                raise LimitsLockedWhileRunning()
            if any(d not in set(waybill.device_ids) for d in ids):
                raise NotFound()
            uow.waybills.unbind(waybill_id, ids)
            uow.commit()
            return _view(uow, readable(uow, account_id, waybill_id), self._clock.now())


class ChangeWaybillState:
    """Start or finish a waybill by hand, now."""

    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, waybill_id: int, target: WaybillState) -> WaybillView:
        with self._uow as uow:
            waybill = changeable(uow, account_id, waybill_id)
            if not move(uow, waybill, target, self._clock.now()):
                raise StateChangeRefused()
            uow.commit()
            return _view(uow, readable(uow, account_id, waybill_id), self._clock.now())


class RunDueWaybills:
    """The periodic job: starts the waybills whose planned start has come and finishes those whose
    planned stop has, each at its planned time (a late run does not shift the trip). A waybill that
    cannot start (no device, a device on another trip) waits for its owner; each waybill is its own
    transaction, so one refusal stops no other. The readings since the planned time, judged by the
    limits that held before, are judged again."""

    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock, rejudge: Rejudge) -> None:
        self._uow, self._clock, self._rejudge = uow, clock, rejudge

    def __call__(self) -> tuple[int, int]:
        """(started, finished)."""
        now = self._clock.now()
        with self._uow as uow:
            due = uow.waybills.due(now)
        started = finished = 0
        for candidate in due:
            assert candidate.id is not None
            with self._uow as uow:
                waybill = uow.waybills.get(candidate.id)
                if waybill is None:
                    continue
                p = waybill.particulars
                if waybill.state is WaybillState.NOT_STARTED and p.planned_start and p.planned_start <= now:
                    target, at = WaybillState.IN_PROGRESS, p.planned_start
                elif waybill.state is WaybillState.IN_PROGRESS and p.planned_stop and p.planned_stop <= now:
                    target, at = WaybillState.FINISHED, max(p.planned_stop, waybill.started_at or p.planned_stop)
                else:
                    continue
                try:
                    moved = move(uow, waybill, target, at)
                except (NoDeviceBound, DeviceOnAnotherTrip):
                    continue
                if moved:
                    uow.commit()
                    started += target is WaybillState.IN_PROGRESS
                    finished += target is WaybillState.FINISHED
            if moved:
                self._rejudge(waybill.device_ids, at)
        return started, finished


class CountAlarms:
    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, waybill_id: int) -> int:
        with self._uow as uow:
            return _view(uow, readable(uow, account_id, waybill_id), self._clock.now()).alarm_count


# --- the trip report -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DeviceFigures:
    device_id: int
    device_name: str
    guid: str
    figures: TripFigures
    chart: list[ChartPoint]
    route: list[TrackPoint]  # in time order; empty when its readings carried no position


@dataclass(frozen=True)
class TripReport:
    view: WaybillView
    devices: tuple[DeviceFigures, ...]
    activation_energy: float
    verification_code: str
    origin: Fence | None = None  # the waybill's fences, when of its owner's kind (its route map draws them)
    destination: Fence | None = None

    @property
    def waybill(self) -> Waybill:
        return self.view.waybill


def trip_report(uow: WaybillsUnitOfWork, waybill: Waybill, now: datetime, seal: ReportSeal,
                activation_energy: float = DEFAULT_ACTIVATION_ENERGY) -> TripReport:
    """The figures and route of each device over the trip's corrected span, against the waybill's
    limits; the verification code seals the waybill's id and its readings."""
    assert waybill.id is not None
    view = _view(uow, waybill, now)
    span = view.span
    points: dict[int, list[Point]] = {}
    routes: dict[int, list[TrackPoint]] = {}
    if span is not None and waybill.devices:
        points = uow.trip_readings.points(waybill.device_ids, span.start, span.end)
        routes = uow.trip_readings.routes(waybill.device_ids, span.start, span.end, ROUTE_POINTS)
    p = waybill.particulars
    devices = []
    sealed: list[tuple[int, datetime, float | None]] = []
    for device in waybill.devices:
        own = points.get(device.id, [])
        sealed += [(device.id, pt.ts, pt.temperature) for pt in own]
        chart: list[ChartPoint] = []
        if own and span is not None:
            plan = plan_buckets(span.start, span.end, CHART_POINTS, ("t",))
            chart = downsample([ChartPoint(pt.ts, pt.temperature, None) for pt in own], plan)
        devices.append(DeviceFigures(device.id, device.name, device.guid,
                                     trip_figures(own, p.upper_limit, p.lower_limit, activation_energy), chart,
                                     routes.get(device.id, [])))
    code = f"{waybill.id}-{seal.code(waybill.id, data_digest(sealed))}"
    origin, destination = _drawn_fences(uow, waybill)
    return TripReport(view, tuple(devices), activation_energy, code, origin, destination)


def _drawn_fences(uow: WaybillsUnitOfWork, waybill: Waybill) -> tuple[Fence | None, Fence | None]:
    """The waybill's origin and destination fences, those of its owner's kind only: an id naming
    another's fence shows nothing of it."""
    p = waybill.particulars
    if not (wanted := list(_fences(p).values())):
        return None, None
    found = {f.id: f for f in uow.waybill_fences.owned(wanted, waybill.owner_account_id, waybill.organization_id)}
    return found.get(p.origin_fence_id), found.get(p.destination_fence_id)


class GetTripReport:
    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock, seal: ReportSeal) -> None:
        self._uow, self._clock, self._seal = uow, clock, seal

    def __call__(self, account_id: int, waybill_id: int,
                 activation_energy: float = DEFAULT_ACTIVATION_ENERGY) -> TripReport:
        with self._uow as uow:
            waybill = readable(uow, account_id, waybill_id)
            return trip_report(uow, waybill, self._clock.now(), self._seal, activation_energy)


# --- templates --------------------------------------------------------------------------------


def _template_name(name: str) -> str:
    clean = name.strip()
    if problem := template_name_problem(clean):
        raise InvalidInput("templateName", problem)
    return clean


def _own_template(uow: WaybillsUnitOfWork, account_id: int, template_id: int) -> Template:
    template = uow.waybill_templates.get(template_id)
    if template is None or template.owner_account_id != account_id:
        raise NotFound()
    return template


class SaveTemplate:
    """Make (template_id None) or replace one of the caller's templates: its name, unique among the
    caller's, and the particulars it fills a new waybill with, by the waybill's rules."""

    def __init__(self, uow: WaybillsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, template_id: int | None, name: str, particulars: Particulars) -> Template:
        clean_name, clean = _template_name(name), checked(particulars)
        with self._uow as uow:
            _fences_to_read(uow, account_id, clean)
            if template_id is not None:
                current = _own_template(uow, account_id, template_id)
            if uow.waybill_templates.name_taken(account_id, clean_name, template_id):
                raise TemplateNameTaken()
            if template_id is None:
                template_id = uow.waybill_templates.add(
                    Template(None, account_id, clean_name, clean, self._clock.now()))
            else:
                uow.waybill_templates.update(replace(current, name=clean_name, particulars=clean))
            uow.commit()
            return _own_template(uow, account_id, template_id)


class GetTemplate:
    def __init__(self, uow: WaybillsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, template_id: int) -> Template:
        with self._uow as uow:
            return _own_template(uow, account_id, template_id)


class DeleteTemplate:
    def __init__(self, uow: WaybillsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, template_id: int) -> None:
        with self._uow as uow:
            _own_template(uow, account_id, template_id)
            uow.waybill_templates.delete(template_id)
            uow.commit()


class ListTemplates:
    def __init__(self, uow: WaybillsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, request: PageRequest) -> Page[Template]:
        with self._uow as uow:
            return uow.waybill_templates.page(account_id, request)
