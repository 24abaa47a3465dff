"""Device passwords are stored in Mosquitto's own hash format, so the dynamic-security plugin's
logins are written straight from the table, without a password in clear."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess

import pytest

from adapters.mosquitto.config import BrokerLayout, mosquitto_conf, write_broker_config
from adapters.mosquitto.dynsec import dynamic_security_config, fingerprint
from adapters.mosquitto.passwords import MosquittoPasswordHasher
from core.devices.credentials import BrokerAccounts, claimable_by_a_device
from core.devices.ports import BrokerAccount

MOSQUITTO_PASSWD = "/usr/bin/mosquitto_passwd"
FORMAT = re.compile(r"^\$7\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$")


def test_a_hash_is_pbkdf2_sha512_in_mosquitto_s_7_format():
    hashed = MosquittoPasswordHasher().hash("s3cret-Password")
    iterations, salt, digest = FORMAT.match(hashed).groups()
    assert int(iterations) == 101
    assert len(base64.b64decode(salt)) == 12 and len(base64.b64decode(digest)) == 64


def test_two_hashes_of_one_password_differ_and_both_verify():
    hasher = MosquittoPasswordHasher()
    first, second = hasher.hash("same"), hasher.hash("same")
    assert first != second
    assert hasher.verify(first, "same") and hasher.verify(second, "same")
    assert not hasher.verify(first, "Same") and not hasher.verify("$7$101$garbage", "same")


def test_a_hash_written_by_mosquitto_passwd_verifies(tmp_path):
    if not shutil.which(MOSQUITTO_PASSWD):
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"{MOSQUITTO_PASSWD} is missing")
        pytest.skip(f"{MOSQUITTO_PASSWD} is missing")
    path = tmp_path / "passwd"
    subprocess.run([MOSQUITTO_PASSWD, "-c", "-b", str(path), "RCW360A0000001", "from-the-binary"], check=True)
    username, hashed = path.read_text().strip().split(":", 1)
    assert username == "RCW360A0000001" and FORMAT.match(hashed)
    assert MosquittoPasswordHasher.verify(hashed, "from-the-binary")
    assert not MosquittoPasswordHasher.verify(hashed, "from-the-binar")


def test_the_plugin_stores_the_console_s_hash_as_it_is_and_it_checks_the_password_as_the_plugin_does():
    hashed = MosquittoPasswordHasher().hash("device-password")
    config = dynamic_security_config(BrokerAccounts([BrokerAccount("ABCDEFGH", hashed)], []))
    [device] = [c for c in config["clients"] if c["username"] == "ABCDEFGH"]
    digest = hashlib.pbkdf2_hmac("sha512", b"device-password", base64.b64decode(device["salt"]),
                                 device["iterations"], 64)
    assert base64.b64encode(digest).decode() == device["password"]
    assert device["clientid"] == "ABCDEFGH" and device["textName"] == fingerprint(hashed)
    with pytest.raises(ValueError):  # only PBKDF2-SHA512 ($7$) is what the plugin reads
        dynamic_security_config(BrokerAccounts([BrokerAccount("ABCDEFGH", "$6$1$a$b")], []))


def test_each_device_has_a_role_confined_to_its_own_topics_and_ingest_reads_them_all():
    accounts = BrokerAccounts([BrokerAccount("ABCDEFGH", "$7$101$YWJj$ZGVm")],
                              [BrokerAccount("ingest", "$7$1$YQ==$Yg==")],
                              [BrokerAccount("broker-admin", "$7$1$YQ==$Yw==")])
    config = dynamic_security_config(accounts)
    roles = {role["rolename"]: [(a["acltype"], a["topic"]) for a in role["acls"]] for role in config["roles"]}
    assert roles["device-ABCDEFGH"] == [
        ("publishClientSend", "fleet/devices/ABCDEFGH/telemetry"),
        ("publishClientSend", "fleet/devices/ABCDEFGH/status"),
        ("publishClientSend", "fleet/devices/ABCDEFGH/acks"), ("subscribePattern", "fleet/devices/ABCDEFGH/commands"),
        ("publishClientReceive", "fleet/devices/ABCDEFGH/commands")]
    assert ("subscribePattern", "$share/+/fleet/devices/+/telemetry") in roles["coldchain-ingest"]
    assert ("publishClientReceive", "fleet/devices/+/status") in roles["coldchain-ingest"]
    assert all(topic.startswith("$CONTROL/dynamic-security/") for _, topic in roles["coldchain-admin"])
    assert config["defaultACLAccess"] == {"publishClientSend": False, "publishClientReceive": False,
                                          "subscribe": False, "unsubscribe": True}
    assert {c["username"]: c["roles"] for c in config["clients"]} == {
        "ABCDEFGH": [{"rolename": "device-ABCDEFGH"}], "ingest": [{"rolename": "coldchain-ingest"}],
        "broker-admin": [{"rolename": "coldchain-admin"}]}


def test_both_listeners_share_the_plugin_s_logins_and_devices_are_mounted_under_fleet(tmp_path):
    conf = mosquitto_conf(BrokerLayout(tmp_path, tmp_path / "data", 18830, "0.0.0.0", 18831, "127.0.0.1",
                                       plugin=tmp_path / "dynsec.so"))
    settings = [line for line in conf.splitlines() if line and not line.startswith("#")]
    devices, ingest = settings.index("listener 18830 0.0.0.0"), settings.index("listener 18831 127.0.0.1")
    for expected in ("per_listener_settings false", "allow_anonymous false", f"plugin {tmp_path}/dynsec.so",
                     f"plugin_opt_config_file {tmp_path}/dynamic-security.json", "persistence true",
                     "max_queued_messages 100000", "max_inflight_messages 0"):
        assert expected in settings[:devices]
    assert settings[devices:ingest] == [
        "listener 18830 0.0.0.0", "protocol mqtt", "mount_point fleet/", "use_username_as_clientid true"]
    assert settings[ingest:] == ["listener 18831 127.0.0.1", "protocol mqtt"]


def test_the_plugin_s_file_is_written_for_the_broker_s_group_to_rewrite(tmp_path):
    accounts = BrokerAccounts([BrokerAccount("ABCDEFGH", "$7$1$YQ==$Yg==")],
                              [BrokerAccount("ingest", "$7$1$YQ==$Yw==")])
    paths = write_broker_config(tmp_path, accounts, BrokerLayout(tmp_path))
    assert [p.name for p in paths] == ["dynamic-security.json", "mosquitto.conf"]
    config = json.loads((tmp_path / "dynamic-security.json").read_text())
    assert [c["username"] for c in config["clients"]] == ["ABCDEFGH", "ingest"]
    assert (tmp_path / "dynamic-security.json").stat().st_mode & 0o777 == 0o660


@pytest.mark.parametrize("client_id,claimable", [
    ("ingest-a", False), ("ingest-host-1", False), ("ingest", False), ("RCW360A0000001", True),
    ("INGESTWORKER01", True), ("ingest_a1b2c3", False)])
def test_a_worker_s_client_id_must_be_one_no_device_can_have(client_id, claimable):
    assert claimable_by_a_device(client_id) is claimable


def test_the_ingest_password_is_generated_once_outside_production_and_checked_when_given(tmp_path):
    from entrypoints.settings import ConfigError, load_settings

    first = load_settings({"VAR_DIR": str(tmp_path)}).mqtt_ingest_password
    assert len(first) >= 32 and load_settings({"VAR_DIR": str(tmp_path)}).mqtt_ingest_password == first
    assert (tmp_path / "mqtt_ingest_password").stat().st_mode & 0o777 == 0o600
    given = "a-long-enough-ingest-password"
    assert load_settings({"VAR_DIR": str(tmp_path), "MQTT_INGEST_PASSWORD": given}).mqtt_ingest_password == given
    production = {"VAR_DIR": str(tmp_path / "prod"), "APP_ENV": "production", "SECRET_KEY": "s" * 40}
    with pytest.raises(ConfigError, match="MQTT_INGEST_PASSWORD"):  # production refuses to start without it
        load_settings(production)
    for bad in ("short", "has a space in the middle", "colon:is:not:allowed:here"):
        with pytest.raises(ConfigError, match="MQTT_INGEST_PASSWORD"):
            load_settings({"VAR_DIR": str(tmp_path), "MQTT_INGEST_PASSWORD": bad})
