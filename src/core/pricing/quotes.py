"""How a device is priced for an order: the checks of the devices asked for, each device's price
for a year option and the result it will have once paid. Shared by the recharge drawers
(core.pricing.queries) and by placing an order (core.ordering), which prices every order itself."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from core.devices.grants import Element, permit
from core.devices.model import Device, in_service
from core.pricing.level_change import LevelChange, ServiceState, change_level
from core.pricing.model import Level, YearOption
from core.pricing.ports import PricingUnitOfWork
from core.pricing.rules import DataPlan, OptionPrice, is_free, price_option
from core.shared.errors import FreeLevelNotOrderable, LevelNotOffered, MixedDeviceTypes, NotFound

SERVICE_NODE = 1  # only a device with its own service (nodeType 1) has levels to buy


def visible_devices(uow: PricingUnitOfWork, account_id: int, device_ids: Sequence[int],
                    operate: bool = False) -> list[Device]:
    """The devices, in the order asked, when the caller may see (or, with `operate`, order) the
    recharge of each: NotFound when one is not visible (the answer an unknown id gets),
    Forbidden when the caller may not see its recharge or would change one it only reads (an
    order changes the device's service)."""
    wanted = list(dict.fromkeys(device_ids))
    found = {device.id: device for device in uow.device_registry.visible_many(account_id, wanted)}
    if len(found) != len(wanted):
        raise NotFound()
    for device in found.values():
        permit(device.grant, Element.RECHARGE, operate)
    return [found[device_id] for device_id in wanted]


def one_type(devices: Sequence[Device]) -> int:
    types = {d.type_id for d in devices}
    if len(types) != 1:
        raise MixedDeviceTypes()
    return types.pop()


def plan_of(device: Device) -> DataPlan:
    return DataPlan.of(device.sim_iccid, device.jc_iccid_status)



def find_level(levels: Sequence[Level], level_id: int, package_id: int | None) -> Level:
    level = next((lv for lv in levels if lv.id == level_id), None)
    if level is None or (package_id is not None and level.package_id != package_id):
        raise LevelNotOffered()
    return level



@dataclass(frozen=True)
class DeviceQuote:
    """What one device pays for a year option, and what it will have once paid."""

    device: Device
    price: OptionPrice
    change: LevelChange
    level_name: str  # of the level bought


def quote_devices(devices: Sequence[Device], levels: Sequence[Level], level: Level, option: YearOption,
                  now: datetime) -> list[DeviceQuote]:
    """Each device's price and result (core/pricing/level_change.py); refused for a free option
    and for a change the rule refuses, and for a scrapped device."""
    in_service(devices)
    quotes = []
    for device in devices:
        plan = plan_of(device)
        if is_free(option, plan):
            raise FreeLevelNotOrderable()
        price = price_option(option, plan, now)
        change = change_level(ServiceState(device.level_id, device.service_expires_at), level.id, option.months,
                              price.bonus_months, levels, plan, now)
        quotes.append(DeviceQuote(device, price, change, level.name))
    return quotes
