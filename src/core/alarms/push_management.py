"""Read and change a device's alarm push settings: read where the caller sees the device, changed
only where the caller may change it."""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.alarms.management import ensure_access
from core.alarms.ports import AlarmsUnitOfWork
from core.alarms.push import PushSetting, default_push_setting, push_problems
from core.devices.access import Access
from core.devices.grants import Element
from core.shared.clock import Clock
from core.shared.errors import InvalidInput


@dataclass(frozen=True)
class PushSettingView:
    setting: PushSetting
    access: Access
    stored: bool  # False: the device has none yet, these are the defaults


class GetPushSetting:
    def __init__(self, uow: AlarmsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, device_id: int) -> PushSettingView:
        with self._uow as uow:
            grant = ensure_access(uow, account_id, device_id, Element.PUSH)
            stored = uow.alarms.push_setting(device_id)
            return PushSettingView(stored or default_push_setting(device_id), grant.access_to(Element.PUSH),
                                   stored is not None)


class SavePushSetting:
    """Replaces the device's push settings whole; checked first, so a refused change leaves them."""

    def __init__(self, uow: AlarmsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, setting: PushSetting) -> PushSettingView:
        problems = push_problems(setting)
        if problems:
            raise InvalidInput.of(problems)
        with self._uow as uow:
            ensure_access(uow, account_id, setting.device_id, Element.PUSH, operate=True)
            saved = replace(setting, updated_at=self._clock.now())
            uow.alarms.save_push_setting(saved)
            uow.commit()
            return PushSettingView(saved, Access.WRITE, True)
