"""WeChat Pay's papay contracts end to end over HTTP: the adapter on wechatpy against the sandbox's
papay endpoints, the payer page that signs the contract with the payment, and the notifications
the sandbox POSTs to a small merchant receiver; then the console's automatic renewal through them."""

from __future__ import annotations

import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import timedelta

import pytest
from wechatpy.exceptions import WeChatPayException

from adapters.payments.development_credentials import DevelopmentCredentials, generate
from adapters.payments.gateways import GatewaysByPayType
from adapters.payments.wechat_papay import PapayRefused, WechatPapayGateway, wechat_gateway
from adapters.payments.wechat_pay import ACCEPTED, REFUSED, WechatPayGateway
from adapters.payments.wechat_pay_config import WechatPayConfig
from core.devices.model import add_months
from core.ordering.model import agreement_code
from core.ordering.payments import InvalidNotification, MandateEnded, PaymentRequest
from core.shared.edition import PayType
from payment_sandbox.ledger import Ledger, Status
from payment_sandbox.wechat import WechatSandbox, parse_xml
from payment_sandbox.wechat_papay import Papay
from tests.integration.test_recharge_api import COLD_ROOM_A, device
from tests.integration.test_wechat_payments import Received, merchant, order, wechat_sandbox
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


@dataclass
class PapayWorld:
    sandbox_url: str
    credentials: DevelopmentCredentials
    sandbox: WechatSandbox
    ledger: Ledger
    gateway: WechatPapayGateway
    received: Received

    @property
    def papay(self) -> Papay:
        return self.sandbox.papay

    def signed(self, request: PaymentRequest | None = None) -> tuple[PaymentRequest, str, str]:
        """A contract order paid on its payer page: (the order, its contract code, the contract_id)."""
        request = request or order()
        code = agreement_code(request.order_code)
        start = self.gateway.start_with_mandate(request, code)
        assert self.paid_on_page(start.reference) == 200
        mandate = self.gateway.mandate(request, code)
        assert mandate is not None
        return request, code, mandate

    def paid_on_page(self, reference: str, outcome: str = "pay") -> int:
        """Presses `outcome` on the payment's payer page; the page's status."""
        data = urllib.parse.urlencode({"outcome": outcome}).encode()
        try:
            with urllib.request.urlopen(f"{self.sandbox_url}/pay/wechat/{reference}", data=data,  # noqa: S310
                                        timeout=10) as page:
                return page.status
        except urllib.error.HTTPError as error:
            return error.code

    def notifications(self, count: int, timeout: float = 5.0) -> list[dict[str, str]]:
        """The first `count` notifications received, waiting for those sent beside an answer."""
        deadline = time.monotonic() + timeout
        while len(self.received.bodies) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return [parse_xml(body) for body in self.received.bodies]


@pytest.fixture(scope="module")
def _world() -> Iterator[PapayWorld]:
    credentials = generate()
    received, holder = Received(), []
    with served() as (sandbox_url, sandbox_app), served(merchant(received, holder)) as (merchant_url, _):
        sandbox_app.app, sandbox, ledger = wechat_sandbox(sandbox_url, credentials)
        c = credentials
        gateway = WechatPapayGateway(f"{sandbox_url}/wechat/", c.wechat_app_id, c.wechat_mch_id, c.wechat_api_key,
                                     f"{merchant_url}/notify/wechat", plan_id=c.wechat_papay_plan_id,
                                     deduction_wait=1.0)
        holder.append(gateway)
        yield PapayWorld(sandbox_url, credentials, sandbox, ledger, gateway, received)


@pytest.fixture
def world(_world: PapayWorld) -> PapayWorld:
    _world.received.bodies.clear()
    _world.received.answers.clear()
    return _world


# --- signing ---------------------------------------------------------------------------------------


