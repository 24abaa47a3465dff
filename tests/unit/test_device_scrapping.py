"""Scrapping devices and restoring one, on fakes: only the owner, all or nothing, recorded in the
operation log, the broker told once committed; a scrapped device refuses a recharge's quote."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.devices.access import READ_ONLY
from core.devices.credentials import OWNER_ONLY
from core.devices.events import DeviceEventKind
from core.devices.model import in_service
from core.devices.scrapping import MAX_REASON_LENGTH, MAX_SCRAP_BATCH, RestoreDevice, ScrapDevices
from core.shared.errors import DeviceScrapped, Forbidden, InvalidInput, NotFound
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeBrokerAccess
from tests.unit.test_device_registry import ADMIN, MEMBER, NOW, OWNER, STRANGER, _add, _owned_device, _uow


def _scrap(uow, broker=None):
    return ScrapDevices(uow, broker or FakeBrokerAccess(uow), MutableClock(NOW))


def _restore(uow, broker=None):
    return RestoreDevice(uow, broker or FakeBrokerAccess(uow), MutableClock(NOW))


def test_scrapping_marks_the_batch_records_the_reason_and_disables_the_logins_once_committed():
    uow = _uow()
    first, second = _owned_device(uow), _add(uow, guid="RCW360A0000002").device
    broker = FakeBrokerAccess(uow)
    commits = uow.commits
    assert _scrap(uow, broker)(OWNER, [first.id, second.id, first.id], "  Dropped in the river ") == [
        first.id, second.id]
    assert all(uow.device_registry.devices[d.id].scrapped_at == NOW for d in (first, second))
    assert broker.calls == [("disable", [first.guid, second.guid], commits + 1)]
    assert [(e.device_id, e.account_id, e.kind, e.detail) for e in uow.device_events.events] == [
        (first.id, OWNER, DeviceEventKind.SCRAPPED, "Dropped in the river"),
        (second.id, OWNER, DeviceEventKind.SCRAPPED, "Dropped in the river")]


def test_a_device_already_scrapped_keeps_its_first_scrapping():
    uow = _uow()
    device = _owned_device(uow)
    _scrap(uow)(OWNER, [device.id], "lost")
    broker = FakeBrokerAccess(uow)
    assert _scrap(uow, broker)(OWNER, [device.id], "found and lost again") == []
    assert broker.calls == [("disable", [], uow.commits)]
    assert [e.detail for e in uow.device_events.events] == ["lost"]


@pytest.mark.parametrize("caller,error,message", [
    (STRANGER, NotFound, "Not found"), (MEMBER, Forbidden, READ_ONLY), (ADMIN, Forbidden, OWNER_ONLY)])
def test_only_the_owner_scraps_and_one_refused_device_stops_the_batch(caller, error, message):
    uow = _uow()
    shared = _owned_device(uow)
    callers_own = _add(uow, guid="RCW360A0000002").device
    uow.device_registry.visible_to[callers_own.id].add(caller)
    uow.device_registry.writers[callers_own.id].add(caller)
    uow.device_registry.devices[callers_own.id] = replace(callers_own, owner_account_id=caller)
    broker = FakeBrokerAccess(uow)
    with pytest.raises(error) as refused:
        _scrap(uow, broker)(caller, [callers_own.id, shared.id])
    assert refused.value.message == message
    assert all(d.scrapped_at is None for d in uow.device_registry.devices.values())
    assert broker.calls == [] and uow.device_events.events == []


@pytest.mark.parametrize("ids,reason,field", [
    ([], None, "deviceIds"), (list(range(1, MAX_SCRAP_BATCH + 2)), None, "deviceIds"),
    ([1], "x" * (MAX_REASON_LENGTH + 1), "reason")])
def test_a_batch_holds_1_to_200_devices_and_a_short_reason(ids, reason, field):
    uow = _uow()
    _owned_device(uow)
    with pytest.raises(InvalidInput) as refused:
        _scrap(uow)(OWNER, ids, reason)
    assert refused.value.field == field
    assert uow.device_registry.devices[1].scrapped_at is None


def test_restoring_puts_the_device_back_in_service_and_enables_its_login():
    uow = _uow()
    device = _owned_device(uow)
    _scrap(uow)(OWNER, [device.id])
    broker = FakeBrokerAccess(uow)
    assert _restore(uow, broker)(OWNER, device.id) is True
    assert uow.device_registry.devices[device.id].scrapped_at is None
    assert broker.calls == [("enable", [device.guid], uow.commits)]
    assert [e.kind for e in uow.device_events.events] == [DeviceEventKind.SCRAPPED, DeviceEventKind.RESTORED]
    assert _restore(uow, broker)(OWNER, device.id) is False  # in service: nothing to do
    assert len(broker.calls) == 1 and len(uow.device_events.events) == 2


@pytest.mark.parametrize("caller,error", [(STRANGER, NotFound), (MEMBER, Forbidden), (ADMIN, Forbidden)])
def test_only_the_owner_restores(caller, error):
    uow = _uow()
    device = _owned_device(uow)
    _scrap(uow)(OWNER, [device.id])
    with pytest.raises(error):
        _restore(uow)(caller, device.id)
    assert uow.device_registry.devices[device.id].scrapped_at == NOW


def test_a_scrapped_device_is_out_of_service():
    uow = _uow()
    device = _owned_device(uow)
    in_service([device])
    _scrap(uow)(OWNER, [device.id])
    with pytest.raises(DeviceScrapped):
        in_service([device, uow.device_registry.devices[device.id]])
