"""Adding many devices at once from a spreadsheet of GUIDs: each row is added, or reported with
why not, so a customer with a box of loggers fixes the few bad rows and uploads them again.

A file that is not such a sheet (not XLSX, too big, too many rows, formulas, text no database
can store) is refused whole, before anything is added."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from core.devices.commands import AddDevice
from core.devices.credentials import BrokerLogin, login_of
from core.devices.model import DeviceType, format_type_code
from core.devices.ports import (
    BrokerAccess,
    BrokerGrant,
    BrokerPasswordHasher,
    DeviceSheets,
    DevicesUnitOfWork,
    SheetRow,
)
from core.devices.registry import register_device
from core.devices.rules import device_name_problem, guid_problem
from core.shared.clock import Clock
from core.shared.edition import Edition
from core.shared.errors import DeviceAlreadyAdded, InvalidInput
from core.shared.messages import N_

MAX_SHEET_ROWS = 500
MAX_SHEET_BYTES = 512 * 1024  # 500 rows of GUIDs take about 20 KB
# What the sheet may unpack to: a real one of 500 rows is well under 1 MB; a "zip bomb" is not.
MAX_UNPACKED_BYTES = 8 * 1024 * 1024

NOT_A_SHEET = N_("The file is not an Excel workbook (.xlsx)")
SHEET_TOO_BIG = N_("The file is too large: at most 512 KB")
TOO_MANY_ROWS = N_("The sheet may hold at most 500 devices")
NO_ROWS = N_("The sheet holds no devices")
FORMULAS = N_("The sheet holds formulas: enter the values themselves")
BAD_TEXT = N_("The sheet holds characters that cannot be stored")
UNKNOWN_TYPE = N_("No device type that can be added here has this code or name")


class SheetRefused(InvalidInput):
    """The whole file is refused (422, against the `file` field); nothing is added."""

    def __init__(self, message: str) -> None:
        super().__init__("file", message)


class RowOutcome(StrEnum):
    ADDED = "added"
    ALREADY_ADDED = "alreadyAdded"  # by anyone, earlier or higher in the same sheet
    UNKNOWN_TYPE = "unknownType"
    INVALID = "invalid"


@dataclass(frozen=True)
class RowReport:
    number: int
    guid: str
    outcome: RowOutcome
    problem: str | None = None  # a message id, for INVALID and UNKNOWN_TYPE
    device_id: int | None = None
    credentials: BrokerLogin | None = None  # for ADDED: the broker login, shown this once


def type_matcher(types: Sequence[DeviceType]) -> dict[str, DeviceType]:
    """Addable types by their code (0x8001, any case) and by their name (any case)."""
    addable = [t for t in types if t.addable_on_platform]
    by_name = {t.name.strip().casefold(): t for t in addable}
    return {**by_name, **{format_type_code(t.code).casefold(): t for t in addable}}


class AddDevicesFromSheet:
    """Rows are added in one transaction, in their order; a row that cannot be added is reported
    and skipped. Each added device gets what one added by hand gets (two free months, its broker
    login, returned this once)."""

    def __init__(self, uow: DevicesUnitOfWork, clock: Clock, edition: Edition, hasher: BrokerPasswordHasher,
                 broker: BrokerAccess, sheets: DeviceSheets) -> None:
        self._uow, self._clock, self._edition, self._hasher = uow, clock, edition, hasher
        self._broker, self._sheets = broker, sheets

    def __call__(self, account_id: int, data: bytes, default_type_id: int | None = None) -> list[RowReport]:
        if len(data) > MAX_SHEET_BYTES:
            raise SheetRefused(SHEET_TOO_BIG)
        rows = self._sheets.read(data)
        if not rows:
            raise SheetRefused(NO_ROWS)
        reports: list[RowReport] = []
        grants: list[BrokerGrant] = []
        with self._uow as uow:
            types = type_matcher(uow.device_registry.published_types())
            default = next((t for t in types.values() if t.id == default_type_id), None)
            for row in rows:
                report, grant = self._add(uow, account_id, row, types, default)
                reports.append(report)
                if grant is not None:
                    grants.append(grant)
            uow.commit()
        if grants:
            self._broker.grant(grants)
        return reports

    def _add(self, uow: DevicesUnitOfWork, account_id: int, row: SheetRow, types: dict[str, DeviceType],
             default: DeviceType | None) -> tuple[RowReport, BrokerGrant | None]:
        guid, name = row.guid.strip(), row.name.strip() or row.guid.strip()
        problem = guid_problem(guid) or device_name_problem(name)
        if problem:
            return RowReport(row.number, guid, RowOutcome.INVALID, problem), None
        device_type = types.get(row.type_ref.strip().casefold()) if row.type_ref.strip() else default
        if device_type is None:
            return RowReport(row.number, guid, RowOutcome.UNKNOWN_TYPE, UNKNOWN_TYPE), None
        try:
            device_id, grant = register_device(uow, AddDevice(account_id, guid, name, device_type.id), device_type,
                                               self._edition, self._hasher, self._clock)
        except DeviceAlreadyAdded:
            return RowReport(row.number, guid, RowOutcome.ALREADY_ADDED, DeviceAlreadyAdded.message), None
        return RowReport(row.number, guid, RowOutcome.ADDED, device_id=device_id, credentials=login_of(grant)), grant


class DeviceSheetTemplate:
    def __init__(self, uow: DevicesUnitOfWork, sheets: DeviceSheets) -> None:
        self._uow, self._sheets = uow, sheets

    def __call__(self, headers: Sequence[str]) -> bytes:
        """`headers`: the GUID, name and type columns' titles in the caller's language."""
        with self._uow as uow:
            types = [t for t in uow.device_registry.published_types() if t.addable_on_platform]
        return self._sheets.template(headers, types)
