"""Steps of features/calibration/*.feature: the domestic console paying through the provider
sandboxes (features/payments/steps.py's Given), a customer without an account acting with their
access token, the payer page driven over HTTP as a payer's browser would."""

from __future__ import annotations

import requests
from pytest_bdd import given, parsers, then, when
from sqlalchemy import select

from adapters.persistence.models import DeviceRow
from payment_sandbox.ledger import Status as SandboxStatus

C = "/calibration/Application"
PAY = "/payment/payment"
TOKEN, CONTACT = "X-Calibration-Token", "X-Calibration-Contact"
EMAIL = "wang@example.com"
DETAILS = {"customerName": "Pharma Ltd", "contactName": "Wang", "contactPhone": "+86 139-0000-0001",
           "contactEmail": EMAIL, "returnAddress": "9 Pharmacy Lane"}


def _cents(amount: str) -> int:
    return round(float(amount) * 100)


def _ok(reply):
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


def _call(world, method: str, path: str, **body):
    """The customer's call on their application, with the link's access token."""
    return world["console"].api.call(method, path, headers={TOKEN: world["token"]},
                                     json={"applicationNumber": world["number"], **body})


def _application(world) -> dict:
    return _ok(world["console"].api.call("GET", f"{C}/get/applicationInfo", headers={CONTACT: EMAIL},
                                         query={"applicationNumber": world["number"]}))


def _lab(world, status: int):
    api = world["console"].api
    application = _ok(api.call("POST", f"{C}/page/allApplicationOrder", token=api.token("calibadmin"),
                               json={"applicationNumber": world["number"]}))["data"][0]
    return api.call("POST", f"{C}/applicationStatus" if status != 8 else f"{C}/cancel/apply",
                    token=api.token("calibadmin"), json={"applicationId": application["applicationId"],
                                                         **({"status": status} if status != 8 else {})})


# --- given -----------------------------------------------------------------------------------


@given(parsers.parse("the lab prices a standard calibration of the logger's type at {amount}"))
def _priced(world, amount):
    console = world["console"]
    with console.container.session_factory()() as session:
        world["type_id"] = session.scalar(select(DeviceRow.type_id).where(DeviceRow.guid == "RCW360A0000001"))
    world["price"] = _cents(amount)
    _ok(console.api.call("PUT", "/calibration/PriceConf/update/price", token=console.api.token("calibadmin"),
                         json={"deviceTypeId": world["type_id"], "service": 1, "price": world["price"]}))


@given("a customer without an account has applied for one logger")
def _applied(world):
    made = _ok(world["console"].api.call("POST", f"{C}/apply", json={**DETAILS, "devices": [
        {"service": 1, "deviceTypeId": world["type_id"], "model": "RCW-360", "serialNumber": "SN-0001"}]}))
    world["number"], world["token"] = made["applicationNumber"], made["accessToken"]


# --- when ------------------------------------------------------------------------------------


@when("the customer pays by Alipay on the payer page the QR code opens")
def _pays_by_alipay(world):
    started = _ok(_call(world, "POST", f"{PAY}/aliPay"))
    assert requests.post(started["payQrCode"], data={"outcome": "pay"}, timeout=30).status_code == 200


@when("Alipay notifies the console of that payment again")
def _notified_again(world):
    payments = world["console"].world
    headers, body = payments.providers["alipay"].notification(payments.ledger.by_order("alipay", world["number"]))
    answer = requests.post(f"{payments.console_url}/api/payment/notify/alipay", data=body, headers=headers,
                           timeout=30)
    assert (answer.status_code, answer.text) == (200, "success")


@when("the customer starts paying by WeChat Pay")
def _starts_wechat(world):
    world["started"] = _ok(_call(world, "POST", f"{PAY}/wechatPay"))


@when(parsers.parse('the customer gives the inbound tracking number "{number}"'))
def _tracking(world, number):
    _ok(_call(world, "POST", f"{C}/trackingNumber", trackingNumber=number))


@when("the lab marks the devices received")
def _received(world):
    _ok(_lab(world, 4))


@when("the lab cancels the application")
def _lab_cancels(world):
    world["cancelled"] = _ok(_lab(world, 8))


@when("the customer cancels the application")
def _cancels(world):
    world["cancelled"] = _ok(_call(world, "POST", f"{C}/cancel/apply"))


@when("someone with the customer's contact tries to pay and to cancel")
def _contact_tries(world):
    api = world["console"].api
    world["refusals"] = [api.call("POST", path, headers={CONTACT: EMAIL}, json={"applicationNumber": world["number"]})
                         for path in (f"{PAY}/aliPay", f"{C}/cancel/apply")]


# --- then ------------------------------------------------------------------------------------


@then(parsers.parse("the application is at status {status:d}"))
def _at_status(world, status):
    assert _application(world)["status"] == status


@then(parsers.parse("the application is at status {status:d} and was paid {amount} once"))
def _paid_once(world, status, amount):
    found = _application(world)
    assert (found["status"], found["paidFee"]) == (status, _cents(amount))
    payment = world["console"].world.ledger.by_order("alipay", world["number"])
    assert payment.status is SandboxStatus.PAID and payment.amount_cents == _cents(amount)


@then(parsers.parse("the application is at status {status:d} with nothing to pay back"))
def _nothing_back(world, status):
    cancelled = world["cancelled"]
    assert (cancelled["application"]["status"], cancelled["refundFee"], cancelled["refundState"]) == (status, 0, 0)
    assert _application(world)["status"] == status


@then(parsers.parse("the application is at status {status:d} and {amount} is paid back"))
def _paid_back(world, status, amount):
    cancelled = world["cancelled"]
    assert (cancelled["application"]["status"], cancelled["refundFee"]) == (status, _cents(amount))
    assert cancelled["refundState"] == 2 and _application(world)["refundState"] == 2


@then(parsers.parse("Alipay has paid back {amount} once"))
def _alipay_paid_back(world, amount):
    payment = world["console"].world.ledger.by_order("alipay", world["number"])
    assert (payment.status, payment.refunded_cents, payment.refunds) == (
        SandboxStatus.REFUNDED, _cents(amount), (f"{world['number']}R",))


@then(parsers.parse("the customer's cancellation is refused with code {code:d}"))
def _refused(world, code):
    reply = _call(world, "POST", f"{C}/cancel/apply")
    assert (reply.status, reply.code) == (409, code)


@then("the payer page of the QR code no longer takes the payment")
def _closed(world):
    assert requests.post(world["started"]["payQrCode"], data={"outcome": "pay"}, timeout=30).status_code == 409
    payment = world["console"].world.ledger.by_order("wechat", world["number"])
    assert payment.status is SandboxStatus.CLOSED


@then(parsers.parse("both are refused with code {code:d}"))
def _both_refused(world, code):
    assert [(r.status, r.code) for r in world["refusals"]] == [(403, code), (403, code)]
