"""The local payment sandbox (`coldchain payment-sandbox`, or in-process under `make run`).
Reconciliation is a job (entrypoints/jobs)."""

from __future__ import annotations

import logging
import socket
import threading
from urllib.parse import urlsplit

from entrypoints.settings import Settings

log = logging.getLogger("coldchain.payments")


def sandbox_app(settings: Settings, public_url: str):
    """The payment sandbox with the development credentials under var/ (the console's defaults)."""
    from adapters.payments.sandbox.app import SandboxConfig, create_sandbox_app
    from adapters.payments.sandbox.credentials import development_credentials

    credentials = development_credentials(settings.var_dir)
    return create_sandbox_app(SandboxConfig(public_url, credentials, settings.public_base_url))


class LocalSandbox:
    """The payment sandbox served from a thread of the console's process (development)."""

    def __init__(self, server) -> None:
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
    from werkzeug.serving import make_server

    # Bound here rather than by werkzeug, which calls sys.exit() when the port is taken.
    try:
        listener = socket.create_server((parts.hostname, parts.port))
    except OSError as error:  # taken since the probe: the console serves on without it
        log.warning("payment sandbox: cannot listen at %s: %s", settings.providers.sandbox_url, error)
        return None
    try:
        server = make_server(parts.hostname, parts.port, sandbox_app(settings, settings.providers.sandbox_url),
                             threaded=True, fd=listener.fileno())
    finally:
        listener.close()  # werkzeug listens on its own duplicate of the socket
    sandbox = LocalSandbox(server)
    sandbox.start()
    log.info("payment sandbox on %s (payer pages under /pay/)", settings.providers.sandbox_url)
    return sandbox
