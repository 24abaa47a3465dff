"""Alipay's configuration, read from the environment; the adapter is alipay.py."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from adapters.payments.provider_config import ProviderDefaults, unset

PRODUCTION_URL = "https://openapi.alipay.com/gateway.do"


@dataclass(frozen=True)
class AlipayConfig:
    gateway_url: str  # ALIPAY_GATEWAY_URL
    app_id: str
    # RSA keys as Alipay's SDK takes them (the base64 body of the PEM, or the PEM).
    app_private_key: str = field(repr=False)  # ALIPAY_PRIVATE_KEY (PKCS#1): signs our requests
    alipay_public_key: str  # ALIPAY_PUBLIC_KEY (SPKI): verifies Alipay's answers and notifications
    # ALIPAY_AGREEMENT_SIGN_SCENE: the sign scene (签约场景码) of the merchant's 商家扣款 contract, under
    # which automatic renewals are signed and charged (alipay_agreement.py). None: payments, no renewals.
    agreement_sign_scene: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str], defaults: ProviderDefaults) -> AlipayConfig:
        return cls(
            gateway_url=defaults.url(env, "ALIPAY_GATEWAY_URL", PRODUCTION_URL, "/alipay/gateway.do"),
            app_id=defaults.value(env, "ALIPAY_APP_ID", "2021000000000000"),
            app_private_key=defaults.value(env, "ALIPAY_PRIVATE_KEY"),
            alipay_public_key=defaults.value(env, "ALIPAY_PUBLIC_KEY"),
            agreement_sign_scene=defaults.value(env, "ALIPAY_AGREEMENT_SIGN_SCENE", "INDUSTRY|DIGITAL_MEDIA") or None,
        )

    def missing(self) -> tuple[str, ...]:
        return unset({"ALIPAY_APP_ID": self.app_id, "ALIPAY_PRIVATE_KEY": self.app_private_key,
                      "ALIPAY_PUBLIC_KEY": self.alipay_public_key})
