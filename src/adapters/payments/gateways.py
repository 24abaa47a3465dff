"""The gateway behind each pay type: the providers' adapters (PAYMENT_BACKEND=providers) or the
development gateway, for the providers switched on; a gateway that refuses everything for the
others."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple, NoReturn, cast

from adapters.payments.configs import PaymentConfigs
from adapters.payments.merchant_fields import camp_configs
from core.ordering.payments import (
    Acknowledgement,
    InvalidNotification,
    PaymentGateway,
    Provider,
    RecurringPayments,
    provider_of,
)
from core.shared.edition import PAYMENT_PAY_TYPES, PayType

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

    def _off(self, *_args: object, **_kwargs: object) -> NoReturn:
        raise ProviderSwitchedOff(f"the payment provider {self._provider.value} is switched off")

    start = start_jsapi = start_wap = confirm = query = close = refund = refund_status = open_id = _off

    def parse_notification(self, headers: Mapping[str, str], body: bytes) -> NoReturn:
        raise InvalidNotification(f"the payment provider {self._provider.value} is switched off")

    def acknowledge(self, accepted: bool) -> Acknowledgement:
        return self._acknowledge(False)


class GatewaysByPayType(Mapping[PayType, PaymentGateway]):
    """The gateway behind every pay type: those in `on` are offered; the others refuse everything
    (those in `off`, or one answering as the development backend does)."""

    def __init__(self, on: Mapping[PayType, PaymentGateway],
                 off: Mapping[PayType, PaymentGateway] | None = None) -> None:
        self._on, self._off = dict(on), dict(off or {})

    def __getitem__(self, pay_type: PayType) -> PaymentGateway:
        try:
            pay_type = PayType(pay_type)
        except ValueError:
            raise KeyError(pay_type) from None
        if pay_type not in PAYMENT_PAY_TYPES:  # a recharge card's order: no provider behind it
            raise KeyError(pay_type)
        if pay_type in self._on:
            return self._on[pay_type]
        return self._off.get(pay_type) or SwitchedOffGateway(provider_of(pay_type), _refused)

    def __iter__(self) -> Iterator[PayType]:
        return iter(PAYMENT_PAY_TYPES)

    def __len__(self) -> int:
        return len(PAYMENT_PAY_TYPES)

    def offers(self, pay_type: PayType) -> bool:
        return PayType(pay_type) in self._on

    def recurring(self, pay_type: PayType) -> RecurringPayments | None:
        """The switched-on gateway itself, when its adapter speaks its provider's recurring mechanism."""
        gateway = self._on.get(PayType(pay_type))
        return cast(RecurringPayments, gateway) if hasattr(gateway, "start_with_mandate") else None

    def at(self, camp: int) -> GatewaysByPayType:
        """The same gateways for every camp (the development backend's; CampGateways tells them apart)."""
        return self

    def replaced(self, provider: Provider, gateway: PaymentGateway, on: bool) -> GatewaysByPayType:
        """These gateways with the provider's pay types behind `gateway`, switched on or off."""
        kept_on = {p: g for p, g in self._on.items() if provider_of(p) is not provider}
        kept_off = {p: g for p, g in self._off.items() if provider_of(p) is not provider}
        (kept_on if on else kept_off).update(dict.fromkeys(_pay_types(provider), gateway))
        return GatewaysByPayType(kept_on, kept_off)


def _refused(accepted: bool) -> Acknowledgement:
    # The development backend's answer for a provider it does not stand in for: its own refusal.
    return Acknowledgement(400, b'{"received": false}', "application/json")


def _pay_types(provider: Provider) -> list[PayType]:
    return [p for p in PAYMENT_PAY_TYPES if provider_of(p) is provider]


def development_gateways(switched_on: Collection[Provider], gateway: PaymentGateway) -> GatewaysByPayType:
    """The development gateway behind the pay types of every provider switched on."""
    return GatewaysByPayType({p: gateway for p in PAYMENT_PAY_TYPES if provider_of(p) in switched_on})


class _Adapter(NamedTuple):
    acknowledge: Callable[[bool], Acknowledgement]  # its answer to a notification, when switched off
    build: Callable[[], PaymentGateway]


def notify_url(console_url: str, provider: Provider, camp: int = 0) -> str:
    """Where the provider sends the notifications of a camp's merchant account (the console's: camp 0)."""
    return f"{console_url}{NOTIFY_PATH}/{provider.value}" + (f"/{camp}" if camp else "")


