"""The contract's rules for every call (api-contract section 1), in one place:

- every body is an envelope `{"code", "msg", "data"}`;
- request schemas refuse unknown fields, in the body and in the query string;
- malformed or hostile input (JSON, query string, form) is a 422 like any other validation
  failure, decided before any view runs (input_guard);
- a call needs a bearer token unless its view is marked public;
- datetimes go out as ISO 8601 in the caller's X-Time-Zone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta, tzinfo
from functools import wraps
from typing import Any
from urllib.parse import quote

import marshmallow as ma
from flask import Response
from flask_smorest import Blueprint
from webargs.flaskparser import FlaskParser, is_json_request

from core.shared.errors import DomainError, Forbidden
from core.shared.paging import Page, PageRequest
from entrypoints.api import context

OK = {"code": 0, "msg": "ok"}
MAX_PAGE_SIZE = 200


class StrictParser(FlaskParser):
    DEFAULT_UNKNOWN_BY_LOCATION = {**FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION,
                                   "query": ma.RAISE, "querystring": ma.RAISE}

    def _raw_load_json(self, req):
        # The JSON the edge parsed and checked before the view (input_guard), not a second parse.
        if not is_json_request(req) or not req.get_data(cache=True):
            return ma.missing
        return req.get_json(force=True)


class Schema(ma.Schema):
    """Base of every request and response schema. Unknown fields are refused."""

    class Meta:
        unknown = ma.RAISE
        ordered = True


class LocalDateTime(ma.fields.DateTime):
    """An instant, written in the caller's time zone with its offset."""

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        return super()._serialize(value.astimezone(context.time_zone.get()), attr, obj, **kwargs)


_CLOCK = [f"T{hour:02d}:{minute:02d}:" for hour in range(24) for minute in range(60)]
_SECONDS = [f"{second:02d}" for second in range(60)]


def local_isoformats(zone: tzinfo, instants: Iterable[datetime]) -> list[str]:
    """`instant.astimezone(zone).isoformat()` of each instant, the same text for three quarters of
    the work (a chart writes thousands). Each instant still gets its own offset from the zone,
    exact across DST; the text is put together from pieces made once (a day's date, an offset's
    suffix, the clock's minutes) instead of formatted field by field."""
    dates: dict[int, str] = {}
    suffixes: dict[timedelta | None, str] = {}
    texts = []
    for instant in instants:
        local = instant.astimezone(zone)
        offset = local.utcoffset()
        suffix = suffixes.get(offset)
        if suffix is None:
            suffix = suffixes[offset] = local.isoformat()[len(local.replace(tzinfo=None).isoformat()):]
        day = local.toordinal()
        date = dates.get(day)
        if date is None:
            date = dates[day] = local.date().isoformat()
        text = date + _CLOCK[local.hour * 60 + local.minute] + _SECONDS[local.second]
        if local.microsecond:
            text += f".{local.microsecond:06d}"
        texts.append(text + suffix)
    return texts


class ErrorEnvelope(Schema):
    code = ma.fields.Integer(required=True, metadata={"description": "business code, never 0"})
    msg = ma.fields.String(required=True, metadata={"description": "message in the request's language"})
    data = ma.fields.Raw(allow_none=True, metadata={
        "description": "null, or what the client needs to act on the refusal: `captchaRequired` (1001: the next "
                       "login needs the image code), `failure` (1112: declined, cancelled or failed)"})
    errors = ma.fields.Dict(metadata={"description": "validation errors by field"})


class PageQuery(Schema):
    """Paging fields of the contract; extend with filters."""

    start = ma.fields.Integer(load_default=1, validate=ma.validate.Range(min=1, max=1_000_000),
                              metadata={"description": "1-based page number"})
    pageSize = ma.fields.Integer(load_default=10, validate=ma.validate.Range(min=1, max=MAX_PAGE_SIZE))
    sortField = ma.fields.String(validate=ma.validate.Length(max=50))
    sortOrder = ma.fields.String(validate=ma.validate.OneOf(["asc", "desc"]))


_envelopes: dict[tuple[str, bool], type[Schema]] = {}
# Set on a view method that needs no token (ApiBlueprint.public); the app reads it before each call.
PUBLIC_MARK = "_public"
# Set on a view method that takes a larger body than the application's limit (ApiBlueprint.accepts_body).
BODY_LIMIT_MARK = "_max_body_bytes"


