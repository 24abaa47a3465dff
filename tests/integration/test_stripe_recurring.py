"""Automatic renewal through Stripe (issue 19), the international console against the sandbox's
Stripe over HTTP: alice pays her cold room A's year on the payer page (the wallet sheet's stand-in)
asking to renew automatically, so Stripe saves her card to the agreement's Customer; the job charges
it off-session on its date (a decline is retried, and the third ends the agreement); a renewal
order charged twice is one charge at Stripe; unAgreement detaches the card, after which Stripe
refuses to charge it; a forged webhook about a renewal changes nothing."""

from __future__ import annotations

import time
from datetime import datetime

import pytest
import requests
import stripe
from sqlalchemy import select

from adapters.persistence.models import AutoRenewAgreementRow, PaymentNotificationRow, SystemMessageRow
from core.devices.model import add_months
from core.ordering.model import AgreementStatus, PayStatus
from core.ordering.payments import PaymentRequest, payment_request
from core.ordering.renewals import HOLD, RENEW_BEFORE, ChargeDueAgreements
from core.shared.edition import PayType
from payment_sandbox.ledger import Status
from tests.integration.test_recharge_api import COLD_ROOM_A, device, levels, ok, options

P = "/payment/PayOrder"


# --- shared with the PayPal renewal tests -----------------------------------------------------------


def place_renewing_order(payments, pay_type: int) -> dict:
    """alice's order of a year more of her cold room A's level, renewing automatically."""
    api, alice = payments.api, payments.api.token("alice")
    room = device(payments.container, COLD_ROOM_A)
    current = next(lv for lv in levels(api, alice, room.id).values() if lv["current"])
    year = next(o for o in options(api, alice, room.id, current) if o["timeLength"] == 12)
    return ok(api.call("POST", f"{P}/createServiceOrder", token=alice, json={
        "deviceId": room.id, "levelId": current["levelId"], "levelYearId": year["id"],
        "servicePackageId": current["packageId"], "payType": pay_type, "serviceFee": year["serviceFee"],
        "totalFee": year["price"], "autoRenew": True}))


def pay_status(payments, order_id: int) -> int:
    return ok(payments.api.call("GET", f"{P}/get", token=payments.api.token("alice"), query={"pk": order_id}))[
        "payStatus"]


def agreement(container, device_id: int) -> AutoRenewAgreementRow:
    with container.session_factory()() as session:
        return session.scalars(select(AutoRenewAgreementRow).where(AutoRenewAgreementRow.device_id == device_id)
                               .order_by(AutoRenewAgreementRow.id.desc())).first()


def until_due(payments, device_id: int) -> None:
    """The clock at the agreement's next charge."""
    due: datetime = agreement(payments.container, device_id).next_execution_at
    payments.clock.advance(seconds=(due - payments.clock.now()).total_seconds())


def told(container, device_id: int) -> list[str]:
    """What alice was told about the device's renewal (the demo freezer renews too)."""
    with container.session_factory()() as session:
        rows = session.scalars(select(SystemMessageRow).order_by(SystemMessageRow.id)).all()
        return [r.template for r in rows if r.template.startswith("renewal_") and r.params.get("device") == device_id]


def verdicts(container, provider: str, order_code: str, count: int, timeout: float = 5.0) -> list[str]:
    """The console's verdicts on the provider's notifications about the order, once `count` arrived
    (Stripe sends an API call's webhooks after answering it)."""
    deadline = time.monotonic() + timeout
    while True:
        with container.session_factory()() as session:
            found = list(session.scalars(select(PaymentNotificationRow.verdict).where(
                PaymentNotificationRow.provider == provider, PaymentNotificationRow.order_code == order_code)
                .order_by(PaymentNotificationRow.id)))
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def stored_request(container, order_code: str) -> PaymentRequest:
    with container.uow() as uow:
        return payment_request(uow.orders.by_code(order_code))


class Crash(Exception):
    """The console dies between the provider's charge and its settlement."""


def crash_after_charging(payments) -> None:
    """A run of the job that charges the due agreement and dies before settling it: its renewal
    order and its hold on the charge are left for the next run after the hold."""
    def settle(*_args, **_kwargs):
        raise Crash()

    run = ChargeDueAgreements(payments.container.uow(), payments.container.payment_gateways(), settle,
                              payments.clock)
    with pytest.raises(Crash):
        run()
    payments.clock.advance(seconds=HOLD.total_seconds() + 60)


