"""Issue 13 item 15: no value fits one database and not the other.

`EDITION=international coldchain demo-seed` failed on PostgreSQL ('Standard cloud service' in a
VARCHAR(20)) where SQLite had stored it silently. These tests write, on SQLite and on PostgreSQL,
one character (or one number) too many into every bounded column of the models, as the
application, as raw SQL and through the API, and load the demo data in both editions on both
databases with the real command.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import (
    BigInteger,
    Engine,
    Integer,
    SmallInteger,
    String,
    Table,
    create_engine,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.exc import DataError
from sqlalchemy.types import TypeDecorator

from adapters.persistence.migrate import alembic_config, downgrade, upgrade
from adapters.persistence.models import (
    AutoRenewAgreementRow,
    Base,
    DeviceRow,
    LevelYearOptionRow,
    LoginFailureRow,
    PaymentNotificationRow,
    ServicePackageRow,
    SmsPackageRow,
)
from entrypoints.container import build_container
from entrypoints.demo_seed import seed
from tests.support.api import ApiClient
from tests.support.fixtures import _postgres_database, settings_for_tests
from tests.support.rows import insert_row

# Characters of one, two, three and four UTF-8 bytes: a bound counts characters, not bytes.
CHARACTERS = "aé冷🧊"
BOUNDS_REVISION = "0006"
INT_RANGES = {SmallInteger: (-(2**15), 2**15 - 1), Integer: (-(2**31), 2**31 - 1),
              BigInteger: (-(2**63), 2**63 - 1)}


def _column_type(column):
    return column.type.impl_instance if isinstance(column.type, TypeDecorator) else column.type


def _int_range(column) -> tuple[int, int] | None:
    type_ = _column_type(column)
    for kind in (BigInteger, SmallInteger, Integer):  # the first two are subclasses of Integer
        if isinstance(type_, kind):
            return INT_RANGES[kind]
    return None


def _columns(predicate) -> list[tuple[Table, Any]]:
    found = [(table, column) for table in Base.metadata.sorted_tables for column in table.columns
             if predicate(column)]
    assert found
    return found


STRINGS = _columns(lambda c: isinstance(_column_type(c), String) and _column_type(c).length)
TEXTS = _columns(lambda c: isinstance(_column_type(c), String))
INTEGERS = _columns(lambda c: _int_range(c) is not None)


def _text(length: int) -> str:
    return (CHARACTERS * length)[:length]


def _write(engine, table: Table, values: dict[tuple[str, str], Any], read: str | None = None) -> Any:
    """Write one row holding `values` (and the parents it needs), then roll back: the refusal, or
    what column `read` of the row holds."""
    with engine.connect() as connection:
        transaction = connection.begin()
        try:
            row = insert_row(connection, table, values)
            if read is not None:
                return row[read]
        except Exception as error:  # noqa: BLE001 - the refusal is what is looked at
            return error
        finally:
            transaction.rollback()
    return None


def _where(table: Table, column) -> tuple[str, str]:
    """Where a value for `column` is written: a foreign key takes it from its parent row."""
    key = next(iter(column.foreign_keys), None)
    return (key.column.table.name, key.column.name) if key else (table.name, column.name)


def _problems(engine, table: Table, column, fitting: list[Any], too_much: list[Any]) -> list[str]:
    """`fitting` values must be stored, `too_much` refused with a DataError, as PostgreSQL does."""
    problems = []
    for value in fitting:
        error = _write(engine, table, {_where(table, column): value})
        if error is not None:
            problems.append(f"{table.name}.{column.name}: {_shown(value)} refused ({type(error).__name__})")
    for value in too_much:
        error = _write(engine, table, {(table.name, column.name): value})
        if not isinstance(error, DataError):
            outcome = "stored" if error is None else f"refused with {type(error).__name__}, not DataError"
            problems.append(f"{table.name}.{column.name}: {_shown(value)} {outcome}")
    return problems


def _shown(value: Any) -> str:
    return f"{len(value)} characters" if isinstance(value, str) else str(value)


def test_every_bounded_text_column_takes_its_length_in_characters_and_refuses_one_more(app):
    engine = app.container.engine()
    problems = []
    for table, column in STRINGS:
        n = _column_type(column).length
        problems += _problems(engine, table, column, [_text(n)], [_text(n + 1)])
    assert not problems, (f"{len(problems)} of {2 * len(STRINGS)} writes differ from PostgreSQL "
                          f"on {engine.dialect.name}:\n" + "\n".join(problems))


def test_no_database_stores_more_characters_than_the_column_holds(app):
    """PostgreSQL cuts an excess of spaces instead of refusing it (SQL's rule for VARCHAR);
    SQLite refuses it. Neither may keep the spaces."""
    engine = app.container.engine()
    problems = []
    for table, column in STRINGS:
        n = _column_type(column).length
        outcome = _write(engine, table, {_where(table, column): _text(n) + "   "}, read=column.name)
        if not (isinstance(outcome, DataError) or outcome == _text(n)):
            problems.append(f"{table.name}.{column.name}: {outcome!r}")
    assert not problems, "\n".join(problems)


def test_no_text_column_takes_a_nul_character(app):
    """PostgreSQL cannot store NUL in text; SQLite's length() stops counting at one."""
    engine = app.container.engine()
    problems = []
    for table, column in TEXTS:
        problems += _problems(engine, table, column, [], ["a\x00" + "b" * 40])
    assert not problems, "\n".join(problems)


def test_every_integer_column_takes_its_range_and_refuses_one_beyond(app):
    engine = app.container.engine()
    problems = []
    for table, column in INTEGERS:
        low, high = _int_range(column)
        problems += _problems(engine, table, column, [low, high], [low - 1, high + 1])
    assert not problems, (f"{len(problems)} of {4 * len(INTEGERS)} writes differ from PostgreSQL "
                          f"on {engine.dialect.name}:\n" + "\n".join(problems))


def test_a_writer_that_bypasses_sqlalchemy_is_refused_by_the_schema(demo):
    """Raw SQL through the driver, as the sqlite3 shell or psql would write it."""
    engine = demo.container.engine()
    sqlite = engine.dialect.name == "sqlite"
    refusal = sqlite3.IntegrityError if sqlite else psycopg.errors.StringDataRightTruncation
    connection = engine.raw_connection()
    try:
        with pytest.raises(refusal):
            connection.cursor().execute(
                "UPDATE devices SET device_name = ? WHERE guid = ?" if sqlite else
                "UPDATE devices SET device_name = %s WHERE guid = %s", ("冷" * 51, "RCW360A0000001"))
        connection.rollback()
    finally:
        connection.close()
    with engine.connect() as check:
        stored = check.scalar(select(DeviceRow.device_name).where(DeviceRow.guid == "RCW360A0000001"))
    assert stored == "Cold room A logger"


# --- through the API ---------------------------------------------------------------------------


def _unbounded(schemas: dict, where: str, schema: dict) -> Iterator[str]:
    """Fields of a published request schema with no bound: a string without maxLength, an integer
    without minimum and maximum (or beyond 64 bits), a list without maxItems."""
    while "$ref" in schema:
        schema = schemas[schema["$ref"].rsplit("/", 1)[1]]
    kinds = schema.get("type", "object")
    kind = next(k for k in ([kinds] if isinstance(kinds, str) else kinds) if k != "null")
    if "enum" in schema:
        return
    if kind == "object":
        for name, field in schema.get("properties", {}).items():
            yield from _unbounded(schemas, f"{where}.{name}", field)
    elif kind == "array":
        if "maxItems" not in schema:
            yield f"{where}: no maxItems"
        yield from _unbounded(schemas, f"{where}[]", schema.get("items", {}))
    elif kind == "string" and "maxLength" not in schema:
        yield f"{where}: no maxLength"
    elif kind == "integer" and not (-(2**63) <= schema.get("minimum", -(2**64)) <= schema.get("maximum", 2**64)
                                    <= 2**63 - 1):
        yield f"{where}: minimum {schema.get('minimum')}, maximum {schema.get('maximum')}"


def test_every_field_a_client_sends_is_bounded_in_the_published_contract(api):
    """So that what reaches a column is refused with a 422 in the caller's language first."""
    document = api.client.get("/api/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    problems = []
    for path, operations in document["paths"].items():
        for parameter in operations.get("parameters", []):  # the path's own (a camp's notification path)
            problems += _unbounded(schemas, f"{path} {{{parameter['name']}}}", parameter["schema"])
        for method, operation in operations.items():
            if method == "parameters":
                continue
            for parameter in operation.get("parameters", []):
                problems += _unbounded(schemas, f"{method} {path} ?{parameter['name']}", parameter["schema"])
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                problems += _unbounded(schemas, f"{method} {path} body", body["schema"])
    assert not problems, "\n".join(problems)


def test_a_number_beyond_its_field_is_refused_with_422_in_the_callers_language(recharge_demo):
    api = ApiClient(recharge_demo.flask.test_client(), language="zh-CN")
    reply = api.call("GET", "/base/BaseAccount/accountInfo", token=api.token("alice"), query={"timestamp": 2**64})
    assert reply.status == 422, reply.body
    assert reply.body["errors"] == {"timestamp": ["必须大于等于0且小于等于9007199254740991。"]}


FOLDS_LONGER = "ß" * 200  # 200 characters, 400 once casefolded ('ss')


def test_a_login_name_that_casefolds_longer_than_its_column_is_refused_with_422(api):
    """Failed logins are counted under the casefolded name, in a 200-character column: the name
    was stored at 400 characters on SQLite and a 500 on PostgreSQL."""
    reply = api.call("POST", "/base/BaseAccount/login",
                     json={"userName": FOLDS_LONGER, "accountPassword": "Wrong#2026x", "loginType": 1})
    assert reply.status == 422, reply.body
    assert list(reply.body["errors"]) == ["userName"]


def test_a_platform_switch_with_such_a_name_is_refused_with_422(recharge_demo):
    api = ApiClient(recharge_demo.flask.test_client(), language="de-DE")
    reply = api.call("POST", "/base/BaseAccount/login/toOldPaltform", token=api.token("alice"),
                     json={"userName": FOLDS_LONGER, "accountPassword": "Wrong#2026x"})
    assert reply.status == 422, reply.body
    assert reply.body["errors"] == {"userName": ["Ungültiger Wert."]}


@pytest.mark.parametrize("provider", ["wechat", "alipay", "stripe"])
def test_a_forged_notification_holding_nul_is_recorded_and_refused_not_a_500(app, api, provider):
    """Anyone can post to the notification endpoints, and each notification is recorded as
    received: a NUL byte in it was a 500 on PostgreSQL (text cannot hold NUL) and no record."""
    response = api.client.post(f"/api/payment/notify/{provider}", data=b"<xml>\x00<return_code>SUCCESS</xml>")
    assert response.status_code < 500
    with app.container.engine().connect() as connection:
        recorded = connection.execute(select(PaymentNotificationRow.verdict, PaymentNotificationRow.body)).all()
    # The domestic console offers no Stripe: its endpoint refuses unread, and still records.
    expected = "providerOff" if provider == "stripe" else "badSignature"
    assert [(verdict, "\x00" in body) for verdict, body in recorded] == [(expected, False)]


# --- the bounds on SQLite are added by a migration that keeps every row ------------------------


def _counts(engine) -> dict[str, int]:
    with engine.connect() as connection:
        return {name: connection.scalar(text(f'SELECT count(*) FROM "{name}"'))
                for name in inspect(connection).get_table_names() if name != "alembic_version"}


@pytest.fixture
def filled_before_the_bounds(tmp_path) -> Iterator[Engine]:
    """A SQLite database with the demo data, at the revision before the bounds."""
    container = build_container(settings_for_tests(f"sqlite:///{tmp_path / 'filled.db'}", tmp_path))
    engine = container.engine()
    upgrade(engine)
    seed(container, alarms=True)
    downgrade(engine, ScriptDirectory.from_config(alembic_config()).get_revision(BOUNDS_REVISION).down_revision)
    yield engine
    engine.dispose()


def _revision(engine) -> str:
    with engine.connect() as connection:
        return connection.scalar(text("SELECT version_num FROM alembic_version"))


def test_the_bounds_migration_rebuilds_sqlite_tables_without_losing_a_row(filled_before_the_bounds):
    """SQLite rebuilds a table to add a constraint; dropping the old one with foreign keys on
    deletes, through ON DELETE CASCADE, every row that referenced it (or fails)."""
    engine = filled_before_the_bounds
    before = _revision(engine)
    counts = _counts(engine)
    assert counts["devices"] == 8 and counts["user_profiles"] == 6 and counts["readings"] > 10_000
    upgrade(engine, BOUNDS_REVISION)
    assert _counts(engine) == counts
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA foreign_key_check").all() == []
        checks = {c["name"] for c in inspect(connection).get_check_constraints("devices")}
    assert "ck_devices_device_name_bounds" in checks
    downgrade(engine, before)
    assert _counts(engine) == counts


def test_rows_sqlite_stored_beyond_the_bounds_are_made_to_fit_by_the_migration(filled_before_the_bounds):
    """What a SQLite database may hold from before: the old international demo package, a login
    name casefolded to 400 characters, a notification holding NUL."""
    engine = filled_before_the_bounds
    now = datetime.now(UTC)
    with engine.begin() as connection:
        connection.execute(update(ServicePackageRow).values(package_name="Standard cloud service"))
        connection.execute(insert(LoginFailureRow).values(name_key="ss" * 200, address="10.0.0.1", failed_at=now))
        connection.execute(insert(PaymentNotificationRow).values(provider="wechat", received_at=now,
                                                                 verdict="badSignature", body="<xml>\x00</xml>"))
    counts = _counts(engine)
    upgrade(engine, BOUNDS_REVISION)
    assert _counts(engine) == counts
    with engine.connect() as connection:
        assert connection.scalar(select(ServicePackageRow.package_name)) == "Standard cloud plan"
        assert connection.scalar(select(LoginFailureRow.name_key)) == "s" * 200
        assert connection.scalar(select(PaymentNotificationRow.body)) == "<xml>\ufffd</xml>"


def test_a_number_sqlite_stored_beyond_its_column_stops_the_migration_and_changes_nothing(
        filled_before_the_bounds):
    engine = filled_before_the_bounds
    before = _revision(engine)
    with engine.begin() as connection:
        connection.execute(update(DeviceRow).where(DeviceRow.guid == "RCW360A0000001").values(sms_count=2**40))
    counts = _counts(engine)
    with pytest.raises(ValueError, match=r"devices\.sms_count of row \d+ holds 1099511627776"):
        upgrade(engine, BOUNDS_REVISION)
    assert _revision(engine) == before and _counts(engine) == counts
    with engine.connect() as connection:
        assert not any(inspect(connection).get_check_constraints(t) for t in inspect(connection).get_table_names())


# --- demo data: both editions, both databases, the real command, twice -------------------------

COLDCHAIN = str(Path(sys.executable).with_name("coldchain"))


def _coldchain(*args: str, var: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "EDITION", "APP_ENV")}
    environment.update({"VAR_DIR": str(var), "APP_ENV": "development", "PASSWORD_HASH_MEMORY_KIB": "1024",
                        "PASSWORD_HASH_TIME_COST": "1", **env})
    return subprocess.run([COLDCHAIN, *args], capture_output=True, text=True, env=environment, timeout=300,
                          cwd=var.parent)


@pytest.fixture
def empty_database(request, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'demo.db'}"
    else:
        yield from _postgres_database()


# Each edition once and each database once: every pairing took a minute of CI a time (2026-11-28).
@pytest.mark.parametrize("empty_database,edition,currency", [("postgresql", "domestic", "CNY"),
                                                             ("sqlite", "international", "USD")],
                         indirect=["empty_database"])
def test_the_demo_data_loads_in_both_editions_on_both_databases_and_twice_changes_nothing(
        edition, currency, empty_database, tmp_path):
    var = tmp_path / "var"
    env = {"EDITION": edition, "DATABASE_URL": empty_database}
    migrated = _coldchain("migrate", var=var, **env)
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    first = _coldchain("demo-seed", var=var, **env)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "demo data loaded" in first.stdout
    engine = create_engine(empty_database.replace("postgresql://", "postgresql+psycopg://"))
    try:
        loaded = _counts(engine)
        second = _coldchain("demo-seed", var=var, **env)
        assert second.returncode == 0, second.stderr[-3000:]
        assert "nothing changed" in second.stdout
        assert _counts(engine) == loaded
        # the CLI loads the teams too: carol, Acme's administrator, and dave, a read-only member
        assert loaded["accounts"] == 8 and loaded["devices"] == 8 and loaded["alarm_messages"] == 3
        with engine.connect() as connection:  # both price lists, whatever the edition: each reads its own
            assert set(connection.execute(select(SmsPackageRow.country_code, SmsPackageRow.currency))) == {
                ("86", "CNY"), ("1", "USD")}
            assert set(connection.scalars(select(LevelYearOptionRow.currency))) == {"CNY", "USD"}
            agreement = select(LevelYearOptionRow.currency).join(
                AutoRenewAgreementRow, AutoRenewAgreementRow.level_year_id == LevelYearOptionRow.id)
            assert connection.scalar(agreement) == currency  # the demo renewal charges the edition's price
    finally:
        engine.dispose()
