"""The Flask application: the API under /api and, when built, the web console at /."""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version

from flask import Flask, g, request, send_from_directory
from werkzeug.exceptions import NotFound

from adapters.i18n import resolve_language
from core.calibration.errors import ERRORS as CALIBRATION_ERRORS
from core.catalogue.errors import ERRORS as CATALOGUE_ERRORS
from core.fda.errors import ERRORS as FDA_ERRORS
from core.fda.reports import ERRORS as FDA_REPORT_ERRORS
from core.ordering.errors import ERRORS as ORDER_DESK_ERRORS
from core.organizations.errors import ERRORS as ORGANIZATION_ERRORS
from core.promotions.errors import ERRORS as PROMOTION_ERRORS
from core.shared.errors import BUSINESS_ERRORS
from core.useradmin.errors import ERRORS as USER_ADMIN_ERRORS
from core.vouchers.errors import ERRORS as VOUCHER_ERRORS
from core.waybills.errors import ERRORS as WAYBILL_ERRORS
from entrypoints.api import context
from entrypoints.api.accounts.views import blp as accounts_blp
from entrypoints.api.alarms.views import blp as alarms_blp
from entrypoints.api.assets.views import blp as assets_blp
from entrypoints.api.audit import recording
from entrypoints.api.audit.views import blp as audit_blp
from entrypoints.api.audit.views import device_blp as device_audit_blp
from entrypoints.api.browser_policy import CrossOriginRefused, is_preflight, protect
from entrypoints.api.calibration.device_views import blp as calibration_devices_blp
from entrypoints.api.calibration.documents import REPORT_UPLOAD_BYTES  # its calls are on calibration_blp
from entrypoints.api.calibration.payments import blp as calibration_payments_blp
from entrypoints.api.calibration.views import blp as calibration_blp
from entrypoints.api.catalogue.views import blp as catalogue_blp
from entrypoints.api.client_address import behind_proxies
from entrypoints.api.devices.detail_views import blp as device_detail_blp
from entrypoints.api.devices.views import blp as devices_blp
from entrypoints.api.errors import Api
from entrypoints.api.exports.views import blp as exports_blp
from entrypoints.api.fda import blp as fda_blp
from entrypoints.api.fda import (  # noqa: F401 (their routes are on fda_blp)
    endorsement_views,
    report_views,
    signing_views,
    trail_views,
)
from entrypoints.api.framework import BODY_LIMIT_MARK, PUBLIC_MARK, ApiBlueprint
from entrypoints.api.geofences.views import blp as geofences_blp
from entrypoints.api.inbox.views import blp as inbox_blp
from entrypoints.api.input_guard import MAX_DEPTH, MAX_DIGITS, GuardedRequest, check_request
from entrypoints.api.json_text import JSONProvider
from entrypoints.api.offline.views import blp as offline_blp
from entrypoints.api.orders.invoices import INVOICE_UPLOAD_BYTES
from entrypoints.api.orders.invoices import blp as order_invoices_blp
from entrypoints.api.orders.refunds import blp as order_refunds_blp
from entrypoints.api.orders.statistics import blp as recharge_statistics_blp
from entrypoints.api.orders.views import blp as order_desk_blp
from entrypoints.api.organizations.views import blp as organizations_blp
from entrypoints.api.payment.providers import blp as payment_providers_blp
from entrypoints.api.payment.views import blp as payment_blp
from entrypoints.api.payment.views import dev_blp as development_payment_blp
from entrypoints.api.platform.merchants import blp as merchant_configs_blp
from entrypoints.api.platform.views import blp as platform_blp
from entrypoints.api.projects.views import blp as projects_blp
from entrypoints.api.promotions.views import blp as promotions_blp
from entrypoints.api.reports.views import blp as reports_blp
from entrypoints.api.sharing.views import blp as sharing_blp
from entrypoints.api.useradmin.views import blp as useradmin_blp
from entrypoints.api.vouchers.views import blp as vouchers_blp
from entrypoints.api.waybills.public import blp as waybill_quick_query_blp
from entrypoints.api.waybills.views import blp as waybills_blp
from entrypoints.container import Container
from entrypoints.jobs.app import create_celery_app

MAX_BODY_BYTES = 1024 * 1024
log = logging.getLogger("coldchain.api")

try:
    APP_VERSION = version("coldchain")
except PackageNotFoundError:  # running from a source tree that was not installed
    APP_VERSION = "0.0.0"

