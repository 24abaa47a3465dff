"""The client's address and scheme behind trusted proxies, never what a client made up.

ProxyFix takes the forwarded values as the headers give them. Behind the configured number of
proxies they are what the nearest proxy saw; with too high a PROXY_COUNT, or a proxy that passes
the headers on unchecked, a client writes them, and anything (200 characters, a name) reached the
login throttle and the stored login record (a 500). A forwarded address that is not an IP address,
or a scheme other than http and https, is replaced by what the connection itself said, so a forged
header neither breaks a call nor escapes the throttle of the address it comes from.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import TYPE_CHECKING

from werkzeug.middleware.proxy_fix import ProxyFix

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


def _is_ip(value: str) -> bool:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


def behind_proxies(app: WSGIApplication, proxy_count: int) -> WSGIApplication:
    def checked(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        original = environ["werkzeug.proxy_fix.orig"]
        if not _is_ip(environ.get("REMOTE_ADDR") or ""):
            environ["REMOTE_ADDR"] = original["REMOTE_ADDR"]
        if environ.get("wsgi.url_scheme") not in ("http", "https"):
            environ["wsgi.url_scheme"] = original["wsgi.url_scheme"]
        return app(environ, start_response)

    return ProxyFix(checked, x_for=proxy_count, x_proto=proxy_count, x_host=proxy_count)
