"""The device registry's rules, on fakes: service state, adding by GUID, who may delete, the
history's limits and retention."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.devices.access import READ_ONLY, Access
from core.devices.commands import AddDevice, ChangeDevice, QueryHistory
from core.devices.credentials import OWNER_ONLY, RotateBrokerCredentials
from core.devices.history import GetDeviceHistory
from core.devices.model import (
    DeviceType,
    VipState,
    add_months,
    data_kept_until,
    format_type_code,
    parse_probes,
    parse_scenes,
    vip_state,
)
from core.devices.registry import AddDeviceByGuid, UpdateDevice
from core.devices.removal import DeleteDevice
from core.devices.retention import PurgeExpiredReadings
from core.devices.rules import country_code_problem, device_name_problem, guid_problem, remark_problem
from core.shared.edition import Edition
from core.shared.errors import DeviceAlreadyAdded, DeviceTypeNotAddable, Forbidden, InvalidInput, NotFound
from core.telemetry.downsample import Point
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeBrokerAccess, FakeBrokerHasher, device_unit_of_work

NOW = datetime(2026, 5, 31, 12, 0, tzinfo=UTC)
OWNER, MEMBER, STRANGER, ADMIN = 1, 2, 3, 4
LOGGER = DeviceType(10, "RCW-360", 0x8001, 0, 2, (1,), ("t", "h"))
APP_ONLY = DeviceType(11, "App logger", 0x8002, 1, 2, (1,), ("t",))
TESTING = DeviceType(12, "Prototype", 0x8003, 0, 1, (2,), ("t",))


@pytest.mark.parametrize("expires_at,state", [
    (None, VipState.NONE),
    (NOW - timedelta(seconds=1), VipState.OVERDUE),
    (NOW, VipState.EXPIRING),
    (NOW + timedelta(days=30) - timedelta(seconds=1), VipState.EXPIRING),
    (NOW + timedelta(days=30), VipState.NONE),
    (datetime(2099, 12, 31, tzinfo=UTC), VipState.NONE),
])
def test_vip_state_is_expiring_within_30_days_and_overdue_once_expired(expires_at, state):
    assert vip_state(expires_at, NOW) is state


def test_lifelong_service_is_never_overdue_even_after_2099():
    assert vip_state(datetime(2099, 12, 31, tzinfo=UTC), datetime(2150, 1, 1, tzinfo=UTC)) is VipState.NONE


def test_months_are_added_on_the_calendar_and_clamped_to_the_month_s_end():
    assert add_months(datetime(2026, 1, 31, 8, tzinfo=UTC), 1) == datetime(2026, 2, 28, 8, tzinfo=UTC)
    assert add_months(datetime(2028, 12, 31, tzinfo=UTC), 2) == datetime(2029, 2, 28, tzinfo=UTC)
    assert add_months(datetime(2026, 5, 31, tzinfo=UTC), -3) == datetime(2026, 2, 28, tzinfo=UTC)
    assert data_kept_until(datetime(2026, 1, 15, tzinfo=UTC)) == datetime(2026, 4, 15, tzinfo=UTC)
    assert data_kept_until(datetime(2099, 12, 31, tzinfo=UTC)) is None and data_kept_until(None) is None


def test_scenes_probes_and_type_codes_are_read_and_written_as_the_console_shows_them():
    assert parse_scenes("1,3, 3,x") == (1, 3)
    assert parse_probes("h, t,z") == ("t", "h")
    assert format_type_code(0x8001) == "0x8001" and format_type_code(0x1ABCDE) == "0x1ABCDE"


def test_field_rules():
    assert guid_problem("RCW360A0") is None and guid_problem("a" * 32) is None
    assert guid_problem("RCW360A") and guid_problem("a" * 33) and guid_problem("RCW-360A0001")
    assert device_name_problem(" x ") is None and device_name_problem("   ") and device_name_problem("x" * 51)
    assert remark_problem("r" * 120) is None and remark_problem("r" * 121)
    assert country_code_problem("86", Edition.DOMESTIC) is None and country_code_problem("1", Edition.DOMESTIC)
    assert country_code_problem("351", Edition.INTERNATIONAL) is None
    assert country_code_problem("12345", Edition.INTERNATIONAL) and country_code_problem("+1", Edition.INTERNATIONAL)


def _uow():
    uow = device_unit_of_work()
    for t in (LOGGER, APP_ONLY, TESTING):
        uow.device_registry.types[t.id] = t
    uow.device_registry.free_levels[LOGGER.id] = 7
    return uow


def _add(uow, guid="RCW360A0000001", type_id=LOGGER.id, edition=Edition.DOMESTIC, broker=None, **fields):
    add = AddDeviceByGuid(uow, MutableClock(NOW), edition, FakeBrokerHasher(), broker or FakeBrokerAccess(uow))
    return add(AddDevice(OWNER, guid, fields.pop("name", "Fridge"), type_id, **fields))


def test_a_new_device_gets_two_months_of_free_service_and_its_broker_login_at_once():
    uow = _uow()
    added = _add(uow, remark=" by the door ")
    [new] = uow.device_registry.added
    assert (new.level_id, new.service_expires_at, new.country_code) == (7, datetime(2026, 7, 31, 12, tzinfo=UTC), "86")
    assert new.remark == "by the door" and new.owner_account_id == OWNER
    assert added.credentials.username == "RCW360A0000001" and len(added.credentials.password) >= 24
    username, password_hash, _ = uow.broker_credentials.rows[added.device.id]
    assert (username, password_hash) == ("RCW360A0000001", f"hashed:{added.credentials.password}")
    assert added.device.vip_state is VipState.NONE and uow.commits == 1


def test_a_guid_is_added_once_whatever_the_case_of_its_letters():
    uow = _uow()
    _add(uow)
    with pytest.raises(DeviceAlreadyAdded):
        _add(uow, guid="rcw360a0000001")


@pytest.mark.parametrize("type_id,error", [(APP_ONLY.id, DeviceTypeNotAddable), (TESTING.id, DeviceTypeNotAddable),
                                           (99, NotFound)])
def test_only_published_types_not_reserved_to_the_app_can_be_added(type_id, error):
    uow = _uow()
    with pytest.raises(error):
        _add(uow, type_id=type_id)
    assert uow.device_registry.added == [] and uow.broker_credentials.rows == {}


def test_bad_fields_are_reported_together_and_the_domestic_country_code_is_86():
    with pytest.raises(InvalidInput) as refused:
        _add(_uow(), guid="short", name=" ", country_code="1")
    assert set(refused.value.problems) == {"deviceGuid", "deviceName", "countryCode"}
    added = _add(_uow(), edition=Edition.INTERNATIONAL, country_code="351")
    assert added.device.country_code == "351"
    assert _add(_uow(), edition=Edition.INTERNATIONAL).device.country_code == "1"


def _owned_device(uow):
    """A device of OWNER's organization, where ADMIN administers and MEMBER is a member."""
    device = _add(uow).device
    uow.device_registry.visible_to[device.id] |= {MEMBER, ADMIN}
    uow.device_registry.writers[device.id].add(ADMIN)
    return device


