"""Shared fixtures: an application per database backend (SQLite and PostgreSQL), wiped between
tests, with a clock the test controls.

PostgreSQL runs in its own database created for this run and dropped after it. Without a
PostgreSQL server its tests skip, unless REQUIRE_SERVICES=1, under which they fail.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from dependency_injector import providers
from sqlalchemy import create_engine, delete, select, text
from sqlalchemy.orm import Session

from adapters.persistence import append_only
from adapters.persistence.migrate import upgrade
from adapters.persistence.models import Base, RolePermissionRow, RoleRow
from adapters.persistence.reference_data import synchronise_templates
from entrypoints.api.app import create_app
from entrypoints.container import Container, build_container
from entrypoints.demo_seed import seed
from entrypoints.settings import load_settings
from tests.support.api import ApiClient
from tests.support.clock import MutableClock
from tests.support.demo_copy import empty, holding, seeded, sequences_of

PG_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
REFERENCE_TABLES = {"permissions", "roles", "role_permissions", "dict_items"}
BACKENDS = ("sqlite", "postgresql")
# Every test that takes an application runs on PostgreSQL, production's database. On SQLite (the
# embedded default of `make run`) run the files of the adapters that speak it differently (a
# `dialect` branch: readings and their partitions, the append-only log and trail, bounds, revenue,
# ordering, fences, jobs...), the repositories and migrations; the browser tests and the CLI's run on
# SQLite whole. The API suites twice over took a third of CI's time (2026-11-28).
# TEST_SQLITE=all runs everything on both, as a change to an adapter's SQL deserves.
ON_SQLITE_TOO = frozenset({
    "test_account_changes_api.py", "test_registration_api.py", "test_session_api.py",  # accounts
    "test_alarms.py", "test_alarms_api.py", "test_expiry_reminders.py",
    "test_device_history_api.py", "test_ingest.py", "test_repositories.py", "test_migrations.py",
    "test_operation_log_api.py", "test_fda_trail_api.py", "test_fda_reports_api.py",  # append-only
    "test_attack_lengths.py",  # bounds
    "test_revenue_rollup.py", "test_recharge_statistics_api.py", "test_promotions_api.py",
    "test_catalogue_api.py", "test_ordering_repositories.py", "test_payment_flows.py",
    "test_platform_api.py", "test_geofences_api.py", "test_geofence_ingest.py",
    "test_calibration_persistence.py", "test_embedded_jobs.py", "test_export_jobs.py",
})
SQLITE_EVERYWHERE = os.environ.get("TEST_SQLITE") == "all"


def pytest_collection_modifyitems(config, items) -> None:
    if SQLITE_EVERYWHERE:
        return
    kept, dropped = [], []
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_sqlite = callspec is not None and callspec.params.get("database_url") == "sqlite"
        (dropped if on_sqlite and item.path.name not in ON_SQLITE_TOO else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def settings_for_tests(database_url: str, var_dir: Path, **overrides: str):
    env = {
        "APP_ENV": "test",
        "VAR_DIR": str(var_dir),
        "DATABASE_URL": database_url,
        "SECRET_KEY": "test-secret-key-that-is-long-enough-0123456789",
        # Cheap hashes keep the suite fast; the production profile has its own test.
        "PASSWORD_HASH_TIME_COST": "1",
        "PASSWORD_HASH_MEMORY_KIB": "1024",
        "PASSWORD_HASH_PARALLELISM": "1",
        "WEB_DIST": str(var_dir / "no-web-build"),
        **overrides,
    }
    return load_settings(env)


def _postgres_database() -> Iterator[str]:
    name = f"coldchain_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as error:  # no server, no rights
        admin.dispose()
        message = f"PostgreSQL is not available at {PG_ADMIN_URL}: {error.__class__.__name__}: {error}"
        if REQUIRE_SERVICES:
            pytest.fail(message)
        pytest.skip(message)
    try:
        yield PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request, tmp_path_factory) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('sqlite') / 'coldchain.db'}"
    else:
        yield from _postgres_database()


def _empty_postgresql(connection, tables: list[str]) -> None:
    """Empty only the tables holding rows and restart only the sequences that moved: a TRUNCATE of
    every table took 0.4 s a test (measured; it makes new files for each table and index), while a
    test writes to a few."""
    empty(connection, tables)
    # the sequences of these tables only: the reference tables' (custom roles) keep counting
    for sequence, last in sequences_of(connection, tables):
        if last is not None:
            connection.execute(text("SELECT setval(:sequence, 1, false)"), {"sequence": sequence})


class App:
    """One migrated application on one backend."""

    def __init__(self, container: Container) -> None:
        self.container = container
        self.flask = create_app(container)
        self.clock = MutableClock()
        container.clock.override(providers.Object(self.clock))
        self.owned_tables = [t.name for t in Base.metadata.sorted_tables if t.name not in REFERENCE_TABLES]
        self.demo_copies: dict = {}  # tests.support.demo_copy's copies of the demo data
        self.holding_after_reset: set[str] | None = None  # on PostgreSQL: the built-in sharing templates' table

    def wipe(self) -> None:
        engine = self.container.engine()
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                _empty_postgresql(connection, self.owned_tables)
            else:
                with append_only.lifted(connection):  # the operation log refuses DELETE
                    for table in reversed([Base.metadata.tables[name] for name in self.owned_tables]):
                        connection.execute(table.delete())
            # Organizations' custom roles live in the reference table `roles`: they go, the built-in stay.
            custom = select(RoleRow.id).where(RoleRow.built_in.is_(False))
            connection.execute(delete(RolePermissionRow).where(RolePermissionRow.role_id.in_(custom)))
            connection.execute(delete(RoleRow).where(RoleRow.built_in.is_(False)))
        # the built-in templates live in a table that accounts own rows of, so they went too
        with Session(engine) as session:
            synchronise_templates(session)
            session.commit()
        if self.holding_after_reset is None and engine.dialect.name == "postgresql":
            with engine.connect() as connection:
                self.holding_after_reset = set(holding(connection, self.owned_tables))

    def reset(self) -> None:
        self.wipe()
        self.clock = MutableClock()
        self.container.clock.override(providers.Object(self.clock))


def _make_app(database_url: str, var_dir: Path, **overrides: str) -> App:
    container = build_container(settings_for_tests(database_url, var_dir, **overrides))
    upgrade(container.engine())
    return App(container)


@pytest.fixture(scope="session")
def _session_app(database_url, tmp_path_factory) -> Iterator[App]:
    app = _make_app(database_url, tmp_path_factory.mktemp("var"))
    yield app
    app.container.engine().dispose()


@pytest.fixture
def app(_session_app: App) -> App:
    """The domestic-edition application, emptied of everything but reference data."""
    _session_app.reset()
    return _session_app


@pytest.fixture(scope="session")
def _international_app(tmp_path_factory) -> Iterator[App]:
    var = tmp_path_factory.mktemp("intl")
    app = _make_app(f"sqlite:///{var / 'intl.db'}", var, EDITION="international")
    yield app
    app.container.engine().dispose()


@pytest.fixture
def international_app(_international_app: App) -> App:
    _international_app.reset()
    return _international_app


@pytest.fixture(scope="session")
def _sqlite_app(tmp_path_factory) -> Iterator[App]:
    var = tmp_path_factory.mktemp("sqlite-only")
    app = _make_app(f"sqlite:///{var / 'embedded.db'}", var)
    yield app
    app.container.engine().dispose()


@pytest.fixture
def sqlite_app(_sqlite_app: App) -> App:
    """A SQLite application for what only the embedded (make run) set-up does."""
    _sqlite_app.reset()
    return _sqlite_app


@pytest.fixture
def container(app: App) -> Container:
    return app.container


@pytest.fixture
def clock(app: App) -> MutableClock:
    return app.clock


@pytest.fixture
def api(app: App) -> ApiClient:
    return ApiClient(app.flask.test_client())


@pytest.fixture
def demo(app: App) -> App:
    """The demo data of `coldchain demo-seed`."""
    seeded(app)
    return app


@pytest.fixture
def recharge_demo(app: App) -> App:
    """The demo data without the devices' stored readings: accounts, devices, catalogue."""
    seeded(app, history=False)
    return app