def _adapters(configs: PaymentConfigs, console_url: str, camp: int = 0) -> dict[Provider, _Adapter]:
    # Imported here: each SDK is large, and the development backend needs none of them.
    from adapters.payments.alipay import AlipayGateway
    from adapters.payments.alipay_agreement import alipay_gateway
    from adapters.payments.paypal import PayPalGateway
    from adapters.payments.stripe_pay import StripeGateway
    from adapters.payments.wechat_papay import wechat_gateway
    from adapters.payments.wechat_pay import WechatPayGateway

    wechat, alipay, stripe, paypal = configs.wechat, configs.alipay, configs.stripe, configs.paypal
    return {
        Provider.WECHAT: _Adapter(WechatPayGateway.acknowledge, lambda: wechat_gateway(
            wechat, notify_url(console_url, Provider.WECHAT, camp))),
        Provider.ALIPAY: _Adapter(AlipayGateway.acknowledge, lambda: alipay_gateway(
            alipay, notify_url(console_url, Provider.ALIPAY, camp))),
        Provider.STRIPE: _Adapter(StripeGateway.acknowledge, lambda: StripeGateway(
            stripe.api_base, stripe.secret_key, stripe.webhook_secret)),
        Provider.PAYPAL: _Adapter(PayPalGateway.acknowledge, lambda: PayPalGateway(
            paypal.base_url, paypal.client_id, paypal.client_secret, f"{console_url}{PAYPAL_RETURN_PATH}",
            f"{console_url}{PAYPAL_CANCEL_PATH}")),
    }


def provider_gateways(configs: PaymentConfigs, offered: Collection[Provider], switched_on: Collection[Provider],
                      console_url: str) -> GatewaysByPayType:
    """Each provider's adapter, built from its configuration, behind its pay types when it is
    switched on; a switched-off gateway answering as the provider does otherwise."""
    on: dict[PayType, PaymentGateway] = {}
    off: dict[PayType, PaymentGateway] = {}
    for provider, adapter in _adapters(configs, console_url).items():
        if provider in switched_on:
            gateway, into = adapter.build(), on
        else:
            if provider in offered:
                log.warning("payment provider %s switched off: %s not set", provider.value,
                            ", ".join(configs.missing(provider)))
            gateway, into = SwitchedOffGateway(provider, adapter.acknowledge), off
        into.update(dict.fromkeys(_pay_types(provider), gateway))
    return GatewaysByPayType(on, off)


CONSOLE_CAMP = 0
MerchantAccounts = Callable[[int], Mapping[str, tuple[object, Mapping[str, str]]]]


class CampGateways(Mapping[PayType, PaymentGateway]):
    """The gateways of every camp (white-label platforms, core.platform.merchants): a camp's own
    merchant account at a provider where it has one, the console's otherwise. `accounts(camp)`
    gives each own account by provider with when it last changed; a camp's gateways are built
    again only when one of its accounts changed."""

    def __init__(self, console: GatewaysByPayType, configs: PaymentConfigs, offered: Collection[Provider],
                 console_url: str, accounts: MerchantAccounts, key_dir: Path) -> None:
        self._console, self._configs, self._offered = console, configs, tuple(offered)
        self._console_url, self._accounts, self._key_dir = console_url, accounts, key_dir
        self._built: dict[int, tuple[tuple, GatewaysByPayType]] = {}
        self._lock = threading.Lock()

    def at(self, camp: int) -> GatewaysByPayType:
        if camp == CONSOLE_CAMP:  # the console's own accounts: the environment's, checked at start
            return self._console
        own = {Provider(p): account for p, account in self._accounts(camp).items() if Provider(p) in self._offered}
        if not own:
            return self._console
        # what each account is, not only when it changed (a test clock can stand still)
        version = tuple(sorted((p.value, str(at), hash(frozenset(values.items()))) for p, (at, values) in own.items()))
        with self._lock:
            built = self._built.get(camp)
            if built is not None and built[0] == version:
                return built[1]
        gateways = self._console
        for provider, (_, values) in own.items():
            adapter = _adapters(camp_configs(self._configs, provider, values, self._key_dir), self._console_url,
                                camp)[provider]
            try:
                gateways = gateways.replaced(provider, adapter.build(), on=True)
            except Exception:  # never paid to the console's account instead: switched off for the camp
                log.exception("camp %s: the merchant account at %s cannot be used", camp, provider.value)
                gateways = gateways.replaced(provider, SwitchedOffGateway(provider, adapter.acknowledge), on=False)
        with self._lock:
            self._built[camp] = (version, gateways)
        return gateways

    def __getitem__(self, pay_type: PayType) -> PaymentGateway:
        return self._console[pay_type]

    def __iter__(self) -> Iterator[PayType]:
        return iter(self._console)

    def __len__(self) -> int:
        return len(self._console)

    def offers(self, pay_type: PayType) -> bool:
        return self._console.offers(pay_type)

    def recurring(self, pay_type: PayType) -> RecurringPayments | None:
        return self._console.recurring(pay_type)


def camp_gateways(configs: PaymentConfigs, offered: Collection[Provider], switched_on: Collection[Provider],
                  console_url: str, accounts: MerchantAccounts, key_dir: Path) -> CampGateways:
    return CampGateways(provider_gateways(configs, offered, switched_on, console_url), configs, offered,
                        console_url, accounts, key_dir)
