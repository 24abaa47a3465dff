"""`coldchain mqtt-config` against a real Mosquitto: the machine's broker binary started on free
ports with the generated dynamic-security logins and mosquitto.conf. A device publishes on its own
topics only, which the ingest account reads under the devices' mount point; a wrong password
cannot connect. How the running broker follows device changes: test_broker_access.py."""

from __future__ import annotations

import os
import subprocess
import threading
import time

import paho.mqtt.client as mqtt
import pytest

from tests.support.mosquitto import (
    COLDCHAIN,
    INGEST_PASSWORD,
    Client,
    GeneratedBroker,
    add_device,
    require_mosquitto_binary,
)
from tests.support.mqtt import wait_until

pytestmark = pytest.mark.usefixtures("demo")


@pytest.fixture
def broker(app):
    require_mosquitto_binary()
    running = GeneratedBroker(app.container.settings().database_url)
    yield running
    running.stop()


def test_a_device_publishes_only_on_its_own_topics_and_a_wrong_password_is_refused(api, broker):
    password = add_device(api, "MQTTDEVICE0001")
    assert "9 device logins on port" in broker.configure().stdout
    broker.start()
    ingest = Client(broker.ingest_port, "ingest", INGEST_PASSWORD)
    device = Client(broker.device_port, "MQTTDEVICE0001", password)
    try:
        assert ingest.accepted() and device.accepted()
        ingest.subscribe("$share/ingest/fleet/devices/+/telemetry")
        ingest.subscribe("fleet/devices/+/status")
        ingest.subscribe("fleet/devices/+/acks")
        device.publish("devices/MQTTDEVICE0001/telemetry", '{"t": 4.5}').wait_for_publish(10)
        device.publish("devices/RCW360A0000001/telemetry", '{"t": 99}').wait_for_publish(10)  # another's
        device.publish("devices/RCW360A0000001/status", "offline").wait_for_publish(10)
        device.publish("devices/MQTTDEVICE0001/acks", '{"id": "1", "ok": true}').wait_for_publish(10)
        device.publish("devices/MQTTDEVICE0001/status", "online").wait_for_publish(10)
        # Messages of one publisher arrive in order: once the last one is in, the refused ones
        # would have been too.
        wait_until(lambda: ("fleet/devices/MQTTDEVICE0001/status", b"online") in ingest.received, 10, "own status")
        assert ingest.received == [("fleet/devices/MQTTDEVICE0001/telemetry", b'{"t": 4.5}'),
                                   ("fleet/devices/MQTTDEVICE0001/acks", b'{"id": "1", "ok": true}'),
                                   ("fleet/devices/MQTTDEVICE0001/status", b"online")]
        for password_tried in ("wrong-password", ""):
            intruder = Client(broker.device_port, "MQTTDEVICE0001", password_tried)
            assert not intruder.accepted()
            intruder.close()
        for port in (broker.device_port, broker.ingest_port):
            anonymous = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
            assert anonymous.connect("127.0.0.1", port) == 0  # TCP; the CONNACK refuses it
            refused = threading.Event()
            anonymous.on_connect = lambda *args, refused=refused: refused.set() if args[3].is_failure else None
            anonymous.loop_start()
            assert refused.wait(10)
            anonymous.loop_stop()
    finally:
        ingest.close()
        device.close()


def test_a_device_s_last_will_reaches_the_ingest_account(api, broker):
    password = add_device(api, "MQTTDEVICE0005")
    broker.configure()
    broker.start()
    ingest = Client(broker.ingest_port, "ingest", INGEST_PASSWORD)
    logger = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="MQTTDEVICE0005", protocol=mqtt.MQTTv311)
    try:
        assert ingest.accepted()
        ingest.subscribe("$share/ingest/fleet/devices/+/status")
        logger.username_pw_set("MQTTDEVICE0005", password)
        logger.will_set("devices/MQTTDEVICE0005/status", "offline", qos=1, retain=True)
        logger.connect("127.0.0.1", broker.device_port)
        logger.loop_start()
        logger.publish("devices/MQTTDEVICE0005/status", "online", qos=1).wait_for_publish(10)
        logger.loop_stop()
        logger.socket().close()  # gone without a DISCONNECT: the broker publishes the will
        wait_until(lambda: len(ingest.received) == 2, 10, "online, then the will")
        assert ingest.received == [("fleet/devices/MQTTDEVICE0005/status", b"online"),
                                   ("fleet/devices/MQTTDEVICE0005/status", b"offline")]
    finally:
        ingest.close()


