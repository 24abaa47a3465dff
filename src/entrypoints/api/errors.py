"""Every failure leaves as an envelope with the contract's status and code, in the caller's
language; nothing internal (stack, SQL) reaches the body."""

from __future__ import annotations

import logging
from typing import Any

import flask_smorest
from werkzeug.exceptions import HTTPException

from core.fda.errors import SignatureRequired, SigningLocked, UnknownTimeZone, UserNameNeeded
from core.shared.errors import (
    BadCredentials,
    DomainError,
    Forbidden,
    InvalidInput,
    NotAuthenticated,
    NotFound,
    TooManyAttempts,
)
from core.shared.messages import N_
from entrypoints.api import context
from entrypoints.api.framework import ErrorEnvelope

log = logging.getLogger("coldchain.api")

HTTP_STATUS = {
    NotAuthenticated: 401,
    BadCredentials: 401,
    Forbidden: 403,
    NotFound: 404,
    InvalidInput: 422,
    TooManyAttempts: 429,
    # electronic signatures (core/fda/errors.py); their other refusals are 403 (Forbidden's) and 409
    UserNameNeeded: 400,
    UnknownTimeZone: 400,
    SigningLocked: 423,
    SignatureRequired: 428,
}
HTTP_MESSAGES = {
    401: NotAuthenticated.message,
    403: Forbidden.message,
    404: NotFound.message,
    405: N_("Method not allowed"),
    413: N_("The request is too large"),
    415: N_("Unsupported content type"),
    422: N_("Invalid input"),
    500: N_("Server Exception"),
}


def _translate(text: str, **params: Any) -> str:
    translator = context.container().translator()
    return translator.translate(text, context.language.get(), **params)


def _translate_errors(errors: Any) -> Any:
    translator = context.container().translator()
    language = context.language.get()
    if isinstance(errors, dict):
        return {str(k): _translate_errors(v) for k, v in errors.items()}
    if isinstance(errors, list):
        return [_translate_errors(v) for v in errors]
    return translator.translate_text(str(errors), language)


def _body(code: int, msg: str, errors: dict | None = None, data: dict | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "msg": msg, "data": data}
    if errors:
        body["errors"] = errors
    return body


def handle_domain_error(error: DomainError):
    status = next((mapped for cls, mapped in HTTP_STATUS.items() if isinstance(error, cls)), 409)
    message = _translate(error.message, **error.params)
    headers = {}
    errors = None
    if isinstance(error, InvalidInput):
        errors = {field: [_translate(problem, **error.problem_params.get(field, {}))]
                  for field, problem in error.problems.items()}
        message = _translate(HTTP_MESSAGES[422])
    if isinstance(error, TooManyAttempts):
        headers["Retry-After"] = str(error.retry_after_seconds)
    return _body(error.code, message, errors, error.data), status, headers



def _flatten_locations(messages: dict) -> dict:
    """webargs groups errors by location (json, query); the contract wants them by field."""
    merged: dict = {}
    for value in messages.values():
        if isinstance(value, dict):
            merged.update(value)
    return merged


class Api(flask_smorest.Api):
    ERROR_SCHEMA = ErrorEnvelope

    def _register_error_handlers(self):
        super()._register_error_handlers()
        self._app.register_error_handler(DomainError, handle_domain_error)
        self._app.register_error_handler(Exception, self._handle_exception)

    def _handle_exception(self, error: Exception):
        if isinstance(error, HTTPException):
            return self.handle_http_exception(error)
        log.exception("unexpected failure", exc_info=error)
        return _body(500, _translate(HTTP_MESSAGES[500])), 500

    def handle_http_exception(self, error: HTTPException):
        status = error.code or 500
        data = getattr(error, "data", None) or {}
        # flask-smorest drops the Allow header of a 405 unless it is merged here.
        headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
        headers.update(data.get("headers") or {})
        errors = None
        if status in (400, 422):
            status = 422
            raw = data.get("errors") or data.get("messages") or {}
            errors = _translate_errors(_flatten_locations(raw)) if raw else None
        if status >= 500:
            log.error("server error %s: %s", status, getattr(error, "original_exception", error))
        msg = _translate(HTTP_MESSAGES.get(status, error.name))
        return _body(status, msg, errors), status, headers
