"""Scrapping devices and restoring one (issue 16) through the API on SQLite and PostgreSQL with the
demo data: what a scrapped device still shows (its history, its log) and what it no longer does
(count as online or expired, be recharged or sent parameters, escalate alarms, get reminders),
and the attacks: a stranger's device, a read-only member, batches too big, ids that are not ids."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from openpyxl import load_workbook
from sqlalchemy import func, select

from adapters.persistence.models import DeviceCommandRow, DeviceEventRow, DeviceRow, OrderRow
from entrypoints.api.devices import schemas as s
from tests.integration.test_devices_api import conforms, counts, devices
from tests.integration.test_exports_api import LIST_EXPORT, create, download
from tests.integration.test_recharge_api import levels, options, service_order, sms_order
from tests.support.alarms import alarms, device_id, report
from tests.support.api import ok

pytestmark = pytest.mark.usefixtures("demo")

SCRAP, RESTORE = "/device/Device/scrap", "/device/Device/restore"
COLD_ROOM_A, FRIDGE, ACME_ROOM = "RCW360A0000001", "RCW360A0000003", "CR2B000000001"  # online; offline, expired


def scrap(api, token, ids, reason=None, **headers):
    return api.call("POST", SCRAP, token=token, json={"deviceIds": ids, "reason": reason}, headers=headers)


def scrapped_at(container) -> dict[str, object]:
    with container.session_factory()() as session:
        return dict(session.execute(select(DeviceRow.guid, DeviceRow.scrapped_at)
                                    .where(DeviceRow.scrapped_at.is_not(None))).all())


def logged(container) -> list[tuple]:
    with container.session_factory()() as session:
        return [(e.device_guid, e.kind, e.detail) for e in session.scalars(select(DeviceEventRow).order_by(
            DeviceEventRow.id))]


def test_scrapped_devices_count_only_as_scrapped_keep_their_history_and_are_logged(api, container, clock):
    alice = api.token("alice")
    before = counts(api, alice)
    ids = [device_id(container, COLD_ROOM_A), device_id(container, FRIDGE)]
    reply = scrap(api, alice, [*ids, ids[0]], "Broken in transit")
    assert ok(reply) == {"scrapped": 2}
    conforms(reply, s.ScrappedSchema)
    assert counts(api, alice) == {**before, "online": before["online"] - 1, "offline": before["offline"] - 1,
                                  "expired": before["expired"] - 1, "scrapped": 2}
    assert logged(container) == [(COLD_ROOM_A, "scrapped", "Broken in transit"), (FRIDGE, "scrapped",
                                                                                 "Broken in transit")]
    listed = devices(api, alice, scrapped=1)["data"]
    assert {d["deviceGuid"] for d in listed} == {COLD_ROOM_A, FRIDGE} and all(d["scrappedAt"] for d in listed)
    assert COLD_ROOM_A not in {d["deviceGuid"] for d in devices(api, alice, scrapped=0)["data"]}
    expired = ok(api.call("GET", "/device/Device/getExpiredServiceDevice", token=alice, query={"expiredFlag": 1}))
    assert expired["total"] == 0  # the fridge was her only expired device
    history = ok(api.call("POST", "/device/Device/history", token=alice, json={
        "deviceId": ids[0], "startTime": (clock.now() - timedelta(days=7)).isoformat(),
        "endTime": clock.now().isoformat()}))
    assert history["total"] > 0
    log = api.call("POST", "/device/DeviceOperationLog/page", token=alice, json={"deviceId": ids[0]})
    assert [(e["kind"], e["detail"], e["actorName"]) for e in ok(log)["data"]] == [
        ("scrapped", "Broken in transit", "alice")]


def test_each_state_s_list_holds_what_its_home_tile_counts_scrapped_devices_only_under_scrapped(api, container):
    alice = api.token("alice")
    ok(scrap(api, alice, [device_id(container, COLD_ROOM_A), device_id(container, FRIDGE)]))
    tally = counts(api, alice)
    for state, filters in {"online": {"online": 1}, "offline": {"online": 0, "status": 1}, "alarm": {"alarm": 1},
                           "disabled": {"status": 0}, "expired": {"vipState": 2}, "scrapped": {"scrapped": 1}}.items():
        listed = devices(api, alice, **filters)
        assert sum(1 for d in listed["data"] if d["scrappedAt"]) == (2 if state == "scrapped" else 0), state
    assert devices(api, alice, online=1)["totalCount"] == tally["online"]
    assert devices(api, alice, vipState=2)["totalCount"] == tally["expired"] == 0
    assert devices(api, alice)["totalCount"] == tally["total"]  # no state asked: every device, scrapped too


def test_restoring_puts_the_device_back_in_every_count_and_is_logged(api, container):
    alice = api.token("alice")
    before = counts(api, alice)
    target = device_id(container, COLD_ROOM_A)
    ok(scrap(api, alice, [target]))
    assert ok(scrap(api, alice, [target], "again")) == {"scrapped": 0}  # already scrapped: left as it was
    reply = api.call("POST", RESTORE, token=alice, query={"deviceId": target})
    assert ok(reply) == {"restored": True}
    conforms(reply, s.RestoredSchema)
    assert ok(api.call("POST", RESTORE, token=alice, query={"deviceId": target})) == {"restored": False}
    assert counts(api, alice) == before and scrapped_at(container) == {}
    assert logged(container) == [(COLD_ROOM_A, "scrapped", None), (COLD_ROOM_A, "restored", None)]


@pytest.mark.parametrize("user,status", [("alice", 404), ("bob", 403)])
def test_only_the_owner_scraps_or_restores_and_a_refused_batch_changes_nothing(api, container, user, status):
    """alice does not see acme's device; bob, a member of acme's organization, only reads it."""
    token = api.token(user)
    own = [device_id(container, COLD_ROOM_A)] if user == "alice" else []
    target = device_id(container, ACME_ROOM)
    reply = scrap(api, token, [*own, target])
    assert (reply.status, reply.code) == (status, status)
    ok(scrap(api, api.token("acme"), [target]))
    reply = api.call("POST", RESTORE, token=token, query={"deviceId": target})
    assert (reply.status, reply.code) == (status, status)
    assert list(scrapped_at(container)) == [ACME_ROOM]
    assert logged(container) == [(ACME_ROOM, "scrapped", None)]


@pytest.mark.parametrize("body", [
    {"deviceIds": []}, {"deviceIds": list(range(1, 202))}, {"deviceIds": ["x"]}, {"deviceIds": [0]},
    {"deviceIds": [-1]}, {"deviceIds": [2**31]}, {"deviceIds": None}, {"deviceIds": 1}, {},
    {"deviceIds": [1], "reason": "x" * 201}, {"deviceIds": [1], "reason": 5}])
def test_hostile_batches_are_refused_and_nothing_changes(api, container, body):
    reply = api.call("POST", SCRAP, token=api.token("alice"), json=body, headers={"Accept-Language": "de-DE"})
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert scrapped_at(container) == {} and logged(container) == []


@pytest.mark.parametrize("query", [{}, {"deviceId": "x"}, {"deviceId": 0}, {"deviceId": 2**40}])
def test_restore_takes_one_device_id(api, query):
    reply = api.call("POST", RESTORE, token=api.token("alice"), query=query)
    assert (reply.status, reply.code) == (422, 422)


def test_a_scrapped_device_is_neither_recharged_nor_sent_parameters_until_restored(api, container):
    alice, acme = api.token("alice"), api.token("acme")
    room, acme_room = device_id(container, COLD_ROOM_A), device_id(container, ACME_ROOM)
    basic = levels(api, alice, room)["Basic"]
    year = options(api, alice, room, basic)[0]
    ok(scrap(api, alice, [room]))
    ok(scrap(api, acme, [acme_room]))
    with container.session_factory()() as session:
        orders = session.scalar(select(func.count()).select_from(OrderRow))
    refused = service_order(api, alice, [room], basic, year)
    assert (refused.status, refused.code) == (409, 1031)
    packages = ok(api.call("GET", "/payment/PaySmsPackages/selectSmsPackage", token=alice,
                           query={"countryCode": "86"}))
    assert sms_order(api, alice, [room], packages["smsList"][0]).code == 1031
    params = {"deviceId": acme_room, "displayPrecision": 1, "temperatureUnit": "C", "uploadInterval": 600,
              "recordInterval": 120}
    reply = api.call("POST", "/device/DeviceParam/save", token=acme, json=params,
                     headers={"Accept-Language": "ru-RU"})
    assert (reply.status, reply.code, reply.body["msg"]) == (409, 1031, "Это устройство списано: сначала "
                                                                         "восстановите его")
    with container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(OrderRow)) == orders
        assert session.scalar(select(func.count()).select_from(DeviceCommandRow)) == 0
    ok(api.call("POST", RESTORE, token=alice, query={"deviceId": room}))
    placed = service_order(api, alice, [room], basic, year)
    assert (placed.status, placed.code) == (200, 0), placed.body


def test_a_scrapped_device_s_open_alarm_escalates_no_more_and_it_gets_no_expiry_reminder(api, container, clock):
    start = clock.now() - timedelta(minutes=5)
    report(container, COLD_ROOM_A, start, (0, 9.0), (5, 9.2))  # raised now, at level 1
    [alarm] = alarms(container, COLD_ROOM_A)
    with container.uow() as uow:
        reminded = {c.device_id for c in uow.expiry_reminders.candidates(clock.now(), clock.now() + timedelta(
            days=365))}
    room = device_id(container, COLD_ROOM_A)
    assert room in reminded
    ok(scrap(api, api.token("alice"), [room]))
    clock.advance(minutes=15)
    assert container.escalate_alarms()() == 0
    assert [a.level for a in alarms(container, COLD_ROOM_A)] == [alarm.level]
    with container.uow() as uow:
        assert room not in {c.device_id for c in uow.expiry_reminders.candidates(
            clock.now(), clock.now() + timedelta(days=365))}


def test_a_scrapped_device_s_readings_and_list_row_are_still_exported(api, container):
    alice = api.token("alice")
    room = device_id(container, COLD_ROOM_A)
    ok(scrap(api, alice, [room], "Broken in transit"))
    listed = ok(api.call("POST", LIST_EXPORT, token=alice, json={"scrapped": 1}))
    rows = list(load_workbook(io.BytesIO(download(api, alice, listed["id"]).data)).worksheets[0]
                .iter_rows(values_only=True))
    assert [(r[0], r[3]) for r in rows[1:]] == [("Cold room A logger", "Scrapped")]
    readings = ok(create(api, alice, container, "csv"))
    assert readings["status"] == "ready" and download(api, alice, readings["id"]).status_code == 200


@pytest.mark.parametrize("path", [SCRAP, RESTORE])
def test_scrapping_and_restoring_need_a_token_and_an_id_that_exists(api, container, path):
    reply = api.call("POST", path, json={"deviceIds": [1]}, query={"deviceId": 1})
    assert (reply.status, reply.code) == (401, 2010)
    alice = api.token("alice")
    reply = (scrap(api, alice, [device_id(container, COLD_ROOM_A), 2_000_000]) if path == SCRAP else
             api.call("POST", RESTORE, token=alice, query={"deviceId": 2_000_000}))
    assert (reply.status, reply.code, reply.data) == (404, 404, None)
    assert scrapped_at(container) == {} and logged(container) == []
