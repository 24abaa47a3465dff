"""Waybills over the API (issue 20) with the demo data and its teams: alice makes a waybill, binds her
truck logger, starts and finishes the trip; the trip's limits take precedence over a device's rule
(late history judged by its own instants); the report's figures, PDF and verification code; share
links that expire and are revoked; the public quick query shows a receiver nothing private and a
made-up number nothing at all; and the attacks: a stranger gets 404, a sharee and a read-only member
may read but not change, hostile values 422, 201 devices refused."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO

import pytest
from dependency_injector import providers
from PIL import Image
from pypdf import PdfReader
from sqlalchemy import event, select
from sqlalchemy.exc import IntegrityError

from adapters.maps.tiles import HttpTiles
from adapters.persistence.models import WaybillDeviceRow, WaybillLinkOpenRow, WaybillRow
from core.telemetry.model import Position, Reading
from tests.support.alarms import alarms, device_id, report, store
from tests.support.api import ApiClient, ok
from tests.support.demo_copy import seeded

W = "/device/Waybill"
Q = "/device/QuickSearch"
TRUCK, FRIDGE, ROOM_A = "LOGET8A0000001", "RCW360A0000003", "RCW360A0000001"
WAREHOUSE = "CR2B000000001"  # acme's organization's: dave only reads it
PRIVATE = ("13800000001", "1 Dock Road", "13900000002", "9 Pharmacy Lane", "Ann")
F = "/device/DeviceFence"
DEPOT = {"shape": "circle", "lat": 31.23, "lon": 121.47, "radius": 500}
YARD = {"shape": "polygon", "points": [{"lat": 31.30, "lon": 121.50}, {"lat": 31.30, "lon": 121.51},
                                       {"lat": 31.31, "lon": 121.51}, {"lat": 31.31, "lon": 121.50}]}
NO_POSITIONS = "No positions were recorded on this trip"


@pytest.fixture
def teams(app):
    seeded(app, history=False, teams=True)
    return app


@pytest.fixture
def api(teams) -> ApiClient:
    return ApiClient(teams.flask.test_client())


@contextmanager
def statements(container) -> Iterator[list[str]]:
    """The SQL statements run meanwhile (their text, not their values)."""
    ran: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany) -> None:
        ran.append(statement)

    event.listen(container.engine(), "before_cursor_execute", record)
    try:
        yield ran
    finally:
        event.remove(container.engine(), "before_cursor_execute", record)


def new_waybill(api, token, **fields) -> dict:
    body = {"orderNum": "WB-1001", "goodsName": "Vaccines", "upperLimit": 8.0, "lowerLimit": 2.0,
            "senderName": "Ann", "senderPhone": "13800000001", "senderAddress": "1 Dock Road",
            "receiverName": "Clinic", "receiverPhone": "13900000002", "receiverAddress": "9 Pharmacy Lane",
            "alarmContacts": [{"name": "Dock", "phone": "13800000003"}], **fields}
    return ok(api.call("POST", f"{W}/insert", token=token, json=body))


def on_trip(api, container, token, *guids, **fields) -> dict:
    made = new_waybill(api, token, **fields)
    ok(api.call("POST", f"{W}/batchBind", token=token, json={
        "id": made["id"], "deviceIds": [device_id(container, g) for g in guids]}))
    return ok(api.call("POST", f"{W}/updateState", token=token, json={"id": made["id"], "state": 1}))


def pdf_text(data: bytes) -> str:
    assert data.startswith(b"%PDF")
    return "\n".join(page.extract_text() for page in PdfReader(BytesIO(data)).pages)


def pdf_images(data: bytes) -> int:
    return sum(len(page.images) for page in PdfReader(BytesIO(data)).pages)


def drive(container, guid: str, start, count: int) -> list[tuple[datetime, float, float]]:
    """A truck's readings every 30 s northwards, each sixth without a position (a fix lost);
    (instant, lat, lon) of those with one, in time order."""
    did, readings, fixes = device_id(container, guid), [], []
    for i in range(count):
        ts = start + timedelta(seconds=30 * (i + 1))
        lat, lon = 31.23 + i * 0.0001, 121.47 + (i % 40) * 0.00005
        place = None if i % 6 == 5 else Position(lat, lon, 8.0)
        readings.append(Reading(did, ts, 5.0, None, position=place))
        if place:
            fixes.append((ts, lat, lon))
    store(container, readings)
    return fixes


def route_trip(api, container, clock, alice, **fields) -> tuple[dict, list[tuple[datetime, float, float]]]:
    """alice's truck on a finished trip of 1,200 readings (1,000 with a position), her fridge on it
    without any position."""
    start = clock.now()
    trip = on_trip(api, container, alice, TRUCK, FRIDGE, **fields)
    fixes = drive(container, TRUCK, start, 1200)
    report(container, FRIDGE, start, (1, 5.0), (2, 5.5))
    clock.advance(hours=11)
    ok(api.call("POST", f"{W}/updateState", token=alice, json={"id": trip["id"], "state": 2}))
    return trip, fixes


def test_the_report_gives_each_device_its_route_thinned_in_time_order_and_the_pdf_maps_the_own_fences(teams, api):
    container, clock, alice = teams.container, teams.clock, api.token("alice")
    depot = ok(api.call("POST", f"{F}/insert", token=alice, json={"name": "Depot", "areas": [DEPOT]}))
    bobs = ok(api.call("POST", f"{F}/insert", token=api.token("bob"), json={"name": "Bob's yard", "areas": [YARD]}))
    trip, fixes = route_trip(api, container, clock, alice, originFenceId=depot["id"])
    with container.session_factory()() as session:  # refused over the API: as if written before that rule
        session.get(WaybillRow, trip["id"]).destination_fence_id = bobs["id"]
        session.commit()
    owner = ok(api.call("GET", f"{W}/report", token=alice, query={"id": trip["id"]}))
    names = {d["deviceGuid"]: d["deviceName"] for d in owner["waybill"]["devices"]}
    routes = {d["deviceName"]: d["route"] for d in owner["devices"]}
    route = routes[names[TRUCK]]
    assert routes[names[FRIDGE]] == []  # the fridge sent no position
    assert len(fixes) == 1000 and 300 < len(route) <= 500
    assert set(route[0]) == {"ts", "lat", "lon", "acc"} and route[0]["acc"] == 8.0
    shown = [(datetime.fromisoformat(p["ts"]), p["lat"], p["lon"]) for p in route]
    assert [ts for ts, _, _ in shown] == sorted({ts for ts, _, _ in shown})  # in time order, none twice
    assert (shown[0], shown[-1]) == (fixes[0], fixes[-1]) and set(shown) <= set(fixes)  # stored fixes, ends kept
    link = ok(api.call("POST", f"{W}/share", token=alice, json={"id": trip["id"], "validity": "8h"}))
    shared = ok(api.call("GET", f"{Q}/share", query={"token": link["token"]}))
    assert sorted(d["route"] for d in shared["devices"]) == sorted(d["route"] for d in owner["devices"])
    pdf = teams.flask.test_client().get(f"/api{Q}/sharePdf", query_string={"token": link["token"]},
                                        headers={"Accept-Language": "en-US"})
    text = pdf_text(pdf.data)
    assert text.index("Temperature") < text.index("Route") < text.index("Excursions")  # after the chart
    assert all(word in text for word in ("Start", "End", "Origin", "121.4")) and NO_POSITIONS not in text
    assert "Destination" not in text and "Bob" not in text  # bob's fence on alice's waybill is not drawn


class TileServer:
    """Real HTTP tiles on a local port: each a Pillow PNG; `failing` answers 500 instead."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []  # (path, User-Agent)
        self.failing = False
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                owner.asked.append((self.path, self.headers.get("User-Agent", "")))
                if owner.failing:
                    self.send_error(500)
                    return
                out = BytesIO()
                Image.new("RGB", (256, 256), (200, 220, 240)).save(out, "PNG")
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(out.getvalue())))
                self.end_headers()
                self.wfile.write(out.getvalue())

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/tiles/{{z}}/{{x}}/{{y}}.png"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def tile_server(teams):
    server = TileServer()
    teams.container.map_tiles.override(providers.Object(HttpTiles(server.url)))
    yield server
    teams.container.map_tiles.reset_override()
    server.server.shutdown()