API_DESCRIPTION = """Cloud console for connected cold-chain devices.

Every body is an envelope `{"code", "msg", "data"}`; `code` 0 is success. HTTP status tells the
class of the outcome and `code` the business reason: 401/2010 no or expired token, 403 not allowed,
404 unknown id, 409 a business rule (codes below), 422 invalid input (`errors` by field), 429 too
many attempts (`Retry-After`), 500 unexpected. Messages follow `Accept-Language` (en-US, zh-CN,
es-ES, ru-RU, pt-PT, de-DE, zh-TW); times follow `X-Time-Zone`. Money is integer cents.

""" + f"""Input every call refuses with 422 before it runs (`errors` names the top-level field, or `_schema`):
text that is not UTF-8, or holds NUL or a lone surrogate (`\\ud800`), in a JSON body, a query string,
a form or a cookie, names included; JSON nested more than {MAX_DEPTH} levels; numbers of more than {MAX_DIGITS}
digits or beyond a double, NaN and Infinity. A body over {MAX_BODY_BYTES >> 20} MiB is 413 (an invoice's PDF
upload takes up to {INVOICE_UPLOAD_BYTES >> 20} MiB, a calibration report's {REPORT_UPLOAD_BYTES >> 20} MiB).
A browser's cross-origin preflight (OPTIONS) is refused with 403: the API serves its own origin only.

Business codes:
""" + "\n".join(f"- {e.code}: {e.message}" for e in (*BUSINESS_ERRORS, *ORGANIZATION_ERRORS,
                                                                *USER_ADMIN_ERRORS, *PROMOTION_ERRORS,
                                                                *VOUCHER_ERRORS, *CATALOGUE_ERRORS,
                                                                *ORDER_DESK_ERRORS, *WAYBILL_ERRORS,
                                                                *CALIBRATION_ERRORS, *FDA_ERRORS,
                                                                *FDA_REPORT_ERRORS))


def _bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def _handler(app: Flask) -> Callable | None:
    """The API view method the request goes to; None outside the API."""
    if request.endpoint is None or not isinstance(app.blueprints.get(request.blueprint or ""), ApiBlueprint):
        return None
    view = app.view_functions[request.endpoint]
    return getattr(getattr(view, "view_class", None), request.method.lower(), view)


def _needs_token(app: Flask) -> bool:
    handler = _handler(app)
    return handler is not None and not getattr(handler, PUBLIC_MARK, False)


