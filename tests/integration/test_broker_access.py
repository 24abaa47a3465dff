"""The running broker follows the devices as they change, with nothing regenerated or reloaded by
hand: the machine's Mosquitto, set up by `coldchain mqtt-config` and started on free ports, and
the console holding its logins through the dynamic-security plugin, as in production."""

from __future__ import annotations

import logging
import subprocess
from datetime import UTC, datetime, timedelta

import paho.mqtt.client as mqtt
import pytest
from sqlalchemy import func, select

from adapters.persistence.models import DeviceRow, ReadingRow
from tests.support.mosquitto import (
    COLDCHAIN,
    INGEST_PASSWORD,
    Client,
    add_device,
    console_environment,
)
from tests.support.mqtt import wait_until


def device_id(app, guid: str) -> int:
    with app.container.session_factory()() as session:
        return session.scalar(select(DeviceRow.id).where(DeviceRow.guid == guid))


def rotate(api, app, guid: str) -> str:
    reply = api.call("POST", "/device/Device/credentials/rotate", token=api.token("alice"),
                     query={"deviceId": device_id(app, guid)})
    assert reply.status == 200, reply.body
    return reply.data["password"]


def delete(api, app, guid: str) -> None:
    reply = api.call("DELETE", "/device/Device/delete", token=api.token("alice"),
                     query={"deviceId": device_id(app, guid)})
    assert reply.status == 200, reply.body


def cut_off(client: Client, timeout: float = 10) -> None:
    wait_until(lambda: client.disconnections > 0, timeout, f"{client.username}'s connection closed by the broker")


def test_a_device_added_through_the_api_connects_at_once_and_publishes_under_its_own_guid_only(demo, api, broker):
    password = add_device(api, "LIVEDEVICE0001")
    ingest = Client(broker.ingest_port, "ingest", INGEST_PASSWORD)
    try:
        assert ingest.accepted()
        ingest.subscribe("fleet/devices/+/telemetry")
        # One connection at a time: the broker gives both the device's GUID as client id.
        for protocol, reading in ((mqtt.MQTTv5, b'{"t": 4.5}'), (mqtt.MQTTv311, b'{"t": 4.6}')):
            device = Client(broker.device_port, "LIVEDEVICE0001", password, protocol=protocol)
            assert device.accepted()
            device.publish("devices/RCW360A0000001/telemetry", '{"t": 99}').wait_for_publish(10)  # another's GUID
            device.publish("devices/LIVEDEVICE0001/telemetry", reading).wait_for_publish(10)
            device.close()
        wait_until(lambda: len(ingest.received) == 2, 10, "both of its own readings")
        assert ingest.received == [("fleet/devices/LIVEDEVICE0001/telemetry", b'{"t": 4.5}'),
                                   ("fleet/devices/LIVEDEVICE0001/telemetry", b'{"t": 4.6}')]
        assert not Client(broker.device_port, "LIVEDEVICE0001", "").accepted()  # no password
        assert not Client(broker.device_port, "", "").accepted()  # no login at all
    finally:
        ingest.close()


def test_after_a_rotation_the_old_password_is_cut_off_and_refused_and_the_new_one_works(demo, api, app, broker):
    old = add_device(api, "LIVEDEVICE0002")
    connected = Client(broker.device_port, "LIVEDEVICE0002", old)
    assert connected.accepted()
    new = rotate(api, app, "LIVEDEVICE0002")
    cut_off(connected)
    connected.close()
    assert not Client(broker.device_port, "LIVEDEVICE0002", old).accepted()
    assert Client(broker.device_port, "LIVEDEVICE0002", new).accepted()


def test_a_deleted_device_is_disconnected_and_cannot_connect_again(demo, api, app, broker):
    password = add_device(api, "LIVEDEVICE0003")
    connected = Client(broker.device_port, "LIVEDEVICE0003", password)
    assert connected.accepted()
    delete(api, app, "LIVEDEVICE0003")
    cut_off(connected)
    connected.close()
    assert not Client(broker.device_port, "LIVEDEVICE0003", password).accepted()


