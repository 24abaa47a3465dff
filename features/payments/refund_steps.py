"""Steps of features/payments/refunds.feature: previews, refunds and their approval through the
back office's API (/payment/PayRefund/*), the provider being WeChat Pay's sandbox."""

from __future__ import annotations

import requests
from dependency_injector import providers
from features.payments.steps import _device, _ok, _order
from pytest_bdd import given, parsers, then, when
from sqlalchemy import select

from adapters.persistence.models import SystemMessageRow
from core.devices.model import add_months
from core.ordering.model import ORDER_REFUNDED
from core.ordering.refunds import RefundPolicy
from payment_sandbox.provider import deliver


def _call(world, path: str, user: str = "operator", **body):
    console = world["console"]
    return console.api.call("POST", f"/payment/PayRefund/{path}", token=console.api.token(user), json=body)


def _half(world) -> int:
    return world["order"]["totalFee"] // 2


@given(parsers.parse("refunds above {amount:g} need a second operator"))
def _approval_above(world, amount):
    container = world["console"].container
    container.refund_policy.override(providers.Object(RefundPolicy(round(amount * 100))))
    world["cleanups"].append(container.refund_policy.reset_override)


@given("WeChat Pay has already paid the whole order back")
def _paid_back_at_wechat(world):
    sandbox = world["console"].world
    payment = sandbox.ledger.by_order("wechat", world["order"]["orderCode"])
    sandbox.ledger.update(payment.id, refunded_cents=payment.amount_cents)


@when("the operator previews a refund of half the order")
def _preview(world):
    world["preview"] = _ok(_call(world, "preview", orderId=world["order"]["orderId"], amount=_half(world)))


@when(parsers.parse('the operator refunds half the order because "{reason}"'))
def _refund_half(world, reason):
    world["refund"] = _call(world, "refundOrder", orderId=world["order"]["orderId"], amount=_half(world), reason=reason)


@when(parsers.parse('the operator refunds the rest of the order because "{reason}"'))
def _refund_rest(world, reason):
    world["refund"] = _call(world, "refundOrder", orderId=world["order"]["orderId"], reason=reason)


@when(parsers.parse("the {who} approves the refund"))
def _approve(world, who):
    user = {"operator": "operator", "administrator": "admin"}[who]
    world["approval"] = _call(world, "approve", user, refundId=_ok(world["refund"])["refundId"])


@then("the preview takes 6 months back from the device and changes nothing")
def _preview_says(world):
    [taken] = world["preview"]["takeBacks"]
    assert taken["monthsTaken"] == 6.0 and not world["preview"]["needsApproval"]
    assert _device(world["console"]).service_expires_at == add_months(world["expiry"], 12)


@then("the console shows the order partially refunded")
def _partially(world):
    assert _order(world)["payStatus"] == 5


@then("the device's service runs 6 months longer than before the order")
def _six_more(world):
    assert _device(world["console"]).service_expires_at == add_months(world["expiry"], 6)


@then("the device's service is back to before the order, or now")
def _back(world):
    console = world["console"]
    assert _device(console).service_expires_at == max(world["expiry"], console.clock.now())


@then("WeChat Pay has paid back half the order")
def _half_at_wechat(world):
    payment = world["console"].world.ledger.by_order("wechat", world["order"]["orderCode"])
    assert payment.refunded_cents == _half(world)


@then("the refund awaits approval and nothing is taken yet")
def _awaits(world):
    refund = _ok(world["refund"])
    assert (refund["status"], refund["payStatus"]) == (1, 2)
    assert _device(world["console"]).service_expires_at == add_months(world["expiry"], 12)


@then(parsers.parse("the approval is refused with code {code:d}"))
def _approval_refused(world, code):
    assert (world["approval"].status, world["approval"].code) == (409, code)


@then(parsers.parse("the refund is refused with code {code:d}"))
def _refund_refused(world, code):
    assert (world["refund"].status, world["refund"].code) == (409, code)


def _refund_messages(world) -> int:
    with world["console"].container.session_factory()() as session:
        return len(session.scalars(select(SystemMessageRow).where(SystemMessageRow.template == ORDER_REFUNDED)).all())


def _refund_now(world) -> dict:
    console = world["console"]
    dossier = _ok(console.api.call("GET", "/payment/PayOrder/selectBackOrderDetail",
                                   token=console.api.token("operator"), query={"orderId": world["order"]["orderId"]}))
    return dossier["refunds"][-1]


@then("the refund is processing at the provider and alice has not been told yet")
def _processing(world):
    refund = _ok(world["refund"])
    assert (refund["status"], refund["payStatus"]) == (2, 5) and refund["providerReference"]
    assert _refund_messages(world) == 0


@when(parsers.parse("WeChat Pay notifies that the refund {outcome}"))
def _notified(world, outcome):
    """The sandbox's control finishes the refund at WeChat, which sends its refund notification;
    `twice`: WeChat sends it again, as it does until it reads SUCCESS."""
    sandbox = world["console"].world
    code = _ok(world["refund"])["refundCode"]
    answer = requests.post(f"{sandbox.sandbox_url}/refunds/wechat/{code}",
                           data={"outcome": "succeed" if outcome.startswith("succeeded") else "fail"}, timeout=30)
    assert answer.json()["merchantStatus"] == 200
    if outcome.endswith("twice"):
        payment = sandbox.ledger.by_order("wechat", world["order"]["orderCode"])
        headers, body = sandbox.providers["wechat"].refund_notification(payment, code)
        assert deliver(f"{sandbox.console_url}/api/payment/notify/wechat", body, headers).status == 200


@then("the refund has succeeded and alice is told once that her order was refunded")
def _succeeded(world):
    assert _refund_now(world)["status"] == 3 and _refund_messages(world) == 1


@then("the refund is refused by the provider")
def _refused_later(world):
    refund = _refund_now(world)
    assert refund["status"] == 4 and refund["error"] and _refund_messages(world) == 0