def envelope(schema: type[ma.Schema] | ma.fields.Field | None, many: bool = False, *,
             nullable: bool = False, name: str | None = None) -> type[Schema]:
    """The success envelope around `schema`, a bare field (give `name`), or null."""
    if name is None:
        if isinstance(schema, ma.fields.Field):
            raise TypeError("the envelope of a bare field needs a name")
        name = schema.__name__.removesuffix("Schema") if schema is not None else "Null"
    key = (f"{name}{'List' if many else ''}{'OrNull' if nullable else ''}", many)
    if key not in _envelopes:
        if isinstance(schema, ma.fields.Field):
            data = schema
        elif schema is None:
            data = ma.fields.Raw(allow_none=True, metadata={
        "description": "null, or what the client needs to act on the refusal: `captchaRequired` (1001: the next "
                       "login needs the image code), `failure` (1112: declined, cancelled or failed)"})
        elif many:
            data = ma.fields.List(ma.fields.Nested(schema), required=True)
        else:
            data = ma.fields.Nested(schema, required=not nullable, allow_none=nullable)
        _envelopes[key] = type(f"{key[0]}Envelope", (Schema,), {
            "code": ma.fields.Integer(required=True, metadata={"enum": [0]}),
            "msg": ma.fields.String(required=True),
            "data": data,
        })
    return _envelopes[key]


_pages: dict[str, type[Schema]] = {}


def page_request(body: dict) -> PageRequest:
    """The paging fields of a PageQuery body."""
    return PageRequest(body["start"], body["pageSize"], body.get("sortField"), body.get("sortOrder", "desc"))


def page_body(page: Page, row: Callable[[Any], dict]) -> dict:
    """A page as the contract writes it, each item turned into its row."""
    return {"start": page.start, "pageSize": page.page_size, "totalCount": page.total_count,
            "data": [row(item) for item in page.items]}


