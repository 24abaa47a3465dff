"""A refund the provider only accepted, finished later by its notification or the resume job, on
fakes (core.ordering.refund_outcomes): exactly once, whoever comes first; notifications that are
not about one of our processing refunds change nothing and are recorded with their verdict."""

from __future__ import annotations

from datetime import datetime

import pytest

from core.inbox.model import MessageKind, Recipient
from core.ordering.model import ORDER_REFUNDED, PayStatus
from core.ordering.payments import Provider, RefundNotification, RefundOutcome, RefundResult
from core.ordering.refund_model import REFUND_TRANSITIONS, RefundMove, RefundStatus, can_move
from core.ordering.refund_outcomes import HandleRefundNotification, RefundVerdict
from tests.unit.test_ordering_use_cases import OWNER
from tests.unit.test_refunds import YEAR_LATER, Desk

HALF = 5000


class Accepting(Desk):
    """The desk, whose provider accepts refunds and tells their outcome later."""

    def __init__(self) -> None:
        super().__init__()
        self.gateway.refunds_pending = True
        self.notified = HandleRefundNotification(self.uow, self.clock)
        self.uow.inbox.recipients[OWNER] = Recipient(None, "owner@example.com", "en-US")

    def accepted(self, amount: int = HALF):
        refund = self.refund(self.placed.order_id, amount)
        assert refund.status is RefundStatus.PROCESSING and refund.reference == f"re-{refund.code}"
        return refund

    def note(self, refund, outcome=RefundOutcome.SUCCEEDED, **changes) -> RefundNotification:
        fields = {"refund_code": refund.code, "outcome": outcome, "amount_cents": refund.amount_cents,
                  "currency": "CNY", "reference": refund.reference, **changes}
        return RefundNotification(**fields)

    def tell(self, note: RefundNotification, provider: Provider = Provider.WECHAT) -> RefundVerdict:
        return self.notified(provider, note, b"<xml>refund</xml>")

    def status(self, refund) -> RefundStatus:  # type: ignore[override]
        return self.uow.refunds.rows[refund.stored_id].status

    @property
    def refunded_messages(self) -> list:
        return [m for m in self.uow.inbox.rows if m.kind is MessageKind.PAYMENT and m.template == ORDER_REFUNDED]

    @property
    def verdicts(self) -> list[str]:
        return [r.verdict for r in self.uow.payment_notifications.rows]


def test_the_refund_states_move_by_their_transition_table():
    assert REFUND_TRANSITIONS[RefundMove.SUCCEED].target is RefundStatus.SUCCEEDED
    assert can_move(RefundStatus.PROCESSING, RefundMove.FAIL)
    assert not any(can_move(s, RefundMove.SUCCEED) for s in RefundStatus if s is not RefundStatus.PROCESSING)
    assert RefundResult(False, pending=True).outcome is RefundOutcome.PENDING


def test_an_accepted_refund_stays_processing_with_the_service_taken_back_until_its_notification():
    desk = Accepting()
    refund = desk.accepted()
    assert desk.expiry < YEAR_LATER and desk.order_now.status is PayStatus.PARTIALLY_REFUNDED
    assert desk.refunded_messages == []  # not told before the money is back

    assert desk.tell(desk.note(refund)) is RefundVerdict.REFUND_SUCCEEDED
    assert desk.status(refund) is RefundStatus.SUCCEEDED and len(desk.refunded_messages) == 1
    # replayed, or late: nothing changes
    assert desk.tell(desk.note(refund)) is RefundVerdict.REFUND_FINISHED
    assert desk.tell(desk.note(refund, RefundOutcome.FAILED)) is RefundVerdict.REFUND_FINISHED
    assert desk.status(refund) is RefundStatus.SUCCEEDED and len(desk.refunded_messages) == 1
    assert desk.order_now.refunded_cents == HALF
    assert desk.verdicts == ["refundSucceeded", "refundFinished", "refundFinished"]
    assert desk.uow.payment_notifications.rows[0].order_code == desk.placed.order_code


