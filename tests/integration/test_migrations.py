"""Alembic is the only way the schema is made, and it agrees with the models on both backends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import JSON, column, func, inspect, select, table, text
from sqlalchemy.orm import Session

from adapters.persistence import reference_data
from adapters.persistence.database import make_engine
from adapters.persistence.migrate import downgrade, upgrade
from adapters.persistence.models import Base, DictItemRow, PermissionRow, RolePermissionRow, RoleRow
from adapters.persistence.partitions import ensure_reading_partitions, include_name
from core.permissions import catalogue, roles
from tests.support.fixtures import BACKENDS, _postgres_database


def test_the_migrated_schema_matches_the_models(app):
    with app.container.engine().connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True, "include_name": include_name})
        assert compare_metadata(context, Base.metadata) == []


def test_readings_are_partitioned_by_month_on_postgresql(app):
    engine = app.container.engine()
    if engine.dialect.name != "postgresql":
        return
    tables = set(inspect(engine).get_table_names())
    now = datetime.now(UTC)
    assert f"readings_p{now:%Y%m}" in tables and "readings_pdefault" in tables
    assert ensure_reading_partitions(engine) == 0  # idempotent
    ahead = now.replace(day=1) + timedelta(days=32 * 4)
    assert ensure_reading_partitions(engine, ahead) >= 1


def test_migrations_go_down_and_up_again(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'roundtrip.db'}")
    upgrade(engine)
    downgrade(engine, "base")
    assert set(inspect(engine).get_table_names()) == {"alembic_version"}
    upgrade(engine)
    assert set(Base.metadata.tables) <= set(inspect(engine).get_table_names())


@pytest.fixture(params=BACKENDS)
def empty_engine(request, tmp_path):
    """An engine on an empty database of each backend, for migrating step by step."""
    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 'steps.db'}")
        yield engine
        engine.dispose()
        return
    for url in _postgres_database():  # dropped after the test
        engine = make_engine(url)
        yield engine
        engine.dispose()


@pytest.mark.parametrize("edition,language", [("international", "en-US"), ("domestic", "zh-CN")])
def test_a_notice_s_single_text_becomes_its_edition_s_language_and_back(empty_engine, monkeypatch, edition,
                                                                         language):
    monkeypatch.setenv("EDITION", edition)
    upgrade(empty_engine, "0025_device_scrapped")
    with empty_engine.begin() as connection:
        connection.execute(text("INSERT INTO notices (camp, platform, notice_type, content, created_at) "
                                "VALUES (0, 1, 1, '<p>Wartung</p>', CURRENT_TIMESTAMP)"))
    upgrade(empty_engine, "0026_notice_languages")
    with empty_engine.connect() as connection:
        contents = connection.execute(select(column("contents", JSON)).select_from(table("notices"))).scalars()
        assert contents.all() == [{language: "<p>Wartung</p>"}]
    downgrade(empty_engine, "0025_device_scrapped")
    with empty_engine.connect() as connection:
        assert connection.execute(text("SELECT content FROM notices")).scalars().all() == ["<p>Wartung</p>"]


def test_reference_data_matches_the_core_and_syncing_twice_changes_nothing(app):
    engine = app.container.engine()

    def counts():
        with Session(engine) as session:
            return [session.scalar(select(func.count()).select_from(t))
                    for t in (PermissionRow, RoleRow, RolePermissionRow, DictItemRow)]

    before = counts()
    with Session(engine) as session:
        reference_data.synchronise(session)
        session.commit()
    assert counts() == before
    with Session(engine) as session:
        assert set(session.scalars(select(PermissionRow.name))) == set(catalogue.BY_NAME)
        for definition in roles.BUILT_IN:
            role_id = session.scalar(select(RoleRow.id).where(RoleRow.code == definition.code))
            held = set(session.scalars(select(RolePermissionRow.permission_name)
                                       .where(RolePermissionRow.role_id == role_id)))
            assert held == definition.permissions, definition.code


def test_a_permission_removed_from_the_catalogue_is_removed_from_roles(app):
    engine = app.container.engine()
    with Session(engine) as session:
        session.add(PermissionRow(name="obsolete.page", scenes="1", back_office=False))
        role_id = session.scalar(select(RoleRow.id).where(RoleRow.code == "customer_personal"))
        session.add(RolePermissionRow(role_id=role_id, permission_name="obsolete.page"))
        session.commit()
        reference_data.synchronise(session)
        session.commit()
        assert session.get(PermissionRow, "obsolete.page") is None


def test_activity_and_sms_package_names_fold_into_catalogue_texts_and_back(empty_engine):
    upgrade(empty_engine, "0034_catalogue_admin")
    with empty_engine.begin() as connection:
        connection.execute(text("INSERT INTO activities (id, name, nature, starts_at, ends_at, status, created_at) "
                                "VALUES (7, 'Spring', 1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1, CURRENT_TIMESTAMP)"))
        connection.execute(text("INSERT INTO sms_packages (id, kind, package_name, country_code, package_fee_cents, "
                                "currency, count, discount, sort, status) VALUES (9, 1, 'SMS 100', '86', 500, 'CNY', "
                                "100, 100, 0, 1)"))
        connection.execute(text("INSERT INTO activity_names VALUES (7, 'ru-RU', 'Весна'), (7, 'de-DE', 'Frühling')"))
        connection.execute(text("INSERT INTO sms_package_names VALUES (9, 'ru-RU', 'SMS 100 рус')"))
        connection.execute(text("INSERT INTO catalogue_texts (owner_kind, owner_key, language, name) "
                                "VALUES ('level', '7', 'ru-RU', 'Базовый')"))
    upgrade(empty_engine, "0038_catalogue_texts_fold")
    texts = "SELECT owner_kind, owner_key, language, name, description FROM catalogue_texts"
    with empty_engine.connect() as connection:
        assert sorted(map(tuple, connection.execute(text(texts)))) == [
            ("activity", "7", "de-DE", "Frühling", None), ("activity", "7", "ru-RU", "Весна", None),
            ("level", "7", "ru-RU", "Базовый", None), ("sms", "9", "ru-RU", "SMS 100 рус", None)]
    assert not {"activity_names", "sms_package_names"} & set(inspect(empty_engine).get_table_names())
    downgrade(empty_engine, "0034_catalogue_admin")
    with empty_engine.connect() as connection:
        assert sorted(map(tuple, connection.execute(text("SELECT * FROM activity_names")))) == [
            (7, "de-DE", "Frühling"), (7, "ru-RU", "Весна")]
        names = list(map(tuple, connection.execute(text("SELECT * FROM sms_package_names"))))
        assert names == [(9, "ru-RU", "SMS 100 рус")]
        assert list(map(tuple, connection.execute(text(texts)))) == [("level", "7", "ru-RU", "Базовый", None)]
