"""History figure: 30 days of 1-minute readings (43,200) of one device, answered downsampled to
2000 points (min and max per bucket) through the API, as the device chart asks for them.

    .venv/bin/python bench/history.py                   # PostgreSQL in a temporary database
    BENCH_POSTGRES_URL=postgresql://user@host:5432/postgres .venv/bin/python bench/history.py

Without a PostgreSQL server it runs on SQLite and says so. The last line is the figure
(target: under 150 ms); it is printed, never asserted.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import timedelta
from pathlib import Path

from sqlalchemy import create_engine, delete, select, text

from adapters.persistence.migrate import upgrade
from adapters.persistence.models import DeviceRow, ReadingRow
from entrypoints.api.app import create_app
from entrypoints.container import build_container
from entrypoints.demo_seed import DEMO_PASSWORD, seed
from entrypoints.settings import load_settings

PG_ADMIN_URL = os.environ.get("BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
DAYS, STEP = 30, timedelta(minutes=1)
MAX_POINTS, RUNS, WARM_UP = 2000, 30, 3
GUID = "RCW360A0000001"


@contextmanager
def postgres_database(prefix: str) -> Iterator[str]:
    """A PostgreSQL database made for this run and dropped after it; raises when there is no server."""
    admin_url = PG_ADMIN_URL.replace("postgresql://", "postgresql+psycopg://", 1)
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception:
        admin.dispose()
        raise
    try:
        yield admin_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def database(var: Path) -> Iterator[str]:
    """A PostgreSQL database made for this run and dropped after it, else a SQLite file."""
    with ExitStack() as stack:
        try:
            url = stack.enter_context(postgres_database("coldchain_bench"))
        except Exception as error:  # no server, no rights
            print(f"PostgreSQL is not available ({error.__class__.__name__}); falling back to SQLite")
            url = f"sqlite:///{var / 'bench.db'}"
        yield url


def readings(device_id: int, end) -> list[dict]:
    """A cold room at 4 °C: a daily swing, noise, and a door left open now and then."""
    rng = random.Random(42)
    count = int(timedelta(days=DAYS) / STEP)
    rows, door = [], 0.0
    for i in range(count):
        ts = end - (count - i) * STEP
        if rng.random() < 1 / 240:
            door = rng.uniform(2, 6)
        temperature = 4 + 0.4 * math.sin(2 * math.pi * i / 1440) + rng.gauss(0, 0.1) + door
        rows.append({"device_id": device_id, "ts": ts, "temperature": round(temperature, 2),
                     "humidity": round(70 + rng.gauss(0, 1.5) - 3 * door, 1), "seq": i, "received_at": ts})
        door *= 0.8
    return rows


def main() -> None:
    var = Path(tempfile.mkdtemp(prefix="coldchain-bench-"))
    with database(var) as url:
        settings = load_settings({"VAR_DIR": str(var), "DATABASE_URL": url, "APP_ENV": "test", "LOG_LEVEL": "warning",
                                  "SECRET_KEY": "bench-secret-key-that-is-long-enough-0123456789",
                                  "PASSWORD_HASH_TIME_COST": "1", "PASSWORD_HASH_MEMORY_KIB": "1024",
                                  "PASSWORD_HASH_PARALLELISM": "1"})
        container = build_container(settings)
        engine = container.engine()
        upgrade(engine)
        seed(container)
        now = container.clock().now().replace(second=0, microsecond=0)
        with container.session_factory()() as session:
            device_id = session.scalar(select(DeviceRow.id).where(DeviceRow.guid == GUID))
            session.execute(delete(ReadingRow).where(ReadingRow.device_id == device_id))
            rows = readings(device_id, now)
            started = time.perf_counter()
            session.execute(ReadingRow.__table__.insert(), rows)
            session.commit()
        print(f"database: {url.split('@')[-1]} ({engine.dialect.name}); stored {len(rows)} readings in "
              f"{time.perf_counter() - started:.1f} s")
        if engine.dialect.name == "postgresql":
            # As autovacuum leaves readings older than a few minutes: all-visible, so the history
            # is read from the key's index alone (migration 0015), as bench/api.py's fleet is.
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.execute(text("VACUUM ANALYZE readings"))

        client = create_app(container).test_client()
        token = client.post("/api/base/BaseAccount/login", json={"userName": "alice", "accountPassword": DEMO_PASSWORD}
                            ).get_json()["data"]["token"]
        body = {"deviceId": device_id, "startTime": (now - timedelta(days=DAYS)).isoformat(),
                "endTime": now.isoformat(), "maxPoints": MAX_POINTS}
        headers = {"Authorization": f"Bearer {token}"}
        durations, answer = [], None
        for run in range(WARM_UP + RUNS):
            started = time.perf_counter()
            response = client.post("/api/device/Device/history", json=body, headers=headers)
            elapsed = time.perf_counter() - started
            assert response.status_code == 200, response.get_json()
            answer = response.get_json()["data"]
            if run >= WARM_UP:
                durations.append(elapsed)
        durations.sort()
        median = statistics.median(durations) * 1000
        print(f"answer: {len(answer['points'])} points of {answer['total']} readings, downsampled "
              f"{answer['downsampled']}; {len(response.data) / 1024:.0f} KiB of JSON")
        print(f"{RUNS} calls: median {median:.1f} ms, min {durations[0] * 1000:.1f} ms, "
              f"p90 {durations[int(RUNS * 0.9) - 1] * 1000:.1f} ms, max {durations[-1] * 1000:.1f} ms")
        engine.dispose()
    print(f"history: median {median:.0f} ms for {DAYS} days of 1-minute readings -> {MAX_POINTS} points")


if __name__ == "__main__":
    main()
