"""What follows an order on the console's side, with the development gateway: notifications are
recorded and refused when they cannot be trusted, reconciliation closes expired orders, refunds
happen once and need the back-office permission. (tests/integration/test_*_payments.py run the
same flows through each provider's sandbox.)"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from adapters.persistence.models import PaymentNotificationRow
from core.ordering.payment_flows import ORDER_EXPIRES, Reconciliation
from tests.integration.test_recharge_api import device, levels, ok, options, pay, refused, service_order

pytestmark = pytest.mark.usefixtures("recharge_demo")


def notifications(container) -> list[tuple[str, str]]:
    with container.session_factory()() as session:
        return [(r.provider, r.verdict) for r in session.scalars(select(PaymentNotificationRow)
                                                                 .order_by(PaymentNotificationRow.id))]


def placed_order(api, token, container):
    room = device(container, "RCW360A0000001")
    basic = levels(api, token, room.id)["Basic"]
    return ok(service_order(api, token, [room.id], basic, options(api, token, room.id, basic)[0]))


def test_an_untrusted_notification_is_refused_recorded_and_changes_nothing(api, container):
    for provider in ("wechat", "alipay", "stripe"):
        reply = api.client.post(f"/api/payment/notify/{provider}", data=b"<xml><return_code>SUCCESS</return_code>"
                                                                        b"</xml>", content_type="text/xml")
        assert reply.status_code == 400
    # Stripe is no provider of the domestic edition: switched off, it reads nothing
    assert notifications(container) == [("wechat", "badSignature"), ("alipay", "badSignature"),
                                        ("stripe", "providerOff")]


def test_a_paid_order_is_refunded_once_by_the_back_office(api, container):
    alice = api.token("alice")
    placed = placed_order(api, alice, container)
    ok(pay(api, placed))
    refund = {"orderId": placed["orderId"], "reason": "Asked by the customer"}
    refused(api.call("POST", "/payment/PayRefund/refundOrder", token=alice, json=refund), 403, 403)
    operator = api.token("operator")
    assert ok(api.call("POST", "/payment/PayRefund/refundOrder", token=operator, json=refund))["payStatus"] == 3
    refused(api.call("POST", "/payment/PayRefund/refundOrder", token=operator, json=refund), 409, 1114)
    assert ok(api.call("GET", "/payment/PayOrder/get", token=alice, query={"pk": placed["orderId"]}))["payStatus"] == 3
    refused(api.call("POST", "/payment/PayRefund/refundOrder", token=operator,
                     json={"orderId": 999999, "reason": "x"}), 404, 404)


def test_an_unpaid_order_cannot_be_refunded(api, container):
    placed = placed_order(api, api.token("alice"), container)
    operator = api.token("operator")
    refused(api.call("POST", "/payment/PayRefund/refundOrder", token=operator,
                     json={"orderId": placed["orderId"], "reason": "Asked by the customer"}),
            409, 1114)


def test_reconciliation_closes_orders_unpaid_past_their_expiry(api, container, clock):
    alice = api.token("alice")
    placed = placed_order(api, alice, container)
    clock.advance(minutes=10)
    assert container.reconcile_payments()().unpaid == 1  # asked about, still unpaid, not expired yet
    clock.advance(seconds=ORDER_EXPIRES.total_seconds())
    assert container.reconcile_payments()().closed == 1
    alice = api.token("alice")
    assert ok(api.call("GET", "/payment/PayOrder/get", token=alice, query={"pk": placed["orderId"]}))["payStatus"] == 4
    refused(pay(api, placed), 409, 1111)  # the QR code of a closed order pays nothing
    assert ok(api.call("GET", "/payment/PayOrder/get", token=alice, query={"pk": placed["orderId"]}))["payStatus"] == 4
    clock.advance(minutes=5)
    assert container.reconcile_payments()() == Reconciliation()  # nothing left to do


def test_the_wechat_open_id_of_an_oauth_code_is_stable(api):
    first = ok(api.call("GET", "/payment/payment/getOpenId", query={"code": "0a1b2c"}))["openId"]
    assert first == ok(api.call("GET", "/payment/payment/getOpenId", query={"code": "0a1b2c"}))["openId"]
    assert first != ok(api.call("GET", "/payment/payment/getOpenId", query={"code": "ffee"}))["openId"]


def test_the_reconcile_command_reports_what_it_did(tmp_path):
    from click.testing import CliRunner

    from entrypoints.cli import main

    env = {"APP_ENV": "test", "VAR_DIR": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'c.db'}",
           "SECRET_KEY": "x" * 40}
    runner = CliRunner()
    assert runner.invoke(main, ["migrate"], env=env).exit_code == 0
    result = runner.invoke(main, ["reconcile"], env=env)
    assert result.exit_code == 0, result.output
    assert "settled 0, closed 0, still unpaid 0, failed 0" in result.output


