"""The device registry: list, show, add by GUID, change and delete devices."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from core.devices.access import Access, accessible
from core.devices.commands import AddDevice, ChangeDevice
from core.devices.credentials import BrokerLogin, issue_credentials, login_of
from core.devices.grants import Element, permitted
from core.devices.model import (
    MAX_MARKERS,
    Device,
    DeviceFilter,
    DeviceMarkers,
    DeviceType,
    HomeCounts,
    NewDevice,
    add_months,
    vip_state,
)
from core.devices.ports import BrokerAccess, BrokerGrant, BrokerPasswordHasher, DevicesUnitOfWork
from core.devices.rules import country_code_problem, device_name_problem, guid_problem, remark_problem
from core.shared.clock import Clock
from core.shared.edition import Edition
from core.shared.errors import DeviceAlreadyAdded, DeviceTypeNotAddable, InvalidInput, NotFound
from core.shared.paging import Page, PageRequest

READINGS_DELETED_PER_BATCH = 5000


class ListDevices:
    def __init__(self, uow: DevicesUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, where: DeviceFilter, request: PageRequest) -> Page[Device]:
        now = self._clock.now()
        with self._uow as uow:
            page = uow.device_registry.page(account_id, replace(where, now=now), request)
        return replace(page, items=[_with_vip_state(d, now) for d in page.items])


def _with_vip_state(device: Device, now: datetime) -> Device:
    # copied only when the state changes: a copy of a device costs as much as reading it
    state = vip_state(device.service_expires_at, now)
    return device if state is device.vip_state else replace(device, vip_state=state)


class MapDevices:
    """The list's filters as markers on a map: every positioned device up to MAX_MARKERS, not a page."""

    def __init__(self, uow: DevicesUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, where: DeviceFilter) -> DeviceMarkers:
        with self._uow as uow:
            return uow.device_registry.markers(account_id, replace(where, now=self._clock.now()), MAX_MARKERS)


class GetDevice:
    def __init__(self, uow: DevicesUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, device_id: int) -> Device:
        with self._uow as uow:
            device = uow.device_registry.visible(account_id, device_id)
        if device is None:
            raise NotFound()
        return replace(device, vip_state=vip_state(device.service_expires_at, self._clock.now()))


class CountHomeDevices:
    def __init__(self, uow: DevicesUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, scene: int | None = None) -> HomeCounts:
        with self._uow as uow:
            return uow.device_registry.counts(account_id, self._clock.now(), scene)


class ListDeviceTypes:
    """Published types, for the list's filters and the add form."""

    def __init__(self, uow: DevicesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, scene: int | None = None) -> list[DeviceType]:
        with self._uow as uow:
            return uow.device_registry.published_types(scene)


@dataclass(frozen=True)
class AddedDevice:
    device: Device
    credentials: BrokerLogin


class AddDeviceByGuid:
    """There is no registry of manufactured GUIDs to check against, so a GUID is added by the
    first customer who has the device in hand; a GUID already added is refused (409), whatever
    the case of its letters. The device gets the service a new device gets: the free gift of its
    type's package (NewDeviceGift; two months at its free level unless an operator set another),
    and its broker credentials, which the broker accepts as soon as the device is committed."""

    def __init__(self, uow: DevicesUnitOfWork, clock: Clock, edition: Edition, hasher: BrokerPasswordHasher,
                 broker: BrokerAccess) -> None:
        self._uow, self._clock, self._edition, self._hasher = uow, clock, edition, hasher
        self._broker = broker

    def _check(self, cmd: AddDevice) -> None:
        problems = {}
        if problem := guid_problem(cmd.guid):
            problems["deviceGuid"] = problem
        if problem := device_name_problem(cmd.name):
            problems["deviceName"] = problem
        if cmd.remark is not None and (problem := remark_problem(cmd.remark)):
            problems["remark"] = problem
        if cmd.country_code is not None and (problem := country_code_problem(cmd.country_code, self._edition)):
            problems["countryCode"] = problem
        if problems:
            raise InvalidInput.of(problems)

    def __call__(self, cmd: AddDevice) -> AddedDevice:
        self._check(cmd)
        now = self._clock.now()
        with self._uow as uow:
            device_type = uow.device_registry.device_type(cmd.type_id)
            if device_type is None:
                raise NotFound()
            if not device_type.addable_on_platform:
                raise DeviceTypeNotAddable()
            device_id, grant = register_device(uow, cmd, device_type, self._edition, self._hasher, self._clock)
            device = accessible(uow.device_registry.visible(cmd.account_id, device_id), Access.READ)
            uow.commit()
        self._broker.grant([grant])
        return AddedDevice(replace(device, vip_state=vip_state(device.service_expires_at, now)), login_of(grant))


