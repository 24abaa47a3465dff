"""The sandbox `coldchain serve` runs pays back the refunds its providers accept, as they would;
the tests' sandbox leaves them to its /refunds control."""

from __future__ import annotations

import threading

from payment_sandbox.ledger import Ledger
from payment_sandbox.provider import SandboxContext


class Provider:
    def __init__(self) -> None:
        self.finished: list[tuple[str, bool]] = []
        self.done = threading.Event()

    def finish_refund(self, refund_no: str, succeeded: bool, notify: bool = True):
        self.finished.append((refund_no, succeeded))
        self.done.set()
        if refund_no == "gone":
            raise KeyError(refund_no)


def test_a_refund_accepted_is_paid_back_on_its_own_when_configured():
    provider = Provider()
    context = SandboxContext(Ledger(), "http://sandbox", refunds_finish_after=0.01, providers={"wechat": provider})
    context.refund_accepted("wechat", "20261127000001R1")
    assert provider.done.wait(5) and provider.finished == [("20261127000001R1", True)]


def test_a_refund_accepted_waits_for_the_control_otherwise():
    provider = Provider()
    context = SandboxContext(Ledger(), "http://sandbox", providers={"wechat": provider})
    context.refund_accepted("wechat", "20261127000001R1")
    assert not provider.done.wait(0.2) and provider.finished == []