def recurring(payments, pay_type: PayType):
    gateway = payments.container.payment_gateways().recurring(pay_type)
    assert gateway is not None
    return gateway


# --- Stripe ---------------------------------------------------------------------------------------------


def stripe_client(world) -> stripe.StripeClient:
    return stripe.StripeClient(world.credentials.stripe_secret_key,
                               base_addresses={"api": f"{world.sandbox_url}/stripe"}, max_network_retries=0)


def intents_of(world, customer: str) -> list:
    """What Stripe charged the customer, in the order of the console's orders (codes sort by time)."""
    found = stripe_client(world).v1.payment_intents.search({"query": f"customer:'{customer}'", "limit": 100}).data
    return sorted(found, key=lambda i: i.metadata["order_code"])


def saved_card(payments) -> tuple[dict, str, str]:
    """alice's renewing order paid on the payer page and its agreement signed: (order, customer,
    payment method)."""
    placed = place_renewing_order(payments, 30)
    assert placed["clientSecret"].startswith("pi_") and placed["approveUrl"].startswith(payments.world.sandbox_url)
    page = requests.post(placed["approveUrl"], data={"outcome": "pay"}, timeout=10)
    assert "The merchant answered 200." in page.text
    assert pay_status(payments, placed["orderId"]) == 2
    assert payments.container.sign_agreements()() == 1
    customer, _, method = agreement(payments.container, device(payments.container, COLD_ROOM_A).id).mandate \
        .partition(":")
    return placed, customer, method


def test_a_card_saved_with_the_first_payment_is_charged_off_session_on_its_date_and_detached_by_unagreement(
        international_payments):
    payments = international_payments
    world, sandbox, container = payments.world, payments.world.providers["stripe"], payments.container
    room = device(container, COLD_ROOM_A)
    placed, customer, method = saved_card(payments)
    assert customer.startswith("cus_") and method.startswith("pm_")
    assert sandbox.payment_method(method)["customer"] == customer  # saved to the agreement's customer
    found = stripe_client(world).v1.customers.retrieve(customer)
    assert found.metadata["agreement_code"] == agreement(container, room.id).code == f"AR{placed['orderCode']}"
    [first] = intents_of(world, customer)
    assert (first.setup_future_usage, first.metadata["order_code"]) == ("off_session", placed["orderCode"])

    paid_until = device(container, COLD_ROOM_A).service_expires_at
    assert agreement(container, room.id).next_execution_at == paid_until - RENEW_BEFORE
    until_due(payments, room.id)
    container.charge_due_agreements()()
    _, renewal = intents_of(world, customer)
    code = renewal.metadata["order_code"]
    assert (renewal.status, renewal.amount, renewal.payment_method) == ("succeeded", placed["totalFee"], method)
    assert [(p.status, p.amount_cents) for p in world.ledger.of_order("stripe", code)] == [
        (Status.PAID, placed["totalFee"])]
    with container.uow() as uow:
        assert uow.orders.by_code(code).status is PayStatus.PAID
    assert device(container, COLD_ROOM_A).service_expires_at == add_months(paid_until, 12)
    assert told(container, room.id) == ["renewal_due", "renewal_charged"]
    # Its webhook reached the console too: the order was paid already, nothing more happened.
    assert verdicts(container, "stripe", code, 1) in (["alreadySettled"], ["settled"])

    # Charged again for the same renewal order (a run resumed after a crash): the same charge.
    again = recurring(payments, PayType.GOOGLE_PAY).charge(agreement(container, room.id).mandate,
                                                           stored_request(container, code))
    assert (again.paid, again.reference, again.amount_cents) == (True, renewal.id, placed["totalFee"])
    assert len(world.ledger.of_order("stripe", code)) == 1 and len(intents_of(world, customer)) == 2

    alice = payments.api.token("alice")  # a year later: signed in again
    ok(payments.api.call("GET", f"{P}/unAgreement", token=alice, query={"deviceId": room.id}))
    assert sandbox.payment_method(method)["customer"] is None  # detached at Stripe
    assert agreement(container, room.id).status == AgreementStatus.CANCELLED
    later = recurring(payments, PayType.GOOGLE_PAY).charge(f"{customer}:{method}", PaymentRequest(
        0, "20991231000000000001", placed["totalFee"], "USD", "renewal", PayType.GOOGLE_PAY, payments.clock.now()))
    assert (later.paid, later.error) == (False, "invalid_request")  # Stripe refuses a detached card
    assert world.ledger.of_order("stripe", "20991231000000000001") == []
    recurring(payments, PayType.GOOGLE_PAY).cancel(f"{customer}:{method}", "again")  # ended already: fine


