"""Recharge statistics figure: a year of revenue by day, week and month (and by pay type and
level) over a million orders and ten thousand refunds, as /operation/rechargeStatistics asks for it.

    .venv/bin/python bench/revenue.py                   # PostgreSQL in a temporary database
    BENCH_POSTGRES_URL=postgresql://user@host:5432/postgres .venv/bin/python bench/revenue.py

Without a PostgreSQL server it runs on SQLite (with fewer orders) and says so. The last lines are
the figures (target: under a second each); they are printed, never asserted.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from history import database  # type: ignore[import-not-found]  # bench/history.py: the same database
from sqlalchemy import select, text

from adapters.persistence.migrate import upgrade
from adapters.persistence.models import AccountRow, DeviceRow, ServiceLevelRow
from core.ordering.revenue import Granularity
from core.ordering.statistics import periods
from entrypoints.container import build_container
from entrypoints.demo_seed import seed
from entrypoints.settings import load_settings

RUNS = 5
ZONE = ZoneInfo("Asia/Shanghai")

# A year of orders, about 2,740 a day, paid; every 100th refunded in part. One INSERT ... SELECT
# over generate_series (PostgreSQL) or a recursive count (SQLite), so the data is made in the database.
ORDERS_PG = """
INSERT INTO orders (order_code, account_id, kind, pay_type, currency, order_fee_cents, pay_fee_cents, status,
                    apply_flag, description, invoice_status, created_at, paid_at, failure_count,
                    coupon_discount_cents, refunded_cents, auto_renew)
SELECT 'B' || lpad(n::text, 19, '0'), :account, 1, CASE WHEN n % 3 = 0 THEN 2 ELSE 1 END, 'CNY', 9900, 9900,
       CASE WHEN n % 100 = 0 THEN 5 ELSE 2 END, false, 'Basic', 0,
       :start + (n * interval '31536 milliseconds'), :start + (n * interval '31536 milliseconds'), 0, 0,
       CASE WHEN n % 100 = 0 THEN 4950 ELSE 0 END, false
FROM generate_series(1, :count) AS n
"""
LINES_PG = """
INSERT INTO order_lines (order_id, device_id, fee_cents, level_id, months, bonus_months, sms_count, voice_count,
                         recomputed)
SELECT id, :device, 9900, :level, 12, 0, 0, 0, false FROM orders WHERE order_code LIKE 'B%'
"""
REFUNDS_PG = """
INSERT INTO order_refunds (order_id, refund_code, amount_cents, currency, reason, status, requested_by,
                           requested_at, finished_at)
SELECT id, order_code || 'R1', 4950, 'CNY', 'bench', 3, :account, paid_at + interval '1 day',
       paid_at + interval '1 day'
FROM orders WHERE status = 5 AND order_code LIKE 'B%'
"""


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
        seed(container, history=False)
        postgres = engine.dialect.name == "postgresql"
        count = 1_000_000 if postgres else 100_000
        now = container.clock().now()
        start = now - timedelta(days=365)
        with container.session_factory()() as session:
            account = session.scalar(select(AccountRow.id).where(AccountRow.user_name == "alice"))
            device = session.scalar(select(DeviceRow.id).where(DeviceRow.guid == "RCW360A0000001"))
            level = session.scalar(select(ServiceLevelRow.id).limit(1))
        made = time.perf_counter()
        with engine.begin() as connection:
            params = {"account": account, "device": device, "level": level, "start": start, "count": count}
            if postgres:
                connection.execute(text(ORDERS_PG), params)
            else:  # SQLite: the same rows through a recursive count, times as text
                connection.execute(text(ORDERS_PG.replace("FROM generate_series(1, :count) AS n",
                                                          "FROM (WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT "
                                                          "n + 1 FROM c WHERE n < :count) SELECT n FROM c)")
                                        .replace("lpad(n::text, 19, '0')", "printf('%019d', n)")
                                        .replace(":start + (n * interval '31536 milliseconds')",
                                                 "strftime('%Y-%m-%d %H:%M:%f', :start, '+' || (n * 31.536) || "
                                                 "' seconds')")
                                        .replace("false", "0")), params)
            connection.execute(text(LINES_PG.replace("false", "false" if postgres else "0")), params)
            connection.execute(text(REFUNDS_PG if postgres else REFUNDS_PG.replace(
                "paid_at + interval '1 day'", "datetime(paid_at, '+1 day')")), params)
            if postgres:
                connection.execute(text("ANALYZE"))
        print(f"{count:,} orders made in {time.perf_counter() - made:.1f} s on {engine.dialect.name}")
        first, last = (now - timedelta(days=364)).astimezone(ZONE).date(), now.astimezone(ZONE).date()
        year = periods(first, last, Granularity.DAY, ZONE)
        begin, end = year[0].start, year[-1].end
        with container.uow() as uow:  # each aggregation alone
            for name, query in (("by pay type", lambda: uow.revenue.by_pay_type(begin, end, "CNY")),
                                ("by level", lambda: uow.revenue.by_level(begin, end, "CNY")),
                                ("device counts", lambda: uow.revenue.devices(begin, end))):
                print(f"{name}: median {median_ms(query)} ms")
        get = container.recharge_statistics()
        for granularity in Granularity:  # the whole answer
            result = get(first, last, granularity, ZONE, "CNY")
            took = median_ms(lambda g=granularity: get(first, last, g, ZONE, "CNY"))
            print(f"a year by {granularity.value}: {len(result.periods)} periods, {result.total.orders:,} orders, "
                  f"net {result.total.net_cents / 100:,.2f} CNY; median {took} ms (of {RUNS})")


def median_ms(query) -> int:
    timings = []
    for _ in range(RUNS):
        began = time.perf_counter()
        query()
        timings.append(time.perf_counter() - began)
    return round(statistics.median(timings) * 1000)


if __name__ == "__main__":
    main()