def test_paying_a_contract_order_signs_the_contract_and_tells_the_merchant_of_both(world):
    request = order(12345)
    code = agreement_code(request.order_code)
    start = world.gateway.start_with_mandate(request, code)
    assert start.pay_qr_code == f"{world.sandbox_url}/pay/wechat/{start.reference}"
    asked = world.ledger.get(start.reference).extra["contract"]
    assert (asked["contract_code"], asked["plan_id"], asked["request_serial"]) == (
        code, world.credentials.wechat_papay_plan_id, str(request.order_id))
    assert world.gateway.mandate(request, code) is None  # not signed before the payer pays

    assert world.paid_on_page(start.reference) == 200
    payment, contract = world.notifications(2)
    assert (payment["out_trade_no"], payment["result_code"], contract["change_type"]) == (
        request.order_code, "SUCCESS", "ADD")
    assert world.received.answers == [ACCEPTED, ACCEPTED]
    told = world.gateway.parse_notification({}, world.received.bodies[1])
    assert (told.order_code, told.paid, told.amount_cents) == (request.order_code, False, 0)
    mandate = world.gateway.mandate(request, code)
    assert mandate == contract["contract_id"] == world.papay.contract_of(code).contract_id
    assert world.gateway.query(request).paid  # the order itself is paid as any other


def test_a_payment_started_without_a_contract_signs_none(world):
    request = order()
    assert world.paid_on_page(world.gateway.start(request).reference) == 200
    assert world.gateway.mandate(request, agreement_code(request.order_code)) is None
    assert len(world.notifications(1)) == 1  # the payment's result alone


def test_a_contract_code_signed_already_cannot_be_signed_again(world):
    _, code, _ = world.signed()
    with pytest.raises(PapayRefused, match="CONTRACT_ALREADY_EXIST"):
        world.gateway.start_with_mandate(order(), code)


def test_wechat_refuses_a_contract_order_of_another_plan_or_currency(world):
    with pytest.raises(WeChatPayException) as refused:
        WechatPapayGateway(f"{world.sandbox_url}/wechat/", world.credentials.wechat_app_id,
                           world.credentials.wechat_mch_id, world.credentials.wechat_api_key, "http://127.0.0.1:9/n",
                           plan_id="999").start_with_mandate(order(), "AR1")
    assert "模板" in refused.value.errmsg
    with pytest.raises(ValueError, match="CNY"):
        world.gateway.start_with_mandate(order(currency="USD"), "AR1")


# --- charging --------------------------------------------------------------------------------------


def test_a_renewal_is_deducted_once_however_often_it_is_asked_for(world):
    _, _, mandate = world.signed()
    world.received.bodies.clear()
    renewal = order(9900)
    charged = world.gateway.charge(mandate, renewal)
    assert (charged.paid, charged.amount_cents, charged.currency) == (True, 9900, "CNY")
    assert charged.reference.startswith("4200")
    assert world.gateway.charge(mandate, renewal) == charged  # a resumed run: the same deduction
    assert len(world.ledger.of_order("wechat", renewal.order_code)) == 1
    (told,) = world.notifications(1)
    assert (told["trade_type"], told["contract_id"], told["out_trade_no"]) == ("PAP", mandate, renewal.order_code)
    note = world.gateway.parse_notification({}, world.received.bodies[0])
    assert (note.paid, note.amount_cents, note.reference) == (True, 9900, charged.reference)


def test_a_deduction_the_payer_cannot_pay_is_not_paid_and_says_why(world):
    _, _, mandate = world.signed()
    world.received.bodies.clear()
    world.papay.decline(mandate)
    result = world.gateway.charge(mandate, order())
    assert (result.paid, result.error) == (False, "PAY_FAIL")
    world.papay.decline(mandate, None)
    assert world.gateway.charge(mandate, order()).paid
    told = sorted(world.notifications(2), key=lambda n: n["result_code"])
    assert [(n["result_code"], n.get("err_code_des")) for n in told] == [("FAIL", "余额不足"), ("SUCCESS", None)]


