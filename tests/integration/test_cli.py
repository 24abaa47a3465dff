"""The `coldchain` command as a newcomer runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

COLDCHAIN = str(Path(sys.executable).with_name("coldchain"))


def run(*args: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "EDITION", "APP_ENV")}
    environment.update({"VAR_DIR": str(tmp_path / "var"), "PASSWORD_HASH_MEMORY_KIB": "1024",
                        "PASSWORD_HASH_TIME_COST": "1", **env})
    return subprocess.run([COLDCHAIN, *args], capture_output=True, text=True, env=environment, timeout=120,
                          cwd=tmp_path)


def test_migrate_then_seed_twice_on_the_default_sqlite_database(tmp_path):
    assert run("migrate", tmp_path=tmp_path).returncode == 0
    assert (tmp_path / "var" / "coldchain.db").exists()
    first = run("demo-seed", tmp_path=tmp_path)
    assert first.returncode == 0 and "alice" in first.stdout
    second = run("demo-seed", tmp_path=tmp_path)
    assert second.returncode == 0 and "nothing changed" in second.stdout


def test_seeding_before_migrating_says_what_to_do(tmp_path):
    result = run("demo-seed", tmp_path=tmp_path)
    assert result.returncode != 0


@pytest.mark.parametrize("env,words", [
    ({"EDITION": "galactic"}, "EDITION"),
    ({"DATABASE_URL": "mysql://root@localhost/x"}, "DATABASE_URL"),
    ({"MQTT_URL": "tcp://broker"}, "MQTT_URL"),
    ({"APP_ENV": "production"}, "SECRET_KEY"),
    ({"SECRET_KEY": "short"}, "SECRET_KEY"),
    ({"MQTT_EMBEDDED": "perhaps"}, "MQTT_EMBEDDED"),
])
def test_a_bad_setting_stops_with_a_clear_message(tmp_path, env, words):
    result = run("migrate", tmp_path=tmp_path, **env)
    assert result.returncode == 2
    assert result.stderr.startswith("configuration error:") and words in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["ingest", "simulate"])
def test_commands_of_later_issues_say_not_yet(tmp_path, command):
    result = run(command, tmp_path=tmp_path)
    assert result.returncode == 1 and "not yet" in result.stderr


@pytest.mark.parametrize("command", ["serve", "migrate", "demo-seed", "ingest", "simulate"])
def test_every_command_has_help(tmp_path, command):
    result = run(command, "--help", tmp_path=tmp_path)
    assert result.returncode == 0 and "Usage:" in result.stdout


def test_the_development_secret_key_is_generated_once_and_kept_private(tmp_path):
    run("migrate", tmp_path=tmp_path)
    key_file = tmp_path / "var" / "secret_key"
    key = key_file.read_text()
    run("migrate", tmp_path=tmp_path)
    assert key_file.read_text() == key and len(key) >= 32
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
