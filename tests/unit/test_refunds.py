"""Refunds on fakes, in milliseconds: what a refund takes back (core.ordering.take_back), partial
and full refunds, the approval of a second operator, a provider's refusal giving everything back,
and a refund left in flight asked again under its own code (the PostgreSQL side and the API are in
tests/integration/test_refunds_api.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from core.devices.expiry import LIFELONG_EXPIRY
from core.ordering.model import OrderKind, PayStatus
from core.ordering.refund_model import RefundStatus
from core.ordering.refunds import (
    DecideRefund,
    PreviewRefund,
    RefundNotPending,
    RefundPolicy,
    RefundRefused,
    RefundTooLarge,
    RequestRefund,
    ResumeRefunds,
    SameOperator,
)
from core.ordering.take_back import DeviceHolding, minus_months, take_back
from core.shared.errors import InvalidInput, OrderNotRefundable
from tests.unit.fakes import FakePaymentGateways
from tests.unit.test_ordering_use_cases import NOW, OPERATOR, Shop

CHECKER = 4
YEAR_LATER = datetime(2027, 5, 31, 12, tzinfo=UTC)


class Desk(Shop):
    """The shop, with a paid yearly order and the refund use cases; refunds above 60.00 wait."""

    def __init__(self, refunds_succeed: bool = True) -> None:
        super().__init__(refunds_succeed)
        gateways = FakePaymentGateways(self.gateway)
        policy = RefundPolicy(6000)
        self.request = self.request_refund = RequestRefund(self.uow, gateways, self.clock, policy)
        self.decide = DecideRefund(self.uow, gateways, self.clock)
        self.preview = PreviewRefund(self.uow, policy, self.clock)
        self.resume = ResumeRefunds(self.uow, gateways, self.clock)
        self.placed = self.order()
        self.pay(self.placed)

    @property
    def expiry(self) -> datetime | None:
        return self.uow.device_registry.devices[self.device_id].service_expires_at

    @property
    def order_now(self):
        return self.uow.orders.rows[self.placed.order_id]


# --- the rule -------------------------------------------------------------------------------------


def test_months_are_taken_as_calendar_months_and_a_fraction_of_the_month_before():
    assert minus_months(YEAR_LATER, Fraction(6)) == datetime(2026, 11, 30, 12, tzinfo=UTC)
    # half of the month before 31 May 2027 (30 April to 31 May: 31 days)
    assert minus_months(YEAR_LATER, Fraction(1, 2)) == YEAR_LATER - timedelta(days=15, hours=12)


def test_half_a_refund_of_a_yearly_renewal_takes_back_six_months_and_never_below_now():
    shop = Desk()
    order = shop.order_now
    line = order.lines[0]
    holding = DeviceHolding(line.level_id, YEAR_LATER, 0, 0)
    half = take_back(line, holding, Fraction(0), Fraction(1, 2), NOW)
    assert (half.expires_before, half.expires_after, half.months_taken) == (YEAR_LATER, datetime(
        2026, 11, 30, 12, tzinfo=UTC), 6)
    # a device whose service already runs out within what is taken goes to now, not before
    soon = DeviceHolding(line.level_id, NOW + timedelta(days=10), 0, 0)
    assert take_back(line, soon, Fraction(0), Fraction(1, 2), NOW).expires_after == NOW


def test_a_lifelong_device_and_a_deleted_one_give_back_nothing():
    shop = Desk()
    order = shop.order_now
    line = order.lines[0]
    lifelong = take_back(line, DeviceHolding(line.level_id, LIFELONG_EXPIRY, 0, 0), Fraction(0),
                         Fraction(1, 2), NOW)
    assert not lifelong.changes_service
    assert not take_back(line, None, Fraction(0), Fraction(1), NOW).changes_service


def test_alert_counts_are_taken_back_only_as_far_as_unused_and_halves_add_up_to_the_whole():
    shop = Desk()
    alerts = replace(shop.order_now.lines[0], sms_count=101, voice_count=3)
    order = replace(shop.order_now, kind=OrderKind.ALERTS, lines=(alerts,))
    line = order.lines[0]
    first = take_back(line, DeviceHolding(None, None, 101, 3), Fraction(0), Fraction(1, 2), NOW)
    second = take_back(line, DeviceHolding(None, None, 101 - first.sms_taken, 3 - first.voice_taken),
                       Fraction(1, 2), Fraction(1), NOW)
    assert (first.sms_taken + second.sms_taken, first.voice_taken + second.voice_taken) == (101, 3)
    used = take_back(line, DeviceHolding(None, None, 20, 0), Fraction(0), Fraction(1), NOW)
    assert (used.sms_taken, used.sms_used, used.voice_taken, used.voice_used) == (20, 81, 0, 3)


# --- the use cases --------------------------------------------------------------------------------


def test_refunding_half_moves_the_expiry_back_six_months_and_the_other_half_to_now():
    shop = Desk()
    assert shop.expiry == YEAR_LATER
    first = shop.refund(shop.placed.order_id, 5000)
    assert first.status is RefundStatus.SUCCEEDED and shop.expiry == datetime(2026, 11, 30, 12, tzinfo=UTC)
    assert (shop.order_now.status, shop.order_now.refunded_cents) == (PayStatus.PARTIALLY_REFUNDED, 5000)
    shop.refund(shop.placed.order_id)  # all that is left
    assert (shop.order_now.status, shop.order_now.refunded_cents, shop.expiry) == (PayStatus.REFUNDED, 10000, NOW)
    assert [(r.refund_code, r.amount_cents, r.total_cents) for r in shop.gateway.refunds] == [
        (f"{shop.placed.order_code}R1", 5000, 10000), (f"{shop.placed.order_code}R2", 5000, 10000)]
    with pytest.raises(OrderNotRefundable):
        shop.refund(shop.placed.order_id, 1)


def test_more_than_is_left_is_refused_and_a_reason_is_required():
    shop = Desk()
    with pytest.raises(RefundTooLarge):
        shop.refund(shop.placed.order_id, 10001)
    with pytest.raises(InvalidInput):
        shop.request(OPERATOR, shop.placed.order_id, 100, "   ")
    assert shop.gateway.refunds == [] and shop.expiry == YEAR_LATER


def test_a_refused_refund_gives_the_money_and_the_service_back():
    shop = Desk(refunds_succeed=False)
    with pytest.raises(RefundRefused):
        shop.refund(shop.placed.order_id, 5000)
    [refund] = shop.uow.refunds.rows.values()
    assert refund.status is RefundStatus.FAILED and refund.error == "refused"
    assert (shop.order_now.status, shop.order_now.refunded_cents, shop.expiry) == (PayStatus.PAID, 0, YEAR_LATER)


def test_a_large_refund_waits_for_a_second_operator_and_reserves_its_amount():
    shop = Desk()
    refund = shop.refund(shop.placed.order_id, 8000)
    assert refund.status is RefundStatus.AWAITING_APPROVAL and shop.gateway.refunds == []
    assert shop.expiry == YEAR_LATER and shop.order_now.status is PayStatus.PAID
    with pytest.raises(RefundTooLarge):  # 20.00 is all that is left beside the reserved 80.00
        shop.refund(shop.placed.order_id, 2001)
    assert shop.preview(shop.placed.order_id, None).left_cents == 2000
    with pytest.raises(SameOperator):
        shop.decide(OPERATOR, refund.stored_id, True, None)
    approved = shop.decide(CHECKER, refund.stored_id, True, "Checked with the customer")
    assert approved.status is RefundStatus.SUCCEEDED and approved.decided_by == CHECKER
    assert shop.order_now.refunded_cents == 8000 and [r.amount_cents for r in shop.gateway.refunds] == [8000]
    with pytest.raises(RefundNotPending):
        shop.decide(CHECKER, refund.stored_id, True, None)


def test_a_rejected_refund_takes_nothing_and_frees_its_amount():
    shop = Desk()
    refund = shop.refund(shop.placed.order_id, 8000)
    rejected = shop.decide(CHECKER, refund.stored_id, False, "Not agreed")
    assert rejected.status is RefundStatus.REJECTED and shop.gateway.refunds == []
    assert shop.preview(shop.placed.order_id, None).left_cents == 10000 and shop.expiry == YEAR_LATER


def test_a_preview_says_what_a_refund_would_take_and_changes_nothing():
    shop = Desk()
    quote = shop.preview(shop.placed.order_id, 5000)
    [taken] = quote.take_backs
    assert (quote.needs_approval, taken.expires_after) == (False, datetime(2026, 11, 30, 12, tzinfo=UTC))
    assert shop.preview(shop.placed.order_id, 7000).needs_approval
    assert shop.expiry == YEAR_LATER and shop.uow.refunds.rows == {}


def test_a_refund_left_in_flight_is_asked_again_under_its_own_code_and_finished_once():
    shop = Desk()
    refund = shop.refund(shop.placed.order_id, 5000)
    # as if the process had stopped after reserving: the refund is still processing
    shop.uow.refunds.rows[refund.stored_id] = replace(refund, status=RefundStatus.PROCESSING, finished_at=None)
    assert shop.resume() == 0  # not yet: it may still be in flight
    shop.clock.advance(minutes=6)
    assert shop.resume() == 1 and shop.uow.refunds.rows[refund.stored_id].status is RefundStatus.SUCCEEDED
    codes = [r.refund_code for r in shop.gateway.refunds]
    assert codes == [refund.code, refund.code]  # the same refund to the provider, which pays it once
    assert shop.order_now.refunded_cents == 5000 and shop.resume() == 0