def create_app(container: Container) -> Flask:
    settings = container.settings()
    app = Flask(__name__, static_folder=None)
    app.request_class, app.json = GuardedRequest, JSONProvider(app)
    app.config.update(
        API_TITLE="Coldchain console API",
        API_VERSION=APP_VERSION,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        API_SPEC_OPTIONS={
            "info": {"description": API_DESCRIPTION},
            "servers": [{"url": "/"}],
            "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
            "security": [{"bearerAuth": []}],
        },
    )
    app.json.sort_keys = False  # envelopes read code, msg, data
    app.extensions["coldchain.container"] = container
    app.extensions["coldchain.jobs"] = create_celery_app(container.settings(), container)  # to send jobs with
    if settings.proxy_count:
        # Flask's documented way to add WSGI middleware; mypy compares the replacement with the
        # method's signature, self included, so no WSGI callable can match it
        app.wsgi_app = behind_proxies(app.wsgi_app, settings.proxy_count)  # type: ignore[assignment]

    api = Api(app)
    api.register_blueprint(accounts_blp, url_prefix="/api/base")
    api.register_blueprint(platform_blp, url_prefix="/api/base")
    api.register_blueprint(inbox_blp, url_prefix="/api/base")
    api.register_blueprint(organizations_blp, url_prefix="/api/base")
    api.register_blueprint(audit_blp, url_prefix="/api/base")
    api.register_blueprint(useradmin_blp, url_prefix="/api/base")
    api.register_blueprint(devices_blp, url_prefix="/api/device")
    api.register_blueprint(device_detail_blp, url_prefix="/api/device")
    api.register_blueprint(alarms_blp, url_prefix="/api/device")
    api.register_blueprint(exports_blp, url_prefix="/api/device")
    api.register_blueprint(reports_blp, url_prefix="/api/device")
    api.register_blueprint(projects_blp, url_prefix="/api/device")
    api.register_blueprint(sharing_blp, url_prefix="/api/device")
    api.register_blueprint(assets_blp, url_prefix="/api/device")
    api.register_blueprint(geofences_blp, url_prefix="/api/device")
    api.register_blueprint(device_audit_blp, url_prefix="/api/device")
    api.register_blueprint(waybills_blp, url_prefix="/api/device")
    api.register_blueprint(waybill_quick_query_blp, url_prefix="/api/device")
    api.register_blueprint(fda_blp, url_prefix="/api/device")
    api.register_blueprint(calibration_blp, url_prefix="/api/calibration")
    api.register_blueprint(calibration_devices_blp, url_prefix="/api/calibration")
    api.register_blueprint(calibration_payments_blp, url_prefix="/api")
    api.register_blueprint(payment_blp, url_prefix="/api/payment")
    api.register_blueprint(catalogue_blp, url_prefix="/api/payment")
    api.register_blueprint(payment_providers_blp, url_prefix="/api/payment")
    api.register_blueprint(order_desk_blp, url_prefix="/api/payment")
    api.register_blueprint(order_refunds_blp, url_prefix="/api/payment")
    api.register_blueprint(offline_blp, url_prefix="/api/payment")
    api.register_blueprint(recharge_statistics_blp, url_prefix="/api/payment")
    api.register_blueprint(order_invoices_blp, url_prefix="/api/payment")
    api.register_blueprint(merchant_configs_blp, url_prefix="/api/payment")
    api.register_blueprint(promotions_blp, url_prefix="/api/payment")
    api.register_blueprint(vouchers_blp, url_prefix="/api/payment")
    if settings.payment_backend == "development":
        api.register_blueprint(development_payment_blp, url_prefix="/api/payment/development")

    profile = settings.edition.profile
    sessions = container.session_scope()

    @app.before_request
    def _request_context():
        # One database session for the request: the token check, the permissions and the call.
        g.session_scope = sessions.open()
        context.language.set(resolve_language(request.headers.get("Accept-Language"), profile.default_language))
        context.time_zone.set(context.zone_or_default(request.headers.get("X-Time-Zone"),
                                                      profile.default_time_zone))
        g.principal = None
        if request.path.startswith("/api/"):
            if is_preflight(request):
                raise CrossOriginRefused()
            larger = getattr(_handler(app), BODY_LIMIT_MARK, None)  # an upload's (ApiBlueprint.accepts_body)
            if larger:
                request.max_content_length = larger
            check_request(request)
        if _needs_token(app):
            g.principal = container.authenticate()(_bearer_token())
        recording.start(app)  # the call's changes go to the operation log, with it

    @app.teardown_request
    def _end_session(_error):
        token = g.pop("session_scope", None)
        if token is not None:
            sessions.close(token)
        recording.finish()

    public_over_https = settings.public_base_url.startswith("https://")

    @app.after_request
    def _headers(response):
        recording.note_status(response.status_code)
        api = (("Cache-Control", "no-store"), ("Content-Language", context.language.get()))
        return protect(response, over_https=request.is_secure or public_over_https,
                       also=api if request.path.startswith("/api/") else ())

    _serve_web(app, settings.web_dist)
    return app


PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>Coldchain console</title>
<body style="font-family:sans-serif;max-width:40rem;margin:4rem auto">
<h1>Coldchain console API</h1><p>The web client has not been built (<code>make run</code> builds it).
The API is served under <a href="/api/openapi.json">/api</a>.</p></body>"""


def _serve_web(app: Flask, dist) -> None:
    """The built single-page client: real files as they are, any other path gets index.html so
    the client's router can take it."""

    @app.get("/", defaults={"path": ""})
    @app.get("/<path:path>")
    def web(path: str):
        if path.startswith("api/") or path == "api":
            raise NotFound()
        index = dist / "index.html"
        if not index.exists():
            return PLACEHOLDER, 200, {"Content-Type": "text/html; charset=utf-8"}
        if path and _is_file_of(dist, path):
            response = send_from_directory(dist, path)
            if path.startswith("assets/"):  # hashed file names: safe to cache for a year
                response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
            return response
        response = send_from_directory(dist, "index.html")
        response.headers["Cache-Control"] = "no-cache"
        return response


def _is_file_of(dist, path: str) -> bool:
    try:
        candidate = (dist / path).resolve()
        return candidate.is_file() and dist in candidate.parents
    except (OSError, ValueError):  # NUL in the path, a name too long for the file system: not a file
        return False