def test_a_device_on_the_workers_listener_can_neither_take_their_id_nor_read_their_topics(demo, api, broker):
    """Both listeners share the plugin's logins: a device reaching the workers' listener is still
    only itself there, under its own client id and its own topics."""
    password = add_device(api, "LIVEDEVICE0004")
    impostor = Client(broker.ingest_port, "LIVEDEVICE0004", password, client_id="ingest-a")
    assert not impostor.accepted()
    device = Client(broker.ingest_port, "LIVEDEVICE0004", password, client_id="LIVEDEVICE0004")
    try:
        assert device.accepted()
        refused = [device.subscribe(topic)[0].is_failure for topic in (
            "$share/ingest/fleet/devices/+/telemetry", "fleet/devices/+/telemetry", "#")]
        assert refused == [True, True, True]
    finally:
        device.close()


def test_a_v5_device_s_readings_are_stored_by_the_worker_and_another_guid_s_are_not(demo, api, app, broker):
    from entrypoints.ingest import build_worker, worker_config

    c = app.container
    password = add_device(api, "LIVEDEVICE0005")
    worker = build_worker(c, worker_config(c, url=broker.ingest_url, client_id="ingest-live",
                                           password=INGEST_PASSWORD, max_latency_s=0.05))
    worker.start()
    device = Client(broker.device_port, "LIVEDEVICE0005", password)
    try:
        assert worker.wait_connected(10) and device.accepted()
        ts = (datetime.now(UTC) - timedelta(minutes=1)).replace(microsecond=0).isoformat()
        ids = [device_id(app, guid) for guid in ("LIVEDEVICE0005", "RCW360A0000001")]

        def stored() -> list[int]:
            with c.session_factory()() as session:
                return [session.scalar(select(func.count()).select_from(ReadingRow).where(
                    ReadingRow.device_id == i, ReadingRow.ts >= datetime.now(UTC) - timedelta(minutes=2))) for i in ids]

        before = stored()
        device.publish("devices/RCW360A0000001/telemetry", f'{{"ts":"{ts}","t":9}}').wait_for_publish(10)

        def sent_and_stored() -> bool:
            # The worker may subscribe after the first sending; one reading is stored once however
            # often it is sent.
            device.publish("devices/LIVEDEVICE0005/telemetry", f'{{"ts":"{ts}","t":4}}').wait_for_publish(10)
            return stored()[0] > before[0]

        wait_until(sent_and_stored, 30, "the device's reading")
        assert stored() == [before[0] + 1, before[1]]
    finally:
        device.close()
        worker.stop()


def test_changes_the_broker_missed_while_down_are_put_right_by_its_next_start_and_listed_meanwhile(
        demo, api, app, broker, caplog):
    keep, drop = add_device(api, "LIVEDEVICE0006"), add_device(api, "LIVEDEVICE0007")
    broker.halt()
    with caplog.at_level(logging.WARNING, logger="coldchain.broker"):
        new = rotate(api, app, "LIVEDEVICE0006")  # answered all the same: the database has it
        assert "LIVEDEVICE0006" in caplog.text and "mqtt-sync" in caplog.text
    broker.start()  # the plugin's file from before: the missed rotation is not in it
    assert Client(broker.device_port, "LIVEDEVICE0006", keep).accepted()
    delete(api, app, "LIVEDEVICE0007")  # while it answers: refused at once
    assert not Client(broker.device_port, "LIVEDEVICE0007", drop).accepted()
    environment = console_environment(app.container.settings().database_url, broker.root / "var",
                                      MQTT_URL=broker.ingest_url)
    sync = subprocess.run([COLDCHAIN, "mqtt-sync"], capture_output=True, text=True, env=environment, timeout=60)
    assert sync.returncode == 1 and "LIVEDEVICE0006" in sync.stderr and "mqtt-config" in sync.stderr
    broker.halt()
    broker.configure()  # written from the database while the broker is stopped, as ExecStartPre does
    broker.start()
    assert not Client(broker.device_port, "LIVEDEVICE0006", keep).accepted()
    assert Client(broker.device_port, "LIVEDEVICE0006", new).accepted()
    sync = subprocess.run([COLDCHAIN, "mqtt-sync"], capture_output=True, text=True, env=environment, timeout=60)
    assert sync.returncode == 0, sync.stderr


