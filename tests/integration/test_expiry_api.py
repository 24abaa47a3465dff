"""The expired-service dialog and the expiry reminder after login (api-contract section 4)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import delete, select, update

from adapters.persistence.models import AccountRow, DeviceRow, OrganizationMemberRow

pytestmark = pytest.mark.usefixtures("demo")

LIST = "/device/Device/getExpiredServiceDevice"
INFO = "/device/DeviceExpireInfo/getExpiredInfoByType"


def expired_devices(api, token, **query):
    reply = api.call("GET", LIST, token=token, query=query)
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


def names(api, token, **query) -> list[str]:
    return [row["deviceName"] for row in expired_devices(api, token, **query)["list"]]


def set_expiry(container, guid: str, expires_at: datetime) -> None:
    with container.session_factory()() as session:
        session.execute(update(DeviceRow).where(DeviceRow.guid == guid).values(service_expires_at=expires_at))
        session.commit()


def expiry_of(container, guid: str) -> datetime:
    with container.session_factory()() as session:
        return session.scalar(select(DeviceRow.service_expires_at).where(DeviceRow.guid == guid))


def account_id(container, user_name: str) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(AccountRow.id).where(AccountRow.user_name == user_name))


def test_already_expired_lists_exactly_alice_s_expired_device(api):
    data = expired_devices(api, api.token("alice"), expiredFlag=1)
    assert data["total"] == 1
    [row] = data["list"]
    assert set(row) == {"id", "typeId", "deviceTypeName", "deviceName", "deviceGuid", "serviceExpiredDate", "access"}
    assert (row["deviceName"], row["deviceGuid"], row["deviceTypeName"]) == (
        "Vaccine fridge logger", "RCW360A0000003", "RCW-360 Wi-Fi Logger")
    assert row["id"] > 0 and row["typeId"] > 0


def test_expiring_within_30_days_is_the_default_filter(api):
    token = api.token("alice")
    assert names(api, token, expiredFlag=2) == ["Cold room B logger"]
    assert names(api, token) == ["Cold room B logger"]


def test_within_90_days_adds_what_expires_later_but_never_what_has_expired(api):
    assert names(api, api.token("alice"), expiredFlag=3) == ["Dock cold room", "Cold room B logger"]


def test_every_expiry_date_includes_lifelong_service_sorted_by_type_then_expiry(api):
    data = expired_devices(api, api.token("alice"), expiredFlag=4, pageSize=10)
    assert data["total"] == 6
    assert [(r["deviceTypeName"], r["deviceName"]) for r in data["list"]] == [
        ("CR-2 Cold Room Monitor", "Dock cold room"),
        ("FZ-1 Freezer Monitor", "Pharmacy freezer"),
        ("LogEt 8 4G Logger", "Truck 12 tracker"),
        ("RCW-360 Wi-Fi Logger", "Vaccine fridge logger"),
        ("RCW-360 Wi-Fi Logger", "Cold room B logger"),
        ("RCW-360 Wi-Fi Logger", "Cold room A logger"),
    ]
    lifelong = next(r for r in data["list"] if r["deviceName"] == "Truck 12 tracker")
    assert lifelong["serviceExpiredDate"][:4] in ("2099", "2100")


def test_a_device_moves_from_expiring_to_expired_as_time_passes(api, container, clock):
    expires_at = expiry_of(container, "RCW360A0000002")
    clock.advance(seconds=(expires_at - clock.now()).total_seconds())
    assert clock.now() == expires_at
    token = api.token("alice")
    assert "Cold room B logger" in names(api, token, expiredFlag=2)  # expiring at this very instant
    assert "Cold room B logger" not in names(api, token, expiredFlag=1)
    clock.advance(seconds=1)
    assert names(api, token, expiredFlag=1) == ["Vaccine fridge logger", "Cold room B logger"]
    assert names(api, token, expiredFlag=2) == []


def test_lifelong_service_never_expires_even_after_2099(api, clock):
    clock.advance(seconds=(datetime(2100, 6, 1, tzinfo=UTC) - clock.now()).total_seconds())
    token = api.token("alice")
    expired = names(api, token, expiredFlag=1, pageSize=10)
    assert len(expired) == 5 and "Truck 12 tracker" not in expired
    assert "Truck 12 tracker" in names(api, token, expiredFlag=4, pageSize=10)


def test_the_dialog_pages_five_rows_by_default_and_counts_them_all(api):
    token = api.token("alice")
    first = expired_devices(api, token, expiredFlag=4)
    assert (len(first["list"]), first["total"]) == (5, 6)
    second = expired_devices(api, token, expiredFlag=4, pageSize=1, start=2)
    assert second["total"] == 6 and [r["deviceName"] for r in second["list"]] == ["Pharmacy freezer"]
    assert expired_devices(api, token, expiredFlag=4, start=2)["list"][0]["deviceName"] == "Cold room A logger"
    beyond = expired_devices(api, token, expiredFlag=4, start=3)
    assert (beyond["list"], beyond["total"]) == ([], 6)


def test_organization_members_see_its_devices_and_nobody_else_does(api, container):
    bob = api.token("bob")
    assert names(api, bob, expiredFlag=4) == ["Warehouse 1 cold room", "Warehouse 1 door logger"]
    assert names(api, bob, expiredFlag=2) == ["Warehouse 1 door logger"]
    assert names(api, api.token("acme"), expiredFlag=4) == ["Warehouse 1 cold room", "Warehouse 1 door logger"]
    alice = names(api, api.token("alice"), expiredFlag=4, pageSize=200)
    assert not any(name.startswith("Warehouse") for name in alice)
    assert expired_devices(api, api.token("operator"), expiredFlag=4)["total"] == 0
    with container.session_factory()() as session:
        session.execute(delete(OrganizationMemberRow).where(
            OrganizationMemberRow.account_id == account_id(container, "bob")))
        session.commit()
    assert expired_devices(api, bob, expiredFlag=4) == {"list": [], "total": 0}


def test_each_row_says_whether_the_caller_may_recharge_the_device(api):
    """A member of the organization only reads its devices (access 1): the dialog must not offer
    them for a batch recharge, which the server would refuse with 403."""
    access = lambda token: {r["deviceName"]: r["access"]  # noqa: E731
                            for r in expired_devices(api, token, expiredFlag=4, pageSize=10)["list"]}
    assert access(api.token("bob")) == {"Warehouse 1 cold room": 1, "Warehouse 1 door logger": 1}
    assert access(api.token("acme")) == {"Warehouse 1 cold room": 2, "Warehouse 1 door logger": 2}
    assert set(access(api.token("alice")).values()) == {2}


def test_account_id_may_only_name_the_caller_and_others_are_answered_as_unknown(api, container):
    token = api.token("alice")
    assert names(api, token, accountId=account_id(container, "alice"), expiredFlag=1) == ["Vaccine fridge logger"]
    for other in (account_id(container, "acme"), account_id(container, "bob"), 999_999):
        refused = api.call("GET", LIST, token=token, query={"accountId": other, "expiredFlag": 4})
        assert (refused.status, refused.body) == (404, {"code": 404, "msg": "Not found", "data": None})


@pytest.mark.parametrize("path,query", [(LIST, {}), (INFO, {"type": 1})])
def test_both_calls_need_a_token(api, path, query):
    reply = api.call("GET", path, query=query)
    assert (reply.status, reply.code) == (401, 2010)


@pytest.mark.parametrize("query,field", [
    ({"expiredFlag": 0}, "expiredFlag"), ({"expiredFlag": 5}, "expiredFlag"), ({"expiredFlag": "x"}, "expiredFlag"),
    ({"start": 0}, "start"), ({"pageSize": 0}, "pageSize"), ({"pageSize": 201}, "pageSize"),
    ({"accountId": 0}, "accountId"), ({"sortField": "deviceName"}, "sortField"),
])
def test_the_dialog_s_query_is_checked(api, query, field):
    reply = api.call("GET", LIST, token=api.token("alice"), query=query)
    assert (reply.status, reply.code) == (422, 422) and field in reply.body["errors"]


def test_the_expiry_date_is_the_date_in_the_caller_s_time_zone(api, container, clock):
    # 20:00 UTC is 04:00 the next day in Shanghai and 12:00 or 13:00 the same day in Los Angeles.
    day = (clock.now() + timedelta(days=10)).date()
    set_expiry(container, "RCW360A0000002", datetime(day.year, day.month, day.day, 20, tzinfo=UTC))
    token = api.token("alice")
    dates = {}
    for zone in ("Asia/Shanghai", "America/Los_Angeles"):
        reply = api.call("GET", LIST, token=token, query={"expiredFlag": 2}, headers={"X-Time-Zone": zone})
        [row] = reply.data["list"]
        dates[zone] = row["serviceExpiredDate"]
    assert dates == {"Asia/Shanghai": (day + timedelta(days=1)).isoformat(), "America/Los_Angeles": day.isoformat()}


@pytest.mark.parametrize("language,message", [
    ("en-US", "Devices with expired service: 2; expiring within 30 days: 1"),
    ("zh-CN", "服务已到期的设备：2台；30天内到期：1台"),
])
def test_the_reminder_warns_alice_about_expired_and_expiring_devices(api, container, clock, language, message):
    set_expiry(container, "CR2A000000001", clock.now() - timedelta(days=1))  # a second expired device
    reply = api.call("GET", INFO, token=api.token("alice"), query={"type": 1}, headers={"Accept-Language": language})
    assert (reply.status, reply.code) == (200, 0)
    assert reply.data == {"id": account_id(container, "alice"), "pushMessages": message, "expiredFlag": 1}


def test_the_reminder_of_an_organization_member_is_about_expiring_devices(api, container):
    reply = api.call("GET", INFO, token=api.token("bob"), query={"type": 1})
    assert reply.data == {"id": account_id(container, "bob"),
                          "pushMessages": "Devices whose service expires within 30 days: 1", "expiredFlag": 2}


def test_no_reminder_when_nothing_expires(api, container):
    reply = api.call("GET", INFO, token=api.token("operator"), query={"type": 1})
    assert reply.data == {"id": account_id(container, "operator"), "pushMessages": None, "expiredFlag": 0}


def test_the_reminder_ignores_lifelong_and_distant_expiry(api, container, clock):
    for guid in ("RCW360A0000002", "RCW360A0000003"):
        set_expiry(container, guid, clock.now() + timedelta(days=30))
    reply = api.call("GET", INFO, token=api.token("alice"), query={"type": 1})
    assert (reply.data["expiredFlag"], reply.data["pushMessages"]) == (0, None)


@pytest.mark.parametrize("query", [{}, {"type": 2}, {"type": 0}, {"type": "expired"}, {"type": 1, "extra": 1}])
def test_the_reminder_knows_only_type_1(api, query):
    reply = api.call("GET", INFO, token=api.token("alice"), query=query)
    assert (reply.status, reply.code) == (422, 422)
