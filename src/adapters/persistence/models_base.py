"""The declarative base every table module maps onto (models.py, and the modules of a part of its
own such as models_fda_signatures.py, which models.py imports at its bottom): here, so that those
modules need not import models.py back."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, MetaData, Table
from sqlalchemy.orm import DeclarativeBase

from adapters.persistence.types import UtcDateTime

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    # Every class here maps one Table (DeclarativeBase says FromClause, which also covers mapping a
    # join or a subquery): Core statements take `Row.__table__` as the table it is.
    __table__: ClassVar[Table]
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UtcDateTime, dict[str, Any]: JSON}
