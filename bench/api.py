"""The API at the size of a real fleet: 100,000 devices, one customer (alice) who sees 10,000 of
them, one device with 30 days of one-minute readings, served by `coldchain serve` (2 gunicorn
workers on PostgreSQL) and driven by wrk at 16 connections.

    .venv/bin/python bench/api.py                      # or: make bench
    BENCH_DEVICES=1000000 BENCH_ALICE_DEVICES=6 BENCH_SECONDS=20 .venv/bin/python bench/api.py
    BENCH_THREADS=1 .venv/bin/python bench/api.py      # threads per worker (coldchain serve's --threads)

It builds the fleet with COPY in a database of its own (dropped afterwards) on the server of
BENCH_POSTGRES_URL (default: postgres@127.0.0.1:5432); the server sends jobs to the Redis of
BENCH_JOBS_BROKER_URL (default: 127.0.0.1:6379/15), where no worker takes them. alice owns all but 1,000 of hers; those
belong to an organization she is a member of, so both ways of seeing a device are exercised.
Each call is warmed up, then driven for BENCH_SECONDS; the figures are printed with the targets
they are held to, never asserted (compare runs on the same, quiet machine).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

# bench/history.py: the same 30 days of one cold room, and its throwaway PostgreSQL database
from history import DAYS, GUID, PG_ADMIN_URL, postgres_database, readings
from sqlalchemy import func, select, text

from adapters.persistence.migrate import upgrade
from adapters.persistence.models import AccountRow, DeviceRow, DeviceTypeRow, RoleRow
from entrypoints.cli import SERVE_THREADS
from entrypoints.container import build_container
from entrypoints.demo_seed import DEMO_PASSWORD, seed
from entrypoints.settings import load_settings

DEVICES = int(os.environ.get("BENCH_DEVICES", "100000"))
ALICE_DEVICES = int(os.environ.get("BENCH_ALICE_DEVICES", "10000"))
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
CONNECTIONS, WRK_THREADS, WORKERS = 16, 2, 2
THREADS = int(os.environ.get("BENCH_THREADS", SERVE_THREADS))  # a server worker's
OWNERS, ORGANIZATIONS, ALICE_ORG_DEVICES = 1000, 100, 1000
KINDS = ("Cold room", "Freezer", "Fridge", "Truck", "Dock door", "Vaccine fridge")
SECRET_KEY = "bench-secret-key-that-is-long-enough-0123456789"


@dataclass(frozen=True)
class Call:
    name: str
    method: str
    path: str
    body: dict | None = None
    min_rate: float | None = None  # requests a second
    max_p50_ms: float | None = None
    connections: int = CONNECTIONS


def calls(device_id: int, now: datetime, deep_start: int) -> list[Call]:
    page = {"scene": 1, "start": 1, "pageSize": 10}
    history = {"deviceId": device_id, "startTime": (now - timedelta(days=DAYS)).isoformat(),
               "endTime": now.isoformat(), "maxPoints": 2000}
    return [
        Call("Device/page, first page", "POST", "/api/device/Device/page", page, 500, 30),
        Call(f"Device/page, page {deep_start}", "POST", "/api/device/Device/page", {**page, "start": deep_start},
             500, 30),
        Call("Device/page, name search", "POST", "/api/device/Device/page", {**page, "deviceName": "truck 12"},
             500, 30),
        Call("homeCounts", "GET", "/api/device/Device/homeCounts", None, 500, 30),
        Call("accountInfo", "GET", "/api/base/BaseAccount/accountInfo", None, 600),
        Call(f"history, {DAYS} days -> 2000 points", "POST", "/api/device/Device/history", history),
        # What one person waits for their chart: one connection.
        Call("history, the same, 1 connection", "POST", "/api/device/Device/history", history, None, 50, 1),
    ]


# --- the fleet ----------------------------------------------------------------------------------


def _copy(connection, table: str, columns: tuple[str, ...], rows) -> None:
    with connection.cursor() as cursor, cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


DEVICE_COLUMNS = ("guid", "device_name", "type_id", "owner_account_id", "organization_id", "sim_iccid",
                  "jc_iccid_status", "level_id", "service_expires_at", "sms_count", "voice_count", "country_code",
                  "node_type", "display_precision", "temperature_unit", "status", "remark", "created_at",
                  "activated_at", "last_seen_at", "online", "last_reading_at", "last_temperature", "last_humidity",
                  "alarm_state")


def _devices(count: int, owners, organizations, type_ids, level_ids, now: datetime, rng: random.Random):
    """`owners` and `organizations` are callables giving each device's owner and organization."""
    numbers: dict[tuple[int, str], int] = {}
    for i in range(count):
        owner, organization = owners(i), organizations(i)
        kind = KINDS[rng.randrange(len(KINDS))]
        numbers[owner, kind] = number = numbers.get((owner, kind), 0) + 1
        created = now - timedelta(days=730 * rng.random())
        reported = rng.random() < 0.9
        last = now - timedelta(minutes=rng.randrange(1, 60 * 24 * 3)) if reported else None
        expires = now + timedelta(days=rng.randrange(-90, 700))
        yield (f"BENCH{i:011d}", f"{kind} {number}", type_ids[rng.randrange(len(type_ids))], owner, organization,
               None, 0, level_ids[rng.randrange(len(level_ids))], expires, rng.randrange(200), rng.randrange(50),
               "86", 1, 1, "C", int(rng.random() < 0.97), None, created, created if reported else None, last,
               reported and rng.random() < 0.7, last, round(rng.gauss(4, 3), 1) if reported else None,
               round(rng.gauss(60, 10), 1) if reported else None, int(rng.random() < 0.03))