def test_a_deduction_wechat_has_yet_to_make_is_not_paid_until_it_is_made(world):
    _, _, mandate = world.signed()
    world.papay.hold(mandate)
    renewal = order()
    assert world.gateway.charge(mandate, renewal).error == "ACCEPT"  # after asking for deduction_wait
    (pending,) = world.ledger.of_order("wechat", renewal.order_code)
    assert world.paid_on_page(pending.id) == 200  # WeChat deducts it later
    assert world.gateway.charge(mandate, renewal).paid  # asked again: the same deduction, made
    assert len(world.ledger.of_order("wechat", renewal.order_code)) == 1


def test_a_renewal_in_another_currency_is_not_charged(world):
    result = world.gateway.charge("Wx0", order(currency="USD"))
    assert (result.paid, result.error) == (False, "currency USD is not CNY")


# --- ending ----------------------------------------------------------------------------------------


def test_an_ended_contract_is_no_mandate_and_charges_nothing(world):
    request, code, mandate = world.signed()
    world.received.bodies.clear()
    world.gateway.cancel(mandate, code)
    assert world.papay.contract(mandate).termination_mode == "3"  # by the merchant's API
    assert world.gateway.mandate(request, code) is None
    refused = world.gateway.charge(mandate, order())
    assert not refused.paid and refused.error.startswith("CONTRACT_NOT_EXIST")
    world.gateway.cancel(mandate, code)  # ended already: fine
    (told,) = world.notifications(1)
    assert told["change_type"] == "DELETE"
    ended = world.gateway.parse_notification({}, world.received.bodies[0])
    assert ended == MandateEnded(code, mandate)  # the agreement under it ends (EndRevokedAgreement)


def test_a_contract_the_payer_ends_in_wechat_is_told_and_no_longer_a_mandate(world):
    request, code, mandate = world.signed()
    delivery = world.papay.terminate_by_payer(mandate)
    assert delivery.status == 200 and delivery.body.encode() == ACCEPTED
    assert world.gateway.mandate(request, code) is None


# --- the contract notification ------------------------------------------------------------------------


def _contract(world):
    _, code, _ = world.signed()
    return world.papay.contract_of(code)


@pytest.mark.parametrize("forgery", [
    {"key": "0" * 32}, {"plan_id": "999"}, {"mch_id": "1900000000"}, {"contract_code": "NOTOURS1"},
    {"change_type": "MODIFY"}, {"return_code": "FAIL"}, {"appid": "wxanother"},
])
def test_a_contract_notification_that_is_not_ours_or_not_signed_by_wechat_is_refused(world, forgery):
    forgery = dict(forgery)
    change_type = forgery.pop("change_type", "ADD")
    body = world.papay.notification_xml(_contract(world), change_type, **forgery)
    with pytest.raises(InvalidNotification):
        world.gateway.parse_notification({}, body)


# --- which gateway the configuration builds ------------------------------------------------------------


def test_papay_is_offered_only_with_a_plan():
    config = WechatPayConfig("http://127.0.0.1:9/", "wxapp", "1900000109", "k" * 32)
    plain = wechat_gateway(config, "http://127.0.0.1:9/notify")
    with_plan = wechat_gateway(replace(config, papay_plan_id="12535"), "http://127.0.0.1:9/notify")
    assert type(plain) is WechatPayGateway and isinstance(with_plan, WechatPapayGateway)
    assert GatewaysByPayType({PayType.WECHAT: plain}).recurring(PayType.WECHAT) is None
    assert GatewaysByPayType({PayType.WECHAT: with_plan}).recurring(PayType.WECHAT) is with_plan


# --- through the console (needs every provider's adapter: the console builds them all) --------------


@pytest.fixture
def _every_adapter() -> None:
    for module in ("alipay", "paypal", "stripe_pay", "wechat_pay"):
        pytest.importorskip(f"adapters.payments.{module}")


