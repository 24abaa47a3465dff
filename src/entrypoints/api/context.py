"""Per-request facts the API layer needs: language, time zone, caller."""

from __future__ import annotations

from contextvars import ContextVar
from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import current_app, g, request

from core.accounts.model import Principal
from core.shared.errors import NotAuthenticated

language: ContextVar[str] = ContextVar("language", default="en-US")
time_zone: ContextVar[tzinfo] = ContextVar("time_zone", default=UTC)


def zone_or_default(name: str | None, default: str) -> ZoneInfo:
    """An unknown or malformed X-Time-Zone falls back to the edition's zone rather than failing."""
    if name and len(name) <= 64 and ".." not in name and not name.startswith("/"):
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return ZoneInfo(default)


def current_principal() -> Principal:
    principal = g.get("principal")
    if principal is None:
        raise NotAuthenticated()
    return principal


def caller_id() -> int:
    """The calling account's id (NotAuthenticated without a session)."""
    return current_principal().account_id


def container():
    """The dependency container of the running application."""
    return current_app.extensions["coldchain.container"]


def camp() -> int:
    """The camp of the white-label platform the request came through (its host, as the trusted
    proxies pass it on), 0 for the console's own: whose merchant accounts its orders are paid to."""
    if "camp" not in g:
        g.camp = container().camp_of_host()(request.host.rsplit(":", 1)[0] if request.host else "")
    return g.camp


def translated(message: str, **params: object) -> str:
    """A server text (an N_() message) in the caller's language."""
    return container().translator().translate(message, language.get(), **params)


def local_text(moment: datetime | None, *, seconds: bool = False) -> str:
    """An instant as a spreadsheet cell shows it: in the caller's time zone (X-Time-Zone), empty for none."""
    if moment is None:
        return ""
    return moment.astimezone(time_zone.get()).strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")


def jobs():
    """The Celery application the running application sends jobs with (entrypoints/jobs)."""
    return current_app.extensions["coldchain.jobs"]
