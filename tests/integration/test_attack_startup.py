"""Production start-up and `coldchain serve` (issue 13, items 13-14), run as an operator runs them:
the real `coldchain` command in a subprocess, on PostgreSQL where production needs it.

13. APP_ENV=production refuses to start, with one message listing every problem, on SQLite, with an
    http public address, with an offered provider's credentials missing or without the ingest
    broker password; `demo-seed` (accounts with the published demo password) is refused there.
14. `coldchain serve --workers 2` in development with the sandbox port taken by a running
    `coldchain payment-sandbox` serves and pays through that sandbox instead of crash-looping, and
    starts its own sandbox once, in the master, when nothing answers.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from sqlalchemy import create_engine, text

from tests.support.commands import environment, free_port, production_env, run, serve_outcome, start
from tests.support.fixtures import _postgres_database

ROOT = Path(__file__).resolve().parents[2]
EVERY_EDITION_PROBLEM = ("DATABASE_URL", "PUBLIC_BASE_URL", "MQTT_INGEST_PASSWORD", "MQTT_ADMIN_PASSWORD",
                         "JOBS_BROKER_URL", "CONFIG_ENCRYPTION_KEYS")
PROVIDER_VARIABLES = {
    "domestic": ("WECHAT_APP_ID", "WECHAT_MCH_ID", "WECHAT_API_KEY", "ALIPAY_APP_ID", "ALIPAY_PRIVATE_KEY",
                 "ALIPAY_PUBLIC_KEY"),
    "international": ("STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET"),
}
BARE_PRODUCTION = {"APP_ENV": "production", "SECRET_KEY": "a-production-secret-key-long-enough-0123456789"}


def assert_refused_listing(code: int | None, output: str, expected: tuple[str, ...], absent: tuple[str, ...] = ()):
    assert code == 2, f"it did not refuse:\n{output}"
    assert output.count("configuration error:") == 1 and "Traceback" not in output, output
    for name in expected:
        assert name in output, f"{name} is not among the problems:\n{output}"
    for name in absent:
        assert name not in output, f"{name} should not be a problem:\n{output}"


# --- 13. production refuses to start ---------------------------------------------------------------


@pytest.mark.parametrize("edition", ["domestic", "international"])
def test_production_serve_refuses_to_start_and_lists_every_problem_at_once(tmp_path, edition):
    served = serve_outcome(cwd=tmp_path, **BARE_PRODUCTION, EDITION=edition, VAR_DIR=str(tmp_path / "var"))
    other = "international" if edition == "domestic" else "domestic"
    assert_refused_listing(served.exit_code, served.output, EVERY_EDITION_PROBLEM + PROVIDER_VARIABLES[edition],
                           absent=PROVIDER_VARIABLES[other])


@pytest.mark.parametrize("command", [("migrate",), ("demo-seed",), ("reconcile",), ("payment-sandbox",)])
def test_every_command_refuses_the_same_production_configuration(tmp_path, command):
    result = run(*command, cwd=tmp_path, timeout=60, **BARE_PRODUCTION, VAR_DIR=str(tmp_path / "var"))
    assert_refused_listing(result.returncode, result.stderr, EVERY_EDITION_PROBLEM + PROVIDER_VARIABLES["domestic"])
    assert not (tmp_path / "var" / "coldchain.db").exists()  # nothing was written to a SQLite file


# What a production process loads: the whole console built and its gateways chosen, with the sandbox
# importable (tools/ on its path) and yet never imported; nothing connects to the database.
PRODUCTION_PROCESS = """
import importlib.util, sys
from entrypoints.api.app import create_app
from entrypoints.container import build_container
from entrypoints.local_sandbox import start_local_sandbox
from entrypoints.settings import load_settings
settings = load_settings()
container = build_container(settings)
create_app(container)
assert container.payment_gateways().offers(1) and start_local_sandbox(settings) is None
assert importlib.util.find_spec("payment_sandbox") is not None
print(sorted(m for m in sys.modules if m.split(".")[0] == "payment_sandbox"
             or m == "adapters.payments.development_credentials"))
