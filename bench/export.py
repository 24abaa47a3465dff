"""Export figures: time and peak memory of writing a device's readings as CSV, XLSX and a PDF
report, for a month and for a year of one-minute readings, on PostgreSQL, in a fleet of devices
loaded with COPY. Memory must stay flat as the period grows: the job reads a chunk at a time.

    .venv/bin/python bench/export.py
    BENCH_DEVICES=200 BENCH_FLEET_DAYS=365 .venv/bin/python bench/export.py   # the issue's full scale

Each export runs in a forked child, which reports its own RSS high-water mark above what it
started with (resource.getrusage), so one export's peak is not hidden by an earlier one's. The
fleet (BENCH_DEVICES devices with BENCH_FLEET_DAYS days each, 20 x 30 by default: the machine's
disk and two shared cores) surrounds the measured device, which always has a full year.
Figures are printed, never asserted.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import select, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from history import postgres_database  # noqa: E402

from adapters.persistence.migrate import upgrade  # noqa: E402
from adapters.persistence.models import AccountRow, DeviceRow, ExportRow  # noqa: E402
from core.exports.model import ExportFormat  # noqa: E402
from core.exports.use_cases import RequestReadingsExport  # noqa: E402
from entrypoints.container import Container, build_container  # noqa: E402
from entrypoints.demo_seed import seed  # noqa: E402
from entrypoints.settings import load_settings  # noqa: E402

DEVICES = int(os.environ.get("BENCH_DEVICES", "20"))
FLEET_DAYS = int(os.environ.get("BENCH_FLEET_DAYS", "30"))
YEAR = 365
STEP = timedelta(minutes=1)
GUID = "RCW360A0000001"
PERIODS = (("month", 30), ("year", YEAR))


def rows(device_id: int, end: datetime, days: int) -> Iterator[str]:
    """COPY text lines of a cold room at 4 °C with a daily swing and door openings."""
    rng = random.Random(device_id)
    count = int(timedelta(days=days) / STEP)
    door = 0.0
    start = end - count * STEP
    for i in range(count):
        ts = start + i * STEP
        if rng.random() < 1 / 240:
            door = rng.uniform(2, 6)
        t = 4 + 0.4 * math.sin(2 * math.pi * i / 1440) + rng.gauss(0, 0.1) + door
        h = 70 + rng.gauss(0, 1.5) - 3 * door
        door *= 0.8
        yield f"{device_id}\t{ts.isoformat()}\t{t:.2f}\t{h:.1f}\t{i}\t{ts.isoformat()}\n"


def load(container: Container, device_ids: list[int], end: datetime) -> int:
    driver = container.engine().raw_connection()
    loaded = 0
    try:
        with driver.cursor() as cursor:
            for index, device_id in enumerate(device_ids):
                days = YEAR if index == 0 else FLEET_DAYS
                with cursor.copy("COPY readings (device_id, ts, temperature, humidity, seq, received_at) "
                                 "FROM STDIN") as copy:
                    buffer: list[str] = []
                    for line in rows(device_id, end, days):
                        buffer.append(line)
                        if len(buffer) == 20_000:
                            copy.write("".join(buffer))
                            loaded += len(buffer)
                            buffer.clear()
                    copy.write("".join(buffer))
                    loaded += len(buffer)
                driver.commit()
    finally:
        driver.close()
    return loaded


def fleet(container: Container) -> tuple[int, list[int]]:
    """alice's cold room A, and DEVICES - 1 more of hers made for the bench."""
    with container.session_factory()() as session:
        alice = session.scalar(select(AccountRow.id).where(AccountRow.user_name_key == "alice"))
        first = session.scalar(select(DeviceRow).where(DeviceRow.guid == GUID))
        ids = [first.id]
        for n in range(1, DEVICES):
            device = DeviceRow(guid=f"BENCH{n:09d}", device_name=f"Bench {n}", type_id=first.type_id,
                               owner_account_id=alice, created_at=first.created_at, display_precision=2)
            session.add(device)
            session.flush()
            ids.append(device.id)
        session.execute(text("DELETE FROM readings WHERE device_id = :d"), {"d": first.id})
        session.commit()
    return alice, ids


def measure(container: Container, alice: int, device_id: int, since: datetime, until: datetime,
            fmt: ExportFormat, pipe) -> None:
    """In the forked child: one export, its time and how far its RSS rose above the start."""
    container.engine().dispose(close=False)  # the parent's connections stay the parent's
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    export = container.request_export()(RequestReadingsExport(alice, device_id, since, until, fmt, "en-US",
                                                              "Asia/Shanghai"))
    detail = container.run_export()(export.id)
    elapsed = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with container.session_factory()() as session:
        size = session.scalar(select(ExportRow.size).where(ExportRow.id == export.id))
        session.execute(text("DELETE FROM exports"))
        session.commit()
    pipe.send((elapsed, (peak - before) / 1024, before / 1024, size, detail))


def main() -> None:
    var = Path(tempfile.mkdtemp(prefix="coldchain-bench-export-"))
    with postgres_database("coldchain_bench_export") as url:
        settings = load_settings({"VAR_DIR": str(var), "DATABASE_URL": url, "APP_ENV": "test", "LOG_LEVEL": "warning",
                                  "SECRET_KEY": "bench-secret-key-that-is-long-enough-0123456789",
                                  "PASSWORD_HASH_TIME_COST": "1", "PASSWORD_HASH_MEMORY_KIB": "1024",
                                  "PASSWORD_HASH_PARALLELISM": "1"})
        container = build_container(settings)
        engine = container.engine()
        upgrade(engine)
        seed(container, history=False)
        end = container.clock().now().replace(second=0, microsecond=0)
        alice, ids = fleet(container)
        started = time.perf_counter()
        loaded = load(container, ids, end)
        copy_s = time.perf_counter() - started
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("VACUUM ANALYZE readings"))
            size = connection.scalar(text("SELECT pg_size_pretty(pg_database_size(current_database()))"))
        print(f"fleet: {DEVICES} devices, the measured one with {YEAR} days and the others {FLEET_DAYS} days of "
              f"1-minute readings: {loaded:,} readings COPied in {copy_s:.0f} s "
              f"({loaded / copy_s:,.0f}/s), database {size}")
        engine.dispose()
        context = multiprocessing.get_context("fork")
        print(f"{'period':>6} {'readings':>9} {'format':>6} {'time s':>7} {'rows/s':>9} {'peak MiB':>9} "
              f"{'file':>9}")
        for label, days in PERIODS:
            since = end - timedelta(days=days)
            for fmt in ExportFormat:
                parent, child = context.Pipe()
                process = context.Process(target=measure, args=(container, alice, ids[0], since, end, fmt, child))
                process.start()
                elapsed, grown, _, file_size, detail = parent.recv()
                process.join()
                count = days * 1440 + 1
                print(f"{label:>6} {count:>9,} {fmt.value:>6} {elapsed:>7.1f} {count / elapsed:>9,.0f} "
                      f"{grown:>9.1f} {file_size / 1024 / 1024:>7.1f}MB")
        container.engine().dispose()
    print("peak MiB: how far the export's process rose above its start (RSS high-water, getrusage)")


if __name__ == "__main__":
    main()
