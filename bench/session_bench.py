"""Session and API figures: what a login costs with the production password hash, and how many
authenticated calls a second one worker answers (every call checks its token in the database).

    make bench                                   # SQLite in a temporary directory
    BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench make bench

Figures are printed, never asserted; compare runs on the same machine.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from adapters.persistence.migrate import upgrade
from entrypoints.api.app import create_app
from entrypoints.container import build_container
from entrypoints.demo_seed import DEMO_PASSWORD, seed
from entrypoints.settings import load_settings


def timed(label: str, count: int, call) -> None:
    durations = []
    for _ in range(count):
        start = time.perf_counter()
        call()
        durations.append(time.perf_counter() - start)
    durations.sort()
    p50, p95 = durations[len(durations) // 2], durations[int(len(durations) * 0.95) - 1]
    print(f"{label:<44} n={count:<5} p50={p50 * 1000:7.2f} ms  p95={p95 * 1000:7.2f} ms  "
          f"rate={count / sum(durations):8.1f}/s  mean={statistics.mean(durations) * 1000:7.2f} ms")


def main() -> None:
    var = Path(tempfile.mkdtemp(prefix="coldchain-bench-"))
    url = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{var / 'bench.db'}"
    # The production password profile (argon2id, 64 MiB, t=3, p=4) unless overridden.
    settings = load_settings({"VAR_DIR": str(var), "DATABASE_URL": url, "APP_ENV": "test",
                              "SECRET_KEY": "bench-secret-key-that-is-long-enough-0123456789", "LOG_LEVEL": "warning"})
    container = build_container(settings)
    upgrade(container.engine())
    seed(container)
    client = create_app(container).test_client()
    print(f"database: {url.split('@')[-1]}; password hash: argon2id m={settings.password_memory_kib} KiB "
          f"t={settings.password_time_cost} p={settings.password_parallelism}")

    def login(name="alice", password=DEMO_PASSWORD, address="10.0.0.1"):
        response = client.post("/api/base/BaseAccount/login", json={"userName": name, "accountPassword": password},
                               environ_base={"REMOTE_ADDR": address})
        return response

    names = iter(range(10_000))
    timed("login, right password", 20, lambda: login())
    # Two failures per real user, each from its own address, so throttling (a wait per address
    # after a second failure, the image code after a third) never cuts an attempt short: the two
    # kinds of failure should cost what a right password costs, or timing would tell who exists.
    real = iter([user for user in ("alice", "bob", "acme", "operator") for _ in range(2)])
    timed("login, wrong password of a real user", 8,
          lambda: login(next(real), "Wrong#123", address=f"10.0.1.{next(names) % 250}"))
    timed("login, unknown user (decoy hash)", 20,
          lambda: login(f"nobody_{next(names)}", "Wrong#123", address=f"10.0.2.{next(names) % 250}"))
    token = login().get_json()["data"]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    timed("accountInfo (token check + 6 queries)", 500,
          lambda: client.get("/api/base/BaseAccount/accountInfo", headers=headers))
    timed("getScenePermissionList (token check + 1)", 500,
          lambda: client.get("/api/base/BaseAccount/getScenePermissionList?sceneId=1", headers=headers))
    timed("config (no token)", 500, lambda: client.get("/api/base/config"))
    timed("rejected call, revoked/unknown token", 500,
          lambda: client.get("/api/base/BaseAccount/accountInfo", headers={"Authorization": "Bearer nope"}))


if __name__ == "__main__":
    main()
