"""The device registry (api-contract section 4): the device list with its filters and tabs, the
detail, adding by GUID, changing and deleting, home counts, device types and broker credentials.
Every test runs on SQLite and on PostgreSQL with the demo data."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select, update

from adapters.mosquitto.passwords import MosquittoPasswordHasher
from adapters.persistence.models import DeviceCredentialRow, DeviceRow, DeviceTypeRow, ReadingRow
from core.devices.model import SORT_FIELDS, add_months
from entrypoints.api.devices import schemas as s
from entrypoints.api.framework import envelope, page_of
from tests.support.api import ApiClient
from tests.support.demo_copy import seeded

pytestmark = pytest.mark.usefixtures("demo")

PAGE, GET, INSERT, UPDATE, DELETE = ("/device/Device/page", "/device/Device/get", "/device/Device/insert",
                                     "/device/Device/update", "/device/Device/delete")
COUNTS, TYPES = "/device/Device/homeCounts", "/device/DeviceType/selectTypeList"
CREDENTIALS, ROTATE = "/device/Device/credentials", "/device/Device/credentials/rotate"
ALICE_DEVICES = {"Cold room A logger", "Cold room B logger", "Vaccine fridge logger", "Truck 12 tracker",
                 "Pharmacy freezer", "Dock cold room"}
ROW_FIELDS = {
    "deviceId", "deviceName", "deviceGuid", "typeId", "deviceTypeName", "typeScenes", "levelId", "levelName",
    "serviceExpiredDate", "vipInfo", "smsCount", "voiceCount", "countryCode", "simIccid", "jcIccidStatus",
    "agreementStatus", "nodeType", "status", "remark", "ownerId", "ownerName", "isOwner", "access", "organizationId",
    "organizationName", "online", "alarmState", "lastReadingAt", "temperature", "humidity", "displayPrecision",
    "temperatureUnit", "activatedAt", "createdAt", "position", "energy", "scrappedAt", "projectId",
    "projectName", "permissions", "sharedWithMe",
}


def conforms(reply, schema, many: bool = False) -> None:
    """The body is exactly what the OpenAPI document promises for a success."""
    envelope(schema, many)().load(reply.body)


def ok(reply):
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


def devices(api: ApiClient, token: str, **body) -> dict:
    reply = api.call("POST", PAGE, token=token, json={"pageSize": 50, **body})
    data = ok(reply)
    conforms(reply, page_of(s.DeviceSchema))
    return data


def names(api, token, **body) -> list[str]:
    return [row["deviceName"] for row in devices(api, token, **body)["data"]]


def device_id(container, guid: str) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(DeviceRow.id).where(DeviceRow.guid == guid))


def set_device(container, guid: str, **values) -> None:
    with container.session_factory()() as session:
        session.execute(update(DeviceRow).where(DeviceRow.guid == guid).values(**values))
        session.commit()


def add_type(container, code: int, *, add_type: int = 0, status: int = 2, scenes: str = "1") -> int:
    with container.session_factory()() as session:
        row = DeviceTypeRow(type_name=f"Type {code:X}", type_code=code, add_type=add_type, status=status,
                            scenes=scenes, probes="t")
        session.add(row)
        session.commit()
        return row.id


def type_id(api, token, name: str) -> int:
    return next(t["typeId"] for t in ok(api.call("GET", TYPES, token=token)) if t["typeName"] == name)


def add(api, token, guid="NEWLOGGER0001", name="Pharmacy fridge 2", type_name="RCW-360 Wi-Fi Logger", **fields):
    return api.call("POST", INSERT, token=token, json={
        "deviceGuid": guid, "deviceName": name, "typeId": type_id(api, token, type_name), **fields})


# --- the list ---------------------------------------------------------------------------------


def test_alice_lists_her_six_devices_with_the_contract_s_fields(api, container):
    data = devices(api, api.token("alice"))
    assert data["totalCount"] == 6 and {r["deviceName"] for r in data["data"]} == ALICE_DEVICES
    rows = {r["deviceGuid"]: r for r in data["data"]}
    assert all(set(row) == ROW_FIELDS for row in rows.values())
    # her own: every element visible and operable, nothing through a share
    assert all(row["permissions"] == [{"code": code, "viewStatus": 1, "setStatus": 1} for code in (
        "realtime", "chart", "alarms", "push", "map", "info", "params", "recharge", "energy", "log", "maintenance")]
        and row["sharedWithMe"] is False for row in rows.values())
    freezer = rows["FZ1A000000001"]
    assert freezer["deviceTypeName"] == "FZ-1 Freezer Monitor" and freezer["typeScenes"] == [3]
    assert freezer["levelName"] == "Professional"  # in the reader's language (en-US)
    assert freezer["agreementStatus"] == 1
    assert (freezer["smsCount"], freezer["voiceCount"], freezer["countryCode"]) == (300, 80, "86")
    assert (freezer["ownerName"], freezer["isOwner"], freezer["organizationName"]) == ("alice", True, None)
    assert freezer["temperatureUnit"] == "C" and freezer["displayPrecision"] == 1
    assert -25 < freezer["temperature"] < -14 and 0 <= freezer["humidity"] <= 100
    assert {guid: r["vipInfo"]["state"] for guid, r in rows.items()} == {
        "RCW360A0000001": 0, "RCW360A0000002": 1, "RCW360A0000003": 2, "LOGET8A0000001": 0,
        "FZ1A000000001": 0, "CR2A000000001": 0}
    assert rows["LOGET8A0000001"]["serviceExpiredDate"][:4] in ("2099", "2100")
    assert rows["CR2A000000001"]["simIccid"] == "89860012345678900003"
    assert {guid: r["online"] for guid, r in rows.items() if not r["online"]} == {"RCW360A0000003": 0}
    assert all(r["agreementStatus"] == 0 for guid, r in rows.items() if guid != "FZ1A000000001")
    assert {guid for guid, r in rows.items() if r["energy"]} == {"CR2A000000001"}  # the metered cold room


def test_organization_members_see_its_devices_but_do_not_own_them(api):
    bob = devices(api, api.token("bob"))["data"]
    assert {r["deviceName"] for r in bob} == {"Warehouse 1 cold room", "Warehouse 1 door logger"}
    assert all(not r["isOwner"] and r["ownerName"] == "acme" and r["organizationName"] == "Acme Cold Chain"
               for r in bob)
    assert all(r["isOwner"] for r in devices(api, api.token("acme"))["data"])
    assert not any(n.startswith("Warehouse") for n in names(api, api.token("alice")))


@pytest.mark.parametrize("body,expected", [
    ({"deviceName": "cold ROOM"}, {"Cold room A logger", "Cold room B logger", "Dock cold room"}),
    ({"deviceName": "100%"}, set()),
    ({"deviceGuid": "rcw360a"}, {"Cold room A logger", "Cold room B logger", "Vaccine fridge logger"}),
    ({"deviceGuid": "FZ1A000000001"}, {"Pharmacy freezer"}),
    ({"scene": 1}, {"Cold room A logger", "Cold room B logger", "Vaccine fridge logger", "Truck 12 tracker"}),
    ({"scene": 2}, {"Dock cold room"}),
    ({"scene": 3}, {"Pharmacy freezer"}),
    ({"online": 0}, {"Vaccine fridge logger"}),
    ({"online": 1, "scene": 1}, {"Cold room A logger", "Cold room B logger", "Truck 12 tracker"}),
    ({"vipState": 2}, {"Vaccine fridge logger"}),
    ({"vipState": 1}, {"Cold room B logger"}),
    ({"vipState": 0}, {"Cold room A logger", "Truck 12 tracker", "Pharmacy freezer", "Dock cold room"}),
    ({"status": 1, "alarm": 0}, ALICE_DEVICES),
    ({"status": 0}, set()),
])
def test_filters_and_tabs_narrow_the_list(api, body, expected):
    assert set(names(api, api.token("alice"), **body)) == expected


def test_type_level_status_and_alarm_filters(api, container):
    token = api.token("alice")
    assert set(names(api, token, typeId=type_id(api, token, "LogEt 8 4G Logger"))) == {"Truck 12 tracker"}
    freezer = devices(api, token, deviceGuid="FZ1A000000001")["data"][0]
    assert set(names(api, token, levelId=freezer["levelId"])) == {"Pharmacy freezer", "Truck 12 tracker"}
    set_device(container, "CR2A000000001", status=0)
    set_device(container, "RCW360A0000002", alarm_state=1)
    assert names(api, token, status=0) == ["Dock cold room"]
    assert names(api, token, alarm=1) == ["Cold room B logger"]
    assert len(names(api, token, alarm=0)) == 5


def test_pages_and_whitelisted_sorting(api):
    token = api.token("alice")
    first, second = devices(api, token, pageSize=4), devices(api, token, pageSize=4, start=2)
    assert (first["totalCount"], len(first["data"]), len(second["data"])) == (6, 4, 2)
    assert {r["deviceId"] for r in first["data"]}.isdisjoint(r["deviceId"] for r in second["data"])
    assert (second["start"], second["pageSize"]) == (2, 4)
    assert names(api, token, sortField="deviceName", sortOrder="asc") == sorted(ALICE_DEVICES)
    by_expiry = names(api, token, sortField="serviceExpiredDate", sortOrder="asc")
    assert by_expiry[0] == "Vaccine fridge logger" and by_expiry[-1] == "Truck 12 tracker"
    coldest = names(api, token, sortField="temperature", sortOrder="asc")
    assert coldest[0] == "Pharmacy freezer"
    assert devices(api, token, start=3, pageSize=4)["data"] == []


def test_every_page_is_its_slice_of_the_list_whichever_end_it_is_read_from(api, container):
    # Pages past the middle are read backwards from the list's end: with ties (two devices made
    # at the same moment, with the same temperature) and nulls (never reported) in the sort key,
    # every page of one or four must still be exactly its slice of the whole list.
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    set_device(container, "RCW360A0000001", created_at=moment, last_temperature=4.5)
    set_device(container, "RCW360A0000002", created_at=moment, last_temperature=4.5)
    set_device(container, "FZ1A000000001", last_temperature=None, last_reading_at=None)
    token = api.token("alice")
    for field in SORT_FIELDS:
        for order in ("asc", "desc"):
            whole = [r["deviceId"] for r in devices(api, token, sortField=field, sortOrder=order)["data"]]
            for size in (1, 4):
                paged = [r["deviceId"] for start in range(1, len(whole) // size + 2)
                         for r in devices(api, token, sortField=field, sortOrder=order, start=start,
                                          pageSize=size)["data"]]
                assert paged == whole, (field, order, size)


@pytest.mark.parametrize("body,field", [
    ({"sortField": "owner_account_id"}, "sortField"), ({"pageSize": 201}, "pageSize"), ({"scene": 4}, "scene"),
    ({"online": 2}, "online"), ({"status": "on"}, "status"), ({"deviceName": "x" * 51}, "deviceName"),
    ({"vipState": 3}, "vipState"), ({"owner": 1}, "owner"),
])
def test_the_list_s_query_is_checked(api, body, field):
    reply = api.call("POST", PAGE, token=api.token("alice"), json=body)
    assert (reply.status, reply.code) == (422, 422) and field in reply.body["errors"]


# --- detail and visibility ---------------------------------------------------------------------


def test_the_detail_has_the_last_reading_and_each_probe_with_its_limits(api, container):
    token = api.token("alice")
    reply = api.call("GET", GET, token=token, query={"deviceId": device_id(container, "RCW360A0000001")})
    detail = ok(reply)
    conforms(reply, s.DeviceDetailSchema)
    assert set(detail) == ROW_FIELDS | {"lastSeenAt", "lastReading", "probes"}
    assert detail["deviceName"] == "Cold room A logger" and detail["online"] == 1
    assert detail["lastReading"]["ts"] == detail["lastReadingAt"]
    assert detail["lastReading"]["temperature"] == detail["temperature"]
    assert detail["probes"] == [
        {"probe": "t", "upperLimit": 8.0, "lowerLimit": 2.0, "ruleEnabled": True},
        {"probe": "h", "upperLimit": None, "lowerLimit": None, "ruleEnabled": False},
    ]
    never = ok(api.call("GET", GET, token=api.token("acme"), query={"deviceId": device_id(container, "CR2B000000001")}))
    assert never["lastReading"] is None and never["activatedAt"] is None and never["online"] == 0


def test_times_follow_the_caller_s_time_zone(api, container):
    query = {"deviceId": device_id(container, "RCW360A0000001")}
    token = api.token("alice")
    shanghai = ok(api.call("GET", GET, token=token, query=query, headers={"X-Time-Zone": "Asia/Shanghai"}))
    utc = ok(api.call("GET", GET, token=token, query=query, headers={"X-Time-Zone": "UTC"}))
    assert shanghai["lastReadingAt"].endswith("+08:00") and utc["lastReadingAt"].endswith("+00:00")
    assert datetime.fromisoformat(shanghai["lastReadingAt"]) == datetime.fromisoformat(utc["lastReadingAt"])


@pytest.mark.parametrize("method,path,how", [
    ("GET", GET, "query"), ("PUT", UPDATE, "json"), ("DELETE", DELETE, "query"), ("GET", CREDENTIALS, "query"),
    ("POST", ROTATE, "query"), ("POST", "/device/Device/history", "json"),
])
def test_another_customer_s_device_is_never_shown_nor_touched(api, container, method, path, how):
    target = device_id(container, "CR2B000000001")  # acme's
    params = {"deviceId": target}
    if path.endswith("history"):
        params |= {"startTime": "2026-01-01T00:00:00+00:00", "endTime": "2026-01-02T00:00:00+00:00"}
    if path == UPDATE:
        params |= {"deviceName": "Mine now"}
    for token, status in ((api.token("alice"), 404), (api.token("operator"), 403)):  # the operator: no permission
        reply = api.call(method, path, token=token, **{how: params})
        assert (reply.status, reply.code, reply.data) == (status, status, None) and "Warehouse" not in str(reply.body)
    assert ok(api.call("GET", GET, token=api.token("bob"), query={"deviceId": target}))["deviceName"] == (
        "Warehouse 1 cold room")


@pytest.mark.parametrize("method,path", [("POST", PAGE), ("GET", GET), ("POST", INSERT), ("PUT", UPDATE),
                                         ("DELETE", DELETE), ("GET", COUNTS), ("GET", TYPES), ("POST", ROTATE),
                                         ("GET", CREDENTIALS), ("POST", "/device/Device/history")])
def test_every_device_call_needs_a_token(api, method, path):
    reply = api.call(method, path, json={} if method in ("POST", "PUT") else None)
    assert (reply.status, reply.code) == (401, 2010)


def test_an_unknown_device_is_a_404(api):
    reply = api.call("GET", GET, token=api.token("alice"), query={"deviceId": 2_000_000})
    assert (reply.status, reply.code, reply.data) == (404, 404, None)


# --- adding by GUID ------------------------------------------------------------------------------


def test_a_customer_adds_a_device_by_guid_with_two_free_months_and_its_broker_login(api, container, clock):
    token = api.token("alice")
    reply = add(api, token, remark="Next to the vaccine fridge")
    data = ok(reply)
    conforms(reply, s.DeviceAddedSchema)
    device, credentials = data["device"], data["credentials"]
    assert (device["deviceGuid"], device["deviceName"], device["remark"]) == (
        "NEWLOGGER0001", "Pharmacy fridge 2", "Next to the vaccine fridge")
    assert device["levelName"] == "Free" and device["countryCode"] == "86" and device["isOwner"]
    expires = add_months(clock.now(), 2).astimezone(datetime.now().astimezone().tzinfo)
    assert device["serviceExpiredDate"] in {(expires + timedelta(days=d)).date().isoformat() for d in (-1, 0, 1)}
    assert device["vipInfo"] == {"state": 0} and device["activatedAt"] is None and device["online"] == 0
    assert (device["smsCount"], device["voiceCount"], device["status"]) == (0, 0, 1)
    assert credentials["username"] == "NEWLOGGER0001" and len(credentials["password"]) >= 24
    with container.session_factory()() as session:
        stored = session.get(DeviceCredentialRow, device["deviceId"])
    assert MosquittoPasswordHasher.verify(stored.password_hash, credentials["password"])
    assert credentials["password"] not in stored.password_hash
    assert "Pharmacy fridge 2" in names(api, token)
    info = ok(api.call("GET", CREDENTIALS, token=token, query={"deviceId": device["deviceId"]}))
    assert info["username"] == "NEWLOGGER0001" and "password" not in info


def test_a_guid_already_added_is_refused_whatever_its_case_and_whoever_asks(api):
    assert ok(add(api, api.token("alice")))
    for token, guid in ((api.token("bob"), "newlogger0001"), (api.token("alice"), "NEWLOGGER0001"),
                        (api.token("alice"), "RCW360A0000001")):
        reply = add(api, token, guid=guid)
        assert (reply.status, reply.code, reply.data) == (409, 1012, None)
        assert reply.body["msg"] == "This device has already been added"


def test_only_published_types_not_reserved_to_the_app_can_be_added(api, container):
    token = api.token("alice")
    for kind in ({"add_type": 1}, {"status": 1}):
        type_ = add_type(container, 0x9000 + kind.get("add_type", 0) + 16 * kind.get("status", 0), **kind)
        reply = api.call("POST", INSERT, token=token, json={"deviceGuid": "APPONLY00001", "deviceName": "x",
                                                            "typeId": type_})
        assert (reply.status, reply.code) == (409, 1013)
    platform_only = add_type(container, 0x9100, add_type=2)
    assert ok(api.call("POST", INSERT, token=token, json={"deviceGuid": "PLATFORM0001", "deviceName": "x",
                                                          "typeId": platform_only}))
    unknown = api.call("POST", INSERT, token=token, json={"deviceGuid": "UNKNOWN00001", "deviceName": "x",
                                                          "typeId": 999_999})
    assert (unknown.status, unknown.code) == (404, 404)


@pytest.mark.parametrize("fields,field", [
    ({"deviceGuid": "bad-guid-01"}, "deviceGuid"), ({"deviceGuid": "SHORT1"}, "deviceGuid"),
    ({"deviceGuid": "A" * 33}, "deviceGuid"), ({"name": ""}, "deviceName"), ({"name": "   "}, "deviceName"),
    ({"name": "n" * 51}, "deviceName"), ({"remark": "r" * 121}, "remark"), ({"countryCode": "1"}, "countryCode"),
    ({"displayPrecision": 5}, "displayPrecision"), ({"temperatureUnit": "K"}, "temperatureUnit"),
])
def test_adding_checks_every_field(api, fields, field):
    fields = {"guid" if k == "deviceGuid" else k: v for k, v in fields.items()}
    reply = add(api, api.token("alice"), **fields)
    assert (reply.status, reply.code) == (422, 422) and field in reply.body["errors"], reply.body


def test_adding_needs_the_add_permission(api, container):
    reply = api.call("POST", INSERT, token=api.token("operator"),
                     json={"deviceGuid": "OPERATOR0001", "deviceName": "x", "typeId": 1})
    assert (reply.status, reply.code) == (403, 403)


def test_the_international_edition_uses_its_own_country_codes(international_app):

    seeded(international_app)
    api = ApiClient(international_app.flask.test_client())
    token = api.token("alice")
    assert ok(add(api, token))["device"]["countryCode"] == "1"
    assert ok(add(api, token, guid="NEWLOGGER0002", countryCode="351"))["device"]["countryCode"] == "351"
    assert add(api, token, guid="NEWLOGGER0003", countryCode="+351").status == 422


# --- changing and deleting ------------------------------------------------------------------------


def test_the_owner_changes_name_remark_display_and_country_code(api, container):
    token = api.token("alice")
    target = device_id(container, "RCW360A0000001")
    reply = api.call("PUT", UPDATE, token=token, json={
        "deviceId": target, "deviceName": " Cold room A ", "remark": "Door sensor fixed", "displayPrecision": 2,
        "temperatureUnit": "F", "countryCode": "86"})
    changed = ok(reply)
    conforms(reply, s.DeviceDetailSchema)
    assert (changed["deviceName"], changed["remark"], changed["displayPrecision"], changed["temperatureUnit"]) == (
        "Cold room A", "Door sensor fixed", 2, "F")
    assert -10 < changed["temperature"] < 15  # still Celsius: the client converts
    kept = ok(api.call("PUT", UPDATE, token=token, json={"deviceId": target, "remark": ""}))
    assert (kept["deviceName"], kept["remark"], kept["temperatureUnit"]) == ("Cold room A", None, "F")


def test_organization_members_only_read_its_devices(api, container):
    target = device_id(container, "CR2B000000001")
    reply = api.call("PUT", UPDATE, token=api.token("bob"),
                     json={"deviceId": target, "deviceName": "Warehouse 1 main room"})
    assert (reply.status, reply.code, reply.body["msg"]) == (403, 403, "You have read-only access to this device")
    assert ok(api.call("GET", GET, token=api.token("bob"), query={"deviceId": target}))["deviceName"] == (
        "Warehouse 1 cold room")


@pytest.mark.parametrize("body,field", [
    ({"deviceName": ""}, "deviceName"), ({"deviceName": "  "}, "deviceName"), ({"remark": "r" * 121}, "remark"),
    ({"displayPrecision": -1}, "displayPrecision"), ({"temperatureUnit": "c"}, "temperatureUnit"),
    ({"countryCode": "1"}, "countryCode"), ({"deviceId": 0}, "deviceId"), ({"guid": "X"}, "guid"),
])
def test_changes_are_checked(api, container, body, field):
    reply = api.call("PUT", UPDATE, token=api.token("alice"),
                     json={"deviceId": device_id(container, "RCW360A0000001"), **body})
    assert (reply.status, reply.code) == (422, 422) and field in reply.body["errors"]


def readings_of(container, device: int) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(ReadingRow).where(ReadingRow.device_id == device))


def test_only_the_owner_deletes_a_device_and_its_readings_and_login_go_with_it(api, container, clock):
    target = device_id(container, "CR2B000000001")
    with container.session_factory()() as session:
        session.add_all([ReadingRow(device_id=target, ts=clock.now() - timedelta(minutes=i), temperature=3.0,
                                    humidity=None, received_at=clock.now()) for i in range(30)])
        session.commit()
    refused = api.call("DELETE", DELETE, token=api.token("bob"), query={"deviceId": target})
    assert (refused.status, refused.code) == (403, 403) and readings_of(container, target) == 30
    acme = api.token("acme")
    assert ok(api.call("DELETE", DELETE, token=acme, query={"deviceId": target})) is None
    assert readings_of(container, target) == 0
    with container.session_factory()() as session:
        assert session.get(DeviceCredentialRow, target) is None
    assert api.call("GET", GET, token=acme, query={"deviceId": target}).status == 404
    assert names(api, acme) == ["Warehouse 1 door logger"]
    assert readings_of(container, device_id(container, "RCW360A0000001")) > 2000  # alice's are untouched


def test_a_deleted_guid_can_be_added_again(api, container):
    alice = api.token("alice")
    target = device_id(container, "RCW360A0000003")
    ok(api.call("DELETE", DELETE, token=alice, query={"deviceId": target}))
    again = ok(add(api, alice, guid="RCW360A0000003", name="Vaccine fridge logger"))
    assert again["device"]["deviceId"] != target and again["device"]["activatedAt"] is None


# --- broker credentials -----------------------------------------------------------------------------


def test_the_owner_rotates_a_broker_password_and_only_the_new_one_matches(api, container):
    target = device_id(container, "RCW360A0000001")
    with container.session_factory()() as session:
        before = session.get(DeviceCredentialRow, target).password_hash
    reply = api.call("POST", ROTATE, token=api.token("alice"), query={"deviceId": target})
    login = ok(reply)
    conforms(reply, s.BrokerLoginSchema)
    assert login["username"] == "RCW360A0000001"
    with container.session_factory()() as session:
        after = session.get(DeviceCredentialRow, target).password_hash
    assert after != before and MosquittoPasswordHasher.verify(after, login["password"])
    second = ok(api.call("POST", ROTATE, token=api.token("alice"), query={"deviceId": target}))
    assert second["password"] != login["password"]


def test_organization_members_may_not_rotate_a_password(api, container):
    reply = api.call("POST", ROTATE, token=api.token("bob"), query={"deviceId": device_id(container, "CR2B000000001")})
    assert (reply.status, reply.code) == (403, 403)
    info = ok(api.call("GET", CREDENTIALS, token=api.token("bob"),
                       query={"deviceId": device_id(container, "CR2B000000001")}))
    assert info["username"] == "CR2B000000001"


# --- home counts and types ------------------------------------------------------------------------


def counts(api, token, **query) -> dict:
    reply = api.call("GET", COUNTS, token=token, query=query)
    data = ok(reply)
    conforms(reply, s.HomeCountsSchema)
    return data


def test_home_counts_follow_the_devices_state_and_the_clock(api, container, clock):
    token = api.token("alice")
    assert counts(api, token) == {"total": 6, "online": 5, "offline": 1, "alarm": 0, "disabled": 0, "expired": 1,
                                  "notEnabled": 0, "scrapped": 0}
    assert counts(api, api.token("acme")) == {"total": 2, "online": 0, "offline": 0, "alarm": 0, "disabled": 0,
                                              "expired": 0, "notEnabled": 2, "scrapped": 0}
    assert counts(api, api.token("bob"))["total"] == 2
    assert counts(api, api.token("operator")) == dict.fromkeys(
        ("total", "online", "offline", "alarm", "disabled", "expired", "notEnabled", "scrapped"), 0)
    set_device(container, "CR2A000000001", status=0, alarm_state=1)
    set_device(container, "RCW360A0000002", online=False, activated_at=None, last_reading_at=None)
    clock.advance(days=21)  # Cold room B's service (20 days left) has expired by now
    token = api.token("alice")
    assert counts(api, token) == {"total": 6, "online": 4, "offline": 1, "alarm": 1, "disabled": 1, "expired": 2,
                                  "notEnabled": 1, "scrapped": 0}
    assert counts(api, token, scene=2) == {"total": 1, "online": 1, "offline": 0, "alarm": 1, "disabled": 1,
                                           "expired": 0, "notEnabled": 0, "scrapped": 0}
    clock.advance(days=365 * 80)  # lifelong service never expires
    assert counts(api, api.token("alice"))["expired"] == 5


def test_the_type_list_has_published_types_with_hex_codes_scenes_and_probes(api, container):
    add_type(container, 0xA001, status=1)
    token = api.token("alice")
    reply = api.call("GET", TYPES, token=token)
    conforms(reply, s.DeviceTypeSchema, many=True)
    types = reply.data
    assert [(t["typeName"], t["typeCode"], t["scenes"]) for t in types] == [
        ("RCW-360 Wi-Fi Logger", "0x8001", [1]), ("LogEt 8 4G Logger", "0x8002", [1]),
        ("CR-2 Cold Room Monitor", "0x8003", [2]), ("FZ-1 Freezer Monitor", "0x8004", [3])]
    assert all(t["probes"] == ["t", "h"] and t["addType"] == 0 and t["seriesName"] for t in types)
    assert [t["typeName"] for t in ok(api.call("GET", TYPES, token=token, query={"scene": 3}))] == [
        "FZ-1 Freezer Monitor"]
    assert api.call("GET", TYPES, token=token, query={"scene": 9}).status == 422