def build_fleet(url: str, var: Path) -> tuple[int, datetime]:
    """Migrate, seed the demo, then COPY the fleet in; returns the history device's id and now."""
    settings = load_settings({"VAR_DIR": str(var), "DATABASE_URL": url, "APP_ENV": "test", "LOG_LEVEL": "warning",
                              "SECRET_KEY": SECRET_KEY})
    container = build_container(settings)
    engine = container.engine()
    upgrade(engine)
    seed(container, history=False)
    now = container.clock().now().replace(second=0, microsecond=0)
    rng = random.Random(15)
    with container.session_factory()() as session:
        alice = session.scalar(select(AccountRow).where(AccountRow.user_name_key == "alice"))
        type_ids = list(session.scalars(select(DeviceTypeRow.id).order_by(DeviceTypeRow.id)))
        level_ids = sorted({level for level in session.scalars(select(DeviceRow.level_id)) if level})
        member_role = session.scalar(select(RoleRow.id).where(RoleRow.code == "org_member"))
        history_device = session.scalar(select(DeviceRow.id).where(DeviceRow.guid == GUID))
        demo_devices = session.scalar(select(func.count()).where(DeviceRow.owner_account_id == alice.id))
        seeded = session.scalar(select(func.count()).select_from(DeviceRow))
        alice_id, password_hash = alice.id, alice.password_hash
    started = time.perf_counter()
    connection = engine.raw_connection()
    try:
        driver = connection.driver_connection
        with driver.cursor() as cursor:
            first_owner = cursor.execute("SELECT coalesce(max(id), 0) + 1 FROM accounts").fetchone()[0]
        owner_ids = list(range(first_owner, first_owner + OWNERS))
        _copy(driver, "accounts", ("id", "user_name", "user_name_key", "password_hash", "account_type", "status",
                                   "created_at"),
              ((i, f"owner{i}", f"owner{i}", password_hash, 1, 1, now) for i in owner_ids))
        with driver.cursor() as cursor:
            cursor.execute("SELECT setval('accounts_id_seq', (SELECT max(id) FROM accounts))")
            first_org = cursor.execute("SELECT coalesce(max(id), 0) + 1 FROM organizations").fetchone()[0]
        org_ids = list(range(first_org, first_org + ORGANIZATIONS))
        _copy(driver, "organizations", ("id", "name", "creator_account_id", "created_at"),
              ((o, f"Depot {o}", owner_ids[k], now) for k, o in enumerate(org_ids)))
        with driver.cursor() as cursor:
            cursor.execute("SELECT setval('organizations_id_seq', (SELECT max(id) FROM organizations))")
        alice_org = org_ids[0]
        _copy(driver, "organization_members", ("organization_id", "account_id", "role_id"),
              [(alice_org, alice_id, member_role)])
        in_org = min(ALICE_ORG_DEVICES, max(ALICE_DEVICES - demo_devices, 0) // 2)
        own = max(ALICE_DEVICES - demo_devices - in_org, 0)
        others = max(DEVICES - ALICE_DEVICES - (seeded - demo_devices), 0)

        def owner(i: int) -> int:
            return alice_id if i < own else owner_ids[i % OWNERS]

        def organization(i: int) -> int | None:
            if i < own:
                return None
            if i < own + in_org:
                return alice_org
            return org_ids[1 + i % (ORGANIZATIONS - 1)] if i % 3 == 0 else None

        _copy(driver, "devices", DEVICE_COLUMNS,
              _devices(own + in_org + others, owner, organization, type_ids, level_ids, now, rng))
        history_rows = readings(history_device, now)
        _copy(driver, "readings", ("device_id", "ts", "temperature", "humidity", "seq", "received_at"),
              (tuple(row.values()) for row in history_rows))
        connection.commit()
    finally:
        connection.close()
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as autocommit:
        autocommit.execute(text("VACUUM ANALYZE"))
    with engine.connect() as connection:
        total, seen = connection.execute(text(
            "SELECT count(*), count(*) FILTER (WHERE owner_account_id = :a OR organization_id IN "
            "(SELECT organization_id FROM organization_members WHERE account_id = :a)) FROM devices"),
            {"a": alice_id}).one()
    print(f"fleet: {total} devices, alice sees {seen}; {len(history_rows)} readings of {GUID}; "
          f"copied in {time.perf_counter() - started:.1f} s")
    engine.dispose()
    return history_device, now


# --- serving and driving ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen, seconds: float, failure: str) -> None:
    """Until `url` answers; exits with `failure` when `process` ends or `seconds` pass first."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(failure) from None
            time.sleep(0.3)


@contextmanager
def server(url: str, var: Path) -> Iterator[tuple[str, int]]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "APP_ENV": "development", "MQTT_EMBEDDED": "0",
           "PAYMENT_BACKEND": "development", "VAR_DIR": str(var), "SECRET_KEY": SECRET_KEY, "LOG_LEVEL": "warning",
           "WEB_DIST": str(var / "no-web"),
           # Jobs apart, as in production (the bench starts no job worker): the SQLAlchemy
           # transport's embedded worker and beat would share the server's cores and, catching up
           # at start, send expiry reminders for the whole fleet while the calls are measured.
           "JOBS_BROKER_URL": os.environ.get("BENCH_JOBS_BROKER_URL", "redis://127.0.0.1:6379/15")}
    coldchain = Path(sys.executable).with_name("coldchain")
    log = (var / "server.log").open("wb")
    process = subprocess.Popen([str(coldchain), "serve", "--port", str(port), "--workers", str(WORKERS),
                                "--threads", str(THREADS)],
                               env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/api/base/config", process, 60, f"the server did not start; see {var / 'server.log'}")
        yield base, process.pid
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
        log.close()


def request(base: str, call: Call, token: str | None = None) -> dict:
    data = json.dumps(call.body).encode() if call.body is not None else None
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    with urllib.request.urlopen(urllib.request.Request(base + call.path, data, headers, method=call.method),
                                timeout=30) as response:
        return json.load(response)


def login(base: str) -> str:
    answer = request(base, Call("login", "POST", "/api/base/BaseAccount/login",
                                {"userName": "alice", "accountPassword": DEMO_PASSWORD}))
    return answer["data"]["token"]


_LATENCY = re.compile(r"^\s+(50|99)(?:\.0+)?%\s+([\d.]+)(us|ms|s)\s*$", re.M)
_UNIT = {"us": 0.001, "ms": 1.0, "s": 1000.0}


@dataclass(frozen=True)
class Figures:
    rate: float
    p50_ms: float
    p99_ms: float
    failures: int
    requests: int


_TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")


def cpu_ms(pids: set[int]) -> dict[int, float]:
    """CPU time (user + system) each process has used so far."""
    used = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone
            continue
        used[pid] = (int(fields[11]) + int(fields[12])) * _TICK_MS
    return used


class CpuMeter:
    """CPU a call costs in the server's workers and in PostgreSQL's backends serving them:
    unlike requests a second, it hardly depends on what else loads the machine."""

    def __init__(self, server_pid: int, database: str) -> None:
        self._server_pid, self._database = server_pid, database

    def workers(self) -> set[int]:
        children = Path(f"/proc/{self._server_pid}/task/{self._server_pid}/children").read_text().split()
        return {int(pid) for pid in children}

    def backends(self) -> set[int]:
        psql_url = PG_ADMIN_URL.replace("+psycopg", "")  # libpq's URL has no SQLAlchemy driver
        out = subprocess.run(["psql", psql_url, "-Atc", "SELECT pid FROM pg_stat_activity WHERE datname = "
                              f"'{self._database}' AND pid <> pg_backend_pid()"], capture_output=True, text=True)
        return {int(pid) for pid in out.stdout.split()}

    def snapshot(self) -> tuple[dict[int, float], dict[int, float]]:
        return cpu_ms(self.workers()), cpu_ms(self.backends())

    def since(self, before: tuple[dict[int, float], dict[int, float]]) -> tuple[float, float]:
        now = self.snapshot()
        return tuple(sum(ms - then.get(pid, 0.0) for pid, ms in current.items())  # type: ignore[return-value]
                     for current, then in zip(now, before, strict=True))


def drive(base: str, call: Call, token: str, seconds: int, folder: Path) -> Figures:
    script = folder / "call.lua"
    script.write_text(f"wrk.method = {json.dumps(call.method)}\n"
                      f"wrk.body = {json.dumps(json.dumps(call.body)) if call.body is not None else 'nil'}\n"
                      f'wrk.headers["Content-Type"] = "application/json"\n'
                      f'wrk.headers["Authorization"] = "Bearer {token}"\n')
    threads = min(WRK_THREADS, call.connections)
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{call.connections}", f"-d{seconds}s", "--latency",
                          "--timeout", "30s",
                          "-s", str(script), base + call.path], capture_output=True, text=True, check=True).stdout
    latency = {int(p): float(v) * _UNIT[unit] for p, v, unit in _LATENCY.findall(out)}
    failures = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    rate, requests = re.search(r"Requests/sec:\s+([\d.]+)", out), re.search(r"(\d+) requests in", out)
    if rate is None or requests is None:
        raise SystemExit(f"wrk said:\n{out}")
    return Figures(float(rate.group(1)), latency[50], latency[99],
                   (int(failures.group(1)) if failures else 0) + (sum(map(int, errors.groups())) if errors else 0),
                   int(requests.group(1)))


def verdict(call: Call, f: Figures) -> str:
    wanted, met = [], True
    if call.min_rate is not None:
        wanted.append(f">= {call.min_rate:.0f}/s")
        met &= f.rate >= call.min_rate
    if call.max_p50_ms is not None:
        wanted.append(f"p50 < {call.max_p50_ms:.0f} ms")
        met &= f.p50_ms < call.max_p50_ms
    met &= f.failures == 0
    if not wanted:
        return "-" if met else "FAILED"
    return f"{'met' if met else 'MISSED'} ({', '.join(wanted)})"


def ensure_wrk() -> None:
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: `apt-get install -y wrk` (make bench does)")


def main() -> None:
    ensure_wrk()
    var = Path(tempfile.mkdtemp(prefix="coldchain-apibench-"))
    with postgres_database("coldchain_apibench") as url:
        device_id, now = build_fleet(url, var)
        with server(url, var) as (base, server_pid):
            meter = CpuMeter(server_pid, url.rsplit("/", 1)[1])
            token = login(base)
            alice_total = request(base, Call("", "POST", "/api/device/Device/page", {"scene": 1, "start": 1,
                                                                                     "pageSize": 1}), token)
            scene_total = alice_total["data"]["totalCount"]
            deep_start = max(1, scene_total // 10 - 5)  # one of the last pages of ten
            print(f"served by {WORKERS} gunicorn workers at {base}; alice has {scene_total} devices in scene 1; "
                  f"wrk: {CONNECTIONS} connections unless said, {SECONDS} s a call after 2 s of warm-up")
            print(f"{'call':<38} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'failed':>7} {'CPU ms/request':>18}  target")
            print(f"{'':<38} {'':>8} {'':>8} {'':>8} {'':>7} {'server':>9}{'database':>9}")
            for call in calls(device_id, now, deep_start):
                answer = request(base, call, token)
                if answer.get("code") != 0:
                    raise SystemExit(f"{call.name}: {answer}")
                drive(base, call, token, 2, var)
                before = meter.snapshot()
                f = drive(base, call, token, SECONDS, var)
                server_ms, database_ms = meter.since(before)
                print(f"{call.name:<38} {f.rate:8.1f} {f.p50_ms:8.1f} {f.p99_ms:8.1f} {f.failures:7d} "
                      f"{server_ms / f.requests:9.2f}{database_ms / f.requests:9.2f}  {verdict(call, f)}", flush=True)
            load = os.getloadavg()[0]
            print(f"load average while measuring: {load:.1f} on {os.cpu_count()} CPUs (a busy machine lowers req/s and "
                  "raises latency; CPU per request changes little)")
    shutil.rmtree(var, ignore_errors=True)


if __name__ == "__main__":
    main()
