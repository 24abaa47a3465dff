"""Use cases of the parameter settings tab: read and save a device's parameters, and settle the
commands that carried them by the device's answers (the model: device_commands.py)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from core.devices.access import Access
from core.devices.device_commands import (
    COMMAND_TIMEOUT,
    PROBLEM_PARAMS,
    CommandAnswer,
    CommandKind,
    CommandState,
    DeviceCommand,
    DeviceParams,
    params_problems,
)
from core.devices.events import DeviceEvent, DeviceEventKind
from core.devices.grants import Element, permitted
from core.devices.model import Device, in_service
from core.devices.ports import CommandChannel, DevicesUnitOfWork
from core.fda.model import DEVICE_PARAMS, Meaning, SignatureInput, Signer
from core.fda.ports import ChangeSigning
from core.shared.clock import Clock
from core.shared.errors import InvalidInput


@dataclass(frozen=True)
class ParamsView:
    """The parameter tab: what was asked, what the device confirmed, and how the latest stands."""

    desired: DeviceParams
    acknowledged: DeviceParams | None
    latest: DeviceCommand | None
    state: CommandState | None  # of the latest command, as shown; None: never sent
    access: Access


class GetDeviceParams:
    def __init__(self, uow: DevicesUnitOfWork, clock: Clock, timeout: timedelta = COMMAND_TIMEOUT) -> None:
        self._uow, self._clock, self._timeout = uow, clock, timeout

    def __call__(self, account_id: int, device_id: int) -> ParamsView:
        with self._uow as uow:
            device = permitted(uow.device_registry.visible(account_id, device_id), Element.PARAMS)
            return _view(uow, device, self._clock.now(), self._timeout)


def _view(uow: DevicesUnitOfWork, device: Device, now: datetime, timeout: timedelta) -> ParamsView:
    latest = uow.device_commands.latest(device.id, CommandKind.PARAMS)
    confirmed = uow.device_commands.latest_acknowledged(device.id, CommandKind.PARAMS)
    desired = latest.params if latest else DeviceParams.defaults_of(device)
    return ParamsView(desired, confirmed.params if confirmed else None, latest,
                      latest.shown_state(now, timeout) if latest else None,
                      device.grant.access_to(Element.PARAMS))


class SaveDeviceParams:
    """Keep the desired parameters, take the display ones into the console's own settings of the
    device at once, and send the device a `params` command. The command is committed before it is
    sent, so an answer can never arrive for a command the database does not hold yet. Where FDA
    mode is on for the device the save is signed in that transaction (meaning "authored" unless the
    signer says otherwise), binding the parameters and alarm limits as they then stand."""

    def __init__(self, uow: DevicesUnitOfWork, clock: Clock, channel: CommandChannel,
                 new_id: Callable[[], str] = lambda: uuid.uuid4().hex,
                 timeout: timedelta = COMMAND_TIMEOUT, signing: ChangeSigning | None = None) -> None:
        self._uow, self._clock, self._channel, self._new_id = uow, clock, channel, new_id
        self._timeout, self._signing = timeout, signing

    def __call__(self, account_id: int, device_id: int, params: DeviceParams, *, session_id: int = 0,
                 signature: SignatureInput | None = None) -> ParamsView:
        if problems := params_problems(params):
            raise InvalidInput.of(problems, {f: PROBLEM_PARAMS.get(m, {}) for f, m in problems.items()})
        now = self._clock.now()
        with self._uow as uow:
            device = permitted(uow.device_registry.visible(account_id, device_id), Element.PARAMS, operate=True)
            in_service([device])
            signing = self._signing
            passed = signing.check(Signer(account_id, session_id), device.id, signature) if signing else None
            command = DeviceCommand(self._new_id(), device.id, CommandKind.PARAMS, params, account_id, now)
            uow.device_commands.add(command)
            uow.device_registry.update(device.id, {"display_precision": params.display_precision,
                                                   "temperature_unit": params.temperature_unit})
            uow.device_events.record(DeviceEvent(device.id, device.guid, account_id, DeviceEventKind.PARAMS_CHANGED,
                                                 now, params.describe()))
            if signing is not None and passed is not None:
                signing.sign(passed, DEVICE_PARAMS, str(device.id), meaning=Meaning.AUTHORED, reason=None)
            uow.commit()
        if not self._channel.send(device.guid, command.message(device.guid)):
            with self._uow as uow:
                uow.device_commands.mark_unsent(command.id)
                uow.commit()
        with self._uow as uow:
            device = permitted(uow.device_registry.visible(account_id, device_id), Element.PARAMS)
            return _view(uow, device, self._clock.now(), self._timeout)


class RecordCommandAnswers:
    """The ingest side: each answer settles the pending command with its id, only if that command
    was sent to the device whose topic the answer came on, so no device settles another's."""

    def __init__(self, uow: DevicesUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, answers: list[CommandAnswer]) -> int:
        """How many commands were settled."""
        if not answers:
            return 0
        now = self._clock.now()
        with self._uow as uow:
            settled = sum(uow.device_commands.answer(a, now) for a in answers)
            uow.commit()
        return settled