def test_the_route_map_lies_on_the_configured_tiles_and_is_drawn_without_them_when_they_fail(teams, api, tile_server,
                                                                                               caplog):
    container, clock, alice = teams.container, teams.clock, api.token("alice")
    trip, _ = route_trip(api, container, clock, alice)
    client, headers = teams.flask.test_client(), {"Authorization": f"Bearer {alice}", "Accept-Language": "en-US"}
    pdf = client.get(f"/api{W}/reportPdf", query_string={"id": trip["id"]}, headers=headers)
    assert pdf.status_code == 200 and pdf_images(pdf.data) == 1  # the tiles laid side by side, one image
    assert 1 <= len(tile_server.asked) <= 16
    assert all(path.startswith("/tiles/") and agent.startswith("coldchain") for path, agent in tile_server.asked)
    tile_server.failing = True
    with caplog.at_level(logging.WARNING, logger="adapters.exports.route_map"):
        without = client.get(f"/api{W}/reportPdf", query_string={"id": trip["id"]}, headers=headers)
    assert without.status_code == 200 and pdf_images(without.data) == 0 and "Route" in pdf_text(without.data)
    assert "without its base map" in caplog.text


def test_a_trip_goes_from_not_started_to_finished_and_its_excursions_alarm_against_its_limits(teams, api):
    container, clock, alice = teams.container, teams.clock, api.token("alice")
    start = clock.now()
    trip = on_trip(api, container, alice, TRUCK)
    assert (trip["state"], trip["devices"][0]["deviceGuid"]) == (1, TRUCK)
    report(container, TRUCK, start, (1, 5.0), (2, 9.5), (3, 10.0), (4, 6.0))  # the truck has no alarm rule
    [alarm] = alarms(container, TRUCK)
    assert (alarm.limit_value, alarm.ended_at is not None) == (8.0, True)
    clock.advance(minutes=10)
    finished = ok(api.call("POST", f"{W}/updateState", token=alice, json={"id": trip["id"], "state": 2}))
    assert (finished["state"], finished["alarmCount"], finished["corrected"]) == (2, 1, True)
    assert finished["spanStart"] != finished["startedAt"]  # corrected to the first reading of the trip
    again = api.call("POST", f"{W}/updateState", token=alice, json={"id": trip["id"], "state": 1})
    assert (again.status, again.code) == (409, 2101)
    refused = api.call("PUT", f"{W}/update", token=alice, json={"id": trip["id"], "goodsName": "Other"})
    assert (refused.status, refused.code) == (409, 2104)
    figures = ok(api.call("GET", f"{W}/report", token=alice, query={"id": trip["id"]}))["devices"][0]
    assert (figures["count"], figures["maximum"], figures["outOfRangeSeconds"]) == (4, 10.0, 120)
    assert 5.0 < figures["mkt"] < 10.0 and len(figures["excursions"]) == 1


