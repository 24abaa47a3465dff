"""The device detail's map and energy tabs, and positions in the device list: scoped like the
rest (a stranger gets 404), hostile ranges refused in the caller's language. SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from adapters.persistence.models import ReadingRow
from entrypoints.api.devices import schemas as s
from entrypoints.api.framework import envelope
from tests.support.alarms import device_id

pytestmark = pytest.mark.usefixtures("demo")

TRACK, ENERGY, PAGE = "/device/Device/track", "/device/Device/energy", "/device/Device/page"
TRUCK, ROOM, FREEZER, ACME_ROOM = "LOGET8A0000001", "CR2A000000001", "FZ1A000000001", "CR2B000000001"


def ask(api, path, token, device, since, until, **extra):
    return api.call("POST", path, token=token, json={
        "deviceId": device, "startTime": since.isoformat(), "endTime": until.isoformat(), **extra})


def test_the_truck_s_track_is_its_positions_in_time_order_and_downsampled_keeping_the_last(api, container, clock):
    token, truck, end = api.token("alice"), device_id(container, TRUCK), clock.now()
    since = end - timedelta(days=1, hours=2)  # the demo's loggers last uploaded two hours ago
    reply = ask(api, TRACK, token, truck, since, end)
    assert (reply.status, reply.code) == (200, 0), reply.body
    envelope(s.TrackSchema)().load(reply.body)
    points = reply.data["points"]
    assert reply.data["downsampled"] is False and len(points) == reply.data["total"] in (288, 289)
    times = [datetime.fromisoformat(p["ts"]) for p in points]
    assert times == sorted(set(times)) and all(since <= t <= end for t in times)
    assert all(31.1 < p["lat"] < 31.3 and 121.4 < p["lon"] < 121.6 and 5 <= p["acc"] <= 25 for p in points)
    few = ask(api, TRACK, token, truck, since, end, maxPoints=10).data
    assert few["downsampled"] is True and 2 <= len(few["points"]) <= 10 and few["total"] == len(points)
    assert few["points"][0] == points[0] and few["points"][-1] == points[-1]


def test_a_device_that_never_sent_a_position_has_an_empty_track(api, container, clock):
    end = clock.now()
    reply = ask(api, TRACK, api.token("alice"), device_id(container, FREEZER), end - timedelta(days=2), end)
    assert reply.data == {"points": [], "downsampled": False, "total": 0}


def test_the_cold_room_s_energy_per_hour_and_per_day_adds_up(api, container, clock):
    token, room, end = api.token("alice"), device_id(container, ROOM), clock.now()
    since = end - timedelta(days=3)
    hourly = ask(api, ENERGY, token, room, since, end, interval="hour")
    assert (hourly.status, hourly.code) == (200, 0), hourly.body
    envelope(s.EnergySchema)().load(hourly.body)
    assert hourly.data["unit"] == "kWh" and 72 <= len(hourly.data["buckets"]) <= 74
    # about 1.2 kW, more while a door is open: between 1.2 and 3 kWh an hour that has readings
    used = [b["kwh"] for b in hourly.data["buckets"] if b["kwh"] > 0]
    assert len(used) > 60 and all(1.0 < kwh < 3.5 for kwh in used[1:-1])
    daily = api.call("POST", ENERGY, token=token, headers={"X-Time-Zone": "Asia/Shanghai"}, json={
        "deviceId": room, "startTime": since.isoformat(), "endTime": end.isoformat(), "interval": "day"})
    assert 3 <= len(daily.data["buckets"]) <= 4
    assert all(b["ts"].endswith("T00:00:00+08:00") for b in daily.data["buckets"])
    assert daily.data["total"] == pytest.approx(hourly.data["total"], abs=0.01)
    assert daily.data["total"] == pytest.approx(sum(b["kwh"] for b in daily.data["buckets"]), abs=0.01)


def test_a_meter_reset_counts_from_zero_and_never_gives_negative_energy(api, container, clock):
    room, end = device_id(container, ROOM), clock.now().replace(microsecond=0)
    start = end - timedelta(minutes=50)
    with container.session_factory()() as session:  # totals 10, 11, then the meter replaced: 0.5, 1.5
        session.execute(ReadingRow.__table__.insert(), [
            {"device_id": room, "ts": start + timedelta(minutes=10 * i), "temperature": 4.0, "humidity": None,
             "seq": None, "received_at": end, "kwh": kwh} for i, kwh in enumerate((10.0, 11.0, 0.5, 1.5))])
        session.commit()
    assert last_total_before(container, room, start) > 1000  # the demo meter's: 10 is a new meter
    data = ask(api, ENERGY, api.token("alice"), room, start - timedelta(minutes=1), end, interval="hour").data
    assert data["total"] == pytest.approx(10.0 + 1.0 + 0.5 + 1.0)
    assert all(b["kwh"] >= 0 for b in data["buckets"])


def last_total_before(container, device, instant) -> float:
    with container.session_factory()() as session:
        return session.scalar(select(ReadingRow.kwh).where(ReadingRow.device_id == device, ReadingRow.ts < instant,
                                                            ReadingRow.kwh.is_not(None))
                              .order_by(ReadingRow.ts.desc()).limit(1))


def test_energy_is_refused_for_a_device_without_a_meter(api, container, clock):
    end = clock.now()
    reply = ask(api, ENERGY, api.token("alice"), device_id(container, FREEZER), end - timedelta(days=1), end)
    assert (reply.status, reply.code) == (409, 1030)
    assert reply.body["msg"] == "Device does not support this"
    reply = api.call("POST", ENERGY, token=api.token("alice"), headers={"Accept-Language": "de-DE"}, json={
        "deviceId": device_id(container, FREEZER), "startTime": (end - timedelta(days=1)).isoformat(),
        "endTime": end.isoformat()})
    assert reply.status == 409 and reply.body["msg"] != "Device does not support this"


@pytest.mark.parametrize("path", [TRACK, ENERGY])
def test_a_stranger_gets_404_and_a_read_only_member_may_look(api, container, clock, path):
    end = clock.now()
    for guid in (TRUCK, ROOM):
        reply = ask(api, path, api.token("bob"), device_id(container, guid), end - timedelta(days=1), end)
        assert (reply.status, reply.code) == (404, 404)
    assert ask(api, path, api.token("acme"), device_id(container, TRUCK), end - timedelta(days=1), end).status == 404
    reply = ask(api, path, api.token("bob"), device_id(container, ACME_ROOM), end - timedelta(days=1), end)
    assert (reply.status, reply.code) == (200, 0)  # bob reads acme's organization's devices
    assert ask(api, path, None, device_id(container, TRUCK), end - timedelta(days=1), end).status == 401


@pytest.mark.parametrize("path,extra,field", [
    (TRACK, {"maxPoints": 10**30}, None), (TRACK, {"maxPoints": 0}, "maxPoints"),
    (TRACK, {"maxPoints": float("nan")}, None),
    (ENERGY, {"interval": "minute"}, "interval"), (ENERGY, {"interval": "h" * 10_000}, "interval"),
    (ENERGY, {"deviceId": 2**63}, "deviceId"), (TRACK, {"startTime": "\\ud800"}, "startTime"),
])
def test_hostile_input_gets_a_422_in_the_caller_s_language(api, container, clock, path, extra, field):
    end = clock.now()
    body = {"deviceId": device_id(container, ROOM), "startTime": (end - timedelta(days=1)).isoformat(),
            "endTime": end.isoformat(), **extra}
    reply = api.call("POST", path, token=api.token("alice"), headers={"Accept-Language": "ru-RU"}, json=body)
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert any("\u0400" <= ch <= "\u04ff" for ch in str(reply.body["errors"]))  # said in Russian
    if field:
        assert field in reply.body["errors"]


@pytest.mark.parametrize("path,days", [(TRACK, 367), (ENERGY, 93)])
def test_a_range_too_long_or_backwards_is_refused(api, container, clock, path, days):
    token, room, end = api.token("alice"), device_id(container, ROOM), clock.now()
    assert ask(api, path, token, room, end - timedelta(days=days), end).status == 422
    reply = ask(api, path, token, room, end, end - timedelta(hours=1))
    assert reply.status == 422 and "endTime" in reply.body["errors"]


def test_the_device_list_carries_each_device_s_last_position_and_whether_it_meters_energy(api):
    reply = api.call("POST", PAGE, token=api.token("alice"), json={"start": 1, "pageSize": 50})
    rows = {row["deviceGuid"]: row for row in reply.data["data"]}
    assert rows[ROOM]["energy"] is True and rows[TRUCK]["energy"] is False
    assert all(row["position"] is not None for row in rows.values())
    truck = rows[TRUCK]["position"]
    assert set(truck) == {"lat", "lon", "acc", "ts"} and datetime.fromisoformat(truck["ts"]) > datetime.now(UTC) - \
        timedelta(hours=3)


MARKERS = "/device/Device/markers"


def markers(api, user, **filters):
    reply = api.call("POST", MARKERS, token=api.token(user), json=filters)
    assert (reply.status, reply.code) == (200, 0), reply.body
    envelope(s.DeviceMarkersSchema)().load(reply.body)
    return reply.data


def test_the_map_s_markers_are_every_positioned_device_the_caller_sees_with_the_list_s_filters(api):
    page = api.call("POST", PAGE, token=api.token("alice"), json={"start": 1, "pageSize": 50}).data["data"]
    positioned = {row["deviceId"]: row for row in page if row["position"]}
    data = markers(api, "alice")
    assert data["total"] == len(data["markers"]) == len(positioned) and data["truncated"] is False
    assert [m["deviceId"] for m in data["markers"]] == sorted(positioned)
    for marker in data["markers"]:
        row = positioned[marker["deviceId"]]
        assert (marker["lat"], marker["lon"]) == (row["position"]["lat"], row["position"]["lon"])
        assert (marker["deviceName"], marker["online"], marker["alarmState"]) == (
            row["deviceName"], row["online"], row["alarmState"])
    truck = markers(api, "alice", deviceName=page[0]["deviceName"])["markers"]
    assert [m["deviceId"] for m in truck] == [row["deviceId"] for row in page
                                              if page[0]["deviceName"].lower() in row["deviceName"].lower()]
    assert markers(api, "alice", deviceName="no such device")["markers"] == []


def test_a_stranger_s_map_holds_none_of_another_s_devices(api, container):
    alice = {m["deviceId"] for m in markers(api, "alice")["markers"]}
    bob = {m["deviceId"] for m in markers(api, "bob")["markers"]}
    assert alice and not alice & bob
    assert api.call("POST", MARKERS, json={}).status == 401


def test_a_map_past_its_cap_says_how_many_it_leaves_out(api, monkeypatch):
    monkeypatch.setattr("core.devices.registry.MAX_MARKERS", 2)
    every = markers(api, "alice")
    assert len(every["markers"]) == 2 and every["total"] > 2 and every["truncated"] is True
    assert every["markers"][0]["deviceId"] < every["markers"][1]["deviceId"]


@pytest.mark.parametrize("body,field", [({"vipState": 9}, "vipState"), ({"deviceName": "\ud800"}, "deviceName"),
                                        ({"start": 1}, "start"), ({"online": 10**30}, "_schema")])
def test_hostile_map_filters_get_a_422_in_the_caller_s_language(api, body, field):
    reply = api.call("POST", MARKERS, token=api.token("alice"), headers={"Accept-Language": "ru-RU"}, json=body)
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert field in reply.body["errors"] and any("\u0400" <= ch <= "\u04ff" for ch in str(reply.body["errors"]))
