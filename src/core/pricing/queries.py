"""What the recharge drawers list for a device: its items, levels and year options, and the SMS
and voice packages of a country code, each priced for this caller at this instant, in the
edition's currency only (the other edition's price list is never read)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.pricing.model import AlertKind, AlertPackage, Level, ServiceItem
from core.pricing.ports import PricingUnitOfWork
from core.pricing.quotes import SERVICE_NODE, DeviceQuote, find_level, one_type, plan_of, quote_devices, visible_devices
from core.pricing.rules import (
    ButtonKind,
    OptionPrice,
    alert_package_discount,
    alert_package_price,
    button_kind,
    is_free,
    item_detail,
    price_option,
)
from core.shared.clock import Clock
from core.shared.edition import Edition, reading_languages
from core.shared.errors import LevelNotOffered


@dataclass(frozen=True)
class ItemView:
    code: str
    name: str
    title: str
    detail: str | None
    supplement: str | None
    label: str | None


@dataclass(frozen=True)
class LevelOffer:
    """A level card: the level, its headline price for this device, the button it shows."""

    level: Level
    price: OptionPrice | None
    button: ButtonKind
    current: bool
    free: bool
    items: tuple[ItemView, ...]


@dataclass(frozen=True)
class AlertOffer:
    package: AlertPackage
    discount: int
    price_cents: int


def _item_view(item: ServiceItem) -> ItemView:
    title, detail = item_detail(item.code, item.name)
    return ItemView(item.code, item.name, title, detail, item.supplement, item.label)


class ListServiceItems:
    def __init__(self, uow: PricingUnitOfWork, edition: Edition) -> None:
        self._uow, self._edition = uow, edition

    def __call__(self, account_id: int, device_id: int, language: str | None = None) -> list[ItemView]:
        with self._uow as uow:
            visible_devices(uow, account_id, [device_id])
            return [_item_view(item) for item in uow.catalogue.items(reading_languages(language, self._edition))]


class LevelNames:
    """Levels' names in a reader's language (the device header's level), falling back to the default."""

    def __init__(self, uow: PricingUnitOfWork, edition: Edition) -> None:
        self._uow, self._edition = uow, edition

    def __call__(self, level_ids: Sequence[int], language: str | None) -> dict[int, str]:
        with self._uow as uow:
            return uow.catalogue.level_names(level_ids, reading_languages(language, self._edition))


class ListLevels:
    def __init__(self, uow: PricingUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._currency, self._edition = uow, clock, edition.profile.currency, edition

    def __call__(self, account_id: int, device_id: int, language: str | None = None) -> list[LevelOffer]:
        now = self._clock.now()
        languages = reading_languages(language, self._edition)
        with self._uow as uow:
            [device] = visible_devices(uow, account_id, [device_id])
            if device.node_type != SERVICE_NODE:
                return []
            levels = uow.catalogue.levels_for_type(device.type_id, account_id, now, self._currency, languages)
            items = {item.code: _item_view(item) for item in uow.catalogue.items(languages)}
        plan = plan_of(device)
        offers = []
        for level in levels:
            headline = level.headline
            offers.append(LevelOffer(
                level=level,
                price=price_option(headline, plan, now) if headline else None,
                button=button_kind(level, device.level_id, plan),
                current=level.id == device.level_id,
                free=is_free(headline, plan),
                items=tuple(items[code] for code in items if code in level.item_codes),
            ))
        return offers


class ListYearOptions:
    def __init__(self, uow: PricingUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._currency = uow, clock, edition.profile.currency

    def __call__(self, account_id: int, device_id: int, level_id: int, package_id: int) -> list[OptionPrice]:
        now = self._clock.now()
        with self._uow as uow:
            [device] = visible_devices(uow, account_id, [device_id])
            if device.node_type != SERVICE_NODE:
                raise LevelNotOffered()
            level = find_level(uow.catalogue.levels_for_type(device.type_id, account_id, now, self._currency),
                               level_id, package_id)
        plan = plan_of(device)
        return [price_option(option, plan, now) for option in level.options]


class QuoteBatch:
    """What each device of a batch (or a single device) pays for one year option, the data fee
    making devices with an active SIM data plan cost more than others, and what each will have
    once paid: its level and expiry, from its own service."""

    def __init__(self, uow: PricingUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._currency = uow, clock, edition.profile.currency

    def __call__(self, account_id: int, device_ids: Sequence[int], level_id: int, level_year_id: int,
                 package_id: int) -> list[DeviceQuote]:
        now = self._clock.now()
        with self._uow as uow:
            devices = visible_devices(uow, account_id, device_ids)
            type_id = one_type(devices)
            levels = uow.catalogue.levels_for_type(type_id, account_id, now, self._currency)
        level = find_level(levels, level_id, package_id)
        option = level.option(level_year_id)
        if option is None:
            raise LevelNotOffered()
        return quote_devices(devices, levels, level, option, now)


class ListAlertPackages:
    def __init__(self, uow: PricingUnitOfWork, edition: Edition) -> None:
        self._uow, self._currency = uow, edition.profile.currency

    def __call__(self, country_code: str) -> tuple[list[AlertOffer], list[AlertOffer]]:
        """(SMS packages, voice packages)."""
        with self._uow as uow:
            packages = uow.catalogue.alert_packages(country_code, self._currency)
        offers = [AlertOffer(p, alert_package_discount(p), alert_package_price(p)) for p in packages]
        return ([o for o in offers if o.package.kind is AlertKind.SMS],
                [o for o in offers if o.package.kind is AlertKind.VOICE])
