"""Steps of features/onboarding/*.feature: the console's API, a Mosquitto set up as in production
(`coldchain mqtt-config` on free ports, logins changed through the dynamic-security plugin), and
the real ingest worker storing what the devices publish, with alarms evaluated as `coldchain ingest`
does."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from urllib.parse import parse_qsl, urlsplit

import paho.mqtt.client as mqtt
import pytest
from pytest_bdd import given, parsers, then, when
from sqlalchemy import func, select
from tests.support.alarms import device, outbox
from tests.support.mosquitto import INGEST_PASSWORD, Client, GeneratedBroker, require_mosquitto_binary
from tests.support.mqtt import unique, wait_until

from adapters.mosquitto.dynsec import DEVICE_MOUNT_POINT
from adapters.persistence.models import ReadingRow
from entrypoints.ingest import build_worker, worker_config

PAID = 2


@pytest.fixture
def fleet_broker(app):
    """The broker and one ingest worker, as production runs them; stopped after the scenario."""
    require_mosquitto_binary()
    broker = GeneratedBroker(app.container.settings().database_url)
    broker.configure()
    broker.start()
    app.container.broker_access.override(broker.access())
    config = replace(worker_config(app.container, client_id=unique("ingest-"), url=broker.ingest_url,
                                   password=INGEST_PASSWORD, topic_prefix=DEVICE_MOUNT_POINT),
                     username="ingest", share_group=None, max_latency_s=0.05)
    worker = build_worker(app.container, config)
    worker.start()
    assert worker.wait_connected(10), "the ingest worker did not connect"
    yield broker
    worker.stop()
    app.container.broker_access.reset_override()
    broker.stop()


def _logger(world) -> dict:
    return world["logger"]


def _stored(container, guid: str) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(ReadingRow)
                              .where(ReadingRow.device_id == device(container, guid).id))


def _publish(broker, logger: dict, topic_guid: str, payload: dict) -> None:
    client = Client(broker.device_port, logger["guid"], logger["password"], client_id=logger["guid"],
                    protocol=mqtt.MQTTv5)
    try:
        assert client.accepted(), f"the broker refused {logger['guid']}: {client.reason}"
        client.publish(f"devices/{topic_guid}/telemetry", json.dumps(payload)).wait_for_publish(10)
    finally:
        client.close()


# --- given -----------------------------------------------------------------------------------


@given("the console's broker and an ingest worker are running")
def _broker_running(fleet_broker, world):
    world["broker"] = fleet_broker


# --- when ------------------------------------------------------------------------------------


@when(parsers.parse("{user} adds her logger {guid} by its GUID"))
def _adds_logger(api, world, user, guid):
    token = world["tokens"][user]
    types = api.call("GET", "/device/DeviceType/selectTypeList", token=token).data
    reply = api.call("POST", "/device/Device/insert", token=token, json={
        "deviceGuid": guid, "deviceName": "Vaccine fridge logger", "typeId": types[0]["typeId"]})
    assert reply.status == 200, reply.body
    world["logger"] = {"guid": guid, "id": reply.data["device"]["deviceId"], "owner": user,
                       "username": reply.data["credentials"]["username"],
                       "password": reply.data["credentials"]["password"]}


@when(parsers.parse("her logger logs in with that login over MQTT 5 and publishes {value:g} °C"))
def _publishes_once(container, clock, world, value):
    logger = _logger(world)
    before = _stored(container, logger["guid"])
    ts = clock.now() - timedelta(minutes=10)  # a while ago: what it publishes next is later
    _publish(world["broker"], logger, logger["guid"], {"ts": ts.isoformat(), "t": value, "seq": 1})
    wait_until(lambda: _stored(container, logger["guid"]) == before + 1, 10, "the reading stored")


@when(parsers.parse("{user} limits her logger to 2-8 °C with a 5-minute delay, texting {phone} at level 1"))
def _limits(api, world, user, phone):
    reply = api.call("POST", "/device/DeviceAlarmRule/insert", token=world["tokens"][user], json={
        "deviceId": _logger(world)["id"], "probe": "t", "name": "2-8 °C", "upperLimit": 8.0, "lowerLimit": 2.0,
        "delaySeconds": 300, "recipients": [{"level": 1, "name": "Nina", "phone": phone}]})
    assert reply.status == 200, reply.body


@when(parsers.parse("{user} buys 100 SMS for her logger and the payment notification arrives"))
def _buys_sms(api, world, user):
    token, logger = world["tokens"][user], _logger(world)
    packages = api.call("GET", "/payment/PaySmsPackages/selectSmsPackage", token=token,
                        query={"countryCode": "86"}).data
    [package] = [p for p in packages["smsList"] if p["smsCount"] == 100]
    order = api.call("POST", "/payment/PayOrder/createSmsOrder", token=token, json={
        "applyFlag": 0, "deviceId": logger["id"], "payType": 1, "smsPackageId": package["packageId"],
        "smsCount": 100, "smsFee": package["packageFee"], "voicePackageId": None, "voiceCount": 0, "voiceFee": 0,
        "totalFee": package["packageFee"], "countryCode": "86"})
    assert order.status == 200 and order.code == 0, order.body
    # The development gateway's QR code is its signed notification: scanning it is paying.
    link = urlsplit(order.data["payQrCode"])
    paid = api.call("GET", link.path.removeprefix("/api"), query=dict(parse_qsl(link.query)))
    assert paid.data == {"payStatus": PAID}, paid.body


@when(parsers.parse("her logger publishes {value:g} °C for {minutes:d} minutes"))
def _publishes_for(container, clock, world, value, minutes):
    logger = _logger(world)
    before = _stored(container, logger["guid"])
    start = clock.now() - timedelta(minutes=minutes)
    readings = [{"ts": (start + timedelta(minutes=m)).isoformat(), "t": value, "seq": 10 + m}
                for m in range(minutes + 1)]
    _publish(world["broker"], logger, logger["guid"], {"readings": readings})
    wait_until(lambda: _stored(container, logger["guid"]) == before + len(readings), 10, "the readings stored")


# --- then ------------------------------------------------------------------------------------


@then("her logger has two months of service free and no SMS")
def _free_months(container, clock, world):
    row = device(container, _logger(world)["guid"])
    expires = row.service_expires_at.replace(tzinfo=clock.now().tzinfo)
    assert timedelta(days=58) < expires - clock.now() < timedelta(days=63)
    assert (row.sms_count, row.voice_count) == (0, 0)


@then("she was shown her logger's broker login once")
def _login_once(api, world):
    logger = _logger(world)
    assert logger["username"] == logger["guid"] and len(logger["password"]) >= 16
    token, query = world["tokens"][logger["owner"]], {"deviceId": logger["id"]}
    for path in ("/device/Device/get", "/device/Device/credentials"):  # never shown again
        reply = api.call("GET", path, token=token, query=query)
        assert reply.status == 200 and logger["password"] not in json.dumps(reply.body), reply.body


@then(parsers.parse("{user}'s device list shows her logger at {value:g} °C"))
def _list_shows(api, world, user, value):
    page = api.call("POST", "/device/Device/page", token=world["tokens"][user], json={"start": 1, "pageSize": 10})
    assert page.status == 200, page.body
    [row] = [r for r in page.data["data"] if r["deviceGuid"] == _logger(world)["guid"]]
    assert row["temperature"] == value


@then(parsers.parse("her logger has {count:d} SMS to spend"))
def _sms_to_spend(container, world, count):
    assert device(container, _logger(world)["guid"]).sms_count == count


@then(parsers.parse("{user}'s message centre shows 1 untreated alarm of her logger"))
def _one_alarm(api, world, user):
    reply = api.call("POST", "/device/DeviceAlarm/page", token=world["tokens"][user], json={"state": 0})
    assert reply.status == 200, reply.body
    assert [a["deviceId"] for a in reply.data["data"]] == [_logger(world)["id"]]


@then(parsers.parse("an SMS about her logger goes to {phone}"))
def _sms_goes(container, world, phone):
    sms = [m for m in outbox(container) if m.channel == "phone" and m.recipient == phone]
    assert len(sms) == 1 and sms[0].params["device"] == "Vaccine fridge logger"


@then("the broker refuses her logger without its password")
def _refused_without_password(world):
    logger = _logger(world)
    assert not Client(world["broker"].device_port, logger["guid"], "not-its-password").accepted()
    assert not Client(world["broker"].device_port, logger["guid"], "").accepted()


@then("a reading her logger publishes under another device's GUID is not stored")
def _not_under_another_guid(container, clock, world):
    logger, other = _logger(world), "RCW360A0000001"  # alice's cold room A
    before = _stored(container, other)
    _publish(world["broker"], logger, other, {"ts": clock.now().isoformat(), "t": 99.0, "seq": 1})
    _publish(world["broker"], logger, logger["guid"], {"ts": clock.now().isoformat(), "t": 4.0, "seq": 2})
    wait_until(lambda: _stored(container, logger["guid"]) == 1, 10, "its own reading stored")
    assert _stored(container, other) == before
