"""What every payment provider's configuration shares: how an unset variable is read.

Each provider's configuration sits next to its adapter (wechat_pay_config.py, alipay_config.py,
stripe_config.py, paypal_config.py) and imports no SDK, so the settings can read them all at
start-up while the adapters, and their large SDKs, load only when a gateway is built."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

DEFAULT_SANDBOX_URL = "http://127.0.0.1:8001"


@dataclass(frozen=True)
class ProviderDefaults:
    """What a provider's unset variable stands for. In production: the provider's own API and no
    credential at all, so a missing one is reported rather than guessed. Elsewhere: the local
    payment sandbox and, in development, the credentials generated for the console and the
    sandbox (`development`, by variable; empty otherwise)."""

    production: bool
    sandbox_url: str = DEFAULT_SANDBOX_URL
    development: Mapping[str, str] = field(default_factory=dict, repr=False)

    def value(self, env: Mapping[str, str], name: str, fallback: str = "") -> str:
        value = env.get(name, "").strip()
        if value or self.production:
            return value
        return self.development.get(name) or fallback

    def optional(self, env: Mapping[str, str], name: str) -> str | None:
        return self.value(env, name) or None

    def url(self, env: Mapping[str, str], name: str, production_url: str, sandbox_path: str) -> str:
        """The provider's API root: set, its own in production, or its place in the sandbox."""
        value = env.get(name, "").strip()
        if value:
            return value
        return production_url if self.production else f"{self.sandbox_url}{sandbox_path}"


def unset(required: Mapping[str, str]) -> tuple[str, ...]:
    """The variables, among those a provider cannot work without, whose value is empty."""
    return tuple(name for name, value in required.items() if not value)


class ProviderConfig(Protocol):
    def missing(self) -> tuple[str, ...]:
        """The variables the provider cannot work without that are not set: above all what
        verifies its notifications. A provider lacking one is switched off (refused in production)."""
        ...
