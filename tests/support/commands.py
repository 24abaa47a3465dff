"""The `coldchain` command as an operator runs it: a subprocess with an environment of its own
(nothing of the test run's configuration leaks in), and `serve` watched until it answers or exits."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import requests

from adapters.payments.development_credentials import generate
from adapters.security.secret_box import new_key

COLDCHAIN = str(Path(sys.executable).with_name("coldchain"))
# What load_settings reads: dropped from the inherited environment so each test says all it sets.
_SETTINGS = re.compile(r"^(APP_ENV|EDITION|DATABASE_URL|PUBLIC_BASE_URL|SECRET_KEY|VAR_DIR|WEB_DIST|PAYMENT_\w+|"
                       r"WECHAT_\w+|ALIPAY_\w+|STRIPE_\w+|PAYPAL_\w+|MQTT_\w+|SMS_\w+|NOTIFICATION_BACKEND|JOBS_\w+)$")
CHEAP_HASHES = {"PASSWORD_HASH_MEMORY_KIB": "1024", "PASSWORD_HASH_TIME_COST": "1", "PASSWORD_HASH_PARALLELISM": "1"}


def environment(**env: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not _SETTINGS.match(k)}
    return {**clean, **CHEAP_HASHES, **env}


def run(*args: str, cwd: Path, timeout: float = 120, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([COLDCHAIN, *args], capture_output=True, text=True, env=environment(**env), cwd=cwd,
                          timeout=timeout)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def production_env(database_url: str, *, edition: str = "domestic", **overrides: str) -> dict[str, str]:
    """A complete production configuration: PostgreSQL, an https address, every provider's
    credentials (fresh sandbox-made ones, aimed at a closed port), the ingest and console broker
    passwords, the job broker."""
    c, nowhere = generate(), "http://127.0.0.1:9"
    return {
        "APP_ENV": "production", "EDITION": edition, "DATABASE_URL": database_url,
        "SECRET_KEY": "production-secret-key-of-the-attack-tests-0123456789",
        "PUBLIC_BASE_URL": "https://console.example.com", "MQTT_INGEST_PASSWORD": "ingest-password-0123456789",
        "JOBS_BROKER_URL": "redis://127.0.0.1:9/0",  # a closed port: nothing here runs jobs
        "MQTT_ADMIN_PASSWORD": "broker-admin-password-0123456789",
        "CONFIG_ENCRYPTION_KEYS": new_key(),
        "WECHAT_PAY_BASE_URL": f"{nowhere}/wechat/", "WECHAT_APP_ID": c.wechat_app_id, "WECHAT_MCH_ID": c.wechat_mch_id,
        "WECHAT_API_KEY": c.wechat_api_key, "ALIPAY_GATEWAY_URL": f"{nowhere}/alipay/gateway.do",
        "ALIPAY_APP_ID": c.alipay_app_id, "ALIPAY_PRIVATE_KEY": c.alipay_app_private_key,
        "ALIPAY_PUBLIC_KEY": c.alipay_public_key, "STRIPE_API_BASE": f"{nowhere}/stripe",
        "STRIPE_SECRET_KEY": c.stripe_secret_key, "STRIPE_PUBLISHABLE_KEY": c.stripe_publishable_key,
        "STRIPE_WEBHOOK_SECRET": c.stripe_webhook_secret, "PAYPAL_BASE_URL": f"{nowhere}/paypal",
        "PAYPAL_CLIENT_ID": c.paypal_client_id, "PAYPAL_CLIENT_SECRET": c.paypal_client_secret,
        **overrides,
    }


@dataclass
class Process:
    """A long-running `coldchain` command whose output goes to a log file."""

    popen: subprocess.Popen
    log_path: Path
    url: str

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def answers(self, path: str) -> requests.Response | None:
        try:
            return requests.get(f"{self.url}{path}", timeout=5)
        except requests.RequestException:
            return None

    def wait(self, ready, *, limit: float = 120) -> None:
        """Until `ready()` is true or the process has exited (then the caller looks at why). The
        limit only ends a wait that would otherwise hang a broken build."""
        deadline = time.monotonic() + limit
        while self.popen.poll() is None and not ready() and time.monotonic() < deadline:
            time.sleep(0.2)

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(30)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(10)


def start(*args: str, cwd: Path, port: int, log_name: str, **env: str) -> Process:
    log_path = cwd / log_name
    with open(log_path, "ab") as log:
        popen = subprocess.Popen([COLDCHAIN, *args], stdout=log, stderr=subprocess.STDOUT, env=environment(**env),
                                 cwd=cwd)
    return Process(popen, log_path, f"http://127.0.0.1:{port}")


@dataclass
class ServeOutcome:
    exit_code: int | None  # None: it served
    output: str
    config: dict | None = None  # what it answered at /api/base/config


def serve_outcome(*args: str, cwd: Path, **env: str) -> ServeOutcome:
    """`coldchain serve` with `env`: its exit code and output when it refused to start, or what it
    answered at /api/base/config when it served instead (it is then stopped)."""
    port = free_port()
    server = start("serve", "--port", str(port), *args, cwd=cwd, port=port, log_name=f"serve-{port}.log", **env)
    answered: list[requests.Response] = []

    def serving() -> bool:
        reply = server.answers("/api/base/config")
        if reply is not None and reply.status_code == 200:
            answered.append(reply)
        return bool(answered)

    try:
        server.wait(serving)
        return ServeOutcome(server.popen.poll(), server.log, answered[0].json()["data"] if answered else None)
    finally:
        server.stop()