"""


def test_production_never_loads_the_payment_sandbox_nor_lets_it_be_started(tmp_path):
    env = production_env("postgresql://coldchain@127.0.0.1:9/none", VAR_DIR=str(tmp_path / "var"))
    refused = run("payment-sandbox", cwd=tmp_path, timeout=60, **env)
    assert refused.returncode == 2 and "refused" in refused.stderr and "APP_ENV=production" in refused.stderr, (
        refused.stdout + refused.stderr)
    path = os.pathsep.join([str(ROOT / "src"), str(ROOT / "tools"), os.environ.get("PYTHONPATH", "")])
    loaded = subprocess.run([sys.executable, "-c", PRODUCTION_PROCESS], capture_output=True, text=True, cwd=tmp_path,
                            env=environment(**env, PYTHONPATH=path), timeout=120)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.strip() == "[]"
    assert not (tmp_path / "var" / "payment-sandbox.json").exists()


@pytest.fixture
def production_database() -> Iterator[str]:
    yield from _postgres_database()


@pytest.mark.postgres
def test_a_complete_production_configuration_migrates_and_serves(tmp_path, production_database):
    env = production_env(production_database, VAR_DIR=str(tmp_path / "var"))
    migrated = run("migrate", cwd=tmp_path, **env)
    assert migrated.returncode == 0, migrated.stderr
    served = serve_outcome(cwd=tmp_path, **env)
    assert served.exit_code is None and served.config["payTypes"] == [1, 2], served.output


@pytest.mark.postgres
@pytest.mark.parametrize("change", [
    {"DATABASE_URL": "sqlite:///var/coldchain.db"}, {"PUBLIC_BASE_URL": "http://console.example.com"},
    {"MQTT_INGEST_PASSWORD": ""}, {"MQTT_ADMIN_PASSWORD": ""}, {"JOBS_BROKER_URL": ""}, {"WECHAT_API_KEY": ""},
    {"CONFIG_ENCRYPTION_KEYS": ""},
    {"ALIPAY_PUBLIC_KEY": ""},
])
def test_one_missing_production_requirement_is_named_alone(tmp_path, production_database, change):
    env = production_env(production_database, VAR_DIR=str(tmp_path / "var"), **change)
    result = run("migrate", cwd=tmp_path, **env)
    [name] = change
    others = tuple(v for v in EVERY_EDITION_PROBLEM + PROVIDER_VARIABLES["domestic"] if v != name)
    assert_refused_listing(result.returncode, result.stderr, (name,), absent=others)


def accounts(database_url: str) -> list[str]:
    engine = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as connection:
            return list(connection.scalars(text("SELECT user_name FROM accounts ORDER BY user_name")))
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_demo_seed_is_refused_in_production_and_loads_no_demo_account(tmp_path, production_database):
    env = production_env(production_database, VAR_DIR=str(tmp_path / "var"))
    assert run("migrate", cwd=tmp_path, **env).returncode == 0
    seeded = run("demo-seed", cwd=tmp_path, **env)
    assert seeded.returncode == 2, seeded.stdout
    assert "demo-seed" in seeded.stderr and "APP_ENV=production" in seeded.stderr
    assert accounts(production_database) == []  # no alice, no admin with the published password


# --- 14. serve and the payment sandbox ------------------------------------------------------------------


def development_env(tmp_path: Path, sandbox_port: int, console_port: int) -> dict[str, str]:
    return {"APP_ENV": "development", "VAR_DIR": str(tmp_path / "var"), "MQTT_EMBEDDED": "0",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'var' / 'coldchain.db'}", "WEB_DIST": str(tmp_path / "no-web"),
            "PAYMENT_SANDBOX_URL": f"http://127.0.0.1:{sandbox_port}",
            "PUBLIC_BASE_URL": f"http://127.0.0.1:{console_port}", "SECRET_KEY": "s" * 48}


def boots(log: str) -> list[str]:
    return re.findall(r"Booting worker with pid: (\d+)", log)


def ready(log: str) -> list[str]:
    return re.findall(r"worker (\d+) ready", log)


def serve_two_workers(tmp_path: Path, env: dict[str, str], port: int):
    server = start("serve", "--port", str(port), "--workers", "2", cwd=tmp_path, port=port, log_name="serve.log", **env)
    # Until both workers have loaded the console, or more than two have booted (a crash loop).
    server.wait(lambda: len(ready(server.log)) >= 2 or len(boots(server.log)) > 2)
    return server


def alice_pays_by_wechat(console_url: str, sandbox_url: str) -> int:
    api = f"{console_url}/api"
    token = requests.post(f"{api}/base/BaseAccount/login", timeout=30, json={
        "userName": "alice", "accountPassword": "Coldchain#2026", "loginType": 1}).json()["data"]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    room = requests.post(f"{api}/device/Device/page", headers=auth, json={"deviceGuid": "RCW360A0000001"},
                         timeout=30).json()["data"]["data"][0]["deviceId"]
    level = next(lv for lv in requests.get(f"{api}/payment/PayServicePackages/selectLevelList", headers=auth,
                                           params={"deviceId": room}, timeout=30).json()["data"]
                 if lv["levelName"] == "基础版")
    year = requests.get(f"{api}/payment/PayServiceLevelYear/selectListByDomain", headers=auth, timeout=30, params={
        "deviceId": room, "levelId": level["levelId"], "packageId": level["packageId"]}).json()["data"]
    placed = requests.post(f"{api}/payment/PayOrder/createServiceOrder", headers=auth, timeout=30, json={
        "deviceId": room, "levelId": level["levelId"], "levelYearId": year["levelYearList"][0]["id"],
        "servicePackageId": level["packageId"], "payType": 1, "serviceFee": year["levelYearList"][0]["serviceFee"],
        "totalFee": year["levelYearList"][0]["price"]}).json()["data"]
    assert placed["payQrCode"].startswith(f"{sandbox_url}/pay/wechat/")
    page = requests.post(placed["payQrCode"], data={"outcome": "pay"}, timeout=30)
    assert "The merchant answered 200" in page.text
    return requests.get(f"{api}/payment/PayOrder/get", headers=auth, params={"pk": placed["orderId"]},
                        timeout=30).json()["data"]["payStatus"]


def test_serve_with_a_payment_sandbox_already_running_serves_through_it_without_restarting_workers(tmp_path):
    sandbox_port, console_port = free_port(), free_port()
    env = development_env(tmp_path, sandbox_port, console_port)
    assert run("migrate", cwd=tmp_path, **env).returncode == 0
    assert run("demo-seed", cwd=tmp_path, **env).returncode == 0
    sandbox = start("payment-sandbox", cwd=tmp_path, port=sandbox_port, log_name="sandbox.log", **env)
    server = None
    try:
        sandbox.wait(lambda: (r := sandbox.answers("/health")) is not None and r.status_code == 200)
        assert sandbox.popen.poll() is None, sandbox.log
        server = serve_two_workers(tmp_path, env, console_port)
        log = server.log
        assert server.popen.poll() is None and len(boots(log)) == 2 and sorted(ready(log)) == sorted(boots(log)), log
        assert f"using the payment sandbox already at http://127.0.0.1:{sandbox_port}" in log
        assert alice_pays_by_wechat(server.url, sandbox.url) == 2  # through the sandbox that was there
        assert len(boots(server.log)) == 2 and sandbox.popen.poll() is None
    finally:
        for process in (server, sandbox):
            if process is not None:
                process.stop()


def test_serve_starts_the_sandbox_once_in_its_master_when_nothing_answers(tmp_path):
    sandbox_port, console_port = free_port(), free_port()
    env = development_env(tmp_path, sandbox_port, console_port)
    assert run("migrate", cwd=tmp_path, **env).returncode == 0
    assert run("demo-seed", cwd=tmp_path, **env).returncode == 0
    server = serve_two_workers(tmp_path, env, console_port)
    try:
        log = server.log
        assert server.popen.poll() is None and len(boots(log)) == 2 and sorted(ready(log)) == sorted(boots(log)), log
        assert log.count(f"payment sandbox on http://127.0.0.1:{sandbox_port}") == 1
        assert requests.get(f"http://127.0.0.1:{sandbox_port}/health", timeout=30).json()["status"] == "ok"
        assert alice_pays_by_wechat(server.url, f"http://127.0.0.1:{sandbox_port}") == 2
        assert len(boots(server.log)) == 2
    finally:
        server.stop()
    with pytest.raises(requests.ConnectionError):  # the master took its sandbox with it
        requests.get(f"http://127.0.0.1:{sandbox_port}/health", timeout=5)
