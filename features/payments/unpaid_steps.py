"""Steps of features/payments/unpaid_orders.feature: the paying drawer's order requests, My orders'
Cancel, and what the providers (the local sandbox) do with superseded, cancelled and expired
orders."""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request

from features.payments.steps import DEVICE, PAY_TYPES, _device, _ok, _order, current_level_option
from pytest_bdd import given, parsers, then, when
from sqlalchemy import select

from adapters.persistence.models import DeviceRow
from core.devices.model import add_months
from payment_sandbox.ledger import Status

PROVIDERS = {"WeChat Pay": "wechat", "Alipay": "alipay"}


def _drawer_order(world, *, months: int, method: str, invoice: bool) -> None:
    """What the paying drawer asks for after a change: the current level, one duration, one method."""
    console = world["console"]
    api, token = console.api, console.api.token("alice")
    device = _device(console)
    level, year = current_level_option(api, token, device, months)
    bill = None
    if invoice:
        bill = _ok(api.call("POST", "/payment/PayUserBill/insert", token=token, json={
            "invoiceType": 1, "billMode": 2, "personalName": "Alice Zhang", "billUserName": "Alice",
            "billPhone": "13800000001", "billMail": "alice@example.com"}))["billId"]
    placed = _ok(api.call("POST", "/payment/PayOrder/createServiceOrder", token=token, json={
        "deviceId": device.id, "levelId": level["levelId"], "levelYearId": year["id"],
        "servicePackageId": level["packageId"], "payType": PAY_TYPES[method], "serviceFee": year["serviceFee"],
        "totalFee": year["price"], "applyFlag": invoice, "billId": bill}))
    world.setdefault("earlier", [])
    if "order" in world:
        world["earlier"].append((world["choice"]["method"], world["order"]))
    world["order"], world["choice"] = placed, {"months": months, "method": method, "invoice": invoice}
    world.setdefault("expiry", device.service_expires_at)


def _my_orders(world, **query) -> list[dict]:
    console = world["console"]
    return _ok(console.api.call("POST", "/payment/PayOrder/selectMyOrderList", token=console.api.token("alice"),
                                json=query))["data"]


def _refused_by_provider(url: str) -> bool:
    request = urllib.request.Request(url, data=urllib.parse.urlencode({"outcome": "pay"}).encode(), method="POST")
    try:
        urllib.request.urlopen(request, timeout=30).close()
    except urllib.error.HTTPError as error:
        return error.code == 409
    return False


def _cancel(world, user: str):
    console = world["console"]
    return console.api.call("POST", "/payment/PayOrder/cancelOrder", token=console.api.token(user),
                            json={"orderId": world["order"]["orderId"]})


# --- when ------------------------------------------------------------------------------------


@when(parsers.parse("alice opens the paying drawer for {months:d} months of the device's current level paying by "
                    "{method}"))
def _opens_drawer(world, months, method):
    _drawer_order(world, months=months, method=method, invoice=False)


@when(parsers.parse("she changes the duration to {months:d} months"))
def _changes_duration(world, months):
    _drawer_order(world, **{**world["choice"], "months": months})


@when(parsers.parse("she changes the payment method to {method}"))
def _changes_method(world, method):
    _drawer_order(world, **{**world["choice"], "method": method})


@when("she asks for an invoice")
def _asks_invoice(world):
    _drawer_order(world, **{**world["choice"], "invoice": True})


@given("alice has cancelled the order in My orders")
@when("alice cancels the order in My orders")
def _alice_cancels(world):
    world["cancel"] = _cancel(world, "alice")
    assert _ok(world["cancel"])["payStatus"] == 4


@when("acme cancels alice's order")
def _acme_cancels(world):
    world["cancel"] = _cancel(world, "acme")


@when(parsers.parse("{method} notifies that it took the order's payment all the same"))
def _paid_anyway(world, method):
    """The payer's app paid as the order closed: the provider took the money and says so, signed."""
    console, provider = world["console"], PROVIDERS[method]
    ledger = console.world.ledger
    payment = ledger.by_order(provider, world["order"]["orderCode"])
    assert payment.status is Status.CLOSED
    ledger.update(payment.id, status=Status.PENDING)
    world["delivery"] = console.world.providers[provider].complete(ledger.get(payment.id), paid=True)


# --- then ------------------------------------------------------------------------------------


@then(parsers.parse("My orders lists 1 unpaid order: the last one"))
def _one_unpaid(world):
    assert [(o["orderId"], o["payStatus"]) for o in _my_orders(world)] == [(world["order"]["orderId"], 1)]


@then(parsers.parse("the providers refuse the QR codes of the {count:d} earlier orders"))
def _earlier_refused(world, count):
    assert len(world["earlier"]) == count
    for method, placed in world["earlier"]:
        payment = world["console"].world.ledger.by_order(PROVIDERS[method], placed["orderCode"])
        assert payment.status is Status.CLOSED
        assert _refused_by_provider(placed["payQrCode"])


@then("My orders lists 1 paid order and nothing unpaid")
def _one_paid(world):
    assert [(o["orderId"], o["payStatus"]) for o in _my_orders(world)] == [(world["order"]["orderId"], 2)]
    assert _my_orders(world, payStatus=1) == []


@then(parsers.parse("the device's service is extended by {months:d} months only"))
def _extended_by(world, months):
    console = world["console"]
    expected = add_months(world["expiry"], months)
    assert _device(console).service_expires_at == expected
    console.container.reconcile_payments()()
    with console.container.session_factory()() as session:
        assert session.scalars(select(DeviceRow.service_expires_at).where(DeviceRow.guid == DEVICE)).one() == expected


@then(parsers.parse("the console shows the order closed, {reason}"))
def _closed(world, reason):
    assert _order(world)["payStatus"] == 4
    [row] = [o for o in _my_orders(world) if o["orderId"] == world["order"]["orderId"]]
    assert row["closeReason"] == reason


@then(parsers.parse("{method} refuses the order's QR code"))
def _qr_refused(world, method):
    payment = world["console"].world.ledger.by_order(PROVIDERS[method], world["order"]["orderCode"])
    assert payment.status is Status.CLOSED
    assert _refused_by_provider(world["order"]["payQrCode"])


@then("acme is told there is no such order")
def _no_such_order(world):
    assert (world["cancel"].status, world["cancel"].code) == (404, 404)


@then("the console answers WeChat Pay with a success")
def _success_answer(world):
    delivery = world["delivery"]
    assert delivery.status == 200 and "SUCCESS" in delivery.body and "FAIL" not in delivery.body
