"""Alipay's 商家扣款 agreements end to end over HTTP: the adapter on alipay-sdk-python against the
sandbox's gateway, the page pay URL the payer opens (and pays on, signing the agreement), and the
notifications the sandbox POSTs to a small merchant receiver."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

from adapters.payments.alipay import AlipayGateway
from adapters.payments.alipay_agreement import AlipayAgreementGateway, alipay_gateway
from adapters.payments.alipay_config import AlipayConfig
from adapters.payments.development_credentials import DevelopmentCredentials, generate
from adapters.payments.gateways import GatewaysByPayType
from core.devices.model import add_months
from core.ordering.model import agreement_code, new_order_code
from core.ordering.payments import InvalidNotification, MandateEnded, PaymentRequest
from core.shared.edition import PayType
from payment_sandbox.alipay import AlipaySandbox
from payment_sandbox.alipay_agreement import Agreements
from payment_sandbox.app import SandboxConfig
from payment_sandbox.ledger import Ledger, Status
from tests.integration.test_alipay_payments import alipay_sandbox_app, form, press
from tests.integration.test_recharge_api import COLD_ROOM_A, device
from tests.support.payments import served
from tests.support.renewals import (
    authorised,
    cancel_renewal,
    charge_due,
    charged_again,
    renewal_codes,
    renewal_messages,
    verdicts,
)

SCENE = "INDUSTRY|DIGITAL_MEDIA"


def order(amount_cents: int = 9900, months: int = 12, currency: str = "CNY",
          created_at: datetime = datetime(2026, 3, 1, 8, tzinfo=UTC)) -> PaymentRequest:
    return PaymentRequest(1, new_order_code(datetime.now(UTC)), amount_cents, currency, "Basic, 12 months",
                          PayType.ALIPAY, created_at, months=months)


@dataclass
class AgreementWorld:
    url: str
    credentials: DevelopmentCredentials
    sandbox: AlipaySandbox
    ledger: Ledger
    gateway: AlipayAgreementGateway
    received: list[bytes] = field(default_factory=list)

    @property
    def agreements(self) -> Agreements:
        return self.sandbox.agreements

    def open(self, pay_url: str) -> str:
        """The payer opens the page pay URL: where the sandbox's gateway sends them (the payer page)."""
        with urllib.request.urlopen(pay_url, timeout=10) as page:  # noqa: S310 (the sandbox)
            return page.geturl()

    def signed(self, request: PaymentRequest | None = None) -> tuple[PaymentRequest, str, str]:
        """A pay-and-sign trade paid on its payer page: (the order, its agreement code, the agreement_no)."""
        request = request or order()
        code = agreement_code(request.order_code)
        assert press(self.open(self.gateway.start_with_mandate(request, code).pay_qr_code), "pay") == 200
        mandate = self.gateway.mandate(request, code)
        assert mandate is not None
        return request, code, mandate

    def notifications(self, count: int, timeout: float = 5.0) -> list[dict[str, str]]:
        """The first `count` notifications received, waiting for those sent beside an answer."""
        deadline = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return [form(body) for body in self.received]


@pytest.fixture(scope="module")
def _servers() -> Iterator[tuple[str, str, object, list[bytes], DevelopmentCredentials]]:
    credentials, received = generate(), []

    def merchant(environ, start_response):
        received.append(environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)))
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"success"]

    with served(merchant) as (merchant_url, _), served() as (url, holder):
        yield merchant_url, url, holder, received, credentials


@pytest.fixture
def world(_servers) -> AgreementWorld:
    merchant_url, url, holder, received, c = _servers
    received.clear()
    app, sandbox = alipay_sandbox_app(SandboxConfig(url, c, merchant_url))
    holder.app = app
    gateway = AlipayAgreementGateway(f"{url}/alipay/gateway.do", c.alipay_app_id, c.alipay_app_private_key,
                                     c.alipay_public_key, f"{merchant_url}/api/payment/notify/alipay",
                                     sign_scene=SCENE, charge_wait=1.0)
    return AgreementWorld(url, c, sandbox, app.extensions["payment_sandbox"].ledger, gateway, received)


# --- signing ---------------------------------------------------------------------------------------


