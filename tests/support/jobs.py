"""The job engine in tests: a Celery application of the console on a Redis key prefix of its
own (removed afterwards) or on the SQLAlchemy transport, and the records its runs leave."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from celery import Celery
from sqlalchemy import select

from adapters.persistence.models import JobRunRow
from entrypoints.container import Container
from entrypoints.jobs.app import create_celery_app

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own on the machine's Redis; its keys are deleted afterwards.
    Without Redis the test skips, unless REQUIRE_SERVICES=1, under which it fails."""
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.RedisError as error:
        message = f"Redis is not available at {REDIS_URL}: {error}"
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    prefix = f"coldchain-test-{uuid.uuid4().hex[:12]}:"
    try:
        yield prefix
    finally:
        keys = list(client.scan_iter(match=f"{prefix}*"))
        if keys:
            client.delete(*keys)
        client.close()


def redis_options(prefix: str, visibility_timeout_s: float = 3600) -> dict[str, Any]:
    """Celery settings of an application on the prefix: its own queue, nothing run eagerly."""
    return {"broker_url": REDIS_URL, "task_always_eager": False, "task_default_queue": f"{prefix}jobs",
            "broker_transport_options": {"global_keyprefix": prefix, "visibility_timeout": visibility_timeout_s,
                                         # look for jobs of a dead worker every second, not every 100
                                         "unacked_restore_interval": 1, "unacked_restore_throttle": 1}}


def jobs_app(container: Container, **options: Any) -> Celery:
    return create_celery_app(container.settings(), container, **options)


def runs(container: Container, name: str | None = None) -> list[JobRunRow]:
    with container.session_factory()() as session:
        query = select(JobRunRow).order_by(JobRunRow.id)
        if name is not None:
            query = query.where(JobRunRow.name == name)
        return list(session.scalars(query))


def wait_for(condition: Callable[[], Any], limit_s: float = 30, what: str = "the condition") -> Any:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"waited {limit_s} s for {what}")
