"""Making, changing and deleting assets (an account's own or an organization's), binding devices to
them and switching them on and off. Who reads and who changes an asset is core.shared.ownership's
rule, as for projects: an organization's asset is read by its members and changed (particulars,
state, devices, deletion) by those who change its devices."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from core.assets.errors import DeviceInOtherAsset, DeviceInYourAsset, DeviceLimit
from core.assets.model import (
    FIELDS,
    MAX_DEVICES,
    NOT_YOUR_ORGANIZATION,
    READ_ONLY_ASSET,
    Asset,
    Attribute,
    attributes_problem,
    field_problem,
    holds,
    name_problem,
    remark_problem,
    room_for,
)
from core.assets.ports import AssetsUnitOfWork
from core.devices.access import Access, require
from core.devices.model import Device
from core.shared.clock import Clock
from core.shared.errors import InvalidInput, NotFound
from core.shared.ownership import Organizations, changeable, may_change, may_make_in, may_read, readable
from core.shared.paging import Page, PageRequest

# The API's field names, for the refusals.
_FIELD_NAMES = {"name": "assetName", "asset_type": "assetType", "number": "assetNumber", "brand": "brand",
                "model": "model", "volume": "volume", "remark": "remark", "attributes": "customs"}


@dataclass(frozen=True)
class AssetInput:
    name: str
    asset_type: str | None = None
    number: str | None = None
    brand: str | None = None
    model: str | None = None
    volume: str | None = None
    attributes: tuple[Attribute, ...] = ()
    remark: str | None = None
    organization_id: int | None = None  # whose a new one is; None: the caller's own (not changed later)


def _optional(value: str | None) -> str | None:
    return (value or "").strip() or None


def checked(cmd: AssetInput) -> AssetInput:
    """The input trimmed (an empty optional field is none, a pair's key and value trimmed), or
    InvalidInput naming every field that is wrong."""
    clean = AssetInput(
        cmd.name.strip(), _optional(cmd.asset_type), _optional(cmd.number), _optional(cmd.brand),
        _optional(cmd.model), _optional(cmd.volume),
        tuple(Attribute(a.key.strip(), a.value.strip()) for a in cmd.attributes), _optional(cmd.remark),
        cmd.organization_id)
    problems: dict[str, str] = {}
    if problem := name_problem(clean.name):
        problems["name"] = problem
    for name in FIELDS:
        value = getattr(clean, name)
        if value is not None and (problem := field_problem(value)):
            problems[name] = problem
    if clean.remark is not None and (problem := remark_problem(clean.remark)):
        problems["remark"] = problem
    if problem := attributes_problem(clean.attributes):
        problems["attributes"] = problem
    if problems:
        raise InvalidInput.of({_FIELD_NAMES[f]: p for f, p in problems.items()})
    return clean


def _organizations(uow: AssetsUnitOfWork, account_id: int) -> Organizations:
    return uow.device_registry.organizations_of(account_id)


def _readable(uow: AssetsUnitOfWork, account_id: int, asset_id: int) -> Asset:
    return readable(uow.assets.get(account_id, asset_id), account_id, _organizations(uow, account_id))


def _changeable(uow: AssetsUnitOfWork, account_id: int, asset_id: int) -> Asset:
    return changeable(_readable(uow, account_id, asset_id), READ_ONLY_ASSET)


class CreateAsset:
    def __init__(self, uow: AssetsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, cmd: AssetInput) -> Asset:
        c = checked(cmd)
        with self._uow as uow:
            if not may_make_in(c.organization_id, _organizations(uow, account_id)):
                raise InvalidInput("organizationId", NOT_YOUR_ORGANIZATION)
            asset = Asset(None, account_id, c.name, c.asset_type, c.number, c.brand, c.model, c.volume,
                          c.attributes, c.remark, True, self._clock.now(), organization_id=c.organization_id)
            asset_id = uow.assets.add(asset)
            uow.commit()
            return _readable(uow, account_id, asset_id)


class UpdateAsset:
    def __init__(self, uow: AssetsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, asset_id: int, cmd: AssetInput) -> Asset:
        """Its particulars, all of them (a field left empty is cleared); its state and devices
        stay."""
        c = checked(cmd)
        with self._uow as uow:
            current = _changeable(uow, account_id, asset_id)
            uow.assets.update(replace(current, name=c.name, asset_type=c.asset_type, number=c.number, brand=c.brand,
                                      model=c.model, volume=c.volume, attributes=c.attributes, remark=c.remark))
            uow.commit()
            return _readable(uow, account_id, asset_id)


class DeleteAsset:
    def __init__(self, uow: AssetsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, asset_id: int) -> int:
        """The number of devices it had, now in no asset; those of a disabled asset are enabled
        again with the alarm rules it had switched off, as unbinding them would."""
        with self._uow as uow:
            asset = _changeable(uow, account_id, asset_id)
            devices = uow.assets.bound(asset_id)
            if not asset.enabled and devices:
                uow.assets.release(devices)
            uow.assets.delete(asset_id)
            uow.commit()
        return len(devices)


class GetAsset:
    def __init__(self, uow: AssetsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, asset_id: int) -> Asset:
        with self._uow as uow:
            return _readable(uow, account_id, asset_id)


class ListAssets:
    def __init__(self, uow: AssetsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, keyword: str | None, request: PageRequest) -> Page[Asset]:
        with self._uow as uow:
            organizations = _organizations(uow, account_id)
            page = uow.assets.page(account_id, sorted(organizations), (keyword or "").strip() or None, request)
        for asset in page.items:
            asset.changeable = may_change(asset, account_id, organizations)
        return page


def _writable(uow: AssetsUnitOfWork, account_id: int, device_ids: list[int]) -> dict[int, Device]:
    """Each device, when each is the caller's to change: one it may not see is 404, one it only
    reads 403, as changing that device alone would answer."""
    devices = {d.id: d for d in uow.device_registry.visible_many(account_id, device_ids)}
    for device_id in device_ids:
        found = devices.get(device_id)
        require(found.access if found else Access.NONE, Access.WRITE)
    return devices


class BindDevices:
    """Puts devices in an asset the caller may change, all or none: each must be the caller's to
    change, of the asset's owner's kind (an organization's device into that organization's assets,
    a device in no organization into personal ones: 422 on deviceIds otherwise), in no other
    asset, and the asset may hold five at most. A device bound to a disabled asset is disabled
    with its alarm rules at once, in the same transaction."""

    def __init__(self, uow: AssetsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, asset_id: int, device_ids: Sequence[int]) -> Asset:
        ids = list(dict.fromkeys(device_ids))
        with self._uow as uow:
            asset = _changeable(uow, account_id, asset_id)
            devices = _writable(uow, account_id, ids)
            for device_id in ids:
                if problem := holds(asset, devices[device_id].organization_id):
                    raise InvalidInput("deviceIds", problem)
            organizations = _organizations(uow, account_id)
            elsewhere = [m for m in uow.assets.memberships(ids) if m.asset_id != asset_id]
            for m in elsewhere:  # named only to who reads that asset
                if may_read(m, account_id, organizations):
                    raise DeviceInYourAsset(device=m.device_name, name=m.asset_name)
                raise DeviceInOtherAsset(device=m.device_name)
            already = set(uow.assets.bound(asset_id))
            new = [d for d in ids if d not in already]
            if not room_for(len(already), len(new)):
                raise DeviceLimit()
            if new:
                uow.assets.bind(asset_id, new)
                if not asset.enabled:
                    uow.assets.hold(new)
            uow.commit()
            return _readable(uow, account_id, asset_id)


class UnbindDevices:
    """Takes devices out of an asset the caller may change. A device leaving a disabled asset is
    enabled again with the alarm rules the asset had switched off: it is no longer the asset's
    to hold. Taking a device out needs the same right as putting it in."""

    def __init__(self, uow: AssetsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, asset_id: int, device_ids: Sequence[int]) -> Asset:
        ids = list(dict.fromkeys(device_ids))
        with self._uow as uow:
            asset = _changeable(uow, account_id, asset_id)
            _writable(uow, account_id, ids)
            bound = set(uow.assets.bound(asset_id))
            if any(d not in bound for d in ids):
                raise NotFound()
            uow.assets.unbind(ids)
            if not asset.enabled:
                uow.assets.release(ids)
            uow.commit()
            return _readable(uow, account_id, asset_id)


class SetAssetState:
    """Enables or disables an asset, and its devices and their alarm settings alike, in one
    transaction (spec 001 section 4).

    Disabling marks the devices disabled and switches off every alarm rule of theirs that is on,
    remembering which; no rule that is off raises an alarm or notifies anyone (evaluation and the
    graded escalation both read only enabled rules), so this silences the devices' alarms and
    their notifications alike. Enabling turns back on exactly the rules disabling switched off,
    not every rule: a rule its user had switched off on purpose (a probe not in use) would
    otherwise start alarming because the asset was paused and resumed. The push settings (which
    channels a recipient gets) are left as they are: with the rules off nothing is sent, and a
    recipient's choice of channels is not the asset's to forget.

    Asking for the state an asset already has changes nothing (no second hold over the first)."""

    def __init__(self, uow: AssetsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, asset_id: int, enabled: bool) -> Asset:
        with self._uow as uow:
            asset = _changeable(uow, account_id, asset_id)
            if asset.enabled != enabled:
                devices = uow.assets.bound(asset_id)
                if devices:
                    (uow.assets.release if enabled else uow.assets.hold)(devices)
                uow.assets.set_enabled(asset_id, enabled)
                uow.commit()
            return _readable(uow, account_id, asset_id)


__all__ = ["MAX_DEVICES", "AssetInput", "BindDevices", "CreateAsset", "DeleteAsset", "GetAsset", "ListAssets",
           "SetAssetState", "UnbindDevices", "UpdateAsset", "checked"]
