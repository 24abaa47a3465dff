"""One contract for every payment gateway: the four providers' adapters (against their sandbox)
and the development gateway answer the port the same way, so none can drift from the others."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from adapters.payments.development import DevelopmentPaymentGateway
from adapters.payments.gateways import GatewaysByPayType
from adapters.persistence.migrate import upgrade
from core.ordering.model import new_order_code
from core.ordering.payments import InvalidNotification, PaymentRequest, RefundRequest
from core.shared.edition import PAYMENT_PAY_TYPES, Edition, PayType
from entrypoints.container import build_container
from tests.support.fixtures import settings_for_tests
from tests.support.payments import payment_world

CASES = [  # (backend, pay type, currency, what the payer gets)
    ("providers", PayType.WECHAT, "CNY", "pay_qr_code"),
    ("providers", PayType.ALIPAY, "CNY", "pay_qr_code"),
    ("providers", PayType.PAYPAL, "USD", "approve_url"),
    ("providers", PayType.GOOGLE_PAY, "USD", "client_secret"),
    ("providers", PayType.CARD_PAYMENT_REQUEST, "USD", "client_secret"),
    ("development", PayType.WECHAT, "CNY", "pay_qr_code"),
    ("development", PayType.PAYPAL, "USD", "approve_url"),
    ("development", PayType.GOOGLE_PAY, "USD", "client_secret"),
]


@pytest.fixture(scope="module")
def backends(tmp_path_factory):
    """The gateways of both backends, the providers' against a running sandbox."""
    with payment_world() as (world, _console):
        var = tmp_path_factory.mktemp("contract")
        # Each edition switches on its own providers only: both, for all four adapters. Their
        # database holds the platforms' merchant accounts (none here: the console's own are used).
        containers = [build_container(settings_for_tests(f"sqlite:///{var / 'c.db'}", var, EDITION=edition,
                                                         **world.provider_env())) for edition in Edition]
        upgrade(containers[0].engine())
        domestic, international = (c.payment_gateways() for c in containers)
        yield {"providers": {p: (domestic if domestic.offers(p) else international)[p] for p in PAYMENT_PAY_TYPES},
               "development": GatewaysByPayType(dict.fromkeys(PAYMENT_PAY_TYPES, DevelopmentPaymentGateway(
                   world.console_url, b"contract-test-secret-0123456789abcdef")))}


@pytest.fixture(params=CASES, ids=lambda c: f"{c[0]}-{c[1].name.lower()}")
def case(request, backends):
    backend, pay_type, currency, field = request.param
    return backends[backend][pay_type], pay_type, currency, field


def _request(pay_type: PayType, currency: str, reference: str | None = None) -> PaymentRequest:
    now = datetime.now(UTC)
    return PaymentRequest(1, new_order_code(now), 9900, currency, "Basic, 12 months", pay_type, now, reference)


def test_a_started_payment_gives_the_payer_what_its_pay_type_needs(case):
    gateway, pay_type, currency, field = case
    start = gateway.start(_request(pay_type, currency))
    assert getattr(start, field) and start.reference


def test_a_payment_nobody_has_paid_is_not_paid_and_can_be_closed(case):
    gateway, pay_type, currency, _ = case
    request = _request(pay_type, currency)
    start = gateway.start(request)
    request = PaymentRequest(*[getattr(request, f) for f in ("order_id", "order_code", "amount_cents", "currency",
                                                             "description", "pay_type", "created_at")],
                             start.reference)
    assert gateway.query(request).paid is False
    gateway.close(request)
    assert gateway.query(request).paid is False


def test_a_notification_that_cannot_be_trusted_is_refused(case):
    gateway, *_ = case
    with pytest.raises(InvalidNotification):
        gateway.parse_notification({"Content-Type": "text/plain"}, b"order=1&paid=yes")
    refused, accepted = gateway.acknowledge(False), gateway.acknowledge(True)
    assert accepted.status == 200 and (accepted.status, accepted.body) != (refused.status, refused.body)


def test_a_refund_of_a_payment_never_made_pays_nothing(case):
    gateway, pay_type, currency, _ = case
    code = new_order_code(datetime.now(UTC))
    refund = RefundRequest(code, f"{code}R1", 100, 100, currency, pay_type, None)
    if isinstance(gateway, DevelopmentPaymentGateway):  # it holds no money: a refund is bookkeeping
        assert gateway.refund(refund).succeeded
        return
    try:
        result = gateway.refund(refund)
    except Exception:  # a provider may refuse by raising; RefundOrder turns that into a refusal
        return
    assert result.succeeded is False
