"""Refunds in the order back office (issue 19; spec seed 001 section 7 PayRefund/refundOrder): a
preview of what a refund takes back, the refund itself (all or part, with a reason), and the
second operator's approval of one above the approval amount (REFUND_APPROVAL_ABOVE)."""

from __future__ import annotations

from flask.views import MethodView

from core.ordering.model import Order
from core.ordering.refund_model import Refund
from core.ordering.refunds import REFUND_ERRORS, RefundQuote
from core.ordering.take_back import TakeBack
from core.shared import errors as e
from entrypoints.api import context
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope
from entrypoints.api.orders import schemas as s

blp = ApiBlueprint("order_refunds", __name__, description="Refunds: preview, refund all or part with the service "
                                                           "taken back, approval by a second operator")

PERMISSION = "order.recharge:refund"
NOT_FOUND = "no such order or refund"
REFUSALS = (e.OrderNotRefundable, *REFUND_ERRORS)


def _take_back(taken: TakeBack, order: Order, names: dict[int, str]) -> dict:
    line = next((line for line in order.lines if line.device_id == taken.device_id), None)
    return {"deviceId": taken.device_id, "deviceName": line.device_name if line else None,
            "levelBefore": names.get(taken.level_before) if taken.level_before else None,
            "levelAfter": names.get(taken.level_after) if taken.level_after else None,
            "expireTimeBefore": taken.expires_before, "expireTimeAfter": taken.expires_after,
            "monthsTaken": round(float(taken.months_taken), 2), "smsTaken": taken.sms_taken,
            "voiceTaken": taken.voice_taken, "smsUsed": taken.sms_used, "voiceUsed": taken.voice_used,
            "restored": taken.restored}


def _take_backs(take_backs: tuple[TakeBack, ...], order: Order) -> list[dict]:
    levels = sorted({i for t in take_backs for i in (t.level_before, t.level_after) if i})
    names = context.container().level_names()(levels, context.language.get()) if levels else {}
    return [_take_back(taken, order, names) for taken in take_backs]


def refund_row(refund: Refund, order: Order) -> dict:
    return {"refundId": refund.id, "orderId": refund.order_id, "orderCode": order.code, "refundCode": refund.code,
            "amount": refund.amount_cents, "currency": refund.currency, "reason": refund.reason,
            "status": int(refund.status), "requestedBy": refund.requester_name, "requestedAt": refund.requested_at,
            "decidedBy": refund.decider_name, "decidedAt": refund.decided_at, "decisionNote": refund.decision_note,
            "providerReference": refund.reference, "error": refund.error, "finishedAt": refund.finished_at,
            "takeBacks": _take_backs(refund.take_backs, order), "payStatus": int(order.status),
            "refundedFee": order.refunded_cents}


def _answer(refund: Refund) -> dict:
    """The refund with its order as they are now."""
    entry = context.container().order_refunds().entry(refund.stored_id)
    return refund_row(entry.refund, entry.order)


def _quote(quote: RefundQuote) -> dict:
    order = quote.order
    return {"orderId": order.id, "amount": quote.amount_cents, "refundable": quote.left_cents,
            "currency": order.currency, "needsApproval": quote.needs_approval,
            "takeBacks": _take_backs(quote.take_backs, order)}


@blp.route("/PayRefund/preview")
class RefundPreviewView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.RefundPreviewBody)
    @blp.ok(s.RefundQuoteSchema, refusals=REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def post(self, body):
        """What refunding `amount` (by default all that may still be refunded) would take back from
        each device, as the refund would do it now, and whether a second operator must approve it.
        Changes nothing."""
        return _quote(context.container().preview_refund()(body["orderId"], body.get("amount")))


@blp.route("/PayRefund/refundOrder")
class RefundView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.RefundBody)
    @blp.ok(s.RefundSchema, refusals=REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def post(self, body):
        """Pays back `amount` of a paid order (by default all that is left) through the provider it
        was paid with, and takes the service it gave back in proportion (as the preview said); the
        order becomes partially refunded (payStatus 5) or refunded (3). Above the approval amount
        the refund waits for a second operator (status 1) and reserves its amount. Refused: more
        than is left (1135), an unpaid, refunded or recharge-card order (1114), the provider's no
        (1137: the money and the service are given back)."""
        refund = context.container().request_refund()(context.caller_id(), body["orderId"], body.get("amount"),
                                                      body["reason"])
        return _answer(refund)


@blp.route("/PayRefund/approve")
class RefundApprovalView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.RefundDecisionBody)
    @blp.ok(s.RefundSchema, refusals=REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def post(self, body):
        """A second operator approves a refund awaiting approval: it is made now, as refundOrder
        makes one. The operator who asked for it cannot (1134); a decided one is refused (1136)."""
        refund = context.container().decide_refund()(context.caller_id(), body["refundId"], True, body.get("note"))
        return _answer(refund)


@blp.route("/PayRefund/reject")
class RefundRejectionView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.RefundDecisionBody)
    @blp.ok(s.RefundSchema, refusals=REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def post(self, body):
        """A second operator rejects a refund awaiting approval: nothing is paid back or taken, its
        reserved amount is free again."""
        refund = context.container().decide_refund()(context.caller_id(), body["refundId"], False, body.get("note"))
        return _answer(refund)


@blp.route("/PayRefund/awaitingList")
class AwaitingRefundsView(MethodView):
    @blp.requires(PERMISSION)
    @blp.ok(s.RefundSchema, many=True)
    def get(self):
        """Refunds awaiting a second operator's approval, oldest first (at most 200)."""
        return [refund_row(entry.refund, entry.order) for entry in context.container().order_refunds().awaiting()]
