"""What a paid order gives its devices: the one path by which a payment (core.ordering.use_cases
SettleOrder) or a redeemed recharge card (core.vouchers) changes a device's service."""

from __future__ import annotations

import logging
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from core.ordering.model import Order, OrderLine
from core.ordering.ports import DeviceServiceRepository, OrderRepository, ServicedDevice
from core.pricing.level_change import LevelChange, change_level
from core.pricing.ports import CatalogueRepository
from core.shared.errors import DomainError

log = logging.getLogger("core.ordering.use_cases")


class Settling(Protocol):
    """What crediting a paid order reads and writes (a part of any unit of work that has them)."""

    @property
    def orders(self) -> OrderRepository: ...
    @property
    def device_service(self) -> DeviceServiceRepository: ...
    @property
    def catalogue(self) -> CatalogueRepository: ...


class CreditRefused(StrEnum):
    """Why a device of a paid order did not get what it bought."""

    DELETED = "deleted"  # the device was deleted since
    LEVEL_REFUSED = "levelRefused"  # the rule of a change of level now refuses it (lifelong, level gone)


def credit_devices(uow: Settling, order: Order, now: datetime) -> dict[int, CreditRefused]:
    """Gives each device of a paid order what it bought (a level's months, SMS and voice counts:
    an offline purchase's line may carry both), its row locked until the transaction ends (so two
    settlements of one device add up). Returns the devices that got nothing, and why."""
    devices = uow.device_service.services_for_update(order.device_ids)
    refused: dict[int, CreditRefused] = {}
    for line in order.lines:
        if line.device_id not in devices:
            refused[line.device_id] = CreditRefused.DELETED  # nothing to credit
            continue
        if line.level_id is not None and not _apply_level(uow, order, line, devices[line.device_id], now):
            refused[line.device_id] = CreditRefused.LEVEL_REFUSED
            continue
        if line.sms_count or line.voice_count:
            uow.device_service.add_alert_counts(line.device_id, line.sms_count, line.voice_count,
                                                order.country_code)
    return refused


def level_result(uow: Settling, order: Order, line: OrderLine, device: ServicedDevice,
                  now: datetime) -> LevelChange | None:
    """What a service line gives its device if the order is paid now: the result promised when the
    order was placed, while the device is as it was quoted; else the rule applied to the device as
    it is now. None when the rule now refuses the change (the device got lifelong service
    meanwhile, its level left the catalogue)."""
    if line.promise_holds(device.service):
        return line.promise
    if line.level_id is None:  # not a service line: no level to change to
        return None
    levels = uow.catalogue.levels_for_type(device.type_id, order.account_id, now, order.currency)
    try:
        return change_level(device.service, line.level_id, line.months, line.bonus_months, levels, device.plan, now)
    except DomainError:
        return None


def _apply_level(uow: Settling, order: Order, line: OrderLine, device: ServicedDevice, now: datetime) -> bool:
    """Settles a service line, recording what the device got and whether it was computed anew. A
    change the rule now refuses leaves the device as it is, and the line says so: support refunds it."""
    change = level_result(uow, order, line, device, now)
    if change is None:
        log.warning("order %s paid, but device %s can no longer change level: left as it is, to be refunded",
                    order.code, line.device_id)
        uow.orders.record_service_result(order.stored_id, line.device_id, device.service.expires_at, True)
        return False
    uow.device_service.set_service(line.device_id, change.level_id, change.expires_at)
    uow.orders.record_service_result(order.stored_id, line.device_id, change.expires_at, change is not line.promise)
    return True