def test_mqtt_sync_refuses_a_device_deleted_while_the_broker_was_away(demo, api, app, broker):
    password = add_device(api, "LIVEDEVICE0008")
    app.container.broker_access.override(type(broker.access())("mqtt://127.0.0.1:9", "unreachable-0123456789"))
    delete(api, app, "LIVEDEVICE0008")
    app.container.broker_access.reset_override()
    device = Client(broker.device_port, "LIVEDEVICE0008", password)
    assert device.accepted()  # the broker never heard of it
    environment = console_environment(app.container.settings().database_url, broker.root / "var",
                                      MQTT_URL=broker.ingest_url)
    sync = subprocess.run([COLDCHAIN, "mqtt-sync"], capture_output=True, text=True, env=environment, timeout=60)
    assert sync.returncode == 0 and "LIVEDEVICE0008" in sync.stdout, sync.stderr
    cut_off(device)
    device.close()
    assert not Client(broker.device_port, "LIVEDEVICE0008", password).accepted()


def test_nothing_is_granted_through_a_broker_that_refuses_the_console_s_login(broker):
    from adapters.mosquitto.dynsec import BrokerUnreachable, DynsecBrokerAccess

    with pytest.raises(BrokerUnreachable, match="refused"):
        DynsecBrokerAccess(broker.ingest_url, "not-the-admin-password").converge([])


def scrap(api, app, guid: str, action: str = "scrap") -> None:
    target = device_id(app, guid)
    reply = (api.call("POST", "/device/Device/scrap", token=api.token("alice"), json={"deviceIds": [target]})
             if action == "scrap" else
             api.call("POST", "/device/Device/restore", token=api.token("alice"), query={"deviceId": target}))
    assert reply.status == 200, reply.body


def test_a_scrapped_device_is_cut_off_and_refused_even_after_a_restart_and_connects_again_once_restored(
        demo, api, app, broker):
    password = add_device(api, "LIVEDEVICE0009")
    connected = Client(broker.device_port, "LIVEDEVICE0009", password)
    assert connected.accepted()
    scrap(api, app, "LIVEDEVICE0009")
    cut_off(connected)
    connected.close()
    assert not Client(broker.device_port, "LIVEDEVICE0009", password).accepted()
    broker.halt()
    broker.configure()  # the plugin's file written from the database keeps the login disabled
    broker.start()
    assert not Client(broker.device_port, "LIVEDEVICE0009", password).accepted()
    scrap(api, app, "LIVEDEVICE0009", "restore")
    assert Client(broker.device_port, "LIVEDEVICE0009", password).accepted()  # the password it had


def test_mqtt_sync_disables_a_device_scrapped_while_the_broker_was_away(demo, api, app, broker):
    password = add_device(api, "LIVEDEVICE0010")
    app.container.broker_access.override(type(broker.access())("mqtt://127.0.0.1:9", "unreachable-0123456789"))
    scrap(api, app, "LIVEDEVICE0010")
    app.container.broker_access.reset_override()
    device = Client(broker.device_port, "LIVEDEVICE0010", password)
    assert device.accepted()  # the broker never heard of it
    environment = console_environment(app.container.settings().database_url, broker.root / "var",
                                      MQTT_URL=broker.ingest_url)
    sync = subprocess.run([COLDCHAIN, "mqtt-sync"], capture_output=True, text=True, env=environment, timeout=60)
    assert sync.returncode == 0, sync.stderr
    cut_off(device)
    device.close()
    assert not Client(broker.device_port, "LIVEDEVICE0010", password).accepted()
