"""A refund as it is stored (core.ordering.refunds moves it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum, StrEnum

from core.ordering.take_back import TakeBack
from core.shared.identity import Stored


class RefundStatus(IntEnum):
    AWAITING_APPROVAL = 1  # above the approval amount: a second operator decides
    # Reserved and taken back; the provider is being asked, or accepted it (its reference is
    # known) and tells the outcome later (a notification, or the resume job asking it).
    PROCESSING = 2
    SUCCEEDED = 3
    FAILED = 4  # the provider refused it: the money and the service were given back
    REJECTED = 5  # the second operator said no: nothing was taken


class RefundMove(StrEnum):
    """What may happen to a refund; each is one row of REFUND_TRANSITIONS, made by one conditional
    write (so a refund is decided once and finished once, whoever tries)."""

    APPROVE = "approve"  # the second operator agreed: reserved and taken back
    REJECT = "reject"
    SUCCEED = "succeed"  # the provider paid it back (its answer, its notification, or its query)
    FAIL = "fail"  # the provider refused or gave up: everything given back


@dataclass(frozen=True)
class RefundTransition:
    sources: frozenset[RefundStatus]
    target: RefundStatus


REFUND_TRANSITIONS: dict[RefundMove, RefundTransition] = {
    RefundMove.APPROVE: RefundTransition(frozenset({RefundStatus.AWAITING_APPROVAL}), RefundStatus.PROCESSING),
    RefundMove.REJECT: RefundTransition(frozenset({RefundStatus.AWAITING_APPROVAL}), RefundStatus.REJECTED),
    RefundMove.SUCCEED: RefundTransition(frozenset({RefundStatus.PROCESSING}), RefundStatus.SUCCEEDED),
    RefundMove.FAIL: RefundTransition(frozenset({RefundStatus.PROCESSING}), RefundStatus.FAILED),
}


def can_move(status: RefundStatus, move: RefundMove) -> bool:
    return status in REFUND_TRANSITIONS[move].sources


@dataclass(frozen=True)
class Refund(Stored):
    id: int | None
    order_id: int
    code: str  # ours, sent to the provider: the order's code, R, the refund's number in the order
    amount_cents: int
    currency: str
    reason: str
    status: RefundStatus
    requested_by: int
    requested_at: datetime
    decided_by: int | None = None  # the second operator, of a refund that needed one
    decided_at: datetime | None = None
    decision_note: str | None = None
    take_backs: tuple[TakeBack, ...] = ()  # what it took, once processing
    reference: str | None = None  # the provider's id of the refund
    error: str | None = None  # why the provider refused it
    finished_at: datetime | None = None
    requester_name: str | None = None  # read back with it
    decider_name: str | None = None
