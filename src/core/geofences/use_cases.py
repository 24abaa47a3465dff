"""Making, changing and deleting fences (an account's own or an organization's), linking devices to
them and reading their crossings. Who reads and who changes a fence is core.shared.ownership's
rule, as for projects and assets: an organization's fence is read by its members and changed by
those who change its devices; a sharee of a device sees none of its owner's fences."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from core.devices.access import Access, require
from core.devices.model import Device
from core.geofences.errors import DeviceFenceLimit, FenceDeviceLimit, FenceLimit
from core.geofences.model import (
    MAX_DEVICES_PER_FENCE,
    MAX_FENCES_PER_DEVICE,
    MAX_FENCES_PER_OWNER,
    NOT_YOUR_ORGANIZATION,
    ORGANIZATION_DEVICE,
    PERSONAL_DEVICE,
    READ_ONLY_FENCE,
    Area,
    EventQuery,
    Fence,
    FenceEvent,
    areas_problem,
    name_problem,
)
from core.geofences.ports import GeofencesUnitOfWork
from core.shared.clock import Clock
from core.shared.errors import InvalidInput, NotFound
from core.shared.ownership import Organizations, changeable, kept_apart, may_change, may_make_in, readable
from core.shared.paging import Page, PageRequest


@dataclass(frozen=True)
class FenceInput:
    name: str
    areas: tuple[Area, ...]
    organization_id: int | None = None  # whose a new one is; None: the caller's own (not changed later)


def checked(cmd: FenceInput) -> FenceInput:
    """The input with its name trimmed, or InvalidInput naming every field that is wrong."""
    clean = replace(cmd, name=cmd.name.strip())
    problems: dict[str, str] = {}
    params: dict[str, dict[str, Any]] = {}
    if problem := name_problem(clean.name):
        problems["name"] = problem
    if area_problem := areas_problem(clean.areas):
        problems["areas"], params["areas"] = area_problem
    if problems:
        raise InvalidInput.of(problems, params)
    return clean


def _organizations(uow: GeofencesUnitOfWork, account_id: int) -> Organizations:
    return uow.device_registry.organizations_of(account_id)


def _readable(uow: GeofencesUnitOfWork, account_id: int, fence_id: int) -> Fence:
    return readable(uow.fences.get(account_id, fence_id), account_id, _organizations(uow, account_id))


def _changeable(uow: GeofencesUnitOfWork, account_id: int, fence_id: int) -> Fence:
    return changeable(_readable(uow, account_id, fence_id), READ_ONLY_FENCE)


class CreateFence:
    def __init__(self, uow: GeofencesUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, cmd: FenceInput) -> Fence:
        c = checked(cmd)
        with self._uow as uow:
            if not may_make_in(c.organization_id, _organizations(uow, account_id)):
                raise InvalidInput("organizationId", NOT_YOUR_ORGANIZATION)
            if uow.fences.count_owned(account_id, c.organization_id) >= MAX_FENCES_PER_OWNER:
                raise FenceLimit(max=MAX_FENCES_PER_OWNER)
            fence_id = uow.fences.add(Fence(None, account_id, c.name, c.areas, self._clock.now(),
                                            organization_id=c.organization_id))
            uow.commit()
            return _readable(uow, account_id, fence_id)


class UpdateFence:
    def __init__(self, uow: GeofencesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, fence_id: int, cmd: FenceInput) -> Fence:
        """Its name and areas, both replaced; its owner and devices stay."""
        c = checked(cmd)
        with self._uow as uow:
            current = _changeable(uow, account_id, fence_id)
            uow.fences.update(replace(current, name=c.name, areas=c.areas))
            uow.commit()
            return _readable(uow, account_id, fence_id)


class DeleteFence:
    def __init__(self, uow: GeofencesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, fence_id: int) -> int:
        """The number of devices it watched."""
        with self._uow as uow:
            _changeable(uow, account_id, fence_id)
            watched = len(uow.fences.linked(fence_id))
            uow.fences.delete(fence_id)
            uow.commit()
        return watched


class GetFence:
    def __init__(self, uow: GeofencesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, fence_id: int) -> Fence:
        with self._uow as uow:
            return _readable(uow, account_id, fence_id)


class ListFences:
    def __init__(self, uow: GeofencesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, keyword: str | None, request: PageRequest) -> Page[Fence]:
        with self._uow as uow:
            organizations = _organizations(uow, account_id)
            page = uow.fences.page(account_id, sorted(organizations), (keyword or "").strip() or None, request)
        for fence in page.items:
            fence.changeable = may_change(fence, account_id, organizations)
        return page


def _writable(uow: GeofencesUnitOfWork, account_id: int, device_ids: list[int]) -> dict[int, Device]:
    """Each device, when each is the caller's to change: 404 for one it may not see, 403 for one it
    only reads, as changing that device alone would answer."""
    devices = {d.id: d for d in uow.device_registry.visible_many(account_id, device_ids)}
    for device_id in device_ids:
        found = devices.get(device_id)
        require(found.access if found else Access.NONE, Access.WRITE)
    return devices


class BindDevices:
    """Watch devices against a fence the caller may change, all or none: each the caller's to
    change and of the fence's owner's kind (422 on deviceIds otherwise), within the limits of
    devices per fence and fences per device. A device already watched stays as it is."""

    def __init__(self, uow: GeofencesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, fence_id: int, device_ids: Sequence[int]) -> Fence:
        ids = list(dict.fromkeys(device_ids))
        with self._uow as uow:
            fence = _changeable(uow, account_id, fence_id)
            devices = _writable(uow, account_id, ids)
            for device_id in ids:
                if problem := kept_apart(fence, devices[device_id].organization_id, ORGANIZATION_DEVICE,
                                         PERSONAL_DEVICE):
                    raise InvalidInput("deviceIds", problem)
            already = set(uow.fences.linked(fence_id))
            new = [d for d in ids if d not in already]
            if len(already) + len(new) > MAX_DEVICES_PER_FENCE:
                raise FenceDeviceLimit(max=MAX_DEVICES_PER_FENCE)
            counts = uow.fences.fence_counts(new)
            for device_id in new:
                if counts.get(device_id, 0) >= MAX_FENCES_PER_DEVICE:
                    raise DeviceFenceLimit(device=devices[device_id].name, max=MAX_FENCES_PER_DEVICE)
            if new:
                uow.fences.link(fence_id, new)
            uow.commit()
            return _readable(uow, account_id, fence_id)


class UnbindDevices:
    """Stop watching devices against a fence the caller may change, all or none (404 for a device
    it does not watch); their crossings stay in the fence's events."""

    def __init__(self, uow: GeofencesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, fence_id: int, device_ids: Sequence[int]) -> Fence:
        ids = list(dict.fromkeys(device_ids))
        with self._uow as uow:
            _changeable(uow, account_id, fence_id)
            _writable(uow, account_id, ids)
            linked = set(uow.fences.linked(fence_id))
            if any(d not in linked for d in ids):
                raise NotFound()
            uow.fences.unlink(fence_id, ids)
            uow.commit()
            return _readable(uow, account_id, fence_id)


class ListFenceEvents:
    def __init__(self, uow: GeofencesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, query: EventQuery, request: PageRequest) -> Page[FenceEvent]:
        """A fence's crossings, newest first, of the devices the caller sees."""
        with self._uow as uow:
            _readable(uow, account_id, query.fence_id)
            return uow.fences.events(account_id, query, request)


__all__ = ["BindDevices", "CreateFence", "DeleteFence", "FenceInput", "GetFence", "ListFenceEvents", "ListFences",
           "UnbindDevices", "UpdateFence", "checked"]
