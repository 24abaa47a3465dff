"""The console's automatic renewal through a provider's own recurring mechanism, against the payment
sandbox (the `payments` fixture): the steps each provider's test_*_recurring.py takes before
checking what its provider saw."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select

from adapters.persistence.models import PaymentNotificationRow, SystemMessageRow
from core.ordering.payments import PaymentResult, payment_request
from core.ordering.renewals import RENEW_BEFORE, RenewalRun
from core.shared.edition import PayType
from tests.integration.test_recharge_api import COLD_ROOM_A, device, ok
from tests.integration.test_renewals_api import renewal_order

P = "/payment/PayOrder"
FREEZER = "FZ1A000000001"  # the demo's auto-renewing device


@dataclass(frozen=True)
class Authorised:
    room_id: int
    placed: dict  # the order that asked for automatic renewal, paid with the authorisation
    paid_until: datetime  # the room's service once that order was paid
    mandate: str  # the provider's reference of the authorisation, as the agreement keeps it


def authorised(payments, pay_type: PayType, pay: Callable[[str], None]) -> Authorised:
    """alice pays a year of her cold room A asking to renew automatically (`pay` does what her phone
    does with the order's QR code) and the agreement is signed with the provider's authorisation.
    The demo's freezer renews under the development gateway's mandate, which no provider knows: its
    agreement is ended first, so the room's is the only one charged."""
    api, container = payments.api, payments.container
    alice = api.token("alice")
    ok(api.call("GET", f"{P}/unAgreement", token=alice, query={"deviceId": device(container, FREEZER).id}))
    room = device(container, COLD_ROOM_A)
    placed = ok(renewal_order(api, alice, [room.id], payType=int(pay_type)))
    pay(placed["payQrCode"])
    assert ok(api.call("GET", f"{P}/get", token=alice, query={"pk": placed["orderId"]}))["payStatus"] == 2
    assert container.sign_agreements()() == 1
    current = ok(api.call("GET", f"{P}/selectCurrentService", token=alice, query={"deviceId": room.id}))
    assert (current["totalFee"], current["currency"]) == (placed["totalFee"], "CNY")
    with container.uow() as uow:
        agreement = uow.agreements.active(room.id)
    assert agreement is not None and agreement.mandate is not None
    return Authorised(room.id, placed, device(container, COLD_ROOM_A).service_expires_at, agreement.mandate)


def charge_due(payments, after: timedelta | None = None, *, at: Authorised | None = None) -> RenewalRun:
    """The job's run once the clock has moved on `after`, or to the charge date of `at`."""
    clock = payments.clock
    clock.advance(seconds=(after or (at.paid_until - RENEW_BEFORE - clock.now())).total_seconds())
    return payments.container.charge_due_agreements()()


def renewal_codes(payments, room_id: int, placed: dict) -> list[str]:
    """The codes of the room's orders since `placed` (renewal orders), whatever their state, oldest first."""
    alice = payments.api.token("alice")  # signed in again: the renewals are a year later
    mine = ok(payments.api.call("POST", f"{P}/selectMyOrderList", token=alice, json={"pageSize": 50}))["data"]
    return sorted(o["orderCode"] for o in mine
                  if [d["deviceId"] for d in o["devices"]] == [room_id] and o["orderCode"] > placed["orderCode"])


def renewal_messages(payments, device_id: int) -> list[str]:
    """The templates of alice's messages about the device's automatic renewal, oldest first."""
    with payments.container.session_factory()() as session:
        rows = session.scalars(select(SystemMessageRow).order_by(SystemMessageRow.id))
        return [r.template for r in rows if r.template.startswith("renewal_") and r.params.get("device") == device_id]


def charged_again(payments, pay_type: PayType, mandate: str, order_code: str) -> PaymentResult:
    """The order charged again under the mandate, as a run resumed after a crash charges it."""
    recurring = payments.container.payment_gateways().recurring(pay_type)
    assert recurring is not None
    with payments.container.uow() as uow:
        order = uow.orders.by_code(order_code)
    assert order is not None
    return recurring.charge(mandate, payment_request(order))


def cancel_renewal(payments, room_id: int) -> None:
    """alice ends the room's automatic renewal (unAgreement)."""
    api = payments.api
    ok(api.call("GET", f"{P}/unAgreement", token=api.token("alice"), query={"deviceId": room_id}))


def verdicts(payments, provider: str, order_code: str, count: int, timeout: float = 5.0) -> list[str]:
    """The console's verdicts on the provider's notifications about the order, oldest first, once
    there are `count` (one sent beside an answer arrives in its own time)."""
    deadline = time.monotonic() + timeout
    while True:
        with payments.container.session_factory()() as session:
            found = list(session.scalars(select(PaymentNotificationRow.verdict).where(
                PaymentNotificationRow.provider == provider, PaymentNotificationRow.order_code == order_code)
                .order_by(PaymentNotificationRow.id)))
        if len(found) >= count or time.monotonic() >= deadline:
            return found
        time.sleep(0.05)