def test_the_trip_limits_take_precedence_over_the_device_rule_and_late_history_is_judged_by_its_instants(
        teams, api):
    container, clock, alice = teams.container, teams.clock, api.token("alice")
    start = clock.now()
    trip = on_trip(api, container, alice, FRIDGE, upperLimit=15.0, lowerLimit=-5.0)  # the fridge's rule: 2-8 °C
    report(container, FRIDGE, start, *((m, 10.0) for m in range(0, 11)))
    assert alarms(container, FRIDGE) == []  # 10 °C is inside the trip's limits
    clock.advance(minutes=20)
    ok(api.call("POST", f"{W}/updateState", token=alice, json={"id": trip["id"], "state": 2}))
    # the logger uploads what it stored during the trip after it: judged by the trip's limits
    report(container, FRIDGE, start, *((m, 16.0) for m in range(12, 19)))  # the rule's delay is 5 minutes
    [late] = alarms(container, FRIDGE)
    assert (late.limit_value, late.started_at) == (15.0, start + timedelta(minutes=12))
    # after the trip, the rule's 8 °C again
    report(container, FRIDGE, start, (30, 5.0), *((m, 10.0) for m in range(31, 41)))
    assert [a.limit_value for a in alarms(container, FRIDGE)] == [15.0, 8.0]


def test_a_device_runs_one_trip_at_a_time_even_against_the_database(teams, api):
    container, alice = teams.container, api.token("alice")
    on_trip(api, container, alice, TRUCK)
    second = new_waybill(api, alice, orderNum="WB-2")
    ok(api.call("POST", f"{W}/batchBind", token=alice, json={"id": second["id"],
                                                            "deviceIds": [device_id(container, TRUCK)]}))
    refused = api.call("POST", f"{W}/updateState", token=alice, json={"id": second["id"], "state": 1})
    assert (refused.status, refused.code) == (409, 2102)
    with container.session_factory()() as session, pytest.raises(IntegrityError):
        row = session.get(WaybillDeviceRow, (second["id"], device_id(container, TRUCK)))
        row.running = True
        session.commit()


