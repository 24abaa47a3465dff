"""Refunds the provider only accepts, finished later (core.ordering.refund_outcomes), through the
API with the real SDKs against the local sandbox, on SQLite and PostgreSQL (the international
console's Stripe and PayPal on SQLite):

- WeChat Pay accepts a refund; its encrypted refund notification succeeds it once (replayed: one
  success, one message) or fails it (the service given back); a forged one changes nothing; the
  notification racing the resume job (which asks pay/refundquery) finishes it once;
- Stripe's pending refund ends with its signed refund.updated webhook; an unsigned one is refused;
- PayPal's PENDING refund is read back by the resume job;
- Alipay's refund is final at once; its refund notification changes nothing more.
"""

from __future__ import annotations

import threading

import requests
from sqlalchemy import select

from adapters.persistence.models import SystemMessageRow
from core.devices.model import add_months
from core.ordering.model import ORDER_REFUNDED
from entrypoints.api.orders import schemas as os
from payment_sandbox.provider import deliver
from tests.integration.test_recharge_api import COLD_ROOM_A, device, ok
from tests.integration.test_refunds_api import order_status, refund
from tests.integration.test_unpaid_orders import ALIPAY, GOOGLE_PAY, PAYPAL, order_for, press, verdicts

WECHAT_NOTIFY = "/api/payment/notify/wechat"