def test_paying_a_page_pay_trade_signs_the_agreement_and_tells_the_merchant_of_both(world):
    request = order(12345)
    code = agreement_code(request.order_code)
    pay_url = world.gateway.start_with_mandate(request, code).pay_qr_code
    assert pay_url.startswith(f"{world.url}/alipay/gateway.do?") and not world.ledger.of_order("alipay", code)
    asked = dict(parse_qsl(urlsplit(pay_url).query))
    assert asked["method"] == "alipay.trade.page.pay"
    sign = json.loads(asked["biz_content"])["agreement_sign_params"]
    assert sign == {"personal_product_code": "CYCLE_PAY_AUTH_P", "product_code": "GENERAL_WITHHOLDING",
                    "sign_scene": SCENE, "external_agreement_no": code, "access_params": {"channel": "ALIPAYAPP"},
                    "period_rule_params": {"period_type": "MONTH", "period": 12, "execute_time": "2027-02-28",
                                           "single_amount": "123.45"},
                    "sign_notify_url": world.gateway._notify_url}
    assert world.gateway.mandate(request, code) is None  # not signed before the payer pays

    page = world.open(pay_url)
    (trade,) = world.ledger.of_order("alipay", request.order_code)
    assert page == f"{world.url}/pay/alipay/{trade.id}"
    assert press(page, "pay") == 200
    paid, signed = world.notifications(2)
    assert (paid["notify_type"], paid["trade_status"], signed["notify_type"]) == (
        "trade_status_sync", "TRADE_SUCCESS", "dut_user_sign")
    told = world.gateway.parse_notification({}, world.received[1])
    assert (told.order_code, told.paid, told.amount_cents) == (request.order_code, False, 0)
    mandate = world.gateway.mandate(request, code)
    assert mandate == signed["agreement_no"] == world.agreements.of(code).agreement_no
    assert world.gateway.query(request).paid  # the trade itself is paid as any other


def test_a_monthly_agreement_is_first_executed_by_the_28th():
    gateway = AlipayAgreementGateway("http://127.0.0.1:9/gateway.do", "2021", "", "", "n", sign_scene=SCENE)
    rule = gateway._sign_params(order(created_at=datetime(2026, 1, 31, tzinfo=UTC)), "AR1").period_rule_params
    assert rule.execute_time == "2027-01-28"  # the 30th, the day before the year ends, is too late


def test_a_payment_without_agreement_signs_none(world):
    request = order()
    assert press(world.gateway.start(request).pay_qr_code, "pay") == 200
    assert world.gateway.mandate(request, agreement_code(request.order_code)) is None


def test_a_pay_url_changed_after_signing_is_refused_by_alipay(world):
    request = order()
    pay_url = world.gateway.start_with_mandate(request, agreement_code(request.order_code)).pay_qr_code
    tampered = pay_url.replace("single_amount%22%3A%2299.00", "single_amount%22%3A%2299999.00")
    assert tampered != pay_url
    with pytest.raises(urllib.error.HTTPError) as refused:
        world.open(tampered)
    assert refused.value.code == 400 and "isv.invalid-signature" in refused.value.read().decode()


def test_an_agreement_number_signed_already_is_not_signed_again(world):
    _, code, _ = world.signed()
    with pytest.raises(urllib.error.HTTPError) as refused:
        world.open(world.gateway.start_with_mandate(order(), code).pay_qr_code)
    assert "ACQ.AGREEMENT_HAS_SIGNED" in refused.value.read().decode()


@pytest.mark.parametrize("request_", [order(currency="USD"), order(months=0), order(amount_cents=0)])
def test_only_a_positive_yuan_amount_renewed_every_so_many_months_asks_for_an_agreement(world, request_):
    with pytest.raises(ValueError):
        world.gateway.start_with_mandate(request_, "AR1")


# --- charging --------------------------------------------------------------------------------------


def test_a_renewal_is_charged_once_however_often_it_is_asked_for(world):
    _, _, mandate = world.signed()
    world.received.clear()
    renewal = order(9900)
    charged = world.gateway.charge(mandate, renewal)
    assert (charged.paid, charged.amount_cents, charged.currency) == (True, 9900, "CNY")
    assert world.gateway.charge(mandate, renewal) == charged  # the same trade (Alipay: paid already)
    (trade,) = world.ledger.of_order("alipay", renewal.order_code)
    assert (trade.id, trade.extra["agreement_no"]) == (charged.reference, mandate)
    (told,) = world.notifications(1)
    assert (told["out_trade_no"], told["trade_status"]) == (renewal.order_code, "TRADE_SUCCESS")
    note = world.gateway.parse_notification({}, world.received[0])
    assert (note.paid, note.amount_cents, note.reference) == (True, 9900, charged.reference)


def test_a_charge_the_payer_cannot_pay_is_not_paid_and_says_why(world):
    _, _, mandate = world.signed()
    world.received.clear()
    world.agreements.decline(mandate)
    declined = order()
    result = world.gateway.charge(mandate, declined)
    assert (result.paid, result.error) == (False, "ACQ.BUYER_BALANCE_NOT_ENOUGH: 买家余额不足")
    assert world.gateway.charge(mandate, declined).error.startswith("ACQ.TRADE_HAS_CLOSE")  # asked again: closed
    world.agreements.decline(mandate, None)
    assert world.gateway.charge(mandate, order()).paid
    assert [n["trade_status"] for n in world.notifications(1)] == ["TRADE_SUCCESS"]  # none for the declined one


