"""Automatic renewal through PayPal's vault (issue 19), the international console against the
sandbox's PayPal over HTTP: alice approves her cold room A's year on the payer page, the order
asking PayPal to vault her PayPal once paid; the console captures it on her return and the capture
carries the payment token; the job charges the token on its date (PayPal completes the order
without her; a decline is retried, the third ends the agreement); a renewal order charged twice
is one capture at PayPal; unAgreement deletes the token, which PayPal then refuses; notifications
claiming otherwise change nothing (PayPal sends the console none)."""

from __future__ import annotations

import json

import requests

from core.devices.model import add_months
from core.ordering.model import AgreementStatus, PayStatus
from core.ordering.payments import InvalidNotification, PaymentRequest
from core.ordering.renewals import RENEW_BEFORE
from core.shared.edition import PayType
from payment_sandbox.ledger import Status
from tests.integration.test_recharge_api import COLD_ROOM_A, device, ok
from tests.integration.test_stripe_recurring import (
    P,
    agreement,
    crash_after_charging,
    pay_status,
    place_renewing_order,
    recurring,
    stored_request,
    told,
    until_due,
)


def bearer(world) -> dict[str, str]:
    c = world.credentials
    token = requests.post(f"{world.sandbox_url}/paypal/v1/oauth2/token", auth=(c.paypal_client_id,
                                                                               c.paypal_client_secret),
                          data={"grant_type": "client_credentials"}, timeout=5).json()["access_token"]
    return {"Authorization": f"Bearer {token}"}


def vaulted(payments) -> tuple[dict, str]:
    """alice's renewing order approved on the payer page, captured on her return and its agreement
    signed: (order, payment token)."""
    placed = place_renewing_order(payments, 20)
    assert placed["approveUrl"].startswith(f"{payments.world.sandbox_url}/pay/paypal/")
    back = requests.post(placed["approveUrl"], data={"outcome": "pay"}, allow_redirects=False, timeout=10)
    assert back.status_code == 303
    landed = requests.get(back.headers["Location"], allow_redirects=False, timeout=10)
    assert landed.status_code == 303 and "payStatus=2" in landed.headers["Location"], landed.headers
    assert payments.container.sign_agreements()() == 1
    return placed, agreement(payments.container, device(payments.container, COLD_ROOM_A).id).mandate


def test_paypal_vaulted_with_the_first_payment_is_charged_on_its_date_and_deleted_by_unagreement(
        international_payments):
    payments = international_payments
    world, sandbox, container = payments.world, payments.world.providers["paypal"], payments.container
    room = device(container, COLD_ROOM_A)
    placed, mandate = vaulted(payments)
    token = sandbox.payment_token(mandate)
    assert (token.usage_type, token.customer_type, token.deleted) == ("MERCHANT", "CONSUMER", False)
    first = world.ledger.get(token.order_id)
    assert first.order_code == placed["orderCode"] and first.status is Status.PAID
    api_url = f"{world.sandbox_url}/paypal"
    order = requests.get(f"{api_url}/v2/checkout/orders/{token.order_id}", headers=bearer(world), timeout=5).json()
    vault = order["payment_source"]["paypal"]["attributes"]["vault"]
    assert (vault["id"], vault["status"], vault["customer"]["id"]) == (mandate, "VAULTED", token.customer_id)
    shown = requests.get(f"{api_url}/v3/vault/payment-tokens/{mandate}", headers=bearer(world), timeout=5).json()
    assert shown["payment_source"]["paypal"]["usage_type"] == "MERCHANT"

    paid_until = device(container, COLD_ROOM_A).service_expires_at
    assert agreement(container, room.id).next_execution_at == paid_until - RENEW_BEFORE
    until_due(payments, room.id)
    container.charge_due_agreements()()
    [(code, capture_id)] = token.charges
    assert code != placed["orderCode"]
    [charged] = world.ledger.of_order("paypal", code)
    assert (charged.status, charged.amount_cents, charged.extra["vault_id"]) == (Status.PAID, placed["totalFee"],
                                                                                 mandate)
    assert charged.extra["capture"]["id"] == capture_id
    with container.uow() as uow:
        assert uow.orders.by_code(code).status is PayStatus.PAID
    assert device(container, COLD_ROOM_A).service_expires_at == add_months(paid_until, 12)
    assert told(container, room.id) == ["renewal_due", "renewal_charged"]

    # Charged again for the same renewal order (a run resumed after a crash): PayPal answers with
    # the first order (its PayPal-Request-Id), nothing captured twice.
    again = recurring(payments, PayType.PAYPAL).charge(mandate, stored_request(container, code))
    assert (again.paid, again.reference, again.amount_cents) == (True, capture_id, placed["totalFee"])
    assert len(token.charges) == 1 and len(world.ledger.of_order("paypal", code)) == 1

    alice = payments.api.token("alice")  # a year later: signed in again
    ok(payments.api.call("GET", f"{P}/unAgreement", token=alice, query={"deviceId": room.id}))
    assert token.deleted and agreement(container, room.id).status == AgreementStatus.CANCELLED
    gone = requests.get(f"{api_url}/v3/vault/payment-tokens/{mandate}", headers=bearer(world), timeout=5)
    assert (gone.status_code, gone.json()["name"]) == (404, "RESOURCE_NOT_FOUND")
    later = recurring(payments, PayType.PAYPAL).charge(mandate, PaymentRequest(
        0, "20991231000000000002", placed["totalFee"], "USD", "renewal", PayType.PAYPAL, payments.clock.now()))
    assert (later.paid, later.error) == (False, "INVALID_RESOURCE_ID")  # PayPal refuses a deleted token
    assert token.charges[-1] == ("20991231000000000002", "INVALID_RESOURCE_ID")
    assert world.ledger.of_order("paypal", "20991231000000000002") == []
    recurring(payments, PayType.PAYPAL).cancel(mandate, "again")  # deleted already: fine


