"""Steps of features/payments/manual_handling.feature: the back office's manual handling of an
order (POST /payment/PayOrder/handlingOrder) and the order's history as the operator reads it."""

from __future__ import annotations

from features.payments.steps import _ok
from pytest_bdd import parsers, then, when

DEFAULT_REASON = "paid at the provider, notification lost"


def _handle(world, user: str, reason: str) -> None:
    console = world["console"]
    world["handling"] = console.api.call("POST", "/payment/PayOrder/handlingOrder", token=console.api.token(user),
                                         json={"orderId": world["order"]["orderId"], "reason": reason})


def _history(world) -> list[dict]:
    console = world["console"]
    return _ok(console.api.call("GET", "/payment/PayOrder/selectBackOrderDetail", token=console.api.token("operator"),
                                query={"orderId": world["order"]["orderId"]}))["history"]


@when(parsers.parse('the operator handles the order manually because "{reason}"'))
def _operator_handles(world, reason):
    _handle(world, "operator", reason)


@when("the operator handles the order manually again")
def _operator_handles_again(world):
    _handle(world, "operator", DEFAULT_REASON)


@when("alice handles her own order manually")
def _alice_handles(world):
    _handle(world, "alice", DEFAULT_REASON)


@then(parsers.parse('the order\'s history says the operator settled it because "{reason}"'))
def _history_says(world, reason):
    assert [(h["kind"], h["userName"], h["reason"]) for h in _history(world)] == [
        ("pay", None, None), ("manualHandling", "operator", reason)]


@then("the order's history is empty")
def _history_empty(world):
    assert _history(world) == []


@then(parsers.parse("the operator is refused with code {code:d}"))
def _refused(world, code):
    assert (world["handling"].status, world["handling"].code) == (409, code), world["handling"].body


@then(parsers.parse("the operator is refused with code {code:d}, told the provider says the order is not paid"))
def _refused_unpaid(world, code):
    _refused(world, code)
    message = world["handling"].body["msg"]
    assert "is not paid" in message and world["order"]["orderCode"] in message


@then(parsers.parse("alice is refused with status {status:d}"))
def _alice_refused(world, status):
    assert world["handling"].status == status
