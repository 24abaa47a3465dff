from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine
from sqlalchemy.orm import Session

from adapters.persistence import reference_data
from adapters.persistence.partitions import ensure_reading_partitions

MIGRATIONS_DIR = Path(__file__).resolve().parents[3] / "migrations"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


@contextmanager
def migrating(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction to migrate with. On SQLite, altering a table rebuilds it, and
    dropping the old table with foreign keys enforced deletes, through ON DELETE CASCADE, every row
    that references it: foreign keys are off while migrating (SQLite ignores the pragma inside a
    transaction, hence before it), checked before committing, and on again after."""
    with engine.connect() as connection:
        if connection.dialect.name != "sqlite":
            with connection.begin():
                yield connection
            return
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()
        try:
            with connection.begin():
                # The driver opens transactions only before DML: without this, each DDL statement
                # would commit by itself, and a failed migration leave a half-made schema.
                connection.exec_driver_sql("BEGIN")
                yield connection
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                if broken:
                    raise RuntimeError(f"the migration left rows whose parent is missing: {broken[:10]}")
        finally:
            connection.rollback()
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to `revision`; at head, also synchronise the reference data (its rows are
    the models', which only the newest schema is sure to hold)."""
    config = alembic_config()
    with migrating(engine) as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    if revision == "head":
        with Session(engine) as session:
            reference_data.synchronise(session)
            session.commit()
        ensure_reading_partitions(engine)


def downgrade(engine: Engine, revision: str) -> None:
    config = alembic_config()
    with migrating(engine) as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