def test_a_run_resumed_after_a_crash_charges_the_same_renewal_order_once(international_payments):
    payments = international_payments
    world, sandbox, container = payments.world, payments.world.providers["paypal"], payments.container
    room = device(container, COLD_ROOM_A)
    _, mandate = vaulted(payments)
    paid_until = device(container, COLD_ROOM_A).service_expires_at
    until_due(payments, room.id)
    crash_after_charging(payments)
    token = sandbox.payment_token(mandate)
    [(code, capture_id)] = token.charges

    container.charge_due_agreements()()  # resumed: the same renewal order, charged again
    assert token.charges == [(code, capture_id)]  # PayPal's first order again, nothing captured twice
    assert [p.status for p in world.ledger.of_order("paypal", code)] == [Status.PAID]
    with container.uow() as uow:
        assert uow.orders.by_code(code).status is PayStatus.PAID
    assert device(container, COLD_ROOM_A).service_expires_at == add_months(paid_until, 12)
    assert told(container, room.id).count("renewal_charged") == 1


def test_a_declined_renewal_is_retried_and_the_third_decline_ends_the_agreement(international_payments):
    payments = international_payments
    world, sandbox, container = payments.world, payments.world.providers["paypal"], payments.container
    room = device(container, COLD_ROOM_A)
    _, mandate = vaulted(payments)
    paid_until = device(container, COLD_ROOM_A).service_expires_at
    token = sandbox.payment_token(mandate)
    token.declines = True

    until_due(payments, room.id)
    container.charge_due_agreements()()
    for days in (1, 2):
        payments.clock.advance(days=days)
        container.charge_due_agreements()()
    assert [issue for _, issue in token.charges] == ["INSTRUMENT_DECLINED"] * 3
    codes = [code for code, _ in token.charges]
    assert len(set(codes)) == 3  # each attempt its own renewal order, closed after its decline
    for code in codes:
        assert world.ledger.of_order("paypal", code) == []  # nothing captured
        with container.uow() as uow:
            assert uow.orders.by_code(code).status is PayStatus.CLOSED
    row = agreement(container, room.id)
    assert (row.status, row.failures, row.last_error) == (AgreementStatus.ENDED, 3, "INSTRUMENT_DECLINED")
    assert told(container, room.id) == ["renewal_due", "renewal_failed", "renewal_failed", "renewal_ended"]
    assert device(container, COLD_ROOM_A).service_expires_at == paid_until

    token.declines = False
    payments.clock.advance(days=30)
    container.charge_due_agreements()()
    assert len(token.charges) == 3  # ended: never charged again


def test_notifications_claiming_a_vault_or_a_capture_change_nothing(international_payments):
    payments = international_payments
    world, sandbox, container = payments.world, payments.world.providers["paypal"], payments.container
    room = device(container, COLD_ROOM_A)
    _, mandate = vaulted(payments)
    unpaid = place_renewing_order(payments, 20)  # another year, not approved
    paypal_order = unpaid["approveUrl"].rsplit("/", 1)[-1]
    gateway = payments.container.payment_gateways()[PayType.PAYPAL]
    for event_type, resource in (("VAULT.PAYMENT-TOKEN.DELETED", {"id": mandate}),
                                 ("PAYMENT.CAPTURE.COMPLETED", {"id": "FORGED", "status": "COMPLETED",
                                                                "invoice_id": unpaid["orderCode"],
                                                                "supplementary_data": {"related_ids": {
                                                                    "order_id": paypal_order}}})):
        body = json.dumps({"id": "WH-FORGED", "event_type": event_type, "resource": resource}).encode()
        headers = {"Content-Type": "application/json", "PAYPAL-TRANSMISSION-SIG": "forged",
                   "PAYPAL-AUTH-ALGO": "SHA256withRSA", "PAYPAL-TRANSMISSION-ID": "forged"}
        answer = requests.post(f"{world.console_url}/api/payment/notify/paypal", data=body, headers=headers,
                               timeout=10)
        assert answer.status_code >= 400
        try:
            gateway.parse_notification(headers, body)
        except InvalidNotification:
            pass
        else:
            raise AssertionError("a PayPal notification was believed")
    # A forged return naming the unpaid order: the console asks PayPal, which says it is not approved.
    back = requests.get(f"{world.console_url}/api/payment/paypal/return", params={"token": paypal_order},
                        allow_redirects=False, timeout=10)
    assert back.status_code == 303 and "error=1" in back.headers["Location"]
    assert pay_status(payments, unpaid["orderId"]) == 1
    assert recurring(payments, PayType.PAYPAL).mandate(stored_request(container, unpaid["orderCode"]),
                                                       f"AR{unpaid['orderCode']}") is None  # nothing vaulted
    row = agreement(container, room.id)
    assert (row.status, row.mandate) == (AgreementStatus.ACTIVE, mandate)
    assert not sandbox.payment_token(mandate).deleted
