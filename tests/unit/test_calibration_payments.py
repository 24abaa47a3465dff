"""Paying a calibration application where the payer is (core.calibration.ports.PayScene), the
return page's reconciliation (ConfirmPayment) and a refund's outcome checked against what is owed."""

from __future__ import annotations

import pytest

from core.calibration.errors import PaymentDiffers
from core.calibration.model import RefundState, Status
from core.calibration.ports import PaidAtProvider, PayScene, RefundAnswer
from core.calibration.use_cases import CancelApplication, ConfirmPayment, RecordRefundOutcome, StartPayment
from core.shared.edition import PayType
from core.shared.errors import InvalidInput, NotFound, PaymentFailed, PayTypeNotOffered
from tests.support.clock import MutableClock
from tests.unit.calibration_fakes import AS_ALICE, DOMESTIC, T0, FakePayments, FakeUnitOfWork, apply, pay


@pytest.fixture
def uow():
    return FakeUnitOfWork()


@pytest.fixture
def clock():
    return MutableClock(T0)


def test_each_provider_is_asked_only_in_the_scenes_it_has(uow, clock):
    application = apply(uow, clock).application
    payments = FakePayments()
    start = StartPayment(uow, payments, DOMESTIC)
    for pay_type, scene in ((PayType.WECHAT, PayScene.WAP), (PayType.ALIPAY, PayScene.JSAPI)):
        with pytest.raises(PayTypeNotOffered):
            start(AS_ALICE, application.id, pay_type, scene)
    with pytest.raises(InvalidInput):  # inside WeChat, the payer's OpenID is needed
        start(AS_ALICE, application.id, PayType.WECHAT, PayScene.JSAPI)
    start(AS_ALICE, application.id, PayType.WECHAT, PayScene.JSAPI, "openid-1")
    start(AS_ALICE, application.id, PayType.ALIPAY, PayScene.WAP)
    assert [(p.pay_type, p.scene, p.open_id) for p in payments.started] == [
        (PayType.WECHAT, PayScene.JSAPI, "openid-1"), (PayType.ALIPAY, PayScene.WAP, None)]
    assert uow.calibration_applications.get(application.id).pay_type == PayType.ALIPAY  # the last one started


class _Refusing(FakePayments):
    def start(self, payment):
        raise ConnectionError("the provider did not answer")


def test_a_provider_that_refuses_to_start_is_a_failed_payment_and_changes_nothing(uow, clock):
    application = apply(uow, clock).application
    with pytest.raises(PaymentFailed):
        StartPayment(uow, _Refusing(), DOMESTIC)(AS_ALICE, application.id, PayType.ALIPAY)
    assert uow.calibration_applications.get(application.id).pay_type is None


def test_the_return_page_settles_what_the_provider_took_once(uow, clock):
    application = apply(uow, clock).application
    confirm = ConfirmPayment(uow, FakePayments(taken=PaidAtProvider(application.total_cents, "CNY", "ali-9")), clock)
    assert confirm(AS_ALICE, application.id).status is Status.SUBMITTED  # no payment started: nothing asked
    StartPayment(uow, FakePayments(), DOMESTIC)(AS_ALICE, application.id, PayType.ALIPAY)
    unpaid = ConfirmPayment(uow, FakePayments(), clock)(AS_ALICE, application.id)
    assert unpaid.status is Status.SUBMITTED
    down = ConfirmPayment(uow, FakePayments(fail=True), clock)(AS_ALICE, application.id)
    assert down.status is Status.SUBMITTED  # the provider did not answer: its notification settles it later
    short = ConfirmPayment(uow, FakePayments(taken=PaidAtProvider(100, "CNY", "ali-9")), clock)
    assert short(AS_ALICE, application.id).status is Status.SUBMITTED
    paid = confirm(AS_ALICE, application.id)
    assert (paid.status, paid.paid_cents, paid.pay_type) == (Status.PAID, application.total_cents, PayType.ALIPAY)
    assert confirm(AS_ALICE, application.id).paid_at == paid.paid_at


def test_a_refund_outcome_in_another_amount_or_currency_changes_nothing(uow, clock):
    application = apply(uow, clock).application
    pay(uow, clock, application)
    CancelApplication(uow, FakePayments(RefundAnswer.PENDING), clock)(AS_ALICE, application.id)
    record = RecordRefundOutcome(uow)
    owed = application.total_cents
    with pytest.raises(PaymentDiffers):
        record(application.number, True, owed - 1, "CNY")
    with pytest.raises(PaymentDiffers):
        record(application.number, True, owed, "USD")
    assert uow.calibration_applications.get(application.id).refund_state is RefundState.PENDING
    assert record(application.number, True, owed, "cny") is True
    assert record(application.number, False, owed, "CNY") is False  # finished already: stays succeeded
    assert uow.calibration_applications.get(application.id).refund_state is RefundState.SUCCEEDED
    with pytest.raises(NotFound):
        record("CAL20260101ZZZZZZZZ", True)


def test_a_wallet_s_payment_method_is_charged_for_its_customer_only(uow, clock):
    application = apply(uow, clock).application
    StartPayment(uow, FakePayments(), DOMESTIC)(AS_ALICE, application.id, PayType.WECHAT)
    with pytest.raises(PaymentFailed):  # declined: the provider took nothing
        ConfirmPayment(uow, FakePayments(), clock)(AS_ALICE, application.id, "pm_declined")
    with pytest.raises(PaymentFailed):
        ConfirmPayment(uow, FakePayments(fail=True), clock)(AS_ALICE, application.id, "pm_card")
    charged = ConfirmPayment(uow, FakePayments(taken=PaidAtProvider(application.total_cents, "CNY", "pi_1")), clock)
    assert charged(AS_ALICE, application.id, "pm_card").status is Status.PAID