def test_a_run_resumed_after_a_crash_charges_the_same_renewal_order_once(international_payments):
    payments = international_payments
    world, container = payments.world, payments.container
    room = device(container, COLD_ROOM_A)
    placed, customer, method = saved_card(payments)
    paid_until = device(container, COLD_ROOM_A).service_expires_at
    until_due(payments, room.id)
    crash_after_charging(payments)
    [_, charged] = intents_of(world, customer)
    assert charged.status == "succeeded"

    container.charge_due_agreements()()  # resumed: the same renewal order, charged again
    assert [i.id for i in intents_of(world, customer)[1:]] == [charged.id]  # Stripe's first answer again
    code = charged.metadata["order_code"]
    assert [p.status for p in world.ledger.of_order("stripe", code)] == [Status.PAID]
    with container.uow() as uow:
        assert uow.orders.by_code(code).status is PayStatus.PAID
    assert device(container, COLD_ROOM_A).service_expires_at == add_months(paid_until, 12)
    assert told(container, room.id).count("renewal_charged") == 1
    assert agreement(container, room.id).charging_order_id is None
    verdicts(container, "stripe", code, 1)  # its webhook, before the next test


def test_a_declined_renewal_is_retried_and_the_third_decline_ends_the_agreement(international_payments):
    payments = international_payments
    world, sandbox, container = payments.world, payments.world.providers["stripe"], payments.container
    room = device(container, COLD_ROOM_A)
    placed, customer, method = saved_card(payments)
    paid_until = device(container, COLD_ROOM_A).service_expires_at
    sandbox.decline_charges(method, "authentication_required")  # the bank wants alice: off-session, a decline

    until_due(payments, room.id)
    container.charge_due_agreements()()
    sandbox.decline_charges(method)  # card_declined
    for days in (1, 2):
        payments.clock.advance(days=days)
        container.charge_due_agreements()()
    renewals = intents_of(world, customer)[1:]
    assert [(i.status, i.last_payment_error.code) for i in renewals] == [
        ("requires_payment_method", "authentication_required"), ("requires_payment_method", "card_declined"),
        ("requires_payment_method", "card_declined")]
    codes = [i.metadata["order_code"] for i in renewals]
    assert len(set(codes)) == 3  # each attempt its own renewal order, closed after its decline
    for code in codes:
        assert [p.status for p in world.ledger.of_order("stripe", code)] == [Status.PENDING]
        assert verdicts(container, "stripe", code, 1) == ["notPaid"]  # payment_failed, acknowledged
        with container.uow() as uow:
            assert uow.orders.by_code(code).status is PayStatus.CLOSED
    row = agreement(container, room.id)
    assert (row.status, row.failures, row.last_error) == (AgreementStatus.ENDED, 3, "card_declined")
    assert told(container, room.id) == ["renewal_due", "renewal_failed", "renewal_failed", "renewal_ended"]
    assert device(container, COLD_ROOM_A).service_expires_at == paid_until

    payments.clock.advance(days=30)
    container.charge_due_agreements()()
    assert len(intents_of(world, customer)) == 4  # ended: never charged again


def test_a_forged_webhook_about_a_renewal_changes_nothing(international_payments):
    payments = international_payments
    world, sandbox, container = payments.world, payments.world.providers["stripe"], payments.container
    room = device(container, COLD_ROOM_A)
    placed = place_renewing_order(payments, 30)
    intent = placed["clientSecret"].partition("_secret_")[0]
    genuine_looking = {"status": "succeeded", "amount_received": placed["totalFee"], "payment_method": "pm_forged"}
    notify = f"{world.console_url}/api/payment/notify/stripe"
    for secret in ("whsec_forged", None):
        headers, body = sandbox.signed_event(intent, "payment_intent.succeeded", overrides=genuine_looking,
                                             secret=secret)
        if secret is None:
            headers = {k: v for k, v in headers.items() if k != "Stripe-Signature"}
        answer = requests.post(notify, data=body, headers=headers, timeout=10)
        assert answer.status_code == 400
    assert verdicts(container, "stripe", placed["orderCode"], 0) == []  # no order named: recorded without one
    assert pay_status(payments, placed["orderId"]) == 1
    assert container.sign_agreements()() == 0  # Stripe saved no card: no agreement
    assert agreement(container, room.id) is None