def test_members_only_read_administrators_change_and_only_the_owner_deletes_or_rotates():
    uow = _uow()
    device = _owned_device(uow)
    clock = MutableClock(NOW)
    update = UpdateDevice(uow, clock, Edition.DOMESTIC)
    with pytest.raises(Forbidden) as refused:
        update(ChangeDevice(MEMBER, device.id, remark="mine"))
    assert refused.value.message == READ_ONLY and uow.device_registry.devices[device.id].remark == device.remark
    changed = update(ChangeDevice(ADMIN, device.id, name="Renamed", remark=""))
    assert (changed.name, changed.remark, changed.access) == ("Renamed", None, Access.WRITE)
    for caller, message in ((MEMBER, READ_ONLY), (ADMIN, OWNER_ONLY)):
        broker = FakeBrokerAccess(uow)
        for call in (DeleteDevice(uow, broker, clock), RotateBrokerCredentials(uow, FakeBrokerHasher(), clock, broker)):
            with pytest.raises(Forbidden) as refused:
                call(caller, device.id)
            assert refused.value.message == message
    for call in (lambda: DeleteDevice(uow, FakeBrokerAccess(uow), MutableClock(NOW))(STRANGER, device.id),
                 lambda: update(ChangeDevice(STRANGER, device.id, name="x"))):
        with pytest.raises(NotFound):
            call()
    assert uow.device_registry.deleted == []


