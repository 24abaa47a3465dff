"""What every answer tells the browser (issue 13 item 16), and the refusal of cross-origin calls.

The console's own pages and its API share one origin; nothing else may run script in them, frame
them or be framed by them. The payment providers' pages (PayPal's approval, the wallets' sheets,
the sandbox's payer pages) open in windows of their own and no provider's script or frame is loaded
by the client, in either edition: no provider origin appears in the policy. A widget loaded into the
console later (Stripe.js, PayPal's buttons) must add its origins here, for the edition that uses it.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Request, Response

from core.shared.errors import Forbidden
from core.shared.messages import N_

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    # Notices are operators' rich text whose sanitised markup keeps a few harmless inline styles
    # (colour, alignment); no <style> element, no inline script.
    "style-src-attr 'unsafe-inline'",
    # QR codes and icons as data: URLs, the captcha as a blob:, platforms' logos and notices'
    # images from wherever their operators keep them (images cannot run script).
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
PERMISSIONS_POLICY = ", ".join((
    "accelerometer=()", "camera=()", "display-capture=()", "geolocation=()", "gyroscope=()", "hid=()",
    "magnetometer=()", "microphone=()", "midi=()", "serial=()", "usb=()",
    "payment=(self)",  # the Payment Request API, for the console's own page only
))
STRICT_TRANSPORT_SECURITY = "max-age=31536000"  # no includeSubDomains: platforms' domains are their owners'


class CrossOriginRefused(Forbidden):
    """A cross-origin preflight: answered 403 in the envelope and without any Access-Control-Allow-*
    header, so the browser stops there (a 401 would read as a lost session)."""

    message = N_("Cross-origin requests are not allowed.")


def is_preflight(request: Request) -> bool:
    """A browser asking whether another origin may call: only cross-origin calls are preflighted."""
    return (request.method == "OPTIONS" and "Origin" in request.headers
            and "Access-Control-Request-Method" in request.headers)


_EVERY_ANSWER = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("Permissions-Policy", PERMISSIONS_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
)
# Browsers ignore it over plain http, and it must not pin a development server to https.
_OVER_HTTPS = (*_EVERY_ANSWER, ("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY))


def protect(response: Response, *, over_https: bool, also: Iterable[tuple[str, str]] = ()) -> Response:
    """Adds the policy headers, and `also`, each unless the answer set it already."""
    headers = response.headers
    present = {name.lower() for name, _ in headers.items()}  # one look, not a search of the list per header
    headers.extend([(name, value) for name, value in (*(_OVER_HTTPS if over_https else _EVERY_ANSWER), *also)
                    if name.lower() not in present])
    return response