def test_no_more_than_the_agreement_allows_is_charged(world):
    _, _, mandate = world.signed(order(9900))
    result = world.gateway.charge(mandate, order(9901))
    assert not result.paid and result.error.startswith("ACQ.CYCLE_PAY_SINGLE_FEE_EXCEED")


# --- ending ----------------------------------------------------------------------------------------


def test_an_unsigned_agreement_is_no_mandate_and_charges_nothing(world):
    request, code, mandate = world.signed()
    world.received.clear()
    world.gateway.cancel(mandate, code)
    assert world.agreements.get(mandate).status == "UNSIGN"
    assert world.gateway.mandate(request, code) is None
    refused = world.gateway.charge(mandate, order())
    assert not refused.paid and refused.error.startswith("ACQ.AGREEMENT_NOT_EXIST")
    world.gateway.cancel(mandate, code)  # ended already: fine
    (told,) = world.notifications(1)
    assert (told["notify_type"], told["status"]) == ("dut_user_unsign", "UNSIGN")
    ended = world.gateway.parse_notification({}, world.received[0])
    assert ended == MandateEnded(code, mandate)  # the agreement under it ends (EndRevokedAgreement)


def test_an_agreement_the_payer_unsigns_in_alipay_is_told_and_no_longer_a_mandate(world):
    request, code, mandate = world.signed()
    assert world.agreements.terminate_by_payer(mandate).body == "success"
    assert world.gateway.mandate(request, code) is None


# --- the agreement notification -----------------------------------------------------------------------


@pytest.mark.parametrize("forgery", [
    {"sign_scene": "INDUSTRY|CARRENTAL"}, {"personal_product_code": "GENERAL_WITHHOLDING_P"},
    {"external_agreement_no": "NOTOURS1"}, {"agreement_no": ""}, {"app_id": "2021000000000001"},
])
def test_an_agreement_notification_that_is_not_ours_is_refused(world, forgery):
    _, code, _ = world.signed()
    _, body = world.agreements.notification(world.agreements.of(code), "dut_user_sign", **forgery)
    with pytest.raises(InvalidNotification):
        world.gateway.parse_notification({}, body)


def test_an_agreement_notification_not_signed_by_alipay_is_refused(world):
    _, code, _ = world.signed()
    _, body = world.agreements.notification(world.agreements.of(code), "dut_user_sign")
    fields = form(body)
    fields["status"] = "UNSIGN"  # changed after signing
    with pytest.raises(InvalidNotification, match="bad signature"):
        world.gateway.parse_notification({}, urlencode(fields).encode())


# --- which gateway the configuration builds ------------------------------------------------------------


def test_agreement_pay_is_offered_only_with_a_sign_scene():
    config = AlipayConfig("http://127.0.0.1:9/gateway.do", "2021", "", "")
    plain = alipay_gateway(config, "http://127.0.0.1:9/notify")
    with_scene = alipay_gateway(replace(config, agreement_sign_scene=SCENE), "http://127.0.0.1:9/notify")
    assert type(plain) is AlipayGateway and isinstance(with_scene, AlipayAgreementGateway)
    assert GatewaysByPayType({PayType.ALIPAY: plain}).recurring(PayType.ALIPAY) is None
    assert GatewaysByPayType({PayType.ALIPAY: with_scene}).recurring(PayType.ALIPAY) is with_scene


# --- through the console (needs every provider's adapter: the console builds them all) --------------


@pytest.fixture
def _every_adapter() -> None:
    for module in ("alipay", "paypal", "stripe_pay", "wechat_pay"):
        pytest.importorskip(f"adapters.payments.{module}")


def _pay(pay_url: str) -> None:
    """alice's phone opens the order's QR code, Alipay's page, and she pays (and signs) there."""
    with urllib.request.urlopen(pay_url, timeout=10) as page:  # noqa: S310 (the sandbox)
        payer_page = page.geturl()
    with urllib.request.urlopen(payer_page, data=urlencode({"outcome": "pay"}).encode(),  # noqa: S310
                                timeout=10) as page:
        assert "The merchant answered 200" in page.read().decode()


