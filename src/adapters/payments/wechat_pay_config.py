"""WeChat Pay's configuration (API v2), read from the environment; the adapter is wechat_pay.py."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from adapters.payments.provider_config import ProviderDefaults, unset

PRODUCTION_URL = "https://api.mch.weixin.qq.com/"


@dataclass(frozen=True)
class WechatPayConfig:
    base_url: str  # WECHAT_PAY_BASE_URL: the API root, which also serves OAuth in the sandbox
    app_id: str
    mch_id: str
    # The API key signs our requests and verifies WeChat's answers and payment notifications.
    api_key: str = field(repr=False)
    # The merchant certificate and key (PEM file paths) that refunds need at WeChat; the sandbox
    # needs none.
    mch_cert: str | None = None
    mch_key: str | None = field(default=None, repr=False)
    # The official account's app secret for the OAuth code exchange (None: the sandbox's, the API key).
    oauth_secret: str | None = field(default=None, repr=False)
    # The papay (委托代扣) contract template of the merchant platform: automatic renewals are signed
    # under it and charged with it (wechat_papay.py). None: WeChat Pay takes payments, no renewals.
    papay_plan_id: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str], defaults: ProviderDefaults) -> WechatPayConfig:
        return cls(
            base_url=defaults.url(env, "WECHAT_PAY_BASE_URL", PRODUCTION_URL, "/wechat/"),
            app_id=defaults.value(env, "WECHAT_APP_ID", "wxsandbox0000000"),
            mch_id=defaults.value(env, "WECHAT_MCH_ID", "1900000109"),
            api_key=defaults.value(env, "WECHAT_API_KEY"),
            mch_cert=defaults.optional(env, "WECHAT_MCH_CERT"),
            mch_key=defaults.optional(env, "WECHAT_MCH_KEY"),
            oauth_secret=defaults.optional(env, "WECHAT_OAUTH_SECRET"),
            papay_plan_id=defaults.value(env, "WECHAT_PAPAY_PLAN_ID", "12535") or None,
        )

    def missing(self) -> tuple[str, ...]:
        return unset({"WECHAT_APP_ID": self.app_id, "WECHAT_MCH_ID": self.mch_id, "WECHAT_API_KEY": self.api_key})
