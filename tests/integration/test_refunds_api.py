"""Refunds that take the service back (issue 19) through the API, on SQLite and PostgreSQL:

- an operator refunds half of alice's yearly renewal through WeChat Pay's sandbox (wechatpy) and
  her expiry moves back six months; the rest takes it back to now and the order is refunded;
- SMS counts are taken back only as far as unused, and the preview said so before;
- above the approval amount a refund waits for a second operator (the first cannot approve it),
  reserves its amount, and is made or rejected once;
- a provider's refusal gives back the money and the service;
- a refund and a replayed payment notification racing leave one credit and one refund;
- customers, a sharee and strangers get nothing; hostile amounts and reasons a 422 that changes
  nothing.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from dependency_injector import providers
from sqlalchemy import select, update

from adapters.persistence.models import DeviceRow, OrderRefundRow
from core.devices.model import add_months
from core.ordering.refunds import RefundPolicy
from entrypoints.api.orders import schemas as os
from entrypoints.api.payment import schemas as ps
from payment_sandbox.provider import deliver
from tests.integration.test_attack_payments import NOTIFY, recorded_bodies
from tests.integration.test_recharge_api import COLD_ROOM_A, device, ok, pay, refused, sms_order
from tests.integration.test_unpaid_orders import order_for, press

R = "/payment/PayRefund"
REASON = "The customer returned the logger within the trial period"


def refund(console_api, order_id: int, amount: int | None = None, user: str = "operator", reason: str = REASON,
           language: str = "en-US"):
    body = {"orderId": order_id, "reason": reason, **({} if amount is None else {"amount": amount})}
    return console_api.call("POST", f"{R}/refundOrder", token=console_api.token(user), json=body,
                            headers={"Accept-Language": language})


def preview(console_api, order_id: int, amount: int | None = None, user: str = "operator"):
    body = {"orderId": order_id, **({} if amount is None else {"amount": amount})}
    return console_api.call("POST", f"{R}/preview", token=console_api.token(user), json=body)


def decide(console_api, refund_id: int, verb: str, user: str, note: str | None = None):
    body = {"refundId": refund_id, **({} if note is None else {"note": note})}
    return console_api.call("POST", f"{R}/{verb}", token=console_api.token(user), json=body)


def order_status(console_api, order_id: int) -> tuple[int, int]:
    order = ok(console_api.call("POST", "/payment/PayOrder/selectOrderDetail", token=console_api.token("alice"),
                                json={"orderId": order_id}), ps.OrderDetailSchema)
    return order["payStatus"], order["refundFee"]


@pytest.fixture
def approval_above_10(container):
    """Refunds above 10.00 wait for a second operator."""
    container.refund_policy.override(providers.Object(RefundPolicy(1000)))
    yield
    container.refund_policy.reset_override()


def paid_renewal(api, container, months: int = 12) -> tuple[dict, object]:
    """alice renews her cold room A for a year of its level, paid through the development gateway."""
    console = type("Console", (), {"api": api, "container": container})
    placed = order_for(console, year=0)
    ok(pay(api, placed))
    return placed, device(container, COLD_ROOM_A).service_expires_at


def test_half_of_alice_s_yearly_renewal_refunded_through_wechat_moves_her_expiry_back_six_months(payments):
    api = payments.api
    placed = order_for(payments, year=0)
    assert placed["months"] == 12
    before = device(payments.container, COLD_ROOM_A).service_expires_at
    assert "The merchant answered 200" in press(placed["payQrCode"]).text
    paid_until = device(payments.container, COLD_ROOM_A).service_expires_at
    assert paid_until == add_months(max(before, payments.clock.now()), 12)
    half = placed["totalFee"] // 2

    quote = ok(preview(api, placed["orderId"], half), os.RefundQuoteSchema)
    [taken] = quote["takeBacks"]
    assert (quote["refundable"], quote["needsApproval"], taken["monthsTaken"]) == (placed["totalFee"], False, 6.0)
    assert device(payments.container, COLD_ROOM_A).service_expires_at == paid_until  # a preview changes nothing

    made = ok(refund(api, placed["orderId"], half), os.RefundSchema)
    # accepted by WeChat, its outcome notified later (tests/integration/test_refund_outcomes.py)
    assert (made["status"], made["amount"], made["payStatus"], made["refundedFee"]) == (2, half, 5, half)
    assert made["requestedBy"] == "operator" and made["refundCode"] == f"{placed['orderCode']}R1"
    assert device(payments.container, COLD_ROOM_A).service_expires_at == add_months(paid_until, -6)
    at_wechat = payments.world.ledger.by_order("wechat", placed["orderCode"])
    assert at_wechat is not None and at_wechat.refunded_cents == half
    assert order_status(api, placed["orderId"]) == (5, half)

    rest = ok(refund(api, placed["orderId"]), os.RefundSchema)  # all that is left
    assert (rest["amount"], rest["payStatus"], rest["refundedFee"]) == (placed["totalFee"] - half, 3,
                                                                          placed["totalFee"])
    now = payments.clock.now()
    assert device(payments.container, COLD_ROOM_A).service_expires_at == max(now, add_months(paid_until, -12))
    assert payments.world.ledger.by_order("wechat", placed["orderCode"]).refunded_cents == placed["totalFee"]
    refused(refund(api, placed["orderId"], 1), 409, 1114)
    history = ok(api.call("GET", "/payment/PayOrder/selectBackOrderDetail", token=api.token("operator"),
                          query={"orderId": placed["orderId"]}), os.OrderDossierSchema)
    assert [r["amount"] for r in history["refunds"]] == [half, placed["totalFee"] - half]
    assert [e["kind"] for e in history["history"]] == ["pay", "refundRequested", "partialRefund", "refundRequested",
                                                       "refund"]
    assert {e["userName"] for e in history["history"][1:]} == {"operator"}  # who refunded, every step


def test_sms_are_taken_back_only_as_far_as_unused(api, container, recharge_demo):
    alice = api.token("alice")
    room = device(container, COLD_ROOM_A)
    packages = ok(api.call("GET", "/payment/PaySmsPackages/selectSmsPackage", token=alice,
                           query={"countryCode": "86"}), ps.AlertPackagesSchema)
    sms500 = next(p for p in packages["smsList"] if p["smsCount"] == 500)
    placed = ok(sms_order(api, alice, [room.id], sms500))
    ok(pay(api, placed))
    # Sent since: what it had before, then 420 of the 500 (the oldest are used first); 80 are left.
    with container.session_factory()() as session, session.begin():
        session.execute(update(DeviceRow).where(DeviceRow.id == room.id).values(sms_count=80))

    [taken] = ok(preview(api, placed["orderId"]), os.RefundQuoteSchema)["takeBacks"]
    assert (taken["smsTaken"], taken["smsUsed"]) == (80, 420)
    ok(refund(api, placed["orderId"]))
    assert device(container, COLD_ROOM_A).sms_count == 0


def test_a_large_refund_waits_for_a_second_operator(api, container, recharge_demo, approval_above_10):
    placed, paid_until = paid_renewal(api, container)
    asked = ok(refund(api, placed["orderId"], 1500), os.RefundSchema)
    assert (asked["status"], asked["payStatus"], asked["takeBacks"]) == (1, 2, [])
    assert device(container, COLD_ROOM_A).service_expires_at == paid_until  # nothing taken yet
    left = placed["totalFee"] - 1500
    refused(refund(api, placed["orderId"], left + 1), 409, 1135)  # the 15.00 is reserved
    awaiting = ok(api.call("GET", f"{R}/awaitingList", token=api.token("admin")), os.RefundSchema, many=True)
    assert [r["refundId"] for r in awaiting] == [asked["refundId"]]

    refused(decide(api, asked["refundId"], "approve", "operator"), 409, 1134)  # not the one who asked
    refused(decide(api, asked["refundId"], "approve", "alice"), 403, 403)
    approved = ok(decide(api, asked["refundId"], "approve", "admin", "Agreed on the phone"), os.RefundSchema)
    assert (approved["status"], approved["decidedBy"], approved["payStatus"]) == (3, "admin", 5)
    assert device(container, COLD_ROOM_A).service_expires_at < paid_until
    refused(decide(api, asked["refundId"], "reject", "admin"), 409, 1136)  # decided once

    second = ok(refund(api, placed["orderId"], 1100), os.RefundSchema)
    rejected = ok(decide(api, second["refundId"], "reject", "admin", "No"), os.RefundSchema)
    assert (rejected["status"], rejected["decisionNote"]) == (5, "No")
    assert ok(preview(api, placed["orderId"]), os.RefundQuoteSchema)["refundable"] == left  # freed again


def test_a_refund_the_provider_refuses_gives_everything_back(payments):
    api = payments.api
    placed = order_for(payments, year=0)
    press(placed["payQrCode"])
    paid_until = device(payments.container, COLD_ROOM_A).service_expires_at
    at_wechat = payments.world.ledger.by_order("wechat", placed["orderCode"])
    payments.world.ledger.update(at_wechat.id, refunded_cents=placed["totalFee"])  # WeChat: "all paid back already"
    refused(refund(api, placed["orderId"], 100), 409, 1137)
    assert order_status(api, placed["orderId"]) == (2, 0)
    assert device(payments.container, COLD_ROOM_A).service_expires_at == paid_until
    with payments.container.session_factory()() as session:
        [row] = session.scalars(select(OrderRefundRow)).all()
        assert row.status == 4 and row.error


def test_a_refund_and_a_replayed_notification_racing_leave_one_credit_and_one_refund(payments):
    api = payments.api
    placed = order_for(payments, year=0)
    press(placed["payQrCode"])
    paid_until = device(payments.container, COLD_ROOM_A).service_expires_at
    [genuine] = recorded_bodies(payments.container, "wechat")
    answers: list = []
    start = threading.Barrier(2)

    def replay():
        start.wait()
        answers.append(deliver(f"{payments.world.console_url}{NOTIFY}/wechat", genuine,
                               {"Content-Type": "text/xml"}).status)

    thread = threading.Thread(target=replay)
    thread.start()
    start.wait()
    made = ok(refund(api, placed["orderId"]), os.RefundSchema)
    thread.join(30)
    assert answers == [200] and made["payStatus"] == 3
    now = payments.clock.now()
    assert device(payments.container, COLD_ROOM_A).service_expires_at == max(now, add_months(paid_until, -12))
    assert payments.world.ledger.by_order("wechat", placed["orderCode"]).refunded_cents == placed["totalFee"]


def test_nobody_but_an_operator_refunds_and_hostile_values_change_nothing(api, container, recharge_demo):
    placed, paid_until = paid_renewal(api, container)
    order_id = placed["orderId"]
    for user in ("alice", "acme", "bob"):
        refused(refund(api, order_id, user=user), 403, 403)
        refused(preview(api, order_id, user=user), 403, 403)
    refused(api.call("POST", f"{R}/refundOrder", json={"orderId": order_id, "reason": REASON}), 401, 2010)
    for amount in (0, -1, 10**13, "12", 1.5, True):
        refused(api.call("POST", f"{R}/refundOrder", token=api.token("operator"),
                         json={"orderId": order_id, "reason": REASON, "amount": amount}), 422, 422)
    for reason in ("", "x" * 201, "bad\x00", "\ud800", {"a": [[[]]]}):
        refused(api.call("POST", f"{R}/refundOrder", token=api.token("operator"),
                         json={"orderId": order_id, "reason": reason}), 422, 422)
    spaces = refund(api, order_id, reason="   ", language="ru-RU")
    refused(spaces, 422, 422)
    assert "возврат" in str(spaces.body).lower()
    refused(refund(api, order_id, placed["totalFee"] + 1), 409, 1135)
    refused(refund(api, 999999), 404, 404)
    refused(decide(api, 999999, "approve", "operator"), 404, 404)
    assert order_status(api, order_id) == (2, 0)
    assert device(container, COLD_ROOM_A).service_expires_at == paid_until
    with container.session_factory()() as session:
        assert session.scalars(select(OrderRefundRow)).all() == []


def test_a_refund_left_in_flight_is_finished_by_the_job(api, container, clock, recharge_demo):
    placed, paid_until = paid_renewal(api, container)
    made = ok(refund(api, placed["orderId"], 100), os.RefundSchema)
    with container.session_factory()() as session, session.begin():  # as if the process stopped in flight
        session.execute(update(OrderRefundRow).values(status=2, finished_at=None, reference=None))
    clock.advance(minutes=6)
    assert container.resume_refunds()() == 1
    row = ok(api.call("GET", "/payment/PayOrder/selectBackOrderDetail", token=api.token("operator"),
                      query={"orderId": placed["orderId"]}), os.OrderDossierSchema)["refunds"][0]
    assert (row["refundId"], row["status"]) == (made["refundId"], 3)
    assert order_status(api, placed["orderId"]) == (5, 100)
    assert container.resume_refunds()() == 0
    # a small part of a year taken back once, not twice
    assert timedelta(0) < paid_until - device(container, COLD_ROOM_A).service_expires_at < timedelta(days=31)
