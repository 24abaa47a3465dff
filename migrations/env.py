"""Alembic environment. `coldchain migrate` hands in a live connection; the `alembic` command
line reads DATABASE_URL through the same settings loader."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from adapters.persistence.database import make_engine
from adapters.persistence.migrate import migrating
from adapters.persistence.models import Base
from adapters.persistence.partitions import include_name

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        include_name=include_name,
        # SQLite cannot ALTER most things; batch mode rebuilds the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    from entrypoints.settings import load_settings

    with migrating(make_engine(load_settings().database_url)) as connection:
        _run(connection)


if context.is_offline_mode():
    raise SystemExit("offline (SQL script) migrations are not supported; run `coldchain migrate`")
run_migrations_online()
