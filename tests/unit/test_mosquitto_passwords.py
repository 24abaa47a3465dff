"""Device passwords are stored in Mosquitto's own hash format, so the broker's password file is
written straight from the table."""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess

import pytest

from adapters.mosquitto.config import (
    BrokerLayout,
    devices_acl,
    ingest_acl,
    mosquitto_conf,
    password_file,
    write_broker_config,
)
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


def test_the_password_file_has_one_line_per_login_and_refuses_a_name_with_a_colon():
    text = password_file([BrokerAccount("ingest", "$7$1$a$b"), BrokerAccount("ABCDEFGH", "$7$1$c$d")])
    assert text == "ingest:$7$1$a$b\nABCDEFGH:$7$1$c$d\n"
    with pytest.raises(ValueError):
        password_file([BrokerAccount("a:b", "$7$1$a$b")])


def test_the_acls_confine_devices_to_their_own_topics_and_let_ingest_read_them_all():
    rules = [line for line in devices_acl().splitlines() if line and not line.startswith("#")]
    assert rules == ["pattern write fleet/devices/%u/telemetry", "pattern write fleet/devices/%u/status",
                     "pattern write fleet/devices/%u/acks", "pattern read fleet/devices/%u/commands"]
    rules = [line for line in ingest_acl([BrokerAccount("ingest", "$7$1$a$b")]).splitlines()
             if line and not line.startswith("#")]
    assert rules == ["user ingest", "topic read fleet/devices/+/telemetry", "topic read fleet/devices/+/status",
                     "topic read fleet/devices/+/acks"]


def test_devices_and_ingest_workers_log_in_on_listeners_of_their_own(tmp_path):
    conf = mosquitto_conf(BrokerLayout(tmp_path, tmp_path / "data", 18830, "0.0.0.0", 18831, "127.0.0.1"))
    settings = [line for line in conf.splitlines() if line and not line.startswith("#")]
    devices, ingest = settings.index("listener 18830 0.0.0.0"), settings.index("listener 18831 127.0.0.1")
    assert "per_listener_settings true" in settings[:devices]
    for expected in ("persistence true", "max_queued_messages 100000", "max_inflight_messages 0"):
        assert expected in settings[:devices]
    assert settings[devices:ingest] == [
        "listener 18830 0.0.0.0", "protocol mqtt", "mount_point fleet/", "use_username_as_clientid true",
        "allow_anonymous false", f"password_file {tmp_path}/devices.passwd", f"acl_file {tmp_path}/devices.acl"]
    assert settings[ingest:] == [
        "listener 18831 127.0.0.1", "protocol mqtt", "allow_anonymous false",
        f"password_file {tmp_path}/ingest.passwd", f"acl_file {tmp_path}/ingest.acl"]


def test_the_ingest_login_is_written_only_where_the_workers_log_in(tmp_path):
    accounts = BrokerAccounts([BrokerAccount("ABCDEFGH", "$7$1$c$d")], [BrokerAccount("ingest", "$7$1$a$b")])
    write_broker_config(tmp_path, accounts, BrokerLayout(tmp_path))
    assert (tmp_path / "devices.passwd").read_text() == "ABCDEFGH:$7$1$c$d\n"
    assert (tmp_path / "ingest.passwd").read_text() == "ingest:$7$1$a$b\n"
    assert (tmp_path / "devices.passwd").stat().st_mode & 0o777 == 0o640


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