def _pay(qr_code: str) -> None:
    """alice's phone on the payer page of the order's QR code: she pays (and signs)."""
    data = urllib.parse.urlencode({"outcome": "pay"}).encode()
    with urllib.request.urlopen(qr_code, data=data, timeout=10) as page:  # noqa: S310 (the sandbox)
        assert "The merchant answered 200" in page.read().decode()


def test_the_console_renews_a_device_under_its_papay_contract_once_and_ends_the_contract(_every_adapter, payments):
    papay: Papay = payments.world.providers["wechat"].papay
    signed = authorised(payments, PayType.WECHAT, _pay)
    code = agreement_code(signed.placed["orderCode"])
    assert signed.mandate == papay.contract_of(code).contract_id
    # the payment settled its order; the contract's result was acknowledged, and changed nothing
    assert verdicts(payments, "wechat", signed.placed["orderCode"], 2) == ["settled", "notPaid"]

    run = charge_due(payments, at=signed)
    assert (run.charged, run.failed) == (1, 0)
    assert device(payments.container, COLD_ROOM_A).service_expires_at == add_months(signed.paid_until, 12)
    (renewal,) = renewal_codes(payments, signed.room_id, signed.placed)
    (deduction,) = payments.world.ledger.of_order("wechat", renewal)
    assert (deduction.status, deduction.extra["trade_type"], deduction.extra["contract_id"]) == (
        Status.PAID, "PAP", signed.mandate)
    assert deduction.amount_cents == signed.placed["totalFee"]
    assert renewal_messages(payments, signed.room_id) == ["renewal_due", "renewal_charged"]
    # its result, sent beside pappayapply's answer, finds the order settled by the job or settles it
    assert verdicts(payments, "wechat", renewal, 1)[0] in ("settled", "alreadySettled")
    again = charged_again(payments, PayType.WECHAT, signed.mandate, renewal)  # a run resumed after a crash
    assert again.paid and again.reference == deduction.extra["transaction_id"]
    assert len(payments.world.ledger.of_order("wechat", renewal)) == 1  # deducted once

    cancel_renewal(payments, signed.room_id)
    assert papay.contract(signed.mandate).termination_mode == "3"  # terminated by the merchant's API
    assert verdicts(payments, "wechat", signed.placed["orderCode"], 3)[2] == "mandateGone"  # its end, acknowledged
    gateway = payments.container.payment_gateways().recurring(PayType.WECHAT)
    refused = gateway.charge(signed.mandate, replace(order(), order_code=f"{renewal[:-1]}9"))
    assert not refused.paid and refused.error.startswith("CONTRACT_NOT_EXIST")


def test_a_renewal_wechat_declines_is_retried_and_ends_after_the_third_failure(_every_adapter, payments):
    papay: Papay = payments.world.providers["wechat"].papay
    signed = authorised(payments, PayType.WECHAT, _pay)
    papay.decline(signed.mandate)
    runs = [charge_due(payments, at=signed), charge_due(payments, timedelta(days=1)),
            charge_due(payments, timedelta(days=2)), charge_due(payments, timedelta(days=30))]
    assert [(r.charged, r.failed, r.ended) for r in runs] == [(0, 1, 0), (0, 1, 0), (0, 1, 1), (0, 0, 0)]
    codes = renewal_codes(payments, signed.room_id, signed.placed)  # a renewal order a try
    attempts = [p for code in codes for p in payments.world.ledger.of_order("wechat", code)]
    assert [(p.status, p.extra["contract_id"]) for p in attempts] == [(Status.FAILED, signed.mandate)] * 3
    assert [verdicts(payments, "wechat", code, 1) for code in codes] == [["notPaid"]] * 3  # each failure told
    assert renewal_messages(payments, signed.room_id) == [
        "renewal_due", "renewal_failed", "renewal_failed", "renewal_ended"]
    assert device(payments.container, COLD_ROOM_A).service_expires_at == signed.paid_until