def test_the_console_renews_a_device_under_its_alipay_agreement_once_and_unsigns_it(_every_adapter, payments):
    agreements: Agreements = payments.world.providers["alipay"].agreements
    signed = authorised(payments, PayType.ALIPAY, _pay)
    agreement = agreements.of(agreement_code(signed.placed["orderCode"]))
    assert signed.mandate == agreement.agreement_no
    assert (agreement.single_cents, agreement.period_type, agreement.period) == (signed.placed["totalFee"], "MONTH", 12)
    # the trade settled its order; the signing was acknowledged, and changed nothing
    assert verdicts(payments, "alipay", signed.placed["orderCode"], 2) == ["settled", "notPaid"]

    run = charge_due(payments, at=signed)
    assert (run.charged, run.failed) == (1, 0)
    assert device(payments.container, COLD_ROOM_A).service_expires_at == add_months(signed.paid_until, 12)
    (renewal,) = renewal_codes(payments, signed.room_id, signed.placed)
    (trade,) = payments.world.ledger.of_order("alipay", renewal)
    assert (trade.status, trade.extra["agreement_no"], trade.amount_cents) == (
        Status.PAID, signed.mandate, signed.placed["totalFee"])
    assert renewal_messages(payments, signed.room_id) == ["renewal_due", "renewal_charged"]
    # its notification, sent beside alipay.trade.pay's answer, finds the order settled by the job or settles it
    assert verdicts(payments, "alipay", renewal, 1)[0] in ("settled", "alreadySettled")
    again = charged_again(payments, PayType.ALIPAY, signed.mandate, renewal)  # a run resumed after a crash
    assert again.paid and again.reference == trade.id
    assert len(payments.world.ledger.of_order("alipay", renewal)) == 1  # charged once

    cancel_renewal(payments, signed.room_id)
    assert agreements.get(signed.mandate).status == "UNSIGN"  # unsigned at Alipay too
    assert verdicts(payments, "alipay", signed.placed["orderCode"], 3)[2] == "mandateGone"  # its end, acknowledged
    refused = payments.container.payment_gateways().recurring(PayType.ALIPAY).charge(signed.mandate, order())
    assert not refused.paid and refused.error.startswith("ACQ.AGREEMENT_NOT_EXIST")


def test_a_renewal_alipay_declines_is_retried_and_ends_after_the_third_failure(_every_adapter, payments):
    agreements: Agreements = payments.world.providers["alipay"].agreements
    signed = authorised(payments, PayType.ALIPAY, _pay)
    agreements.decline(signed.mandate)
    runs = [charge_due(payments, at=signed), charge_due(payments, timedelta(days=1)),
            charge_due(payments, timedelta(days=2)), charge_due(payments, timedelta(days=30))]
    assert [(r.charged, r.failed, r.ended) for r in runs] == [(0, 1, 0), (0, 1, 0), (0, 1, 1), (0, 0, 0)]
    codes = renewal_codes(payments, signed.room_id, signed.placed)  # a renewal order a try
    attempts = [t for code in codes for t in payments.world.ledger.of_order("alipay", code)]
    assert [(t.status, t.extra["agreement_no"]) for t in attempts] == [(Status.FAILED, signed.mandate)] * 3
    assert renewal_messages(payments, signed.room_id) == [
        "renewal_due", "renewal_failed", "renewal_failed", "renewal_ended"]
    assert device(payments.container, COLD_ROOM_A).service_expires_at == signed.paid_until


def test_a_forged_agreement_notification_changes_nothing(_every_adapter, payments):
    agreements: Agreements = payments.world.providers["alipay"].agreements
    signed = authorised(payments, PayType.ALIPAY, _pay)
    _, body = agreements.notification(replace(agreements.get(signed.mandate), status="UNSIGN"), "dut_user_unsign")
    fields = form(body)
    fields["sign"] = fields["sign"][::-1]  # not Alipay's signature
    answer = payments.api.client.post("/api/payment/notify/alipay", data=urlencode(fields),
                                      content_type="application/x-www-form-urlencoded")
    assert answer.data == b"failure"  # Alipay would send it again: it is not Alipay's
    assert verdicts(payments, "alipay", signed.placed["orderCode"], 2) == ["settled", "notPaid"]
    assert agreements.get(signed.mandate).status == "NORMAL"
    assert charge_due(payments, at=signed).charged == 1  # still renewed
    (renewal,) = renewal_codes(payments, signed.room_id, signed.placed)
    assert verdicts(payments, "alipay", renewal, 1)[0] in ("settled", "alreadySettled")


def test_an_agreement_the_payer_unsigns_in_alipay_ends_its_renewal_at_once_and_charges_nothing(
        _every_adapter, payments):
    agreements: Agreements = payments.world.providers["alipay"].agreements
    signed = authorised(payments, PayType.ALIPAY, _pay)
    told = agreements.terminate_by_payer(signed.mandate)
    assert told is not None and told.status == 200
    assert verdicts(payments, "alipay", signed.placed["orderCode"], 3)[2] == "mandateEnded"
    with payments.container.uow() as uow:
        assert uow.agreements.active(signed.room_id) is None
    assert renewal_messages(payments, signed.room_id)[-1] == "renewal_revoked"
    run = charge_due(payments, at=signed)
    assert (run.charged, run.failed) == (0, 0) and renewal_codes(payments, signed.room_id, signed.placed) == []
