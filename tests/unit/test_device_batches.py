"""Deleting devices in a batch, clearing a device's data and adding devices from a sheet, on
fakes: all-or-nothing deletion, who may do what, what is recorded, the row-by-row report."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from core.devices.access import READ_ONLY
from core.devices.credentials import OWNER_ONLY
from core.devices.events import DeviceEventKind
from core.devices.model import DeviceType
from core.devices.ports import SheetRow
from core.devices.removal import MAX_BATCH_DELETE, ClearDeviceData, DeleteDevices
from core.devices.rules import GUID_PROBLEM
from core.devices.sheets import (
    MAX_SHEET_BYTES,
    NO_ROWS,
    SHEET_TOO_BIG,
    UNKNOWN_TYPE,
    AddDevicesFromSheet,
    RowOutcome,
    SheetRefused,
)
from core.shared.edition import Edition
from core.shared.errors import Forbidden, InvalidInput, NotFound, RecordsKeptByFda
from core.telemetry.downsample import Point
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeBrokerAccess, FakeBrokerHasher
from tests.unit.test_device_registry import ADMIN, LOGGER, MEMBER, NOW, OWNER, STRANGER, _add, _owned_device, _uow

SENSOR = DeviceType(13, "T-Sensor", 0x8005, 2, 2, (1,), ("t",))


def _delete(uow, broker=None):
    return DeleteDevices(uow, broker or FakeBrokerAccess(uow), MutableClock(NOW), batch_size=10)


def test_a_batch_is_deleted_whole_with_its_readings_recorded_and_revoked_once_committed():
    uow = _uow()
    first, second = _owned_device(uow), _add(uow, guid="RCW360A0000002").device
    uow.history.readings[first.id] = [Point(NOW - timedelta(minutes=i), 4.0, None) for i in range(12)]
    broker = FakeBrokerAccess(uow)
    commits = uow.commits
    assert _delete(uow, broker)(OWNER, [first.id, second.id, first.id]) == 12
    assert uow.device_registry.deleted == [first.id, second.id]
    assert broker.calls == [("revoke", [first.guid, second.guid], commits + 1)]
    assert [(e.device_id, e.device_guid, e.account_id, e.kind, e.at) for e in uow.device_events.events] == [
        (first.id, first.guid, OWNER, DeviceEventKind.DELETED, NOW),
        (second.id, second.guid, OWNER, DeviceEventKind.DELETED, NOW)]


@pytest.mark.parametrize("caller,error,message", [
    (STRANGER, NotFound, "Not found"), (MEMBER, Forbidden, READ_ONLY), (ADMIN, Forbidden, OWNER_ONLY)])
def test_one_device_the_caller_may_not_delete_stops_the_whole_batch(caller, error, message):
    uow = _uow()
    shared = _owned_device(uow)  # MEMBER reads it, ADMIN changes it, STRANGER does not see it
    callers_own = _add(uow, guid="RCW360A0000002").device
    uow.device_registry.visible_to[callers_own.id].add(caller)
    uow.device_registry.writers[callers_own.id].add(caller)
    uow.device_registry.devices[callers_own.id] = replace(callers_own, owner_account_id=caller)
    broker = FakeBrokerAccess(uow)
    with pytest.raises(error) as refused:
        _delete(uow, broker)(caller, [callers_own.id, shared.id])
    assert refused.value.message == message
    assert uow.device_registry.deleted == [] and broker.calls == [] and uow.device_events.events == []


@pytest.mark.parametrize("ids", [[], list(range(1, MAX_BATCH_DELETE + 2))])
def test_a_batch_holds_1_to_200_devices(ids):
    with pytest.raises(InvalidInput) as refused:
        _delete(_uow())(OWNER, ids)
    assert refused.value.field == "deviceIds"


def test_clearing_data_deletes_readings_and_alarm_records_keeps_the_device_and_records_who():
    uow = _uow()
    device = _owned_device(uow)
    uow.history.readings[device.id] = [Point(NOW - timedelta(minutes=i), 4.0, None) for i in range(25)]
    uow.device_registry.alarms[device.id] = 3
    assert ClearDeviceData(uow, MutableClock(NOW), batch_size=10)(OWNER, device.id) == (25, 3)
    assert uow.history.readings[device.id] == [] and device.id in uow.device_registry.devices
    [event] = uow.device_events.events
    assert (event.account_id, event.kind, event.detail) == (OWNER, DeviceEventKind.DATA_CLEARED, "alarms=3")


# the readings are the records an audit asks for: an administrator of the device's organization,
# who changes it, may no more clear them than delete the device
@pytest.mark.parametrize("caller,error", [(MEMBER, Forbidden), (ADMIN, Forbidden), (STRANGER, NotFound)])
def test_only_the_owner_clears_a_device_s_data(caller, error):
    uow = _uow()
    device = _owned_device(uow)
    uow.history.readings[device.id] = [Point(NOW, 4.0, None)]
    with pytest.raises(error):
        ClearDeviceData(uow, MutableClock(NOW))(caller, device.id)
    assert len(uow.history.readings[device.id]) == 1 and uow.device_events.events == []


class ListedSheets:
    """A sheet already read: the rows it holds."""

    def __init__(self, rows) -> None:
        self.rows = [SheetRow(number, *row) for number, row in enumerate(rows, start=2)]

    def read(self, data: bytes):
        return self.rows

    def template(self, headers, types) -> bytes:
        return b""


def _sheet(uow, rows, broker=None, default_type_id=None, data=b"xlsx"):
    add = AddDevicesFromSheet(uow, MutableClock(NOW), Edition.DOMESTIC, FakeBrokerHasher(),
                              broker or FakeBrokerAccess(uow), ListedSheets(rows))
    return add(OWNER, data, default_type_id)


def test_each_row_is_added_or_reported_with_why_not():
    uow = _uow()
    uow.device_registry.types[SENSOR.id] = SENSOR
    _add(uow, guid="TAKEN0000001")
    broker = FakeBrokerAccess(uow)
    reports = _sheet(uow, [
        ("NEWGUID00001", "Fridge 1", "0x8001"), ("NEWGUID00002", "", "t-sensor"), ("taken0000001", "x", ""),
        ("NEWGUID00001", "again", ""), ("short", "x", ""), ("NEWGUID00003", "x", "0x8002"),  # 0x8002: app only
        ("NEWGUID00004", "x", "0x9999"), ("NEWGUID00005", "x", ""),
    ], broker=broker, default_type_id=LOGGER.id)
    assert [(r.number, r.outcome) for r in reports] == [
        (2, RowOutcome.ADDED), (3, RowOutcome.ADDED), (4, RowOutcome.ALREADY_ADDED), (5, RowOutcome.ALREADY_ADDED),
        (6, RowOutcome.INVALID), (7, RowOutcome.UNKNOWN_TYPE), (8, RowOutcome.UNKNOWN_TYPE), (9, RowOutcome.ADDED)]
    assert reports[4].problem == GUID_PROBLEM and reports[5].problem == UNKNOWN_TYPE
    added = {new.guid: (new.name, new.type_id) for new in uow.device_registry.added}
    assert added["NEWGUID00002"] == ("NEWGUID00002", SENSOR.id) and added["NEWGUID00005"] == ("x", LOGGER.id)
    [(call, grants, commits)] = broker.calls
    assert call == "grant" and [g[0] for g in grants] == ["NEWGUID00001", "NEWGUID00002", "NEWGUID00005"]
    assert commits == uow.commits and all(r.credentials for r in reports if r.outcome is RowOutcome.ADDED)


def test_rows_without_a_type_and_no_default_are_of_an_unknown_type():
    [report] = _sheet(_uow(), [("NEWGUID00001", "x", "")])
    assert report.outcome is RowOutcome.UNKNOWN_TYPE


@pytest.mark.parametrize("rows,data,message", [
    ([], b"xlsx", NO_ROWS), ([("NEWGUID00001", "x", "0x8001")], b"x" * (MAX_SHEET_BYTES + 1), SHEET_TOO_BIG)])
def test_an_empty_or_oversized_sheet_is_refused_whole(rows, data, message):
    uow = _uow()
    with pytest.raises(SheetRefused) as refused:
        _sheet(uow, rows, data=data)
    assert (refused.value.field, refused.value.message) == ("file", message)
    assert uow.device_registry.added == [] and uow.commits == 0


# --- FDA mode keeps a device's records (21 CFR Part 11) ----------------------------------------------


def _fda_on(uow, device) -> None:
    from core.fda.model import Subject

    uow.fda_switches.set_on(Subject.of_device(device.owner_account_id, device.organization_id), True)


def test_while_fda_mode_keeps_one_device_s_records_no_device_of_the_batch_is_deleted():
    uow = _uow()
    other, kept = _owned_device(uow), _add(uow, guid="RCW360A0000002", name="Freezer 2").device
    kept = uow.device_registry.devices[kept.id] = replace(kept, organization_id=77)  # the organization's record
    uow.history.readings[kept.id] = [Point(NOW, 4.0, None)]
    _fda_on(uow, kept)
    broker = FakeBrokerAccess(uow)
    with pytest.raises(RecordsKeptByFda) as refused:
        _delete(uow, broker)(OWNER, [other.id, kept.id])
    assert refused.value.params == {"device": kept.name}
    assert uow.device_registry.deleted == [] and broker.calls == [] and uow.device_events.events == []
    assert len(uow.history.readings[kept.id]) == 1


def test_while_fda_mode_keeps_a_device_s_records_its_data_is_not_cleared():
    uow = _uow()
    device = _owned_device(uow)
    uow.history.readings[device.id] = [Point(NOW, 4.0, None)]
    uow.device_registry.alarms[device.id] = 2
    _fda_on(uow, device)
    with pytest.raises(RecordsKeptByFda):
        ClearDeviceData(uow, MutableClock(NOW))(OWNER, device.id)
    assert len(uow.history.readings[device.id]) == 1 and uow.device_registry.alarms[device.id] == 2
    assert uow.device_events.events == []


def test_fda_mode_of_another_subject_does_not_keep_the_device_s_records():
    """An organization's device is the organization's record: its owner's own switch says nothing of it."""
    from core.fda.model import Subject

    uow = _uow()
    device = replace(_owned_device(uow), organization_id=77)
    uow.device_registry.devices[device.id] = device
    uow.fda_switches.set_on(Subject(account_id=OWNER), True)
    assert ClearDeviceData(uow, MutableClock(NOW))(OWNER, device.id) == (0, 0)
