"""An order's state moves only along the transition table (spec seed 001 section 4: unpaid, paid,
refunded; closed for an unpaid order that can no longer be paid; partially refunded, issue 19)."""

from itertools import product

from core.ordering.model import ORDER_TRANSITIONS, CloseReason, OrderMove, PayStatus, can_move
from core.ordering.payments import PAYMENT_VALIDITY, Provider


def test_an_order_moves_only_along_the_table():
    moves = {(a, b) for a, b in product(PayStatus, PayStatus) if can_move(a, b)}
    assert moves == {
        (PayStatus.UNPAID, PayStatus.PAID), (PayStatus.UNPAID, PayStatus.CLOSED),
        (PayStatus.CLOSED, PayStatus.PAID),  # the provider took the payment as it closed: honoured
        (PayStatus.PAID, PayStatus.REFUNDED), (PayStatus.PAID, PayStatus.PARTIALLY_REFUNDED),
        (PayStatus.PARTIALLY_REFUNDED, PayStatus.PARTIALLY_REFUNDED),  # a second part paid back
        (PayStatus.PARTIALLY_REFUNDED, PayStatus.REFUNDED),  # the rest paid back
        # the provider refused the refund: as before it (an earlier part stays paid back)
        (PayStatus.REFUNDED, PayStatus.PAID), (PayStatus.PARTIALLY_REFUNDED, PayStatus.PAID),
        (PayStatus.REFUNDED, PayStatus.PARTIALLY_REFUNDED),
    }
    assert set(ORDER_TRANSITIONS) == set(OrderMove)
    assert not can_move(PayStatus.CLOSED, PayStatus.UNPAID) and not can_move(PayStatus.PAID, PayStatus.CLOSED)


def test_a_settlement_never_pays_a_refunded_order_again():
    assert PayStatus.REFUNDED not in ORDER_TRANSITIONS[OrderMove.PAY].sources
    assert ORDER_TRANSITIONS[OrderMove.REFUND_REFUSED].sources == {PayStatus.REFUNDED, PayStatus.PARTIALLY_REFUNDED}
    assert PayStatus.PARTIALLY_REFUNDED not in ORDER_TRANSITIONS[OrderMove.PAY].sources
    assert all(PayStatus.UNPAID is not t.target for t in ORDER_TRANSITIONS.values())  # nothing goes back to unpaid


def test_close_reasons_fit_their_column_and_every_provider_has_a_validity():
    assert all(len(reason.value) <= 20 for reason in CloseReason)
    assert set(PAYMENT_VALIDITY) == set(Provider)
    assert all(validity.total_seconds() >= 3600 for validity in PAYMENT_VALIDITY.values())