def finish_at_provider(console, provider: str, refund_code: str, outcome: str = "succeed") -> dict:
    """The sandbox's control: the provider finishes the refund it accepted (and notifies)."""
    answer = requests.post(f"{console.world.sandbox_url}/refunds/{provider}/{refund_code}",
                           data={"outcome": outcome}, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def refund_row(console, order_id: int) -> dict:
    dossier = ok(console.api.call("GET", "/payment/PayOrder/selectBackOrderDetail",
                                  token=console.api.token("operator"), query={"orderId": order_id}),
                 os.OrderDossierSchema)
    [row] = dossier["refunds"]
    return row


def refunded_messages(console) -> int:
    with console.container.session_factory()() as session:
        return len(session.scalars(select(SystemMessageRow).where(SystemMessageRow.template == ORDER_REFUNDED)).all())


def paid(console, pay_type: int) -> tuple[dict, object]:
    """An order paid on the sandbox's payer page (PayPal's: back to the console, which captures)."""
    placed = order_for(console, year=0, pay_type=pay_type)
    pressed = press(placed.get("payQrCode") or placed["approveUrl"])
    if pressed.status_code == 303:
        requests.get(pressed.headers["Location"], allow_redirects=False, timeout=30)
    assert order_status(console.api, placed["orderId"])[0] == 2
    return placed, device(console.container, COLD_ROOM_A).service_expires_at


# --- WeChat Pay: accepted, then its refund notification -----------------------------------------------


def test_a_wechat_refund_stays_processing_until_its_notification_succeeds_it_once(payments):
    placed = order_for(payments, year=0)
    press(placed["payQrCode"])
    paid_until = device(payments.container, COLD_ROOM_A).service_expires_at

    made = ok(refund(payments.api, placed["orderId"]), os.RefundSchema)
    assert (made["status"], made["payStatus"]) == (2, 3)  # processing at WeChat, the service already taken back
    assert made["providerReference"] and refunded_messages(payments) == 0
    assert device(payments.container, COLD_ROOM_A).service_expires_at < paid_until

    notified = finish_at_provider(payments, "wechat", made["refundCode"])
    assert (notified["merchantStatus"], "SUCCESS" in notified["merchantAnswer"]) == (200, True)
    assert refund_row(payments, placed["orderId"])["status"] == 3 and refunded_messages(payments) == 1

    # WeChat sends it again (it does, until it reads SUCCESS): acknowledged, nothing changes
    payment = payments.world.ledger.by_order("wechat", placed["orderCode"])
    headers, body = payments.world.providers["wechat"].refund_notification(payment, made["refundCode"])
    assert deliver(f"{payments.world.console_url}{WECHAT_NOTIFY}", body, headers).status == 200
    assert refund_row(payments, placed["orderId"])["status"] == 3 and refunded_messages(payments) == 1
    assert [v for _, v, _ in verdicts(payments.container)][-2:] == ["refundSucceeded", "refundFinished"]
    assert order_status(payments.api, placed["orderId"]) == (3, placed["totalFee"])


def test_a_wechat_refund_that_fails_later_gives_the_service_and_the_money_back(payments):
    placed = order_for(payments, year=0)
    press(placed["payQrCode"])
    paid_until = device(payments.container, COLD_ROOM_A).service_expires_at
    made = ok(refund(payments.api, placed["orderId"], placed["totalFee"] // 2), os.RefundSchema)
    assert device(payments.container, COLD_ROOM_A).service_expires_at == add_months(paid_until, -6)

    finish_at_provider(payments, "wechat", made["refundCode"], "fail")
    row = refund_row(payments, placed["orderId"])
    assert (row["status"], row["error"]) == (4, "refund CHANGE")
    assert order_status(payments.api, placed["orderId"]) == (2, 0)
    assert device(payments.container, COLD_ROOM_A).service_expires_at == paid_until
    assert refunded_messages(payments) == 0
    assert payments.world.ledger.by_order("wechat", placed["orderCode"]).refunded_cents == 0
    # the order may be refunded again
    again = ok(refund(payments.api, placed["orderId"], 100), os.RefundSchema)
    assert again["status"] == 2


def test_a_forged_wechat_refund_notification_is_refused_and_changes_nothing(payments):
    placed = order_for(payments, year=0)
    press(placed["payQrCode"])
    made = ok(refund(payments.api, placed["orderId"]), os.RefundSchema)
    payment = payments.world.ledger.by_order("wechat", placed["orderCode"])
    wechat = payments.world.providers["wechat"]
    url = f"{payments.world.console_url}{WECHAT_NOTIFY}"
    forged = wechat.refund_notification(payment, made["refundCode"], key="not-the-merchant-key",
                                        refund_status="SUCCESS")
    assert "FAIL" in deliver(url, forged[1], forged[0]).body
    _, unencrypted = wechat.refund_notification(payment, made["refundCode"])
    unencrypted = unencrypted.replace(b"<req_info>", b"<req_info>AAAA", 1)
    assert "FAIL" in deliver(url, unencrypted, {"Content-Type": "text/xml"}).body
    # genuine, but another amount than the refund's: recorded, refused, nothing changes
    wrong = wechat.refund_notification(payment, made["refundCode"], refund_status="SUCCESS", refund_fee=1)
    assert "FAIL" in deliver(url, wrong[1], wrong[0]).body
    assert refund_row(payments, placed["orderId"])["status"] == 2 and refunded_messages(payments) == 0
    assert [v for _, v, _ in verdicts(payments.container)][-3:] == ["badSignature", "badSignature",
                                                                     "amountMismatch"]


def test_a_wechat_refund_notification_racing_the_resume_job_finishes_it_once(payments):
    placed = order_for(payments, year=0)
    press(placed["payQrCode"])
    made = ok(refund(payments.api, placed["orderId"]), os.RefundSchema)
    # WeChat finished it, its notification not sent yet: the job's pay/refundquery finds it done
    finish_at_provider(payments, "wechat", made["refundCode"], "succeed-silently")
    payment = payments.world.ledger.by_order("wechat", placed["orderCode"])
    headers, body = payments.world.providers["wechat"].refund_notification(payment, made["refundCode"])
    payments.clock.advance(minutes=6)
    start, answers = threading.Barrier(2), []

    def notify():
        start.wait()
        answers.append(deliver(f"{payments.world.console_url}{WECHAT_NOTIFY}", body, headers).status)

    thread = threading.Thread(target=notify)
    thread.start()
    start.wait()
    payments.container.resume_refunds()()
    thread.join(30)
    assert answers == [200]
    assert refund_row(payments, placed["orderId"])["status"] == 3 and refunded_messages(payments) == 1
    assert payments.container.resume_refunds()() == 0


def test_the_resume_job_asks_wechat_about_a_refund_whose_notification_was_lost(payments):
    placed = order_for(payments, year=0)
    press(placed["payQrCode"])
    made = ok(refund(payments.api, placed["orderId"]), os.RefundSchema)
    payments.clock.advance(minutes=6)
    assert payments.container.resume_refunds()() == 1  # still PROCESSING at WeChat
    assert refund_row(payments, placed["orderId"])["status"] == 2
    finish_at_provider(payments, "wechat", made["refundCode"], "fail-silently")
    payments.container.resume_refunds()()
    assert refund_row(payments, placed["orderId"])["status"] == 4
    assert order_status(payments.api, placed["orderId"]) == (2, 0)


# --- Alipay: final at once, its notification confirms -------------------------------------------------


def test_an_alipay_refund_is_final_at_once_and_its_notification_changes_nothing_more(payments):
    placed, _ = paid(payments, ALIPAY)
    made = ok(refund(payments.api, placed["orderId"], 100), os.RefundSchema)
    assert made["status"] == 3 and refunded_messages(payments) == 1
    notified = finish_at_provider(payments, "alipay", made["refundCode"])
    assert (notified["merchantStatus"], notified["merchantAnswer"]) == (200, "success")
    assert verdicts(payments.container)[-1][1] == "refundFinished" and refunded_messages(payments) == 1


# --- Stripe and PayPal (the international console) ------------------------------------------------------


def test_a_stripe_refund_is_pending_until_its_signed_webhook_and_an_unsigned_one_changes_nothing(
        international_payments):
    console = international_payments
    placed, paid_until = paid(console, GOOGLE_PAY)
    made = ok(refund(console.api, placed["orderId"]), os.RefundSchema)
    assert made["status"] == 2 and made["providerReference"].startswith("re_")

    stripe = console.world.providers["stripe"]
    headers, body = stripe.signed_refund_event(made["refundCode"], overrides={"status": "succeeded"},
                                               secret="whsec_forged")
    assert deliver(f"{console.world.console_url}/api/payment/notify/stripe", body, headers).status == 400
    assert refund_row(console, placed["orderId"])["status"] == 2

    assert finish_at_provider(console, "stripe", made["refundCode"])["merchantStatus"] == 200
    assert refund_row(console, placed["orderId"])["status"] == 3 and refunded_messages(console) == 1
    headers, body = stripe.signed_refund_event(made["refundCode"], "charge.refund.updated")
    assert deliver(f"{console.world.console_url}/api/payment/notify/stripe", body, headers).status == 200
    assert refunded_messages(console) == 1
    assert [v for _, v, _ in verdicts(console.container)][-3:] == ["badSignature", "refundSucceeded",
                                                                   "refundFinished"]


def test_a_failed_stripe_refund_gives_the_service_back(international_payments):
    console = international_payments
    placed, paid_until = paid(console, GOOGLE_PAY)
    made = ok(refund(console.api, placed["orderId"]), os.RefundSchema)
    finish_at_provider(console, "stripe", made["refundCode"], "fail")
    assert refund_row(console, placed["orderId"])["status"] == 4
    assert device(console.container, COLD_ROOM_A).service_expires_at == paid_until


def test_a_pending_paypal_refund_is_read_back_by_the_resume_job(international_payments):
    console = international_payments
    placed, paid_until = paid(console, PAYPAL)
    made = ok(refund(console.api, placed["orderId"]), os.RefundSchema)
    assert made["status"] == 2
    console.clock.advance(minutes=6)
    assert console.container.resume_refunds()() == 1 and refund_row(console, placed["orderId"])["status"] == 2
    finish_at_provider(console, "paypal", made["refundCode"], "fail")
    console.container.resume_refunds()()
    assert refund_row(console, placed["orderId"])["status"] == 4
    assert device(console.container, COLD_ROOM_A).service_expires_at == paid_until
    second = ok(refund(console.api, placed["orderId"]), os.RefundSchema)
    finish_at_provider(console, "paypal", second["refundCode"])
    console.clock.advance(minutes=6)
    console.container.resume_refunds()()
    assert [r["status"] for r in ok(console.api.call(
        "GET", "/payment/PayOrder/selectBackOrderDetail", token=console.api.token("operator"),
        query={"orderId": placed["orderId"]}), os.OrderDossierSchema)["refunds"]] == [4, 3]
    assert refunded_messages(console) == 1
