"""The configuration of every payment provider, by provider: what the settings compose and the
gateways are built from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adapters.payments.alipay_config import AlipayConfig
from adapters.payments.paypal_config import PayPalConfig
from adapters.payments.provider_config import ProviderConfig, ProviderDefaults
from adapters.payments.stripe_config import StripeConfig
from adapters.payments.wechat_pay_config import WechatPayConfig
from core.ordering.payments import Provider


@dataclass(frozen=True)
class PaymentConfigs:
    wechat: WechatPayConfig
    alipay: AlipayConfig
    stripe: StripeConfig
    paypal: PayPalConfig

    @classmethod
    def from_env(cls, env: Mapping[str, str], defaults: ProviderDefaults) -> PaymentConfigs:
        return cls(WechatPayConfig.from_env(env, defaults), AlipayConfig.from_env(env, defaults),
                   StripeConfig.from_env(env, defaults), PayPalConfig.from_env(env, defaults))

    def of(self, provider: Provider) -> ProviderConfig:
        by_provider: dict[Provider, ProviderConfig] = {
            Provider.WECHAT: self.wechat, Provider.ALIPAY: self.alipay,
            Provider.STRIPE: self.stripe, Provider.PAYPAL: self.paypal}
        return by_provider[provider]

    def missing(self, provider: Provider) -> tuple[str, ...]:
        return self.of(provider).missing()
