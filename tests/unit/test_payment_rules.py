"""The rules of payments that need no provider: currencies, offered pay types, verdicts, and the
gateway standing for a switched-off provider."""

import pytest

from adapters.payments.gateways import GatewaysByPayType, ProviderSwitchedOff, SwitchedOffGateway
from adapters.payments.wechat_pay import WechatPayGateway
from core.ordering.payment_flows import Verdict
from core.ordering.payments import (
    InvalidNotification,
    Provider,
    offered_pay_types,
    provider_of,
    providers_of,
    same_currency,
)
from core.ordering.use_cases import SettlementOutcome
from core.shared.edition import PAYMENT_PAY_TYPES, Edition, PayType


@pytest.mark.parametrize("reported,expected,same", [
    ("CNY", "CNY", True), ("usd", "USD", True), ("USD", "usd", True), ("USD", "CNY", False), ("EUR", "USD", False),
    (None, "CNY", False), ("", "CNY", False),
])
def test_a_currency_matches_in_any_case_and_a_missing_one_never(reported, expected, same):
    assert same_currency(reported, expected) is same


def test_each_edition_has_its_providers_and_stripe_speaks_for_both_wallets():
    assert providers_of(Edition.DOMESTIC.profile.pay_types) == (Provider.WECHAT, Provider.ALIPAY)
    assert providers_of(Edition.INTERNATIONAL.profile.pay_types) == (Provider.PAYPAL, Provider.STRIPE)
    assert provider_of(PayType.GOOGLE_PAY) is provider_of(PayType.CARD_PAYMENT_REQUEST) is Provider.STRIPE
    assert all(provider_of(p.pay_type) is p for p in Provider)


def test_only_the_pay_types_of_switched_on_providers_are_offered():
    gateways = GatewaysByPayType({PayType.ALIPAY: object()})
    assert offered_pay_types(Edition.DOMESTIC, gateways) == (PayType.ALIPAY,)
    assert offered_pay_types(Edition.INTERNATIONAL, gateways) == ()
    assert not gateways.offers(PayType.WECHAT) and isinstance(gateways[PayType.WECHAT], SwitchedOffGateway)


def test_the_gateways_map_every_pay_type_to_one_and_nothing_else():
    alipay = object()
    gateways = GatewaysByPayType({PayType.ALIPAY: alipay})
    assert dict(gateways).keys() == set(PAYMENT_PAY_TYPES) and gateways[PayType.ALIPAY] is alipay
    assert 99 not in gateways and PayType.PAYPAL in gateways
    assert PayType.RECHARGE_CARD not in gateways  # a redeemed card's order has no provider


def test_a_switched_off_gateway_does_nothing_believes_nothing_and_answers_as_its_provider():
    gateway = SwitchedOffGateway(Provider.WECHAT, WechatPayGateway.acknowledge)
    for call in (gateway.start, gateway.query, gateway.close, gateway.refund):
        with pytest.raises(ProviderSwitchedOff):
            call(object())
    with pytest.raises(ProviderSwitchedOff):
        gateway.confirm(object(), "pm")
    with pytest.raises(InvalidNotification):
        gateway.parse_notification({}, b"<xml/>")
    assert gateway.acknowledge(True) == WechatPayGateway.acknowledge(False)  # never a success


def test_every_settlement_outcome_has_a_verdict_and_a_refunded_or_closed_order_is_acknowledged():
    assert {o.value for o in SettlementOutcome} <= {v.value for v in Verdict}
    accepted = {v for v in Verdict if v.accepted}
    assert accepted == {Verdict.SETTLED, Verdict.SETTLED_CLOSED, Verdict.ALREADY_SETTLED, Verdict.ALREADY_REFUNDED,
                        Verdict.NOT_PAID, Verdict.MANDATE_ENDED, Verdict.MANDATE_GONE}