# --- payments against the local sandboxes ------------------------------------------------------


class PaymentsApp:
    """A console whose payments go to real providers' APIs (PAYMENT_BACKEND=providers), here the
    local sandbox, both served over HTTP on free ports: the sandbox's notifications reach the
    console's endpoints through sockets."""

    def __init__(self, app: App, world) -> None:
        self.app, self.world = app, world
        self.api = ApiClient(app.flask.test_client())

    @property
    def container(self) -> Container:
        return self.app.container

    @property
    def clock(self) -> MutableClock:
        return self.app.clock


def _payments_session(tmp_path_factory, database_url: str | None, **overrides: str) -> Iterator[PaymentsApp]:
    from tests.support.payments import payment_world

    with payment_world() as (world, console):
        var = tmp_path_factory.mktemp("payments")
        app = _make_app(database_url or f"sqlite:///{var / 'payments.db'}", var, **world.provider_env(), **overrides)
        console.app = app.flask
        yield PaymentsApp(app, world)
        app.container.engine().dispose()


@pytest.fixture(scope="session")
def _payments(database_url, tmp_path_factory) -> Iterator[PaymentsApp]:
    yield from _payments_session(tmp_path_factory, database_url)


@pytest.fixture
def payments(_payments: PaymentsApp) -> PaymentsApp:
    """The domestic console (both databases) paying through the sandbox, with the demo data."""
    _payments.app.reset()
    seed(_payments.container, history=False)
    return _payments


@pytest.fixture(scope="session")
def _international_payments(tmp_path_factory) -> Iterator[PaymentsApp]:
    yield from _payments_session(tmp_path_factory, None, EDITION="international")


@pytest.fixture
def international_payments(_international_payments: PaymentsApp) -> PaymentsApp:
    """The international console (SQLite) paying through the sandbox, with the demo data."""
    _international_payments.app.reset()
    seed(_international_payments.container, history=False)
    return _international_payments


@pytest.fixture
def broker(app: App):
    """The machine's Mosquitto on free ports, set up by `coldchain mqtt-config` from the app's
    database, whose logins the app's use cases change, as the container does in production."""
    from tests.support.mosquitto import GeneratedBroker, require_mosquitto_binary

    require_mosquitto_binary()
    running = GeneratedBroker(app.container.settings().database_url)
    running.configure()
    running.start()
    app.container.broker_access.override(running.access())
    yield running
    app.container.broker_access.reset_override()
    running.stop()
