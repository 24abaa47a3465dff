"""What this machine serves at best: the yardstick for bench/api.py's req/s targets.

    .venv/bin/python bench/floor.py          # or: make bench

gunicorn set up as `coldchain serve` sets it up (entrypoints.cli.gunicorn_settings and frozen: 2
gthread workers of BENCH_THREADS threads, keep-alive, no access log, collector frozen) serves two
Flask views that do nothing a console call could skip: one answers a constant JSON object, the
other also makes one PostgreSQL round trip (`SELECT 1` through SQLAlchemy's pool and psycopg, on
BENCH_POSTGRES_URL's server), as any call that checks a token must. wrk drives each at 16
connections, as bench/api.py does. No call of the console can go faster than these on the same
machine; the figures are printed, never asserted.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from api import CONNECTIONS, SECONDS, THREADS, WORKERS, Call, cpu_ms, drive, ensure_wrk, free_port, wait_for
from history import PG_ADMIN_URL


def make_app():
    from flask import Flask, jsonify
    from sqlalchemy import create_engine, text

    app = Flask("floor")
    engine = create_engine(PG_ADMIN_URL.replace("postgresql://", "postgresql+psycopg://", 1), pool_size=THREADS)
    one = text("SELECT 1")

    @app.get("/plain")
    def plain():
        return jsonify(code=0, msg="ok", data=None)

    @app.get("/select")
    def select_one():
        with engine.connect() as connection:
            value = connection.execute(one).scalar_one()
        return jsonify(code=0, msg="ok", data=value)

    return app


def serve(port: int) -> None:
    from gunicorn.app.base import BaseApplication

    from entrypoints.cli import frozen, gunicorn_settings

    class Server(BaseApplication):
        def load_config(self) -> None:
            for key, value in gunicorn_settings(f"127.0.0.1:{port}", WORKERS, THREADS, "WARNING").items():
                self.cfg.set(key, value)

        def load(self):
            return frozen(make_app())

    Server().run()


def main() -> None:
    ensure_wrk()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = subprocess.Popen([sys.executable, __file__, "--serve", str(port)], start_new_session=True)
    folder = Path(tempfile.mkdtemp(prefix="coldchain-floor-"))
    try:
        wait_for(f"{base}/select", process, 30, "the floor's server did not start")
        workers = {int(pid) for pid in Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()}
        print(f"gunicorn: {WORKERS} gthread workers of {THREADS} threads; wrk: {CONNECTIONS} connections, "
              f"{SECONDS} s a view after 2 s of warm-up")
        print(f"{'view':<44} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'failed':>7} {'server CPU ms/request':>22}")
        for name, path in (("Flask, a constant JSON object", "/plain"),
                           ("Flask, one PostgreSQL round trip (SELECT 1)", "/select")):
            call = Call(name, "GET", path)
            drive(base, call, "", 2, folder)
            before = cpu_ms(workers)
            f = drive(base, call, "", SECONDS, folder)
            after = cpu_ms(workers)
            server_ms = sum(after.values()) - sum(before.values())
            print(f"{name:<44} {f.rate:8.1f} {f.p50_ms:8.1f} {f.p99_ms:8.1f} {f.failures:7d} "
                  f"{server_ms / f.requests:22.2f}", flush=True)
        print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(20)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(int(sys.argv[2]))
    else:
        main()
