"""PayPal's configuration, read from the environment; the adapter is paypal.py."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from adapters.payments.provider_config import ProviderDefaults, unset

PRODUCTION_URL = "https://api-m.paypal.com"


@dataclass(frozen=True)
class PayPalConfig:
    base_url: str  # PAYPAL_BASE_URL
    # PayPal sends no signed notification on our path: a capture read back with the client
    # credentials is the proof of payment, so they are what verifies it.
    client_id: str
    client_secret: str = field(repr=False)

    @classmethod
    def from_env(cls, env: Mapping[str, str], defaults: ProviderDefaults) -> PayPalConfig:
        return cls(
            base_url=defaults.url(env, "PAYPAL_BASE_URL", PRODUCTION_URL, "/paypal"),
            client_id=defaults.value(env, "PAYPAL_CLIENT_ID"),
            client_secret=defaults.value(env, "PAYPAL_CLIENT_SECRET"),
        )

    def missing(self) -> tuple[str, ...]:
        return unset({"PAYPAL_CLIENT_ID": self.client_id, "PAYPAL_CLIENT_SECRET": self.client_secret})
