"""The local payment sandbox (tools/payment_sandbox) served for development: by `coldchain serve`
in its master process, or alone by `coldchain payment-sandbox`.

The sandbox is a tool, not the product: it is not in the wheel, and with APP_ENV=production
nothing imports it (sandbox_app refuses before it looks for it). In a source checkout it sits in
tools/ beside src/: the tests have tools/ on their path (pytest's pythonpath in pyproject.toml),
and the console appends it to its own path here, the one place that needs the sandbox."""

from __future__ import annotations

import importlib
import logging
import socket
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from entrypoints.settings import Settings

if TYPE_CHECKING:
    from flask import Flask
    from werkzeug.serving import BaseWSGIServer

log = logging.getLogger("coldchain.payments")
TOOLS_DIR = Path(__file__).resolve().parents[2] / "tools"
REFUNDS_AFTER_S = 3.0  # how long the sandbox's providers take to pay back a refund they accepted


class SandboxUnavailable(Exception):
    """The sandbox is not served here: in production, or where it is not installed."""


def _sandbox_module() -> ModuleType:
    try:
        return importlib.import_module("payment_sandbox.app")
    except ModuleNotFoundError as error:
        if error.name != "payment_sandbox" or not (TOOLS_DIR / "payment_sandbox").is_dir():
            raise SandboxUnavailable("the payment sandbox is a development tool of the source checkout "
                                     "(tools/payment_sandbox), which this installation does not have") from error
    sys.path.append(str(TOOLS_DIR))
    return importlib.import_module("payment_sandbox.app")


def sandbox_app(settings: Settings, public_url: str) -> Flask:
    """The payment sandbox with the development credentials under var/ (the console's defaults)."""
    if settings.app_env == "production":
        raise SandboxUnavailable("the payment sandbox never runs with APP_ENV=production: it pays every order")
    sandbox = _sandbox_module()
    from adapters.payments.development_credentials import development_credentials

    credentials = development_credentials(settings.var_dir)
    # Refunds the providers accept are paid back a few seconds later, as the providers would.
    context = importlib.import_module("payment_sandbox.provider").SandboxContext(
        importlib.import_module("payment_sandbox.ledger").Ledger(), public_url, refunds_finish_after=REFUNDS_AFTER_S)
    app: Flask = sandbox.create_sandbox_app(sandbox.SandboxConfig(public_url, credentials, settings.public_base_url),
                                            context=context)
    return app


class LocalSandbox:
    """The payment sandbox served from a thread of the console's process (development)."""

    def __init__(self, server: BaseWSGIServer) -> None:
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, name="payment-sandbox", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._thread.join(5)
        self._server.server_close()


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def start_local_sandbox(settings: Settings) -> LocalSandbox | None:
    """In development, with the providers backend and PAYMENT_SANDBOX_URL on this machine, serve
    the sandbox in-process unless something already answers there (`coldchain payment-sandbox`,
    or another console's), which is then used as it is. Called once, by the server's master
    process: its workers share the one sandbox."""
    parts = urlsplit(settings.providers.sandbox_url)
    if (settings.app_env != "development" or settings.payment_backend != "providers"
            or parts.hostname not in ("127.0.0.1", "localhost") or not parts.port):
        return None
    if _answers(parts.hostname, parts.port):
        log.info("using the payment sandbox already at %s", settings.providers.sandbox_url)
        return None
    try:
        app = sandbox_app(settings, settings.providers.sandbox_url)
    except SandboxUnavailable as error:
        log.warning("payment sandbox: %s; payments wait for one at %s", error, settings.providers.sandbox_url)
        return None
    from werkzeug.serving import make_server

    # Bound here rather than by werkzeug, which calls sys.exit() when the port is taken.
    try:
        listener = socket.create_server((parts.hostname, parts.port))
    except OSError as error:  # taken since the probe: the console serves on without it
        log.warning("payment sandbox: cannot listen at %s: %s", settings.providers.sandbox_url, error)
        return None
    try:
        server = make_server(parts.hostname, parts.port, app, threaded=True, fd=listener.fileno())
    finally:
        listener.close()  # werkzeug listens on its own duplicate of the socket
    sandbox = LocalSandbox(server)
    sandbox.start()
    log.info("payment sandbox on %s (payer pages under /pay/)", settings.providers.sandbox_url)
    return sandbox
