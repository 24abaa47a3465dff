"""Real HTTP for payment tests: the payment sandbox and the console each served on a free port
in this process, so the providers' SDKs, the sandbox's notifications and the console's
endpoints all go over sockets as they do in production."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from werkzeug.serving import make_server

from adapters.payments.development_credentials import DevelopmentCredentials, generate
from payment_sandbox.app import SandboxConfig, create_sandbox_app
from payment_sandbox.ledger import Ledger
from payment_sandbox.provider import SandboxContext, SandboxProvider
from payment_sandbox.providers import all_providers


class _Deferred:
    """A WSGI app set after its server has a port (the console must know its own URL first)."""

    app: Callable | None = None

    def __call__(self, environ, start_response):
        return self.app(environ, start_response)


@contextmanager
def served(app: Callable | None = None) -> Iterator[tuple[str, _Deferred]]:
    """Serves `app` (or what is later set on the yielded holder) on 127.0.0.1 and a free port."""
    holder = _Deferred()
    holder.app = app
    server = make_server("127.0.0.1", 0, holder, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", holder
    finally:
        server.shutdown()
        thread.join(5)


@dataclass
class PaymentWorld:
    sandbox_url: str
    console_url: str
    credentials: DevelopmentCredentials
    # The sandbox's providers by name and its ledger, for notifications signed as each provider.
    providers: dict[str, SandboxProvider] = field(default_factory=dict)
    ledger: Ledger = field(default_factory=Ledger)

    def provider_env(self) -> dict[str, str]:
        """The console's settings pointing every provider at the sandbox."""
        c, s = self.credentials, self.sandbox_url
        return {
            "PAYMENT_BACKEND": "providers", "PUBLIC_BASE_URL": self.console_url,
            "WECHAT_PAY_BASE_URL": f"{s}/wechat/", "WECHAT_APP_ID": c.wechat_app_id,
            "WECHAT_MCH_ID": c.wechat_mch_id, "WECHAT_API_KEY": c.wechat_api_key,
            "ALIPAY_GATEWAY_URL": f"{s}/alipay/gateway.do", "ALIPAY_APP_ID": c.alipay_app_id,
            "ALIPAY_PRIVATE_KEY": c.alipay_app_private_key, "ALIPAY_PUBLIC_KEY": c.alipay_public_key,
            "STRIPE_API_BASE": f"{s}/stripe", "STRIPE_SECRET_KEY": c.stripe_secret_key,
            "STRIPE_PUBLISHABLE_KEY": c.stripe_publishable_key, "STRIPE_WEBHOOK_SECRET": c.stripe_webhook_secret,
            "PAYPAL_BASE_URL": f"{s}/paypal", "PAYPAL_CLIENT_ID": c.paypal_client_id,
            "PAYPAL_CLIENT_SECRET": c.paypal_client_secret,
        }


@contextmanager
def payment_world(credentials: DevelopmentCredentials | None = None) -> Iterator[tuple[PaymentWorld, _Deferred]]:
    """A running sandbox and a port for the console; set the console's WSGI app on the holder
    once it is built with `world.provider_env()`."""
    credentials = credentials or generate()
    with served() as (console_url, console), served() as (sandbox_url, sandbox):
        config, context = SandboxConfig(sandbox_url, credentials, console_url), SandboxContext(Ledger(), sandbox_url)
        providers = all_providers(context, config)
        sandbox.app = create_sandbox_app(config, providers, context)
        world = PaymentWorld(sandbox_url, console_url, credentials, {p.name: p for p in providers}, context.ledger)
        yield world, console