def test_a_forged_contract_notification_changes_nothing(_every_adapter, payments):
    papay: Papay = payments.world.providers["wechat"].papay
    signed = authorised(payments, PayType.WECHAT, _pay)
    contract = papay.contract(signed.mandate)
    forged = papay.notification_xml(replace(contract, state="1", termination_mode="2"), "DELETE", key="0" * 32)
    answer = payments.api.client.post("/api/payment/notify/wechat", data=forged, content_type="text/xml")
    assert answer.data == REFUSED  # WeChat would send it again: it is not WeChat's
    assert verdicts(payments, "wechat", signed.placed["orderCode"], 2) == ["settled", "notPaid"]
    assert papay.contract(signed.mandate).state == "0"
    assert charge_due(payments, at=signed).charged == 1  # still renewed
    (renewal,) = renewal_codes(payments, signed.room_id, signed.placed)
    assert verdicts(payments, "wechat", renewal, 1)[0] in ("settled", "alreadySettled")


def test_a_renewal_wechat_accepts_but_deducts_later_is_asked_about_again_never_charged_twice(
        _every_adapter, payments):
    papay: Papay = payments.world.providers["wechat"].papay
    signed = authorised(payments, PayType.WECHAT, _pay)
    papay.hold(signed.mandate)
    first = charge_due(payments, at=signed)  # WeChat answers ACCEPT for as long as the gateway waits
    assert (first.charged, first.failed, first.pending) == (0, 0, 1)
    (renewal,) = renewal_codes(payments, signed.room_id, signed.placed)
    (deduction,) = payments.world.ledger.of_order("wechat", renewal)
    assert deduction.status is Status.PENDING
    assert device(payments.container, COLD_ROOM_A).service_expires_at == signed.paid_until
    # nothing charged anew while the hold stands; WeChat then deducts and notifies
    assert charge_due(payments, timedelta(minutes=5)).pending == 0
    wechat = payments.world.providers["wechat"]
    assert wechat.complete(deduction, paid=True).status == 200
    later = charge_due(payments, timedelta(minutes=30))  # the next run asks about the same charge
    assert (later.charged, later.failed) == (1, 0)
    assert renewal_codes(payments, signed.room_id, signed.placed) == [renewal]
    assert len(payments.world.ledger.of_order("wechat", renewal)) == 1  # deducted once
    assert device(payments.container, COLD_ROOM_A).service_expires_at == add_months(signed.paid_until, 12)
    assert renewal_messages(payments, signed.room_id)[-1] == "renewal_charged"


def test_a_deduction_still_not_taken_after_a_day_is_a_failure_retried_later(_every_adapter, payments):
    papay: Papay = payments.world.providers["wechat"].papay
    signed = authorised(payments, PayType.WECHAT, _pay)
    papay.hold(signed.mandate)
    assert charge_due(payments, at=signed).pending == 1
    assert charge_due(payments, timedelta(days=1, minutes=1)).failed == 1
    assert renewal_messages(payments, signed.room_id)[-1] == "renewal_failed"


def test_a_contract_the_payer_ends_in_wechat_ends_its_renewal_at_once_and_charges_nothing(_every_adapter, payments):
    papay: Papay = payments.world.providers["wechat"].papay
    signed = authorised(payments, PayType.WECHAT, _pay)
    told = papay.terminate_by_payer(signed.mandate)
    assert told.status == 200
    assert verdicts(payments, "wechat", signed.placed["orderCode"], 3)[2] == "mandateEnded"
    with payments.container.uow() as uow:
        assert uow.agreements.active(signed.room_id) is None
    assert renewal_messages(payments, signed.room_id)[-1] == "renewal_revoked"
    run = charge_due(payments, at=signed)
    assert (run.charged, run.failed) == (0, 0) and renewal_codes(payments, signed.room_id, signed.placed) == []
    # told again (WeChat retries): nothing more
    assert papay.tell(papay.contract(signed.mandate), "DELETE").status == 200
    assert renewal_messages(payments, signed.room_id).count("renewal_revoked") == 1