def test_a_device_receives_its_own_commands_and_nothing_else_whatever_it_subscribes_to(api, broker):
    spy_password, other_password = add_device(api, "MQTTDEVICE0002"), add_device(api, "MQTTDEVICE0004")
    broker.configure()
    broker.start()
    spy = Client(broker.device_port, "MQTTDEVICE0002", spy_password)
    other = Client(broker.device_port, "MQTTDEVICE0004", other_password)
    ingest = Client(broker.ingest_port, "ingest", INGEST_PASSWORD)
    try:
        assert spy.accepted() and other.accepted() and ingest.accepted()
        for topic in ("devices/+/telemetry", "devices/#", "#", "$share/ingest/devices/+/telemetry",
                      "$share/ingest/fleet/devices/+/telemetry", "$SYS/#", "devices/MQTTDEVICE0004/commands"):
            spy.subscribe(topic)
        other.subscribe("devices/MQTTDEVICE0004/commands")
        ingest.subscribe("$share/ingest/fleet/devices/+/telemetry")
        spy.publish("devices/MQTTDEVICE0004/commands", '{"id": "forged"}').wait_for_publish(10)
        other.publish("devices/MQTTDEVICE0004/telemetry", '{"t": 1}').wait_for_publish(10)
        wait_until(lambda: len(ingest.received) == 1, 10, "the other device's reading at ingest")
        time.sleep(0.3)
        assert spy.received == [] and other.received == []
    finally:
        for client in (spy, other, ingest):
            client.close()


def test_a_device_connects_under_its_own_client_id_whatever_it_asks_for(api, broker):
    first, second = add_device(api, "MQTTDEVICE0006"), add_device(api, "MQTTDEVICE0007")
    broker.configure()
    broker.start()
    victim = Client(broker.device_port, "MQTTDEVICE0007", second, client_id="MQTTDEVICE0007")
    impostor = Client(broker.device_port, "MQTTDEVICE0006", first, client_id="MQTTDEVICE0007")
    ingest = Client(broker.ingest_port, "ingest", INGEST_PASSWORD)
    try:
        assert victim.accepted() and impostor.accepted() and ingest.accepted()
        ingest.subscribe("fleet/devices/+/telemetry")
        victim.publish("devices/MQTTDEVICE0007/telemetry", '{"t": 2}').wait_for_publish(10)
        impostor.publish("devices/MQTTDEVICE0006/telemetry", '{"t": 3}').wait_for_publish(10)
        wait_until(lambda: len(ingest.received) == 2, 10, "both readings")
        assert victim.disconnections == 0 and impostor.disconnections == 0
    finally:
        for client in (victim, impostor, ingest):
            client.close()


def test_the_command_says_what_is_missing_in_production(tmp_path):
    environment = {k: v for k, v in os.environ.items() if k not in ("MQTT_INGEST_PASSWORD", "DATABASE_URL")}
    environment.update({"APP_ENV": "production", "SECRET_KEY": "s" * 40, "VAR_DIR": str(tmp_path)})
    result = subprocess.run([COLDCHAIN, "mqtt-config", "--out", str(tmp_path / "conf")], capture_output=True,
                            text=True, env=environment, timeout=60)
    assert result.returncode == 2 and "MQTT_INGEST_PASSWORD" in result.stderr
    assert not (tmp_path / "conf").exists()
    environment.update({"MQTT_INGEST_PASSWORD": INGEST_PASSWORD, "MQTT_ADMIN_PASSWORD": "", "APP_ENV": "test"})
    result = subprocess.run([COLDCHAIN, "mqtt-config", "--out", str(tmp_path / "conf")], capture_output=True,
                            text=True, env=environment, timeout=60)
    assert result.returncode == 2 and "MQTT_ADMIN_PASSWORD" in result.stderr
