"""The one place that decides whether a request's input may reach a view (issue 13 item 10).

Before any view of the API runs, the query string, cookies, a form body and a JSON body are
refused with 422 when they hold what no field of ours accepts and what would otherwise fail deep
inside a library (a 500):

- text that is not UTF-8 (the contract's encoding), NUL (PostgreSQL cannot store it) or a lone
  surrogate (`"\\ud800"`: no database driver can encode it), anywhere, keys included;
- JSON nested more than MAX_DEPTH levels (the standard parser recurses and runs out of stack);
- numbers with more than MAX_DIGITS digits (Python refuses to convert 4,300 and more, and no field
  needs a 21st: int64 has 19, and a double written by any JSON encoder at most 17 plus a 3-digit
  exponent), numbers beyond a double, NaN and Infinity (not JSON);
- a streamed (chunked) body that reaches MAX_CONTENT_LENGTH, which werkzeug would cut silently.

JSON is parsed once, here (the application's JSON provider), and webargs reads the request's
cached result.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, NoReturn
from urllib.parse import unquote_to_bytes

from flask import Request
from flask.json.provider import DefaultJSONProvider
from webargs.flaskparser import abort
from werkzeug.exceptions import RequestEntityTooLarge

from core.shared.messages import N_

MAX_DEPTH = 32
MAX_DIGITS = 20

NOT_UTF8 = N_("Not a valid utf-8 string.")
NOT_ALLOWED = N_("Contains a character that is not allowed.")
INVALID_JSON = N_("Invalid JSON body.")
TOO_DEEP = N_("The data is nested more than {max} levels deep.")
TOO_MANY_DIGITS = N_("Numbers may have at most {max} digits.")
TOO_LARGE = N_("Number too large.")
NOT_A_NUMBER = N_("Special numeric values (nan or infinity) are not permitted.")

_STRUCTURE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[{\]}]')
_FORBIDDEN = re.compile("[\x00\ud800-\udfff]")
WHOLE_BODY = "_schema"


class RefusedInput(ValueError):
    """Input no view may see. `field` is the top-level field it sits in, or `_schema`."""

    def __init__(self, message: str, field: str = WHOLE_BODY, **params: Any) -> None:
        super().__init__(message.format(**params))
        self.message, self.field = str(self), field


# --- JSON --------------------------------------------------------------------------------------------


def _check_depth(text: str) -> None:
    """Counts brackets outside strings, and stops at the first level too many, before the parser
    (which would recurse) sees the text."""
    depth = 0
    for token in _STRUCTURE.finditer(text):
        bracket = token.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                raise RefusedInput(TOO_DEEP, max=MAX_DEPTH)
        elif bracket in ("]", "}"):
            depth -= 1


def _check_digits(literal: str, others: int) -> None:
    """`others`: how many characters that are not digits the literal may hold (sign, point, e, sign)."""
    if len(literal) > MAX_DIGITS + others or sum(c.isdigit() for c in literal) > MAX_DIGITS:
        raise RefusedInput(TOO_MANY_DIGITS, max=MAX_DIGITS)


def _integer(literal: str) -> int:
    _check_digits(literal, 1)
    return int(literal)


def _float(literal: str) -> float:
    _check_digits(literal, 4)
    value = float(literal)
    if math.isinf(value):
        raise RefusedInput(TOO_LARGE)
    return value


def _constant(literal: str) -> NoReturn:
    raise RefusedInput(NOT_A_NUMBER)


def _check_text(document: Any) -> None:
    """NUL and lone surrogates in any key or value, reported against the top-level field."""
    fields = document.items() if isinstance(document, dict) else [(WHOLE_BODY, document)]
    for field, value in fields:
        if _FORBIDDEN.search(field):
            raise RefusedInput(NOT_ALLOWED)  # the field's own name: not echoed back
        pending = [value]
        while pending:  # depth is bounded already; a loop keeps the stack flat anyway
            item = pending.pop()
            if isinstance(item, str):
                if _FORBIDDEN.search(item):
                    raise RefusedInput(NOT_ALLOWED, field)
            elif isinstance(item, dict):
                pending.extend(item.keys())
                pending.extend(item.values())
            elif isinstance(item, list):
                pending.extend(item)


def loads(data: bytes | str) -> Any:
    """json.loads under the edge's rules; RefusedInput (a ValueError) says what broke them."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RefusedInput(NOT_UTF8) from None
    _check_depth(data)
    document = json.loads(data, parse_int=_integer, parse_float=_float, parse_constant=_constant)
    _check_text(document)
    return document


# --- query strings and forms -------------------------------------------------------------------------


def _decoded(raw: bytes, field: str) -> str:
    try:
        text = unquote_to_bytes(raw.replace(b"+", b" ")).decode("utf-8")
    except UnicodeDecodeError:
        raise RefusedInput(NOT_UTF8, field) from None
    if "\x00" in text:
        raise RefusedInput(NOT_ALLOWED, field)
    return text


def check_url_encoded(raw: bytes) -> None:
    """A query string or an application/x-www-form-urlencoded body, pair by pair."""
    for pair in raw.split(b"&"):
        name, _, value = pair.partition(b"=")
        _decoded(value, _decoded(name, WHOLE_BODY))


# --- the request -------------------------------------------------------------------------------------


def refuse(error: RefusedInput, location: str) -> NoReturn:
    abort(422, messages={location: {error.field: [error.message]}})


class GuardedJSONProvider(DefaultJSONProvider):
    """The application's JSON, read under the edge's rules (what it writes is unchanged)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)


class GuardedRequest(Request):
    """A request whose JSON parse failures are 422 in the envelope (Flask's would be a bare 400)."""

    def on_json_loading_failed(self, e: ValueError | None) -> NoReturn:
        refuse(e if isinstance(e, RefusedInput) else RefusedInput(INVALID_JSON), "json")


def _body(request: Request) -> bytes:
    data = request.get_data(cache=True)
    # werkzeug stops reading a streamed body at the limit and returns what it read, as if whole
    limit = request.max_content_length
    if request.content_length is None and limit is not None and len(data) >= limit:
        raise RequestEntityTooLarge()
    return data


def check_request(request: Request) -> None:
    """Refuses (422, or 413 for a body over the limit) what no view may see; see the module's comment."""
    try:
        check_url_encoded(request.query_string)
    except RefusedInput as error:
        refuse(error, "query")
    for name, value in request.cookies.items(multi=True):  # a browser never sends NUL in one
        if _FORBIDDEN.search(name + value):
            refuse(RefusedInput(NOT_ALLOWED, WHOLE_BODY if _FORBIDDEN.search(name) else name), "cookies")
    body = _body(request)
    if not body:
        return
    if request.is_json:
        request.get_json(force=True)  # parsed once, cached for webargs
    elif request.mimetype == "application/x-www-form-urlencoded":
        try:
            check_url_encoded(body)
        except RefusedInput as error:
            refuse(error, "form")