def test_a_stranger_gets_404_and_a_sharee_or_read_only_member_reads_but_changes_nothing(teams, api):
    container, alice, bob = teams.container, api.token("alice"), api.token("bob")
    mine = new_waybill(api, alice)
    assert api.call("GET", f"{W}/get", token=bob, query={"id": mine["id"]}).status == 404
    assert api.call("DELETE", f"{W}/delete", token=bob, query={"id": mine["id"]}).status == 404
    ok(api.call("POST", f"{W}/batchBind", token=alice, json={"id": mine["id"],
                                                            "deviceIds": [device_id(container, ROOM_A)]}))
    seen = ok(api.call("GET", f"{W}/get", token=bob, query={"id": mine["id"]}))  # bob: a sharee of cold room A
    assert seen["changeable"] is False
    for method, path, body in (("PUT", "update", {"id": mine["id"], "orderNum": "X"}),
                               ("POST", "updateState", {"id": mine["id"], "state": 1}),
                               ("POST", "share", {"id": mine["id"], "validity": "8h"})):
        assert api.call(method, f"{W}/{path}", token=bob, json=body).status == 403
    acme, dave = api.token("acme"), api.token("dave")
    org = next(g for g in ok(api.call("GET", "/base/BaseOrganization/list", token=acme))
               if g["organizationName"] == "Acme Cold Chain")["organizationId"]
    theirs = new_waybill(api, acme, organizationId=org)
    assert ok(api.call("GET", f"{W}/get", token=dave, query={"id": theirs["id"]}))["changeable"] is False
    assert api.call("DELETE", f"{W}/delete", token=dave, query={"id": theirs["id"]}).status == 403
    refused = api.call("POST", f"{W}/batchBind", token=alice, json={
        "id": mine["id"], "deviceIds": [device_id(container, WAREHOUSE)]})
    assert refused.status == 404  # acme's device, which alice does not see
    assert ok(api.call("GET", f"{W}/get", token=alice, query={"id": mine["id"]}))["orderNum"] == "WB-1001"


@pytest.mark.parametrize("field,value", [
    ("orderNum", "x" * 21), ("goodsName", "\ud800"), ("expressNumber", "y" * 101), ("upperLimit", 1e308),
    ("upperLimit", 1.0), ("senderPhone", "call me"), ("alarmContacts", [{"name": "No way"}]),
])
def test_hostile_or_inconsistent_values_are_refused_and_change_nothing(api, field, value):
    alice = api.token("alice")
    reply = api.call("POST", f"{W}/insert", token=alice, json={"lowerLimit": 2.0, field: value})
    assert reply.status == 422, reply.body
    assert ok(api.call("POST", f"{W}/page", token=alice, json={}))["totalCount"] == 0


def test_more_than_two_hundred_devices_in_one_bind_are_refused(api):
    alice = api.token("alice")
    mine = new_waybill(api, alice)
    reply = api.call("POST", f"{W}/batchBind", token=alice, json={"id": mine["id"], "deviceIds": list(range(1, 202))})
    assert reply.status == 422 and "deviceIds" in reply.body["errors"]


