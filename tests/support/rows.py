"""Rows of any table written straight through SQLAlchemy Core, with the parent rows their foreign
keys need, so a test can put one chosen value into any column of the schema."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import JSON, Connection, SmallInteger, Table
from sqlalchemy.types import TypeDecorator

FIRST_ID = 1_000_001  # above any reference row's id


def sample(table: Table, column_name: str) -> Any:
    """A value that fits the column and collides with nothing already stored."""
    column = table.c[column_name]
    type_ = column.type.impl_instance if isinstance(column.type, TypeDecorator) else column.type
    if isinstance(type_, JSON):
        return {}
    kind = type_.python_type
    if kind is bool:
        return False
    if kind is int:  # a SMALLINT in a key is a code (a reminder's stage), not an id
        return FIRST_ID if column.primary_key and not isinstance(type_, SmallInteger) else 1
    if kind is float:
        return 1.0
    if kind is str:
        return "s"
    if kind is bytes:
        return b"s"
    if kind is datetime:
        return datetime.now(UTC)
    if kind is date:
        return date.today()
    raise TypeError(f"no sample for {table.name}.{column_name} ({column.type!r})")


def insert_row(connection: Connection, table: Table, values: dict[tuple[str, str], Any] | None = None,
               _made: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Insert one row of `table`, first one row of each table its NOT NULL foreign keys point to,
    and return the row as stored. `values` maps (table name, column name) to the value wanted there;
    a column given no value gets its parent's key, or null when it is a nullable foreign key, or a
    sample."""
    values = values or {}
    made = {} if _made is None else _made
    row: dict[str, Any] = {}
    for column in table.columns:
        if (table.name, column.name) in values:
            row[column.name] = values[table.name, column.name]
            continue
        key = next(iter(column.foreign_keys), None)
        if key is None:
            row[column.name] = sample(table, column.name)
        elif column.nullable and not column.primary_key:
            row[column.name] = None
        else:
            parent = key.column.table
            if parent.name not in made:
                made[parent.name] = insert_row(connection, parent, values, made)
            row[column.name] = made[parent.name][key.column.name]
    return dict(connection.execute(table.insert().values(row).returning(*table.columns)).one()._mapping)
