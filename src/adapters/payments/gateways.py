"""The gateway behind each pay type: the providers' adapters (PAYMENT_BACKEND=providers) or the
development gateway, for the providers switched on; a gateway that refuses everything for the
others."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from core.ordering.payments import Acknowledgement, InvalidNotification, Provider, provider_of
from core.shared.edition import PayType

if TYPE_CHECKING:
    from entrypoints.settings import Settings

log = logging.getLogger("coldchain.payments")
NOTIFY_PATH = "/api/payment/notify"
PAYPAL_RETURN_PATH, PAYPAL_CANCEL_PATH = "/api/payment/paypal/return", "/api/payment/paypal/cancel"


class ProviderSwitchedOff(Exception):
    """The provider is switched off: not offered, or lacking a credential it needs."""


class SwitchedOffGateway:
    """Stands for a switched-off provider: it starts, confirms, asks, closes and refunds nothing,
    and believes no notification. Its failure answer is the provider's own, so a real provider
    keeps its notification and sends it again once the console has its credentials."""

    def __init__(self, provider: Provider, acknowledge: Callable[[bool], Acknowledgement]) -> None:
        self._provider, self._acknowledge = provider, acknowledge

    def _off(self, *_args, **_kwargs):
        raise ProviderSwitchedOff(f"the payment provider {self._provider.value} is switched off")

    start = confirm = query = close = refund = open_id = _off

    def parse_notification(self, headers: Mapping[str, str], body: bytes):
        raise InvalidNotification(f"the payment provider {self._provider.value} is switched off")

    def acknowledge(self, accepted: bool) -> Acknowledgement:
        return self._acknowledge(False)


class GatewaysByPayType:
    """The gateway behind each pay type; only those in `on` are offered."""

    def __init__(self, on: Mapping[PayType, object], off: Mapping[PayType, object] | None = None) -> None:
        self._on, self._off = dict(on), dict(off or {})

    def __getitem__(self, pay_type: PayType):
        pay_type = PayType(pay_type)
        if pay_type in self._on:
            return self._on[pay_type]
        return self._off.get(pay_type) or SwitchedOffGateway(provider_of(pay_type), _refused)

    def offers(self, pay_type: PayType) -> bool:
        return PayType(pay_type) in self._on


def _refused(accepted: bool) -> Acknowledgement:
    # The development backend's answer for a provider it does not stand in for: its own refusal.
    return Acknowledgement(400, b'{"received": false}', "application/json")


def _pay_types(provider: Provider) -> list[PayType]:
    return [p for p in PayType if provider_of(p) is provider]


def development_gateways(settings: Settings, gateway) -> GatewaysByPayType:
    """The development gateway behind the pay types of every provider offered."""
    offered = settings.switched_on_providers
    return GatewaysByPayType({p: gateway for p in PayType if provider_of(p) in offered})


def provider_gateways(settings: Settings) -> GatewaysByPayType:
    # Imported here: each SDK is large, and the development backend needs none of them.
    from adapters.payments.alipay import AlipayGateway
    from adapters.payments.paypal import PayPalGateway
    from adapters.payments.stripe_pay import StripeGateway
    from adapters.payments.wechat_pay import WechatPayGateway

    p, console = settings.providers, settings.public_base_url
    adapters = {
        Provider.WECHAT: (WechatPayGateway, lambda: WechatPayGateway(
            p.wechat_pay_base_url, p.wechat_app_id, p.wechat_mch_id, p.wechat_api_key, f"{console}{NOTIFY_PATH}/wechat",
            mch_cert=p.wechat_mch_cert, mch_key=p.wechat_mch_key, oauth_secret=p.wechat_oauth_secret)),
        Provider.ALIPAY: (AlipayGateway, lambda: AlipayGateway(
            p.alipay_gateway_url, p.alipay_app_id, p.alipay_private_key, p.alipay_public_key,
            f"{console}{NOTIFY_PATH}/alipay")),
        Provider.STRIPE: (StripeGateway, lambda: StripeGateway(
            p.stripe_api_base, p.stripe_secret_key, p.stripe_webhook_secret)),
        Provider.PAYPAL: (PayPalGateway, lambda: PayPalGateway(
            p.paypal_base_url, p.paypal_client_id, p.paypal_client_secret, f"{console}{PAYPAL_RETURN_PATH}",
            f"{console}{PAYPAL_CANCEL_PATH}")),
    }
    on, off = {}, {}
    for provider, (adapter, build) in adapters.items():
        if provider in settings.switched_on_providers:
            gateway, into = build(), on
        else:
            if provider in settings.payment_providers:
                log.warning("payment provider %s switched off: %s not set", provider.value,
                            ", ".join(p.missing(provider)))
            gateway, into = SwitchedOffGateway(provider, adapter.acknowledge), off
        into.update(dict.fromkeys(_pay_types(provider), gateway))
    return GatewaysByPayType(on, off)
