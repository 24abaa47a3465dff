"""Stripe's configuration, read from the environment; the adapter is stripe_pay.py."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from adapters.payments.provider_config import ProviderDefaults, unset

PRODUCTION_URL = "https://api.stripe.com"


@dataclass(frozen=True)
class StripeConfig:
    api_base: str  # STRIPE_API_BASE
    secret_key: str = field(repr=False)
    webhook_secret: str = field(repr=False)  # verifies the webhook's events
    publishable_key: str = ""  # optional: the server never uses it

    @classmethod
    def from_env(cls, env: Mapping[str, str], defaults: ProviderDefaults) -> StripeConfig:
        return cls(
            api_base=defaults.url(env, "STRIPE_API_BASE", PRODUCTION_URL, "/stripe"),
            secret_key=defaults.value(env, "STRIPE_SECRET_KEY"),
            webhook_secret=defaults.value(env, "STRIPE_WEBHOOK_SECRET"),
            publishable_key=defaults.value(env, "STRIPE_PUBLISHABLE_KEY"),
        )

    def missing(self) -> tuple[str, ...]:
        return unset({"STRIPE_SECRET_KEY": self.secret_key, "STRIPE_WEBHOOK_SECRET": self.webhook_secret})
