"""A device's own parameters (spec seed 000 section 7, DeviceParam; seed 001 section 9) and the
`params` command that carries them to the device over MQTT (api-contract section 7).

Saving keeps the desired set as a command, records it, and sends it on `devices/{guid}/commands`;
the device answers on `devices/{guid}/acks` by the command's id. The console shows what was asked
(the latest command) beside what the device has confirmed (the latest acknowledged one). A command
the device has not answered within COMMAND_TIMEOUT is shown as not answered, never as waiting for
ever; a late answer still counts.

Ranges chosen here, as the spec names the parameters but not their bounds:
- upload interval 60 s to 24 h: how often a logger sends; below a minute the cellular modem never
  sleeps, and a day is the longest a cold chain tolerates not hearing from a device;
- record interval 10 s to 24 h, and no longer than the upload interval: a logger records at least
  once for every upload, or an upload would carry nothing new.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from core.devices.model import Device
from core.devices.rules import PRECISION_MAX, TEMPERATURE_UNITS
from core.shared.messages import N_

UPLOAD_INTERVAL_S = (60, 86_400)
RECORD_INTERVAL_S = (10, 86_400)
DEFAULT_UPLOAD_INTERVAL_S = 300
DEFAULT_RECORD_INTERVAL_S = 60
COMMAND_TIMEOUT = timedelta(seconds=60)
ERROR_MAX = 200  # what is kept of a device's error text
COMMAND_ID_MAX = 64

PRECISION_PROBLEM = N_("Display precision must be 0 to 4 decimals")
UNIT_PROBLEM = N_("Temperature unit must be C or F")
UPLOAD_PROBLEM = N_("Upload interval must be {min} to {max} seconds")
RECORD_PROBLEM = N_("Record interval must be {min} to {max} seconds")
RECORD_AFTER_UPLOAD_PROBLEM = N_("Record interval may not be longer than the upload interval")


class CommandKind(StrEnum):
    PARAMS = "params"


class CommandState(StrEnum):
    PENDING = "pending"  # sent, no answer yet
    ACKNOWLEDGED = "acknowledged"
    FAILED = "failed"  # the device answered with an error
    UNSENT = "unsent"  # the broker could not be reached
    NOT_ANSWERED = "notAnswered"  # only shown: pending for longer than COMMAND_TIMEOUT


@dataclass(frozen=True)
class DeviceParams:
    display_precision: int
    temperature_unit: str
    upload_interval_s: int
    record_interval_s: int

    def as_payload(self) -> dict[str, Any]:
        return {"displayPrecision": self.display_precision, "temperatureUnit": self.temperature_unit,
                "uploadInterval": self.upload_interval_s, "recordInterval": self.record_interval_s}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> DeviceParams:
        return cls(int(payload["displayPrecision"]), str(payload["temperatureUnit"]),
                   int(payload["uploadInterval"]), int(payload["recordInterval"]))

    @classmethod
    def defaults_of(cls, device: Device) -> DeviceParams:
        return cls(device.display_precision, device.temperature_unit, DEFAULT_UPLOAD_INTERVAL_S,
                   DEFAULT_RECORD_INTERVAL_S)

    def describe(self) -> str:
        """The device event's detail."""
        return (f"precision={self.display_precision} unit={self.temperature_unit} "
                f"upload={self.upload_interval_s}s record={self.record_interval_s}s")


def params_problems(params: DeviceParams) -> dict[str, str]:
    """Per field (the API's names), the message id of what is wrong; empty when all is well."""
    problems: dict[str, str] = {}
    if not 0 <= params.display_precision <= PRECISION_MAX:
        problems["displayPrecision"] = PRECISION_PROBLEM
    if params.temperature_unit not in TEMPERATURE_UNITS:
        problems["temperatureUnit"] = UNIT_PROBLEM
    upload_ok = UPLOAD_INTERVAL_S[0] <= params.upload_interval_s <= UPLOAD_INTERVAL_S[1]
    if not upload_ok:
        problems["uploadInterval"] = UPLOAD_PROBLEM
    if not RECORD_INTERVAL_S[0] <= params.record_interval_s <= RECORD_INTERVAL_S[1]:
        problems["recordInterval"] = RECORD_PROBLEM
    elif upload_ok and params.record_interval_s > params.upload_interval_s:
        problems["recordInterval"] = RECORD_AFTER_UPLOAD_PROBLEM
    return problems


PROBLEM_PARAMS = {UPLOAD_PROBLEM: {"min": UPLOAD_INTERVAL_S[0], "max": UPLOAD_INTERVAL_S[1]},
                  RECORD_PROBLEM: {"min": RECORD_INTERVAL_S[0], "max": RECORD_INTERVAL_S[1]}}


@dataclass(frozen=True)
class DeviceCommand:
    id: str
    device_id: int
    kind: CommandKind
    params: DeviceParams
    account_id: int | None
    sent_at: datetime
    state: CommandState = CommandState.PENDING
    error: str | None = None
    answered_at: datetime | None = None

    def shown_state(self, now: datetime, timeout: timedelta = COMMAND_TIMEOUT) -> CommandState:
        if self.state is CommandState.PENDING and now - self.sent_at > timeout:
            return CommandState.NOT_ANSWERED
        return self.state

    def message(self, guid: str) -> str:
        """What goes on devices/{guid}/commands."""
        return json.dumps({"id": self.id, "type": str(self.kind), "guid": guid, **self.params.as_payload()})


@dataclass(frozen=True)
class CommandAnswer:
    """A device's answer on devices/{guid}/acks, with the GUID of the topic it came on."""

    guid: str
    command_id: str
    ok: bool
    error: str | None = None


def parse_answer(guid: str, payload: bytes) -> CommandAnswer | None:
    """None for anything that is not `{"id": "...", "ok": true}` or `{"id": "...", "ok": false,
    "error": "..."}`."""
    try:
        body = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(body, dict):
        return None
    command_id, ok = body.get("id"), body.get("ok")
    if not isinstance(command_id, str) or not 1 <= len(command_id) <= COMMAND_ID_MAX or not isinstance(ok, bool):
        return None
    error = body.get("error")
    if ok:
        return CommandAnswer(guid, command_id, True)
    if isinstance(error, (int, float)) and not (isinstance(error, float) and not math.isfinite(error)):
        error = str(error)
    text = error if isinstance(error, str) else ""
    # What a device says is shown to people: keep it printable and short.
    text = "".join(c for c in text if c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF)[:ERROR_MAX].strip()
    return CommandAnswer(guid, command_id, False, text or None)
