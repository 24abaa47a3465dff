from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.devices.access import Access
from core.devices.expiry import (
    LIFELONG_FROM,
    ExpiredFlag,
    ExpiringDevice,
    ExpiryReminder,
    ExpiryWindow,
    ReminderFlag,
    is_lifelong,
)
from core.devices.queries import GetExpiryReminder, ListExpiringDevices
from core.shared.errors import NotFound
from core.shared.paging import PageRequest
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeDeviceExpiryRepository, FakeUnitOfWork

NOW = datetime(2026, 3, 10, 8, 30, tzinfo=UTC)
TICK = timedelta(microseconds=1)
DAYS_30, DAYS_90 = timedelta(days=30), timedelta(days=90)


def in_window(flag: ExpiredFlag, expires_at: datetime | None, now: datetime = NOW) -> bool:
    return ExpiryWindow.of(flag, now).contains(expires_at)


@pytest.mark.parametrize("expires_at,expected", [
    (NOW - timedelta(days=400), True), (NOW - TICK, True), (NOW, False), (NOW + TICK, False),
])
def test_a_device_has_expired_only_once_its_expiry_instant_has_passed(expires_at, expected):
    assert in_window(ExpiredFlag.EXPIRED, expires_at) is expected


@pytest.mark.parametrize("flag,ahead", [(ExpiredFlag.WITHIN_30_DAYS, DAYS_30), (ExpiredFlag.WITHIN_90_DAYS, DAYS_90)])
@pytest.mark.parametrize("from_end,offset,expected", [
    (False, -TICK, False), (False, timedelta(0), True), (False, TICK, True), (True, -TICK, True),
    (True, timedelta(0), False),
], ids=["just-expired", "expires-now", "just-after-now", "last-instant-of-window", "end-of-window"])
def test_expiring_means_from_now_up_to_but_not_including_the_end_of_the_window(flag, ahead, from_end, offset,
                                                                                  expected):
    assert in_window(flag, (NOW + ahead if from_end else NOW) + offset) is expected


def test_the_90_day_window_holds_the_30_day_window():
    for days in (0, 29, 30, 60, 89):
        expires_at = NOW + timedelta(days=days)
        assert in_window(ExpiredFlag.WITHIN_90_DAYS, expires_at)
        assert in_window(ExpiredFlag.WITHIN_30_DAYS, expires_at) is (days < 30)
    assert not in_window(ExpiredFlag.WITHIN_90_DAYS, NOW + DAYS_90)


def test_every_device_with_an_expiry_date_is_listed_under_any_expiry_including_lifelong_ones():
    for expires_at in (NOW - timedelta(days=999), NOW, NOW + timedelta(days=999), LIFELONG_FROM,
                       datetime(2099, 12, 31, 23, 59, 59, tzinfo=UTC)):
        assert in_window(ExpiredFlag.ANY_EXPIRY, expires_at)


@pytest.mark.parametrize("flag", list(ExpiredFlag))
def test_a_device_without_an_expiry_date_is_in_no_list(flag):
    assert not in_window(flag, None)


def test_lifelong_starts_in_2099():
    assert is_lifelong(datetime(2099, 1, 1, tzinfo=UTC))
    assert is_lifelong(datetime(2099, 12, 31, 23, 59, 59, tzinfo=UTC))
    assert not is_lifelong(datetime(2099, 1, 1, tzinfo=UTC) - TICK)


@pytest.mark.parametrize("now", [datetime(2098, 12, 1, tzinfo=UTC), datetime(2100, 6, 1, tzinfo=UTC)])
def test_lifelong_service_is_never_expiring_nor_expired(now):
    lifelong = datetime(2099, 12, 31, 23, 59, 59, tzinfo=UTC)
    for flag in (ExpiredFlag.EXPIRED, ExpiredFlag.WITHIN_30_DAYS, ExpiredFlag.WITHIN_90_DAYS):
        assert not in_window(flag, LIFELONG_FROM, now)
        assert not in_window(flag, lifelong, now)
    assert in_window(ExpiredFlag.ANY_EXPIRY, lifelong, now)


def test_the_last_ordinary_instant_before_lifelong_still_expires():
    last = LIFELONG_FROM - TICK
    assert in_window(ExpiredFlag.WITHIN_30_DAYS, last, LIFELONG_FROM - timedelta(days=1))
    assert in_window(ExpiredFlag.EXPIRED, last, datetime(2100, 6, 1, tzinfo=UTC))


@pytest.mark.parametrize("expired,expiring,flag,text", [
    (0, 0, ReminderFlag.NONE, None),
    (2, 1, ReminderFlag.EXPIRED, "Devices with expired service: 2; expiring within 30 days: 1"),
    (3, 0, ReminderFlag.EXPIRED, "Devices with expired service: 3"),
    (0, 4, ReminderFlag.EXPIRING, "Devices whose service expires within 30 days: 4"),
])
def test_the_reminder_warns_about_the_most_urgent_state_and_counts_both(expired, expiring, flag, text):
    reminder = ExpiryReminder(7, expired, expiring)
    assert reminder.flag == flag
    assert (reminder.message.format(**reminder.params) if reminder.message else None) == text


def device(id_: int, type_name: str, expires_at: datetime) -> ExpiringDevice:
    return ExpiringDevice(id_, id_ * 10, type_name, f"device {id_}", f"GUID{id_}", expires_at, Access.WRITE)


@pytest.fixture
def uow():
    uow = FakeUnitOfWork()
    uow.devices = FakeDeviceExpiryRepository()
    for d in (device(1, "B type", NOW - timedelta(days=3)), device(2, "A type", NOW + timedelta(days=3)),
              device(3, "B type", NOW + timedelta(days=10)), device(4, "A type", NOW + timedelta(days=60)),
              device(5, "A type", datetime(2099, 12, 31, tzinfo=UTC))):
        uow.devices.add(1, d)
    uow.devices.add(2, device(9, "A type", NOW - timedelta(days=1)))
    return uow


def test_listing_uses_the_clock_and_the_filter(uow):
    list_expiring = ListExpiringDevices(uow, MutableClock(NOW))
    ids = {flag: [d.id for d in list_expiring(1, flag, PageRequest(1, 5)).items] for flag in ExpiredFlag}
    assert ids == {ExpiredFlag.EXPIRED: [1], ExpiredFlag.WITHIN_30_DAYS: [2, 3], ExpiredFlag.WITHIN_90_DAYS: [2, 4, 3],
                   ExpiredFlag.ANY_EXPIRY: [2, 4, 5, 1, 3]}


def test_a_caller_may_name_its_own_account_or_none_and_another_is_answered_as_unknown(uow):
    list_expiring = ListExpiringDevices(uow, MutableClock(NOW))
    assert list_expiring(1, ExpiredFlag.EXPIRED, PageRequest(1, 5), account_id=1).total_count == 1
    assert list_expiring(1, ExpiredFlag.EXPIRED, PageRequest(1, 5)).total_count == 1
    with pytest.raises(NotFound):
        list_expiring(1, ExpiredFlag.EXPIRED, PageRequest(1, 5), account_id=2)


def test_the_reminder_counts_expired_and_expiring_devices_of_the_account(uow):
    clock = MutableClock(NOW)
    remind = GetExpiryReminder(uow, clock)
    assert remind(1) == ExpiryReminder(1, expired=1, expiring=2)
    assert remind(2) == ExpiryReminder(2, expired=1, expiring=0)
    assert remind(3) == ExpiryReminder(3, expired=0, expiring=0)
    clock.advance(days=5)
    assert remind(1) == ExpiryReminder(1, expired=2, expiring=1)