def register_device(uow: DevicesUnitOfWork, cmd: AddDevice, device_type: DeviceType, edition: Edition,
                    hasher: BrokerPasswordHasher, clock: Clock) -> tuple[int, BrokerGrant]:
    """Add a checked device of an addable type inside the caller's unit of work, with the service
    a new device gets and its broker login (for BrokerAccess once committed); DeviceAlreadyAdded
    when its GUID is taken."""
    registry = uow.device_registry
    if registry.guid_taken(cmd.guid):
        raise DeviceAlreadyAdded()
    now = clock.now()
    gift = registry.new_device_gift(device_type.id)
    device_id = registry.add(NewDevice(
        guid=cmd.guid, name=cmd.name.strip(), type_id=device_type.id, owner_account_id=cmd.account_id,
        level_id=gift.level_id if gift.months > 0 else None, service_expires_at=add_months(now, gift.months),
        sms_count=gift.sms_count, voice_count=gift.voice_count,
        country_code=cmd.country_code or edition.profile.default_country_code,
        display_precision=cmd.display_precision, temperature_unit=cmd.temperature_unit,
        remark=cmd.remark.strip() if cmd.remark else None, created_at=now))
    return device_id, issue_credentials(uow, hasher, device_id, cmd.guid, clock)


class UpdateDevice:
    """Name, remark, display settings and country code, by whoever may change the device (its
    owner, its organization's creator and administrators; members only read it)."""

    def __init__(self, uow: DevicesUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._edition = uow, clock, edition

    def __call__(self, cmd: ChangeDevice) -> Device:
        problems: dict[str, str] = {}
        changes: dict[str, object] = {}
        if cmd.name is not None:
            if problem := device_name_problem(cmd.name):
                problems["deviceName"] = problem
            changes["name"] = cmd.name.strip()
        if cmd.remark is not None:
            if problem := remark_problem(cmd.remark):
                problems["remark"] = problem
            changes["remark"] = cmd.remark.strip() or None
        if cmd.country_code is not None:
            if problem := country_code_problem(cmd.country_code, self._edition):
                problems["countryCode"] = problem
            changes["country_code"] = cmd.country_code
        if problems:
            raise InvalidInput.of(problems)
        if cmd.display_precision is not None:
            changes["display_precision"] = cmd.display_precision
        if cmd.temperature_unit is not None:
            changes["temperature_unit"] = cmd.temperature_unit
        with self._uow as uow:
            permitted(uow.device_registry.visible(cmd.account_id, cmd.device_id), Element.INFO, operate=True)
            if changes:
                uow.device_registry.update(cmd.device_id, changes)
            device = permitted(uow.device_registry.visible(cmd.account_id, cmd.device_id), Element.INFO)
            uow.commit()
        return replace(device, vip_state=vip_state(device.service_expires_at, self._clock.now()))


def delete_all_readings(uow: DevicesUnitOfWork, device_id: int, before, batch_size: int,
                        kept: Callable[[DevicesUnitOfWork], bool] | None = None) -> int:
    """Delete in batches of `batch_size`, one transaction each, until none is left, or until
    `kept`, asked in each batch's transaction, says the rest is to be kept."""
    deleted = 0
    while True:
        with uow:
            if kept is not None and kept(uow):
                return deleted
            count = uow.history.delete_batch(device_id, before, batch_size)
            uow.commit()
        deleted += count
        if count < batch_size:
            return deleted