def test_an_unknown_device_and_one_the_caller_may_not_see_are_the_same_not_found():
    uow = _uow()
    device = _owned_device(uow)
    for device_id in (device.id, 999):
        with pytest.raises(NotFound) as refused:
            DeleteDevice(uow, FakeBrokerAccess(uow), MutableClock(NOW))(STRANGER, device_id)
        assert (refused.value.code, refused.value.message) == (404, "Not found")


def test_rotating_replaces_the_stored_hash_and_tells_the_broker_once_committed():
    uow = _uow()
    device = _owned_device(uow)
    broker = FakeBrokerAccess(uow)
    commits = uow.commits
    login = RotateBrokerCredentials(uow, FakeBrokerHasher(), MutableClock(NOW), broker, lambda: "fresh-password")(
        OWNER, device.id)
    assert login.password == "fresh-password"
    assert uow.broker_credentials.rows[device.id][1] == "hashed:fresh-password"
    assert broker.calls == [("grant", [(device.guid, "fresh-password", "hashed:fresh-password")], commits + 1)]


def test_a_new_device_s_login_reaches_the_broker_once_committed_and_a_refused_one_never():
    uow = _uow()
    broker = FakeBrokerAccess(uow)
    added = _add(uow, broker=broker)
    assert broker.calls == [("grant", [("RCW360A0000001", added.credentials.password,
                                        f"hashed:{added.credentials.password}")], 1)]
    with pytest.raises(DeviceAlreadyAdded):
        _add(uow, guid="rcw360a0000001", broker=broker)
    assert len(broker.calls) == 1


def test_a_deleted_device_is_revoked_at_the_broker_once_committed_and_a_refused_deletion_revokes_nothing():
    uow = _uow()
    device = _owned_device(uow)
    broker = FakeBrokerAccess(uow)
    with pytest.raises(Forbidden):
        DeleteDevice(uow, broker, MutableClock(NOW))(MEMBER, device.id)
    commits = uow.commits
    DeleteDevice(uow, broker, MutableClock(NOW))(OWNER, device.id)
    assert broker.calls == [("revoke", [device.guid], commits + 1)]


def test_deleting_a_device_deletes_its_readings_in_batches():
    uow = _uow()
    device = _owned_device(uow)
    uow.history.readings[device.id] = [Point(NOW - timedelta(minutes=i), 4.0, 50.0) for i in range(25)]
    DeleteDevice(uow, FakeBrokerAccess(uow), MutableClock(NOW), batch_size=10)(OWNER, device.id)
    assert uow.device_registry.deleted == [device.id]
    assert uow.history.batches == [10, 10, 5] and uow.history.readings[device.id] == []


def _history(uow, since, until, max_points=2000, account_id=OWNER, device_id=1):
    return GetDeviceHistory(uow)(QueryHistory(account_id, device_id, since, until, max_points))


def test_history_is_raw_while_it_fits_and_downsampled_past_max_points():
    uow = _uow()
    device = _owned_device(uow)
    uow.history.readings[device.id] = [Point(NOW - timedelta(minutes=i), 4.0 + (i % 7), 50.0) for i in range(300)]
    since = NOW - timedelta(hours=6)
    raw = _history(uow, since, NOW, 300)
    assert (raw.downsampled, raw.total, len(raw.points)) == (False, 300, 300)
    small = _history(uow, since, NOW, 40)
    assert small.downsampled and small.total == 300 and len(small.points) <= 40
    assert max(p.temperature for p in small.points) == 10.0