def test_a_refund_that_fails_at_the_provider_later_gives_everything_back_once():
    desk = Accepting()
    refund = desk.accepted()
    assert desk.tell(desk.note(refund, RefundOutcome.PENDING)) is RefundVerdict.REFUND_PENDING
    assert desk.status(refund) is RefundStatus.PROCESSING
    verdict = desk.tell(desk.note(refund, RefundOutcome.FAILED, error="CHANGE"))
    assert verdict is RefundVerdict.REFUND_FAILED
    stored = desk.uow.refunds.rows[refund.stored_id]
    assert (stored.status, stored.error, stored.reference) == (RefundStatus.FAILED, "CHANGE", refund.reference)
    assert (desk.order_now.status, desk.order_now.refunded_cents, desk.expiry) == (PayStatus.PAID, 0, YEAR_LATER)
    assert desk.tell(desk.note(refund, RefundOutcome.FAILED)) is RefundVerdict.REFUND_FINISHED
    assert (desk.order_now.refunded_cents, desk.expiry) == (0, YEAR_LATER)  # not given back twice
    assert desk.refunded_messages == []


@pytest.mark.parametrize(("changes", "provider", "verdict"), [
    ({"refund_code": "NOT-OURS"}, Provider.WECHAT, RefundVerdict.UNKNOWN_REFUND),
    ({"reference": "another-refund"}, Provider.WECHAT, RefundVerdict.UNKNOWN_REFUND),
    ({}, Provider.ALIPAY, RefundVerdict.WRONG_PROVIDER),
    ({"amount_cents": HALF + 1}, Provider.WECHAT, RefundVerdict.AMOUNT_MISMATCH),
    ({"currency": "USD"}, Provider.WECHAT, RefundVerdict.CURRENCY_MISMATCH),
    ({"currency": None}, Provider.WECHAT, RefundVerdict.CURRENCY_MISMATCH),
    ({"amount_cents": HALF - 1, "cumulative": True}, Provider.WECHAT, RefundVerdict.AMOUNT_MISMATCH),
    ({"amount_cents": 10001, "cumulative": True}, Provider.WECHAT, RefundVerdict.AMOUNT_MISMATCH),
])
def test_a_notification_not_about_this_processing_refund_changes_nothing_and_is_recorded(changes, provider, verdict):
    desk = Accepting()
    refund = desk.accepted()
    assert desk.tell(desk.note(refund, RefundOutcome.FAILED, **changes), provider) is verdict
    assert not verdict.accepted  # the provider sends it again; the job finishes the refund meanwhile
    assert desk.status(refund) is RefundStatus.PROCESSING and desk.order_now.refunded_cents == HALF
    assert desk.verdicts == [verdict.value]


def test_a_cumulative_amount_covering_the_refund_is_its_own():
    desk = Accepting()
    refund = desk.accepted()
    assert desk.tell(desk.note(refund, amount_cents=HALF, cumulative=True)) is RefundVerdict.REFUND_SUCCEEDED


def test_the_resume_job_asks_how_an_accepted_refund_stands_and_the_notification_after_it_changes_nothing():
    desk = Accepting()
    refund = desk.accepted()
    desk.clock.advance(minutes=6)
    assert desk.resume() == 1 and desk.status(refund) is RefundStatus.PROCESSING  # still pending there
    assert desk.gateway.refund_queries == [refund.code] and len(desk.gateway.refunds) == 1  # asked, not refunded
    desk.gateway.refund_outcome = RefundResult(True, reference=refund.reference)
    assert desk.resume() == 1 and desk.status(refund) is RefundStatus.SUCCEEDED
    assert desk.tell(desk.note(refund)) is RefundVerdict.REFUND_FINISHED
    assert len(desk.refunded_messages) == 1 and desk.resume() == 0


def test_the_resume_job_gives_back_a_refund_the_provider_says_failed_and_keeps_one_it_cannot_ask():
    desk = Accepting()
    refund = desk.accepted()
    desk.clock.advance(minutes=6)

    def silent(request, reference):
        raise TimeoutError("no answer")

    desk.gateway.refund_status = silent  # type: ignore[method-assign]
    assert desk.resume() == 1 and desk.status(refund) is RefundStatus.PROCESSING  # never given back on a guess
    del desk.gateway.refund_status
    desk.gateway.refund_outcome = RefundResult(False, reference=refund.reference, error="REFUNDCLOSE")
    desk.resume()
    assert desk.status(refund) is RefundStatus.FAILED and desk.expiry == YEAR_LATER


def test_finishing_is_timed_by_the_clock():
    desk = Accepting()
    refund = desk.accepted()
    desk.clock.advance(minutes=1)
    desk.tell(desk.note(refund))
    finished = desk.uow.refunds.rows[refund.stored_id].finished_at
    assert isinstance(finished, datetime) and finished == desk.clock.now()
