"""A page's rows are written by Rows' shortcuts exactly as marshmallow's Nested writes them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

import marshmallow as ma
import pytest

from entrypoints.api.framework import Rows


class Entry(ma.Schema):
    code = ma.fields.String()
    on = ma.fields.Integer()


class Where(ma.Schema):
    latitude = ma.fields.Float()
    label = ma.fields.String(allow_none=True)


class Stamped(ma.Schema):
    at = ma.fields.DateTime()


class Row(ma.Schema):
    id = ma.fields.Integer()
    name = ma.fields.String()
    ratio = ma.fields.Float()
    entries = ma.fields.List(ma.fields.Nested(Entry))
    where = ma.fields.Nested(lambda: Where(), allow_none=True)
    stamped = ma.fields.List(ma.fields.Nested(Stamped))  # not plain: marshmallow writes it
    on = ma.fields.Boolean()
    scenes = ma.fields.List(ma.fields.Integer())


@dataclass
class Point:
    latitude: float
    label: str | None


ROWS = [
    {"id": "7", "name": b"caf\xc3\xa9", "ratio": 2, "on": 1,
     "entries": [{"code": "alarm", "on": True}, {"code": 5}, None],
     "where": {"latitude": "31.5", "label": None, "ignored": 1},
     "stamped": [{"at": datetime(2026, 11, 28, 7, 0, tzinfo=UTC)}], "scenes": ["1", 2.0, None]},
    {"id": None, "name": None, "ratio": None, "entries": None, "where": None, "stamped": [], "on": None,
     "scenes": None},
    # an object nested: read as marshmallow reads it
    {"id": 1, "entries": [], "where": Point(1.25, "dock"), "on": "yes", "scenes": []},
]


@pytest.mark.parametrize("row", ROWS)
def test_rows_write_what_nested_writes(row):
    nested = ma.fields.List(ma.fields.Nested(Row))
    # as JSON: 1 == True and 2 == 2.0 in Python, not in what the client reads
    written = json.dumps(Rows(Row).serialize("data", {"data": [row]}), default=str)
    assert written == json.dumps(nested.serialize("data", {"data": [row]}), default=str)


def test_a_nested_schema_with_hooks_goes_to_marshmallow():
    class Hooked(ma.Schema):
        code = ma.fields.String()

        @ma.post_dump
        def shout(self, data, **kwargs):
            return {"code": data["code"].upper()}

    class Holder(ma.Schema):
        items = ma.fields.List(ma.fields.Nested(Hooked))

    row = {"items": [{"code": "a"}]}
    assert Rows(Holder).serialize("data", {"data": [row]}) == [{"items": [{"code": "A"}]}]