def test_history_needs_an_ordered_range_of_at_most_366_days_on_a_visible_device():
    uow = _uow()
    _owned_device(uow)
    for since, until in ((NOW, NOW), (NOW, NOW - timedelta(seconds=1)), (NOW - timedelta(days=366, seconds=1), NOW)):
        with pytest.raises(InvalidInput) as refused:
            _history(uow, since, until)
        assert set(refused.value.problems) == {"endTime"}
    assert _history(uow, NOW - timedelta(days=366), NOW).total == 0
    with pytest.raises(NotFound):
        _history(uow, NOW - timedelta(days=1), NOW, account_id=STRANGER)


def test_retention_keeps_three_months_after_expiry_and_never_touches_lifelong_service():
    from dataclasses import replace

    uow = _uow()
    clock = MutableClock(NOW)
    expired = _owned_device(uow)
    lifelong = _add(uow, guid="LIFELONG00001").device
    registry = uow.device_registry
    registry.devices[expired.id] = replace(expired, service_expires_at=datetime(2026, 2, 28, tzinfo=UTC))
    registry.devices[lifelong.id] = replace(lifelong, service_expires_at=datetime(2099, 12, 31, tzinfo=UTC))
    days = [datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=d) for d in range(0, 150, 10)]
    for device_id in (expired.id, lifelong.id):
        uow.history.readings[device_id] = [Point(ts, 4.0, None) for ts in days]
    report = PurgeExpiredReadings(uow, clock, batch_size=4)()
    kept_from = datetime(2026, 5, 28, tzinfo=UTC)
    assert [p.ts for p in uow.history.readings[expired.id]] == [ts for ts in days if ts >= kept_from]
    assert len(uow.history.readings[lifelong.id]) == len(days)
    assert report.readings == report.per_device[expired.id] == len([ts for ts in days if ts < kept_from])
    clock.advance(days=-4)  # 3 months after expiry not yet reached: nothing more goes
    uow.history.readings[expired.id].append(Point(datetime(2026, 1, 2, tzinfo=UTC), 1.0, None))
    assert PurgeExpiredReadings(uow, clock)().readings == 0


def test_a_new_broker_password_never_starts_with_a_dash(monkeypatch):
    from core.devices import credentials
    drawn = iter(["-leading-dash-is-drawn-ag", "a" * 24])
    monkeypatch.setattr(credentials.secrets, "token_urlsafe", lambda n: next(drawn))
    assert credentials.new_password() == "a" * 24


def test_retention_waits_while_fda_mode_keeps_the_device_s_records_and_stops_when_it_is_switched_on():
    from dataclasses import replace

    from core.fda.model import Subject

    uow = _uow()
    clock = MutableClock(NOW)
    device = _owned_device(uow)
    uow.device_registry.devices[device.id] = replace(device, service_expires_at=datetime(2026, 2, 28, tzinfo=UTC))
    days = [datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=d) for d in range(0, 150, 10)]
    uow.history.readings[device.id] = [Point(ts, 4.0, None) for ts in days]
    uow.fda_switches.set_on(Subject(account_id=OWNER), True)
    report = PurgeExpiredReadings(uow, clock, batch_size=4)()
    assert (report.readings, report.kept, len(uow.history.readings[device.id])) == (0, 1, len(days))
    # switched on while the purge is under way: the batches after it keep the rest
    uow.fda_switches.set_on(Subject(account_id=OWNER), False)
    delete_batch = uow.history.delete_batch

    def then_switched_on(*args):
        uow.fda_switches.set_on(Subject(account_id=OWNER), True)
        return delete_batch(*args)

    uow.history.delete_batch = then_switched_on
    assert PurgeExpiredReadings(uow, clock, batch_size=4)().readings == 4