def _plain(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else convert(value)


# Fields whose dump is one conversion (marshmallow's Integer, Float and String _serialize: int(),
# float(), str() of a bytes-decoded value; None stays None), by exact class: a subclass may differ.
_PLAIN_FIELDS: dict[type, Callable[[Any], Any]] = {
    ma.fields.Integer: _plain(int), ma.fields.Float: _plain(float),
    ma.fields.String: _plain(lambda v: v.decode("utf-8") if isinstance(v, bytes) else str(v)),
    ma.fields.Boolean: lambda value: value,  # marshmallow 4 writes a Boolean's value as it is
}


class Values(ma.fields.List):
    """A list of plain values (`field` an Integer, Float or String) written as List(`field`)
    writes them, with the field's one conversion per item instead of marshmallow's calls: the
    caller's permissions, sixty-odd names, are in accountInfo's answer."""

    def __init__(self, field: ma.fields.Field, **kwargs: Any) -> None:
        convert = _PLAIN_FIELDS.get(type(field))
        if convert is None:
            raise TypeError(f"Values writes Integer, Float or String items, not {type(field).__name__}")
        super().__init__(field, **kwargs)
        self._convert = convert

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else [self._convert(item) for item in value]


def _field_writers(schema: ma.Schema) -> list[tuple[str, Callable[[Any], Any] | None, ma.fields.Field]] | None:
    """Each field of `schema` with the one call that writes it (see _writer; None where marshmallow
    must), or None when the schema's dump is more than its fields' (hooks, other names)."""
    if any(schema._hooks.values()):
        return None
    if any(field.data_key not in (None, name) or field.attribute not in (None, name)
           for name, field in schema.dump_fields.items()):
        return None
    return [(name, _writer(field), field) for name, field in schema.dump_fields.items()]


def _plain_rows(schema: ma.Schema) -> list[tuple[str, Callable[[Any], Any]]] | None:
    """Each field of `schema` with the one call that writes it, when every field's dump is plain all
    the way down; else None."""
    writers = _field_writers(schema)
    if writers is None or any(write is None for _, write, _ in writers):
        return None
    return [(name, write) for name, write, _ in writers if write is not None]


def _writer(field: ma.fields.Field) -> Callable[[Any], Any] | None:
    """The one call that writes a field's value as marshmallow would, for a plain field, a List of
    one, and a Nested or List(Nested) of a schema of plain fields given dicts (anything else goes to
    marshmallow: an object's attributes are read its way); None for every other field."""
    plain = _PLAIN_FIELDS.get(type(field))
    if plain is not None:
        return plain
    items = _PLAIN_FIELDS.get(type(field.inner)) if type(field) is ma.fields.List else None
    if items is not None:
        return lambda values: None if values is None else [items(v) for v in values]
    nested = field.inner if type(field) is ma.fields.List else field
    if type(nested) is not ma.fields.Nested or nested.many:
        return None
    writers = _plain_rows(nested.schema)
    if writers is None:
        return None

    def one(value: Any) -> Any:
        if not isinstance(value, dict):
            return nested.serialize("value", {"value": value})
        return {name: write(value[name]) for name, write in writers if name in value}

    if nested is field:
        return lambda value: None if value is None else one(value)
    return lambda values: None if values is None else [None if v is None else one(v) for v in values]


class Rows(ma.fields.List):
    """A list of dicts written as Nested(`schema`) writes them (and documented so), with each
    plain field's conversion applied directly (nested dicts of plain fields too) and every other
    field through its own serialize: a page of rows of thirty-odd fields, each with a dozen
    permission entries, otherwise costs marshmallow's machinery per value."""

    def __init__(self, schema: type[ma.Schema], **kwargs: Any) -> None:
        super().__init__(ma.fields.Nested(schema), **kwargs)
        self._row_schema = schema
        self._writers: list[tuple[str, Callable[[Any], Any] | None, ma.fields.Field]] | None = None

    def _row_writers(self) -> list[tuple[str, Callable[[Any], Any] | None, ma.fields.Field]]:
        if self._writers is None:
            writers = _field_writers(self._row_schema())
            if writers is None:
                raise TypeError(f"{self._row_schema.__name__}: Rows writes schemas without hooks, each field under "
                                "its own name")
            self._writers = writers
        return self._writers

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        writers = self._row_writers()
        return [{name: plain(row[name]) if plain is not None else field.serialize(name, row)
                 for name, plain, field in writers if name in row} for row in value]


def page_of(schema: type[ma.Schema]) -> type[Schema]:
    name = f"{schema.__name__.removesuffix('Schema')}Page"
    if name not in _pages:
        _pages[name] = type(name, (Schema,), {
            "start": ma.fields.Integer(required=True),
            "pageSize": ma.fields.Integer(required=True),
            "totalCount": ma.fields.Integer(required=True),
            "data": Rows(schema, required=True),
        })
    return _pages[name]


def _describe(errors: Iterable[type[DomainError]]) -> str:
    return "; ".join(f"code {e.code}: {e.message}" for e in errors)


class ApiBlueprint(Blueprint):
    ARGUMENTS_PARSER = StrictParser()

    def arguments(self, schema: Any, *args: Any, **kwargs: Any) -> Callable:
        # An instance made once: given the class, webargs makes one per request, copying every
        # declared field. Loading keeps no state in the instance, so requests can share it.
        return super().arguments(schema() if isinstance(schema, type) else schema, *args, **kwargs)

    def ok(self, schema: type[ma.Schema] | ma.fields.Field | None = None, *, many: bool = False,
           nullable: bool = False, name: str | None = None, refusals: Iterable[type[DomainError]] = (),
           status: int = 409) -> Callable:
        """Success response in the envelope, plus the documented refusals of this call."""
        refusals = tuple(refusals)

        def decorator(func: Callable) -> Callable:
            @wraps(func)
            def wrapper(*args: Any, **kwargs: Any) -> dict:
                return {**OK, "data": func(*args, **kwargs)}

            documented = self.response(200, envelope(schema, many, nullable=nullable, name=name))(wrapper)
            if refusals:
                documented = self.alt_response(status, schema=ErrorEnvelope,
                                               description=_describe(refusals))(documented)
            return documented

        return decorator

    def public(self, func: Callable) -> Callable:
        """No token needed (login, register, codes, custom page, configuration)."""
        func = self.doc(security=[])(func)
        setattr(func, PUBLIC_MARK, True)
        return func

    def accepts_body(self, max_bytes: int) -> Callable:
        """The call takes a body of up to `max_bytes` (an upload larger than the application's
        limit); the edge refuses more with 413 before reading it whole. Outermost decorator."""

        def decorator(func: Callable) -> Callable:
            setattr(func, BODY_LIMIT_MARK, max_bytes)
            return func

        return decorator

    def requires(self, permission: str) -> Callable:
        """The caller must hold `permission` (403 otherwise)."""

        def decorator(func: Callable) -> Callable:
            @wraps(func)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                if permission not in caller_permissions():
                    raise Forbidden()
                return func(*args, **kwargs)

            return self.alt_response(403, schema=ErrorEnvelope,
                                     description=f"the caller lacks `{permission}`")(wrapper)

        return decorator


def caller_permissions() -> frozenset[str]:
    """What the caller may do, as the token check read it with their session."""
    return context.current_principal().permissions


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def attachment(name: str) -> str:
    """A Content-Disposition naming the file for every browser: an ASCII fallback, and the name
    itself (RFC 6266)."""
    fallback = "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in name)
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(name)}"


def file_download(content: bytes, media_type: str, name: str) -> Response:
    """A file the browser saves under `name`, never sniffed as another type."""
    return Response(content, mimetype=media_type,
                    headers={"Content-Disposition": attachment(name), "X-Content-Type-Options": "nosniff"})


def xlsx_download(body: Any, filename: str) -> Response:
    """An XLSX (bytes, or chunks of it) the browser saves under `filename`."""
    return Response(body, mimetype=XLSX, headers={"Content-Disposition": attachment(filename)})