def test_a_share_link_shows_the_trip_without_private_data_until_it_expires_or_is_revoked(teams, api):
    container, clock, alice = teams.container, teams.clock, api.token("alice")
    trip = on_trip(api, container, alice, TRUCK)
    report(container, TRUCK, clock.now(), (1, 5.0), (2, 9.0))
    clock.advance(minutes=5)
    link = ok(api.call("POST", f"{W}/share", token=alice, json={"id": trip["id"], "validity": "8h"}))
    shown = api.call("GET", f"{Q}/share", query={"token": link["token"]}, address="203.0.113.7")
    assert ok(shown)["orderNum"] == "WB-1001" and ok(shown)["devices"][0]["count"] == 2
    assert not any(secret in str(shown.body) for secret in (*PRIVATE, TRUCK))
    assert ok(shown)["devices"][0]["route"] == []  # its readings carried no position
    pdf = teams.flask.test_client().get(f"/api{Q}/sharePdf", query_string={"token": link["token"]},
                                        headers={"Accept-Language": "en-US"})
    assert pdf.status_code == 200 and NO_POSITIONS in pdf_text(pdf.data)
    [listed] = ok(api.call("GET", f"{W}/shareList", token=alice, query={"id": trip["id"]}))
    assert listed["opens"][-1]["address"] == "203.0.113.7" and len(listed["opens"]) == 2
    clock.advance(hours=8, seconds=1)
    expired = api.call("GET", f"{Q}/share", query={"token": link["token"]})
    assert (expired.status, expired.code) == (404, 2106)
    fresh = ok(api.call("POST", f"{W}/share", token=alice, json={"id": trip["id"], "validity": "1d"}))
    ok(api.call("POST", f"{W}/shareRevoke", token=alice, json={"shareId": fresh["shareId"]}))
    revoked = api.call("GET", f"{Q}/share", query={"token": fresh["token"]})
    assert (revoked.status, revoked.code) == (404, 2106)
    with container.session_factory()() as session:
        assert len(session.scalars(select(WaybillLinkOpenRow)).all()) == 2  # refused opens are not opens


def test_the_quick_query_of_a_made_up_number_answers_as_a_trip_not_started_and_is_rate_limited(teams, api):
    container, alice = teams.container, api.token("alice")
    new_waybill(api, alice, orderNum="WB-NOT-YET")
    trip = on_trip(api, container, alice, TRUCK, orderNum="WB-RUNNING")
    with statements(container) as made_up_ran:
        made_up = api.call("GET", f"{Q}/waybill", query={"number": "WB-MADE-UP"})
    with statements(container) as not_started_ran:
        not_started = api.call("GET", f"{Q}/waybill", query={"number": "WB-NOT-YET"})
    assert (made_up.status, made_up.body) == (not_started.status, not_started.body) == (
        200, {"code": 0, "msg": "ok", "data": {"waybills": []}})
    # the same work, so the time taken does not tell a number not started from a made-up one either
    assert made_up_ran == not_started_ran and made_up_ran
    [found] = ok(api.call("GET", f"{Q}/waybill", query={"number": "WB-RUNNING"}))["waybills"]
    assert found["state"] == 1 and not any(secret in str(found) for secret in PRIVATE)
    code = found["verificationCode"]
    assert ok(api.call("GET", f"{Q}/verify", query={"code": code}))["valid"] is True
    assert ok(api.call("GET", f"{Q}/verify", query={"code": f"{trip['id']}-0000"}))["valid"] is False
    for _ in range(30 - 5):
        api.call("GET", f"{Q}/waybill", query={"number": "WB-MADE-UP"})
    throttled = api.call("GET", f"{Q}/waybill", query={"number": "WB-MADE-UP"})
    assert throttled.status == 429 and "Retry-After" in throttled.headers
    assert api.call("GET", f"{Q}/waybill", query={"number": "WB-MADE-UP"}, address="198.51.100.1").status == 200


def test_templates_the_pdf_and_the_list_export(teams, api):
    container, alice = teams.container, api.token("alice")
    template = ok(api.call("POST", "/device/WaybillTemplate/insert", token=alice, json={
        "templateName": "Vaccine run", "upperLimit": 8.0, "lowerLimit": 2.0, "goodsName": "Vaccines"}))
    twice = api.call("POST", "/device/WaybillTemplate/insert", token=alice, json={"templateName": "Vaccine run"})
    assert (twice.status, twice.code) == (409, 2108)
    assert api.call("GET", "/device/WaybillTemplate/get", token=api.token("bob"),
                    query={"id": template["id"]}).status == 404
    trip = on_trip(api, container, alice, TRUCK)
    client = teams.flask.test_client()
    headers = {"Authorization": f"Bearer {alice}", "Accept-Language": "zh-CN"}
    pdf = client.get(f"/api{W}/reportPdf", query_string={"id": trip["id"]}, headers=headers)
    assert pdf.status_code == 200 and "本次运输未记录到位置" in pdf_text(pdf.data)  # no position, in Chinese
    sheet = client.post(f"/api{W}/export", json={}, headers=headers)
    assert sheet.status_code == 200 and sheet.data.startswith(b"PK")
